-- Who deals (RULES.md §8.25) and what the wager reader finds (§8.22-8.24), derived from the records:
-- rebuilt from them at any time (`pit rebuild`), like the rounds.

-- Who dealt each round, in turn, as its close record names them; none when no dealer was signed in.
ALTER TABLE rounds ADD COLUMN dealers text[] NOT NULL DEFAULT '{}';

-- A dealer's stint at a table: from the sign-in to the sign-out, a relief's sign-in, or the last
-- record of the stint so far.
CREATE TABLE dealer_stints (
    journal text NOT NULL REFERENCES journals,
    seq bigint NOT NULL,             -- the sign-in's record
    table_id text NOT NULL,
    dealer text NOT NULL,
    began timestamptz NOT NULL,
    ended timestamptz NOT NULL,
    PRIMARY KEY (journal, seq)
);
CREATE INDEX dealer_stints_time ON dealer_stints (began, ended);

-- What each dealer did in each round: the dealer's own taps, late changes and mispays while signed
-- in ('' : no dealer signed in). Taps between rounds (the bank's choices) count for the round they lead to.
CREATE TABLE dealer_rounds (
    journal text NOT NULL REFERENCES journals,
    round_id bigint NOT NULL,
    dealer text NOT NULL,
    taps int NOT NULL DEFAULT 0,
    late_changes int NOT NULL DEFAULT 0,
    mispays int NOT NULL DEFAULT 0,
    PRIMARY KEY (journal, round_id, dealer)
);

-- Where each journal's watch stands after its last stored record (pit/service/dealing.py): who is
-- signed in, the open late changes, the reader's faulted spots; the next batch goes on from it.
CREATE TABLE journal_watch (
    journal text PRIMARY KEY REFERENCES journals,
    state jsonb NOT NULL
);
