"""Helpers for the variants' tests: boards written as {absolute point: count}."""

from __future__ import annotations

from typing import Any

from tavla_pi.rules import VariantPosition, variant


def board(white: dict[int, int], black: dict[int, int],
          pinned: dict[int, str] | None = None) -> dict[str, Any]:
    """The §2 form of two {absolute point: count} maps, the rest of each 15 borne off."""
    out: dict[str, Any] = {}
    for name, side in (("white", white), ("black", black)):
        counts = {str(p): n for p, n in side.items()}
        if sum(side.values()) < 15:
            counts["off"] = 15 - sum(side.values())
        out[name] = counts
    out["pinned"] = {str(p): c for p, c in (pinned or {}).items()}
    return out


def position(game: str, white: dict[int, int], black: dict[int, int], on_roll: str = "white",
             pinned: dict[int, str] | None = None) -> VariantPosition:
    """A position of ``game`` from {absolute point: count} maps."""
    return variant(game).from_board(board(white, black, pinned), on_roll=on_roll)


def notations(p: VariantPosition, dice: tuple[int, int]) -> list[str]:
    """The notation of every legal play, in order."""
    return [play.notation for play in p.legal_plays(dice)]


def results(p: VariantPosition, dice: tuple[int, int]) -> list[dict[str, Any]]:
    """The board after every legal play, in order."""
    return [dict(play.result.board()) for play in p.legal_plays(dice)]


def perft_two_plies(game: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """(plays, distinct results) one and then two plies from the start, over all 21 rolls;
    every second-ply roll's set of results is checked against the brute force."""
    from variants_oracle import ROLLS, canonical
    from variants_oracle import results as brute_force

    start = variant(game).initial()
    ply1 = [pl.result for roll in ROLLS for pl in start.legal_plays(roll)]
    total, seen = 0, set[VariantPosition]()
    for p in ply1:
        for roll in ROLLS:
            plays = p.legal_plays(roll)
            found = {canonical(pl.result.board()) for pl in plays}
            assert found == brute_force(game, p.board(), p.on_roll.value, roll), (p, roll)
            total += len(plays)
            seen.update(pl.result for pl in plays)
    return (len(ply1), len(set(ply1))), (total, len(seen))
