"""What every screen shares: the theme and font, labels and guards against stray taps, the words
people read, and the bridge to the table's owner."""
