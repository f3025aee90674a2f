-- The room's public log (PIT.md §9). Leaves are written by ingest in the transaction that stores the
-- records they cover, so a store that lost commits lost both; a checkpoint is signed only over leaves
-- every streaming standby has applied (pit.service.log), so no signed leaf is ever lost.
CREATE TABLE log_leaves (
    idx bigint PRIMARY KEY,
    journal text NOT NULL,
    round_id bigint,
    first_seq bigint NOT NULL,
    last_seq bigint NOT NULL,
    leaf bytea NOT NULL,  -- the da-leaf-1 text
    hash bytea NOT NULL,  -- RFC 6962 leaf hash: SHA-256(0x00 || leaf)
    table_id text NOT NULL,
    appended timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX log_leaves_round ON log_leaves (journal, round_id) WHERE round_id IS NOT NULL;
CREATE UNIQUE INDEX log_leaves_last ON log_leaves (journal, last_seq);

-- Per journal, the last record in a leaf (a journal without a row has none yet).
CREATE TABLE log_journals (
    journal text PRIMARY KEY,
    leafed_seq bigint NOT NULL,
    leafed_hash text NOT NULL
);

-- Every checkpoint signed, with the cosignatures gathered for it; published once the quorum cosigned.
CREATE TABLE log_checkpoints (
    size bigint PRIMARY KEY,
    root bytea NOT NULL,
    note bytea NOT NULL,  -- the log's signed note, then every cosignature received appended
    signed timestamptz NOT NULL DEFAULT now(),
    published timestamptz
);

-- The size each witness last cosigned, as it told us (a 200, or a 409's body).
CREATE TABLE log_witnesses (
    name text PRIMARY KEY,
    size bigint NOT NULL
);

-- A leaf is kept as written, like the records it covers (the log's auditors would find a change anyway).
CREATE TRIGGER log_leaves_kept BEFORE UPDATE OR DELETE ON log_leaves FOR EACH ROW EXECUTE FUNCTION refuse_change();
