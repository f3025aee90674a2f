"""The room's public log (PIT.md §9), kept by the ingesting pit: one leaf per closed round, and per
segment of records that waited with no round closing, appended in the transaction that stores the
records (`append`); checkpoints signed on an interval and cosigned by the policy's witnesses (`keeper`);
the tiles, the published checkpoint and a round's proof read from the store by every pit (`reading`).

Where a leaf's place is fixed: in PostgreSQL, in the records' own transaction, and a checkpoint is
signed only over leaves every standby has already received (`standbys`: each one streaming, and each one
with a replication slot, connected or not). Not a JetStream stream with an expected last sequence:
ingest would then wait on a second system for every batch, and a leaf's record and its place could part
on a crash between the two writes. Not `synchronous_commit = remote_apply` on the leaves' transactions:
that makes the table's records wait for the standby on every batch, and does nothing unless the primary
names its standby in `synchronous_standby_names`. Asking `pg_stat_replication` and
`pg_replication_slots` before signing costs ingest nothing, holds however the primary is configured, and
keeps the rule: a promoted standby that lost commits lost only leaves no checkpoint covers, which ingest
appends again when it reads the lost records again from the stream; and the keeper never signs a tree
whose leaves do not rebuild the last checkpoint signed.
"""
