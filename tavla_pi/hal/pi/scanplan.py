"""Which sensor each mux bank reads on each mux channel, checked against the pin map.

Pure: the order in which a scan visits channels and banks, and which frame
slot each reading fills.  The sensor grid turns it into pin writes and ADC
reads.
"""

from __future__ import annotations

from dataclasses import dataclass

from tavla_pi.errors import PinMapError
from tavla_pi.hal.pi.mux import gray_order
from tavla_pi.hardware.pinmap import ADC_CHANNELS, MUX_CHANNELS, PinMap, SensorChannel


@dataclass(frozen=True, slots=True)
class MuxStep:
    """One select-line setting and the readings taken there: (bank, frame slot) pairs."""

    channel: int
    reads: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class ScanPlan:
    """Frame slots by bank and mux channel: ``slots[bank][channel] -> frame index``."""

    slots: tuple[dict[int, int], ...]
    size: int

    def channel_major(self) -> tuple[MuxStep, ...]:
        """Every bank at each channel in turn: 16 select changes per frame."""
        used = {ch for bank in self.slots for ch in bank}
        return tuple(
            MuxStep(ch, tuple((b, bank[ch]) for b, bank in enumerate(self.slots) if ch in bank))
            for ch in gray_order(sorted(used)))

    def bank_steps(self, bank: int) -> tuple[MuxStep, ...]:
        """One bank's channels, in Gray-code order."""
        slots = self.slots[bank]
        return tuple(MuxStep(ch, ((bank, slots[ch]),)) for ch in gray_order(sorted(slots)))


def plan_scan(pinmap: PinMap) -> ScanPlan:
    """Check that every sensor is reachable exactly once; map it to its bank and channel."""
    _check_banks(pinmap)
    bank_of = {(b.adc, b.adc_channel): i for i, b in enumerate(pinmap.banks)}
    slots: tuple[dict[int, int], ...] = tuple({} for _ in pinmap.banks)
    for index, sensor in enumerate(pinmap.sensors):
        where = _where(index, sensor)
        bank = bank_of.get((sensor.adc, sensor.adc_channel))
        if bank is None:
            raise PinMapError(where, f"no mux bank feeds adc {sensor.adc} "
                                     f"channel {sensor.adc_channel}")
        if not 0 <= sensor.mux_channel < MUX_CHANNELS:
            raise PinMapError(where, f"mux channel {sensor.mux_channel} is outside "
                                     f"0..{MUX_CHANNELS - 1}")
        if sensor.mux_channel in slots[bank]:
            other = slots[bank][sensor.mux_channel]
            raise PinMapError(where, f"bank {pinmap.banks[bank].name!r} channel "
                                     f"{sensor.mux_channel} is already sensors[{other}]")
        slots[bank][sensor.mux_channel] = index
    return ScanPlan(slots, len(pinmap.sensors))


def _check_banks(pinmap: PinMap) -> None:
    """Each bank feeds one existing ADC channel of its own."""
    seen: dict[tuple[int, int], str] = {}
    for bank in pinmap.banks:
        where = f"banks.{bank.name}"
        if not 0 <= bank.adc < len(pinmap.adcs):
            raise PinMapError(where, f"adc {bank.adc} does not exist "
                                     f"({len(pinmap.adcs)} ADCs are defined)")
        if not 0 <= bank.adc_channel < ADC_CHANNELS:
            raise PinMapError(where, f"adc channel {bank.adc_channel} is outside "
                                     f"0..{ADC_CHANNELS - 1}")
        key = (bank.adc, bank.adc_channel)
        if key in seen:
            raise PinMapError(where, f"adc {bank.adc} channel {bank.adc_channel} already "
                                     f"feeds bank {seen[key]!r}")
        seen[key] = bank.name


def _where(index: int, sensor: SensorChannel) -> str:
    """Name a sensor for an error message: its frame index and site."""
    site = sensor.site
    if site.location == "bar" and site.color is not None:
        return f"sensors[{index}] (bar {site.color.value} slot {site.slot})"
    return f"sensors[{index}] (point {site.location} slot {site.slot})"
