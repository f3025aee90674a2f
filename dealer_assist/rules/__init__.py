"""The game's rules: cards, money, rule profiles, totals, outcomes, hands, settlement, the inputs
of a round and the operations they cause, and the round tracker that checks and applies them."""
