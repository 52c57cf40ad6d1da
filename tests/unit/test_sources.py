"""Citations lead somewhere a reader of the repository can open (docs/sources.md)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "docs" / "sources.md"
CODE = [p for top in ("bot", "cogs", "tests") for p in sorted((ROOT / top).rglob("*.py"))]

DOCUMENT_CODE = re.compile(r"\[(0\d\d)\b")  # [003], [000, 002], [001 §11.12]: numbered from 000
GAME_SECTIONS = re.compile(r"GAME\.md((?:[\s,;–-]*§\d+)+)")  # GAME.md §5, GAME.md §1–§2
MARKDOWN_FILE = re.compile(r"\b([A-Z]+)\.md\b")  # GAME.md, COMMANDS.md, README.md
LINK = re.compile(r"\]\(((?!https?:)[^)#\s]*)(?:#([^)\s]+))?\)")  # [Attacks](RULES.md#attacks)


def cited(pattern: re.Pattern[str]) -> dict[str, list[str]]:
    """Return each match of a pattern in the code and tests, with the files citing it."""
    found: dict[str, list[str]] = {}
    for path in CODE:
        for match in pattern.finditer(path.read_text(encoding="utf-8")):
            found.setdefault(match.group(1), []).append(str(path.relative_to(ROOT)))
    return found


def anchor(heading: str) -> str:
    """Return the anchor GitHub gives a Markdown heading: "Rounds, initiative" → "rounds-initiative"."""
    text = re.sub(r"[^\w\s-]", "", heading.strip().lower())
    return re.sub(r"\s", "-", text)


def test_every_document_code_cited_is_mapped() -> None:
    """A comment or test cites a numbered rule document that docs/sources.md does not map."""
    mapped = set(re.findall(r"^\| `\[(\d{3})\]` \|", SOURCES.read_text(), re.MULTILINE))
    assert mapped == {"000", "001", "002", "003"}
    unknown = {code: files for code, files in cited(DOCUMENT_CODE).items() if code not in mapped}
    assert unknown == {}


def test_every_game_md_section_cited_is_mapped() -> None:
    """A comment or test cites a GAME.md section that docs/sources.md does not place."""
    mapped = set(re.findall(r"^\| §(\d+) \|", SOURCES.read_text(), re.MULTILINE))
    sections: dict[str, list[str]] = {}
    for found, files in cited(GAME_SECTIONS).items():
        for number in re.findall(r"§(\d+)", found):
            sections.setdefault(number, []).extend(files)
    assert sections, "no GAME.md citation found: the pattern is wrong"
    assert {n: f for n, f in sections.items() if n not in mapped} == {}


def test_every_design_note_cited_is_mapped() -> None:
    """A comment or test cites a Markdown document that is neither in the repository nor mapped."""
    text = SOURCES.read_text()
    in_repository = {p.stem for p in ROOT.glob("*.md")} | {p.stem for p in ROOT.glob("docs/*.md")}
    unknown = {
        name: files
        for name, files in cited(MARKDOWN_FILE).items()
        if name not in in_repository and f"{name}.md" not in text
    }
    assert unknown == {}


@pytest.mark.parametrize("page", ["docs/sources.md", "docs/RULES.md", "README.md"])
def test_every_link_lands_on_a_file_and_a_heading(page: str) -> None:
    """A link such as RULES.md#attacks names a file or a section that does not exist."""
    source = ROOT / page
    links = LINK.findall(source.read_text())
    assert links, f"no link found in {page}: the pattern is wrong"
    for target, fragment in links:
        linked = (source.parent / target).resolve() if target else source
        assert linked.exists(), f"{page} links to {target}, which is not there"
        if fragment:
            headings = re.findall(r"^#+ (.+)$", linked.read_text(), re.MULTILINE)
            assert fragment in {anchor(h) for h in headings}, f"{page}: no heading #{fragment}"
