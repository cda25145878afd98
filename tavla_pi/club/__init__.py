"""The club page: every board of a club live, from the broker (``tavla-pi club``)."""
