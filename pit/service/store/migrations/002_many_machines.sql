-- Many machines (PIT.md §8): where each journal's witnessed head sits in this pit's own stream, so
-- a pit whose store came back behind what it acknowledged reads again from there; and, at a head
-- office, the room each journal comes from.

ALTER TABLE journals ADD COLUMN head_stream_seq bigint NOT NULL DEFAULT 0;  -- 0: not known, read from the start
ALTER TABLE journals ADD COLUMN room text;                                  -- null in a room's own pit

-- A head office's rooms, as `pit nats-config --head-office --rooms` names them, with the password
-- of each room's leaf connection.
CREATE TABLE rooms (
    name text PRIMARY KEY,
    leaf_password text NOT NULL,
    created timestamptz NOT NULL DEFAULT now()
);
