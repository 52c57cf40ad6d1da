"""Read the SRD's markdown text: its inline pipe tables, listed progressions and figures.

The SRD (docs/srd/) keeps each section on one long line, tables included
("| **X** | **Start PP 3** | |:--:|:--:| | 1 | 3 |"). These helpers find a table
or a figure by the text just before it and return plain cells and numbers, for the
generator that rebuilds data/ (`bot.catalogue.generate`) and for the tests.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

SRD_PATH = Path(__file__).resolve().parents[2] / "docs" / "srd" / "mastery-system-srd.md"
_SEPARATOR = re.compile(r":?-+:?")
_NUMBER = re.compile(r"(?<!\d)[-−–]?\d+(?:\.\d+)?")  # "1–2" is a range, not 1 and −2


class SrdFormatError(ValueError):
    """The SRD text does not hold what the generator expects at a place it names."""


def number(text: str) -> int | float:
    """Return the first number in a cell ('**7.5 PP**' → 7.5, '– 1' → -1), int when whole."""
    match = _NUMBER.search(text)
    if match is None:
        raise SrdFormatError(f"no number in {text!r}")
    value = float(match.group().replace("−", "-").replace("–", "-"))
    return int(value) if value.is_integer() else value


def numbers(text: str) -> list[int | float]:
    """Return every number in a text, in order."""
    return [number(found) for found in _NUMBER.findall(text)]


def plain(cell: str) -> str:
    """Return a cell without bold or italic markers and outer spaces."""
    return cell.replace("**", "").replace("*", "").replace("`", "").strip()


@dataclass(frozen=True)
class SrdText:
    """The SRD's text with look-ups by the words that precede what is wanted."""

    text: str

    @classmethod
    def load(cls, path: Path = SRD_PATH) -> SrdText:
        """Read the SRD from docs/srd/."""
        return cls(path.read_text(encoding="utf-8"))

    def at(self, fragment: str, after: str | None = None) -> int:
        """Return where a fragment starts (the first one after `after`, if given)."""
        start = 0 if after is None else self.at(after)
        found = self.text.find(fragment, start)
        if found < 0:
            where = f" after {after!r}" if after else ""
            raise SrdFormatError(f"the SRD has no {fragment!r}{where}")
        return found

    def line(self, fragment: str, after: str | None = None) -> str:
        """Return the rest of the line from a fragment on."""
        start = self.at(fragment, after)
        end = self.text.find("\n", start)
        return self.text[start : end if end >= 0 else len(self.text)]

    def find(self, pattern: str, after: str, flags: int = 0) -> re.Match[str]:
        """Return the first regex match on the line that starts with `after`."""
        match = re.search(pattern, self.line(after), flags)
        if match is None:
            raise SrdFormatError(f"no {pattern!r} after {after!r}")
        return match

    def table(self, fragment: str, after: str | None = None) -> list[list[str]]:
        """Return the pipe table after a fragment as rows of plain cells (separator row dropped)."""
        line = self.line(fragment, after)
        start = line.find("|")
        if start < 0:
            raise SrdFormatError(f"no table after {fragment!r}")
        # "| a | b | | 1 | 2 | tail": rows are separated by a single-space piece; the
        # piece after the last pipe is never a cell.
        parts = line[start:].split("|")[1:]
        width = parts.index(" ") if " " in parts else len(parts) - 1
        rows: list[list[str]] = []
        at = 0
        while at + width <= len(parts) - 1:
            rows.append(parts[at : at + width])
            at += width
            if at >= len(parts) - 1 or parts[at] != " ":
                break
            at += 1
        cells = [[plain(cell) for cell in found] for found in rows]
        table = [r for r in cells if not all(_SEPARATOR.fullmatch(c) for c in r)]
        if len(table) < 2:
            raise SrdFormatError(f"the table after {fragment!r} has no rows")
        return table

    def progression(self, fragment: str) -> tuple[int, ...]:
        """Return a comma-separated progression ('Progression: 2, 4, 5, …') after a fragment."""
        match = self.find(r"rogression: ([\d, ]+\d)", fragment)
        return tuple(int(v) for v in match.group(1).split(","))

    def bullets(self, fragment: str, stop: str) -> list[str]:
        """Return the '- item' list items after a fragment, up to a stop marker."""
        line = self.line(fragment)
        end = line.find(stop, len(fragment))
        body = line[len(fragment) : end if end >= 0 else len(line)]
        return [plain(item) for item in body.split(" - ")[1:] if plain(item)]
