"""The layer table of docs/ARCHITECTURE.md, enforced on every import in the package.

Each package (a folder, or a top-level module, under ``tavla_pi/``) may import
only the packages its row names.  Imports inside functions count too: a lazy
import is still a dependency.  A package missing from the table, a row for a
package that does not exist, or any cycle between packages fails here, and the
failure names the file, the line and the import.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "tavla_pi"
ARCHITECTURE = ROOT / "docs" / "ARCHITECTURE.md"
_ROW = re.compile(r"^\|\s*`(\w+)`\s*\|[^|]*\|\s*(.*?)\s*\|\s*$")


@dataclass(frozen=True)
class Import:
    """One import of another ``tavla_pi`` package, where it is written."""

    source: str
    target: str
    file: Path
    line: int
    text: str

    def __str__(self) -> str:
        where = self.file.relative_to(self.file.parents[len(self.file.parents) - 1])
        if self.file.is_relative_to(ROOT):
            where = self.file.relative_to(ROOT)
        return f"{where}:{self.line}: {self.text} ({self.source} -> {self.target})"


def layer_table(text: str) -> dict[str, frozenset[str]]:
    """The rows of the "Layers" table: package -> the packages it may import."""
    section = text.split("## Layers", 1)[1].split("\n## ", 1)[0]
    table: dict[str, frozenset[str]] = {}
    for line in section.splitlines():
        match = _ROW.match(line)
        if match:
            table[match[1]] = frozenset(re.findall(r"`(\w+)`", match[2]))
    return table


def package_of(path: Path, root: Path = PACKAGE) -> str:
    """The package a source file belongs to: its first folder, or its module name."""
    return path.relative_to(root).parts[0].removesuffix(".py")


def imported_modules(tree: ast.AST, path: Path, root: Path = PACKAGE) -> Iterator[tuple[str, int]]:
    """Every absolute module name ``path`` imports (relative imports resolved), with its line."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                here = list(path.relative_to(root.parent).with_suffix("").parts)
                base = here[: len(here) - node.level]
                yield ".".join([*base, *([node.module] if node.module else [])]), node.lineno
            else:
                yield node.module or "", node.lineno


def cross_imports(root: Path = PACKAGE) -> Iterator[Import]:
    """Every import from one ``tavla_pi`` package of another."""
    for path in sorted(root.rglob("*.py")):
        source = package_of(path, root)
        if source in ("__init__", "__main__"):
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        for module, line in imported_modules(ast.parse("\n".join(lines)), path, root):
            parts = module.split(".")
            if parts[0] == root.name and len(parts) > 1 and parts[1] != source:
                yield Import(source, parts[1], path, line, lines[line - 1].strip())


def violations(table: dict[str, frozenset[str]], imports: list[Import]) -> list[str]:
    """One line per import the table does not allow."""
    return [f"{imp}: `{imp.source}` may not import `{imp.target}` (docs/ARCHITECTURE.md, Layers)"
            for imp in imports if imp.target not in table.get(imp.source, frozenset())]


def cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """A cycle in the package graph (its packages in order), or None."""
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> list[str] | None:
        state[node] = 1
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return [*trail[trail.index(nxt):], nxt] if nxt in trail else [node, nxt]
            if nxt not in state and (found := visit(nxt, [*trail, nxt])):
                return found
        state[node] = 2
        return None

    for start in sorted(edges):
        if start not in state and (found := visit(start, [start])):
            return found
    return None


def packages(root: Path = PACKAGE) -> set[str]:
    """The packages under ``root``: folders with an ``__init__.py`` and top-level modules."""
    found = {p.parent.name for p in root.glob("*/__init__.py")}
    return found | {p.stem for p in root.glob("*.py") if p.stem not in ("__init__", "__main__")}


TABLE = layer_table(ARCHITECTURE.read_text(encoding="utf-8"))
IMPORTS = list(cross_imports())


def test_every_package_has_a_row_and_every_row_a_package() -> None:
    assert set(TABLE) == packages(), "docs/ARCHITECTURE.md's Layers table and tavla_pi/ differ"


def test_no_package_imports_one_its_row_does_not_allow() -> None:
    assert violations(TABLE, IMPORTS) == []


def test_the_table_itself_has_no_cycle() -> None:
    assert cycle({name: set(allowed) for name, allowed in TABLE.items()}) is None


def test_the_packages_import_each_other_without_a_cycle() -> None:
    edges: dict[str, set[str]] = {}
    for imp in IMPORTS:
        edges.setdefault(imp.source, set()).add(imp.target)
    assert cycle(edges) is None


def test_rules_depends_on_nothing_but_the_exception_tree() -> None:
    assert TABLE["rules"] <= {"errors"}


def test_game_never_reaches_the_hardware() -> None:
    assert "hal" not in TABLE["game"]


# --- the checker itself catches what it should ------------------------------------------------


@pytest.fixture()
def tree(tmp_path: Path) -> Path:
    """A small package ``tavla_pi`` with ``low`` below ``high``."""
    root = tmp_path / "tavla_pi"
    for name in ("low", "high"):
        (root / name).mkdir(parents=True)
        (root / name / "__init__.py").write_text("")
    (root / "high" / "a.py").write_text("from tavla_pi.low import x\n")
    return root


def test_an_upward_import_is_named_with_its_file_and_line(tree: Path) -> None:
    (tree / "low" / "b.py").write_text('"""doc"""\n\ndef f():\n    from ..high import a\n')
    table = {"low": frozenset(), "high": frozenset({"low"})}
    found = violations(table, list(cross_imports(tree)))
    assert len(found) == 1
    assert "low/b.py:4: from ..high import a (low -> high)" in found[0]
    assert "`low` may not import `high`" in found[0]


def test_an_allowed_import_passes(tree: Path) -> None:
    assert violations({"low": frozenset(), "high": frozenset({"low"})},
                      list(cross_imports(tree))) == []


def test_a_cycle_is_found() -> None:
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) is None
