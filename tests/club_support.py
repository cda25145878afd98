"""The club page's test parts: real events of a finished match (``tavla-pi replay`` of
``examples/full_game.jsonl``), the payloads a board broadcasts them in, signed by its key,
and the ``--boards`` file that names it (SPEC: docs/CLUB.md)."""

from __future__ import annotations

import functools
import io
import json
import re
import subprocess
import sys
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

from tavla_pi.cli import main
from tavla_pi.remote.keys import BoardKey

ROOT = Path(__file__).resolve().parent.parent
FULL_GAME = ROOT / "examples" / "full_game.jsonl"


@functools.cache
def _replayed() -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["replay", str(FULL_GAME)]) == 0
    return out.getvalue()


def match_events() -> list[dict[str, Any]]:
    """A whole 1-point match's events as the board commits them: new_match to match_over."""
    return [json.loads(line) for line in _replayed().splitlines() if line.strip()]


def compact(data: dict[str, Any]) -> bytes:
    """A payload as the broadcast writes it."""
    return json.dumps(data, separators=(",", ":")).encode()


def event_payload(board: str, seq: int, event: dict[str, Any],
                  at: int = 1_700_000_000_000) -> bytes:
    """The ``event`` topic's payload."""
    return compact({"v": 1, "board": board, "seq": seq, "at": at + seq, "event": event})


def state_payload(board: str, seq: int, state: dict[str, Any],
                  at: int = 1_700_000_000_000) -> bytes:
    """The ``state`` topic's payload."""
    return compact({"v": 1, "board": board, "seq": seq, "at": at + seq, "dropped": 0,
                    "state": state})


def status_payload(board: str, status: str = "online") -> bytes:
    """The ``status`` topic's payload."""
    return compact({"v": 1, "board": board, "status": status})


def a_state(**changes: Any) -> dict[str, Any]:
    """A viewer's state (the keys /api/state gives), at the start of a 3-point match."""
    state: dict[str, Any] = {
        "phase": "await_roll", "on_roll": "white", "position_id": "4HPwATDgc/ABMA",
        "match_id": "cAkgAAAAAAAE", "dice": [], "dice_used": [],
        "board": {"white": {"6": 5, "8": 3, "13": 5, "24": 2},
                  "black": {"1": 2, "12": 5, "17": 3, "19": 5}},
        "cube": {"value": 1, "owner": None, "offered": False}, "score": [0, 0],
        "match_length": 3, "variant": "portes", "winner": None, "points_won": 0, "clock": None,
        "players": {"white": "Ayşe", "black": "Berk"}, "remote": None, "events": 3}
    state.update(changes)
    return state


def signed(key: BoardKey, topic: str, payload: bytes) -> bytes:
    """``payload`` (a topic's payload) as the board of ``key`` signs it for ``topic``."""
    return compact(key.signed(topic, json.loads(payload)))


def boards_file(path: Path, keys: dict[str, BoardKey]) -> Path:
    """A ``--boards`` file naming each board with its key, as a club writes it."""
    lines = ["# the club's boards: name, then the line 'tavla-pi key' prints", ""]
    lines += [f"{name}  {key.public.text}" for name, key in keys.items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


class ClubProcess:
    """``python -m tavla_pi club --broker URL --http 127.0.0.1:0 [options]``; its URL from
    its first line, its log in ``log``."""

    def __init__(self, broker_url: str, log: Path, *options: str) -> None:
        self.log = log
        self._log = log.open("w")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tavla_pi", "club", "--broker", broker_url,
             "--http", "127.0.0.1:0", *options],
            stdout=subprocess.PIPE, stderr=self._log, text=True)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert found, f"no address in {line!r}: {log.read_text()}"
        self.url = found[0]

    def close(self) -> int:
        """Stop it (SIGTERM); its exit status."""
        self.proc.terminate()
        status = self.proc.wait(10)
        self._log.close()
        return status
