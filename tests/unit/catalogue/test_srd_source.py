"""The quoted SRD tables in srd.py match the SRD text itself.

The SRD ships with the repository in docs/srd/ (the source of data/; override the
path with TABLEHAND_SRD to check another copy).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from bot.catalogue.models import Catalogue
from tests.unit.catalogue import srd

ROOT = Path(__file__).resolve().parents[3]
SRD_PATH = Path(os.environ.get("TABLEHAND_SRD", ROOT / "docs" / "srd" / "mastery-system-srd.md"))

MOVEMENT_NAMES = {
    "ground_dash": "Ground Dash",
    "safe_movement": "Safe Movement",
    "teleport": "Teleport",
    "teleport_with_ally": "Teleport with Ally",
    "flight": "Flight",
    "leap": "Leap",
    "wall_walk": "Wall Walk",
    "burrow": "Burrow",
    "phase_passage": "Phase Passage",
    "trample": "Trample",
}
SUMMON_NAMES = {
    "scout_owl": "Scout Owl",
    "great_war_bear": "Great War Bear",
    "skeleton_warband": "Skeleton Warband",
    "shadow_panther": "Shadow Panther",
}


@pytest.fixture(scope="module")
def text() -> str:
    return SRD_PATH.read_text(encoding="utf-8")


def _table(text: str, fragment: str) -> list[list[str]]:
    """Return the pipe table after a fragment (on the same paragraph line) as rows of cells."""
    start = text.index(fragment) + len(fragment)
    line = text[start:].split("\n", 1)[0]
    cells = line[line.index("|") : line.rindex("|")].split("|")[1:]
    rows: list[list[str]] = []
    row: list[str] = []
    for cell in cells:
        if cell == " ":  # between the closing and opening pipes of two rows
            rows.append(row)
            row = []
        else:
            row.append(cell.replace("**", "").strip())
    rows.append(row)
    return [r for r in rows if not all(re.fullmatch(r":?-+:?", c) for c in r)]


def _number(cell: str) -> float:
    value = float(re.search(r"-?\d+(?:\.\d+)?", cell).group())
    return int(value) if value.is_integer() else value


def test_diminishing_lookup_quote(text: str) -> None:
    """srd.DIMINISHING_LOOKUP differs from the SRD's Diminishing PP Lookup Table."""
    rows = _table(text, "#### Diminishing PP Lookup Table")
    assert rows[0] == ["X", "Start PP 3", "Start PP 4", "Start PP 6", "Start PP 8"]
    quoted = {int(r[0]): tuple(int(c) for c in r[1:]) for r in rows[1:]}
    assert quoted == srd.DIMINISHING_LOOKUP


def test_weaken_soulburn_quote(text: str) -> None:
    """srd.WEAKEN_SOULBURN differs from the SRD's Weaken / Soulburn cost table."""
    rows = _table(text, "#### Weaken and Soulburn Pricing")
    assert {int(r[0]): _number(r[1]) for r in rows[1:]} == srd.WEAKEN_SOULBURN


def test_active_curve_reference_quote(text: str) -> None:
    """srd.ACTIVE_CURVE_REFERENCE differs from the SRD's Start PP 8 Active-Curve Reference."""
    rows = _table(text, "#### Start PP 8 Active-Curve Reference")
    quoted = tuple(tuple(int(c) for c in r) for r in rows[1:])
    assert quoted == srd.ACTIVE_CURVE_REFERENCE


@pytest.mark.parametrize("type_key", list(srd.CURVES))
def test_curve_quote(text: str, type_key: str) -> None:
    """srd.CURVES differs from the SRD's default full progressions."""
    label = {"passive": "Passive", "reaction": "Reaction", "active": "Active"}.get(
        type_key, "Active Buff"
    )
    match = re.search(rf"- \*\*{label}:\*\* ([\d /]+)", text)
    assert match is not None
    assert tuple(int(v) for v in match.group(1).split("/")) == srd.CURVES[type_key]


@pytest.mark.parametrize("key", list(srd.MOVEMENT))
def test_movement_quote(text: str, key: str) -> None:
    """srd.MOVEMENT differs from the SRD's Movement Distance Progressions."""
    rows = _table(text, f"#### Movement: {MOVEMENT_NAMES[key]} ")
    assert rows[0] == ["Level", *map(str, range(1, 17))]
    assert {r[0]: tuple(r[1:]) for r in rows[1:]} == srd.MOVEMENT[key]


def test_movement_caps_quote(text: str) -> None:
    """srd.MOVEMENT_CAPS differs from the Level 16 cap column."""
    rows = {r[0]: r[2] for r in _table(text, "### Movement Type Pricing and Caps")[1:]}
    for key, name in MOVEMENT_NAMES.items():
        assert rows[name] == srd.MOVEMENT_CAPS[key]


def test_special_aura_quote(text: str) -> None:
    """srd.SPECIAL_AURA differs from the SRD's Special Aura CALCULATION lines."""
    quoted = []
    for level, body in re.findall(r"^L(\d+) → (.+)$", text, flags=re.MULTILINE):
        radius = re.search(r"(\d+) m radius", body)
        pp = re.search(r"= (\d+) PP", body)
        target = re.search(r"below (\d+) target", body)
        total = int(pp.group(1)) if pp else 0
        quoted.append(
            (
                int(level),
                int(radius.group(1)) if radius else None,
                total,
                int(target.group(1)) if target else total,
            )
        )
    assert tuple(quoted) == srd.SPECIAL_AURA


@pytest.mark.parametrize(
    ("fragment", "quoted"),
    [
        ("### Instant Attack AoE Pricing", srd.INSTANT_ATTACK_AOE),
        ("### 10.17 Push / Pull Control Scaling", srd.PUSH_PULL_CONTROL),
        ("#### Special Aura Radius Costs", srd.SPECIAL_AURA_RADIUS),
        ("#### Barrier HP Cost", srd.BARRIER_HP),
        ("#### Passive DR Costs", srd.PASSIVE_DR),
        ("#### Passive Phasing Costs", srd.PASSIVE_PHASING),
        ("#### Active Buff DR", srd.BUFF_DR),
        ("#### Reaction DR", srd.REACTION_DR),
    ],
)
def test_cost_table_quote(text: str, fragment: str, quoted: dict) -> None:
    """A quoted cost table differs from the SRD's (the last number in a row's first cell is the step)."""
    rows = _table(text, fragment)[1:]
    parsed = {_last_number(r[0]): _number(r[1]) for r in rows}
    assert parsed == quoted


def _last_number(cell: str) -> float:
    return int(re.findall(r"\d+", cell)[-1])


def test_aura_passive_radius_quote(text: str) -> None:
    """srd.AURA_PASSIVE_RADIUS differs from the Aura Passive radius table."""
    rows = _table(text, "Use standard radius pricing:")[1:]
    assert {_number(r[0]): _number(r[1]) for r in rows} == srd.AURA_PASSIVE_RADIUS


def test_image_tiers_quote(text: str) -> None:
    """srd.IMAGE_TIER differs from the SRD's Image Tier Costs."""
    rows = _table(text, "#### Image Tier Costs")[1:]
    assert {r[0].removeprefix("Image "): _number(r[1]) for r in rows} == srd.IMAGE_TIER


@pytest.mark.parametrize(("key", "start_pp"), list(srd.START_PP.items()))
def test_start_pp_quote(text: str, catalogue: Catalogue, key: str, start_pp: int) -> None:
    """srd.START_PP differs from the SRD's effect tables and Root/Cleanse entries."""
    name = catalogue.special(key).name
    rows = _table(text, "#### Diminishing Effects — Costs")[1:]
    rows += _table(text, "#### Until Broken / Until Used Effects — Costs")[1:]
    rows += _table(text, "#### Support / Removal Effects — Costs")[1:]
    row = next(r for r in rows if r[0] == f"{name}(X)")
    assert _number(row[1]) == start_pp


@pytest.mark.parametrize(
    ("fragment", "quoted"),
    [
        ("Reactive Cleanse:", srd.REACTIVE_CLEANSE),
        ("Passive Spell Resistance progression:", srd.PASSIVE_SPELL_RESISTANCE),
        ("Ward progression:", srd.WARD),
        ("Passive Invisibility Bonus progression:", srd.PASSIVE_INVISIBILITY),
    ],
)
def test_listed_progression_quote(text: str, fragment: str, quoted: tuple[int, ...]) -> None:
    """A progression quoted in srd.py differs from the SRD's comma-separated list."""
    tail = text[text.index(fragment) :]
    numbers = re.search(r"rogression: ([\d, ]+)", tail)
    assert numbers is not None
    assert tuple(int(v) for v in numbers.group(1).strip(" ,").split(",")) == quoted


@pytest.mark.parametrize(
    ("name", "quoted", "total"),
    [("Bark Barricade", srd.BARK_BARRICADE, 40), ("Stone Rampart", srd.STONE_RAMPART, 70)],
)
def test_wall_example_quote(text: str, name: str, quoted: tuple, total: int) -> None:
    """A wall example's components quoted in srd.py differ from the SRD's calculation line."""
    tail = text[text.index(f"**{name} (") :]
    line = re.search(r"> (Placement[^\n]*?)= \*\*(\d+) PP\*\*", tail)
    assert line is not None
    parts = [part.strip() for part in line.group(1).split(" + ")]
    parsed = tuple((part.split(" ")[0], int(re.findall(r"\d+", part)[-1])) for part in parts)
    names = {"LoS": "Line of Sight"}
    assert tuple((names.get(label, label), pp) for label, pp in parsed) == quoted
    assert int(line.group(2)) == total


@pytest.mark.parametrize("key", list(srd.SUMMONS))
def test_summon_example_quote(text: str, key: str) -> None:
    """A Summon example's purchases quoted in srd.py differ from the SRD's table."""
    rows = _table(text, f"#### {SUMMON_NAMES[key]} ")[1:]
    lines = tuple((r[0], int(_number(r[1]))) for r in rows if r[0] != "Total")
    total = next(int(_number(r[1])) for r in rows if r[0] == "Total")
    assert lines == srd.SUMMONS[key]["lines"]
    assert total == srd.SUMMONS[key]["total"]
