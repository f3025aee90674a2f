"""The dealer's touchscreen: the window, the seats and hands, the decision bar, the device lights and
the banner, and the bench panel of an emulated table."""
