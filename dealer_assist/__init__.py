"""The domain of dealer-assist: cards, rule profiles, the round tracker, settlement, journal.

Pure Python: no Qt, serial, OpenCV or zbar here, so the same rules run at the table, in replay
and in every test.
"""
