"""The chip keypads: wagers, the bank and a double for less, each chip value in one place in all of them."""
