"""The README is a short front door, and every link of it and of docs/ leads somewhere.

The README says what tavla-pi is, the two commands of the quick start, where each
document is and how to develop; the rest lives in docs/ (docs/PLAYING.md,
docs/OPERATING.md and the others).  A link to a file that is not in the repository
leads nowhere.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)|\b(?:src|href)=\"([^\"]+)\"")
"""A Markdown link's target, or an HTML ``src``/``href`` attribute's."""


def relative_links(text: str) -> list[str]:
    """The targets of the links that point into the repository (no scheme, no bare anchor)."""
    targets = [m.group(1) or m.group(2) for m in LINK.finditer(text)]
    return [t for t in targets if not re.match(r"[a-z][a-z0-9+.-]*:", t) and not t.startswith("#")]


def test_the_readme_is_at_most_200_lines() -> None:
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= 200, f"README.md has {lines} lines"


def test_the_quick_start_is_the_two_commands() -> None:
    text = README.read_text(encoding="utf-8")
    quick = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", quick, re.S)
    assert block, "the quick start has no command block"
    commands = [line.split("#")[0].strip() for line in block.group(1).splitlines()]
    assert commands == ["make sim", "make test"]
    assert "Python 3.11" in quick


def test_every_relative_link_resolves() -> None:
    broken = [
        f"{page.relative_to(ROOT)}: {target}"
        for page in PAGES
        for target in relative_links(page.read_text(encoding="utf-8"))
        if not (page.parent / target.split("#")[0]).exists()
    ]
    assert not broken, "links to nothing:\n" + "\n".join(broken)


def test_the_readme_maps_every_document() -> None:
    linked = {(ROOT / t.split("#")[0]).resolve()
              for t in relative_links(README.read_text(encoding="utf-8"))}
    documents = [*(ROOT / "docs").glob("*.md"), *(ROOT / "hardware").glob("*.md")]
    missing = [str(d.relative_to(ROOT)) for d in documents if d.resolve() not in linked]
    assert not missing, f"README.md does not link: {missing}"


def test_the_link_reader_finds_what_it_is_for() -> None:
    text = ('[a](docs/A.md) [b](B.md#x) <img src="leds/c.svg"> [web](https://example.org) '
            '[here](#top) <a href="mailto:x@y">')
    assert relative_links(text) == ["docs/A.md", "B.md#x", "leds/c.svg"]
