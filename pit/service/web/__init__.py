"""The pit's web dashboard and JSON API (PIT.md §6): the application (`app`), its pages, API and
event stream, and how `pit serve` runs it (`serve`)."""
