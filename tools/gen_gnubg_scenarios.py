#!/usr/bin/env python3
"""Scenarios of whole games refereed by GNU Backgammon, with the exact events the game must emit.

    python3 tools/gen_gnubg_scenarios.py corpus      # rewrite tests/scenarios/gnubg/
    python3 tools/gen_gnubg_scenarios.py examples    # rewrite examples/
    python3 tools/gen_gnubg_scenarios.py soak --seed 7 --games 40 --clumsy --out /tmp/soak

Each scenario NAME.jsonl (docs/CONTRACTS.md §4 actions) comes with NAME.expected.jsonl:
the opening_roll, played, no_legal_move, double_*, rejected, game_over and
match_over events `tavla-pi replay NAME.jsonl` must print, in order, with
Position and Match IDs exactly as gnubg reports them (tests/scenario_compare.py).

Run with any Python 3.11: the tool starts gnubg (``gnubg -t -q -p`` on this
file, the job in the environment) and gnubg's embedded Python does the work
(tools/gnubg_referee.py drives gnubg, tools/scenario_hand.py writes the hands).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gen_gnubg_specs import CORPUS, EXAMPLES, Spec, soak_specs
from gnubg_referee import RandomPolicy, Referee, ReplayPolicy, ScriptPolicy, decode_match_id
from hand_lines import Line
from scenario_hand import CLEAN, Hand, Item, Turn
from scenario_moves import all_home

ENV = "TAVLA_GNUBG_JOB"
TOOLS = Path(os.environ.get("TAVLA_TOOLS", Path(sys.argv[0]).resolve().parent))
ROOT = TOOLS.parent
DEFAULT_OUT = {"corpus": ROOT / "tests" / "scenarios" / "gnubg", "examples": ROOT / "examples"}


# --- inside gnubg ------------------------------------------------------------------------------


def run_spec(gnubg: Any, spec: Spec) -> list[Item]:
    """Referee one spec in gnubg; the items of what happened."""
    rng = random.Random(spec.seed)
    policy: RandomPolicy = RandomPolicy(rng, spec.double, spec.take)
    if spec.script:
        policy = ScriptPolicy(rng, list(spec.script), then_random=spec.then_random)
        policy.p_double, policy.p_take = spec.double, spec.take
    referee = Referee(gnubg, policy)
    fresh = True
    if spec.load:
        referee.load(**spec.load)
        fresh = False
    elif spec.prelude:
        prelude(referee, spec, rng)
        fresh = False
    else:
        referee.new(spec.length)
    games = 0
    while referee.play(fresh=fresh):
        games += 1
        if games == spec.games or any(type(i).__name__ == "MatchOver" for i in referee.items):
            break
        referee.next_game()
        fresh = True
    return referee.items


def prelude(referee: Referee, spec: Spec, rng: random.Random) -> None:
    """Play at random (no cube) until the spec's moment, then start recording there as a load."""
    moments = {"bearoff": bearing_off, "take": may_double_late, "drop": may_double_late}
    wanted = moments[spec.prelude or ""]
    referee.policy = RandomPolicy(rng, double=0.0)
    while True:
        referee.new(spec.length)
        if not referee.play(fresh=True, stop=wanted):
            break
    referee.items = []
    referee.snapshot()
    if spec.prelude == "bearoff":
        first: dict[str, Any] = {"dice": [6, rng.randint(1, 5)]}
    else:
        first = {"dice": [rng.randint(1, 6), rng.randint(1, 6)], "double": spec.prelude}
    policy = ScriptPolicy(rng, [first], then_random=True)
    policy.p_double, policy.p_take = spec.double, spec.take
    referee.policy = policy


def bearing_off(referee: Referee) -> bool:
    """The player on roll bears off, highest checker below the 6 point, three or more left."""
    mine, _ = referee.board()
    highest = max((p for p in range(1, 26) if mine[p]), default=0)
    return all_home(mine) and highest <= 5 and 15 - mine[0] >= 3


def may_double_late(referee: Referee) -> bool:
    """A middle game (a dozen turns played) where the player on roll may double."""
    return sum(isinstance(i, Turn) for i in referee.items) >= 12 and referee.may_double()


def render(spec: Spec, items: list[Item], out: Path, origin: str) -> list[str]:
    """Write each hand's scenario and expected events; the file names written."""
    written = []
    for suffix, how in spec.hands:
        name = f"{spec.name}_{suffix}" if suffix else spec.name
        lines, expected = Hand(random.Random(f"{spec.seed}/{suffix}"), how).render(items)
        name_match_length(lines, spec.length)
        header = [f"# {name}: {spec.title}", f"# {origin} (seed {spec.seed}); refereed by GNU "
                  f"Backgammon; expected events in {name}.expected.jsonl"]
        write_lines(out / f"{name}.jsonl", header, lines)
        write_lines(out / f"{name}.expected.jsonl", [], expected)
        written.append(name)
    return written


def name_match_length(lines: list[Line | str], length: int) -> None:
    """The first ``setup`` starts the match: give it the length (0 = money play)."""
    first = next((line for line in lines if isinstance(line, dict)), None)
    if first is not None and "setup" in first:
        first["match_length"] = length


def write_lines(path: Path, header: list[str], lines: Sequence[Line | str]) -> None:
    text = [*header, *(line if isinstance(line, str) else json.dumps(line) for line in lines)]
    path.write_text("\n".join(text) + "\n")


def verify(gnubg: Any, scenario: Path) -> str | None:
    """Referee a scenario's expected events again in gnubg: what differs, or None."""
    lines = read_json_lines(scenario)
    expected = read_json_lines(scenario.with_name(scenario.name.removesuffix(".jsonl")
                                                  + ".expected.jsonl"))
    policy = ReplayPolicy(expected)
    referee = Referee(gnubg, policy, plies=0)  # the ranking of plays does not matter here
    start = next(line for line in lines if "setup" in line or "load" in line)
    fresh = "setup" in start
    if fresh:
        first_id = next(e["match_id"] for e in expected if "match_id" in e)
        referee.new(decode_match_id(first_id)["length"])
    else:
        referee.load_ids(start["load"]["position_id"], start["load"]["match_id"])
    while referee.play(fresh=fresh) and policy.more():
        referee.next_game()
        fresh = True
    _, again = Hand(random.Random(0), CLEAN).render(referee.items)
    # a played event's board is the board of its position_id: gnubg's referee writes none
    want = [{k: v for k, v in event.items() if k != "board"}
            for event in expected if event["type"] != "rejected"]
    for index, (a, b) in enumerate(zip(want, again, strict=False)):
        if a != b:
            return f"{scenario.name}: event {index + 1}: expected {a}, gnubg says {b}"
    if len(want) != len(again):
        return f"{scenario.name}: {len(want)} events expected, gnubg makes {len(again)}"
    return None


def verify_safely(gnubg: Any, scenario: Path) -> str | None:
    try:
        return verify(gnubg, scenario)
    except (SystemExit, KeyError, IndexError, ValueError, StopIteration) as exc:
        return f"{scenario.name}: {exc}"


def read_json_lines(path: Path) -> list[dict[str, Any]]:
    text = path.read_text().splitlines()
    return [json.loads(line) for line in text if line.strip() and not line.startswith("#")]


def scenarios_in(paths: list[str]) -> list[Path]:
    """The scenario files named or found in the named folders (not the expected sidecars)."""
    found: list[Path] = []
    for name in paths:
        path = Path(name)
        found += sorted(path.glob("*.jsonl")) if path.is_dir() else [path]
    return [p for p in found if not p.name.endswith(".expected.jsonl") and not plays_tavli(p)]


def plays_tavli(path: Path) -> bool:
    """Whether a scenario sets up Plakoto, Fevga or a tavli match (tools/gen_tavli_scenarios.py
    writes those): not a game gnubg referees."""
    first = next((line for line in read_json_lines(path) if "setup" in line), {})
    return bool(first.get("variant", "portes") != "portes")


def inside(gnubg: Any, job: dict[str, Any]) -> dict[str, Any]:
    """The job, run in gnubg's Python: the scenarios written, or verified."""
    if job["mode"] == "verify":
        scenarios = scenarios_in(job["paths"])
        failures = [f for f in (verify_safely(gnubg, path) for path in scenarios) if f]
        return {"verified": len(scenarios), "failures": failures}
    out = Path(job["out"])
    out.mkdir(parents=True, exist_ok=True)
    if job["mode"] == "soak":
        specs = soak_specs(job["seed"], job["games"], clumsy=job["clumsy"], length=job["length"])
        origin = f"tools/gen_gnubg_scenarios.py soak --seed {job['seed']}"
    else:
        specs = list(CORPUS if job["mode"] == "corpus" else EXAMPLES)
        origin = f"tools/gen_gnubg_scenarios.py {job['mode']}"
        for old in scenarios_in([str(out)]):
            old.unlink()
            expected = old.with_name(old.name.removesuffix(".jsonl") + ".expected.jsonl")
            expected.unlink(missing_ok=True)
    written = []
    for spec in specs:
        written += render(spec, run_spec(gnubg, spec), out, origin)
    return {"written": written}


def main_inside() -> None:
    job = json.loads(os.environ[ENV])
    try:
        import gnubg  # only inside GNU Backgammon

        result = inside(gnubg, job)
    except BaseException as exc:  # report everything to the outer process
        result = {"error": f"{exc}\n{traceback.format_exc()}"}
    Path(job["result"]).write_text(json.dumps(result))


# --- outside: start gnubg on this file -------------------------------------------------------


def find_gnubg(given: str | None) -> str:
    found = given or shutil.which("gnubg") or "/usr/games/gnubg"
    if not Path(found).exists():
        raise SystemExit("gen_gnubg_scenarios: GNU Backgammon not found (apt-get install gnubg)")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=("corpus", "examples", "soak", "verify"))
    parser.add_argument("paths", nargs="*", help="verify: scenarios or folders (default: "
                        "the corpus and the examples)")
    parser.add_argument("--out", type=Path, help="output folder (default: the mode's own)")
    parser.add_argument("--seed", type=int, default=1, help="soak: first seed")
    parser.add_argument("--games", type=int, default=20, help="soak: how many matches/games")
    parser.add_argument("--clumsy", action="store_true", help="soak: also a clumsy hand of each")
    parser.add_argument("--length", type=int, help="soak: only matches of this length (0: money)")
    parser.add_argument("--gnubg", help="the gnubg program (default: from PATH or /usr/games)")
    args = parser.parse_intermixed_args(argv)
    out = args.out or DEFAULT_OUT.get(args.mode) or Path("soak")
    with tempfile.TemporaryDirectory() as tmp:
        result_path = Path(tmp) / "result.json"
        job = {"mode": args.mode, "out": str(out.resolve()), "seed": args.seed,
               "games": args.games, "clumsy": args.clumsy, "length": args.length,
               "paths": [str(Path(p).resolve()) for p in args.paths or DEFAULT_OUT.values()],
               "result": str(result_path)}
        env = {**os.environ, ENV: json.dumps(job), "PYTHONPATH": str(TOOLS),
               "TAVLA_TOOLS": str(TOOLS)}
        command = [find_gnubg(args.gnubg), "-t", "-q", "-p", str(TOOLS / Path(__file__).name)]
        run = subprocess.run(command, env=env, cwd=tmp, capture_output=True, text=True,
                             check=False)
        if not result_path.exists():
            print(run.stdout[-3000:], run.stderr[-3000:], file=sys.stderr)
            print("gen_gnubg_scenarios: gnubg did not run the job", file=sys.stderr)
            return 1
        result = json.loads(result_path.read_text())
    if "error" in result:
        print(f"gen_gnubg_scenarios: {result['error']}", file=sys.stderr)
        return 1
    if args.mode == "verify":
        for failure in result["failures"]:
            print(f"gen_gnubg_scenarios: {failure}", file=sys.stderr)
        print(f"{result['verified']} scenarios refereed again by gnubg, "
              f"{len(result['failures'])} differ")
        return 1 if result["failures"] else 0
    print(f"{len(result['written'])} scenarios written to {out}: {' '.join(result['written'])}")
    return 0


if __name__ == "__main__":
    if ENV in os.environ:
        main_inside()
    else:
        sys.exit(main())
