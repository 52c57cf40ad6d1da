"""Hiding and seeking [000, 002]: Hide vs Perception, +4 hidden, Perception as a passive defense."""

from __future__ import annotations

import pytest

from bot.errors import RuleViolation
from bot.rules.attack_flow import attack_situation, declare_attack
from bot.rules.attacks import AttackSpec
from bot.rules.checks import roll_check
from bot.rules.stealth import hide
from tests.scripted import ScriptedRandom, d12, d20
from tests.unit.rules.factories import combatant, fight


def scene():
    """Mira (Finesse 3, on her turn) against a Prime Goblin (Perception 10) and a Reduced Orc (8)."""
    mira = combatant("Mira", id=0, is_npc=False, side="party", finesse=3, physical=2)
    goblin = combatant("Goblin", id=0)
    orc = combatant("Orc", id=0, grit=15)
    return fight(mira, goblin, orc), mira, goblin, orc


def test_hiding_is_an_action_against_the_highest_perception() -> None:
    """Hide was not one action, d20 + Finesse 3 against the enemies' best Perception 10 [002]."""
    encounter, mira, goblin, _orc = scene()
    seen = hide(encounter, mira, ScriptedRandom([d20(6)]))
    assert (seen.roll.value, seen.perception, seen.perceiver_id) == (9, 10, goblin.id)
    assert not seen.success and not mira.stealth
    hidden = hide(encounter, mira, ScriptedRandom([d20(7)]))
    assert hidden.success and mira.stealth  # 10 reaches Perception 10 [bot]
    assert mira.actions_left == 0
    with pytest.raises(RuleViolation, match="hidden already"):
        hide(encounter, mira, ScriptedRandom([]))


def test_a_broken_watcher_perceives_nothing() -> None:
    """A Broken enemy's Perception still counted against a Hide [003 "Unconscious characters"]."""
    encounter, mira, goblin, orc = scene()
    goblin.grit = 0
    hid = hide(encounter, mira, ScriptedRandom([d20(5)]))
    assert (hid.perception, hid.perceiver_id, hid.success) == (8, orc.id, True)


def test_all_a_hidden_combatants_actions_get_plus_four() -> None:
    """A hidden combatant's check did not get +4 [000 "All actions … have a +4 bonus"]."""
    _encounter, mira, _goblin, _orc = scene()
    mira.stealth = True
    check = roll_check(mira, 12, ScriptedRandom([d20(5)]), trait=3)
    assert [(m.name, m.value) for m in check.modifiers] == [("Hidden", 4)]
    assert (check.total, check.success) == (12, True)


def test_an_attack_from_stealth_meets_perception_and_reveals_the_attacker() -> None:
    """An attack from hiding let the target choose a defense, or left the attacker hidden [002, 000]."""
    encounter, mira, _goblin, orc = scene()
    mira.stealth = True
    spec = AttackSpec(**attack_situation(encounter, mira, orc))
    assert spec.stealth
    declared = declare_attack(
        encounter,
        mira,
        orc,
        spec,
        ScriptedRandom([d20(5)]),  # attack; the damage is its face
        attack_id="s",
        now=0,
        timeout=1,
    )
    assert declared.pending is None and declared.settled is not None  # nobody is asked
    result = declared.settled.result
    assert result.defense is not None and result.defense.no_roll == "perception"
    assert (result.attack_value, result.defense_value) == (5 + 2 + 4, 8)  # the Orc is Reduced
    assert result.damage is not None and result.damage.doubled == "stealth"  # ×2 melee [002]
    assert result.damage_dealt == 5 * 2
    assert not mira.stealth  # "until they either attack an enemy or they are spotted" [000]


def test_a_hidden_ranged_attack_is_not_doubled_and_beyond_perception_rolls_lower() -> None:
    """A ranged attack from stealth doubled its damage, or kept the d20 beyond Perception [002]."""
    encounter, mira, goblin, _orc = scene()
    mira.stealth = True
    spec = AttackSpec(style="ranged", distance=6, stealth=True, damage="4")  # 12 m > 10 m
    declared = declare_attack(
        encounter, mira, goblin, spec, ScriptedRandom([d12(9)]), attack_id="r", now=0, timeout=1
    )
    assert declared.settled is not None
    result = declared.settled.result
    assert (result.attack.core.die, result.attack_value, result.defense_value) == (
        12,
        9 + 3 + 4,
        10 + 1,
    )
    assert result.damage is not None and result.damage.doubled is None and result.damage_dealt == 4
