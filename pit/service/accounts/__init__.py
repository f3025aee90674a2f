"""Who may use the pit: users' passwords, the lockout after wrong tries, API tokens."""
