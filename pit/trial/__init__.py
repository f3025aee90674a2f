"""The trial room: a whole card room on one machine, its private broker and store started as
local services."""
