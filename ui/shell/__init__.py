"""The shell around the screens: `run` and its display, kiosk and VNC ways on, the lifetime that stops
and seals a table, and autoplay."""
