"""Sensor frames to observations: calibration, thresholds, stability.

``Decoder(calibration, pinmap).decode(frame)`` turns raw frames into
:class:`Observation` values; :class:`StabilityFilter` passes on only those
that hold still.  The physics behind the thresholds is in
:mod:`tavla_pi.hardware.physics`.
"""

from tavla_pi.decode.calibration import (
    Calibration,
    CalibrationError,
    CalibrationFileError,
    calibrate,
    calibration_for,
    default_state_dir,
    load_calibration,
    save_calibration,
)
from tavla_pi.decode.decoder import Decoder, SensorFrameError, decode
from tavla_pi.decode.observation import CountRange, Observation, Reading, SensorFault
from tavla_pi.decode.stability import StabilityFilter

__all__ = [
    "Calibration",
    "CalibrationError",
    "CalibrationFileError",
    "CountRange",
    "Decoder",
    "Observation",
    "Reading",
    "SensorFault",
    "SensorFrameError",
    "StabilityFilter",
    "calibrate",
    "calibration_for",
    "decode",
    "default_state_dir",
    "load_calibration",
    "save_calibration",
]
