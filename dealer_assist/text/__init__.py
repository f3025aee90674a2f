"""The words people read: records, wagers and results in words, and a round's story for the
recall screen, `journal recall` and the dispute report."""
