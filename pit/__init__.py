"""The card room: the table's side that ships its journal, the pit service that witnesses and
keeps it, and the trial room. Never imports Qt, the devices or the emulators."""
