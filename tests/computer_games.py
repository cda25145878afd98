"""Games against GNU Backgammon written as scenarios, and gnubg's own choices to check them by.

:func:`write_game` plays one game on the modelled board in process: the
human side (White) makes random legal plays from a seeded generator and
takes or drops the computer's doubles at random; the computer (Black, gnubg
at level expert) rolls from the dice queue, and its chosen plays are moved
by the hand.  Every action is written to a scenario file, which ``tavla-pi
replay`` then plays again on its own.

:func:`oracle_best` asks gnubg directly, through its embedded Python and not
through ``tavla_pi.engine``, for its 0-ply best play in each position the
computer moved in: the board, the dice (larger first), the cube and who owns
it, the match (a new 1-point match, or a money session with the Jacoby rule
and beavers off, as tavla-pi's defaults are).

:func:`check_replay` reads a replay's events and says what does not hold:
each ``seat_play`` gnubg's choice, each carried out and committed, the game
ended with the result its last position gives.

    .venv/bin/python tests/computer_games.py --games 40 --out /tmp/games
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sim_support import PINMAP

from tavla_pi.engine import GnubgEngine, find_gnubg
from tavla_pi.game.settings import GameSettings
from tavla_pi.game.view import Phase
from tavla_pi.replay.actions import parse_line
from tavla_pi.replay.runner import ScenarioRunner
from tavla_pi.rules.color import Color
from tavla_pi.rules.position import Position
from tavla_pi.testing.hand import hand_moves

ROOT = Path(__file__).resolve().parent.parent
MAX_STEPS = 600
TAKE_CHANCE = 0.6
"""How often the human side takes the computer's double."""
W, B = Color.WHITE, Color.BLACK

ORACLE = """
import json, os
import gnubg

def best(case):
    gnubg.command("new match 1" if case["match_length"] == 1 else "new session")
    gnubg.command("set turn 0")
    gnubg.command("set board " + case["position_id"])
    gnubg.command("set cube value %d" % case["cube"])
    owner = {"computer": "0", "human": "1", None: "centre"}[case["owner"]]
    gnubg.command("set cube owner " + owner)
    gnubg.command("set dice %d %d" % tuple(case["dice"]))
    move = gnubg.hint(1)["hint"][0]["move"]
    opp, me = [list(side) for side in gnubg.board()]
    for src, dst in gnubg.parsemove(move):
        me[src - 1] -= 1
        if dst > 0:
            me[dst - 1] += 1
            if opp[24 - dst] == 1:
                opp[24 - dst] = 0
                opp[24] += 1
    return gnubg.positionid((me, opp))

for command in ("set player 0 human", "set player 1 human", "set display off",
                "set automatic game off", "set automatic roll off",
                "set jacoby off", "set beavers 0", "set cube use on",
                "set evaluation chequerplay evaluation plies 0",
                "set evaluation chequerplay evaluation cubeful on",
                "set evaluation chequerplay evaluation prune off",
                "set evaluation chequerplay evaluation noise 0",
                "set evaluation chequerplay evaluation deterministic on"):
    gnubg.command(command)
cases = json.load(open(os.environ["JOBS"]))
json.dump([best(case) for case in cases], open(os.environ["OUT"], "w"))
"""


class Game:
    """One game being played in process and written down as a scenario."""

    def __init__(self, seed: int, match_length: int, prefs: Path) -> None:
        self.rng = random.Random(seed)
        self.runner = ScenarioRunner(PINMAP, GameSettings(), seed=seed,
                                     engine=GnubgEngine.launch(prefs, find_gnubg()))
        self.actions: list[dict[str, Any]] = []
        self.events: list[dict[str, Any]] = [e.to_dict() for e in self.runner.advance(0)]
        self.match_length = match_length

    def act(self, *actions: dict[str, Any]) -> None:
        for n, action in enumerate(actions):
            parsed = parse_line(json.dumps(action), f"game:{len(self.actions) + n}")
            assert parsed is not None
            self.events += [e.to_dict() for e in self.runner.apply(parsed)]
        self.actions += actions

    def dice(self) -> dict[str, Any]:
        return {"dice": [self.rng.randint(1, 6), self.rng.randint(1, 6)]}

    def play(self) -> None:
        """Play the game to its end (or :data:`MAX_STEPS` actions)."""
        opponent = {"color": "black", "level": "expert"}
        self.act({"setup": "start", "match_length": self.match_length, "opponent": opponent},
                 {"wait": 400})
        white, black = self.rng.sample(range(1, 7), 2)
        self.act({"dice": [white, black]}, {"press": "white.roll"})
        while len(self.actions) < MAX_STEPS and self.step():
            pass
        self.events += [e.to_dict() for e in self.runner.finish()]
        self.runner.close()

    def step(self) -> bool:
        """One move of the game; False once it is over."""
        referee = self.runner.referee
        phase, on_roll = referee.phase, referee.match.on_roll
        if phase in (Phase.GAME_OVER, Phase.MATCH_OVER, Phase.SETUP):
            return False
        if phase is Phase.DOUBLE_OFFERED:
            take = self.rng.random() < TAKE_CHANCE
            self.act({"press": "white.roll" if take else "white.cube"})
        elif phase is Phase.MOVING and on_roll is B:
            turn = referee.turn
            assert turn is not None and turn.seat_play is not None, "no play to carry out"
            if referee.view().press_done:  # carried out; a tall stack hides the rest
                self.act({"press": "white.roll"})
            else:
                self.act(*hand_moves(turn.seat_play, B))
        elif phase is Phase.MOVING:
            position = referee.position()
            dice = (referee.shown_dice[0], referee.shown_dice[-1])
            play = self.rng.choice(position.legal_plays(dice))
            self.act(*hand_moves(play, W), self.dice(), {"press": "white.roll"})
        elif phase is Phase.AWAIT_ROLL and on_roll is W:
            roll = self.dice()
            stuck = not referee.position().legal_plays((roll["dice"][0], roll["dice"][1]))
            black = [self.dice()] if stuck else []  # Black rolls within the same press
            self.act(roll, *black, {"press": "white.roll"})
        else:
            self.act({"wait": 500})
        return True


def write_game(seed: int, match_length: int, out: Path) -> Path:
    """Play game ``seed`` and write its scenario to ``out``; the file."""
    with tempfile.TemporaryDirectory() as prefs:
        game = Game(seed, match_length, Path(prefs))
        game.play()
    lines = [f"# game {seed}: GNU Backgammon (expert) plays Black; "
             f"{'a 1-point match' if match_length == 1 else 'money'}"]
    lines += [json.dumps(a) for a in game.actions]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def replay(scenario: Path) -> list[dict[str, Any]]:
    """``tavla-pi replay SCENARIO`` in its own process; its events."""
    done = subprocess.run([sys.executable, "-m", "tavla_pi", "replay", str(scenario)],
                          capture_output=True, text=True, check=False, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


@dataclass
class Check:
    """What the replay of one game shows, for :func:`check_replay`."""

    match_length: int
    cases: list[dict[str, Any]] = field(default_factory=list)
    chosen: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None


def read_replay(events: list[dict[str, Any]], match_length: int) -> Check:
    """The computer's positions, choices, commits and the game's end in a replay."""
    check = Check(match_length)
    current, cube, owner = Position.initial(), 1, None
    pending: dict[str, Any] | None = None
    for e in events:
        kind = e["type"]
        if kind == "double_taken":
            cube, owner = e["cube"], "human" if e["player"] == "white" else "computer"
        elif kind == "no_legal_move":
            current = current.swap()
        elif kind == "engine_play":
            if pending is not None:
                check.problems.append(f"t={e['t']}: a second engine_play before {pending}")
            check.cases.append({"position_id": current.position_id(), "dice": e["dice"],
                                "cube": cube, "owner": owner,
                                "match_length": match_length})
            check.chosen.append(e)
            pending = e
        elif kind == "played":
            if e["player"] == "black":
                if pending is None or (pending["play"], pending["position_id"]) != \
                        (e["play"], e["position_id"]):
                    check.problems.append(f"t={e['t']}: black played {e['play']}, "
                                          f"not the engine's {pending}")
                pending = None
            current = Position.from_position_id(e["position_id"])
        elif kind == "game_over":
            check.result = e
    if pending is not None:
        check.problems.append(f"the engine's {pending['play']} was never committed")
    return check


def expected_result(events: list[dict[str, Any]]) -> dict[str, Any]:
    """The ``game_over`` the game's end gives by the rules of backgammon, worked out here."""
    cube = 1
    last: dict[str, Any] = {}
    for e in events:
        if e["type"] == "double_taken":
            cube = e["cube"]
        elif e["type"] in ("played", "double_dropped"):
            last = e
    if last["type"] == "double_dropped":
        winner, kind = ("black" if last["player"] == "white" else "white"), "single"
        return {"winner": winner, "kind": kind, "cube": cube, "points": cube}
    loser = Position.from_position_id(last["position_id"]).mine  # on roll: the loser
    kind = "single"
    if sum(loser) == 15:
        kind = "backgammon" if any(loser[18:25]) else "gammon"
    points = cube * {"single": 1, "gammon": 2, "backgammon": 3}[kind]
    return {"winner": last["player"], "kind": kind, "cube": cube, "points": points}


def oracle_best(cases: list[dict[str, Any]], workdir: Path) -> list[str]:
    """gnubg's 0-ply best play (its result's Position ID) for each case, asked directly.

    Ask for one game's cases at a time: in one gnubg 1.07 run, a ``new match 1``
    after a money session's ``hint`` in the same position was seen to hint for
    another roll (the opening 5-1 answered with 6s), which a fresh run does not.
    """
    gnubg = find_gnubg()
    assert gnubg is not None
    script, jobs, out = workdir / "oracle.py", workdir / "jobs.json", workdir / "best.json"
    script.write_text(ORACLE)
    jobs.write_text(json.dumps(cases))
    env = {**os.environ, "JOBS": str(jobs), "OUT": str(out), "HOME": str(workdir)}
    cmd = [str(gnubg), "-t", "-q", "-r", "-s", str(workdir), "-p", str(script)]
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=True)
    best: list[str] = json.loads(out.read_text())
    return best


@dataclass
class Report:
    """The outcome of a batch of games."""

    games: int = 0
    plays: int = 0
    agree: int = 0
    committed: int = 0
    results_right: int = 0
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0


def run_games(seeds: list[int], out: Path) -> Report:
    """Write, replay and check one game per seed (odd seeds 1-point matches, even money)."""
    began = time.monotonic()
    report = Report()
    checks: list[tuple[int, Check]] = []
    for seed in seeds:
        length = 1 if seed % 2 else 0
        scenario = write_game(seed, length, out / f"game-{seed:03d}.jsonl")
        events = replay(scenario)
        check = read_replay(events, length)
        checks.append((seed, check))
        report.games += 1
        report.committed += len(check.chosen) - sum("never committed" in p or "not the engine"
                                                    in p for p in check.problems)
        report.problems += [f"game {seed}: {p}" for p in check.problems]
        want = expected_result(events)
        got = check.result
        if got is not None and {k: got[k] for k in want} == want:
            report.results_right += 1
        else:
            report.problems.append(f"game {seed}: game_over {got}, by the rules {want}")
    for seed, check in checks:
        best = oracle_best(check.cases, out)
        for case, chosen, gnubgs in zip(check.cases, check.chosen, best, strict=True):
            report.plays += 1
            if chosen["position_id"] == gnubgs:
                report.agree += 1
            else:
                report.problems.append(f"game {seed}: {case}: engine {chosen['play']} "
                                       f"({chosen['position_id']}), gnubg {gnubgs}")
    report.seconds = time.monotonic() - began
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--first", type=int, default=100, help="the first game's seed")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    report = run_games(list(range(args.first, args.first + args.games)), args.out)
    print(json.dumps({k: v for k, v in vars(report).items() if k != "problems"}))
    for problem in report.problems:
        print(problem)
    return 1 if report.problems else 0


if __name__ == "__main__":
    sys.exit(main())
