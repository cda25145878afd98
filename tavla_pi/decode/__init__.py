"""Sensor frames to observations: calibration, thresholds, stability."""

from tavla_pi.decode.observation import CountRange, Observation, Reading, SensorFault

__all__ = ["CountRange", "Observation", "Reading", "SensorFault"]
