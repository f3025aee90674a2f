"""What the floor is told, pure: the alerts' rules, the dealers' tallies, the facts a record tells of
its round, and the one interface the dashboard and the API read (`data`)."""
