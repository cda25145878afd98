"""The board's wiring as typed values, read from ``hardware/pinout.toml``.

Pure data: no hardware is touched here.  The HAL uses it to drive pins, the
decoder to name sensors, the LED renderer to find each board feature.
:func:`load_pinmap` reads and checks a pinout file (see
:mod:`tavla_pi.hardware.pinout` for the checks).

Sensor frame order (``PinMap.sensors``) is fixed by the sites, not by the
wiring: points 1..24 with slots 0..5 each, then the bar half of White with
slots 0..3, then the bar half of Black with slots 0..3 (:func:`sensor_sites`).

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

from dataclasses import dataclass, field
from pathlib import Path

from tavla_pi.rules.color import Color

BUTTON_NAMES: tuple[str, ...] = ("white.roll", "white.cube", "black.roll", "black.cube", "menu")
POINT_SLOTS = 6
BAR_SLOTS_PER_COLOR = 4
MUX_CHANNELS = 16
"""Inputs of one CD74HC4067."""
SELECT_LINES = 4
"""Select lines of one CD74HC4067 (S0..S3), shared by every mux of the board."""
ADC_CHANNELS = 8
"""Single-ended inputs of one MCP3208."""
LED_DRIVERS: tuple[str, ...] = ("auto", "pwm", "spi", "pio")
"""``auto``: ``spi`` (SPI1) on Pi Zero 2 W / 3 / 4, ``pio`` on Pi 5, same data pin (SPI1 MOSI)."""
SPI_LED_DRIVERS: tuple[str, ...] = ("auto", "spi")
"""The drivers whose chain hangs on SPI1 MOSI (``auto`` does on a Pi Zero 2 W, 3 or 4)."""


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

    @property
    def label(self) -> str:
        """The site as ``pinout.toml`` writes it: ``"12.3"`` or ``"bar.white.0"``."""
        if self.color is None:
            return f"{self.location}.{self.slot}"
        return f"{self.location}.{self.color.value}.{self.slot}"


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

    ``power_pin`` (BCM) switches the bank's sensors on, if fitted (high = on).
    ``spare`` lists the multiplexer channels wired to no sensor (tied to GND).
    """

    name: str
    adc: int
    adc_channel: int
    power_pin: int | None = None
    spare: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class LedStrip:
    """The WS2812B chain: driver (``auto``, ``pwm``, ``spi`` or ``pio``), data pin, length.

    ``auto`` means ``spi`` on Pi Zero 2 W / 3 / 4 and ``pio`` on Pi 5 (see
    :meth:`resolve_driver`), so that no model needs root for the LEDs; ``spi``
    sends the data on the MOSI pin of ``spi_port`` (device 0), which ``auto``
    names too.  ``pwm`` (rpi_ws281x) is the opt-in that needs root.
    """

    driver: str
    pin: int
    count: int
    order: str = "GRB"
    spi_port: int | None = None

    def resolve_driver(self, *, pi5: bool) -> str:
        """The concrete driver (``pwm``, ``spi`` or ``pio``) on this Pi."""
        if self.driver == "auto":
            return "pio" if pi5 else "spi"
        return self.driver


@dataclass(frozen=True, slots=True)
class SpiBus:
    """The fixed GPIOs of one SPI controller on the header (chip selects by device)."""

    port: int
    sclk: int
    mosi: int
    miso: int
    ce: tuple[int, ...]


SPI_BUSES: dict[int, SpiBus] = {
    0: SpiBus(0, sclk=11, mosi=10, miso=9, ce=(8, 7)),
    1: SpiBus(1, sclk=21, mosi=20, miso=19, ce=(18, 17, 16)),
}
"""SPI0 (``dtparam=spi=on``) and SPI1 (``dtoverlay=spi1-1cs``: CE0 on GPIO 18)."""


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
    ``source`` names the file it was read from (empty when built in code).
    """

    mux_select: tuple[int, ...]
    mux_enable: int | None
    adcs: tuple[AdcChip, ...]
    banks: tuple[MuxBank, ...]
    sensors: tuple[SensorChannel, ...]
    buttons: dict[str, int]
    leds: LedStrip
    led_features: tuple[LedFeature, ...]
    source: str = ""
    _sensor_index: dict[SensorSite, int] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )
    _led_index: dict[str, int] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )

    def __post_init__(self) -> None:
        self._sensor_index.update((s.site, i) for i, s in enumerate(self.sensors))
        self._led_index.update((f.name, f.index) for f in self.led_features)

    def sensor_index(self, site: SensorSite) -> int:
        """The position of ``site``'s reading in a raw frame; KeyError if not wired."""
        return self._sensor_index[site]

    def point_sensor(self, point: int, slot: int) -> int:
        """The frame index of ``point`` (1..24), ``slot`` (0..5)."""
        return self._sensor_index[SensorSite(str(point), slot)]

    def bar_sensor(self, color: Color, slot: int) -> int:
        """The frame index of slot ``slot`` (0..3) in ``color``'s half of the bar."""
        return self._sensor_index[SensorSite("bar", slot, color)]

    def led_index(self, feature: str) -> int:
        """The chain index of the LED named ``feature``; KeyError if there is none."""
        return self._led_index[feature]

    def bank_of(self, sensor: SensorChannel) -> int:
        """The index in ``banks`` of the multiplexer that carries ``sensor``."""
        for i, bank in enumerate(self.banks):
            if (bank.adc, bank.adc_channel) == (sensor.adc, sensor.adc_channel):
                return i
        raise KeyError(sensor.site)

    def gpio_roles(self) -> dict[int, str]:
        """Every GPIO the board uses, by BCM number, with what it does there."""
        roles = {pin: f"mux S{i}" for i, pin in enumerate(self.mux_select)}
        if self.mux_enable is not None:
            roles[self.mux_enable] = "mux /E"
        adc_bus = SPI_BUSES[self.adcs[0].spi_port]
        roles.update(_bus_roles(adc_bus, "ADCs"))
        for adc in self.adcs:
            roles[adc_bus.ce[adc.spi_device]] = f"SPI{adc_bus.port} CE{adc.spi_device} {adc.name}"
        for bank in self.banks:
            if bank.power_pin is not None:
                roles[bank.power_pin] = f"{bank.name} power"
        roles.update((pin, f"button {name}") for name, pin in self.buttons.items())
        if self.leds.spi_port is None:
            roles[self.leds.pin] = "LED data"
        else:
            led_bus = SPI_BUSES[self.leds.spi_port]
            roles.update(_bus_roles(led_bus, "(unused)"))
            roles[led_bus.mosi] = f"SPI{led_bus.port} MOSI LED data"
            roles[led_bus.ce[0]] = f"SPI{led_bus.port} CE0 (unused)"
        return dict(sorted(roles.items()))


def _bus_roles(bus: SpiBus, user: str) -> dict[int, str]:
    return {
        bus.sclk: f"SPI{bus.port} SCLK {user}",
        bus.mosi: f"SPI{bus.port} MOSI {user}",
        bus.miso: f"SPI{bus.port} MISO {user}",
    }


def sensor_sites() -> tuple[SensorSite, ...]:
    """Every sensed site in frame order: points 1..24 x slots, bar White, bar Black."""
    points = [SensorSite(str(p), s) for p in range(1, 25) for s in range(POINT_SLOTS)]
    bar = [
        SensorSite("bar", s, color)
        for color in (Color.WHITE, Color.BLACK)
        for s in range(BAR_SLOTS_PER_COLOR)
    ]
    return (*points, *bar)


def led_feature_names() -> tuple[str, ...]:
    """Every LED feature name the renderer may use, in the reference chain order."""
    names = [f"point.{n}" for n in range(1, 25)]
    names += ["bar.white", "bar.black", "tray.white", "tray.black"]
    names += [f"cube.{2**k}" for k in range(1, 7)]
    names += ["cube.owner.white", "cube.owner.black"]
    names += [
        f"die.{color}.{d}.pip.{k}" for color in ("white", "black") for d in (0, 1) for k in range(7)
    ]
    names += ["turn.white", "turn.black"]
    return tuple(names)


def default_pinout_path() -> Path:
    """The pinout the daemon uses unless told otherwise.

    In a source checkout this is ``hardware/pinout.toml`` of the repository;
    an installed package falls back to the identical copy it ships
    (``tavla_pi/pinout.toml``, kept equal by ``make hardware`` and a test).
    """
    package = Path(__file__).resolve().parent.parent
    checkout = package.parent / "hardware" / "pinout.toml"
    return checkout if checkout.is_file() else package / "pinout.toml"


def load_pinmap(path: Path | None = None) -> PinMap:
    """Read and check a pinout file (default: :func:`default_pinout_path`).

    Raises :class:`tavla_pi.errors.PinMapError` naming the file and the key
    at fault when the file is missing, malformed, incomplete or inconsistent.
    """
    from tavla_pi.hardware.pinout import parse_pinout

    source = path if path is not None else default_pinout_path()
    return parse_pinout(source)
