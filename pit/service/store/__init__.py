"""The pit's PostgreSQL store: set up by its numbered migrations, read and changed for the dashboard
and the commands, its records as a recall source, its sessions and the ingest lock, its news channel."""
