"""The board's hardware described in code: the pin map read from ``hardware/pinout.toml``,
where each sensor sits, and the magnet field model the decoder inverts and the simulated
board computes.  It touches no hardware (that is :mod:`tavla_pi.hal`)."""
