"""Statistics over recorded events (the dice players suspect)."""
