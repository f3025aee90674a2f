"""What the bets are worth: exact odds of the bonus bets from the full shoe, the optimal strategy of
the base game and its EV, and a Monte Carlo of whole rounds through the round tracker.

The exact figures are pure arithmetic on card counts, so the numbers a card room posts can be
checked against the published tables and reproduced anywhere; nothing here touches files,
devices or screens.
"""
