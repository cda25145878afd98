"""The ``pi`` backend: the real board through gpiozero, spidev and the Adafruit NeoPixel drivers.

gpiozero's core is imported here; pin factories (RPi.GPIO, lgpio) and the
Adafruit/Blinka libraries are imported only inside the functions that open
real hardware.  The ADCs are read through the kernel's ``/dev/spidevB.C``
with ``fcntl.ioctl`` and ``ctypes`` (``spidev``, ``adcs``): no library.
"""

from tavla_pi.hal.pi.backend import PiBackend, open_pi_backend
from tavla_pi.hal.pi.board import PiModel, detect_model
from tavla_pi.hal.pi.buttons import PiButtons
from tavla_pi.hal.pi.mux import MuxSelect
from tavla_pi.hal.pi.pixels import NeoPixelStrip, PixelWriter, encode_frame
from tavla_pi.hal.pi.sensors import PiSensorGrid, PowerPolicy

__all__ = [
    "MuxSelect",
    "NeoPixelStrip",
    "PiBackend",
    "PiButtons",
    "PiModel",
    "PiSensorGrid",
    "PixelWriter",
    "PowerPolicy",
    "detect_model",
    "encode_frame",
    "open_pi_backend",
]
