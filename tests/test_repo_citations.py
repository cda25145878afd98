"""Every document a file cites is in the repository, and says what is cited.

A reader of the code has only the repository: a citation of a design note,
an issue or a brief kept elsewhere leads nowhere.  Citations of
docs/CONTRACTS.md name one of its sections (§1..§7); a quoted heading of the
README or of a page in docs/ exists.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTSIDE: tuple[tuple[str, str], ...] = (
    (r"PRODUCT\.md", "the product brief, kept outside the repository"),
    (r"DEVELOPERS(\.md)?\b", "developer notes kept outside the repository"),
    (r"\bshared/", "the design folder beside the repository"),
    (r"\bthe brief\b", "a task description"),
    (r"\bissues? #?\d+", "an issue of the tracker"),
    (r"/work/", "a path of one development machine"),
)
"""Patterns that cite a document outside the repository, and what each one is."""
ALLOWED = {
    Path("tests/test_repo_citations.py"): "holds the patterns",
    Path("tests/test_repo_contracts_doc.py"): "compares the page with the outside promise",
    Path(".ci/run"): "builds bgammon-server, which Debian lacks, from the source beside it",
}
"""Files that must name an outside document, and why."""


def repository_files() -> Iterator[tuple[Path, str]]:
    """Every text file of the repository (relative path, text): what git tracks or would
    track (``.gitignore`` leaves out caches and builds)."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True, check=True).stdout
    for name in sorted(set(listed.decode().split("\0")) - {""}):
        path = ROOT / name
        if not path.is_file():
            continue
        data = path.read_bytes()
        if b"\0" in data:
            continue
        try:
            yield Path(name), data.decode("utf-8")
        except UnicodeDecodeError:
            continue


FILES = list(repository_files())


def test_no_file_cites_a_document_outside_the_repository() -> None:
    found = [
        f"{path}:{text.count(chr(10), 0, hit.start()) + 1}: {hit.group(0)!r} ({what})"
        for path, text in FILES if path not in ALLOWED
        for pattern, what in OUTSIDE
        for hit in re.finditer(pattern, text, re.IGNORECASE)
    ]
    assert not found, "cite a document of the repository instead:\n" + "\n".join(found)


def test_the_patterns_find_what_they_are_for() -> None:
    samples = ["see PRODUCT.md", "DEVELOPERS.md", "../shared/design/CONTRACTS.md",
               "as the brief says", "issue #12", "(issue 4)", "/work/main/README.md"]
    for pattern, _ in OUTSIDE:
        assert any(re.search(pattern, s, re.IGNORECASE) for s in samples), pattern
    for sample in samples:
        assert any(re.search(p, sample, re.IGNORECASE) for p, _ in OUTSIDE), sample
    inside = ["docs/CONTRACTS.md §4", "hardware/WIRING.md", "/usr/share/doc", "briefly"]
    for sample in inside:
        assert not any(re.search(p, sample, re.IGNORECASE) for p, _ in OUTSIDE), sample


def test_contracts_citations_name_a_section_of_it() -> None:
    contracts = (ROOT / "docs" / "CONTRACTS.md").read_text(encoding="utf-8")
    sections = set(re.findall(r"^## (\d+)\. ", contracts, re.M))
    bad = [
        f"{path}: {hit.group(0)!r}"
        for path, text in FILES
        for hit in re.finditer(r"CONTRACTS\.md,? (?:§|section )(\d+)", text)
        if hit.group(1) not in sections
    ]
    assert not bad, f"docs/CONTRACTS.md has sections {sorted(sections)}:\n" + "\n".join(bad)


QUOTED = re.compile(r'(?<![\w/.])((?:docs/)?[A-Z]+\.md),? "([^"]+)"')
"""A quoted heading of the README or of a page in docs/: ``docs/PLAYING.md "What the lights
mean"`` (a comma may come before the quote; the quote may be the heading's first words)."""


def headings(name: str) -> set[str] | None:
    """The headings of README.md or of docs/NAME.md; None for another file."""
    path = ROOT / name
    if name != "README.md" and not (name.startswith("docs/") and path.is_file()):
        return None
    return set(re.findall(r"^#+ (.+)$", path.read_text(encoding="utf-8"), re.M))


def test_quoted_headings_exist() -> None:
    bad = [
        f"{path}: {hit.group(0)!r}"
        for path, text in FILES
        for hit in QUOTED.finditer(text)
        if (found := headings(hit.group(1))) is not None
        and not any(h.startswith(" ".join(hit.group(2).split())) for h in found)  # may wrap
    ]
    assert not bad, "no such heading:\n" + "\n".join(bad)


def test_the_quote_pattern_finds_what_it_is_for() -> None:
    hits = [QUOTED.search(s) for s in ('README.md "Developing"', 'docs/PLAYING.md, "The simulator"',
                                       'hardware/README.md "x"', 'see docs/CLOCK.md "A power cut"')]
    assert [h.groups() if h else None for h in hits] == [
        ("README.md", "Developing"), ("docs/PLAYING.md", "The simulator"), None,
        ("docs/CLOCK.md", "A power cut")]
