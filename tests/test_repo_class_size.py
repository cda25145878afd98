"""No class of the package is over :data:`LIMIT` lines: a class does one job.

A class that grows past the limit has taken on a second job; it is split
by job (a collaborator class for the part that is its own), not trimmed.
A class's length counts from its first decorator to its last line.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "tavla_pi"
LIMIT = 300
"""The most lines a class may have."""


def class_lengths(tree: ast.Module) -> list[tuple[str, int]]:
    """Every class of ``tree`` (nested ones too, named by their path): name, lines."""
    found: list[tuple[str, int]] = []

    def visit(node: ast.AST, outer: str) -> None:
        for child in ast.iter_child_nodes(node):
            name = outer
            if isinstance(child, ast.ClassDef):
                name = f"{outer}{child.name}"
                first = min([child.lineno, *(d.lineno for d in child.decorator_list)])
                assert child.end_lineno is not None
                found.append((name, child.end_lineno - first + 1))
                name += "."
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                name = f"{outer}{child.name}."
            visit(child, name)

    visit(tree, "")
    return found


def test_class_lengths_count_decorators_and_nested_classes() -> None:
    tree = ast.parse("@decorated\nclass A:\n    x = 1\n\n    class B:\n        y = 2\n")
    assert class_lengths(tree) == [("A", 6), ("A.B", 2)]


def test_no_class_is_over_the_limit() -> None:
    over = [f"{path.relative_to(ROOT)}: {name} is {length} lines"
            for path in sorted(PACKAGE.rglob("*.py"))
            for name, length in class_lengths(ast.parse(path.read_text(encoding="utf-8")))
            if length > LIMIT]
    assert not over, f"classes over {LIMIT} lines (split each by job):\n" + "\n".join(over)
