"""The dealer's touchscreen, the supervisor's screens and the `dealer-assist` command."""
