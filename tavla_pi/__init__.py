"""tavla-pi: the controller of a sensing backgammon board.

The package is a one-way pipeline (see docs/ARCHITECTURE.md): ``rules`` (pure
backgammon), ``hal`` (hardware and the modelled board), ``decode`` (sensor
frames to observations), ``reconcile`` (observations to plays), ``game`` (the
match state machine), ``events`` (journal), ``leds`` (pixel frames), ``web``
and ``cli``.  Importing the package never imports a hardware library.
"""

from tavla_pi.errors import TavlaError

__all__ = ["TavlaError", "__version__"]
__version__ = "0.1.0"
