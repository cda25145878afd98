"""Two daemons on the sim backend play one game through a real Mosquitto (docs/REMOTE.md).

Each board's player plays through POST /api/sim on their own board; the
other board lights the play (``remote_play``) and its hand carries it out
(tavla_pi/testing/remote.py).  After every play both boards show the same
Position ID and Match ID.  The faults: SIGKILL of either daemon at random
moments, the broker stopped and started in the middle of the game, and
duplicated, forged and malformed messages injected into the broker (messages
that arrive reversed: tests/test_remote_session.py); a board that chooses its
dice after seeing the other's is caught.  A third client on the broker, without
either board's key, forges what would have broken the game before the boards
signed what they say (docs/REMOTE.md, "Security"): the game goes on to its end.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from paho.mqtt.client import Client, MQTTMessage
from paho.mqtt.enums import CallbackAPIVersion
from programs import needs
from signing_support import new_key

from tavla_pi.remote.keys import BoardKey
from tavla_pi.rules.color import Color
from tavla_pi.rules.play import Play
from tavla_pi.rules.position import Position
from tavla_pi.testing.hand import hand_moves, location
from tavla_pi.testing.mosquitto import Mosquitto
from tavla_pi.testing.remote import FriendBoard, Pair

pytestmark = [needs("mosquitto"), pytest.mark.slow]

MAX_TURNS = 400
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def pair(tmp_path: Path, mosquitto: Mosquitto) -> Iterator[Pair]:
    """Both boards started and connected through the broker."""
    made = Pair(tmp_path, mosquitto)
    try:
        made.start()
        yield made
    finally:
        made.close()


def journal(board: FriendBoard) -> list[dict[str, Any]]:
    """Every event of the board's journal (the current match's file)."""
    path = board.daemon.state_dir / "journal.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def game_over(board: FriendBoard) -> dict[str, Any] | None:
    """The board's game_over event, if its game has ended."""
    return next((e for e in journal(board) if e["type"] == "game_over"), None)


def play_out(pair: Pair, rng: random.Random, *, between: Any = None) -> None:
    """Play turns until the game is over on both boards; ``between(turn)`` runs after each."""
    for turn in range(MAX_TURNS):
        if all(b.state()["phase"] in ("game_over", "match_over") for b in pair.boards):
            return
        pair.play_turn(rng)
        first, second = (b.state() for b in pair.boards)
        assert (first["position_id"], first["match_id"]) == \
            (second["position_id"], second["match_id"]), turn
        if between is not None:
            between(turn)
    raise AssertionError(f"no game over in {MAX_TURNS} turns")


def plays_of(board: FriendBoard, kind: str) -> list[tuple[str, str, str]]:
    """(player, play, position_id) of each event of ``kind`` in the board's journal."""
    return [(e["player"], e["play"], e["position_id"]) for e in journal(board)
            if e["type"] == kind]


def test_a_whole_game_is_played_across_two_boards(pair: Pair) -> None:
    pair.set_up()
    rng = random.Random(23)
    double_at = 3

    def cube(turn: int) -> None:  # one double, taken, so that the cube crosses the link
        if turn != double_at:
            return
        on_roll = Color(pair.boards[0].state()["on_roll"])
        doubler, taker = pair.board_of(on_roll), pair.board_of(on_roll.opponent)
        if doubler.state()["phase"] != "await_roll":
            return
        doubler.sim({"press": f"{on_roll.value}.cube"})
        taker.until(lambda s: s["cube"]["offered"], "the double shown")
        taker.sim({"press": f"{taker.color.value}.roll"})
        for board in pair.boards:
            board.until(lambda s: s["cube"]["value"] == 2 and not s["cube"]["offered"],
                        "the double taken")

    play_out(pair, rng, between=cube)
    athens, izmir = pair.boards
    for mover, other in ((athens, izmir), (izmir, athens)):
        own = [p for p in plays_of(mover, "played") if p[0] == mover.color.value]
        assert own and own == plays_of(other, "remote_play")
        carried = [p for p in plays_of(other, "played") if p[0] == mover.color.value]
        assert carried == own
    ends = [game_over(b) for b in pair.boards]
    assert ends[0] is not None and ends[1] is not None
    assert {k: v for k, v in ends[0].items() if k != "t"} == \
        {k: v for k, v in ends[1].items() if k != "t"}
    assert ends[0]["cube"] >= 2
    for board in pair.boards:
        rolled = [e for e in journal(board) if e["type"] in ("rolled", "opening_roll")]
        reveals = {(e["roll"], e["board"]) for e in journal(board) if e["type"] == "dice_reveal"}
        assert len(reveals) == 2 * len(rolled)  # every roll made of both boards' shares
        assert "dice:" not in board.daemon.stderr()


def test_kills_and_a_broker_restart_lose_nothing(pair: Pair) -> None:
    pair.set_up()
    rng = random.Random(7)
    kills = {2: "athens", 5: "izmir", 9: "athens", 13: "izmir"}
    broker_at = 7

    def fault(turn: int) -> None:
        if turn == broker_at:
            pair.broker.stop()
            pair.broker.start()
        name = kills.get(turn)
        if name is None:
            return
        board = next(b for b in pair.boards if b.name == name)
        before = board.state()
        for _ in range(rng.randrange(3)):  # a random moment of its scan cycle
            board.state()
        board.daemon.kill()
        board.daemon.start()
        # A pass leaves no event of its own (the next roll implies it): a board killed
        # after a turn with no legal move shows those dice again, then passes again.
        after = board.until(lambda s: s["remote"] is not None and s["phase"] != "no_move",
                            "the remote side back")
        assert (after["position_id"], after["match_id"]) == \
            (before["position_id"], before["match_id"]), \
            f"turn {turn}: {before['phase']} -> {after['phase']}\n{board.daemon.stderr()[-4000:]}"
        pair.until_connected()

    play_out(pair, rng, between=fault)
    athens, izmir = pair.boards
    for mover, other in ((athens, izmir), (izmir, athens)):
        own = [p for p in plays_of(mover, "played") if p[0] == mover.color.value]
        assert own == [p for p in plays_of(other, "played") if p[0] == mover.color.value]
        assert own == plays_of(other, "remote_play")  # each once, none lost
    ends = [game_over(b) for b in pair.boards]
    assert ends[0] is not None and ends[1] is not None
    assert ends[0]["winner"] == ends[1]["winner"] and ends[0]["score"] == ends[1]["score"]


def test_a_daemon_killed_between_done_and_the_friends_lights_sends_its_play(
        pair: Pair) -> None:
    pair.set_up()
    rng = random.Random(3)
    on_roll = Color(pair.boards[0].state()["on_roll"])
    mover, other = pair.board_of(on_roll), pair.board_of(on_roll.opponent)
    state = mover.state()
    position = Position.from_position_id(state["position_id"])
    a, b = state["dice"]
    play = rng.choice(position.legal_plays((a, b)))
    mover.move_own(play)
    mover.sim({"press": f"{on_roll.value}.roll"})
    mover.daemon.kill()  # the message may or may not have left: the journal has it
    mover.daemon.start()
    shown = other.until(lambda s: s["engine_play"] is not None, "the play lit")
    assert shown["engine_play"]["play"] == play.notation
    other.carry_out(play, on_roll)
    assert plays_of(other, "remote_play") == [(on_roll.value, play.notation,
                                               play.result.position_id())]


# -- takebacks ----------------------------------------------------------------------------

def played_without_a_hit(pair: Pair, seed: int) -> tuple[FriendBoard, FriendBoard, Play]:
    """The opening's winner plays a random play that hits nothing and presses DONE; the
    other board carries it out.  The mover's board, the other's, and the play."""
    on_roll = Color(pair.boards[0].state()["on_roll"])
    mover, other = pair.board_of(on_roll), pair.board_of(on_roll.opponent)
    state = mover.state()
    position = Position.from_position_id(state["position_id"])
    plays = [p for p in position.legal_plays(tuple(state["dice"]))
             if not any(hit for _, _, hit in p.moves)]
    play = random.Random(seed).choice(plays)
    mover.move_own(play)
    mover.sim({"press": f"{on_roll.value}.roll"})
    other.until(lambda s: s["engine_play"] is not None, "the play lit")
    other.carry_out(play, on_roll)
    return mover, other, play


def put_back(board: FriendBoard, play: Play, color: Color) -> None:
    """The hand moves ``play``'s checkers back where they came from."""
    for frm, to, _ in reversed(play.moves):
        board.sim({"move": f"{location(to, color)}/{location(frm, color)}",
                   "color": color.value})


def test_a_play_taken_back_on_its_board_is_taken_back_on_both(pair: Pair) -> None:
    pair.set_up()
    start = pair.boards[0].state()
    mover, other, play = played_without_a_hit(pair, seed=7)
    put_back(mover, play, mover.color)  # asked of the other board, which agrees
    for board in (mover, other):
        board.until(lambda s: s["position_id"] == start["position_id"]
                    and s["match_id"] == start["match_id"], "the takeback")
    assert other.state()["fix"], "the other board's hand is to put the checkers back"
    put_back(other, play, mover.color)
    other.until(lambda s: s["fix"] == [], "the board put back")
    second = pair.play_turn(random.Random(8))  # the mover plays the roll again
    assert second["player"] == mover.color.value
    ids = [(b.state()["position_id"], b.state()["match_id"]) for b in (mover, other)]
    assert ids[0] == ids[1]
    for board in (mover, other):
        assert [e["player"] for e in journal(board) if e["type"] == "takeback"] \
            == [mover.color.value]


def test_a_play_put_back_after_the_other_players_roll_stands(pair: Pair) -> None:
    pair.set_up()
    mover, other, play = played_without_a_hit(pair, seed=7)
    other.sim({"press": f"{other.color.value}.roll"})  # the other player's turn begins
    other.until(lambda s: s["phase"] != "await_roll", "the roll")
    put_back(mover, play, mover.color)
    mover.until(lambda s: s["fix"] != [], "the decline: the play stands")
    for action in hand_moves(play, mover.color):
        mover.sim(action)
    mover.until(lambda s: s["fix"] == [] and s["phase"] != "await_roll", "the play shown")
    assert not [e for b in (mover, other) for e in journal(b) if e["type"] == "takeback"]
    ids = [(b.state()["position_id"], b.state()["match_id"]) for b in (mover, other)]
    assert ids[0] == ids[1] == (play.result.position_id(), ids[0][1])
    assert other.state()["remote"]["trouble"] is None


# -- hostile messages -------------------------------------------------------------------

def publish(broker: Mosquitto, topic: str, payload: bytes) -> None:
    """One message into the broker, as anyone on it could send it (mosquitto_pub)."""
    subprocess.run(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(broker.port), "-q", "1",
                    "-t", topic, "-s"], input=payload, check=True, timeout=10)


def signed_by(key: BoardKey, topic: str, data: dict[str, Any]) -> bytes:
    """``data`` signed with ``key`` for ``topic``: what that board itself could send, or
    anyone who kept a message it sent."""
    return json.dumps(key.signed(topic, data)).encode()


def sent_by(board: FriendBoard) -> list[dict[str, Any]]:
    """The messages ``board`` sent in the match it plays now, as its journal holds them."""
    events = journal(board)
    uid = [e["match_uid"] for e in events if e["type"] == "remote_match"][-1]
    return [e["message"] for e in events if e["type"] == "remote_sent"
            and e["match_uid"] == uid]


def game_events(board: FriendBoard) -> list[str]:
    """The types of the game's events (not the remote side's record)."""
    ignore = {"remote_sent", "remote_taken", "dice_commit", "dice_reveal", "remote_status"}
    return [e["type"] for e in journal(board) if e["type"] not in ignore]


def until_logged(board: FriendBoard, text: str, timeout_s: float = 15.0) -> None:
    """Wait until the daemon's log says ``text``."""
    deadline = time.monotonic() + timeout_s
    while text not in board.daemon.stderr():
        assert time.monotonic() < deadline, f"{board.name} never logged {text!r}:\n" \
                                            f"{board.daemon.stderr()[-3000:]}"
        board.state()


@needs("mosquitto_pub")
def test_replayed_foreign_illegal_and_malformed_messages_are_refused(pair: Pair) -> None:
    """Signed by izmir's key (kept and sent again, or izmir's own mistakes), each is
    refused by what it says; unsigned, by its signature first."""
    pair.set_up()
    rng = random.Random(11)
    pair.play_turn(rng)
    pair.play_turn(rng)
    athens, izmir = pair.boards
    key = pair.keys["izmir"]
    before, events = athens.state(), game_events(athens)
    last = sent_by(izmir)[-1]
    topic = "tavla/home/izmir/game"
    publish(pair.broker, topic, signed_by(key, topic, last))
    until_logged(athens, f"izmir's message {last['seq']} again")
    illegal = {"v": 1, "kind": "play", "board": "izmir", "match": last["match"],
               "seq": len(sent_by(izmir)) + 1, "dice": [6, 6], "play": "24/18(4)",
               "position_id": "4HPwATDgc/ABMA"}
    publish(pair.broker, topic, signed_by(key, topic, illegal))
    until_logged(athens, f"refused izmir's message {illegal['seq']}")
    other_match = {**illegal, "match": "f" * 32, "seq": 1}
    publish(pair.broker, topic, signed_by(key, topic, other_match))
    until_logged(athens, "is for match " + "f" * 32)
    publish(pair.broker, topic, b'{"v": 1, "kind": "play", "seq": "x"')
    until_logged(athens, "refused: tavla/home/izmir/game: not JSON")
    publish(pair.broker, topic, signed_by(key, topic, {**illegal, "board": "rhodes"}))
    until_logged(athens, "rhodes")
    publish(pair.broker, topic, json.dumps({**illegal, "seq": 1}).encode())
    until_logged(athens, "refused: tavla/home/izmir/game: no signature")
    after = athens.state()
    assert (after["position_id"], after["match_id"]) == \
        (before["position_id"], before["match_id"])
    assert game_events(athens) == events
    assert after["remote"]["trouble"] is not None  # out of sync, until a message applies
    pair.play_turn(rng)  # the real next message of that number is still taken
    pair.play_turn(rng)
    assert athens.state()["remote"]["trouble"] is None


@needs("mosquitto_pub")
def test_a_board_that_chooses_its_dice_after_seeing_the_others_is_caught(
        pair: Pair, tmp_path: Path) -> None:
    pair.set_up()
    rng = random.Random(5)
    athens, izmir = pair.boards
    while (izmir.state()["on_roll"], izmir.state()["phase"]) != ("black", "await_roll"):
        pair.play_turn(rng)
    rolls = sum(e["type"] in ("rolled", "opening_roll") for e in journal(athens))
    last = sent_by(izmir)[-1]
    cheat = {"v": 1, "kind": "reveal", "board": "izmir", "match": last["match"],
             "seq": len(sent_by(izmir)) + 1, "roll": rolls, "contribution": "ab" * 32,
             "commit": "cd" * 32}
    topic = "tavla/home/izmir/game"
    publish(pair.broker, topic, signed_by(pair.keys["izmir"], topic, cheat))  # izmir's own
    until_logged(athens, f"roll {rolls}: board izmir's contribution does not match its "
                         "commitment")
    assert athens.state()["phase"] == "await_roll"
    pair.play_turn(rng)  # the honest roll of that number is made and played
    # The cheat's own journal: its contribution changed after the commitment.
    events = journal(izmir)
    reveal = next(i for i, e in enumerate(events) if e["type"] == "dice_reveal"
                  and e["board"] == "izmir" and e["roll"] == rolls)
    events[reveal]["contribution"] = "ab" * 32
    doctored = tmp_path / "izmir-cheat.jsonl"
    doctored.write_text("".join(json.dumps(e) + "\n" for e in events))
    done = subprocess.run([sys.executable, "-m", "tavla_pi", "dice-stats", str(doctored)],
                          capture_output=True, text=True, timeout=60, cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr
    assert f"roll {rolls}: board izmir's contribution does not match its commitment" \
        in done.stderr
    clean = subprocess.run([sys.executable, "-m", "tavla_pi", "dice-stats",
                            str(izmir.daemon.state_dir / "journal.jsonl")],
                           capture_output=True, text=True, timeout=60, cwd=ROOT, check=False)
    assert "the dice:" not in clean.stderr


# -- a third client, without the keys --------------------------------------------------

class Outsider:
    """A paho client on the broker with no board's key: it reads the retained statuses
    and publishes whatever it likes."""

    def __init__(self, broker: Mosquitto) -> None:
        self.statuses: dict[str, dict[str, Any]] = {}
        self._seen = threading.Condition()
        self._client = Client(CallbackAPIVersion.VERSION2, "outsider")
        self._client.on_message = self._on_message
        self._client.connect("127.0.0.1", broker.port)
        self._client.subscribe("tavla/home/+/status", 1)
        self._client.loop_start()

    def _on_message(self, client: Client, userdata: Any, message: MQTTMessage) -> None:
        with self._seen:
            self.statuses[message.topic.split("/")[2]] = json.loads(message.payload)
            self._seen.notify_all()

    def nonce(self, board: str) -> str:
        """The nonce of ``board``'s connection, as its retained status says."""
        with self._seen:
            assert self._seen.wait_for(lambda: board in self.statuses, 10), \
                f"no status of {board}"
            return str(self.statuses[board]["nonce"])

    def say(self, topic: str, data: dict[str, Any], *, retain: bool = False) -> None:
        """Publish ``data`` (QoS 1) and wait until the broker has it."""
        info = self._client.publish(topic, json.dumps(data), qos=1, retain=retain)
        info.wait_for_publish(10)
        assert info.is_published()

    def close(self) -> None:
        self._client.disconnect()
        self._client.loop_stop()


def forge(outsider: Outsider, pair: Pair) -> dict[str, int]:
    """Izmir has rolled: as izmir, the outsider sends a legal play with the number athens
    waits for, a takeback ask, 256 messages far ahead, a retained sync that took nothing
    and a retained gone.  The numbers it used."""
    athens, izmir = pair.boards
    state = athens.until(lambda s: s["on_roll"] == "black" and s["dice"], "izmir's roll")
    position = Position.from_position_id(state["position_id"])
    a, b = state["dice"]
    play = position.legal_plays((a, b))[0]
    uid = sent_by(izmir)[-1]["match"]
    seq = len(sent_by(izmir)) + 1
    game = "tavla/home/izmir/game"
    common = {"v": 1, "board": "izmir", "match": uid}
    outsider.say(game, common | {"kind": "play", "seq": seq, "dice": [max(a, b), min(a, b)],
                                 "play": play.notation,
                                 "position_id": play.result.position_id()})
    ask = common | {"kind": "takeback", "seq": seq, "action": "ask",
                    "position_id": state["position_id"]}
    outsider.say(game, new_key("outsider").signed(game, ask))
    for n in range(256):
        outsider.say(game, common | {"kind": "cube", "seq": seq + 100 + n, "action": "double",
                                     "sig": "A" * 86})
    nonce = outsider.nonce("izmir")
    sync = {"v": 1, "board": "izmir", "match": uid, "sent": seq, "taken": 0, "fresh": False,
            "nonce": nonce, "serial": 2**31 - 1}
    outsider.say("tavla/home/izmir/sync", new_key("outsider").signed(
        "tavla/home/izmir/sync", sync), retain=True)
    outsider.say("tavla/home/izmir/status", {"v": 1, "board": "izmir", "status": "gone",
                                             "nonce": nonce}, retain=True)
    return {"seq": seq}


def test_a_client_without_the_keys_cannot_break_the_game(pair: Pair) -> None:
    """Before the boards signed what they say, each of these forgeries broke the game."""
    pair.set_up()
    rng = random.Random(31)
    athens, izmir = pair.boards
    while (izmir.state()["on_roll"], izmir.state()["phase"]) != ("black", "await_roll"):
        pair.play_turn(rng)
    outsider = Outsider(pair.broker)
    try:
        izmir.sim({"press": "black.roll"})
        seq = forge(outsider, pair)["seq"]
        until_logged(athens, "refused: tavla/home/izmir/status")
        assert athens.state()["remote"]["connected"]  # the forged gone is not believed
        play_out(pair, rng)  # izmir's real play of that number is taken, and all after it
    finally:
        outsider.close()
    assert [game_over(b) is not None for b in pair.boards] == [True, True]
    final = [(b.state()["position_id"], b.state()["match_id"]) for b in pair.boards]
    assert final[0] == final[1]
    for mover, other in ((athens, izmir), (izmir, athens)):
        own = [p for p in plays_of(mover, "played") if p[0] == mover.color.value]
        assert own == plays_of(other, "remote_play")  # every real play, and only those
    until_logged(athens, "255 more refused (tavla/home/izmir/game unsigned cube) in 10 s")
    log = athens.daemon.stderr()
    for said in (f"refused: tavla/home/izmir/game: no signature ('sig') (unchecked, it "
                 f"says: play, seq {seq}): not izmir's own",
                 "refused: tavla/home/izmir/game: the signature is not the board's key's "
                 f"(unchecked, it says: takeback, seq {seq}): not izmir's own",
                 "refused: tavla/home/izmir/game: the signature is not the board's key's "
                 f"(unchecked, it says: cube, seq {seq + 100}): not izmir's own",
                 "refused: tavla/home/izmir/sync: the signature is not the board's key's "
                 "(unchecked, it says: sync): not izmir's own",
                 "refused: tavla/home/izmir/status: no signature ('sig') (unchecked, it "
                 "says: gone): not izmir's own"):
        assert log.count(said) == 1, said
    assert log.count("refused: tavla/home/izmir") < 10  # 260 forgeries: five lines
    assert "more than 8 ahead" not in log and "out of sync" not in log
