"""Attack rolls, defenses, outcomes and damage [GAME.md §4, 000, 002, 003]."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.errors import BadInput, DiceError, RuleViolation
from bot.rules.attack_flow import Settled, settle_attack
from bot.rules.attacks import (
    ALTITUDE_DAMAGE,
    AttackResult,
    AttackSpec,
    default_strategy,
    defense_options,
    momentum,
    range_modifier,
    resolve_attack,
    roll_attack,
    thrown_range,
)
from bot.rules.long_actions import start_long_action
from bot.rules.models import ActiveSpecial, Combatant, Declaration, DefenseStrategy, Encounter
from tests.scripted import ScriptedRandom, d20
from tests.unit.rules.factories import combatant


def _attack(
    seed: int,
    attacker: Combatant,
    defender: Combatant | None,
    spec: AttackSpec,
    strategy: DefenseStrategy | None = None,
    **kwargs: object,
) -> AttackResult:
    rng = random.Random(seed)
    return resolve_attack(
        roll_attack(attacker, spec, rng), attacker, defender, strategy, spec, rng, **kwargs
    )


def _settle(
    seed: int,
    attacker: Combatant,
    defender: Combatant,
    spec: AttackSpec,
    strategy: DefenseStrategy | None = None,
) -> Settled:
    """Roll and settle an attack in a fight of the two, as the bot does after a defense."""
    encounter = Encounter(channel_id=1, gm_id=1, combatants=[attacker, defender])
    rng = random.Random(seed)
    roll = roll_attack(attacker, spec, rng)
    return settle_attack(encounter, "a1", attacker, defender, spec, roll, rng, strategy=strategy)


def _pair(**attacker: object) -> tuple[Combatant, Combatant]:
    return combatant("Mira", id=1, **attacker), combatant("Goblin", id=2, physical=3)


# Tables quoted from the documents.


@pytest.mark.parametrize(
    ("size", "penalty"), [("large", 0), ("limbs", 5), ("head", 10), ("small", 15), ("precise", 20)]
)
def test_targeted_melee_subtracts_the_target_size(size: str, penalty: int) -> None:
    """Targeted melee does not subtract 0/5/10/15/20 for large/limbs/head/small/precise [000]."""
    mira = combatant(finesse=4, physical=9)
    roll = roll_attack(mira, AttackSpec(style="targeted", target_size=size), random.Random(0))
    assert roll.attribute == "finesse"
    assert roll.value == roll.core.total + 4 - penalty


@pytest.mark.parametrize(("level", "penalty"), [(1, 5), (2, 10), (3, 15), (4, 20)])
def test_special_targeting_subtracts_by_level(level: int, penalty: int) -> None:
    """Special targeting level 1–4 does not subtract 5/10/15/20 from a ranged attack [000]."""
    roll = roll_attack(
        combatant(finesse=4), AttackSpec(style="ranged", special_targeting=level), random.Random(0)
    )
    assert roll.value == roll.core.total + 4 - penalty


@pytest.mark.parametrize(("level", "bonus"), [(1, 5), (2, 10), (3, 15), (4, 20)])
def test_cover_adds_to_a_ranged_block(level: int, bonus: int) -> None:
    """Cover level 1–4 does not add 5/10/15/20 to a ranged block [000]."""
    mira, goblin = _pair(finesse=99)
    result = _attack(0, mira, goblin, AttackSpec(style="ranged", cover=level, distance=1), "block")
    assert result.defense is not None
    assert result.defense.cover == bonus


@pytest.mark.parametrize(("level", "value"), [(1, 10), (2, 20), (3, 30), (4, 40)])
def test_taking_cover_doubles_cover_without_a_roll(level: int, value: int) -> None:
    """Taking cover is not cover × 2 with no roll [000]."""
    mira, goblin = _pair(finesse=99)
    spec = AttackSpec(style="ranged", cover=level, distance=1)
    result = _attack(0, mira, goblin, spec, "take_cover")
    assert result.defense is not None
    assert result.defense.core is None
    assert result.defense_value == value


@pytest.mark.parametrize(
    ("kind", "spaces", "bonus"),
    [
        ("short", 0, 0),
        ("short", 1, 1),
        ("short", 7, 7),
        ("long", 0, 0),
        ("long", 1, 0),
        ("long", 5, 0),
        ("long", 6, 1),
        ("long", 10, 1),
        ("long", 11, 2),
        ("long", 15, 2),
        ("long", 16, 3),
        ("bow", 1, 0),
        ("bow", 5, 0),
        ("bow", 6, 1),
        ("bow", 10, 1),
        ("bow", 11, 2),
        ("bow", 15, 2),
        ("bow", 16, 3),
    ],
)
def test_range_modifiers(kind: str, spaces: int, bonus: int) -> None:
    """Range is not short +1/space; long and bows 0 for 1–5, +1 for 6–10, +2 for 11–15 [003, §10]."""
    assert range_modifier(kind, spaces) == bonus  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("physical", "weight", "spaces"), [(6, 2, 3), (7, 2, 3), (5, 0.5, 10), (1, 3, 0)]
)
def test_thrown_range_is_physical_over_weight(physical: int, weight: float, spaces: int) -> None:
    """A thrown weapon's range is not Physical ÷ weight, rounded down [000]."""
    assert thrown_range(physical, weight) == spaces


@pytest.mark.parametrize(("spaces", "bonus"), [(0, 0), (2, 0), (3, 1), (28, 9)])
def test_momentum_is_one_per_three_spaces(spaces: int, bonus: int) -> None:
    """Momentum is not +1 damage per 3 spaces (the knight's 28 spaces give +9) [003]."""
    assert momentum(spaces) == bonus


@pytest.mark.parametrize(
    ("altitude", "dice", "withering"),
    [
        (1, ("1d10",), False),
        (2, ("1d12",), False),
        (3, ("1d20",), False),
        (4, ("2d20",), False),
        (5, ("3d20",), False),
        (6, (), True),
        (7, ("1d10",), True),
        (8, ("1d20",), True),
    ],
)
def test_the_altitude_table(altitude: int, dice: tuple[str, ...], withering: bool) -> None:
    """The altitude damage table differs from [002]."""
    assert (ALTITUDE_DAMAGE[altitude].dice, ALTITUDE_DAMAGE[altitude].withering) == (
        dice,
        withering,
    )


# Defense options.


@pytest.mark.parametrize(
    ("spec", "options"),
    [
        ({"style": "melee"}, ["block", "dodge", "break_away"]),
        ({"style": "unarmed"}, ["block", "dodge", "break_away"]),
        ({"style": "ranged", "distance": 3}, ["block", "dodge"]),
        ({"style": "ranged", "distance": 3, "cover": 1}, ["block", "dodge", "take_cover"]),
        (
            {"style": "thrown", "distance": 1, "cover": 3, "weight": 1},
            ["block", "dodge", "take_cover"],
        ),
        ({"style": "ranged", "distance": 0}, ["block", "dodge", "break_away"]),
    ],
    ids=["melee", "unarmed", "ranged", "ranged-behind-cover", "thrown-behind-cover", "point-blank"],
)
def test_defense_options_by_style(spec: dict, options: list[str]) -> None:
    """The defenses are not block/dodge/break away vs melee and point-blank, block/dodge/(take cover) vs ranged [000]."""
    assert defense_options(combatant(), AttackSpec(**spec)) == options


@pytest.mark.parametrize(
    ("default", "style", "stamina", "strategy"),
    [
        ("auto", "melee", None, "block"),
        ("auto", "ranged", None, "dodge"),
        ("auto", "ranged", 0, "block"),
        ("dodge", "melee", None, "dodge"),
        ("break_away", "ranged", None, "dodge"),
        ("take_cover", "ranged", None, "dodge"),
    ],
)
def test_default_strategy(default: str, style: str, stamina: int | None, strategy: str) -> None:
    """The default defense is not the combatant's own when open, else block vs melee, dodge vs ranged."""
    defender = combatant(default_defense=default, stamina=stamina)
    spec = AttackSpec(style=style, distance=0 if style == "melee" else 4)  # type: ignore[arg-type]
    assert default_strategy(defender, spec) == strategy


# Outcomes, with seeds.


def test_a_melee_hit_deals_weapon_damage() -> None:
    """Seed 6: 19 + Physical 3 = 22 against a block of 3 + 3 = 6 did not hit for 1d8+2 = 10."""
    mira, goblin = _pair(physical=3)
    result = _attack(6, mira, goblin, AttackSpec(damage="1d8+2"), "block")
    assert result.defense is not None and result.defense.core is not None
    assert (result.attack.core.natural, result.attack_value) == (19, 22)
    assert (result.defense.core.natural, result.defense.attribute, result.defense_value) == (
        3,
        "physical",
        6,
    )
    assert result.outcome == "hit"
    assert result.damage is not None
    assert (result.damage.parts[0].faces, result.damage_dealt) == ([8], 10)


def test_ties_go_to_the_defender() -> None:
    """Seed 26: an attack of 10 against a defense of 10 was a hit [000, 002]."""
    mira, goblin = _pair(physical=3)
    result = _attack(26, mira, goblin, AttackSpec(), "block")
    assert (result.attack_value, result.defense_value) == (10, 10)
    assert result.outcome == "miss"
    assert result.damage is None


def test_a_critical_hits_automatically_with_an_extra_core_die() -> None:
    """Seed 5's natural 20 did not hit without a defense roll and add a d20 (12) to 1d8+2 (7)."""
    mira, goblin = _pair(physical=3)
    result = _attack(5, mira, goblin, AttackSpec(damage="1d8+2"), "block")
    assert (result.outcome, result.auto_reason, result.defense) == ("auto_hit", "critical", None)
    assert result.damage is not None
    assert [(p.name, p.value) for p in result.damage.parts] == [("Weapon", 7), ("Critical", 12)]
    assert result.damage_dealt == 19


def test_a_natural_one_misses_and_offers_a_counter() -> None:
    """Seed 31's natural 1 did not miss automatically and offer the defender a counter [000]."""
    mira, goblin = _pair(physical=3)
    result = _attack(31, mira, goblin, AttackSpec(), "block")
    assert (result.outcome, result.auto_reason) == ("auto_miss", "risk_failure")
    assert result.counter_opportunity
    assert result.defense is None


def test_a_risk_failure_above_one_misses_without_a_counter() -> None:
    """A Great Axe's natural 2 (Risk 3) did not miss, or offered a counter."""
    mira, goblin = _pair(physical=30)
    result = _attack(2, mira, goblin, AttackSpec(base_risk=3), "block")
    assert result.attack.core.natural == 2
    assert result.outcome == "auto_miss"
    assert not result.counter_opportunity


def test_without_a_weapon_damage_is_the_core_face_plus_explosions() -> None:
    """Seed 5's exploding 20 → 9 did not deal 29 plus the critical d20 (12) [002]."""
    mira, goblin = _pair(physical=3)
    result = _attack(5, mira, goblin, AttackSpec(explode=True), "block")
    assert result.damage is not None
    assert result.damage.parts[0].faces == [20, 9]
    assert result.damage_dealt == 29 + 12


def test_a_defenders_risk_failure_leaves_only_its_modifiers() -> None:
    """Seed 15: a defender's natural 1 did not leave a defense of its +2 modifier only."""
    mira = combatant("Mira", id=1, physical=3)
    goblin = combatant("Goblin", id=2, physical=5)
    result = _attack(15, mira, goblin, AttackSpec(defense_modifier=2), "block")
    assert result.defense is not None and result.defense.core is not None
    assert result.defense.core.natural == 1
    assert result.defense_value == 2
    assert result.outcome == "hit"


def test_break_away_uses_the_higher_attribute_minus_directions_blocked() -> None:
    """Seed 0: break away did not use Finesse 5 (over Physical 1), 14 + 5 − 2 blocked = 17 [000]."""
    mira = combatant("Mira", id=1, physical=2)
    goblin = combatant("Goblin", id=2, physical=1, finesse=5)
    result = _attack(0, mira, goblin, AttackSpec(directions_blocked=2), "break_away")
    assert result.defense is not None
    assert (result.defense.attribute, result.defense_value) == ("finesse", 17)


def test_a_ranged_dodge_adds_finesse_cover_and_range_and_costs_stamina() -> None:
    """Seed 0: ranged dodge is not 14 + Finesse 4 + cover 5 + range 1 − 1 blocked = 23, costing 1 stamina."""
    mira = combatant("Mira", id=1, finesse=2)
    goblin = combatant("Goblin", id=2, finesse=4, stamina=3)
    spec = AttackSpec(style="ranged", cover=1, directions_blocked=1, distance=6)
    result = _settle(0, mira, goblin, spec, "dodge").result
    assert result.defense_value == 23
    assert result.stamina_spent == 1
    assert goblin.stamina == 2


def test_penetration_above_durability_reduces_damage_and_wears_the_item() -> None:
    """Seed 6: penetration 5 against a shield of 2 did not lower the attack by 5, deal 6 − 2 and wear it [000]."""
    mira = combatant("Mira", id=1, finesse=10)
    goblin = combatant("Goblin", id=2, durability=2)
    spec = AttackSpec(style="ranged", penetration=5, damage="6", distance=3, cover=1)
    settled = _settle(6, mira, goblin, spec, "block")
    result = settled.result
    assert [(m.name, m.value) for m in result.attack_modifiers] == [("Penetration", -5)]
    assert result.attack_value == result.attack.value - 5
    assert result.damage is not None
    assert (result.damage.subtotal, result.damage.reduced_by, result.damage_dealt) == (6, 2, 4)
    assert result.durability_loss == 1
    assert (goblin.durability, goblin.grit, settled.grit.delta if settled.grit else None) == (
        1,
        26,
        -4,
    )


def test_penetration_not_above_durability_stops_the_damage() -> None:
    """Seed 0: penetration 5 against durability 5 still dealt damage [000]."""
    mira = combatant("Mira", id=1, finesse=10)
    goblin = combatant("Goblin", id=2, durability=5)
    result = _attack(
        0, mira, goblin, AttackSpec(style="ranged", penetration=5, damage="6"), "block"
    )
    assert result.outcome == "hit"
    assert result.damage is not None and result.damage.stopped
    assert result.damage_dealt == 0
    assert result.durability_loss == 1


def test_taking_cover_weighs_penetration_against_the_covers_durability() -> None:
    """Seed 0: taking cover (2 → 20) with cover durability 3 against penetration 4 did not deal 6 − 3."""
    mira = combatant("Mira", id=1, finesse=10)
    goblin = combatant("Goblin", id=2)
    spec = AttackSpec(
        style="ranged", cover=2, cover_durability=3, penetration=4, damage="6", distance=1
    )
    result = _attack(0, mira, goblin, spec, "take_cover")
    assert (result.attack_value, result.defense_value, result.damage_dealt) == (23, 20, 3)
    assert result.durability_loss == 0


def test_a_surprised_defender_has_six_plus_range() -> None:
    """Seed 0: a surprised defender at 12 spaces (long range 2) did not defend with 8 [003]."""
    mira = combatant("Mira", id=1, finesse=2)
    goblin = combatant("Goblin", id=2, finesse=9)
    result = _attack(
        0, mira, goblin, AttackSpec(style="ranged", distance=12, surprised=True), "dodge"
    )
    assert result.defense is not None
    assert (result.defense.no_roll, result.defense.core, result.defense_value) == (
        "surprised",
        None,
        8,
    )


def test_a_fixed_object_has_three_plus_range() -> None:
    """Seed 0: a fixed object at 10 spaces did not have defense 3 + 1 [003]."""
    mira = combatant("Mira", id=1, finesse=2)
    result = _attack(0, mira, None, AttackSpec(style="ranged", distance=10, fixed_object=True))
    assert (result.defense_value, result.outcome) == (4, "hit")


def test_a_counter_attacks_target_defends_with_modifiers_only() -> None:
    """Seed 0: the target of a counter-attack rolled a defense instead of using its +3 sacrifice only [000]."""
    mira = combatant("Mira", id=1, physical=2)
    goblin = combatant("Goblin", id=2, physical=9, sacrifices={"defense": 1})
    result = _attack(0, mira, goblin, AttackSpec(counter=True, damage="4"), "block")
    assert result.defense is not None
    assert (result.defense.no_roll, result.defense_value, result.outcome) == ("counter", 3, "hit")


def test_a_focused_long_action_gives_no_defense_and_resets_progress() -> None:
    """An attack on a focused long action allowed a defense or left its progress [000]."""
    mira = combatant("Mira", id=1, physical=2)
    goblin = combatant("Goblin", id=2, physical=9)
    start_long_action(goblin, "Ritual", "focused", 3)
    goblin.declaration = Declaration(text="Ritual", kind="long")  # performing it this round
    assert goblin.long_action is not None
    goblin.long_action.progress = 2
    settled = _settle(0, mira, goblin, AttackSpec(damage="4"), "block")
    assert settled.result.defense is not None
    assert (settled.result.defense.no_roll, settled.result.defense_value) == (
        "focused_long_action",
        0,
    )
    assert settled.long_action is not None and settled.long_action.progress_after == 0
    assert goblin.long_action.progress == 0


def test_a_cumulative_long_action_is_hit_automatically() -> None:
    """An attack on a cumulative long action did not hit automatically [000]."""
    mira = combatant("Mira", id=1, physical=2)
    goblin = combatant("Goblin", id=2, physical=9)
    start_long_action(goblin, "Dig", "cumulative", 3)
    goblin.declaration = Declaration(text="Dig", kind="long")  # performing it this round
    result = _attack(0, mira, goblin, AttackSpec(damage="4"), "block")
    assert (result.outcome, result.auto_reason, result.defense) == (
        "auto_hit",
        "cumulative_long_action",
        None,
    )
    assert result.damage_dealt == 4


def test_a_hidden_melee_attacker_gets_plus_four_and_double_damage() -> None:
    """Seed 0: a hidden melee attack did not get Stealth +4 and deal 5 × 2 [000, 002]."""
    mira = combatant("Mira", id=1, physical=2)
    goblin = combatant("Goblin", id=2)
    result = _attack(0, mira, goblin, AttackSpec(stealth=True, damage="5"), "block")
    assert [(m.name, m.value) for m in result.attack.modifiers] == [("Stealth", 4)]
    assert result.damage is not None and result.damage.doubled == "stealth"
    assert result.damage_dealt == 10


def test_a_hidden_ranged_attack_deals_normal_damage() -> None:
    """A hidden ranged attack doubled its damage; only melee does [002]."""
    mira = combatant("Mira", id=1, finesse=30)
    spec = AttackSpec(style="ranged", stealth=True, damage="5", distance=3)
    result = _attack(0, mira, combatant("Goblin", id=2), spec)
    assert result.damage is not None
    assert (result.damage.doubled, result.damage_dealt) == (None, 5)


def test_the_knights_charge_adds_momentum() -> None:
    """The knight's lance (9 + 4) after 28 spaces did not deal 22 [003]."""
    knight = combatant("Knight", id=1, physical=2)
    soldier = combatant("Soldier", id=2)
    result = _attack(0, knight, soldier, AttackSpec(damage="9+4", charge_spaces=28), "block")
    assert result.damage is not None
    assert [(m.name, m.value) for m in result.damage.momentum] == [("Momentum", 9)]
    assert result.damage_dealt == 22


def test_a_charger_hit_by_a_melee_weapon_takes_its_momentum_too() -> None:
    """The spearman's pike (1 + 9) against the charging knight did not deal 19 [003]."""
    spearman = combatant("Spearman", id=1, physical=2)
    knight = combatant("Knight", id=2)
    result = _attack(
        0, spearman, knight, AttackSpec(damage="1+9", defender_charge_spaces=28), "block"
    )
    assert result.damage_dealt == 19


def test_altitude_adds_dice_and_a_withering_note() -> None:
    """Seed 0: altitude 7 did not add 1d10 (1) and call for a Withering roll [002]."""
    mira = combatant("Mira", id=1, physical=2)
    result = _attack(
        0, mira, combatant("Goblin", id=2), AttackSpec(damage="5", altitude=7), "block"
    )
    assert result.damage is not None
    assert [(p.name, p.value) for p in result.damage.parts] == [("Weapon", 5), ("Altitude 7", 1)]
    assert result.damage.withering
    assert result.damage_dealt == 6


def test_unarmed_damage_is_physical() -> None:
    """Seed 0: an unarmed hit did not deal the attacker's Physical (6) [000]."""
    mira = combatant("Mira", id=1, physical=6)
    result = _attack(0, mira, combatant("Goblin", id=2), AttackSpec(style="unarmed"), "block")
    assert result.damage_dealt == 6


def test_extra_damage_dice_are_added_to_a_hit() -> None:
    """Seed 0: extra damage dice (Hex's 2d8 → 1, 5) were not added to the hit."""
    mira = combatant("Mira", id=1, physical=9)
    result = _attack(
        0,
        mira,
        combatant("Goblin", id=2),
        AttackSpec(damage="3"),
        "block",
        extra_damage_dice=["2d8"],
    )
    assert result.damage is not None
    assert result.damage.parts[1].faces == [1, 5]
    assert result.damage_dealt == 9


@pytest.mark.parametrize(
    ("attacker", "defender", "style", "attack", "defense"),
    [
        ({"prone": False}, {"prone": True}, "melee", [("Target prone", 3)], []),
        (
            {"prone": False},
            {"prone": True},
            "ranged",
            [],
            [("Range", 1), ("Prone against ranged", 3)],
        ),
        ({"prone": True}, {"prone": False}, "melee", [], [("Attacker prone", 3)]),
    ],
)
def test_prone_modifiers(
    attacker: dict, defender: dict, style: str, attack: list, defense: list
) -> None:
    """Prone is not +3 to melee attackers, +3 defense vs ranged, +3 defense against its attacks [003]."""
    mira = combatant("Mira", id=1, **attacker)
    goblin = combatant("Goblin", id=2, **defender)
    distance = 6 if style == "ranged" else 0  # at distance 0 a ranged attack is melee [000]
    result = _attack(0, mira, goblin, AttackSpec(style=style, distance=distance), "block")
    assert result.defense is not None
    assert [(m.name, m.value) for m in result.attack_modifiers] == attack
    assert [(m.name, m.value) for m in result.defense.modifiers] == defense


def test_a_ranged_attack_beyond_perception_rolls_a_die_lower() -> None:
    """A ranged attack at 12 m (Perception 10 m) did not roll d12 instead of d20 [002]."""
    far = roll_attack(
        combatant(finesse=2), AttackSpec(style="ranged", distance=6), random.Random(0)
    )
    near = roll_attack(
        combatant(finesse=2), AttackSpec(style="ranged", distance=5), random.Random(0)
    )
    assert (far.core.die, far.beyond_perception) == (12, True)
    assert (near.core.die, near.beyond_perception) == (20, False)


def test_sacrifice_adds_three_to_the_attack() -> None:
    """A sacrificed action for the attack did not add +3."""
    roll = roll_attack(combatant(sacrifices={"attack": 1}), AttackSpec(), random.Random(0))
    assert [(m.name, m.value) for m in roll.modifiers] == [("Sacrifice", 3)]


def test_a_broken_attacker_cannot_attack() -> None:
    """A Broken combatant attacked instead of raising RuleViolation."""
    with pytest.raises(RuleViolation):
        roll_attack(combatant(grit=0), AttackSpec(), random.Random(0))


def test_a_broken_defender_cannot_defend_or_counter() -> None:
    """A Broken defender rolled a defense."""
    mira = combatant("Mira", id=1)
    result = _attack(0, mira, combatant("Goblin", id=2, grit=0), AttackSpec(), "block")
    assert result.defense is not None and result.defense.no_roll == "broken"


# Validation.


@pytest.mark.parametrize(
    ("spec", "error"),
    [
        ({"style": "melee", "target_size": "head"}, BadInput),
        ({"style": "targeted", "special_targeting": 2}, BadInput),
        ({"style": "melee", "cover": 1}, BadInput),
        ({"style": "melee", "range_kind": "bow"}, BadInput),
        ({"style": "thrown", "range_kind": "bow", "weight": 1}, BadInput),
        ({"style": "thrown"}, BadInput),
        ({"style": "ranged", "weight": 1}, BadInput),
        ({"style": "thrown", "weight": 2, "distance": 4}, RuleViolation),
        ({"style": "melee", "penetration": 2}, BadInput),
        ({"style": "unarmed", "damage": "1d4"}, BadInput),
        ({"style": "ranged", "cover_durability": 3}, BadInput),
        ({"damage": "1d6+"}, DiceError),
    ],
    ids=[
        "size-not-targeted",
        "special-targeting-melee",
        "cover-vs-melee",
        "range-for-melee",
        "bow-thrown",
        "thrown-no-weight",
        "weight-not-thrown",
        "thrown-out-of-range",
        "penetration-melee",
        "unarmed-weapon",
        "cover-durability-no-cover",
        "bad-damage",
    ],
)
def test_contradictory_attacks_are_refused(spec: dict, error: type[Exception]) -> None:
    """A contradictory attack was rolled instead of refused with a readable message."""
    with pytest.raises(error):
        roll_attack(combatant(physical=6), AttackSpec(**spec), random.Random(0))


@pytest.mark.parametrize(
    ("spec", "strategy", "fields"),
    [
        ({"style": "melee"}, "take_cover", {}),
        ({"style": "ranged", "distance": 2}, "take_cover", {}),
        ({"style": "ranged", "distance": 2}, "break_away", {}),
        ({"style": "ranged", "distance": 2}, "dodge", {"stamina": 0}),
    ],
    ids=["cover-vs-melee", "cover-without-cover", "break-away-vs-ranged", "dodge-without-stamina"],
)
def test_defenses_the_rules_forbid_are_refused(spec: dict, strategy: str, fields: dict) -> None:
    """A forbidden defense was allowed instead of raising RuleViolation."""
    mira = combatant("Mira", id=1, finesse=1)
    goblin = combatant("Goblin", id=2, **fields)
    attack_spec = AttackSpec(**spec)
    rng = random.Random(3)  # a roll with neither a critical nor a Risk failure
    roll = roll_attack(mira, attack_spec, rng)
    assert roll.needs_defense
    with pytest.raises(RuleViolation):
        resolve_attack(roll, mira, goblin, strategy, attack_spec, rng)  # type: ignore[arg-type]


# Properties.

_specs = st.builds(
    AttackSpec,
    style=st.sampled_from(["melee", "targeted", "ranged", "unarmed"]),
    explode=st.booleans(),
    advantage=st.sampled_from([None, "advantage", "disadvantage"]),
    modifier=st.integers(-10, 10),
    base_risk=st.integers(1, 4),
    defense_modifier=st.integers(-5, 5),
    surprised=st.booleans(),
    counter=st.booleans(),
    stealth=st.booleans(),
    bonus_dice=st.sampled_from([(), ("1d10",)]),
)


@given(
    spec=_specs,
    seed=st.integers(0, 2**32),
    attacker=st.builds(
        lambda p, f, g, r: Combatant(id=1, name="A", physical=p, finesse=f, grit=g, risk=r),
        st.integers(0, 8),
        st.integers(0, 8),
        st.integers(1, 40),
        st.integers(0, 3),
    ),
    defender=st.builds(
        lambda p, f, g, prone, la: Combatant(
            id=2,
            name="D",
            physical=p,
            finesse=f,
            grit=g,
            prone=prone,
            long_action=None if la is None else {"name": "Task", "kind": la, "rounds": 3},
        ),
        st.integers(0, 8),
        st.integers(0, 8),
        st.integers(0, 40),
        st.booleans(),
        st.sampled_from([None, "focused", "cumulative"]),
    ),
    strategy=st.sampled_from([None, "block", "dodge"]),
)
def test_a_hit_needs_attack_above_defense_or_a_critical_and_never_a_risk_failure(
    spec, seed, attacker, defender, strategy
) -> None:
    """An attack hit without beating the defense or a critical, or hit on a Risk failure."""
    rng = random.Random(seed)
    roll = roll_attack(attacker, spec, rng)
    result = resolve_attack(roll, attacker, defender, strategy, spec, rng)
    if result.risk_failure:
        assert not result.hit
    elif result.hit and result.defense is not None:
        assert result.defense_value is not None
        if result.defense.challenge:  # surprised 6, a fixed object 3: reached is hit [003]
            assert result.attack_value >= result.defense_value
        else:
            assert result.attack_value > result.defense_value
    elif result.hit:
        assert result.critical or result.auto_reason == "cumulative_long_action"
    else:
        assert result.defense is not None and result.defense_value is not None
        if result.defense.challenge:
            assert result.attack_value < result.defense_value
        else:
            assert result.attack_value <= result.defense_value
    assert (result.damage is not None) == result.hit
    if result.damage is not None:
        assert result.damage_dealt >= 0


def test_a_fumbled_counter_attack_offers_no_further_counter() -> None:
    """Seed 31's natural 1 on a counter-attack offered yet another counter [bot]."""
    mira, goblin = _pair(physical=3)
    result = _attack(31, mira, goblin, AttackSpec(counter=True), "block")
    assert result.outcome == "auto_miss"
    assert not result.counter_opportunity


def test_an_attack_needs_a_defender_unless_at_a_fixed_object() -> None:
    """An attack on nobody was resolved instead of refused."""
    mira = combatant("Mira", id=1, finesse=3)
    spec = AttackSpec(style="ranged", distance=2)
    rng = random.Random(3)
    with pytest.raises(BadInput):
        resolve_attack(roll_attack(mira, spec, rng), mira, None, None, spec, rng)


def test_applying_a_miss_leaves_grit_alone() -> None:
    """Seed 26's miss changed the defender's Grit."""
    mira, goblin = _pair(physical=3)
    settled = _settle(26, mira, goblin, AttackSpec(), "block")
    assert (settled.grit, goblin.grit) == (None, 30)


# Playing as written (issue 17).


def test_point_blank_ranged_is_defended_as_melee_without_cover() -> None:
    """A ranged attack at distance 0 offered take cover, counted cover, or prone +3 vs ranged [000]."""
    archer = combatant("Archer", id=1, finesse=3)
    goblin = combatant("Goblin", id=2, physical=4, prone=True)
    spec = AttackSpec(style="ranged", distance=0, damage="5")
    assert spec.point_blank and defense_options(goblin, spec) == ["block", "dodge", "break_away"]
    rng = ScriptedRandom([d20(9), d20(6)])
    result = resolve_attack(roll_attack(archer, spec, rng), archer, goblin, "block", spec, rng)
    assert result.defense is not None
    assert (result.defense.attribute, result.defense.cover) == ("physical", 0)  # a melee block
    assert [(m.name, m.value) for m in result.attack_modifiers] == [("Target prone", 3)]
    assert result.damage is not None and result.damage.doubled is None  # damage as ranged
    with pytest.raises(BadInput, match="point-blank"):
        roll_attack(archer, AttackSpec(style="ranged", distance=0, cover=2), ScriptedRandom([]))


@pytest.mark.parametrize(("natural", "outcome"), [(3, "hit"), (2, "miss")])
def test_a_surprised_target_is_hit_when_the_attack_reaches_six(natural: int, outcome: str) -> None:
    """An attack of exactly 6 on a surprised target missed [003 "challenge level … a flat 6"]."""
    mira = combatant("Mira", id=1, physical=3)
    goblin = combatant("Goblin", id=2)
    spec = AttackSpec(surprised=True, damage="4")
    rng = ScriptedRandom([d20(natural)])
    result = resolve_attack(roll_attack(mira, spec, rng), mira, goblin, None, spec, rng)
    assert (result.attack_value, result.defense_value, result.outcome) == (
        natural + 3,
        6,
        outcome,
    )


def test_a_melee_surprise_attack_in_round_zero_deals_double() -> None:
    """Melee on a surprised target in round zero did not double the damage [002 "x2 Damage"]."""
    mira = combatant("Mira", id=1, physical=3)
    goblin = combatant("Goblin", id=2)
    spec = AttackSpec(surprised=True, damage="4")
    rng = ScriptedRandom([d20(10)])
    result = resolve_attack(roll_attack(mira, spec, rng), mira, goblin, None, spec, rng)
    assert result.damage is not None and result.damage.doubled == "surprised"
    assert result.damage_dealt == 8
    ranged = AttackSpec(style="ranged", distance=2, surprised=True, damage="4")
    rng = ScriptedRandom([d20(10)])
    shot = resolve_attack(roll_attack(mira, ranged, rng), mira, goblin, None, ranged, rng)
    assert shot.damage_dealt == 4  # only melee surprise attacks double


@pytest.mark.parametrize(("natural", "outcome"), [(3, "hit"), (2, "miss")])
def test_a_fixed_object_combatant_is_hit_at_three_plus_range(natural: int, outcome: str) -> None:
    """A door (a fixed-object combatant) 3 spaces off was not hit by a thrown 3 + 3 = 6 [003]."""
    mira = combatant("Mira", id=1, physical=6, finesse=0)
    door = combatant("Door", id=2, fixed_object=True)
    spec = AttackSpec(style="thrown", weight=2, distance=3, fixed_object=True, damage="2")
    rng = ScriptedRandom([d20(natural + 3)])  # + Finesse 0 against 3 + short range 3
    result = resolve_attack(roll_attack(mira, spec, rng), mira, door, None, spec, rng)
    assert result.defense is not None and result.defense.no_roll == "fixed_object"
    assert (result.attack_value, result.defense_value, result.outcome) == (natural + 3, 6, outcome)


def test_a_stunned_defender_defends_with_modifiers_only() -> None:
    """A Stunned defender rolled a defense [GAME.md §7 "cannot react until then"]."""
    mira = combatant("Mira", id=1, physical=3)
    goblin = combatant("Goblin", id=2, physical=9, sacrifices={"defense": 1})
    goblin.specials.append(ActiveSpecial(name="Stunned"))
    rng = ScriptedRandom([d20(5)])
    result = resolve_attack(
        roll_attack(mira, AttackSpec(), rng), mira, goblin, "block", AttackSpec(), rng
    )
    assert result.defense is not None
    assert (result.defense.no_roll, result.defense.core, result.defense_value) == (
        "stunned",
        None,
        3,
    )
