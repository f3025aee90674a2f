"""The room's public log in the standard transparency-log formats (PIT.md §9): RFC 6962 hashing and proofs,
C2SP signed notes, checkpoints, cosignatures, tiles, proofs and policies, and a tlog-witness.

Everything here but the witness's server and the key files is pure: bytes and text in, bytes and text out.
"""
