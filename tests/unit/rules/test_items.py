"""Armor, shields and braced weapons [002 "Armor … Shields …", 003 the knight and the spearman]."""

from __future__ import annotations

import pytest

from bot.errors import RuleViolation
from bot.rules import encounter as flow
from bot.rules.attack_flow import answer_attack, apply_except_grit, declare_attack
from bot.rules.attacks import AttackSpec, resolve_attack, roll_attack
from bot.rules.items import crit_range_against, guard
from bot.rules.models import Armor, Shield, Weapon
from tests.scripted import ScriptedRandom, d20
from tests.unit.rules.factories import combatant, fight

CHAIN = Armor(name="Chain", absorb=3, crit_guard=2)
BUCKLER = Shield(name="Buckler", block=2, guard=4, durability=3)
PIKE = Weapon(name="Pike", damage="9+1", reach=2, braced=True)


def test_armor_narrows_the_attackers_critical_range_but_keeps_the_top_face() -> None:
    """Armor did not lower the critical chance, or took away the top face's Critical [002, bot]."""
    knight = combatant("Knight", items=[CHAIN])
    assert crit_range_against(3, knight) == 1  # 18–20 becomes 20 alone
    assert crit_range_against(1, knight) == 1
    attacker = combatant("Brute", crit_range=3)
    roll = roll_attack(attacker, AttackSpec(), ScriptedRandom([d20(19)]), target=knight)
    assert (roll.core.crit_range, roll.critical) == (1, False)


def test_armor_absorbs_damage_after_momentum() -> None:
    """The knight's armor did not take its 3 off the spearman's 10 + momentum 9 = 19 [003, 002]."""
    spearman = combatant("Spearman", id=1, physical=1)
    knight = combatant("Knight", id=2, items=[CHAIN], charged_spaces=28)
    spec = AttackSpec(damage="9+1")  # 1 for Strength, 9 for the pike [003]
    rng = ScriptedRandom([d20(15), d20(2)])
    result = resolve_attack(roll_attack(spearman, spec, rng), spearman, knight, "block", spec, rng)
    assert result.damage is not None
    assert [(m.name, m.value) for m in result.damage.momentum] == [("Target's momentum", 9)]
    assert result.damage.before_armor == 19  # "Adding the knight's momentum … a total of 19"
    assert (result.damage.absorbed, result.damage_dealt) == (3, 16)


def test_a_charge_leaves_its_momentum_on_the_charger_for_the_round() -> None:
    """The lance (9 + 4) after 28 spaces did not deal 22, or the knight's charge was forgotten [003]."""
    knight = combatant("Knight", id=0, physical=4, finesse=5)
    spearman = combatant("Spearman", id=0)
    encounter = fight(knight, spearman)
    declare_attack(
        encounter,
        knight,
        spearman,
        AttackSpec(damage="9+4", charge_spaces=28),
        ScriptedRandom([d20(16)]),
        attack_id="k",
        now=0,
        timeout=1,
    )
    settled = answer_attack(encounter, "k", "block", ScriptedRandom([d20(3)]))
    assert settled is not None and settled.result.damage_dealt == 22  # "for a total of 22"
    assert knight.charged_spaces == 28  # any enemy melee hit on it this round takes +9


def test_a_shield_adds_to_a_block_and_its_durability_meets_penetration() -> None:
    """A buckler's +2 block and durability 3 against penetration 5 were not used and worn [000, 002]."""
    archer = combatant("Archer", id=1, finesse=10)
    guard_ = combatant("Guard", id=2, items=[BUCKLER], durability=9)
    spec = AttackSpec(style="ranged", distance=3, penetration=5, damage="8")
    rng = ScriptedRandom([d20(12), d20(6)])
    roll = roll_attack(archer, spec, rng)
    result = resolve_attack(roll, archer, guard_, "block", spec, rng)
    assert result.defense is not None
    assert [(m.name, m.value) for m in result.defense.modifiers] == [("Shield (Buckler)", 2)]
    assert result.damage is not None and (result.damage.durability, result.damage.reduced_by) == (
        3,
        3,
    )
    assert apply_except_grit(result, guard_).durability_after == 2  # the buckler, not the 9
    assert guard_.durability == 9


def test_guarding_raises_every_defense_until_the_next_turn() -> None:
    """A guard did not cost an action and add the shield's guard to a defense [002, bot]."""
    holder = combatant("Guard", id=0, finesse=5, items=[BUCKLER])
    orc = combatant("Orc", id=0, physical=2)
    encounter = fight(holder, orc)
    guarded = guard(encounter, holder)
    assert (guarded.bonus, guarded.actions_left, holder.guarding) == (4, 1, True)
    with pytest.raises(RuleViolation, match="no shield"):
        guard(encounter, orc, forced=True)
    flow.advance(encounter, ScriptedRandom([]))  # the Orc's turn
    declare_attack(
        encounter,
        orc,
        holder,
        AttackSpec(),
        ScriptedRandom([d20(10)]),
        attack_id="o",
        now=0,
        timeout=1,
    )
    settled = answer_attack(encounter, "o", "dodge", ScriptedRandom([d20(3)]))
    assert settled is not None and settled.result.defense is not None
    assert [(m.name, m.value) for m in settled.result.defense.modifiers] == [("Guard (Buckler)", 4)]
    assert settled.result.defense_value == 3 + 5 + 4
