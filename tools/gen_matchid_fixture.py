"""Record GNU Backgammon Match IDs from real match situations, as a test fixture.

    python tools/gen_matchid_fixture.py [OUT]      (default tests/fixtures/matchid.jsonl)

Run with a normal Python, this starts GNU Backgammon (``gnubg -t -q -p`` on
this same file); inside gnubg's embedded Python it plays seeded matches of
several lengths and money sessions (rolling, moving with gnubg's own 0-ply
choice, doubling, taking, dropping, beavering, resigning), and edits states
with gnubg's ``set`` commands (score, cube value and owner, Crawford, turn,
dice, Jacoby, automatic doubles).  After each step it writes one JSON line:

    {"match_id": ..., "situation": ..., "fields": {...}}

and, next to it (``matchid_transitions.jsonl``), one line per action taken
or refused in play:

    {"before": ID, "action": ..., "player": 0|1, "after": ID or null, ...}

``action`` is double, take, drop, beaver, accept (a resignation), roll, roll
without play (no legal play, so gnubg passed the turn), move, win (the move
that ends the game, with the loser's checkers as 25 counts in the loser's
numbering) or new game; ``player`` is who acted (gnubg's fTurn);
``after`` is null when gnubg refused the action.  ``beavers`` and
``automatic_doubles`` give the settings in force.  Plain rolls and moves are
sampled; every other action is kept.

``fields`` are as gnubg reports them (``gnubg.posinfo()``, ``gnubg.cubeinfo()``
and ``show score``), in gnubg's terms: players 0 and 1, cube owner -1 for
centred, dice [0, 0] before the roll.  Once a match is won gnubg refuses a
cube info (the score is past the length), so those lines lack the cube,
cube_owner, move and jacoby fields.  Lines are unique by Match ID.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

OUT_ENV = "TAVLA_MATCHID_FIXTURE_OUT"
DEFAULT_OUT = Path("tests") / "fixtures" / "matchid.jsonl"
GNUBG_CANDIDATES = ("gnubg", "/usr/games/gnubg")
SCORE_RE = re.compile(r"is: .* (\d+), .* (\d+) \((match to (\d+) points?|money session)")

MATCH_LENGTHS = (1, 2, 3, 5, 7, 9, 11, 15, 25, 64)
ORDINARY_STEPS = 0.03  # share of plain rolls and moves recorded (every cube step and game end is)


def find_gnubg() -> str | None:
    """The gnubg program, or None if it is not installed."""
    for name in GNUBG_CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return None


def launch(out: Path) -> int:
    """Run this file inside gnubg, writing the fixture to ``out``.

    (Inside gnubg ``__file__`` is not defined: only this side may use it.)
    """
    gnubg = find_gnubg()
    if gnubg is None:
        print("gnubg (GNU Backgammon) is not installed", file=sys.stderr)
        return 2
    env = dict(os.environ, **{OUT_ENV: str(out)})
    run = subprocess.run(
        [gnubg, "-t", "-q", "-p", str(Path(__file__).resolve())],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if run.returncode != 0 or not out.exists():
        print(run.stdout[-2000:], run.stderr[-2000:], file=sys.stderr)
        return 1
    print(f"{out}: {sum(1 for _ in out.open())} Match IDs")
    moves = transitions_path(out)
    print(f"{moves}: {sum(1 for _ in moves.open())} transitions")
    return 0


class Recorder:
    """Drives gnubg and writes one line per new Match ID."""

    def __init__(self, gnubg: Any, seed: int) -> None:
        self.g = gnubg
        self.rng = random.Random(seed)
        self.lines: dict[str, dict[str, Any]] = {}
        self.transitions: list[dict[str, Any]] = []
        self.beavers = 0
        self.automatic_doubles = 0
        self.eval_context = gnubg.evalcontext(0, 0, 1, 0, 0.0)

    def cmd(self, command: str) -> None:
        self.g.command(command)

    def record(self, situation: str, sample: float = 1.0) -> None:
        """Write the current Match ID (if new); ordinary steps only now and then."""
        if self.rng.random() >= sample:
            return
        try:
            match_id = self.g.matchid()
        except Exception:  # no game yet: nothing to record
            return
        if match_id not in self.lines:
            fields = self.fields()
            self.lines[match_id] = {"match_id": match_id, "situation": situation, "fields": fields}

    def act(self, label: str, command: str, action: str, sample: float = 1.0) -> bool:
        """Run a gnubg command, recording the state and the transition; True if it took."""
        before = self.g.matchid()
        player = self.g.posinfo()["turn"]
        self.cmd(command)
        after = self.g.matchid()
        done = bool(after != before)
        pos = self.g.posinfo()
        ended = pos["gamestate"] != 1
        if action == "move" and ended:
            action = "win"
        if action == "roll" and done and pos["dice"] == (0, 0):
            action = "roll without play"  # no legal play: gnubg passes the turn at once
        ordinary = action in ("roll", "roll without play", "move")
        keep = sample if ordinary and not ended else 1.0
        if done:
            self.record(f"{label}: {command}", keep)
        if self.rng.random() < keep:
            line: dict[str, Any] = {
                "before": before,
                "action": action,
                "player": player,
                "after": after if done else None,
                "beavers": self.beavers,
                "automatic_doubles": self.automatic_doubles,
            }
            if action == "win":
                line["loser_checkers"] = self.loser_checkers()
            self.transitions.append(line)
        return done

    def loser_checkers(self) -> list[int]:
        """After a winning move: the loser's 25 counts, in the loser's own numbering."""
        board = self.g.board()
        loser = [side for side in board if sum(side)]
        if len(loser) != 1:
            raise RuntimeError(f"expected one side with checkers left: {board}")
        return list(loser[0])

    def fields(self) -> dict[str, Any]:
        pos = self.g.posinfo()
        text = self.g.show("score")
        found = SCORE_RE.search(text)
        if found is None:
            raise RuntimeError(f"cannot read the score from {text!r}")
        out: dict[str, Any] = {
            "dice": list(pos["dice"]),
            "turn": pos["turn"],
            "resigned": pos["resigned"],
            "doubled": pos["doubled"],
            "game_state": pos["gamestate"],
            "score": [int(found.group(1)), int(found.group(2))],
            "match_length": int(found.group(4) or 0),
            "crawford": int(", Crawford game" in text),
        }
        try:
            cube = self.g.cubeinfo()
        except Exception:  # gnubg refuses once the score is past the match length
            return out
        out.update(
            cube=cube["cube"],
            cube_owner=cube["cubeowner"],
            move=cube["move"],
            match_length=cube["matchto"],
            crawford=cube["crawford"],
            jacoby=cube["jacoby"],
        )
        return out

    # -- playing -------------------------------------------------------------

    def setup(self, seed: int, *commands: str, beavers: int = 0, automatic: int = 0) -> None:
        self.beavers = beavers
        self.automatic_doubles = automatic
        for command in (
            "set player 0 human",
            "set player 1 human",
            "set display off",
            "set automatic game off",
            "set automatic roll off",
            "set jacoby off",
            f"set beavers {beavers}",
            f"set automatic doubles {automatic}",
            f"set seed {seed}",
            *commands,
        ):
            self.cmd(command)

    def play(self, label: str, games: int, cube_rate: float) -> None:
        """Play up to ``games`` games of the current match, recording each step."""
        played = 0
        for _ in range(5000):
            pos = self.g.posinfo()
            if pos["gamestate"] != 1:
                played += 1
                if played >= games or self.match_over():
                    return
                self.act(label, "new game", "new game")
                continue
            self.step(label, pos, cube_rate)

    def match_over(self) -> bool:
        found = SCORE_RE.search(self.g.show("score"))
        if found is None or not found.group(4):
            return False
        return max(int(found.group(1)), int(found.group(2))) >= int(found.group(4))

    def step(self, label: str, pos: dict[str, Any], cube_rate: float) -> None:
        if pos["doubled"]:
            answer = self.rng.choice(("take", "take", "drop", "redouble"))
            self.act(label, answer, "beaver" if answer == "redouble" else answer)
        elif pos["resigned"]:
            if self.rng.random() < 0.5:
                self.act(label, "accept", "accept")
            else:
                self.cmd("reject")
                self.record(f"{label}: reject resignation")
        elif pos["dice"] == (0, 0):
            self.before_roll(label, cube_rate)
        else:
            self.move(label)

    def before_roll(self, label: str, cube_rate: float) -> None:
        if self.rng.random() < cube_rate and self.act(label, "double", "double"):
            return
        if self.rng.random() < 0.01:
            kind = self.rng.choice("ngb")
            self.cmd(f"resign {kind}")
            self.record(f"{label}: resign {kind}")
            return
        self.act(label, "roll", "roll", ORDINARY_STEPS)

    def move(self, label: str) -> None:
        board = self.g.board()
        best = self.g.findbestmove(board, self.g.cubeinfo(), self.eval_context)
        text = self.g.movetupletostring(best, board) if best else ""
        self.act(label, f"move {text}".strip(), "move", ORDINARY_STEPS)

    # -- the scripts -----------------------------------------------------------

    def played_matches(self) -> None:
        for length in MATCH_LENGTHS:
            self.setup(100 + length)
            self.cmd(f"new match {length}")
            self.record(f"{length}-point match: start")
            self.play(f"{length}-point match", games=40 if length <= 7 else 3, cube_rate=0.08)
        for length in (2, 3, 4, 5, 7):  # no cube: long enough for Crawford and post-Crawford
            self.setup(200 + length)
            self.cmd(f"new match {length}")
            self.play(f"{length}-point match without doubles", games=40, cube_rate=0.0)
        for jacoby, beavers in ((0, 0), (1, 0), (0, 1), (1, 1)):
            jacoby_on = f"set jacoby {'on' if jacoby else 'off'}"
            self.setup(7 + jacoby + beavers, jacoby_on, beavers=beavers)
            self.cmd("new session")
            label = f"money (jacoby {jacoby}, beavers {beavers})"
            self.record(f"{label}: start")
            self.play(label, games=4, cube_rate=0.1)
        for jacoby, cube_rate in ((1, 0.0), (1, 0.03), (0, 0.0)):  # games played out: gammons
            self.setup(20 + jacoby, f"set jacoby {'on' if jacoby else 'off'}")
            self.cmd("new session")
            self.play(f"money (jacoby {jacoby}, doubling rate {cube_rate})", 20, cube_rate)

    def edited_states(self) -> None:
        for length in (0, *MATCH_LENGTHS):
            self.setup(300 + length)
            self.cmd(f"new match {length}" if length else "new session")
            self.edit_scores(length)
            self.edit_cube(length)
            self.edit_turn_and_dice(length)

    def edit_scores(self, length: int) -> None:
        limit = max(length, 1) if length else 200
        for _ in range(6):
            a, b = self.rng.randrange(limit), self.rng.randrange(limit)
            self.cmd(f"set score {a} {b}")
            self.record(f"set score {a} {b}")
            if length and length - 1 in (a, b):
                for flag in ("on", "off"):
                    self.cmd(f"set crawford {flag}")
                    self.record(f"set score {a} {b}, crawford {flag}")

    def edit_cube(self, length: int) -> None:
        self.cmd("set crawford off")
        for value in (1, 2, 4, 8, 16, 32, 64):
            for owner in ("0", "1", "centre"):
                self.cmd(f"set cube value {value}")
                self.cmd(f"set cube owner {owner}" if owner != "centre" else "set cube centre")
                self.record(f"match {length}: cube {value} owner {owner}")
        self.cmd("set cube value 1")
        self.cmd("set cube centre")

    def edit_turn_and_dice(self, length: int) -> None:
        for player in (0, 1):
            self.cmd(f"set turn {player}")
            self.record(f"match {length}: turn {player}")
            for _ in range(4):
                dice = (self.rng.randint(1, 6), self.rng.randint(1, 6))
                self.cmd(f"set dice {dice[0]} {dice[1]}")
                self.record(f"match {length}: player {player} dice {dice[0]}{dice[1]}")
                self.cmd(f"set turn {player}")

    def automatic_doubles_sessions(self) -> None:
        """Money sessions where opening ties double the cube (limit 3).

        gnubg 1.07 doubles the cube inside its "The cube is now at" message,
        so it does so only with the display on.
        """
        for seed in range(60):
            self.setup(1000 + seed, "set display on", automatic=3)
            self.cmd("new session")
            label = f"money, automatic doubles, seed {1000 + seed}"
            self.record(f"{label}: start")
            if self.act(label, "double", "double") and self.act(label, "drop", "drop"):
                self.act(label, "new game", "new game")

    def write(self, out: Path) -> None:
        with out.open("w") as f:
            for line in self.lines.values():
                f.write(json.dumps(line, sort_keys=True) + "\n")
        with transitions_path(out).open("w") as f:
            for line in self.transitions:
                f.write(json.dumps(line, sort_keys=True) + "\n")


def transitions_path(out: Path) -> Path:
    """Where the transitions go, next to the Match IDs."""
    return out.with_name(f"{out.stem}_transitions.jsonl")


def record_inside_gnubg(gnubg: Any, out: Path) -> None:
    recorder = Recorder(gnubg, seed=2024)
    recorder.played_matches()
    recorder.edited_states()
    recorder.automatic_doubles_sessions()
    recorder.write(out)


def main() -> int:
    try:
        import gnubg  # only inside GNU Backgammon
    except ImportError:
        root = Path(__file__).resolve().parent.parent
        out = Path(sys.argv[1]) if len(sys.argv) > 1 else root / DEFAULT_OUT
        return launch(out.resolve())
    record_inside_gnubg(gnubg, Path(os.environ[OUT_ENV]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
