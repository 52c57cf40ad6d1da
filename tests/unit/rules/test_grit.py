"""Grit levels, the core die, the Grit table and the one function that writes Grit [GAME.md §2]."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.errors import BadInput
from bot.rules.grit import (
    GRIT_TABLE,
    GritLevel,
    change_grit,
    core_die,
    grit_level,
    perception_m,
    shift_die,
)
from bot.rules.models import ActiveSpecial
from tests.unit.rules.factories import character, combatant


@pytest.mark.parametrize(
    ("grit", "level", "die"),
    [
        (30, GritLevel.PRIME, 20),
        (21, GritLevel.PRIME, 20),
        (20, GritLevel.REDUCED, 12),
        (11, GritLevel.REDUCED, 12),
        (10, GritLevel.FRAIL, 10),
        (1, GritLevel.FRAIL, 10),
        (0, GritLevel.BROKEN, None),
    ],
)
def test_grit_points_set_the_level_and_the_core_die(
    grit: int, level: GritLevel, die: int | None
) -> None:
    """Grit 21+ is not Prime/d20, 11–20 Reduced/d12, 1–10 Frail/d10, 0 Broken (cannot act)."""
    assert grit_level(grit) is level
    assert core_die(grit) == die


@pytest.mark.parametrize(
    ("level", "display"),
    [
        (GritLevel.PRIME, "Prime"),
        (GritLevel.REDUCED, "Reduced"),
        (GritLevel.FRAIL, "Frail"),
        (GritLevel.BROKEN, "Broken"),
    ],
)
def test_grit_levels_have_display_names(level: GritLevel, display: str) -> None:
    """A Grit level's display name is not its capitalised name."""
    assert level.display == display


@pytest.mark.parametrize(
    ("grit", "shift", "die"),
    [(30, 1, 12), (30, 2, 10), (30, 5, 10), (15, 1, 10), (5, 1, 10), (0, 1, None)],
)
def test_a_situational_shift_moves_the_die_down_never_below_d10(
    grit: int, shift: int, die: int | None
) -> None:
    """A shift does not move d20 → d12 → d10, stopping at d10, or a Broken combatant gets a die."""
    assert core_die(grit, shift) == die


def test_a_negative_shift_is_refused() -> None:
    """A negative die shift is accepted instead of raising BadInput."""
    with pytest.raises(BadInput):
        shift_die(20, -1)


def test_negative_grit_is_refused() -> None:
    """Negative Grit is given a level instead of raising BadInput."""
    with pytest.raises(BadInput):
        grit_level(-1)


@pytest.mark.parametrize(
    ("level", "threat", "mobility", "vigor", "perception"),
    [
        (GritLevel.PRIME, 20, 8, 10, 10),
        (GritLevel.REDUCED, 10, 4, 8, 8),
        (GritLevel.FRAIL, None, 2, 6, 6),
        (GritLevel.BROKEN, None, 0, 6, 6),
    ],
)
def test_the_grit_table_matches_the_dice_and_grit_document(
    level: GritLevel, threat: int | None, mobility: int, vigor: int, perception: int
) -> None:
    """The Grit table's Threat/Mobility/Vigor/Perception differ from [002] (Broken: Frail's, Mobility 0)."""
    row = GRIT_TABLE[level]
    assert (row.threat_m, row.mobility_m, row.vigor_m, row.perception_m) == (
        threat,
        mobility,
        vigor,
        perception,
    )


@pytest.mark.parametrize(("grit", "expected"), [(30, 10), (15, 8), (5, 6)])
def test_perception_comes_from_the_grit_table_by_default(grit: int, expected: int) -> None:
    """Perception without an explicit value is not the Grit table's."""
    assert perception_m(combatant(grit=grit)) == expected


def test_an_explicit_perception_overrides_the_table() -> None:
    """An explicit Perception is ignored in favour of the Grit table."""
    assert perception_m(combatant(grit=30, perception_m=14)) == 14


def test_damage_crossing_a_boundary_announces_the_drop() -> None:
    """Damage from 25 to 18 does not report a drop to Reduced with a d12."""
    mira = combatant(grit=25)
    change = change_grit(mira, damage=7)
    assert mira.grit == 18
    assert (change.grit_before, change.grit_after, change.delta) == (25, 18, -7)
    assert (change.level_before, change.level_after) == (GritLevel.PRIME, GritLevel.REDUCED)
    assert (change.die_before, change.die_after) == (20, 12)
    assert change.crossed
    assert change.announcement == "drops"


def test_damage_within_a_level_announces_nothing() -> None:
    """Damage that stays within Prime announces a level change."""
    change = change_grit(combatant(grit=30), damage=5)
    assert not change.crossed
    assert change.announcement is None


def test_reaching_zero_breaks_and_records_an_injury() -> None:
    """Damage to 0 does not clamp at 0, announce Broken and record one Injury."""
    mira = combatant(grit=6)
    change = change_grit(mira, damage=40)
    assert mira.grit == 0
    assert mira.injuries == 1
    assert change.injured
    assert change.announcement == "broken"
    assert change.die_after is None


def test_damage_at_zero_records_no_second_injury() -> None:
    """Damage to a combatant already at 0 Grit records another Injury."""
    mira = combatant(grit=0)
    change = change_grit(mira, damage=3)
    assert mira.injuries == 0
    assert not change.injured
    assert change.announcement is None


def test_healing_from_zero_puts_them_back_on_their_feet() -> None:
    """Healing a Broken combatant to 4 is not announced as back on their feet at Frail."""
    mira = combatant(grit=0)
    change = change_grit(mira, heal=4)
    assert (mira.grit, change.level_after, change.die_after) == (4, GritLevel.FRAIL, 10)
    assert change.announcement == "back_on_feet"


def test_healing_is_clamped_to_the_maximum() -> None:
    """Healing raises Grit above its maximum."""
    mira = combatant(grit=18, max_grit=30)
    change = change_grit(mira, heal=50)
    assert mira.grit == 30
    assert change.announcement == "rises"


def test_blight_lowers_healing_received_by_x() -> None:
    """Blight(3) does not withhold 3 of 5 healing [GAME.md §7]."""
    mira = combatant(grit=10, specials=[ActiveSpecial(name="Blight", x=3)])
    change = change_grit(mira, heal=5)
    assert (mira.grit, change.blight) == (12, 3)


def test_blight_never_turns_healing_into_damage() -> None:
    """Blight larger than the healing lowers Grit."""
    mira = combatant(grit=10, specials=[ActiveSpecial(name="Blight", x=9)])
    change = change_grit(mira, heal=2)
    assert (mira.grit, change.blight) == (10, 2)


def test_setting_grit_above_a_new_maximum_clamps_to_it() -> None:
    """Setting max 20 and Grit 25 does not leave Grit 20 of 20."""
    mira = combatant(grit=30)
    change = change_grit(mira, set_to=25, max_grit=20)
    assert (mira.grit, mira.max_grit) == (20, 20)
    assert (change.max_before, change.max_after) == (30, 20)


def test_lowering_the_maximum_alone_clamps_grit() -> None:
    """Lowering the maximum below current Grit leaves Grit above it."""
    mira = combatant(grit=30)
    change = change_grit(mira, max_grit=15)
    assert (mira.grit, change.kind, change.announcement) == (15, "max", "drops")


def test_change_grit_works_on_a_character() -> None:
    """A Character's Grit cannot be changed the same way as a Combatant's."""
    hero = character(grit=12)
    change_grit(hero, damage=12)
    assert (hero.grit, hero.injuries) == (0, 1)


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"damage": 1, "heal": 1}, {"damage": -1}, {"heal": -2}, {"set_to": -3}, {"max_grit": 0}],
    ids=["nothing", "two-ways", "negative-damage", "negative-heal", "negative-set", "zero-max"],
)
def test_contradictory_or_negative_changes_are_refused(kwargs: dict[str, int]) -> None:
    """A malformed Grit change is applied instead of raising BadInput."""
    with pytest.raises(BadInput):
        change_grit(combatant(), **kwargs)


@given(
    grit=st.integers(0, 60),
    max_grit=st.integers(1, 60),
    damage=st.integers(0, 100),
)
def test_damage_keeps_grit_within_zero_and_the_maximum(
    grit: int, max_grit: int, damage: int
) -> None:
    """Damage left Grit outside 0..max or changed it by more than the damage."""
    target = combatant(grit=min(grit, max_grit), max_grit=max_grit)
    change = change_grit(target, damage=damage)
    assert 0 <= target.grit <= target.max_grit
    assert -damage <= change.delta <= 0
