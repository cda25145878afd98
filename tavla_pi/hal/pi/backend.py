"""Open the real board: sensor grid, LED chain and buttons on one pin factory."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from typing import Any

from gpiozero import GPIOZeroError

from tavla_pi.errors import HardwareError
from tavla_pi.hal.base import Backend
from tavla_pi.hal.pi.board import MODEL_PATH, detect_model, open_pin_factory
from tavla_pi.hal.pi.buttons import PiButtons
from tavla_pi.hal.pi.pixel_drivers import open_pixel_writer
from tavla_pi.hal.pi.pixels import NeoPixelStrip, PixelWriter
from tavla_pi.hal.pi.sensors import Delay, PiSensorGrid, PowerPolicy, busy_wait_us
from tavla_pi.hal.pi.spidev import KERNEL_SPIDEV, SpidevAccess
from tavla_pi.hardware.pinmap import PinMap


class PiBackend(Backend):
    """The real board's devices; closing also closes a pin factory the backend opened."""

    def __init__(self, sensors: PiSensorGrid, pixels: NeoPixelStrip, buttons: PiButtons, *,
                 owned_factory: Any = None) -> None:
        super().__init__("pi", sensors, pixels, buttons, detail=sensors.spi_path)
        self._owned_factory = owned_factory

    def close(self) -> None:
        """Blank the LEDs, release every device, then the pin factory; idempotent.

        Even when blanking the LEDs fails, the pins are released (the devices'
        own ``close()`` is idempotent, so closing them again is harmless).
        """
        if self.closed:
            return
        try:
            super().close()
        finally:
            try:
                self.sensors.close()
                self.buttons.close()
            finally:
                if self._owned_factory is not None:
                    self._owned_factory.close()
                    self._owned_factory = None


def open_pi_backend(pinmap: PinMap, *, pin_factory: Any = None,
                    pixel_writer: PixelWriter | None = None, model_path: Path = MODEL_PATH,
                    power: PowerPolicy = PowerPolicy.ALWAYS_ON,
                    delay: Delay = busy_wait_us,
                    spi: SpidevAccess | None = KERNEL_SPIDEV) -> Backend:
    """Open every device of ``pinmap`` on the Raspberry Pi this runs on.

    Without ``pin_factory`` the model (read from ``model_path``) picks
    RPi.GPIO (Pi 0-4) or lgpio (Pi 5); without ``pixel_writer`` it picks the
    LED driver's library; a given writer belongs to the backend from then
    on.  The ADCs are read in batches through ``spi`` (the kernel's
    ``/dev/spidevB.C``) when its nodes open, else one gpiozero call per
    conversion (one warning says why); ``spi=None`` asks for the latter.
    Missing hardware or libraries, and pins that cannot be claimed,
    raise :class:`HardwareError` (one line); a wrong pin map raises
    :class:`tavla_pi.errors.PinMapError`.  On failure nothing stays open and
    the LEDs are left blank.
    """
    with ExitStack() as stack:
        try:
            writer = pixel_writer or open_pixel_writer(pinmap, detect_model(model_path))
            pixels = stack.enter_context(
                NeoPixelStrip(pinmap.leds.count, writer, order=pinmap.leds.order))
            owned = None
            if pin_factory is None:
                pin_factory = owned = open_pin_factory(detect_model(model_path))
                stack.callback(owned.close)
            sensors = stack.enter_context(
                PiSensorGrid(pinmap, pin_factory=pin_factory, power=power, delay=delay,
                             spi=spi))
            buttons = stack.enter_context(PiButtons(pinmap.buttons, pin_factory=pin_factory))
        except GPIOZeroError as err:
            raise HardwareError(f"cannot claim the board's pins: {err}") from err
        stack.pop_all()
    return PiBackend(sensors, pixels, buttons, owned_factory=owned)
