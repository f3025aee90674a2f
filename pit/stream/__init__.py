"""What travels between a table and the pit: the messages on the wire and the broker's stream,
subjects and identities. Both sides import it; it imports neither."""
