"""One checker or two stacked? Told apart by following each pocket's steps.

A pocket's absolute reading cannot always tell one checker from two
stacked: with the parts' tolerances the two bands overlap (``ONE_PLUS``).
But a second checker put on a first raises the reading by a clear step
(the second layer's field, about 260 counts on the reference board) and
taking it off lowers it by as much, whatever the tolerances.  Anchored
whenever a pocket reads empty, exactly one or clearly two, the watch
counts those steps, so a stack that grows or shrinks one checker at a time
stays exact.  A third layer's step is too small to see (the sensor nears
its output swing): two is the most the watch ever claims.

States and transitions
----------------------

What the watch remembers of each pocket (``count``, ``sure``, ``sign`` and
the reference ``ref``, the reading it was last anchored at), and the count
it reports.  "open" is ``None``: the pocket holds one or more, not known
how many (the observation says an interval).

| state  | count | remembers                                                          |
| ------ | ----- | ------------------------------------------------------------------ |
| unseen | open  | nothing: no reading yet (as built)                                 |
| empty  | 0     | no checker, so no colour                                           |
| open   | open  | a colour                                                           |
| one    | 1     | a colour, a reference read of that one checker (and ``bare``)      |
| one?   | 1     | a colour, a reference taken without history                        |
| two    | 2     | a colour, a reference read of two or more (and ``bare``)           |
| two?   | 2     | a colour, a reference of two or more taken without history         |

``one?`` and ``two?`` are ``sure`` False: a checker of the other colour may
have lain on the pocket when its reference was taken.  ``bare``: when a
``one`` steps up to two, its reference is kept as the bottom checker's own
reading; it stays while the pocket holds one or two, and a lift leaves that
checker reading it again (rows ``bared``, ``still-two``).  Masked is no state
of its own: a ``one`` (or ``one?``) that reads 3/4 step or more weaker keeps
its reference (rows ``masked``, ``not-a-step``, ``weak``), and
:meth:`StackWatch.masked` reports it while it reads 3/4 to 1.6 steps weaker.

Each scan, for each pocket, the first row that fits its state and reading
applies.  ``reads``: the level (:data:`~tavla_pi.decode.tables.LEVEL_NAMES`)
and its colour: ``new`` a colour the pocket does not hold (any colour, to
an empty or unseen pocket), ``same`` the one it holds, none written: any
(empty and weak readings have none, nor unknown ones but a stuck sensor's).
``d``: the reading minus the reference, in second-layer steps (``b``: minus
``bare``, a row that names it fits only where the pocket has one; ``~``:
within a quarter step).  ``steady``:
the reading has stood still a whole window (``tall``: the pocket may hold a
third layer, :mod:`tavla_pi.decode.tall`).  ``next``: the new state, its
reference (where it has one) this reading, its colour the reading's;
``follows``: the same state, its reference now this reading; ``kept``:
nothing changes.  ``count``: what ``update`` reports (``=``: as before).

| row              | holds          | reads       | d                 | steady | next    | count |
| ---------------- | -------------- | ----------- | ----------------- | ------ | ------- | ----- |
| emptied          | any            | empty       | -                 | -      | empty   | 0     |
| put-one          | empty          | one new     | -                 | -      | one     | 1     |
| put-one+         | empty          | one+ new    | -                 | -      | one     | 1     |
| put-two          | empty          | two+ new    | -                 | -      | two     | 2     |
| fresh-one        | any            | one new     | -                 | -      | one?    | 1     |
| fresh-one+       | any            | one+ new    | -                 | -      | open    | open  |
| fresh-two        | any            | two+ new    | -                 | -      | two?    | 2     |
| fresh-unknown    | any            | unknown new | -                 | -      | open    | open  |
| bared            | one            | one same    | d <= -3/4, b ~ 0  | -      | one     | 1     |
| masked           | one one?       | one same    | d <= -3/4         | -      | kept    | 1     |
| lifted-masked    | two two?       | one same    | d <= -7/4         | -      | kept    | =     |
| reads-one        | one two        | one same    | -                 | -      | one     | 1     |
| reads-one-unsure | open one? two? | one same    | -                 | -      | one?    | 1     |
| reads-two        | any            | two+ same   | -                 | -      | two     | 2     |
| stays-open       | open           | one+ same   | -                 | -      | open    | open  |
| step-up          | one            | one+ same   | d > 1/2           | -      | two     | 2     |
| step-up-unsure   | one?           | one+ same   | d > 1/2           | -      | open    | open  |
| still-two        | two            | one+ same   | d < -1/2, b > 1/2 | -      | follows | =     |
| step-down        | two            | one+ same   | d < -1/2          | -      | one     | 1     |
| step-down-unsure | two?           | one+ same   | d < -1/2          | -      | one?    | 1     |
| two-unsure-opens | two?           | one+ same   | -                 | -      | open    | open  |
| drift            | one one? two   | one+ same   | -1/4 < d < 1/4    | -      | follows | =     |
| steady-drift     | one one? two   | one+ same   | -1/2 < d < 1/2    | yes    | follows | =     |
| tall-drift       | one one? two   | one+ same   | -1/2 < d < 1/2    | tall   | follows | =     |
| not-a-step       | one one? two   | one+ same   | -                 | -      | kept    | =     |
| weak             | any            | weak        | -                 | -      | kept    | =     |
| unknown          | any            | unknown     | -                 | -      | kept    | =     |

Why the rows that are not obvious (commits; ``tests/soak_failures/``):

- ``put-one+``: a one-or-more reading straight after empty is one checker:
  a hand puts checkers down one at a time (587cce8).
- ``fresh-one``, ``fresh-one+``, ``fresh-two``: a colour the pocket did not
  hold is anchored afresh: the blot taken off and its hitter put on within
  one scan had kept the white checker's reference, and the weaker black one
  read as masked, "remove 1 white" for ever (4834540; soak 4000012341,
  ``hit_within_one_scan.jsonl``).  Not after empty, so ``one?``/``two?``.
- ``fresh-unknown``: a stuck sensor reads unknown but keeps its sign.
- ``bared``: a lift off a two under a phantom of the same colour read a
  step stronger, and the step down anchored there; when the phantom went,
  the one left read a step weaker than that reference, row ``masked`` took
  it for one of the other colour laid on it, "remove 1 black" for ever (soak
  32000198, ``lift_under_a_same_colour_phantom.jsonl``).  A one that reads
  back the bottom checker's own reading is that checker bare.  A checker of
  the other colour on it reads a step below that, so the row never hides one.
- ``still-two``: a checker put on a lone one under a phantom of the same
  colour read two steps up; when the phantom went, the drop back counted a
  lift, one checker short, "a checker is still in the hand" for ever (soak
  43000195, ``put_under_a_same_colour_phantom.jsonl``).  A two that still
  reads more than half a step above its bottom checker's own reading holds
  two.
- ``masked``: a lone checker reading a layer's step weaker has one of the
  other colour on it; re-anchored there, taking that one off again counted
  a second checker (d5fcbfa; soak 1000003023, 1000003059, 2000006002:
  ``carried_over_full_point.jsonl``, ``carried_over_tall_point.jsonl``).
  3/4 step, not 1/2: two magnets of one colour differ by up to 0.6 of a step
  (4834540, :data:`MASK_STEPS`).  ``masked()`` then reads both colours there
  (39098d5; soak 3000009093, ``checker_on_a_held_point_masked.jsonl``).
- ``lifted-masked``: a two that reads one checker near two steps weaker lost its
  top and has one of the other colour over the one left (a lift leaves a step,
  never two); anchored there, the phantom's going counted a second checker
  put on, one too many on a Plakoto start pile and DONE refused for ever (soak
  21000307, ``lift_under_a_phantom.jsonl``).  Kept: once the phantom has gone,
  the step down from two counts the lift.
- ``reads-one``: less than 3/4 step weaker is a weaker checker of its colour
  swapped in, no mask (4834540).
- ``reads-one-unsure``, ``step-up-unsure``: a white checker lay on a black
  one whose count the watch did not know; the masked reading became the
  reference and the step back up counted a second black checker (30862b8;
  soak 7000021582, ``masked_without_history.jsonl``).  A step up from a
  reference taken without history leaves the count open.
- ``two-unsure-opens``: the same guard (``count == 2 and not sure``) opens
  a ``two?`` on any one-or-more reading that is not a step down.
- ``step-up``, ``step-down``: the stack watch itself: a bear-off from an
  8-stack read the same before and after, a wrong commit (587cce8).
- ``drift``: the reference follows drift and the crosstalk estimate.
- ``steady-drift``: the next game's setup put a slightly stronger checker
  in a pocket within one scan (+90 counts, not a step); the reference stayed
  behind and noise later counted a second checker (584f01a; soak
  6000018286, ``setup_swaps_a_stronger_checker.jsonl``).
- ``tall-drift``: on a pocket that may hold a third layer (``tall``, from
  :mod:`tavla_pi.decode.tall`) the reference follows within half a step at
  once: a third-layer checker lifted (a third of a step, never counted) left
  the reference behind, and a phantom of the other colour passing over the
  pocket added the rest of a step: a step down counted on a Plakoto start
  pile, one checker short there, the next lift read as a pin under it, DONE
  refused for ever (soak 13000118, ``third_layer_lift_then_phantom.jsonl``).
- ``not-a-step``: too far to follow, no step to count: noise, a masked one
  still reading one-or-more, a rise from two (two is the most it counts).
"""

from __future__ import annotations

from collections.abc import Sequence

from tavla_pi.decode.tables import EMPTY, ONE, ONE_PLUS, TWO_PLUS, WEAK

MASK_STEPS = (0.75, 1.6)
"""How much weaker than its own reading (in second-layer steps) a lone checker reads
with one of the other colour on it: that checker's field, about one step (1.0-1.2).
Two magnets of one colour differ by up to 0.6 of a step (Br +-5 % each)."""


LIFTED_MASKED_STEPS = 1.75
"""How much weaker than a two (in steps) a reading of one checker must be to be a lift
with a checker of the other colour over the one left: a lift alone is one step."""


class StackWatch:
    """Per pocket: how many checkers (0, 1, 2) it holds, when its history says so
    (its states and transitions: the module's tables)."""

    def __init__(self, sensors: int, second_layer_step: float) -> None:
        self.half_step = second_layer_step / 2.0
        self.count: list[int | None] = [None] * sensors
        self.ref = [0.0] * sensors
        self.sign = [0] * sensors
        """The colour of each pocket's checkers as last anchored (+1 White, -1 Black,
        0 empty or not yet seen)."""
        self.sure = [False] * sensors
        """Whether each reference is a reading of the pocket's own checkers: not one
        taken with no history (a checker of the other colour may have lain on it)."""
        self.bare: list[float | None] = [None] * sensors
        """The reading of each pocket's bottom checker alone, kept from the step up
        to two while the pocket holds one or two (None: not known)."""

    def update(self, levels: Sequence[int], magnitudes: Sequence[float],
               signs: Sequence[int], steady: Sequence[bool],
               tall: Sequence[bool] = ()) -> list[int | None]:
        """Feed one frame's levels, field magnitudes, signs (0 where a level has none),
        which readings have been steady a while and which pockets may hold a third
        layer (none if not given); each pocket's known count (per pocket, the first
        row of the module's table that fits)."""
        count, ref, sign, sure, half = self.count, self.ref, self.sign, self.sure, self.half_step
        mask = MASK_STEPS[0] * 2.0 * half
        for i, level in enumerate(levels):
            a, was = magnitudes[i], (count[i], ref[i], sure[i])
            if level == EMPTY:  # row emptied
                count[i], ref[i], sign[i], sure[i] = 0, a, 0, True
            elif signs[i] and signs[i] != sign[i]:  # rows put-*, fresh-*
                sure[i] = count[i] == 0
                count[i], ref[i], sign[i] = _fresh(level, count[i]), a, signs[i]
            elif level == ONE:  # rows bared, masked, lifted-masked, reads-one(-unsure)
                if count[i] == 2 and ref[i] - a >= LIFTED_MASKED_STEPS * 2.0 * half:
                    continue  # a lift and a phantom over the one left: wait for it to go
                if count[i] != 1 or ref[i] - a < mask or self._bared(i, a):
                    sure[i] = count[i] is not None and sure[i]
                    count[i], ref[i] = 1, a
                # else: the one checker reads a layer's step weaker (an opposite checker
                # on it): keep its own reading, or taking that off would count two
            elif level == TWO_PLUS:  # row reads-two
                count[i], ref[i], sure[i] = 2, a, True
            elif level == ONE_PLUS:  # rows stays-open to not-a-step
                if self._still_two(i, a):
                    ref[i] = a
                    continue
                loose = steady[i] or (bool(tall) and tall[i])
                count[i], ref[i] = _stepped(count[i], ref[i], a, half, loose=loose)
                if count[i] == 2 and not sure[i]:
                    count[i] = None  # a step up from a reference that may have been masked
            # else rows weak, unknown: nothing changes
            self._keep_bare(i, was[0], was[1], sure=was[2])
        return count

    def _bared(self, i: int, a: float) -> bool:
        """Whether pocket ``i``'s one checker reads back its own reading from before a
        second stood on it (row bared); that reading is then spent."""
        bare = self.bare[i]
        if bare is None or abs(a - bare) >= self.half_step / 2.0:
            return False
        self.bare[i] = None
        return True

    def _still_two(self, i: int, a: float) -> bool:
        """Whether pocket ``i``, known to hold two, reads a step down that its bottom
        checker's own reading says is not a lift (row still-two): a phantom gone."""
        bare, half = self.bare[i], self.half_step
        return (self.count[i] == 2 and bare is not None and self.ref[i] - a > half
                and a - bare > half)

    def _keep_bare(self, i: int, count: int | None, ref: float, *, sure: bool) -> None:
        """Remember a sure one's reference as it steps up to two; forget it once the
        pocket holds neither one nor two, or a reference taken without history."""
        if self.count[i] not in (1, 2) or not self.sure[i]:
            self.bare[i] = None
        elif count == 1 and sure and self.count[i] == 2:
            self.bare[i] = ref

    def masked(self, levels: Sequence[int], magnitudes: Sequence[float]) -> list[int]:
        """Pockets known to hold one checker that now read about a step weaker: a
        checker of the other colour lies on it (its field opposes the one below)."""
        step = 2.0 * self.half_step
        low, high = MASK_STEPS[0] * step, MASK_STEPS[1] * step
        count, ref = self.count, self.ref
        return [i for i, level in enumerate(levels)
                if count[i] == 1 and level in (WEAK, ONE, ONE_PLUS)
                and low <= ref[i] - magnitudes[i] <= high]


def _fresh(level: int, known: int | None) -> int | None:
    """The count of a pocket that now reads a colour it did not hold (put on an empty
    pocket, or its checkers swapped for the other colour's within one scan)."""
    if level == ONE or (level == ONE_PLUS and known == 0):
        return 1
    return 2 if level == TWO_PLUS else None


def _stepped(known: int | None, ref: float, a: float, half: float,
             *, loose: bool) -> tuple[int | None, float]:
    """The count after a one-or-more reading ``a``, from the last known count and reading.

    The reference follows small changes (drift, the crosstalk estimate, a checker
    swapped for a slightly stronger one): at once within a quarter step, and
    within half a step when ``loose`` (the reading has been steady a while, or a
    third layer may stand on the pocket).
    """
    if known is None:
        return None, a
    if known == 0:
        return 1, a  # one checker put on an empty pocket
    if known == 1 and a - ref > half:
        return 2, a
    if known == 2 and ref - a > half:
        return 1, a
    follows = abs(a - ref) < (half if loose else half / 2.0)
    return known, a if follows else ref
