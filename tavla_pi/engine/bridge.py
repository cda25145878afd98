"""The gnubg side of the engine room: the script GNU Backgammon runs (``gnubg -t -p``).

Shipped in the package but never imported by tavla-pi: it runs inside
gnubg's embedded Python, where the module ``gnubg`` exists and ``tavla_pi``
does not, so it uses the standard library only.  It speaks the line protocol
of :mod:`tavla_pi.engine.process`: a hello, then one JSON answer line for
each JSON request line.  gnubg's own output on stdout is discarded, so that
stdout carries the answers alone.

Every request brings the whole context: the Match ID and Position ID to set
up (``set matchid``, ``set board``, checked against what gnubg then holds),
the Jacoby and beaver rules (``set jacoby``, ``set beavers``), the seed
(``set seed``), the player gnubg decides for and the evaluation settings of
the level.  Decisions are gnubg's own: the play is the first of ``hint``
(which ranks the moves as gnubg's computer player does), and the cube and
resignation answers and offers come from gnubg's computer player itself,
made to act with ``play``, ``double``, ``beaver`` and ``resign`` while the
other player is a human.  See :mod:`tavla_pi.engine.wire` for the requests.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import tempfile
from collections.abc import Callable
from typing import Any, TextIO

PROTOCOL = 1
"""Version of the request and answer fields (the hello says it)."""

GAME_PLAYING = 1
GAME_RESIGNED = 3
GAME_DROP = 4  # gnubg's gamestate values

FAST_CHEQUER = {"plies": 0, "cubeful": True, "prune": False, "noise": 0.0, "deterministic": True}
"""Chequer settings while gnubg decides on the cube: its move after a no-double is thrown away."""

_SETUP = (
    "set display off",
    "set automatic game off",
    "set automatic roll off",
    "set cube use on",
    "set player 0 human",
    "set player 1 human",
)

BridgeRequest = dict[str, Any]
Answer = dict[str, Any]


class Bridge:
    """Answers requests with the ``gnubg`` module handed in."""

    def __init__(self, gnubg: Any) -> None:
        self.g = gnubg
        self._applied: dict[str, str] = {}
        for command in _SETUP:
            gnubg.command(command)

    def hello(self) -> Answer:
        """The first line: the protocol version and gnubg's Python."""
        return {"id": 0, "ok": True, "protocol": PROTOCOL, "python": sys.version.split()[0]}

    def answer(self, line: str) -> Answer:
        """The answer line to one request line (``ok`` false with the error if it fails)."""
        ident: Any = None
        try:
            request = json.loads(line)
            ident = request.get("id")
            handler = _OPS.get(request.get("op"))
            if handler is None:
                raise ValueError(f"unknown op {request.get('op')!r}")
            return {"id": ident, "ok": True, **handler(self, request)}
        except Exception as exc:  # every failure is an answer, never the end of the bridge
            return {"id": ident, "ok": False, "error": f"{type(exc).__name__}: {exc}"}

    # -- setting up the match context ----------------------------------------------------

    def setup(self, request: BridgeRequest) -> None:
        """Put gnubg exactly in the request's position and match state, both players human."""
        command = self.g.command
        command(f"set seed {int(request['seed'])}")
        command("set jacoby " + ("on" if request["jacoby"] else "off"))
        command(f"set beavers {1 if request['beavers'] else 0}")
        command("set player 0 human")
        command("set player 1 human")
        command("set matchid " + request["match_id"])
        command("set board " + request["position_id"])
        held = f"{self.g.positionid()}:{self.g.matchid()}"
        wanted = f"{request['position_id']}:{request['match_id']}"
        if held != wanted:
            raise ValueError(f"gnubg holds {held} after setting up {wanted}")
        if self.g.cubeinfo()["jacoby"] != int(request["jacoby"]):
            raise ValueError(f"gnubg did not take the Jacoby rule {request['jacoby']}")

    def evaluation(self, target: str, settings: dict[str, Any]) -> None:
        """``set <target> evaluation ...`` for every setting (skipped if already so)."""
        key = json.dumps(settings, sort_keys=True)
        if self._applied.get(target) == key:
            return
        base = f"set {target} evaluation"
        command = self.g.command
        command(f"{base} plies {int(settings['plies'])}")
        command(f"{base} cubeful {_on(settings['cubeful'])}")
        command(f"{base} prune {_on(settings['prune'])}")
        command(f"{base} noise {float(settings['noise'])!r}")
        command(f"{base} deterministic {_on(settings['deterministic'])}")
        self._applied[target] = key

    def movefilter(self, target: str, rows: list[list[list[Any]]]) -> None:
        """``set <target> movefilter <ply> <level> <accept> [<extra> <threshold>]``, every step."""
        key = json.dumps(rows)
        if self._applied.get(target + " movefilter") == key:
            return
        for ply, row in enumerate(rows, start=1):
            for level, (accept, extra, threshold) in enumerate(row):
                step = f"{int(accept)}"
                if accept >= 0:
                    step += f" {int(extra)} {float(threshold)!r}"
                self.g.command(f"set {target} movefilter {ply} {level} {step}")
        self._applied[target + " movefilter"] = key

    def computer(self, player: int, settings: dict[str, Any], chequer: dict[str, Any]) -> None:
        """Let gnubg play ``player``: ``settings`` for the cube, ``chequer`` for the moves."""
        self.evaluation(f"player {player} chequerplay", chequer)
        self.evaluation(f"player {player} cubedecision", settings)
        self.movefilter(f"player {player}", settings["movefilter"])
        self.g.command(f"set player {player} gnubg")

    # -- the decisions -----------------------------------------------------------------

    def hint(self, request: BridgeRequest) -> Answer:
        """The best ``n`` plays, each with its notation, result Position ID and equity."""
        self.setup(request)
        settings = request["eval"]
        self.evaluation("evaluation chequerplay", settings)
        self.movefilter("evaluation", settings["movefilter"])
        try:
            hints = self.g.hint(int(request["n"]))["hint"]
        except Exception as exc:  # gnubg raises when no move is legal
            return {"plays": [], "note": str(exc)}
        board = self.g.board()
        plays = [
            {
                "notation": h["move"],
                "position_id": self.g.positionid(played(board, self.g.parsemove(h["move"]))),
                "equity": float(h["equity"]),
            }
            for h in hints
        ]
        return {"plays": plays, "context": hints[0].get("context") if hints else None}

    def double(self, request: BridgeRequest) -> Answer:
        """Would gnubg double now?  Its computer player acts (``play``) before any roll."""
        self.setup(request)
        self.computer(request["player"], request["eval"], FAST_CHEQUER)
        self.g.command("play")
        info = self.g.posinfo()
        resigned = 0
        for _ in range(3):  # it offered to resign first: decline, and it goes on with its turn
            if not info["resigned"]:
                break
            resigned = max(resigned, int(info["resigned"]))
            self.g.command("decline")
            info = self.g.posinfo()
        return {"double": bool(info["doubled"]), "resign": resigned}

    def take(self, request: BridgeRequest) -> Answer:
        """gnubg's answer to a double (or, when ``beavered``, to the beaver of its double)."""
        self.setup(request)
        cube = int(self.g.cubeinfo()["cube"])
        player = int(request["player"])
        if request["beavered"]:
            self.g.command("double")
            self.computer(player, request["eval"], request["eval"])
            self.g.command("beaver")
        else:
            self.computer(player, request["eval"], request["eval"])
            self.g.command("double")
        info, now = self.g.posinfo(), self.g.cubeinfo()
        if info["gamestate"] == GAME_DROP:
            return {"take": "drop"}
        if info["gamestate"] != GAME_PLAYING:
            raise ValueError(f"gnubg ended the game ({info}) instead of answering the double")
        if not info["doubled"] and int(now["cube"]) > cube:
            return {"take": "take"}
        if info["doubled"] and int(info["turn"]) != player and not request["beavered"]:
            return {"take": "beaver"}  # (a raccoon, answering a beaver, is never allowed)
        raise ValueError(f"gnubg did not answer the double (cube {now['cube']}, {info})")

    def resign(self, request: BridgeRequest) -> Answer:
        """gnubg's answer to a resignation of ``points`` by the other player."""
        self.setup(request)
        self.computer(int(request["player"]), request["eval"], request["eval"])
        self.g.command(f"resign {int(request['points'])}")
        info = self.g.posinfo()
        if info["gamestate"] == GAME_RESIGNED:
            return {"accept": True}
        if info["gamestate"] == GAME_PLAYING and not info["resigned"]:
            return {"accept": False}
        raise ValueError(f"gnubg did not answer the resignation ({info})")

    def offer(self, request: BridgeRequest) -> Answer:
        """Would gnubg resign now?  Its computer player acts (``play``): ComputerTurn
        considers resigning first (getResignation, out of contact only), then the cube."""
        self.setup(request)
        self.computer(request["player"], request["eval"], FAST_CHEQUER)
        self.g.command("play")
        return {"resign": int(self.g.posinfo()["resigned"])}

    def evaluate(self, request: BridgeRequest) -> Answer:
        """Probabilities and cube equities before the roll (``evaluate``, ``cfevaluate``)."""
        self.setup(request)
        settings = request["eval"]
        board = self.g.board()
        cube = dict(self.g.cubeinfo())
        cube["beavers"] = int(request["beavers"])  # cubeinfo() holds the beavers used, not allowed
        context = {
            "cubeful": int(settings["cubeful"]),
            "plies": int(settings["plies"]),
            "deterministic": int(settings["deterministic"]),
            "prune": int(settings["prune"]),
            "noise": float(settings["noise"]),
        }
        probs = [float(x) for x in self.g.evaluate(board, cube, context)]
        optimal, no_double, take, drop, _, advice = self.g.cfevaluate(board, cube, context)
        return {
            "probs": probs[:5],
            "cubeless": probs[5],
            "cube": [float(optimal), float(no_double), float(take), float(drop)],
            "advice": str(advice),
        }

    def ping(self, request: BridgeRequest) -> Answer:
        """Nothing: proves the bridge is alive."""
        return {}

    # -- the review of finished games ----------------------------------------------------

    def review(self, request: BridgeRequest) -> Answer:
        """``analyse match`` of a match file (``analyse game`` of game ``game`` if given).

        The answer: each player's figures from gnubg's statistics, and the
        ``n`` decisions that lost the most equity, each with its Match ID.
        """
        command = self.g.command
        command("set jacoby " + _on(request["jacoby"]))
        command(f"set beavers {1 if request['beavers'] else 0}")
        for target in ("analysis chequerplay", "analysis cubedecision"):
            self.evaluation(target, request["eval"])
        self.movefilter("analysis", request["eval"]["movefilter"])
        self.import_match(request["mat"], int(request["games"]))
        game = request.get("game")
        if game:
            self.g.navigate()
            self.g.navigate(game=int(game) - 1)
            command("analyse game")
        else:
            command("analyse match")
        match = self.g.match(analysis=1, boards=1, statistics=1, verbose=0)
        numbers = [int(game)] if game else list(range(1, len(match["games"]) + 1))
        stats = match["games"][numbers[0] - 1]["stats"] if game else match["stats"]
        costly: list[Answer] = []
        for number in numbers:
            costly += self.decisions(match["games"][number - 1]["game"], number)
        costly = sorted(costly, key=lambda d: -d["loss"])[: int(request["n"])]
        return {"games": len(match["games"]), "players": [figures(stats[side], self.g)
                                                         for side in ("X", "O")],
                "costly": costly}

    def import_match(self, text: str, games: int) -> None:
        """``import mat`` of ``text``; ValueError unless gnubg then holds ``games`` games."""
        handle, path = tempfile.mkstemp(suffix=".mat")
        try:
            with os.fdopen(handle, "w", encoding="ascii") as out:
                out.write(text)
            self.g.command("import mat " + path)
        finally:
            os.unlink(path)
        try:
            match = self.g.match(analysis=0, boards=0, statistics=0, verbose=0)
        except RuntimeError:  # no match at all: the file was not read
            match = None
        held = match["games"] if match else []
        if len(held) != games:
            raise ValueError(f"gnubg read {len(held)} of the {games} games of the match file")
        for number, game in enumerate(held, start=1):
            if game["info"].get("winner") not in ("X", "O"):
                raise ValueError(f"gnubg could not read game {number} of the match file "
                                 "to its end")

    def decisions(self, records: Any, game: int) -> list[Answer]:
        """Every decision of analysed game ``game`` that lost equity, with what it lost and
        the Match ID before it (gnubg is walked through the game, record by record)."""
        self.g.navigate()
        if game > 1:
            self.g.navigate(game=game - 1)
        found: list[Answer] = []
        offered: Answer = {}
        for index, record in enumerate(records):
            if index:
                self.g.navigate(next=1)
            analysis = record.get("analysis") or {}
            where = {"game": game, "player": 0 if record["player"] == "X" else 1,
                     "match_id": self.g.matchid()}
            if record["action"] == "move":
                found += _cube(where, record["board"], self.cube_equities(analysis), "no double")
                found += _chequer(where, record, analysis, self.g)
            elif record["action"] == "double":
                offered = {"board": record["board"], "equities": self.cube_equities(analysis)}
                found += _cube(where, record["board"], offered["equities"], "double")
            elif record["action"] in ("take", "drop") and offered:
                found += _cube(where, offered["board"], offered["equities"], record["action"])
        return [decision for decision in found if decision["loss"] > 0]

    def cube_equities(self, analysis: Any) -> tuple[float, float] | None:
        """A cube decision's no double and double/take equities, normalised (EMG, double/drop
        is 1) as gnubg's statistics count them; None if it was not analysed.  In a match
        gnubg gives them as match winning chances: they are converted at the score now."""
        if not all(key in analysis for key in CUBE_OPTIONS):
            return None
        no_double, take = (float(analysis[key]) for key in CUBE_OPTIONS)
        if int(self.g.cubeinfo()["matchto"]):
            no_double, take = float(self.g.mwc2eq(no_double)), float(self.g.mwc2eq(take))
        return no_double, take

_OPS: dict[Any, Callable[[Bridge, BridgeRequest], Answer]] = {
    "hint": Bridge.hint,
    "double": Bridge.double,
    "take": Bridge.take,
    "resign": Bridge.resign,
    "offer": Bridge.offer,
    "evaluate": Bridge.evaluate,
    "ping": Bridge.ping,
    "review": Bridge.review,
}

CUBE_OPTIONS = ("nd-cubeful-eq", "dt-cubeful-eq")
"""A cube decision's analysis: the equities of no double and of double, take (normalised:
double, drop is 1)."""
MARKED = ("very bad", "bad", "doubtful")
"""gnubg's marks of a chequer play that lost equity (0.16, 0.08, 0.04 and more)."""
CUBE_ERRORS = ("missed-double-below-cp", "missed-double-above-cp", "wrong-double-below-dp",
               "wrong-double-above-tg", "wrong-take", "wrong-drop")
"""gnubg's counts of wrong cube decisions."""


def figures(stats: dict[str, Any], gnubg: Any) -> Answer:
    """One player's figures from gnubg's statistics (equities normalised: EMG)."""
    moves, cube, dice = stats["moves"], stats["cube"], stats["dice"]
    decisions = int(moves["unforced-moves"]) + int(cube["close-cube"])
    cube_errors = sum(float(cube[f"err-{kind}-skill"]) for kind in CUBE_ERRORS)  # its
    errors = float(moves["error-skill"]) + cube_errors  # "error-skill" is per decision
    rating = int(gnubg.errorrating(errors / decisions)) if decisions else None
    return {
        "chequer": {"errors": float(moves["error-skill"]),
                    "decisions": int(moves["unforced-moves"]),
                    "count": sum(int(moves["marked"].get(mark, 0)) for mark in MARKED)},
        "cube": {"errors": cube_errors, "decisions": int(cube["close-cube"]),
                 "count": sum(int(cube[kind]) for kind in CUBE_ERRORS)},
        "luck": float(dice["luck"]),
        "moves": int(moves["total-moves"]),
        "rating": rating,
    }


def _chequer(where: Answer, record: Any, analysis: Any, gnubg: Any) -> list[Answer]:
    """A chequer play's loss against the best of gnubg's ranking (none if forced)."""
    moves, played_index = analysis.get("moves"), analysis.get("imove")
    if not moves or not isinstance(played_index, int) or not 0 <= played_index < len(moves):
        return []  # forced, or a play gnubg did not rank (an illegal one it read anyway)
    board = gnubg.positionfromid(record["board"])
    best = max(moves, key=lambda m: m["score"])
    made = moves[played_index]
    return [{**where, "kind": "move", "position_id": record["board"],
             "dice": list(record["dice"]), "loss": best["score"] - made["score"],
             "played": gnubg.positionid(played(board, made["move"])),
             "best": gnubg.positionid(played(board, best["move"]))}]


def _cube(where: Answer, board: str, equities: tuple[float, float] | None,
          action: str) -> list[Answer]:
    """The loss of ``action`` in a cube decision (none when it was not analysed).

    From the doubler's side: no double is worth ``nd``, double/take ``dt``,
    double/drop 1; the doubler wants the most, the taker the least.
    """
    if equities is None:
        return []
    no_double, take = equities
    answer = min(take, 1.0)
    values = {"no double": no_double, "double": answer, "take": take, "drop": 1.0}
    if action in ("no double", "double"):
        best = "double" if answer > no_double else "no double"
        loss = max(no_double, answer) - values[action]
    else:
        best = "take" if take <= 1.0 else "drop"
        loss = values[action] - answer
    return [{**where, "kind": "cube", "position_id": board, "dice": None, "loss": loss,
             "played": action, "best": best}]


def _on(flag: Any) -> str:
    return "on" if flag else "off"


def played(board: Any, moves: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """gnubg's board after ``moves`` ((from, to) pairs; 25 the bar, 0 off), the opponent on roll.

    ``board`` is gnubg's pair (opponent, player on roll); the result is that
    pair for the next turn: (the mover, the opponent), so that
    ``gnubg.positionid`` gives the Position ID of the play's result.
    """
    opponent, mover = list(board[0]), list(board[1])
    for source, target in moves:
        mover[source - 1] -= 1
        if target > 0:
            mover[target - 1] += 1
            if opponent[24 - target] == 1:
                opponent[24 - target] = 0
                opponent[24] += 1
    return tuple(mover), tuple(opponent)


def serve_requests(bridge: Bridge, requests: TextIO, answers: TextIO) -> None:
    """Write the hello, then one answer line for each request line until the input ends."""
    answers.write(json.dumps(bridge.hello()) + "\n")
    answers.flush()
    for line in requests:
        if line.strip():
            answers.write(json.dumps(bridge.answer(line)) + "\n")
            answers.flush()


def main() -> None:
    """Run inside gnubg: answers on the real stdout, gnubg's chatter on stdout discarded.

    gnubg prints boards and confirmations for every command; the bridge
    checks what it needs itself.  Errors (gnubg's and Python's) stay on stderr.
    """
    gnubg = importlib.import_module("gnubg")
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)
    os.close(quiet)
    serve_requests(Bridge(gnubg), sys.stdin, answers)


if __name__ == "__main__":
    main()
