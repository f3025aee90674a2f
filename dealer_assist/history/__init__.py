"""The journal read back: recall of rounds with their evidence, round files rebuilt from the
records, and the supervisor's snapshot."""
