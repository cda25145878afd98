"""docs/CONTRACTS.md says what the code does, and keeps the outside promise word for word.

The events, scenario actions, sub-commands with their options, config keys,
HTTP routes and ``/api/state`` keys listed on that page are exactly the ones
the code has; each "not yet kept" item is still missing from the code (once
it is not, the page must move it into the additions).  When the outside
promise (``shared/design/CONTRACTS.md`` beside the repository) is present,
every paragraph and table row of it must appear in the page unchanged.
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import tavla_pi.rules
from tavla_pi.bounded import text_fault
from tavla_pi.cli import build_parser
from tavla_pi.config import SCHEMA
from tavla_pi.errors import ScenarioError
from tavla_pi.events.hub import EventHub
from tavla_pi.events.schema import ADDED, OPTIONAL, REQUIRED
from tavla_pi.events.types import EventType
from tavla_pi.game.matchclock import ClockRules
from tavla_pi.game.referee import Referee
from tavla_pi.game.settings import GameSettings
from tavla_pi.game.view import Phase
from tavla_pi.hardware.pinmap import load_pinmap
from tavla_pi.replay import actions
from tavla_pi.replay.actions import ScenarioLine
from tavla_pi.replay.runner import ScenarioRunner
from tavla_pi.rules import Board
from tavla_pi.rules.dice import ScriptedDice
from tavla_pi.speech.settings import SpeechSettings
from tavla_pi.testing.daemon import VirtualDaemon
from tavla_pi.web.api import Api
from tavla_pi.web.server import Request, Response

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "tavla_pi"
DOC = (ROOT / "docs" / "CONTRACTS.md").read_text(encoding="utf-8")
PROMISE_PLACES = (ROOT.parent / "shared" / "design" / "CONTRACTS.md",
                  Path("/work/shared/design/CONTRACTS.md"))
"""Where the outside promise may be: beside the clone (CI), or the development machine's copy."""
TICKS = re.compile(r"`([^`]+)`")


# ---- reading the page --------------------------------------------------------------------

def section(number: int) -> str:
    """The text of ``## n.`` up to the next ``## `` heading."""
    found = re.search(rf"^## {number}\. .*?(?=^## |\Z)", DOC, re.M | re.S)
    assert found, f"docs/CONTRACTS.md has no section '## {number}.'"
    return found.group(0)


def subsection(number: int, title: str) -> str:
    """The text under ``### §n <title>`` up to the next heading."""
    heading = f"### §{number} {title} (this repository)"
    text = section(number)
    assert heading in text, f"docs/CONTRACTS.md §{number} lacks '{heading}'"
    return re.split(r"^#{2,3} ", text.split(heading, 1)[1], flags=re.M)[0]


def table(text: str, header: str) -> list[list[str]]:
    """The rows (cells stripped) of the table whose header line is ``header``."""
    lines = text.splitlines()
    assert header in lines, f"no table '{header}'"
    rows: list[list[str]] = []
    for line in lines[lines.index(header) + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows


def ticked(cell: str) -> list[str]:
    """The backticked names in a cell."""
    return TICKS.findall(cell)


def rows_by_name(text: str, header: str) -> dict[str, list[str]]:
    """Table rows keyed by the one backticked name of their first cell."""
    out: dict[str, list[str]] = {}
    for row in table(text, header):
        names = ticked(row[0])
        assert len(names) == 1, f"expected one name in {row[0]!r}"
        out[names[0]] = row
    return out


# ---- the outside promise ---------------------------------------------------------------

def promise_text() -> str | None:
    """The outside promise, if it is on this machine."""
    for place in PROMISE_PLACES:
        if place.is_file():
            return place.read_text(encoding="utf-8")
    return None


def test_the_outside_promise_is_on_the_page_word_for_word() -> None:
    promise = promise_text()
    if promise is None:
        pytest.skip("shared/design/CONTRACTS.md is not beside the repository")
    lines = DOC.splitlines()
    missing: list[str] = []
    for block in promise.strip().split("\n\n"):
        if all(line.startswith("|") for line in block.splitlines()):
            missing += [line for line in block.splitlines() if line not in lines]
        elif block not in DOC:
            missing.append(block)
    assert not missing, "not on docs/CONTRACTS.md as promised:\n" + "\n---\n".join(missing)
    promised = re.findall(r"^## .*", promise, re.M)
    assert re.findall(r"^## .*", DOC, re.M) == promised


def test_the_sections_are_numbered_one_to_seven() -> None:
    headings = re.findall(r"^## (\d+)\. ", DOC, re.M)
    assert headings == ["1", "2", "3", "4", "5", "6", "7"]


def test_section_6s_clock_and_club_are_kept() -> None:
    kept = subsection(6, "additions")
    assert "### §6 not yet kept" not in section(6)
    assert "[clock]" in kept and "`tavla-pi club`" in kept
    assert set(SCHEMA["clock"]) == {"enabled", "delay_s", "reserve_s_per_point"}
    assert "clock" in {t.value for t in EventType}
    assert actions.parse_line('{"setup": "start", "match_length": 1, "clock": {}}', "doc") \
        == actions.SetupAction(1, clock=ClockRules())


def test_section_6s_remote_board_is_kept() -> None:
    kept = subsection(6, "additions")
    assert "[network]" in kept and "`remote_play`" in kept
    assert set(SCHEMA["network"]) == {"broker", "ca_file", "username", "password_file",
                                      "board", "club", "publish"}
    assert "remote" in SCHEMA["opponent"]
    assert {"remote_play", "remote_status"} <= {t.value for t in EventType}


def test_section_6s_speech_is_kept() -> None:
    assert "[speech]" in subsection(6, "additions")
    assert set(SCHEMA["speech"]) == {"enabled", "language", "rate", "volume", "device"}
    assert "spoken" in {t.value for t in EventType}


def test_section_7s_text_is_kept() -> None:
    kept = subsection(7, "additions")
    assert "Text:" in kept and "Text:" not in subsection(7, "not yet kept")
    assert all(text_fault(text) is not None for text in ("\0", "\ud800", "\t", "\x7f"))
    assert text_fault("Ayşe") is None


def test_section_7s_online_play_is_kept() -> None:
    kept = subsection(7, "additions")
    assert "[online]" in kept and "`online_status`" in kept
    assert "Online" not in subsection(7, "not yet kept")
    assert set(SCHEMA["online"]) == {"server", "username", "password_file", "ca_file"}
    assert "online" in SCHEMA["opponent"]
    assert "online_status" in {t.value for t in EventType}


# ---- §1: board numbering ---------------------------------------------------------------

def test_the_starting_position_is_as_listed() -> None:
    said = re.search(r"The starting position, in this numbering: (.*?)\. Each",
                     " ".join(subsection(1, "additions").split()))
    assert said, "§1 additions: the starting position"
    listed: dict[str, dict[str, int]] = {}
    for side in said.group(1).split("; "):
        color, counts = side.split(" ", 1)
        pairs = (part.split(" on ") for part in counts.split(", "))
        listed[color.lower()] = {point: int(n) for n, point in pairs}
    assert listed == Board.initial().as_dict()


def test_a_play_is_written_in_the_movers_numbering() -> None:
    text = " ".join(subsection(1, "additions").split())
    said = re.search(r"Black's opening 3-1 is `(.*?)` in `played` and the moves (.*?) in a", text)
    assert said, "§1 additions: Black's opening 3-1"
    moves = [f"{{{m}}}" for m in re.findall(r"`\{(.*?)\}`", said.group(2))]
    scenario = ['{"setup": "start"}', '{"wait": 400}', '{"dice": [1, 3]}',
                '{"press": "white.roll"}', *moves, '{"press": "black.roll"}']
    parsed = [(str(n), actions.parse_line(line, str(n))) for n, line in enumerate(scenario)]
    lines = [ScenarioLine(where, action) for where, action in parsed if action is not None]
    runner = ScenarioRunner(load_pinmap(), GameSettings())
    played = [e for e in runner.run(lines) if e.type == "played"]
    assert [e["play"] for e in played] == [json.loads(said.group(1))]


# ---- §2: the rules API -----------------------------------------------------------------

def test_every_export_of_the_rules_package_is_listed() -> None:
    rows = table(subsection(2, "additions"), "| name | what it is |")
    listed = {name for row in rows for name in ticked(row[0])}
    assert listed == set(tavla_pi.rules.__all__)


def test_the_variants_are_kept_and_positions_of_before_unchanged() -> None:
    assert "### §2 not yet kept" not in section(2)
    start = tavla_pi.rules.variant("plakoto").initial()
    expected: tavla_pi.rules.BoardDict = {"white": {"24": 15}, "black": {"1": 15}, "pinned": {}}
    assert start.board() == expected
    assert not hasattr(tavla_pi.rules.Position, "board")  # Portes' Position is as it was


# ---- §3: the command line --------------------------------------------------------------

def subcommands() -> dict[str, argparse.ArgumentParser]:
    """Every sub-command's parser, by name."""
    parser = build_parser()
    found = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    choices: dict[str, argparse.ArgumentParser] = found[0].choices
    return {"": parser, **choices}


def options(parser: argparse.ArgumentParser) -> set[str]:
    """Long options but ``--help``, and positional arguments upper-cased (no sub-commands)."""
    out: set[str] = set()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            continue
        out |= {s for s in action.option_strings if s.startswith("--") and s != "--help"}
        if not action.option_strings:
            out.add(action.dest.upper())
    return out


def test_every_sub_command_and_option_is_listed() -> None:
    header = "| command | arguments and options | what it does |"
    rows = rows_by_name(subsection(3, "additions"), header)
    documented = {name.removeprefix("tavla-pi").strip(): row for name, row in rows.items()}
    parsers = subcommands()
    assert set(documented) == set(parsers)
    for name, parser in parsers.items():
        words = {w.split()[0] for w in ticked(documented[name][1])}
        listed = {w for w in words if w.startswith("--") or w.isupper()} - {"--help"}
        assert listed == options(parser), f"tavla-pi {name}"


CONFIG_HEADER = "| key | default | meaning |"


def test_every_config_key_is_listed_here_and_nowhere_else() -> None:
    keys = {f"[{table_name}] {key}" for table_name, entries in SCHEMA.items() for key in entries}
    rows = table(subsection(3, "additions"), CONFIG_HEADER)
    assert {name for row in rows for name in ticked(row[0])} == keys
    assert DOC.count(CONFIG_HEADER) == 1
    others = [ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *(ROOT / "hardware").glob("*.md")]
    tabled = [path.name for path in others if path.name != "CONTRACTS.md"
              and CONFIG_HEADER in path.read_text(encoding="utf-8")]
    assert not tabled, f"the config table lives in docs/CONTRACTS.md §3 only: {tabled}"
    operating = (ROOT / "docs" / "OPERATING.md").read_text(encoding="utf-8")
    assert "[docs/CONTRACTS.md §3](CONTRACTS.md)" in operating  # where the config is told


# ---- §4: scenarios and events ----------------------------------------------------------

ACTION_HEADER = "| action | keys | example |"


def test_every_scenario_action_is_listed() -> None:
    rows = rows_by_name(subsection(4, "additions"), ACTION_HEADER)
    assert set(rows) == set(actions._PARSERS)
    promised = table(section(4), "| action | meaning |")
    assert {_action_key(row[0]) for row in promised} == set(actions._PARSERS)


def _action_key(cell: str) -> str:
    """The action key of a cell such as ``{"hold": "menu", "ms": 2000}``."""
    found = re.match(r'`\{"(\w+)"', cell)
    assert found, cell
    return found.group(1)


def test_each_actions_example_parses_and_its_keys_are_as_listed() -> None:
    for name, row in rows_by_name(subsection(4, "additions"), ACTION_HEADER).items():
        example = json.loads(ticked(row[2])[0])
        parsed = actions.parse_line(json.dumps(example), "doc")
        kind = type(parsed).__name__.removesuffix("Action").lower()
        assert kind == ("press" if name == "hold" else name)
        assert not list(_key_problems(name, row[1], example)), name


def _key_problems(name: str, cell: str, example: dict[str, Any]) -> Iterator[str]:
    """How the keys of ``example`` differ from the cell: unlisted, optional or required."""
    keys = ticked(cell)
    for key, value in example.items():
        if key not in keys:
            yield f"key {key!r} is not listed"
        optional = f"`{key}` (optional" in cell
        if key != name and _parses({k: v for k, v in example.items() if k != key}) != optional:
            yield f"key {key!r}: optional is {not optional}"
        for inner in value if isinstance(value, dict) else {}:
            if inner not in keys:
                yield f"key {key}.{inner} is not listed"
            if _parses({**example, key: {k: v for k, v in value.items() if k != inner}}):
                yield f"key {key}.{inner} is optional, listed as required"


def _parses(data: dict[str, Any]) -> bool:
    try:
        actions.parse_line(json.dumps(data), "doc")
    except ScenarioError:
        return False
    return True


def test_setups_variant_is_read() -> None:
    assert '`"variant"`' not in subsection(4, "not yet kept")
    line = '{"setup": "start", "variant": "plakoto"}'
    assert actions.parse_line(line, "doc") == actions.SetupAction(variant="plakoto")


def emitted() -> dict[str, list[set[str]]]:
    """Each event type the package emits, with the field names of every place emitting it."""
    found: dict[str, list[set[str]]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for kind, fields in _calls(ast.parse(path.read_text(encoding="utf-8"))):
            found.setdefault(kind, []).append(fields)
    return found


def _calls(tree: ast.AST) -> Iterator[tuple[str, set[str]]]:
    """Each ``_emit("type", field=...)`` (or ``Event("type", t)``) call: type, fields; and
    each ruling of the referee's parts, ``Ruled(EventType.NAME, {field: ...})``.  Fields
    spread from ``**{...}``, ``**(A if C else B)``, a name bound to one in the same
    function, or a call of a package function whose every ``return`` is a dict, count
    once for each way they can be."""
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        bound = {target.id: node.value for node in ast.walk(function)
                 if isinstance(node, ast.Assign) for target in node.targets
                 if isinstance(target, ast.Name)}
        bound |= {node.target.id: node.value for node in ast.walk(function)
                  if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                  and node.value is not None}
        for node in ast.walk(function):
            if isinstance(node, ast.Call):
                yield from _call(node, bound)


def _call(node: ast.Call, bound: dict[str, ast.expr]) -> Iterator[tuple[str, set[str]]]:
    if _callee(node.func) == "Ruled":
        yield from _ruled(node, bound)
    if _callee(node.func) not in ("_emit", "Event"):
        return
    kind = _event_type(node.args[0]) if node.args else None
    if kind is None:
        return
    fields = {keyword.arg for keyword in node.keywords if keyword.arg is not None}
    ways = [fields]
    for keyword in node.keywords:
        if keyword.arg is None:
            ways = [way | spread for way in ways for spread in _spread(keyword.value, bound)]
    assert _callee(node.func) == "_emit" or len(node.args) == 2, "fields this test cannot read"
    for way in ways:
        yield kind, way


def _returned_dicts() -> dict[str, list[ast.expr]]:
    """Each package function (by its name) whose every ``return``, in every function of
    that name, gives a dict, one of two, or such a call: what they return."""
    found: dict[str, list[ast.expr]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef):
                values = [r.value for r in ast.walk(node)
                          if isinstance(r, ast.Return) and r.value is not None]
                found.setdefault(node.name, []).extend(values or [ast.Constant(None)])
    return {name: values for name, values in found.items()
            if all(isinstance(v, ast.Dict | ast.IfExp | ast.Call) for v in values)}


RETURNED_DICTS = _returned_dicts()


def _spread(value: ast.expr, bound: dict[str, ast.expr]) -> list[set[str]]:
    """The field names a ``**value`` can add, one set per way."""
    if isinstance(value, ast.Name) and value.id in bound:
        return _spread(bound[value.id], bound)
    if isinstance(value, ast.IfExp):
        return _spread(value.body, bound) + _spread(value.orelse, bound)
    if isinstance(value, ast.Call) and _callee(value.func) in RETURNED_DICTS:
        return [way for returned in RETURNED_DICTS[_callee(value.func)]
                for way in _spread(returned, {})]
    assert isinstance(value, ast.Dict), "fields must be readable here"
    ways = [{str(k.value) for k in value.keys if isinstance(k, ast.Constant)}]
    for key, item in zip(value.keys, value.values, strict=True):
        if key is None:
            ways = [way | spread for way in ways for spread in _spread(item, bound)]
        else:
            assert isinstance(key, ast.Constant), "fields must be readable here"
    return ways


def _ruled(node: ast.Call, bound: dict[str, ast.expr]) -> Iterator[tuple[str, set[str]]]:
    """The event of a ruling of the referee's parts (:class:`tavla_pi.game.rulings.Ruled`)."""
    kind = _event_type(node.args[0]) if node.args else None
    if kind is None:
        return
    assert len(node.args) == 2, "fields this test cannot read"
    for way in _spread(node.args[1], bound):
        yield kind, way


def _event_type(arg: ast.expr) -> str | None:
    """The wire name of an event type written as ``EventType.NAME`` (or a plain string)."""
    if isinstance(arg, ast.Attribute) and _callee(arg.value) == "EventType":
        return EventType[arg.attr].value
    return str(arg.value) if isinstance(arg, ast.Constant) else None


def _callee(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


EVENT_HEADER = "| event type | fields | optional fields | when |"


def documented_events() -> dict[str, tuple[set[str], set[str]]]:
    """The page's event table: type -> (fields, optional fields)."""
    rows = rows_by_name(subsection(4, "additions"), EVENT_HEADER)
    return {kind: (set(ticked(row[1])), set(ticked(row[2]))) for kind, row in rows.items()}


def test_every_emitted_event_is_listed_with_exactly_its_fields() -> None:
    code = emitted()
    documented = documented_events()
    assert set(documented) == set(code)
    for kind, places in code.items():
        always = set.intersection(*places)
        assert documented[kind] == (always, set.union(*places) - always), kind


def test_the_journal_schema_agrees_with_the_event_table() -> None:
    documented = documented_events()
    for kind, fields in REQUIRED.items():
        if not fields and kind not in OPTIONAL:  # a type the journal's reader does not check
            continue
        added = ADDED.get(kind, frozenset())  # always written, absent from older journals
        assert added <= set(OPTIONAL.get(kind, {})), kind
        assert documented[kind] == (set(fields) | added,
                                    set(OPTIONAL.get(kind, {})) - added), kind
    assert set(OPTIONAL) <= set(REQUIRED)


def promised_events() -> dict[str, set[str]]:
    """The outside promise's event table (on the page): type -> field names."""
    out: dict[str, set[str]] = {}
    for row in table(section(4), "| type | fields |"):
        plain = re.sub(r"\([^)]*\)", "", row[1])
        fields = set(ticked(re.split(r"(?<=`)[:;]", plain)[0]))
        out |= {kind: fields for kind in ticked(row[0])}
    return out


def not_yet_events() -> set[str]:
    """The event types the page says are never emitted yet."""
    items = subsection(4, "not yet kept").split("\n- ")
    lines = [item for item in items if "never emitted" in item]
    assert len(lines) <= 1
    return set(ticked(lines[0])) if lines else set()


def test_every_promised_event_is_emitted_with_its_fields_or_listed_as_not_yet() -> None:
    documented = documented_events()
    later = not_yet_events()
    assert not later & set(emitted()), "emitted now: move it into the §4 additions"
    for kind, fields in promised_events().items():
        assert (kind in documented) != (kind in later), kind
        if kind in documented:
            assert fields <= documented[kind][0] | documented[kind][1], kind


def test_game_started_carries_variant_and_played_board() -> None:
    assert "`game_started` carries no `variant`" not in subsection(4, "not yet kept")
    code = emitted()
    assert all("variant" in f for f in code["game_started"])
    assert all("board" in f for f in code["played"])


def test_a_short_menu_press_still_does_nothing() -> None:
    assert "a short press shows nothing" in subsection(4, "not yet kept")
    referee = Referee(GameSettings(), ScriptedDice())
    before = referee.view()
    assert referee.on_button("menu", long=False, now=10) == []
    assert referee.view() == before


# ---- §5: HTTP --------------------------------------------------------------------------

def documented_routes() -> set[tuple[str, str]]:
    """(method, path) of every route on the page, the query left off."""
    rows = table(section(5), "| method and path | answer |")
    rows += table(subsection(5, "additions"), "| method and path | answer |")
    out: set[tuple[str, str]] = set()
    for row in rows:
        method, target = ticked(row[0])[0].split(" ", 1)
        out.add((method, target.split("?")[0]))
    return out


def test_every_route_is_listed_and_answers(tmp_path: Path) -> None:
    api = Api(dict, EventHub(), None, token=None, loopback=True)
    code = {(m, path) for path, methods in api._routes.items() for m in methods}
    assert documented_routes() == code | {("GET", "/static/FILE")}

    async def answers(daemon: VirtualDaemon) -> dict[tuple[str, str], int]:
        out = {}
        for method, route in documented_routes():
            path = route.replace("FILE", "style.css")
            body = {"/api/sim": b'{"wait": 0}', "/api/settings": b"{}",
                    "/api/speech": b'{"ask": "repeat"}',
                    "/api/speech/audio": b'{"text": "six four", "language": "en"}',
                    "/api/online": b'{"list": true}'}.get(path, b"")
            head = {"host": "127.0.0.1", "content-type": "application/json"}
            answer = await daemon.api.handle(Request(method, path, {}, head, body))
            out[(method, path)] = answer.status if isinstance(answer, Response) else 200
        return out

    daemon = VirtualDaemon(tmp_path, speech=SpeechSettings(enabled=True))
    statuses = asyncio.run(answers(daemon))
    none_yet = {("GET", "/api/review"): 404}  # while no game is reviewed, as the page says
    none_yet |= {("GET", "/api/online"): 404, ("POST", "/api/online"): 404}  # not set for it
    if shutil.which("espeak-ng") is None:  # the audio is eSpeak NG's: 503 without it
        none_yet[("POST", "/api/speech/audio")] = 503
    assert {route: status for route, status in statuses.items() if status != 200} == none_yet


def test_the_event_streams_parameter_is_as_listed() -> None:
    text = subsection(5, "additions")
    assert "`GET /api/events?leds=1`" in text and "`leds=0`" in text

    async def status(query: dict[str, str]) -> int:
        api = Api(dict, EventHub(), None, token=None, loopback=True, leds=list)
        answer = await api.handle(Request("GET", "/api/events", query, {}, b""))
        return answer.status if isinstance(answer, Response) else 200

    assert [asyncio.run(status(q)) for q in ({"leds": "1"}, {"leds": "0"}, {"x": "1"})] == [
        200, 200, 400]


def state_of_a_lifted_checker(tmp_path: Path) -> dict[str, Any]:
    """``GET /api/state`` of the simulated board while White holds a checker after 3-1."""
    async def play() -> dict[str, Any]:
        daemon = VirtualDaemon(tmp_path)
        for action in ({"setup": "start"}, {"wait": 400}, {"dice": [3, 1]},
                       {"press": "white.roll"}, {"lift": "8", "color": "white"}, {"wait": 300}):
            await daemon.sim(action)
        return await daemon.state()
    return asyncio.run(play())


def test_every_state_key_is_listed(tmp_path: Path) -> None:
    state = state_of_a_lifted_checker(tmp_path)
    rows = rows_by_name(subsection(5, "additions"), "| key | value |")
    assert set(rows) == set(state)
    for key in ("cube", "lifted", "physical", "sensed"):
        assert isinstance(state[key], dict), key
        assert set(state[key]) <= set(ticked(rows[key][1])), key
    assert set(ticked(rows["phase"][1])) == {p.value for p in Phase}
    promised = table(section(5), "| method and path | answer |")
    state_row = next(row for row in promised if row[0] == "`GET /api/state`")
    assert set(ticked(state_row[1])) - {"#rrggbb", "pinout.toml"} <= set(state)
