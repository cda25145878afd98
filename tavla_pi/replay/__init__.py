"""Scenarios: drive the modelled board, buttons and dice on a virtual clock."""
