"""The event types: one enumeration, the schema's table, and mypy catching a misspelt type."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tavla_pi.events import Event, EventType, UnknownType
from tavla_pi.events.schema import OPTIONAL, REQUIRED, parse_event

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "tavla_pi"
WIRE_NAMES = ["new_match", "game_started", "opening_roll", "rolled", "lifted", "out_of_sync",
              "in_sync", "played", "rejected", "no_legal_move", "double_offered",
              "double_taken", "double_dropped", "game_over", "match_over",
              "hint", "blunder_warning", "resign_offered", "resign_accepted", "resign_declined",
              "review", "engine_play", "takeback", "spoken", "remote_play", "remote_status",
              "remote_match", "remote_sent", "remote_taken", "dice_commit", "dice_reveal", "clock",
              "online_status"]
"""The ``"type"`` strings of the journal and the wire: those before the enumeration, then
the ones added since."""


def test_the_members_are_the_wire_names() -> None:
    assert [member.value for member in EventType] == WIRE_NAMES


def test_every_member_has_a_schema_entry_and_the_schema_no_other() -> None:
    assert set(REQUIRED) == set(EventType)
    assert set(OPTIONAL) <= set(EventType)
    assert all(isinstance(kind, EventType) for kind in [*REQUIRED, *OPTIONAL])


def test_an_event_writes_its_type_as_the_plain_name() -> None:
    event = Event(EventType.ROLLED, 7, {"player": "white", "dice": [3, 1]})
    data = event.to_dict()
    assert type(data["type"]) is str
    assert data == {"t": 7, "type": "rolled", "player": "white", "dice": [3, 1]}
    assert event.to_json() == '{"t": 7, "type": "rolled", "player": "white", "dice": [3, 1]}'


def test_a_journal_line_reads_back_as_the_member() -> None:
    event = parse_event('{"t": 7, "type": "rolled", "player": "white", "dice": [3, 1]}')
    assert event.type is EventType.ROLLED
    assert event == Event(EventType.ROLLED, 7, {"player": "white", "dice": [3, 1]})


def test_an_unknown_type_is_kept_by_name_and_written_back_unchanged() -> None:
    line = '{"t": 4, "type": "sparkle", "colour": "gold"}'
    event = parse_event(line)
    assert not isinstance(event.type, EventType)
    assert event == Event(UnknownType("sparkle"), 4, {"colour": "gold"})
    assert event.to_json() == line


def test_a_member_given_as_its_plain_name_is_the_member() -> None:
    # mypy refuses this in the product; at run time (JSON, tests) it means the member
    assert Event("played", 1).type is EventType.PLAYED  # type: ignore[arg-type]


SNIPPET = """\
from tavla_pi.events import Event, EventType, UnknownType
Event(EventType.PLAYED, 0)
Event(UnknownType("sparkle"), 0)
Event(EventType.PLAYD, 0)
Event("plaed", 0)
Event("played", 0)
"""


@pytest.mark.slow
def test_mypy_refuses_a_misspelt_or_plain_string_event_type(tmp_path: Path) -> None:
    # in a process of its own: mypy raises the recursion limit of the process it runs in
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-error-summary",
                           "--cache-dir", str(tmp_path), "-c", SNIPPET],
                          cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 1, done.stderr
    lines = [line.split(": error: ")[0] for line in done.stdout.splitlines()
             if ": error: " in line]
    assert lines == ["<string>:4", "<string>:5", "<string>:6"], done.stdout
    assert 'has no attribute "PLAYD"' in done.stdout


def _raw_type_strings(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """Strings compared with a ``.type`` or given to ``Event(...)``: event types not members."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(isinstance(side, ast.Attribute) and side.attr == "type" for side in sides):
                for side in sides:
                    for const in ast.walk(side):
                        if isinstance(const, ast.Constant) and isinstance(const.value, str):
                            yield node.lineno, const.value
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id == "Event" and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            yield node.lineno, node.args[0].value


def test_the_product_names_event_types_by_member_only() -> None:
    """mypy cannot see ``event.type == "plaed"`` (a str is comparable with a str): this can."""
    found = [f"{path.relative_to(ROOT)}:{line}: {text!r}"
             for path in sorted(PACKAGE.rglob("*.py"))
             for line, text in _raw_type_strings(ast.parse(path.read_text(encoding="utf-8")))]
    assert found == []


def test_the_raw_string_finder_finds_them() -> None:
    tree = ast.parse('e.type == "played"\nx.type in ("rolled", "y")\nEvent("plaed", 1)\n'
                     'e.type == EventType.PLAYED\nphase == "played"')
    assert list(_raw_type_strings(tree)) == [(1, "played"), (2, "rolled"), (2, "y"),
                                             (3, "plaed")]


def test_json_of_a_member_is_its_value() -> None:
    assert json.dumps({"type": EventType.GAME_OVER}) == '{"type": "game_over"}'
