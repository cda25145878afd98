"""The wiring of every stage: the only package that knows them all."""
