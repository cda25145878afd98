"""Outside input, read within bounds: regular files only, a size cap, JSON with limits.

Every file tavla-pi reads from outside (scenario, journal, match archive, dice
history, config, pin map, calibration, the simulator's saved board) goes
through :func:`open_file` or :func:`read_file`: a FIFO, a device such as
``/dev/zero`` or a directory is refused before it is read (never blocks), and
nothing past the reader's size limit is read.  Every JSON text goes through
:func:`parse_json`: at most :data:`MAX_DEPTH` levels of arrays and objects
and integers of at most :data:`MAX_INT_DIGITS` digits, so that no input can
exhaust the stack or spend seconds converting one number.  TOML goes through
:func:`parse_toml`, which turns the same faults into one line.

Every text a request carries (the request target, each query parameter, every string
value of a JSON body: :func:`check_texts`) and every path or name a config gives is
checked by :func:`text_fault`: it holds no control character and no lone surrogate
(:data:`NOT_TEXT`), so that no NUL, newline or unencodable character reaches a
program's arguments, a file name, a log line or the club.
"""

from __future__ import annotations

import json
import os
import re
import stat
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from tavla_pi.errors import BadInputError

MAX_DEPTH = 32
"""Nesting of JSON arrays and objects accepted (real inputs use three levels)."""
MAX_INT_DIGITS = 20
"""Digits of one JSON integer accepted (a signed 64-bit integer has 19)."""

FileError = Callable[[str, str], BadInputError]
"""Makes the reader's own error from ``(where, problem)``, e.g. ``ScenarioError``."""

NOT_TEXT = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
"""The characters no outside text may hold: the controls (Unicode category Cc: NUL, the
rest of C0 with tab, newline and carriage return, DEL, C1) and the surrogates, which in
a decoded text are always lone (a JSON ``\\ud800`` escape without its pair: a pair
decodes to one character).  A text is one line: a name, a path or a sentence to say."""
_CONTROL_NAMES = {0x09: "a tab", 0x0A: "a newline", 0x0D: "a carriage return", 0x7F: "DEL"}
_LONG_DIGITS = re.compile(rf"\d{{{MAX_INT_DIGITS + 1},}}")
_SPECIAL = re.compile(r'["\[\]{}]')
_STRING_REST = re.compile(r'(?:[^"\\]|\\.)*"', re.DOTALL)


class LimitError(ValueError):
    """A text that passes one of the limits; ``str()`` is one line.

    ``field`` is the top-level key under which the fault sits ("" if none).
    """

    def __init__(self, problem: str, field: str = "") -> None:
        self.problem = problem
        self.field = field
        super().__init__(f"field {json.dumps(field)}: {problem}" if field else problem)


def open_file(path: Path, error: FileError = BadInputError) -> BinaryIO:
    """``path`` opened for reading if it is a regular file, else ``error(path, why)``;
    ``OSError`` if it cannot be looked at or opened (each reader words that its own way).

    Looked at before it is opened (opening a device can have effects), and
    opened without blocking, so a FIFO put in its place meanwhile is still
    refused rather than waited on.
    """
    where = str(path)
    _check_regular(os.stat(path).st_mode, where, error)
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        _check_regular(os.fstat(fd).st_mode, where, error)
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb")


def read_file(path: Path, limit: int, what: str, error: FileError = BadInputError) -> bytes:
    """The bytes of the regular file ``path``; ``error`` when it cannot be read or holds
    more than ``limit`` (``what`` names the kind of file in the message: "a scenario")."""
    try:
        with open_file(path, error) as stream:
            data = stream.read(limit + 1)
    except OSError as exc:
        raise error(str(path), f"cannot read ({exc.strerror or exc})") from None
    if len(data) > limit:
        raise error(str(path), f"too large for {what} (at most {limit} bytes)")
    return data


def read_text(path: Path, limit: int, what: str, error: FileError = BadInputError, *,
              where: str = "{path}:{line}") -> str:
    """:func:`read_file` as UTF-8 text (a leading byte order mark, as some editors write,
    is dropped); ``where`` places a byte that is not UTF-8 (TOML readers say
    ``"{path}: line {line}"``)."""
    data = read_file(path, limit, what, error)
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise error(where.format(path=path, line=line), "not UTF-8 text") from None


def parse_json(text: str) -> Any:
    """The JSON value of ``text``: :class:`LimitError` if it passes a limit,
    ``json.JSONDecodeError`` if it is not JSON (each reader words that its own way)."""
    _check_depth(text)
    long_ints: list[_LongInt] = []

    def bounded_int(literal: str) -> int | _LongInt:
        value = _bounded_int(literal)
        if isinstance(value, _LongInt):
            long_ints.append(value)
        return value

    value = json.loads(text, parse_int=bounded_int)
    return _check_ints(value, "") if long_ints else value


def parse_toml(text: str) -> dict[str, Any]:
    """The TOML document ``text``: :class:`LimitError` for nesting too deep or an integer
    too long to convert, ``tomllib.TOMLDecodeError`` if it is not TOML."""
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise LimitError("values nested too deeply") from None
    except tomllib.TOMLDecodeError:
        raise
    except ValueError:  # int() refuses thousands of digits
        found = _LONG_DIGITS.search(text)
        line = text[: found.start()].count("\n") + 1 if found else 0
        raise LimitError(f"line {line}: an integer with too many digits") from None


def text_fault(text: str) -> str | None:
    """Why ``text`` is not a text, naming its first wrong character and where it is
    (``"holds a NUL (U+0000) at index 3"``); None when it is one."""
    found = NOT_TEXT.search(text)
    if found is None:
        return None
    code = ord(found[0])
    named = f"U+{code:04X}" + (f", {_CONTROL_NAMES[code]}" if code in _CONTROL_NAMES else "")
    kind = ("a NUL" if code == 0 else "a lone surrogate" if 0xD800 <= code <= 0xDFFF
            else "a control character")
    return f"holds {kind} ({named}) at index {found.start()}"


def json_text_fault(value: Any, place: str = "") -> tuple[str, str] | None:
    """The first string value of a parsed JSON ``value`` that is not a text
    (:func:`text_fault`): its place (``"level"``, ``"speech.language"``, ``"dice[0]"``;
    ``""`` for ``value`` itself) and the fault; None when every one is a text.  Keys are
    not looked at: every reader refuses a key it does not know, by name."""
    if isinstance(value, str):
        fault = text_fault(value)
        return None if fault is None else (place, fault)
    if isinstance(value, dict):
        inside = [(f"{place}.{key}" if place else str(key), item) for key, item in value.items()]
    elif isinstance(value, list):
        inside = [(f"{place}[{index}]", item) for index, item in enumerate(value)]
    else:
        return None
    for inner, item in inside:
        found = json_text_fault(item, inner)
        if found is not None:
            return found
    return None


def check_texts(value: Any, where: str) -> None:
    """:class:`BadInputError` at ``where: PLACE`` for the first string value of the parsed
    JSON ``value`` that is not a text (:func:`json_text_fault`)."""
    found = json_text_fault(value)
    if found is not None:
        place, fault = found
        raise BadInputError(f"{where}: {place[:60]}" if place else where, fault)


def _check_regular(mode: int, where: str, error: FileError) -> None:
    if stat.S_ISDIR(mode):
        raise error(where, "is a directory, not a regular file")
    if not stat.S_ISREG(mode):
        raise error(where, "is not a regular file (a pipe or a device?): refused unread")


def _check_depth(text: str) -> None:
    """LimitError when arrays and objects nest deeper than :data:`MAX_DEPTH` (one
    pass over the text, strings skipped whole)."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    depth, key, top_is_object, pos = 0, "", False, 0
    while (found := _SPECIAL.search(text, pos)) is not None:
        pos, mark = found.start(), found[0]
        if mark == '"':
            string = _STRING_REST.match(text, pos + 1)
            if string is None:
                return  # an unterminated string: json.loads says so
            if depth == 1 and top_is_object:
                key = _key_text(text[pos:string.end()])
            pos = string.end()
            continue
        if mark in "[{":
            depth += 1
            top_is_object = top_is_object or (depth == 1 and mark == "{")
            if depth > MAX_DEPTH:
                raise LimitError(f"nested deeper than {MAX_DEPTH} levels", key)
        else:
            depth -= 1
        pos += 1


def _key_text(literal: str) -> str:
    try:
        return str(json.loads(literal))[:40]
    except ValueError:
        return literal[1:41]


class _LongInt:
    """Stands in for an integer literal with too many digits until its field is known."""

    def __init__(self, digits: int) -> None:
        self.digits = digits


def _bounded_int(literal: str) -> int | _LongInt:
    digits = len(literal.lstrip("-"))
    return int(literal) if digits <= MAX_INT_DIGITS else _LongInt(digits)


def _check_ints(value: Any, field: str) -> Any:
    """``value`` unchanged; LimitError naming the top-level field of a too long integer."""
    if isinstance(value, _LongInt):
        raise LimitError(f"an integer of {value.digits} digits "
                             f"(at most {MAX_INT_DIGITS})", field)
    if isinstance(value, dict):
        for key, item in value.items():
            _check_ints(item, field or str(key)[:40])
    elif isinstance(value, list):
        for item in value:
            _check_ints(item, field)
    return value
