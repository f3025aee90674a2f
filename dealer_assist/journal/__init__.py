"""The journal as a file: hash-chained records in SQLite, written first and verified on every
opening; the lock that keeps one writer; record sources that read a journal wherever it is kept."""
