"""A tlog-witness (c2sp.org/tlog-witness): cosigns a log's checkpoints that grow append-only from the
last it cosigned, keeps its state in a SQLite file, and keeps the evidence of an inconsistent log."""
