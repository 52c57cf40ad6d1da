"""Loading data/: the real files validate, and a malformed file names its file and field."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.catalogue.models import DATA_DIR, Catalogue, CatalogueError, load_catalogue
from bot.errors import TablehandError

Json = dict[str, Any]


def test_the_catalogue_loads(catalogue: Catalogue) -> None:
    """The shipped data files do not load."""
    assert len(catalogue.power_types.types) == 5
    assert len(catalogue.movement.types) == 10
    assert len(catalogue.summons.examples) == 4


@pytest.mark.parametrize(
    "name",
    [
        "ruin", "regeneration", "blight", "exorcism", "requiem", "lacerate", "slow", "hex",
        "sundered", "corrode", "expose", "disoriented", "challenge", "weaken", "soulburn", "mark",
        "root", "stunned", "prone", "brace", "bulwark", "immovable", "cleanse",
    ],
)  # fmt: skip
def test_game_md_specials_are_in_the_catalogue(catalogue: Catalogue, name: str) -> None:
    """A Special that GAME.md §7 tracks is missing from data/specials.json."""
    assert catalogue.special(name).name.lower() == name


@pytest.mark.parametrize("name", ["stunned", "prone", "immovable"])
def test_binary_specials_take_no_x(catalogue: Catalogue, name: str) -> None:
    """A binary Special (GAME.md §7) is written with an X."""
    assert not catalogue.special(name).takes_x


@pytest.mark.parametrize("kind", ["active", "active_buff", "reaction", "passive"])
def test_every_entry_is_in_its_catalogue_list(catalogue: Catalogue, kind: str) -> None:
    """A catalogue entry is missing from its §9 list, or listed twice."""
    listing = next(lst for lst in catalogue.entries.lists if lst.kind == kind)
    listed = [key for group in listing.groups for key in group.entries]
    entries = [e.key for e in catalogue.entries.entries if e.kind == kind]
    assert sorted(listed) == sorted(entries)


def _special(index: int, **changes: Any) -> Callable[[Json], None]:
    def mutate(data: Json) -> None:
        data["specials"][index].update(changes)

    return mutate


def _drop_movement_value(data: Json) -> None:
    data["types"][0]["rows"][0]["values"].pop()


def _decreasing_movement(data: Json) -> None:
    data["types"][0]["rows"][0]["values"][5] = 2


def _negative_range(data: Json) -> None:
    data["cost_tables"][0]["rows"][1]["pp"] = -5


def _unknown_kind(data: Json) -> None:
    data["entries"][0]["kind"] = "spell"


def _uneven_curve(data: Json) -> None:
    data["types"][0]["base_curve"] = [30, 60, 90, 121]


def _extra_base_stat(data: Json) -> None:
    data["base"]["mana"] = 3


def _band_gap(data: Json) -> None:
    entry = next(e for e in data["entries"] if e["key"] == "critical")
    entry["levels"]["bands"][1]["from"] = 5


def _bad_format(data: Json) -> None:
    entry = next(e for e in data["entries"] if e.get("levels", {}).get("kind") == "per_level")
    entry["levels"]["format"] = "+{value}"


def _unlisted_entry(data: Json) -> None:
    data["lists"][0]["groups"][0]["entries"].append("no_such_buff")


def _wrong_example_total(data: Json) -> None:
    data["wall_examples"][0]["total_pp"] = 45


def _unknown_upgrade(data: Json) -> None:
    data["examples"][0]["purchases"][0]["upgrade"] = "wings"


CASES = [
    ("specials.json", _special(3, start_pp="eight"),
     "data/specials.json: specials.3.start_pp: Input should be a valid number"),
    ("specials.json", _special(0, start_pp=None),
     "data/specials.json: specials.0: Value error, pricing 'triangular' needs start_pp"),
    ("specials.json", _special(1, group="lingering"), "data/specials.json: specials.1.group: Input should be"),
    ("movement.json", _drop_movement_value,
     "data/movement.json: types.0.rows.0: Value error, values need 16 levels, got 15"),
    ("movement.json", _decreasing_movement,
     "data/movement.json: types.0.rows.0: Value error, a progression never decreases"),
    ("tables.json", _negative_range,
     "data/tables.json: cost_tables.0.rows.1.pp: Input should be greater than or equal to 0"),
    ("tables.json", _wrong_example_total,
     "data/tables.json: wall_examples.0: Value error, components do not add up"),
    ("catalogue.json", _unknown_kind, "data/catalogue.json: entries.0.kind: Input should be"),
    ("catalogue.json", _band_gap,
     "levels.bands: Value error, bands must run on from 4 without gaps"),
    ("catalogue.json", _bad_format, "levels.per_level.format: Value error, format must contain"),
    ("catalogue.json", _unlisted_entry, "Active Buff Catalogue lists unknown active_buff 'no_such_buff'"),
    ("power_types.json", _uneven_curve,
     "data/power_types.json: types.0: Value error, base_curve must rise by per_level_pp"),
    ("summons.json", _extra_base_stat, "data/summons.json: base.mana: Extra inputs are not permitted"),
    ("summons.json", _unknown_upgrade, "data/summons.json: (top level): Value error, Scout Owl: unknown upgrade"),
]  # fmt: skip


@pytest.fixture
def data_copy(tmp_path: Path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(DATA_DIR, target)
    return target


def _edit(folder: Path, name: str, mutate: Callable[[Json], None]) -> None:
    path = folder / name
    data = json.loads(path.read_text(encoding="utf-8"))
    mutate(data)
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


@pytest.mark.parametrize(("name", "mutate", "message"), CASES, ids=[c[2][:60] for c in CASES])
def test_a_bad_field_names_file_and_field(
    data_copy: Path, name: str, mutate: Callable[[Json], None], message: str
) -> None:
    """A malformed data file does not stop loading with its file and field in one line."""
    _edit(data_copy, name, mutate)
    with pytest.raises(CatalogueError) as raised:
        load_catalogue(data_copy)
    assert message in raised.value.message
    assert raised.value.message.startswith(f"data/{name}: ")
    assert "\n" not in raised.value.message
    assert isinstance(raised.value, TablehandError)


def test_an_unknown_cost_table_is_named(data_copy: Path) -> None:
    """An entry's level table naming a missing cost table is not reported with file and field."""

    def mutate(data: Json) -> None:
        entry = next(e for e in data["entries"] if e["key"] == "special_aura")
        entry["levels"]["table"] = "nope"

    _edit(data_copy, "catalogue.json", mutate)
    with pytest.raises(CatalogueError, match=r"data/catalogue.json: entries\.\d+\.levels\.table"):
        load_catalogue(data_copy)


def test_a_progression_above_the_curve_is_refused(data_copy: Path) -> None:
    """A costed progression that buys more than its level's target loads anyway."""

    def mutate(data: Json) -> None:
        entry = next(e for e in data["entries"] if e["key"] == "special_aura")
        entry["levels"]["values"][3] = 3  # 80 + 20 PP at Level 4, target 80

    _edit(data_copy, "catalogue.json", mutate)
    with pytest.raises(CatalogueError, match=r"values\.3: 3 costs more than the Level 4 target"):
        load_catalogue(data_copy)


def test_the_movement_list_must_match_movement_json(data_copy: Path) -> None:
    """A Movement catalogue list that misses a movement type loads anyway."""

    def mutate(data: Json) -> None:
        listing = next(lst for lst in data["lists"] if lst["kind"] == "movement")
        listing["groups"][0]["entries"].remove("trample")

    _edit(data_copy, "catalogue.json", mutate)
    with pytest.raises(CatalogueError, match=r"lists\.3\.groups"):
        load_catalogue(data_copy)


def test_invalid_json_is_named(data_copy: Path) -> None:
    """A file that is not JSON is not reported with its name and position."""
    (data_copy / "tables.json").write_text('{"constants": ', encoding="utf-8")
    with pytest.raises(CatalogueError, match=r"^data/tables.json: invalid JSON at line 1 column"):
        load_catalogue(data_copy)


def test_a_missing_file_is_named(data_copy: Path) -> None:
    """A missing data file is not reported by name."""
    (data_copy / "summons.json").unlink()
    with pytest.raises(CatalogueError, match=r"^data/summons.json: cannot be read"):
        load_catalogue(data_copy)
