"""The hardware layer: the only code that touches hardware.

Backends: ``pi`` (gpiozero + Adafruit NeoPixel, imported lazily) and ``sim``
(a modelled physical board).  Importing this package imports no hardware
library.
"""
