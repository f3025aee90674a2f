-- Whose a round is in the per-dealer report (RULES.md §8.25): the dealer signed in when its first
-- card was dealt, 1 on that dealer's row of the round (pit/service/dealing.py, ROUNDS_COUNTED).
ALTER TABLE dealer_rounds ADD COLUMN rounds int NOT NULL DEFAULT 0;

-- Rounds stored before: the first dealer their close record names (the one signed in when the round
-- opened, or the first to sign in during it), until `pit rebuild` follows their records again.
INSERT INTO dealer_rounds (journal, round_id, dealer, rounds)
    SELECT journal, round_id, coalesce(dealers[1], ''), 1 FROM rounds WHERE closed_at IS NOT NULL
    ON CONFLICT (journal, round_id, dealer) DO UPDATE SET rounds = 1;
