"""Raw frames to observations: per-sensor levels, crosstalk, faults.

Each sensor's reading, less its calibrated offset and the crosstalk of the
checkers found around it, is compared with thresholds derived from the
board design at worst-case tolerances (see :mod:`tavla_pi.hardware.physics`),
widened by the sensor's noise (4.5 sigma), its offset uncertainty and the
uncertainty of the crosstalk estimate.  What the thresholds cannot tell
apart is reported as an interval or a fault, never guessed.

Checkable per frame: the frame's length and values (bad input), a reading
beyond the sensor's output swing (``out_of_range``: open or shorted wire),
a weak field (``between_slots``), both colours at one place
(``mixed_colors``).  Checkable only over time: a reading identical for
``stuck_frames`` scans (``stuck``: a live sensor always shows noise), which
:class:`Decoder` tracks and the stateless :func:`decode` cannot.
"""

from __future__ import annotations

from collections.abc import Sequence

from tavla_pi.decode.assemble import assemble
from tavla_pi.decode.calibration import Calibration
from tavla_pi.decode.crosstalk import Crosstalk
from tavla_pi.decode.history import QuietMean, StuckWatch
from tavla_pi.decode.observation import Observation, SensorFault
from tavla_pi.decode.stacks import StackWatch
from tavla_pi.decode.tables import (
    EMPTY,
    ONE,
    ONE_PLUS,
    TWO_PLUS,
    UNKNOWN,
    WEAK,
    Tables,
    tables_for,
)
from tavla_pi.decode.tall import TallWatch
from tavla_pi.errors import BadInputError
from tavla_pi.hardware.physics import REFERENCE, BoardDesign
from tavla_pi.hardware.pinmap import PinMap, SensorSite

NOISE_SIGMAS = 4.5
HYSTERESIS_SIGMAS = 2.0
STUCK_FRAMES = 50


class SensorFrameError(BadInputError):
    """A raw frame of the wrong length or with impossible values."""


class Decoder:
    """Decodes frames of one board; keeps per-sensor state between frames.

    The state gives hysteresis (a level is left only when the reading is
    ``HYSTERESIS_SIGMAS`` noise past its threshold, so a reading near a
    threshold does not flicker), a running mean that lets a steady weak
    field stand out of the noise, the crosstalk estimate, and the watch for
    stuck sensors.
    """

    def __init__(self, calibration: Calibration, pinmap: PinMap,
                 design: BoardDesign = REFERENCE, stuck_frames: int = STUCK_FRAMES) -> None:
        calibration.check(pinmap)
        self.tables: Tables = tables_for(design, tuple(c.site for c in pinmap.sensors))
        self.calibration = calibration
        n = self._n = len(pinmap.sensors)
        self._noise = [max(x, 0.5) for x in calibration.noise]
        self._offset = list(calibration.offsets)
        self._offset_unc = [calibration.offset_uncertainty(i, design) for i in range(n)]
        low, high = design.swing_counts
        self._rails = (low / 2.0, (high + design.adc_max) / 2.0)
        self._swing = (low, high)
        self._adc_max = design.adc_max
        self._dead = dict(calibration.faults)
        self._watch = StuckWatch([x >= 0.5 for x in calibration.noise], stuck_frames)
        self._quiet = QuietMean(self._noise)
        self._samples = [0.0] * n
        self._levels = [EMPTY] * n
        self._magnitudes = [0.0] * n
        self._stacks = StackWatch(n, self.tables.second_layer_step)
        self._tall = TallWatch(self.tables.groups, n)
        self._maybe: dict[int, float] = {}
        """Pockets that may hide a pin (:meth:`_maybe_covered`), and their readings then."""
        self._basis: tuple[list[int], list[int]] | None = None
        self._crosstalk = Crosstalk(self.tables)
        self._fixed = list(self._offset_unc)
        self._bounds_at: dict[float, tuple[float, float, float, float]] = {}
        self._assembled: tuple[tuple[object, ...], Observation] | None = None

    @property
    def still(self) -> bool:
        """True when every sensor's running mean spans a whole window: the readings have
        held still for a while, and more of the same only average the noise."""
        return all(self._quiet.steady())

    def decode(self, frame: Sequence[int]) -> Observation:
        """The observation of one raw frame (``SensorFrameError`` if malformed)."""
        check_frame(frame, self.tables, self._adc_max)
        stuck = self._watch.update(frame)
        self._samples = [raw - off for raw, off in zip(frame, self._offset, strict=True)]
        self._quiet.update(self._samples)
        for _ in range(3):
            levels, signs = self._classify(frame, stuck)
            if self._basis == (levels, signs):
                break
            self._compensate(levels, signs)
        self._levels = levels
        before = list(self._stacks.count)
        known = self._stacks.update(levels, self._magnitudes, signs, self._quiet.steady(),
                                    self._tall.tall)
        covered = self._covered(levels)
        tall = self._tall.update(levels, known, covered)
        faults = self._sensor_faults(frame, levels, stuck)
        maybe = self._maybe_covered(levels, before, covered)
        return self._assemble(levels, signs, faults, known, covered, tall=tall, maybe=maybe)

    def _covered(self, levels: list[int]) -> dict[int, int]:
        """Pockets whose one checker has one of the other colour on it: the sign of the
        one below."""
        mean, comp, below = self._quiet.mean, self._crosstalk.comp, self._stacks.sign
        return {i: below[i] for i in self._stacks.masked(levels, self._magnitudes)
                if (mean[i] > comp[i]) == (below[i] > 0)}

    def _maybe_covered(self, levels: list[int], before: list[int | None],
                       covered: dict[int, int]) -> frozenset[int]:
        """Pockets read as one checker since the stack watch anchored them without
        history (``one?`` from a count it did not know) no stronger than a pin can
        read: a pin laid before the decoder started (a resume) reads so where weak
        parts put it in the overlap (hardware/GEOMETRY.md, "A pin").  Decided once,
        when anchored, so noise about the bound does not flicker the observation;
        ended by any other reading, and by a rise of half a step (the pinner lifted)."""
        watch, maybe, magnitudes = self._stacks, self._maybe, self._magnitudes
        half = self.tables.second_layer_step / 2.0
        for i, level in enumerate(levels):
            if level != ONE or watch.count[i] != 1 or watch.sure[i] or i in covered:
                maybe.pop(i, None)
            elif before[i] is None and magnitudes[i] <= self.tables.pin_max:
                maybe[i] = magnitudes[i]
            elif i in maybe and magnitudes[i] - maybe[i] > half:
                del maybe[i]
        return frozenset(maybe)

    def _assemble(self, levels: list[int], signs: list[int], faults: list[SensorFault],
                  known: list[int | None], covered: dict[int, int], *,
                  tall: list[bool], maybe: frozenset[int]) -> Observation:
        """:func:`assemble`, reusing the last observation while the board is still."""
        key = (levels, signs, faults, tuple(known), covered, tuple(tall), maybe)  # own lists
        if self._assembled is not None and self._assembled[0] == key:
            return self._assembled[1]
        observation = assemble(self.tables, levels, signs, faults, known=known, covered=covered,
                               tall=tall, maybe_covered=maybe)
        self._assembled = (key, observation)
        return observation

    def _classify(self, frame: Sequence[int], stuck: list[int]) -> tuple[list[int], list[int]]:
        levels, signs = [EMPTY] * self._n, [0] * self._n
        prev, comp, mean = self._levels, self._crosstalk.comp, self._quiet.mean
        magnitudes, dead = self._magnitudes, self._dead
        fixed, bounds_at, spreads = self._fixed, self._bounds_at, self._quiet.spreads()
        rail_low, rail_high = self._rails
        for i, raw in enumerate(frame):
            if raw < rail_low or raw > rail_high or i in dead:
                levels[i] = UNKNOWN
                continue
            spread = spreads[i]
            v = mean[i] - comp[i]
            a = v if v >= 0.0 else -v
            magnitudes[i] = a
            margin = fixed[i] + NOISE_SIGMAS * spread
            p = prev[i]
            if p == EMPTY and a < margin:  # most pockets: empty and below the first bound
                continue
            bounds = bounds_at.get(margin) or self._bounds(margin)
            level = _level(a, bounds, p, HYSTERESIS_SIGMAS * spread)
            if level >= ONE:
                if self._saturated(i, raw):
                    level = TWO_PLUS if a > bounds[3] else ONE_PLUS
                signs[i] = 1 if v > 0.0 else -1
            levels[i] = level
        for i in stuck:
            levels[i] = UNKNOWN
        if UNKNOWN in levels:
            for i, level in enumerate(levels):
                if level == UNKNOWN:
                    self._quiet.restart(i, self._samples[i])
        return levels, signs

    def _bounds(self, margin: float) -> tuple[float, float, float, float]:
        """Level boundaries for a reading known to +-``margin``: weak, one, one+, two+
        (memoised: margins repeat, one per sensor and quiet-mean length)."""
        t = self.tables
        one_lo = max(margin, t.one_min - margin)
        two_lo = max(one_lo, t.two_min - margin)
        one_hi = t.one_max + margin
        if two_lo > one_hi:
            two_lo = one_hi = (two_lo + one_hi) / 2.0
        bounds = self._bounds_at[margin] = (margin, one_lo, two_lo, one_hi)
        return bounds

    def _saturated(self, i: int, raw: int) -> bool:
        """True when the reading is at the sensor's output swing: the field is at least this."""
        margin = NOISE_SIGMAS * self._noise[i]
        return raw >= self._swing[1] - margin or raw <= self._swing[0] + margin

    def _sensor_faults(self, frame: Sequence[int], levels: list[int],
                       stuck: list[int]) -> list[SensorFault]:
        faults: list[SensorFault] = []
        if UNKNOWN not in levels:
            return faults
        rail_low, rail_high = self._rails
        for i, level in enumerate(levels):
            if level != UNKNOWN:
                continue
            site = self.tables.sites[i]
            raw = frame[i]
            if raw < rail_low or raw > rail_high:
                kind, detail = "out_of_range", "reads beyond the sensor's output swing"
            elif i in stuck:
                kind, detail = "stuck", f"the same reading for {self._watch.frames} scans"
            else:
                kind, detail = self._dead[i], "found dead by the calibration"
            faults.append(SensorFault(i, site.location, kind, f"{site_text(site)}: {detail}"))
        return faults

    def _compensate(self, levels: list[int], signs: list[int]) -> None:
        """Crosstalk estimate, and its uncertainty in each sensor's margin, for these levels."""
        before = self._crosstalk.comp[:]
        self._crosstalk.update(levels, signs)
        comp, unc = self._crosstalk.comp, self._crosstalk.unc
        for i, (old, new) in enumerate(zip(before, comp, strict=True)):
            if abs(new - old) > self._noise[i] / 2.0:
                self._quiet.restart(i, self._samples[i])
        self._fixed = [off + max(u, 0.0) for off, u in zip(self._offset_unc, unc, strict=True)]
        self._bounds_at.clear()  # new margins: the memo would only grow
        self._basis = (levels, signs)


def _level(a: float, bounds: tuple[float, float, float, float], previous: int,
           hyst: float) -> int:
    """The level of a reading of magnitude ``a`` between ``bounds`` (weak, one, one+,
    two+): a bound below the ``previous`` level is ``hyst`` lower (hysteresis)."""
    weak, one, one_plus, two_plus = bounds
    if a < (weak if previous <= EMPTY else weak - hyst):
        return EMPTY
    if a < (one if previous <= WEAK else one - hyst):
        return WEAK
    if a < (one_plus if previous <= ONE else one_plus - hyst):
        return ONE
    if a < (two_plus if previous <= ONE_PLUS else two_plus - hyst):
        return ONE_PLUS
    return TWO_PLUS


def site_text(site: SensorSite) -> str:
    """``"point 6 slot 2"`` or ``"bar (white half) slot 0"``: a sensor for people."""
    if site.color is not None:
        return f"{site.location} ({site.color.value} half) slot {site.slot}"
    return f"point {site.location} slot {site.slot}"


def check_frame(frame: Sequence[int], tables: Tables, adc_max: int) -> None:
    """Raise :class:`SensorFrameError` unless ``frame`` has one 0..adc_max int per sensor."""
    if len(frame) != len(tables.sites):
        raise SensorFrameError(
            "sensor frame", f"{len(frame)} readings for {len(tables.sites)} sensors"
        )
    if {type(v) for v in frame} == {int} and min(frame) >= 0 and max(frame) <= adc_max:
        return
    for i, value in enumerate(frame):
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= adc_max:
            site = tables.sites[i]
            raise SensorFrameError(
                f"sensor frame: sensor {i} ({site_text(site)})",
                f"reading {value!r} is not an integer 0..{adc_max}",
            )


def decode(frame: Sequence[int], calibration: Calibration, pinmap: PinMap,
           design: BoardDesign = REFERENCE) -> Observation:
    """The observation of one frame on its own (no history: no stuck check, no hysteresis).

    For a stream of frames use one :class:`Decoder`, which is faster and
    steadier.
    """
    return Decoder(calibration, pinmap, design).decode(frame)
