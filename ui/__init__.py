"""The dealer's touchscreen, the supervisor's screens and the `dealer-assist` command."""
from ui.refcounts import pin_singletons

pin_singletons()
