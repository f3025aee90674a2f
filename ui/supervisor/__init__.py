"""The floor supervisor's screens: recall, corrections with a PIN and a reason, the bank's rotation,
the PIN pad and the dispute report."""
