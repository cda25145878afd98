"""The remote board: a match with a friend's board through an MQTT broker (docs/REMOTE.md)."""
