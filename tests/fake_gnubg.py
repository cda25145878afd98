"""A stand-in for gnubg running the bridge: the same line protocol, told how to misbehave.

    python tests/fake_gnubg.py '{"state": DIR, "hang": {"hint": 1}, ...}'

It prints a banner (as gnubg does), a hello, then answers each request the
way the bridge would, the play being the first legal one of the rules (so a
real Play comes back).  Every request line is appended to DIR/requests.jsonl
and every start to DIR/starts, so that counts run across restarts.

Settings (all optional):
  die: {op: n}     the first n requests of op (over all runs) kill the process (SIGKILL)
  hang: {op: n}    the n requests of op after those are never answered
  stall: {op: n}   the n requests of op after those wait until the input ends (the
                   caller died while it thought), then the fake exits
  proxy: PATH      run the real gnubg at PATH with the arguments after the settings and
                   pass every line through (only ``stall`` applies)
  refuse: [op]     these ops answer "ok": false
  illegal: true    hint answers a position that no legal play gives
  wrong_id: true   answers carry the id one too high
  no_hello: true   never says hello (hangs at start)
  answers: {op: {...}}  the fields of the answer to op (double, take, resign, evaluate,
                   review)
  context: {...}   hint reports these evaluation settings instead of the request's
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from tavla_pi.rules import Color, MatchState, Position

FIGURES = {"chequer": {"errors": 0.25, "count": 1, "decisions": 4},
           "cube": {"errors": 0.5, "count": 1, "decisions": 2}, "luck": 0.1, "moves": 5,
           "rating": 1}
"""A player's figures in a made-up review."""
OPENING_DOUBLE = {"game": 1, "player": 1, "kind": "cube",
                  "position_id": Position.initial().position_id(),
                  "match_id": MatchState(on_roll=Color.BLACK, to_act=Color.BLACK).match_id(),
                  "dice": None, "played": "double", "best": "no double", "loss": 0.5}
"""Black doubling at the start: the costly decision of a made-up review."""

DEFAULTS: dict[str, dict[str, Any]] = {
    "double": {"double": False, "resign": 0},
    "take": {"take": "take"},
    "resign": {"accept": False},
    "offer": {"resign": 0},
    "evaluate": {
        "probs": [0.5, 0.1, 0.01, 0.1, 0.01],
        "cubeless": 0.0,
        "cube": [0.1, 0.1, -0.2, 1.0],
        "advice": "No double, take",
    },
    "ping": {},
    "review": {"games": 1, "players": [FIGURES, FIGURES], "costly": [OPENING_DOUBLE]},
}


def count(state: Path, name: str) -> int:
    """Add one to the counter ``name`` in the state folder; its new value."""
    path = state / name
    n = int(path.read_text()) + 1 if path.exists() else 1
    path.write_text(str(n))
    return n


def hint(request: dict[str, Any], config: dict[str, Any]) -> dict[str, Any]:
    """The first ``n`` legal plays, with made-up equities and the request's settings echoed."""
    position = Position.from_position_id(request["position_id"])
    dice = MatchState.from_match_id(request["match_id"]).dice
    assert dice is not None
    plays = position.legal_plays(dice)[: request["n"]]
    results = [p.result.position_id() for p in plays]
    if config.get("illegal"):
        results = [position.position_id() for _ in plays]
    settings = request["eval"]
    context = {
        key: settings[key] for key in ("cubeful", "plies", "deterministic", "prune", "noise")
    }
    context.update(config.get("context", {}))
    return {
        "plays": [
            {"notation": p.notation, "position_id": r, "equity": 0.5 - i / 10}
            for i, (p, r) in enumerate(zip(plays, results, strict=True))
        ],
        "context": context,
    }


def answer(config: dict[str, Any], state: Path, request: dict[str, Any]) -> dict[str, Any]:
    """The answer line's fields, after any misbehaviour the config asks for."""
    op = request["op"]
    seen = count(state, f"seen-{op}")
    dies = config.get("die", {}).get(op, 0)
    if seen <= dies:
        os.kill(os.getpid(), signal.SIGKILL)
    if seen <= dies + config.get("hang", {}).get(op, 0):
        signal.pause()  # hung: answers nothing until the supervisor kills it
    stall(config, op, seen - dies - config.get("hang", {}).get(op, 0))
    ident = request["id"] + (1 if config.get("wrong_id") else 0)
    if op in config.get("refuse", []):
        return {"id": ident, "ok": False, "error": f"ValueError: refusing {op}"}
    if op == "hint":
        return {"id": ident, "ok": True, **hint(request, config)}
    return {"id": ident, "ok": True, **{**DEFAULTS[op], **config.get("answers", {}).get(op, {})}}


def stall(config: dict[str, Any], op: str, seen: int) -> None:
    """Think until the input ends (the caller is gone) for the first ``stall`` requests."""
    if 0 < seen <= config.get("stall", {}).get(op, 0):
        sys.stdin.read()
        sys.exit(0)


def proxy(config: dict[str, Any], state: Path) -> None:
    """Be the real gnubg (``config["proxy"]``), stalling requests as told."""
    gnubg = subprocess.Popen([config["proxy"], *sys.argv[2:]], stdin=subprocess.PIPE,
                             stdout=sys.stdout, text=True)
    assert gnubg.stdin is not None
    try:
        for line in sys.stdin:
            op = json.loads(line).get("op", "")
            stall(config, op, count(state, f"seen-{op}"))
            gnubg.stdin.write(line)
            gnubg.stdin.flush()
    finally:
        gnubg.kill()


def main() -> None:
    """Serve requests on stdin until it ends."""
    config = json.loads(sys.argv[1])
    state = Path(config["state"])
    count(state, "starts")
    if config.get("proxy"):
        proxy(config, state)
        return
    print("GNU Backgammon (fake) 1.07", flush=True)
    print("This program comes with ABSOLUTELY NO WARRANTY", flush=True)
    if config.get("no_hello"):
        signal.pause()  # hung: answers nothing until the supervisor kills it
    print(json.dumps({"id": 0, "ok": True, "protocol": 1}), flush=True)
    for line in sys.stdin:
        with (state / "requests.jsonl").open("a") as log:
            log.write(line)
        print(json.dumps(answer(config, state, json.loads(line))), flush=True)
        print("some chatter on stderr", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
