"""GNU Backgammon's notation of a play, derived from the moves and the board before.

``format_play`` reproduces GNU Backgammon's ``FormatMove``: single-die moves
sorted by source (then destination) from high to low, a checker's consecutive
moves joined into one ("24/13"; the landing point kept and starred when it hit
there, "24/18*/13"), repeated moves counted ("8/5(2)"), a star for each hit
once per point, "bar" and "off".
"""

from __future__ import annotations

from collections.abc import Sequence

from tavla_pi.rules.movegen import Move


def format_play(theirs_before: Sequence[int], moves: Sequence[Move]) -> str:
    """The notation of ``moves`` played against the opponent side ``theirs_before``."""
    paths = _join_checkers(theirs_before, sorted(((m[0], m[1]) for m in moves), reverse=True))
    counted = _count_repeats(paths)
    starred: set[int] = set()
    parts = [_format_path(theirs_before, path, n, starred) for path, n in counted]
    return " ".join(parts)


def _join_checkers(theirs: Sequence[int], moves: list[tuple[int, int]]) -> list[list[int]]:
    """Join each move onto an earlier one that ends where it starts (GNU's pairing)."""
    paths: list[list[int] | None] = [[src, dst] for src, dst in moves]
    for i, path in enumerate(paths):
        if path is None:
            continue
        for j in range(i + 1, len(paths)):
            other = paths[j]
            if other is not None and path[-1] == other[0]:
                if theirs[24 - path[-1]]:
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


def _format_path(theirs: Sequence[int], path: list[int], count: int, starred: set[int]) -> str:
    """One checker's path, e.g. "24/18*/13", "bar/22*", "6/off", "8/5(2)"."""
    text = _point(path[0])
    for point in path[1:-1]:
        text += f"/{_point(point)}*"
        starred.add(point)
    dest = path[-1]
    text += f"/{_point(dest)}"
    if dest and theirs[24 - dest] and dest not in starred:
        text += "*"
        starred.add(dest)
    if count > 1:
        text += f"({count})"
    return text


def _point(n: int) -> str:
    """A point as GNU writes it: "bar" for 25, "off" for 0, else the number."""
    if n == 0:
        return "off"
    if n == 25:
        return "bar"
    return str(n)
