"""The board that speaks: every roll, play and fix said aloud (el, tr, en; docs/SPEECH.md)."""
