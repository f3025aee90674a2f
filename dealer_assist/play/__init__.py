"""Whole rounds driven through the tracker: the round driver, round files (`settle`), random
play for the bench and the odds, and shoes."""
