"""Device adapters: bytes from the shoe, the peek device and the camera turned into domain events."""
