"""The narrow LED writes, one per driver of ``[leds] driver`` in the pin map.

- ``spi`` (any Pi; what ``auto`` means on Pi 0-4): Adafruit ``neopixel_spi`` on
  SPI1 (MOSI GPIO 20), or SPI0 (MOSI GPIO 10) when the ADCs are not on it (the
  LEDs would see their traffic);
- ``pio`` (Pi 5 family; what ``auto`` means there): Adafruit's RP1 PIO ``neopixel_write``;
- ``pwm`` (Pi 0-4, the opt-in): Adafruit ``neopixel`` on GPIO 10/12/18/21, through
  rpi_ws281x (PWM/PCM/SPI with DMA) and Blinka's ``board``.  rpi_ws281x maps
  ``/dev/mem``, so the process must be root: opening it says so in a warning.

The Adafruit strips are set up as pass-throughs (byte order RGB, brightness
1, no auto-write): the bytes :func:`tavla_pi.hal.pi.pixels.encode_frame`
made are the bytes on the wire.  Libraries load only in :func:`open_pixel_writer`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from tavla_pi.errors import HardwareError, PinMapError
from tavla_pi.hal.pi.board import PiModel, load_library
from tavla_pi.hal.pi.pixels import PixelWriter
from tavla_pi.hardware.pinmap import PinMap

NEOPIXEL_PINS = (10, 12, 18, 21)
"""The GPIOs Adafruit's ``neopixel`` (rpi_ws281x) drives: D10, D12, D18, D21."""
SPI_MOSI_PINS = {10: 0, 20: 1}
SPI_CLOCK_NAMES = {0: ("SCLK", "MOSI"), 1: ("SCLK_1", "MOSI_1")}
PWM_ROOT_WARNING = ("LED driver 'pwm' (rpi_ws281x) maps /dev/mem and so needs root, which "
                    "the service gets from systemd/pwm-root.conf; wire the LEDs to SPI1 MOSI "
                    "(GPIO 20, [leds] driver = \"auto\", spi_port = 1) to run unprivileged")
"""Said once at start when the pin map opts in to PWM: why the daemon is root."""

log = logging.getLogger("tavla_pi.hal.pi")


class PixelbufWriter:
    """Writes wire bytes through an Adafruit PixelBuf strip set up as a pass-through."""

    def __init__(self, strip: Any) -> None:
        self._strip = strip

    def write(self, data: bytes) -> None:
        """Load the bytes as RGB triples (i.e. unchanged) and show them."""
        self._strip[0:len(data) // 3] = [tuple(data[i:i + 3]) for i in range(0, len(data), 3)]
        self._strip.show()

    def close(self) -> None:
        """Release the strip's pin or bus."""
        self._strip.deinit()


class Pi5Writer:
    """Writes wire bytes with the RP1 PIO ``neopixel_write`` of the Pi 5 family."""

    def __init__(self, write: Any, pin: Any) -> None:
        self._write = write
        self._pin = pin

    def write(self, data: bytes) -> None:
        """Clock the bytes out on the pin."""
        self._write(self._pin, bytearray(data))

    def close(self) -> None:
        """Nothing to release: the PIO program stays loaded for the next user."""


def check_led_driver(pinmap: PinMap, model: PiModel) -> None:
    """Refuse a driver that cannot work on this model or pin, before opening anything."""
    leds = pinmap.leds
    driver = leds.resolve_driver(pi5=model.has_rp1)
    if driver == "pwm":
        if model.has_rp1:
            raise HardwareError(f"LED driver 'pwm' (rpi_ws281x) does not run on a {model.name}; "
                                f"set [leds] driver = \"pio\" or \"spi\"")
        if leds.pin not in NEOPIXEL_PINS:
            raise PinMapError("leds.pin",
                              f"driver 'pwm' needs GPIO {NEOPIXEL_PINS}, got {leds.pin}")
    elif driver == "spi":
        port = _spi_port(pinmap)
        if any(chip.spi_port == port for chip in pinmap.adcs):
            raise PinMapError("leds.pin", f"SPI{port} also carries the ADCs, whose traffic "
                                          f"the LEDs would show; use SPI1 (GPIO 20)")
    elif driver == "pio":
        if not model.has_rp1:
            raise HardwareError(f"LED driver 'pio' needs a Raspberry Pi 5, not a {model.name}; "
                                f"set [leds] driver = \"auto\" or \"spi\"")
    else:
        raise PinMapError("leds.driver",
                          f"expected 'auto', 'pwm', 'spi' or 'pio', got {leds.driver!r}")


def _spi_port(pinmap: PinMap) -> int:
    """The SPI bus whose MOSI is the LED data pin."""
    leds = pinmap.leds
    port = SPI_MOSI_PINS.get(leds.pin)
    if port is None:
        raise PinMapError("leds.pin", f"driver 'spi' needs a MOSI pin (GPIO 10 or 20), "
                                      f"got {leds.pin}")
    if leds.spi_port is not None and leds.spi_port != port:
        raise PinMapError("leds.spi_port", f"GPIO {leds.pin} is the MOSI of SPI{port}, "
                                           f"not SPI{leds.spi_port}")
    return port


def open_pixel_writer(pinmap: PinMap, model: PiModel) -> PixelWriter:
    """The writer for ``pinmap.leds`` on this model, with its libraries loaded now."""
    check_led_driver(pinmap, model)
    leds = pinmap.leds
    driver = leds.resolve_driver(pi5=model.has_rp1)
    if driver == "pwm":
        log.warning(PWM_ROOT_WARNING)
    extra = "pi5" if model.has_rp1 else "pi"
    board = load_library("board", "the NeoPixel LEDs", extra)
    if driver == "pio":
        lib = load_library("adafruit_raspberry_pi5_neopixel_write", "Pi 5 NeoPixels", "pi5")
        return Pi5Writer(lib.neopixel_write, _board_pin(board, f"D{leds.pin}"))
    options = {"bpp": 3, "brightness": 1.0, "auto_write": False, "pixel_order": "RGB"}
    if driver == "pwm":
        neopixel = load_library("neopixel", "NeoPixels over PWM", extra)
        pin = _board_pin(board, f"D{leds.pin}")
        return PixelbufWriter(_open(lambda: neopixel.NeoPixel(pin, leds.count, **options)))
    neopixel_spi = load_library("neopixel_spi", "NeoPixels over SPI", extra)
    busio = load_library("busio", "NeoPixels over SPI", extra)
    clock, mosi = (_board_pin(board, n) for n in SPI_CLOCK_NAMES[_spi_port(pinmap)])
    return PixelbufWriter(_open(
        lambda: neopixel_spi.NeoPixel_SPI(busio.SPI(clock, MOSI=mosi), leds.count, **options)))


def _board_pin(board: Any, name: str) -> Any:
    """A Blinka ``board`` pin by name."""
    try:
        return getattr(board, name)
    except AttributeError:
        raise HardwareError(f"this board has no pin board.{name} for the LEDs") from None


def _open(make: Callable[[], Any]) -> Any:
    """Open an Adafruit strip; its many failure modes become one HardwareError."""
    try:
        return make()
    except Exception as err:
        raise HardwareError(f"cannot open the NeoPixel LEDs: {err}") from err
