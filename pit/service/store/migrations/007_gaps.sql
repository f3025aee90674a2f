-- A journal whose next record the pit lacks while later ones wait in the stream (PIT.md §2, §4):
-- its first missing seq, how many records wait past it, and the stream seq of the first of them,
-- which its head's stream position never passes, so a pit started again reads them from there.
CREATE TABLE journal_gaps (
    journal text PRIMARY KEY,
    table_id text NOT NULL,
    missing_from bigint NOT NULL,
    held bigint NOT NULL,
    held_from bigint NOT NULL,
    opened timestamptz NOT NULL DEFAULT now()
);

-- An alert whose cause has ended (a gap filled): kept beside the alert, which is never edited and
-- stays open until a pit user acknowledges it.
CREATE TABLE alerts_cleared (
    alert_id bigint PRIMARY KEY REFERENCES alerts,
    at timestamptz NOT NULL DEFAULT now()
);
