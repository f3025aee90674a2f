-- A head office (PIT.md §8): how far its copy of each room's stream is behind the room's, as the
-- ingesting pit last set the room's stream (asked through its JetStream domain) against what it
-- has written; and the room of an alert that is a room's,
-- not a table's (a room more than 60 s behind). A journal's room is kept in journals.room, fixed
-- when its first record is sourced.
CREATE TABLE room_sourcing (
    room text PRIMARY KEY,
    behind_records bigint NOT NULL,           -- the room's records its stream holds and ours does not yet
    behind_s double precision NOT NULL,       -- how long the copy has been behind (0: caught up)
    checked timestamptz NOT NULL,
    stored_seq bigint NOT NULL DEFAULT 0,     -- how far into the room's stream the head office has written
    behind_since timestamptz                  -- when the copy fell behind (null: caught up); its alert's cause
);
ALTER TABLE alerts ADD COLUMN room text;      -- null: the room of the alert's journal, if any
CREATE INDEX journals_room_table ON journals (room, table_id);
