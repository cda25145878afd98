"""The board that speaks: what is said for each event (``speech.narrate``), in the words
of one phrase table per language (``speech.words``)."""
