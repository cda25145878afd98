"""The board's wiring as typed values, read from ``hardware/pinout.toml``.

Pure data: no hardware is touched here.  The HAL uses it to drive pins, the
decoder to name sensors, the LED renderer to find each board feature.

LED feature names (``LedFeature.name``), fixed for the renderer:

- ``point.1`` .. ``point.24``: the LED at the base of each point;
- ``bar.white``, ``bar.black``: one per bar half;
- ``tray.white``, ``tray.black``: one per bear-off tray;
- ``cube.2``, ``cube.4`` .. ``cube.64``: the cube column;
  ``cube.owner.white``, ``cube.owner.black``: which side owns the cube;
- ``die.<color>.<d>.pip.<k>``: die ``d`` (0 or 1) on a player's side, pip
  ``k`` 0..6 (0 top-left, 1 top-right, 2 middle-left, 3 centre,
  4 middle-right, 5 bottom-left, 6 bottom-right, as seen by that player);
- ``turn.white``, ``turn.black``: the turn indicators.
"""

from __future__ import annotations

from dataclasses import dataclass

from tavla_pi.rules.color import Color

BUTTON_NAMES: tuple[str, ...] = ("white.roll", "white.cube", "black.roll", "black.cube", "menu")
POINT_SLOTS = 6
BAR_SLOTS_PER_COLOR = 4


@dataclass(frozen=True, slots=True)
class SensorSite:
    """Where one Hall sensor sits under the board.

    ``location`` is ``"1"``..``"24"`` (``slot`` 0..5, 0 at the point's base)
    or ``"bar"`` (``slot`` 0..3 in the half of ``color``, 0 nearest the
    centre of the board).  ``color`` is ``None`` on points.
    """

    location: str
    slot: int
    color: Color | None = None


@dataclass(frozen=True, slots=True)
class SensorChannel:
    """How one sensor is reached: ADC chip and channel, multiplexer channel."""

    site: SensorSite
    adc: int
    adc_channel: int
    mux_channel: int


@dataclass(frozen=True, slots=True)
class AdcChip:
    """An MCP3208 on an SPI bus (``spi_port``) and chip select (``spi_device``)."""

    name: str
    spi_port: int
    spi_device: int


@dataclass(frozen=True, slots=True)
class MuxBank:
    """A CD74HC4067 whose common output feeds ``adc``/``adc_channel``.

    ``power_pin`` (BCM) switches the bank's sensors on, if fitted.
    """

    name: str
    adc: int
    adc_channel: int
    power_pin: int | None = None


@dataclass(frozen=True, slots=True)
class LedStrip:
    """The WS2812B chain: driver (``pwm``, ``spi`` or ``pio``), data pin, length."""

    driver: str
    pin: int
    count: int
    order: str = "GRB"
    spi_port: int | None = None


@dataclass(frozen=True, slots=True)
class LedFeature:
    """One LED and what it shows (see the module docstring for names)."""

    name: str
    index: int


@dataclass(frozen=True, slots=True)
class PinMap:
    """Every pin, bus, channel and LED of the board.

    ``sensors`` is in frame order: a raw frame holds one reading per sensor
    in exactly this order.  ``led_features`` is in LED index order.
    """

    mux_select: tuple[int, ...]
    mux_enable: int | None
    adcs: tuple[AdcChip, ...]
    banks: tuple[MuxBank, ...]
    sensors: tuple[SensorChannel, ...]
    buttons: dict[str, int]
    leds: LedStrip
    led_features: tuple[LedFeature, ...]
