"""The table around its rounds: the session (shoes, the bank and its rotation, corrections), PINs,
the roster, the journaled table that records every input before it applies it, and snapshots."""
