"""Per-sensor calibration: each sensor's quiescent offset and noise on an empty board.

``tavla-pi calibrate`` scans the empty board N times and stores, per sensor,
the mean reading (its true zero-field offset) and the standard deviation
(its noise) as JSON in the state directory.  The decoder derives its dead
band and thresholds from these; without a calibration it falls back to the
datasheet (quiescent VCC/2 +- 1 %, noise 6 counts), which is safe but blind
to weak fields such as a checker left between two pockets.
"""

from __future__ import annotations

import json
import math
import os
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tavla_pi.bounded import LimitError, parse_json, read_text
from tavla_pi.errors import BadInputError, TavlaError
from tavla_pi.hal.base import RawFrame
from tavla_pi.hardware.physics import REFERENCE, BoardDesign, stack_field_mt
from tavla_pi.hardware.pinmap import PinMap, SensorSite

CALIBRATION_FORMAT = "tavla-pi calibration"
CALIBRATION_VERSION = 1
CALIBRATION_FILENAME = "calibration.json"
MAX_CALIBRATION_BYTES = 1024 * 1024
"""A calibration file is about 10 kB; anything past this is refused unread."""
STUCK_NOISE = 0.25
"""A sensor whose readings vary less than this (counts rms) is not alive."""


class CalibrationFileError(BadInputError):
    """A calibration file that cannot be used; names the file and the field."""


class CalibrationError(TavlaError, RuntimeError):
    """A calibration pass that cannot be trusted (the board was not empty)."""


def site_name(site: SensorSite) -> str:
    """``"13.2"`` for point 13 slot 2, ``"bar.white.0"`` for a bar slot (as pinout.toml)."""
    if site.color is None:
        return f"{site.location}.{site.slot}"
    return f"{site.location}.{site.color.value}.{site.slot}"


@dataclass(frozen=True, slots=True)
class Calibration:
    """Offsets and noise of every sensor, in frame order.

    ``frames`` is how many empty-board scans they come from (0: datasheet
    defaults).  ``faults`` maps a sensor index to ``"stuck"`` or
    ``"out_of_range"`` for sensors the pass found dead.
    """

    sites: tuple[str, ...]
    offsets: tuple[float, ...]
    noise: tuple[float, ...]
    frames: int
    faults: tuple[tuple[int, str], ...] = ()

    @classmethod
    def datasheet(cls, pinmap: PinMap, design: BoardDesign = REFERENCE) -> Calibration:
        """The uncalibrated defaults: nominal quiescent and noise for every sensor."""
        n = len(pinmap.sensors)
        return cls(
            tuple(site_name(c.site) for c in pinmap.sensors),
            (design.quiescent_counts,) * n,
            (design.noise_counts,) * n,
            0,
        )

    @property
    def calibrated(self) -> bool:
        """True when measured on the board, False for datasheet defaults."""
        return self.frames > 0

    def offset_uncertainty(self, index: int, design: BoardDesign = REFERENCE) -> float:
        """How far sensor ``index``'s true zero may lie from ``offsets[index]`` (counts)."""
        if not self.calibrated:
            return design.offset_tol_counts
        drift = 0.001 * design.adc_levels
        return drift + 4.0 * max(self.noise[index], 1.0) / math.sqrt(self.frames)

    def check(self, pinmap: PinMap, where: str = "calibration") -> None:
        """Raise :class:`CalibrationFileError` unless made for ``pinmap``'s sensors."""
        names = tuple(site_name(c.site) for c in pinmap.sensors)
        if len(names) != len(self.sites):
            raise CalibrationFileError(
                f"{where}: sensors",
                f"{len(self.sites)} sensors, but the pin map has {len(names)}: calibrate again",
            )
        for i, (mine, theirs) in enumerate(zip(self.sites, names, strict=True)):
            if mine != theirs:
                raise CalibrationFileError(
                    f"{where}: sensors[{i}].site",
                    f"{mine!r}, but the pin map has {theirs!r} there: calibrate again",
                )


def calibrate(frames: Sequence[RawFrame], pinmap: PinMap,
              design: BoardDesign = REFERENCE) -> Calibration:
    """Offsets and noise from scans of the empty board.

    Raises :class:`CalibrationError` when a sensor sees a field a checker
    would make (the board was not empty).
    """
    if len(frames) < 2:
        raise ValueError("a calibration needs at least 2 frames")
    columns = list(zip(*frames, strict=True))
    offsets = tuple(round(statistics.fmean(col), 3) for col in columns)
    noise = tuple(round(statistics.pstdev(col), 3) for col in columns)
    faults = tuple(
        (i, kind) for i in range(len(columns))
        if (kind := _fault(offsets[i], noise[i], design)) is not None
    )
    _refuse_magnets(offsets, dict(faults), pinmap, design)
    names = tuple(site_name(c.site) for c in pinmap.sensors)
    return Calibration(names, offsets, noise, len(frames), faults)


def _fault(offset: float, noise: float, design: BoardDesign) -> str | None:
    low, high = design.swing_counts
    if not low / 2.0 <= offset <= (high + design.adc_max) / 2.0:
        return "out_of_range"
    if noise < STUCK_NOISE:
        return "stuck"
    return None


def _refuse_magnets(offsets: Sequence[float], faults: dict[int, str], pinmap: PinMap,
                    design: BoardDesign) -> None:
    limit = stack_field_mt(design, 1) * design.counts_per_mt / 2.0
    seen = [
        f"{site_name(pinmap.sensors[i].site)} ({offset - design.quiescent_counts:+.0f} counts)"
        for i, offset in enumerate(offsets)
        if i not in faults and abs(offset - design.quiescent_counts) > limit
    ]
    if seen:
        raise CalibrationError(
            f"the board is not empty: a magnet over {', '.join(seen)}; "
            "remove every checker and calibrate again"
        )


def default_state_dir() -> Path:
    """``$XDG_STATE_HOME/tavla-pi``, or ``~/.local/state/tavla-pi``."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "tavla-pi"


def save_calibration(calibration: Calibration, path: Path) -> None:
    """Write ``calibration`` as JSON (one line per sensor), atomically."""
    head = {
        "format": CALIBRATION_FORMAT,
        "version": CALIBRATION_VERSION,
        "frames": calibration.frames,
        "faults": {str(i): kind for i, kind in calibration.faults},
    }
    rows = ",\n  ".join(
        json.dumps({"site": site, "offset": round(offset, 3), "noise": round(noise, 3)})
        for site, offset, noise in zip(
            calibration.sites, calibration.offsets, calibration.noise, strict=True
        )
    )
    text = json.dumps(head, indent=1)[:-2] + f',\n "sensors": [\n  {rows}\n ]\n}}\n'
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def load_calibration(path: Path) -> Calibration:
    """Read a calibration file; :class:`CalibrationFileError` names the field at fault."""
    text = read_text(path, MAX_CALIBRATION_BYTES, "a calibration file", CalibrationFileError)
    try:
        doc = parse_json(text)
    except json.JSONDecodeError as exc:
        raise CalibrationFileError(f"{path}: line {exc.lineno}", exc.msg) from None
    except LimitError as exc:
        raise CalibrationFileError(str(path), str(exc)) from None
    return _parse(doc, str(path))


def calibration_for(state_dir: Path, pinmap: PinMap,
                    design: BoardDesign = REFERENCE) -> Calibration:
    """The board's calibration from ``state_dir``, or datasheet defaults if none saved."""
    path = state_dir / CALIBRATION_FILENAME
    if not path.exists():
        return Calibration.datasheet(pinmap, design)
    calibration = load_calibration(path)
    calibration.check(pinmap, str(path))
    return calibration


def _parse(doc: Any, where: str) -> Calibration:
    if not isinstance(doc, dict):
        raise CalibrationFileError(where, "expected a JSON object")
    if doc.get("format") != CALIBRATION_FORMAT:
        raise CalibrationFileError(f"{where}: format", f"expected {CALIBRATION_FORMAT!r}")
    if doc.get("version") != CALIBRATION_VERSION:
        raise CalibrationFileError(f"{where}: version", f"expected {CALIBRATION_VERSION}")
    frames = doc.get("frames")
    if not isinstance(frames, int) or isinstance(frames, bool) or frames < 2:
        raise CalibrationFileError(f"{where}: frames", f"expected a count >= 2, got {frames!r}")
    sensors = doc.get("sensors")
    if not isinstance(sensors, list) or not sensors:
        raise CalibrationFileError(f"{where}: sensors", "expected a non-empty list")
    rows = [_parse_sensor(s, f"{where}: sensors[{i}]") for i, s in enumerate(sensors)]
    faults = _parse_faults(doc.get("faults", {}), len(rows), f"{where}: faults")
    return Calibration(
        tuple(r[0] for r in rows), tuple(r[1] for r in rows), tuple(r[2] for r in rows),
        frames, faults,
    )


def _parse_sensor(item: Any, where: str) -> tuple[str, float, float]:
    if not isinstance(item, dict):
        raise CalibrationFileError(where, "expected an object with site, offset, noise")
    site = item.get("site")
    if not isinstance(site, str) or not site:
        raise CalibrationFileError(f"{where}.site", f"expected a site name, got {site!r}")
    offset = _number(item.get("offset"), f"{where}.offset", 0.0, 4095.0)
    noise = _number(item.get("noise"), f"{where}.noise", 0.0, 4095.0)
    return site, offset, noise


def _number(value: Any, where: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise CalibrationFileError(where, f"expected a number, got {value!r}")
    if not low <= value <= high:
        raise CalibrationFileError(where, f"{value} is outside {low:g}..{high:g}")
    return float(value)


def _parse_faults(faults: Any, count: int, where: str) -> tuple[tuple[int, str], ...]:
    if not isinstance(faults, dict):
        raise CalibrationFileError(where, "expected an object of sensor index -> fault")
    parsed = []
    for key, kind in faults.items():
        if not key.isdigit() or int(key) >= count:
            raise CalibrationFileError(f"{where}.{key}", f"no sensor {key!r} (0..{count - 1})")
        if kind not in ("stuck", "out_of_range"):
            raise CalibrationFileError(f"{where}.{key}", f"unknown fault {kind!r}")
        parsed.append((int(key), kind))
    return tuple(sorted(parsed))
