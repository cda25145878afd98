"""Benchmark: CPU time of TurnTracker.observe() over long random games.

Every turn of random legal games (rules engine) is moved by hand, one lift
and one placement per frame, with a misplaced checker and a takeback now and
then; tall stacks read as intervals.  Prints the median, p99 and worst
observe() time (also without the calls a garbage-collector pass fell into),
the tree-building time per turn, and the figures for the turn with the most
nodes met (a double).

Run: .venv/bin/python bench/reconcile_tracker.py [games] [seed]
"""

from __future__ import annotations

import gc
import random
import statistics
import sys
import time

from tavla_pi.decode.observation import NOTHING, CountRange, Observation, Reading
from tavla_pi.reconcile import TurnTracker
from tavla_pi.reconcile.layout import N_POINTS, Cells, cell_of, sign
from tavla_pi.reconcile.tree import Node, TurnTree
from tavla_pi.rules import Color, Position
from tavla_pi.rules.portes import PortesPosition


def observation(cells: Cells) -> Observation:
    """The decoder's reading of a board: exact up to the slots, "at least" above."""
    readings = []
    for i, v in enumerate(cells):
        slots = 6 if i < N_POINTS else 4
        n = abs(v)
        count = CountRange(slots + 1, 15) if n > slots else CountRange(n, n)
        readings.append(Reading(Color.WHITE if v > 0 else Color.BLACK, count) if v else NOTHING)
    return Observation(tuple(readings[:N_POINTS]), readings[24], readings[25])


def frames(tree: TurnTree, target: Node, rng: random.Random) -> list[Cells]:
    """The boards a player shows moving to ``target``: lifted, placed, now and then wrong."""
    above = _ancestors(target)
    node = tree.root
    boards: list[Cells] = [node.cells]
    s = sign(tree.mover)
    while node is not target:
        edge = rng.choice([e for e in node.children if e.child in above])
        frm = cell_of(tree.mover, edge.move[0])
        lifted = list(node.cells)
        lifted[frm] -= s
        boards.append(tuple(lifted))
        if rng.random() < 0.1:                       # put down on a wrong point first
            wrong = list(lifted)
            wrong[rng.randrange(N_POINTS)] += s
            boards.extend([tuple(wrong), tuple(lifted)])
        boards.append(edge.child.cells)
        if rng.random() < 0.05:                      # a takeback to the start and back
            boards.extend([tree.root.cells, edge.child.cells])
        node = edge.child
    return boards


def _ancestors(target: Node) -> set[Node]:
    """``target`` and every node on a path from the root to it."""
    found = {target}
    frontier = [target]
    while frontier:
        for edge in frontier.pop().parents:
            if edge.parent not in found:
                found.add(edge.parent)
                frontier.append(edge.parent)
    return found


_collections = [0]


def _count_gc(phase: str, info: dict[str, int]) -> None:
    """gc callback: count collection passes (to tell GC pauses from our own time)."""
    if phase == "start":
        _collections[0] += 1


def run_turn(tree: TurnTree, rng: random.Random, times: list[int],
             quiet: list[int] | None = None) -> None:
    """Follow one random play of ``tree``, adding each observe() CPU time (ns);
    ``quiet`` gets those of calls during which the garbage collector did not run."""
    target = rng.choice(tree.complete)
    tracker = TurnTracker.from_tree(tree)
    for cells in frames(tree, target, rng):
        obs = observation(cells)
        passes = _collections[0]
        t0 = time.thread_time_ns()
        tracker.observe(obs)
        elapsed = time.thread_time_ns() - t0
        times.append(elapsed)
        if quiet is not None and _collections[0] == passes:
            quiet.append(elapsed)


def report(name: str, times: list[int]) -> None:
    """Print median, p99 and max in milliseconds."""
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    print(f"{name}: n={len(ordered)} median={statistics.median(ordered) / 1e6:.3f} ms "
          f"p99={p99 / 1e6:.3f} ms max={ordered[-1] / 1e6:.3f} ms")


def main(games: int, seed: int = 1) -> None:
    gc.callbacks.append(_count_gc)
    rng = random.Random(seed)
    observe_times: list[int] = []
    quiet_times: list[int] = []
    build_times: list[int] = []
    biggest: TurnTree | None = None
    for _ in range(games):
        position, mover = Position.initial(), rng.choice(list(Color))
        while not position.is_game_over():
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            t0 = time.thread_time_ns()
            tree = TurnTree(PortesPosition(position, mover), dice)
            build_times.append(time.thread_time_ns() - t0)
            if tree.complete:
                run_turn(tree, rng, observe_times, quiet_times)
                if biggest is None or len(tree) > len(biggest):
                    biggest = tree
                node = rng.choice(tree.complete)
                position = Position(node.mine, node.theirs).swap()
            else:
                position = position.swap()
            mover = mover.opponent
    print(f"{games} random games, {len(build_times)} turns")
    report("observe()", observe_times)
    report("observe() without a GC pass in the call", quiet_times)
    report("tree build per turn", build_times)
    if biggest is not None:
        worst: list[int] = []
        for _ in range(50):
            run_turn(biggest, rng, worst)
        dice = biggest.dice
        print(f"largest tree: {len(biggest)} nodes, {len(biggest.complete)} plays, "
              f"dice {dice[0]}-{dice[1]}, position {biggest.start.position_id()}")
        report("observe() on it", worst)


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3] or ["20"]))
