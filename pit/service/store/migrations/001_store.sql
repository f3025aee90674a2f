-- The pit's store (PIT.md §3): every record of every journal, each journal's witnessed head,
-- what is derived from the records, alerts with their acknowledgements, users and tokens.

CREATE TABLE settings (
    name text PRIMARY KEY,
    value jsonb NOT NULL
);
INSERT INTO settings VALUES ('payout_threshold', '1000');

-- The pit service's own broker identity (one row), and each added table's public key.
CREATE TABLE pit_identity (
    id int PRIMARY KEY CHECK (id = 1),
    seed text NOT NULL,
    public_key text NOT NULL,
    created timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE table_identities (
    table_id text PRIMARY KEY,
    public_key text NOT NULL,
    created timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE journals (
    journal text PRIMARY KEY,
    table_id text NOT NULL,
    header jsonb NOT NULL,
    profile_id text NOT NULL,
    profile_hash text NOT NULL,
    software text NOT NULL,
    head_seq bigint NOT NULL,
    head_hash text NOT NULL,
    rounds_closed int NOT NULL DEFAULT 0,
    diverged_at bigint,          -- the seq of the first refused record; nothing after it is stored
    first_seen timestamptz NOT NULL DEFAULT now(),
    last_record timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX journals_table ON journals (table_id, first_seen);

CREATE TABLE records (
    journal text NOT NULL REFERENCES journals,
    seq bigint NOT NULL,
    wall text NOT NULL,
    mono_ns bigint NOT NULL,
    round_id bigint,
    kind text NOT NULL,
    body text NOT NULL,          -- the canonical JSON text, exactly as hashed
    hash text NOT NULL,
    received timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (journal, seq)
);
CREATE INDEX records_round ON records (journal, round_id, seq);
CREATE INDEX records_kind ON records (journal, kind);

-- Derived from the records: rebuilt from them at any time.
CREATE TABLE rounds (
    journal text NOT NULL REFERENCES journals,
    round_id bigint NOT NULL,
    table_id text NOT NULL,
    opened text NOT NULL,
    closed text,
    closed_at timestamptz,
    close_seq bigint,
    voided boolean NOT NULL DEFAULT false,
    player_dealer_net numeric,
    fees_players numeric,
    fees_player_dealer numeric,
    ledger jsonb,
    PRIMARY KEY (journal, round_id)
);
CREATE INDEX rounds_closed ON rounds (table_id, closed_at);

CREATE TABLE corrections (
    journal text NOT NULL REFERENCES journals,
    seq bigint NOT NULL,
    position int NOT NULL,
    table_id text NOT NULL,
    round_id bigint,
    at timestamptz NOT NULL,
    type text NOT NULL,
    supervisor text NOT NULL,
    reason text NOT NULL,
    PRIMARY KEY (journal, seq, position)
);
CREATE INDEX corrections_at ON corrections (table_id, at);

CREATE TABLE table_status (
    table_id text PRIMARY KEY,
    journal text NOT NULL,
    status jsonb NOT NULL,       -- the last status message, as sent
    received timestamptz NOT NULL,
    down_since jsonb NOT NULL DEFAULT '{}'   -- device -> epoch seconds its link went down
);

-- Messages that were not what PIT.md §2 describes: kept as evidence, never stored as records.
CREATE TABLE refused_messages (
    id bigserial PRIMARY KEY,
    received timestamptz NOT NULL DEFAULT now(),
    subject text NOT NULL,
    error text NOT NULL,
    data bytea NOT NULL
);

-- Alerts: raised once per cause, never edited; an acknowledgement is kept forever.
CREATE TABLE alerts (
    id bigserial PRIMARY KEY,
    cause text NOT NULL UNIQUE,
    kind text NOT NULL,
    table_id text NOT NULL,
    journal text,
    round_id bigint,
    seq bigint,
    raised timestamptz NOT NULL,
    text text NOT NULL
);
CREATE INDEX alerts_table ON alerts (table_id, id);
CREATE TABLE acknowledgements (
    alert_id bigint PRIMARY KEY REFERENCES alerts,
    by_user text NOT NULL,
    at timestamptz NOT NULL DEFAULT now(),
    note text NOT NULL
);

CREATE TABLE users (
    name text PRIMARY KEY,
    role text NOT NULL CHECK (role IN ('supervisor', 'surveillance', 'manager')),
    salt bytea NOT NULL,
    hash bytea NOT NULL,
    created timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE logins (
    id bigserial PRIMARY KEY,
    name text NOT NULL,
    at timestamptz NOT NULL DEFAULT now(),
    source text NOT NULL,
    outcome text NOT NULL CHECK (outcome IN ('ok', 'wrong', 'locked'))
);
CREATE INDEX logins_name ON logins (name, id);
CREATE TABLE tokens (
    hash text PRIMARY KEY,       -- SHA-256 of the token; the token itself is never kept
    name text NOT NULL,
    role text NOT NULL CHECK (role IN ('supervisor', 'surveillance', 'manager')),
    created timestamptz NOT NULL DEFAULT now()
);

-- What is kept forever stays as it was written.
CREATE FUNCTION refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% rows are kept as written: % refused', TG_TABLE_NAME, TG_OP;
END $$;
CREATE TRIGGER alerts_kept BEFORE UPDATE OR DELETE ON alerts FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER acknowledgements_kept BEFORE UPDATE OR DELETE ON acknowledgements
    FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER records_kept BEFORE UPDATE OR DELETE ON records FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER logins_kept BEFORE UPDATE OR DELETE ON logins FOR EACH ROW EXECUTE FUNCTION refuse_change();
