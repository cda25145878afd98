"""Generate the move-generation fixture with GNU Backgammon as the oracle.

    python tools/gen_movegen_fixture.py --seed 1 --count 2400 --out tests/fixtures/movegen.jsonl

Each output line is one (position, roll) case::

    {"position_id": ..., "dice": [a, b], "tags": [...],
     "results": [{"position_id": <after, other side on roll>, "notation": ...}, ...]}

Run with an ordinary Python, this script starts ``gnubg -t -q -p`` on itself;
inside GNU Backgammon (module ``gnubg``) it builds the cases and asks
``hint`` at 0-ply for every legal play of each.  The result positions come
from ``gnubg.parsemove`` of each play applied by the few lines below (not by
tavla-pi's engine) and ``gnubg.positionid``.  Nothing here imports tavla_pi:
the fixture is an independent oracle.

Cases (tags): the 21 opening rolls in both dice orders ("opening"); checkers
on the bar against closed and partly closed boards ("bar", "bar-closed",
"bar-partial"); bear-offs ("bearoff", "bearoff-higher" when a die is larger
than the highest point, "bearoff-inside" when a die neither bears off exactly
nor from the highest point); rolls where only one die can be played
("one-die"), "larger-die" when either could be but not both; doubles in
spread positions with the most plays ("many-plays"); random legal boards
("random-board"); positions from games played by random and by gnubg 0-ply
choices ("random-game", "gnubg-game"); plus "no-move" and "doubles" wherever
they apply.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

Side = list[int]
Board = tuple[Side, Side]  # (not on roll, on roll): gnubg's anBoard[0], anBoard[1]
Case = dict[str, Any]
ENV = "TAVLA_FIXTURE_JOB"
INITIAL = [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0]
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]

# Shares of --count per kind of case (the 42 opening cases come on top).
SHARES = {
    "bar": 0.14,
    "bearoff": 0.14,
    "larger-die": 0.05,
    "many-plays": 0.003,
    "random-board": 0.15,
    "random-game": 0.25,
    "gnubg-game": 0.25,
}


# -- outside gnubg: start gnubg on this file ------------------------------------------


def main() -> int:
    """Parse the command line and let gnubg run this file as its Python script."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=2400, help="cases besides the opening ones")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--gnubg", default=shutil.which("gnubg") or "/usr/games/gnubg")
    args = ap.parse_args()
    job = {"seed": args.seed, "count": args.count, "out": str(args.out.resolve())}
    env = {**os.environ, ENV: json.dumps(job)}
    cmd = [args.gnubg, "-t", "-q", "-p", str(Path(__file__).resolve())]
    args.out.unlink(missing_ok=True)
    done = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, check=False)
    if done.returncode != 0 or not args.out.exists():
        print(f"gnubg failed (exit {done.returncode})", file=sys.stderr)
        return 1
    tags = Counter(t for line in args.out.open() for t in json.loads(line)["tags"])
    cases = sum(1 for _ in args.out.open())
    print(f"{args.out}: {cases} cases; tags: {dict(sorted(tags.items()))}")
    return 0


# -- inside gnubg: the oracle ---------------------------------------------------------


class Oracle:
    """GNU Backgammon answering for one board and roll at a time."""

    def __init__(self, gnubg: Any) -> None:
        self.g = gnubg
        self._last: tuple[Any, list[tuple[str, Board]] | None] = (None, None)
        for command in (
            "set player 0 human",
            "set player 1 human",
            "new game",
            "set evaluation chequerplay evaluation plies 0",
        ):
            gnubg.command(command)

    def position_id(self, board: Board) -> str:
        """gnubg's Position ID of a board (on-roll side second)."""
        return str(self.g.positionid((tuple(board[0]), tuple(board[1]))))

    def plays(self, board: Board, dice: tuple[int, int]) -> list[tuple[str, Board]] | None:
        """Every legal play as (notation, board after), or None if gnubg refuses the board."""
        key = (self.position_id(board), dice)
        if key != self._last[0]:
            self._last = (key, self._ask(board, dice))
        return self._last[1]

    def _ask(self, board: Board, dice: tuple[int, int]) -> list[tuple[str, Board]] | None:
        """Set up gnubg and ask ``hint`` for the whole list."""
        want = (tuple(board[0]), tuple(board[1]))
        self.g.command("set board " + self.position_id(board))
        if tuple(tuple(s) for s in self.g.board()) != want:
            return None
        self.g.command(f"set dice {dice[0]} {dice[1]}")
        try:
            hints = self.g.hint(100000)["hint"]
        except Exception:  # gnubg raises when there is no legal move
            return []
        return [(h["move"], apply(board, self.g.parsemove(h["move"]))) for h in hints]

    def best(self, board: Board, dice: tuple[int, int]) -> tuple[str, Board] | None:
        """gnubg's 0-ply choice, or None when the roll cannot be played."""
        plays = self.plays(board, dice)
        return plays[0] if plays else None


def apply(board: Board, moves: Any) -> Board:
    """The board after ``moves`` ((from, to) pairs, 25 bar, 0 off) with sides swapped."""
    opp, me = list(board[0]), list(board[1])
    for src, dst in moves:
        me[src - 1] -= 1
        if dst > 0:
            me[dst - 1] += 1
            if opp[24 - dst] == 1:
                opp[24 - dst] = 0
                opp[24] += 1
    return (me, opp)


def make_case(oracle: Oracle, board: Board, dice: tuple[int, int], tags: list[str]) -> Case | None:
    """The fixture line for one board and roll, or None if gnubg refuses the board."""
    plays = oracle.plays(board, dice)
    if plays is None:
        return None
    results = sorted(
        ({"position_id": oracle.position_id(after), "notation": note} for note, after in plays),
        key=lambda r: r["notation"],
    )
    if len({r["position_id"] for r in results}) != len(results):
        raise RuntimeError(f"gnubg listed one result twice: {oracle.position_id(board)} {dice}")
    tags = list(tags)
    if not results:
        tags.append("no-move")
    if dice[0] == dice[1]:
        tags.append("doubles")
    if results and dice[0] != dice[1] and not _can_play_both(board, dice):
        tags.append("one-die")
        if all(_can_play(board, d) for d in dice):
            tags.append("larger-die")
    return {"position_id": oracle.position_id(board), "dice": list(dice), "results": results,
            "tags": sorted(set(tags))}


def _single_moves(board: Board, die: int) -> list[int]:
    """Sources (index, 24 = bar) from which the on-roll side can play ``die`` alone."""
    opp, me = board
    if me[24]:
        return [24] if opp[die - 1] < 2 else []
    home = not any(me[6:25])
    highest = max((i for i in range(24) if me[i]), default=-1)
    sources = []
    for i in range(24):
        dest = i - die
        if me[i] and (
            (dest >= 0 and opp[23 - dest] < 2)
            or (dest < 0 and home and (dest == -1 or i == highest))
        ):
            sources.append(i)
    return sources


def _can_play(board: Board, die: int) -> bool:
    """Whether the on-roll side can play ``die`` alone (simple, independent check)."""
    return bool(_single_moves(board, die))


def _can_play_both(board: Board, dice: tuple[int, int]) -> bool:
    """Whether some order of the two dice can be played in full."""
    for first, second in (dice, dice[::-1]):
        for src in _single_moves(board, first):
            dst = src - first + 1 if src - first >= 0 else 0
            me_after, opp_after = apply(board, [(src + 1, dst)])
            if _can_play((opp_after, me_after), second):
                return True
    return False


# -- boards ---------------------------------------------------------------------------


def scatter(rng: random.Random, side: Side, count: int, slots: list[int], stack: int = 5) -> None:
    """Put up to ``count`` checkers on random ``slots`` of ``side``, at most ``stack`` high."""
    for _ in range(count):
        free = [s for s in slots if side[s] < stack]
        if not free:
            return
        side[rng.choice(free)] += 1


def free_for(opp: Side, slots: range | list[int]) -> list[int]:
    """The on-roll side's slots (index, 24 = bar) where ``opp`` has no checker."""
    return [i for i in slots if i == 24 or not opp[23 - i]]


def random_board(rng: random.Random) -> Board:
    """Random legal checkers for both sides, some borne off, rarely on the bar."""
    opp = [0] * 25
    scatter(rng, opp, rng.randint(6, 15), list(range(24)) + [24] * (rng.random() < 0.2))
    me = [0] * 25
    scatter(rng, me, rng.randint(6, 15), free_for(opp, range(24)) + [24] * (rng.random() < 0.2))
    return (opp, me)


def bar_board(rng: random.Random, made: int) -> Board:
    """On-roll side with 1-3 on the bar against ``made`` points in the opponent's home."""
    opp = [0] * 25
    for i in rng.sample(range(6), made):
        opp[i] = 2 + (sum(opp) + 2 * made < 14 and rng.random() < 0.3)
    scatter(rng, opp, rng.randint(0, 15 - sum(opp)), list(range(6, 24)))
    me = [0] * 25
    me[24] = rng.randint(1, 3)
    scatter(rng, me, rng.randint(3, 15 - me[24]), free_for(opp, range(24)))
    return (opp, me)


def bearoff_board(rng: random.Random) -> Board:
    """All of the on-roll side's checkers home, some off; the opponent anywhere."""
    me = [0] * 25
    top = rng.randint(1, 6)
    scatter(rng, me, rng.randint(1, 15), list(range(top)), stack=6)
    opp = [0] * 25
    slots = [i for i in range(24) if not me[23 - i]] + [24] * (rng.random() < 0.2)
    scatter(rng, opp, rng.randint(2, 15), slots)
    return (opp, me)


def blocked_board(rng: random.Random) -> Board:
    """A few back checkers of the on-roll side behind an opponent's prime (one-die rolls)."""
    opp = [0] * 25
    start = rng.randint(0, 8)
    for i in range(start, start + rng.randint(4, 6)):
        opp[i] = 2
    scatter(rng, opp, rng.randint(0, 15 - sum(opp)), list(range(24)))
    me = [0] * 25
    back = [i for i in free_for(opp, range(12, 24)) if i < 24]
    scatter(rng, me, rng.randint(1, 3), back)
    scatter(rng, me, rng.randint(0, 15 - sum(me)), free_for(opp, range(6)), stack=6)
    return (opp, me)


def spread_board(rng: random.Random) -> Board:
    """The on-roll side spread over many points, the opponent mostly out of the way."""
    me = [0] * 25
    for i in rng.sample(range(24), rng.randint(9, 13)):
        me[i] = 1
    scatter(rng, me, 15 - sum(me), [i for i in range(24) if me[i]])
    opp = [0] * 25
    slots = [i for i in range(24) if not me[23 - i]]
    scatter(rng, opp, rng.randint(2, 15), slots[: max(2, len(slots) // 2)])
    return (opp, me)


def roll(rng: random.Random) -> tuple[int, int]:
    """Two dice in the order rolled."""
    return rng.randint(1, 6), rng.randint(1, 6)


# -- the kinds of cases ---------------------------------------------------------------


def opening_cases(oracle: Oracle, rng: random.Random, count: int) -> Iterator[Case | None]:
    """All 21 rolls from the start, non-doubles in both orders (``count`` is ignored)."""
    for a, b in ROLLS:
        for dice in {(a, b), (b, a)}:
            yield make_case(oracle, (list(INITIAL), list(INITIAL)), dice, ["opening"])


def bar_cases(oracle: Oracle, rng: random.Random, count: int) -> Iterator[Case | None]:
    """Entering against 3..6 made home points."""
    while True:
        made = rng.choice([3, 4, 5, 5, 6])
        tag = "bar-closed" if made == 6 else "bar-partial"
        yield make_case(oracle, bar_board(rng, made), roll(rng), ["bar", tag])


def bearoff_cases(oracle: Oracle, rng: random.Random, count: int) -> Iterator[Case | None]:
    """Bear-offs, tagged by which bear-off rule the roll exercises."""
    while True:
        board, dice = bearoff_board(rng), roll(rng)
        me = board[1]
        highest = max(i for i in range(24) if me[i]) + 1
        tags = ["bearoff"]
        if any(d > highest for d in dice):
            tags.append("bearoff-higher")
        if any(d < highest and not me[d - 1] for d in dice):
            tags.append("bearoff-inside")
        yield make_case(oracle, board, dice, tags)


def larger_die_cases(oracle: Oracle, rng: random.Random, count: int) -> Iterator[Case | None]:
    """Blocked positions, kept only when either die could be played but not both."""
    while True:
        a, b = roll(rng)
        if a == b:
            continue
        case = make_case(oracle, blocked_board(rng), (a, b), ["blocked"])
        if case is not None and "larger-die" in case["tags"]:
            yield case


def many_plays_cases(oracle: Oracle, rng: random.Random, count: int) -> Iterator[Case | None]:
    """Of 20 spread positions per case wanted, the ones with the most plays for small doubles."""
    found = []
    for _ in range(20 * count):
        d = rng.choice([1, 2, 3])
        case = make_case(oracle, spread_board(rng), (d, d), ["many-plays"])
        if case is not None:
            found.append(case)
    found.sort(key=lambda c: -len(c["results"]))
    yield from found[:count]


def random_board_cases(oracle: Oracle, rng: random.Random, count: int) -> Iterator[Case | None]:
    """Random legal boards and rolls."""
    while True:
        yield make_case(oracle, random_board(rng), roll(rng), ["random-board"])


def game_cases(choose: str) -> Callable[[Oracle, random.Random, int], Iterator[Case | None]]:
    """Every position of games whose plays are chosen by ``choose`` ("random" or "gnubg")."""

    def cases(oracle: Oracle, rng: random.Random, count: int) -> Iterator[Case | None]:
        while True:
            board: Board = (list(INITIAL), list(INITIAL))
            while any(board[0]) and any(board[1]):
                dice = roll(rng)
                case = make_case(oracle, board, dice, [f"{choose}-game"])
                yield case
                if case is None or not case["results"]:
                    board = (board[1], board[0])
                    continue
                plays = oracle.plays(board, dice) or []
                pick = plays[0] if choose == "gnubg" else rng.choice(plays)
                board = pick[1]

    return cases


KINDS = {
    "bar": bar_cases,
    "bearoff": bearoff_cases,
    "larger-die": larger_die_cases,
    "many-plays": many_plays_cases,
    "random-board": random_board_cases,
    "random-game": game_cases("random"),
    "gnubg-game": game_cases("gnubg"),
}


def run_in_gnubg(gnubg: Any, job: dict[str, Any]) -> None:
    """Build every case of the job and write the fixture."""
    oracle = Oracle(gnubg)
    rng = random.Random(job["seed"])
    out: list[Case] = [c for c in opening_cases(oracle, rng, 0) if c is not None]
    seen = {(c["position_id"], tuple(c["dice"])) for c in out}
    for kind, share in SHARES.items():
        want = max(3, round(job["count"] * share))
        got = 0
        for case in KINDS[kind](oracle, rng, want):
            if got >= want:
                break
            if case is None:
                continue
            key = (case["position_id"], tuple(case["dice"]))
            if key in seen:
                continue
            seen.add(key)
            out.append(case)
            got += 1
    with open(job["out"], "w", encoding="utf-8") as f:
        for case in out:
            f.write(json.dumps(case, separators=(",", ":")) + "\n")


def _gnubg_module() -> Any:
    """The ``gnubg`` module when running inside GNU Backgammon, else None."""
    try:
        import gnubg  # only inside GNU Backgammon
    except ImportError:
        return None
    return gnubg


if __name__ == "__main__":
    _module = _gnubg_module() if ENV in os.environ else None
    if _module is not None:
        run_in_gnubg(_module, json.loads(os.environ[ENV]))
    else:
        sys.exit(main())
