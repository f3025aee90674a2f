"""pyserial URL handlers for emulators served inside the same process (`inproc://NAME`)."""
