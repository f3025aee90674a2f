"""The pit service: ingest from the stream, the witness, alerts, the PostgreSQL store and the
web dashboard with its JSON API."""
