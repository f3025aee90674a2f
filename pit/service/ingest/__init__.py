"""Ingest: the stream's records and the tables' status into the store, by the one pit holding the
ingest lock (`leader`); the records consumer, its batch planning, the witness, catch-up and writes;
the status listener and its silence clock."""
