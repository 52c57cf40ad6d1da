"""The design check of a whole Power (SRD §0.2–§0.3, §8.2, §8.7, §2, §9–§11): card and rules."""

from __future__ import annotations

import json

import pytest

from bot.catalogue.design import design_power, level_groups
from bot.catalogue.models import Catalogue
from bot.errors import BadInput


def rules(design: object) -> list[str]:
    """Return the rules a design breaks, in order."""
    return [v.rule for v in design.violations]


def test_the_card_of_a_conforming_power(catalogue: Catalogue) -> None:
    """A conforming Spell is not laid out as the SRD's card: title, flavour, table, tooltip."""
    card = design_power(
        catalogue, "Firebolt", "active", "damage:2d8 range:16 ruin:2", 3, "Spell, fire", "Flame."
    )
    # §8.6 Power Header Formatting Rule: "Firebolt (Active, Spell)"
    assert card.title == "Firebolt (Active, Spell, Fire)"
    assert card.flavour == "Flame."
    (row,) = card.rows
    assert (row.level, row.range, row.aoe, row.duration) == (3, "16 m", "—", "Instant")
    assert (row.specials, row.effect) == (("Ruin(2)",), "2d8 damage")
    # 2d8 = 2 × 15, 16 m = +10, Ruin(2) = 4 × T(2) = 12; Active Level 3 target 90
    assert card.calculation == (
        "L3 → damage:2d8 30 + range:16 10 + ruin:2 12 = 52 PP of 90 (under curve, 38 PP unused)",
    )
    assert card.baselines[0] == "Active curve = 30 / 60 / 90 / 120 PP, +30 PP per level to Level 16"
    assert card.violations == () and card.conforms


def test_the_design_is_plain_data_for_a_character_sheet(catalogue: Catalogue) -> None:
    """design_power's result cannot be stored: it is not plain, serialisable data (issue 18)."""
    card = design_power(catalogue, "Guard", "reaction", "armor:2 temp_hp:4", 2, None, "Brace.")
    stored = json.loads(card.model_dump_json())
    assert stored["title"] == "Guard (Reaction)"
    assert stored["rows"][0]["breakdown"]["total_pp"] == 31  # 2 × 7.5 + 4 × 4 (in combat)


def test_levels_one_to_four_define_the_structure(catalogue: Catalogue) -> None:
    """A rider added at Level 8, or a value that falls, is not named as breaking §2's Design Rule."""
    card = design_power(
        catalogue,
        "Cinder Storm",
        "active",
        "L1 ruin:1 radius:1 L4 ruin:2 radius:2 L8 ruin:1 radius:2 push:2",
        None,
        None,
        "Ash falls.",
    )
    assert [row.level for row in card.rows] == [1, 4, 8]
    assert "Power Progression Beyond Level 4; Design Rule" in rules(card)
    assert "§10.6 / §10.8 (values never decrease)" in rules(card)
    assert not card.conforms


def test_a_scaling_power_conforms_at_every_level(catalogue: Catalogue) -> None:
    """A Power that keeps its structure and only grows is flagged."""
    card = design_power(
        catalogue, "Ember", "active", "L1 damage:2d8 L4 damage:8d8 L9 damage:18d8", None, None, "."
    )
    assert card.violations == ()
    assert [r.breakdown.check.verdict for r in card.rows] == ["on_curve"] * 3


@pytest.mark.parametrize(
    ("type_name", "components", "tags", "rule"),
    [
        ("active_buff", "armor:2", "Spell", "§8.7 Validation Rule; Tag: Spell"),
        ("passive", "armor:2", "Charged", "8) Charged Powers; Passive Restrictions"),
        ("reaction", "armor:2", "Fire", "§8.7 Validation Rule"),
        ("active", "damage:1d8 ruin:1 slow:1 lacerate:1", None, "Special Limit Per Power (Level)"),
        ("active", "stunned ruin:2", None, "§10.18 Hard Control / Stunned Governance"),
        ("active_buff", "damage:2d8 critical", None, "Critical Restriction"),
        (
            "active_buff",
            "armor:2 damage:1d8",
            None,
            "Active Buff Governance — Canonical Catalogue Decisions",
        ),
        ("teleport", "damage:2d8", None, "Movement Restrictions"),
        ("teleport", "penetration:2", None, "Movement Restrictions"),
    ],
)
def test_governance_rules_are_named(
    catalogue: Catalogue, type_name: str, components: str, tags: str | None, rule: str
) -> None:
    """A design breaking an SRD governance rule is not told the rule and an alternative."""
    card = design_power(catalogue, "Test", type_name, components, 5, tags, "A test.")
    assert rule in rules(card)
    assert not card.conforms
    assert any(note.startswith(f"// SRD: {rule} — ") and "Instead: " in note for note in card.notes)


def test_a_capstone_may_stack_specials(catalogue: Catalogue) -> None:
    """A capstone is held to the one-primary-Special limit the SRD waives for it."""
    card = design_power(
        catalogue, "Apex", "active", "ruin:2 slow:2 lacerate:2 capstone", 4, None, "."
    )
    assert "Special Limit Per Power (Level)" not in rules(card)


def test_an_over_curve_power_does_not_conform(catalogue: Catalogue) -> None:
    """5d8 at Active Level 2 (75 of 60 PP) is called conforming."""
    card = design_power(catalogue, "Smash", "active", "damage:5d8", 2, None, "Hard.")
    assert card.violations == () and not card.conforms


def test_a_movement_power_is_its_progression(catalogue: Catalogue) -> None:
    """A Teleport at Level 5 does not show 5 m from the SRD's progression, with no PP curve."""
    card = design_power(catalogue, "Blink", "teleport", "charged", 5, None, "Gone.")
    assert card.title == "Blink (Movement: Teleport, Charged)"
    assert card.rows[0].distance == "5 m" and card.rows[0].duration == "Your Movement"
    assert "no PP curve" in card.baselines[1]
    assert card.conforms


def test_without_a_flavour_line_the_card_says_so(catalogue: Catalogue) -> None:
    """A card without its one flavour line (§8.2) does not say that it lacks one."""
    card = design_power(catalogue, "Plain", "active", "damage:1d8", 1)
    assert card.flavour == ""
    assert "flavour line" in card.notes[-1]


@pytest.mark.parametrize(
    ("components", "level", "message"),
    [
        ("damage:1d8", None, "Give the level, or write each level's parts as L1 … L4 …"),
        ("L1 damage:1d8", 3, "Give the level either as level or as L… groups"),
        ("L1 damage:1d8 L1 damage:2d8", None, "Each level may appear once"),
        ("L1 L2 damage:1d8", None, "Level 1 has no components."),
        ("L17 damage:1d8", None, "Level must be 1–16, not 17."),
    ],
)
def test_bad_level_groups(
    catalogue: Catalogue, components: str, level: int | None, message: str
) -> None:
    """Bad levels in a design are not refused in one clear line."""
    with pytest.raises(BadInput) as raised:
        design_power(catalogue, "Test", "active", components, level)
    assert message in raised.value.message


@pytest.mark.parametrize(
    ("name", "tags", "flavour", "message"),
    [
        ("x" * 61, None, None, "A Power's name is 1–60 characters."),
        ("Test", "Fire, <@1>", None, "A tag is a word or two of letters"),
        ("Test", "a, b, c, d, e, f", None, "Give at most 5 tags."),
        ("Test", None, "y" * 201, "The flavour line is at most 200 characters."),
    ],
)
def test_bad_names_tags_and_flavour(
    catalogue: Catalogue, name: str, tags: str | None, flavour: str | None, message: str
) -> None:
    """An oversized name, tag list or flavour line is accepted."""
    with pytest.raises(BadInput, match=message.replace(".", r"\.")):
        design_power(catalogue, name, "active", "damage:1d8", 1, tags, flavour)


def test_flags_before_the_first_level_apply_to_every_level() -> None:
    """'charged L1 … L4 …' does not carry Charged into each level."""
    assert level_groups("charged L1 damage:1d8 L4 damage:4d8", None) == [
        (1, "charged damage:1d8"),
        (4, "charged damage:4d8"),
    ]
