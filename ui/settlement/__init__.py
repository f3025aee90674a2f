"""The settlement: the itemized rows the dealer pays and collects in order, and the payments step."""
