"""GNU Backgammon's notation of a play, derived from its single-die moves.

``format_play`` reproduces GNU Backgammon's ``FormatMove``: single-die moves
sorted by source (then destination) from high to low, a checker's consecutive
moves joined into one ("24/13"; the landing point kept and starred when it hit
there, "24/18*/13"), repeated moves counted ("8/5(2)"), a star for each hit
once per point, "bar" and "off".

GNU reads the hits off the board before the play; the moves' hit flags carry
the same facts (a point the mover lands on held an opponent's checker exactly
when the first move landing there hit).
"""

from __future__ import annotations

from collections.abc import Sequence

from tavla_pi.rules.side import Move

_NAMES = ("off", *(str(n) for n in range(1, 25)), "bar")
"""How a point is written, by number: 0 "off", 1..24, 25 "bar"."""


def format_play(moves: Sequence[Move]) -> str:
    """The notation of a play given as single-die moves (from, to, hit)."""
    if len(moves) == 1:
        src, dst, hit = moves[0]
        return f"{_NAMES[src]}/{_NAMES[dst]}*" if hit else f"{_NAMES[src]}/{_NAMES[dst]}"
    hits = {dst for _, dst, hit in moves if hit}
    paths = _join_checkers(hits, sorted([(src, dst) for src, dst, _ in moves], reverse=True))
    starred: set[int] = set()
    return " ".join([_format_path(hits, path, n, starred) for path, n in _count_repeats(paths)])


def _join_checkers(hits: set[int], moves: list[tuple[int, int]]) -> list[list[int]]:
    """Join each move onto an earlier one that ends where it starts (GNU's pairing):
    the meeting point is kept in the path if a hit happened there, else dropped."""
    paths: list[list[int] | None] = [[src, dst] for src, dst in moves]
    for i, path in enumerate(paths):
        if path is None:
            continue
        for j in range(i + 1, len(paths)):
            other = paths[j]
            if other is not None and path[-1] == other[0]:
                if path[-1] in hits:
                    path.append(other[1])
                else:
                    path[-1] = other[1]
                paths[j] = None
    return [p for p in paths if p is not None]


def _count_repeats(paths: list[list[int]]) -> list[tuple[list[int], int]]:
    """Merge identical paths into (path, how many), keeping the first's place."""
    counted: list[tuple[list[int], int]] = []
    for path in paths:
        for k, (seen, n) in enumerate(counted):
            if seen == path:
                counted[k] = (seen, n + 1)
                break
        else:
            counted.append((path, 1))
    return counted


def _format_path(hits: set[int], path: list[int], count: int, starred: set[int]) -> str:
    """One checker's path, e.g. "24/18*/13", "bar/22*", "6/off", "8/5(2)"."""
    parts = [_NAMES[path[0]]]
    for point in path[1:-1]:
        parts.append(_NAMES[point] + "*")
        starred.add(point)
    dest = path[-1]
    if dest in hits and dest not in starred:
        parts.append(_NAMES[dest] + "*")
        starred.add(dest)
    else:
        parts.append(_NAMES[dest])
    text = "/".join(parts)
    return f"{text}({count})" if count > 1 else text
