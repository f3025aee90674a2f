"""The pit service, in wings: the web dashboard and ingest on top, beside each other; the store
beneath them; the floor's rules and the accounts at the bottom."""
