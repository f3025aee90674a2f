"""The table's side of the card room: where its pit is, the journal as outbox, the shipper that
sends records and status, and the journal commands that need the pit."""
