"""Exact odds of the bonus bets, worked out from the full shoe.

Pure arithmetic on card counts: no files, devices or screens, so the numbers a card room posts
can be checked against the published tables and reproduced anywhere.
"""
