"""One meaning per name: no two modules of the package define the same public name.

A constant, type alias, class or function defined at module level in two
modules of ``tavla_pi/`` would mean two things depending on where it is
imported from (``BAR`` was index 24 in one module and point 25 in another).
A shared meaning has one definition that the others import; a different
meaning has its own name.  The few names every module of a kind defines
alike are listed in :data:`SHARED`, each with why.  Private names (``_x``)
are each module's own and are not compared.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "tavla_pi"

SHARED: dict[str, str] = {
    "__all__": "a package's exports",
    "log": "the module's logger (logging.getLogger of its service)",
    "T": "a type variable of the module's own generics (typing.TypeVar(\"T\"))",
    "add_parser": "a cli sub-command's argparse set-up (tavla_pi.cli loads each by name)",
    "run": "a cli sub-command's entry point (tavla_pi.cli calls each by name)",
    "main": "a module's command-line entry point",
    "PHRASES": "a language's phrase table (tavla_pi.speech.words.el, .tr, .en: one each)",
    "number": "a language's numbers as words (tavla_pi.speech.words.el, .tr, .en)",
}
"""Names several modules define on purpose, because they mean the same in each."""


def defined_names(tree: ast.Module) -> dict[str, int]:
    """The public names a module binds at its top level (not by import), with their line."""
    names: dict[str, int] = {}
    for node in tree.body:
        targets: list[ast.expr] = []
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.setdefault(node.name, node.lineno)
        elif isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign):
            targets = [node.target]
        for target in targets:
            for name in ast.walk(target):
                if isinstance(name, ast.Name):
                    names.setdefault(name.id, node.lineno)
    return {n: line for n, line in names.items() if n in SHARED or not n.startswith("_")}


def clashes(root: Path) -> dict[str, list[str]]:
    """Each public name defined in more than one module under ``root``: where, not in SHARED."""
    where: dict[str, list[str]] = defaultdict(list)
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for name, line in defined_names(tree).items():
            where[name].append(f"{path.relative_to(root.parent)}:{line}")
    return {n: places for n, places in where.items() if len(places) > 1 and n not in SHARED}


def test_no_public_name_is_defined_in_two_modules() -> None:
    found = clashes(PACKAGE)
    report = "\n".join(f"{name}: {', '.join(places)}" for name, places in sorted(found.items()))
    assert not found, ("one definition per meaning: import the shared one, or name each "
                       f"meaning apart (or add it to SHARED, saying why):\n{report}")


def test_a_clash_is_found_and_named(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "index.py").write_text("BAR = 24\n_PRIVATE = 1\nlog = 1\n")
    (package / "point.py").write_text("from pkg.index import log\n\nBAR: int = 25\n_PRIVATE = 2\n")
    (package / "other.py").write_text("class BAR:\n    pass\n\nlog = 2\n")
    assert clashes(package) == {"BAR": ["pkg/index.py:1", "pkg/other.py:1", "pkg/point.py:3"]}
