"""data/ is regenerated from the SRD text in docs/srd/: the committed files match, edits follow."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from bot.catalogue.generate import main, read_data, regenerate, render, stale_files
from bot.catalogue.models import DATA_DIR, FILE_NAMES, load_catalogue
from bot.catalogue.srd_source import SrdFormatError, SrdText

SRD = SrdText.load()


def regenerated_with(old: str, new: str) -> dict:
    """Regenerate data/ from the SRD with one passage of its text replaced."""
    assert SRD.text.count(old) >= 1, old
    return regenerate(SrdText(SRD.text.replace(old, new, 1)), read_data())


def test_committed_data_matches_the_srd() -> None:
    """A data file differs from what `python -m bot.catalogue.generate` makes of docs/srd/."""
    assert stale_files(SRD) == []


def test_check_command_passes_on_the_repository() -> None:
    """`python -m bot.catalogue.generate --check` fails on the committed data."""
    assert main(["--check"]) == 0


def test_check_command_names_a_stale_file(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """A hand edit of an SRD figure in data/ is not caught by --check, or regenerating misses it."""
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data)
    specials = data / "specials.json"
    specials.write_text(
        specials.read_text("utf-8").replace('"start_pp": 4,', '"start_pp": 5,', 1), "utf-8"
    )
    assert main(["--check", "--data", str(data)]) == 1
    assert "data/specials.json differs from the SRD" in capsys.readouterr().out
    assert main(["--data", str(data)]) == 0
    assert stale_files(SRD, data) == []
    assert specials.read_text("utf-8") == (DATA_DIR / "specials.json").read_text("utf-8")


@pytest.mark.parametrize(
    ("old", "new", "path", "value"),
    [
        # Diminishing Effects — Costs: Ruin(X) Start PP 4
        ("| **Ruin(X)** | **4** |", "| **Ruin(X)** | **5** |", ("specials", "ruin", "start_pp"), 5),
        # Timed Effects — Costs: Stunned 120 PP
        (
            "| **Stunned** | **120 PP** |",
            "| **Stunned** | **130 PP** |",
            ("specials", "stunned", "fixed_pp"),
            130,
        ),
        # Instant Effects — Costs: Penetration 7.5 × X PP
        (
            "| **Penetration(X)** | **7.5 × X PP** |",
            "| **Penetration(X)** | **8 × X PP** |",
            ("specials", "penetration", "pp_per_x"),
            8,
        ),
    ],
)
def test_a_special_price_follows_the_srd(old: str, new: str, path: tuple, value: float) -> None:
    """A Special's price in the SRD's effect tables does not reach specials.json."""
    fresh = regenerated_with(old, new)
    _, key, field = path
    special = next(s for s in fresh["specials"]["specials"] if s["key"] == key)
    assert special[field] == value


def test_range_steps_follow_the_srd() -> None:
    """SRD Pricing Rules 3) Range '16 m = +10 PP' does not reach the range table."""
    fresh = regenerated_with("- **16 m** = **+10 PP**", "- **16 m** = **+11 PP**")
    table = next(t for t in fresh["tables"]["cost_tables"] if t["key"] == "range")
    assert [(row["value"], row["pp"]) for row in table["rows"]] == [
        (8, 0),
        (12, 5),
        (16, 11),
        (20, 15),
    ]


def test_the_active_curve_follows_the_srd() -> None:
    """The Linear Continuation Rule's Active progression does not set the Active curve."""
    curve = " / ".join(str(30 * level) for level in range(1, 17))
    old = f"- **Active:** {curve}"
    shifted = " / ".join(str(30 * level + 5) for level in range(1, 17))
    fresh = regenerated_with(old, f"- **Active:** {shifted}")
    assert fresh["power_types"]["types"][0]["base_curve"] == [35, 65, 95, 125]
    bent = old.replace("30 / 60 / 90", "30 / 60 / 95")
    with pytest.raises(SrdFormatError, match="Active progression is not linear"):
        regenerated_with(old, bent)


def test_a_movement_progression_follows_the_srd() -> None:
    """A cell of 'Movement: Teleport' (Level 16: 16 m) does not reach movement.json."""
    old = "| **Distance** | 1 m | 2 m | 3 m | 4 m | 5 m | 6 m | 7 m | 8 m | 9 m | 10 m | 11 m | 12 m | 13 m | 14 m | 15 m | 16 m |"
    fresh = regenerated_with(old, old.replace("15 m | 16 m", "15 m | 17 m"))
    teleport = next(t for t in fresh["movement"]["types"] if t["key"] == "teleport")
    assert teleport["rows"][0]["values"][-1] == 17
    assert teleport["rows"][0]["cap"] == 17


def test_a_summon_example_follows_the_srd() -> None:
    """The Great War Bear's '+120 HP | 6 Tokens' line does not reach summons.json."""
    fresh = regenerated_with("| +120 HP | 6 Tokens |", "| +140 HP | 7 Tokens |")
    bear = next(e for e in fresh["summons"]["examples"] if e["key"] == "great_war_bear")
    assert bear["purchases"][0] == {"label": "+140 HP", "upgrade": "hp", "amount": 140, "tokens": 7}


def test_wall_rates_are_solved_from_the_examples() -> None:
    """The wall rates are not the ones the two worked examples imply (Bark 40 PP, Rampart 70 PP)."""
    walls = read_data()["tables"]["walls"]
    assert (walls["placement_pp"], walls["length_pp_per_step"], walls["length_step_m"]) == (
        10,
        5,
        2,
    )
    assert (walls["height_pp_per_step"], walls["thickness_pp_per_step"]) == (3, 2)
    assert (walls["line_of_sight_pp"], walls["duration_mastery_rank_rounds_pp"]) == (5, 15)
    assert (walls["resilience_pp_per_segment"], walls["segment_length_m"]) == (5, 2)
    fresh = regenerated_with("Placement 10 + Length (2 steps", "Placement 12 + Length (2 steps")
    assert fresh["tables"]["walls"]["placement_pp"] == 12


def test_a_missing_table_is_named() -> None:
    """An SRD without a table the generator needs gives no error naming it."""
    with pytest.raises(SrdFormatError, match="Image Tier Costs"):
        regenerated_with("#### Image Tier Costs", "#### Image Tiers")


def test_prose_is_left_alone() -> None:
    """Regenerating overwrote a hand-written summary or note."""
    fresh = regenerated_with("| **Ruin(X)** | **4** |", "| **Ruin(X)** | **5** |")
    before = next(s for s in read_data()["specials"]["specials"] if s["key"] == "ruin")
    after = next(s for s in fresh["specials"]["specials"] if s["key"] == "ruin")
    assert {k: v for k, v in after.items() if k != "start_pp"} == {
        k: v for k, v in before.items() if k != "start_pp"
    }


@pytest.mark.parametrize("name", list(FILE_NAMES.values()))
def test_render_keeps_the_json(name: str) -> None:
    """The generator's JSON layout changes a value, or runs past 100 columns where it could wrap."""
    value = json.loads((DATA_DIR / name).read_text("utf-8"))
    text = render(value)
    assert json.loads(text) == value
    for line in text.splitlines():
        stripped = line.strip().rstrip(",")
        if len(line) > 100:
            assert not stripped.endswith(("[", "{")), line


def test_regenerated_data_still_loads(tmp_path: Path) -> None:
    """Regenerated data does not pass the catalogue's own validation."""
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data)
    assert main(["--data", str(data)]) == 0
    assert load_catalogue(data).power_type("active").target(16) == 480
