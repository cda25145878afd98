"""The computer's play on a tall stack: checkers borne off or put where the sensors
cannot count them.

A stack of more than ten reads as a range (:mod:`tavla_pi.decode.tall`), so
bearing two checkers off a stack of twelve leaves the board reading as it did.
The hand carries the play out as lit and confirms it with its own DONE; the
board never commits what it cannot see by itself, and never waits silently.
(Found by the remote-game test in CI: a bear-off from a tall stack never
committed.)
"""

from __future__ import annotations

from computer_support import BLACK_EXPERT, Table, move

TALL = {"load": {"position_id": "t8aCGAH/DwAAAA", "match_id": "UQkAAAAAAAAE"}}
"""Black on roll with twelve checkers on its ace point (point 24) and three off."""
BEAR_OFF = [("offer", "none"), ("cube", "no double"), ("play", "1/off(2)")]
DONE = {"press": "white.roll"}


def black_rolls(table: Table) -> None:
    table.act(BLACK_EXPERT, {"dice": [3, 2]}, TALL, {"wait": 400})


def test_a_bear_off_the_sensors_cannot_see_is_confirmed_by_the_hands_done() -> None:
    table = Table(BEAR_OFF)
    black_rolls(table)
    lit = {"from": "24", "to": "off", "color": "black"}
    assert table.state()["engine_play"]["next"] == lit
    assert table.state()["press_done"] is False
    table.act(move("24/off"), move("24/off"))
    assert table.of("played") == []            # it reads as the start as well: not committed
    state = table.state()
    assert state["press_done"] is True and state["fix"] == []
    assert state["engine_play"]["next"] == lit  # what is left if nothing hidden was done
    table.act(DONE)
    played = table.of("played")
    assert [(p["player"], p["play"]) for p in played] == [("black", "1/off(2)")]
    assert table.state()["on_roll"] == "white"
    assert table.of("rejected") == []
    table.close()


def test_the_hands_done_is_refused_while_the_board_shows_another_board() -> None:
    table = Table(BEAR_OFF)
    black_rolls(table)
    table.act(move("24/23"), DONE)             # not on the way to the play: out of sync
    assert table.of("rejected")[-1] == {"type": "rejected", "player": "white",
                                        "reason": "the board does not show a legal play"}
    assert table.of("played") == []
    table.act(move("23/24"), move("24/off"), move("24/off"), DONE)
    assert [p["play"] for p in table.of("played")] == ["1/off(2)"]
    table.close()


def test_the_computers_own_done_stays_refused() -> None:
    table = Table(BEAR_OFF)
    black_rolls(table)
    table.act(move("24/off"), move("24/off"), {"press": "black.roll"})
    assert table.of("rejected")[-1]["reason"] == "the computer plays black"
    assert table.of("played") == []
    table.act(DONE)
    assert [p["play"] for p in table.of("played")] == ["1/off(2)"]
    table.close()


def test_a_play_half_hidden_commits_on_the_hands_done_once_the_rest_shows() -> None:
    # White's 2/1 2/off with 5-1 from a tall stack on its 2 point (CI run 6)
    table = Table([("play", "2/1 2/off")])
    table.act({"setup": "start", "opponent": {"color": "white", "level": "expert"}},
              {"load": {"position_id": "50AQ2gX+HwAAAA", "match_id": "EYEGAAAAAAAE"}},
              {"wait": 400})
    assert table.state()["engine_play"]["next"] == {"from": "2", "to": "off", "color": "white"}
    table.act(move("2/off", "white"), {"press": "black.roll"})  # the 1 still to play
    assert table.of("rejected")[-1] == {"type": "rejected", "player": "black",
                                        "reason": "the board does not show 2/1 2/off yet"}
    table.act(move("2/1", "white"))
    assert table.state()["press_done"] is True and table.of("played") == []
    table.act({"press": "black.roll"})
    assert [(p["player"], p["play"]) for p in table.of("played")] == [("white", "2/1 2/off")]
    table.close()
