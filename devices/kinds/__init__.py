"""The serial devices, each an adapter from the wire to the table's events: the shoe, the peek device, the wager
reader."""
