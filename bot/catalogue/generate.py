"""Regenerate the numeric tables in data/ from the SRD text in docs/srd/.

    python -m bot.catalogue.generate          # rewrite data/*.json from docs/srd/
    python -m bot.catalogue.generate --check  # exit 1 if data/ differs from the SRD

Every figure the SRD prints — curves, Start PP and fixed prices, cost tables,
movement progressions, milestone bands, summon tokens, the worked examples — is
read from the SRD and written into the data files; names, summaries, notes and
other prose stay as written by hand. `make test` runs the check, so an SRD
revision is one command and a hand edit of a figure fails the suite.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
from pathlib import Path
from typing import Any

from bot.catalogue.generate_parts import SECTIONS
from bot.catalogue.models import DATA_DIR, FILE_NAMES
from bot.catalogue.srd_source import SRD_PATH, SrdText

WIDTH = 100  # a JSON value stays on one line while it fits this width

Data = dict[str, Any]


def read_data(path: Path = DATA_DIR) -> dict[str, Data]:
    """Return every data file as plain JSON, keyed by its catalogue field ('specials'…)."""
    return {
        field: json.loads((path / name).read_text(encoding="utf-8"))
        for field, name in FILE_NAMES.items()
    }


def regenerate(srd: SrdText, data: dict[str, Data]) -> dict[str, Data]:
    """Return a copy of the data files with every SRD figure read afresh from the SRD."""
    fresh = copy.deepcopy(data)
    for field, update in SECTIONS:
        update(srd, fresh[field], fresh)
    return fresh


def render(value: Any, indent: int = 0, used: int | None = None) -> str:
    """Render JSON with two-space indents, keeping values on one line while they fit."""
    flat = json.dumps(value, ensure_ascii=False)
    start = indent if used is None else used
    if not isinstance(value, dict | list) or not value or start + len(flat) + 1 <= WIDTH:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, list):
        items = [pad + render(item, indent + 2) for item in value]
        return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"
    items = []
    for key, item in value.items():
        head = f"{pad}{json.dumps(key, ensure_ascii=False)}: "
        items.append(head + render(item, indent + 2, len(head)))
    return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"


def rendered_files(data: dict[str, Data]) -> dict[str, str]:
    """Return each data file's text as the generator writes it."""
    return {FILE_NAMES[field]: render(value) + "\n" for field, value in data.items()}


def stale_files(srd: SrdText, path: Path = DATA_DIR) -> list[str]:
    """Return the data files whose text differs from what the SRD regenerates."""
    fresh = rendered_files(regenerate(srd, read_data(path)))
    return [name for name, text in fresh.items() if (path / name).read_text("utf-8") != text]


def main(argv: list[str] | None = None) -> int:
    """Rewrite data/ from the SRD, or with --check only report what would change."""
    parser = argparse.ArgumentParser(prog="python -m bot.catalogue.generate")
    parser.add_argument("--check", action="store_true", help="only report stale files")
    parser.add_argument("--srd", type=Path, default=SRD_PATH, help="the SRD's markdown text")
    parser.add_argument("--data", type=Path, default=DATA_DIR, help="the data directory")
    args = parser.parse_args(argv)
    srd = SrdText.load(args.srd)
    stale = stale_files(srd, args.data)
    if args.check:
        for name in stale:
            print(
                f"{args.data.name}/{name} differs from the SRD; run python -m bot.catalogue.generate"
            )
        return 1 if stale else 0
    for name, text in rendered_files(regenerate(srd, read_data(args.data))).items():
        (args.data / name).write_text(text, encoding="utf-8")
    print(f"regenerated {len(stale)} of {len(FILE_NAMES)} files in {args.data.name}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
