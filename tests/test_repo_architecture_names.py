"""Every name the "Board representations" and "Data between stages" sections of
docs/ARCHITECTURE.md cite exists, so the page cannot drift from the code.

A cited name is a code span that reads as a Python reference: a dotted path
(``reconcile.layout.cells_of(...)``, ``Position.to_board``), a capitalised
name (``BAR_INDEX``, ``Observation``), or a call (``bar_cell(color)``).  Its
first part is a module under ``tavla_pi`` or a public name defined at module
level somewhere in the package (each is defined once: tests/test_repo_names.py);
the rest are attributes, or attributes ``__init__`` sets on ``self``.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from types import ModuleType

from test_repo_names import PACKAGE, defined_names

ROOT = PACKAGE.parent
ARCHITECTURE = ROOT / "docs" / "ARCHITECTURE.md"
SECTIONS = ("## Board representations", "## Data between stages")
_REFERENCE = re.compile(r"^(?:tavla_pi\.)?([A-Za-z_]\w*(?:\.\w+)*)(\(.*\))?$")


def section(text: str, title: str) -> str:
    """The body of the ``title`` section of a markdown page."""
    return text.split(f"\n{title}\n", 1)[1].split("\n## ", 1)[0]


def cited(text: str) -> list[str]:
    """The dotted references among the code spans of ``text``, without call parentheses."""
    found: list[str] = []
    for span in re.findall(r"`([^`]+)`", text):
        match = _REFERENCE.match(span)
        if match and ("." in match[1] or match[1][0].isupper() or match[2]):
            found.append(match[1])
    return found


def top_level_names() -> dict[str, str]:
    """Each public name defined at module level in the package -> its module."""
    names: dict[str, str] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for name in defined_names(ast.parse(path.read_text(encoding="utf-8"))):
            names.setdefault(name, module)
    return names


def resolve(reference: str, names: dict[str, str]) -> object:
    """The object ``reference`` names; AttributeError or ImportError if none."""
    parts = reference.split(".")
    obj: object
    for n in range(len(parts), 0, -1):  # the longest module prefix under tavla_pi
        try:
            obj = importlib.import_module("tavla_pi." + ".".join(parts[:n]))
        except ModuleNotFoundError:
            continue
        rest = parts[n:]
        break
    else:
        obj = getattr(importlib.import_module(names[parts[0]]), parts[0])
        rest = parts[1:]
    for attr in rest:
        obj = _attribute(obj, attr)
    return obj


def _attribute(obj: object, attr: str) -> object:
    """``obj.attr``, or for a class an attribute its ``__init__`` assigns on ``self``."""
    if hasattr(obj, attr) or isinstance(obj, ModuleType) or not inspect.isclass(obj):
        return getattr(obj, attr)
    if re.search(rf"\bself\.{attr}\b(: [^=]+)? = ", inspect.getsource(obj.__init__)):
        return obj
    raise AttributeError(f"{obj.__name__} has no attribute {attr!r}")


def test_the_sections_exist_and_cite_names() -> None:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    for title in SECTIONS:
        assert len(cited(section(text, title))) > 10, title


def test_every_cited_name_exists() -> None:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    names = top_level_names()
    missing = []
    for title in SECTIONS:
        for reference in cited(section(text, title)):
            try:
                resolve(reference, names)
            except (AttributeError, ImportError, KeyError) as exc:
                missing.append(f"{title[3:]}: `{reference}` ({exc!r})")
    assert not missing, "docs/ARCHITECTURE.md cites names the code lacks:\n" + "\n".join(missing)


def test_a_wrong_name_is_caught() -> None:
    names = top_level_names()
    assert resolve("reconcile.layout.cells_of", names) is not None
    assert resolve("Referee.committed", names) is not None  # set in __init__
    for wrong in ("reconcile.layout.cell_off", "Position.to_bord", "NoSuchName", "Referee.boards"):
        try:
            resolve(wrong, names)
        except (AttributeError, KeyError):
            continue
        raise AssertionError(f"{wrong} resolved")


def test_cited_reads_references_only() -> None:
    text = ('`reconcile.layout.cell_of(color, number)` `mine` `"1".."24"` `BAR_INDEX` '
            '`bar_cell(color)` `tuple[RGB, ...]` `GET /api/state` `docs/CONTRACTS.md` '
            "`tavla_pi.rules.side`")
    assert cited(text) == ["reconcile.layout.cell_of", "BAR_INDEX", "bar_cell", "rules.side"]
