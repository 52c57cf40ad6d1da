"""Engagement, Reach Advantage, Closing In and Break Away [000 Melee Rules]; Grappling [000]."""

from __future__ import annotations

import pytest

from bot.errors import RuleViolation
from bot.rules import encounter as flow
from bot.rules.attack_flow import answer_attack, declare_attack
from bot.rules.attacks import AttackSpec
from bot.rules.grappling import item_usable
from bot.rules.melee import are_engaged, break_away, engage_target, require_reach
from bot.rules.movement import move_combatant
from bot.rules.specials import SpecialBook
from tests.scripted import ScriptedRandom, d20
from tests.unit.rules.factories import combatant, fight

BOOK = SpecialBook([])


def pair(**mira: object):
    """Mira (alice's, Finesse 5, on her turn) and a Spearman (Physical 2, reach 2)."""
    hero = combatant("Mira", id=0, is_npc=False, side="party", finesse=5, physical=1, **mira)
    spear = combatant("Spearman", id=0, physical=2, reach=2)
    encounter = fight(hero, spear)
    return encounter, hero, spear


def test_a_shorter_reach_must_close_in_first() -> None:
    """A sword attacked a spear's longer reach without closing in [000 Reach Advantage]."""
    encounter, mira, spear = pair()
    with pytest.raises(RuleViolation, match=r"Spearman's reach \(2\) is longer than Mira's \(1\)"):
        declare_attack(
            encounter,
            mira,
            spear,
            AttackSpec(),
            ScriptedRandom([]),
            attack_id="a",
            now=0,
            timeout=1,
        )
    require_reach(mira, spear, sneak=True)  # "unless they are carrying out a sneak attack"
    require_reach(spear, mira, sneak=False)  # the longer reach attacks freely


def test_closing_in_is_a_dodge_against_the_reach_holder() -> None:
    """Closing in was not Mira's dodge (d20 + Finesse) against the spear's d20 + Physical [000]."""
    encounter, mira, spear = pair()
    engaged = engage_target(encounter, mira, spear, ScriptedRandom([d20(6), d20(9)]))
    assert engaged.close_in is not None and engaged.threat is not None
    assert (engaged.close_in.value, engaged.threat.value) == (6 + 5, 9 + 2)
    assert engaged.engaged  # 11 against 11: a dodge holds on a tie
    assert are_engaged(mira, spear) and are_engaged(spear, mira)
    require_reach(mira, spear, sneak=False)  # closed in: no reach advantage any more [000]


def test_a_failed_close_in_keeps_the_closer_at_bay_once_a_round() -> None:
    """A failed close-in engaged the two, or could be tried again in the same round [bot]."""
    encounter, mira, spear = pair()
    engaged = engage_target(encounter, mira, spear, ScriptedRandom([d20(3), d20(12)]))
    assert not engaged.engaged and not are_engaged(mira, spear)
    with pytest.raises(RuleViolation, match="tried to close in this round already"):
        engage_target(encounter, mira, spear, ScriptedRandom([]))


def test_engaged_combatants_are_locked_onto_their_space() -> None:
    """An engaged combatant moved away without breaking away [000 Engagement]."""
    encounter, mira, spear = pair(reach=2)
    engage_target(encounter, mira, spear, ScriptedRandom([]))  # equal reach: no close-in roll
    with pytest.raises(RuleViolation, match="engaged with Spearman and locked onto its space"):
        move_combatant(encounter, mira, 4, BOOK)


def test_break_away_is_the_higher_trait_less_directions_blocked_above_the_holder() -> None:
    """A break away was not d20 + higher trait − directions blocked against d20 + Physical [000]."""
    encounter, mira, spear = pair(reach=2, directions_blocked=2)
    engage_target(encounter, mira, spear, ScriptedRandom([]))
    held = break_away(encounter, mira, ScriptedRandom([d20(8), d20(9)]))
    assert (held.roll.trait, held.roll.value, held.best.value) == ("Finesse", 8 + 5 - 2, 9 + 2)  # type: ignore[union-attr]
    assert not held.success and are_engaged(mira, spear)  # 11 against 11: the holder keeps it
    assert held.action_spent and mira.actions_left == 1
    free = break_away(encounter, mira, ScriptedRandom([d20(15), d20(4)]))
    assert free.success and free.freed_from == [spear.id]
    assert not are_engaged(mira, spear)


def test_a_successful_break_away_defense_ends_the_engagement() -> None:
    """A Break Away defense that held did not free the defender from its attacker [000]."""
    encounter, mira, spear = pair(reach=2)
    engage_target(encounter, mira, spear, ScriptedRandom([]))
    flow.advance(encounter, ScriptedRandom([]))  # the Spearman's turn
    declare_attack(
        encounter,
        spear,
        mira,
        AttackSpec(),
        ScriptedRandom([d20(5)]),
        attack_id="a",
        now=0,
        timeout=1,
    )
    settled = answer_attack(encounter, "a", "break_away", ScriptedRandom([d20(10)]))
    assert settled is not None and settled.result.outcome == "miss"  # 7 against 15
    assert settled.broke_free and not are_engaged(mira, spear)


def test_a_wounded_combatant_is_no_longer_engaged() -> None:
    """Engagement outlasted one of the two being wounded (Broken) [000, bot]."""
    encounter, mira, spear = pair(reach=2)
    engage_target(encounter, mira, spear, ScriptedRandom([]))
    declare_attack(
        encounter,
        mira,
        spear,
        AttackSpec(damage="40"),
        ScriptedRandom([d20(15)]),
        attack_id="a",
        now=0,
        timeout=1,
    )
    answer_attack(encounter, "a", "block", ScriptedRandom([d20(2)]))
    assert spear.grit == 0 and mira.engaged_with == [] and spear.engaged_with == []


def test_a_grapple_holds_both_and_leaves_only_break_away() -> None:
    """A grapple hit dealt damage, left actions, or allowed any defense but Break Away [000]."""
    encounter, mira, spear = pair(reach=2)
    spec = AttackSpec(grapple=True, grapple_item="Pike")  # treated like dodging: Finesse
    declared = declare_attack(
        encounter, mira, spear, spec, ScriptedRandom([d20(10)]), attack_id="g", now=0, timeout=1
    )
    assert declared.pending is not None
    settled = answer_attack(encounter, "g", "block", ScriptedRandom([d20(4)]))
    assert settled is not None and settled.grappled is not None
    assert settled.result.attack.attribute == "finesse"
    assert (settled.result.damage, spear.grit) == (None, 30)
    assert (mira.actions_left, spear.actions_left) == (0, 0)  # as if they had acted [000]
    assert not item_usable(spear, "pike") and item_usable(spear, "Dagger")
    with pytest.raises(RuleViolation, match="locked in a grapple with Spearman"):
        move_combatant(encounter, mira, 2, BOOK)
    freed = break_away(encounter, mira, ScriptedRandom([d20(17), d20(3)]))  # its one free try
    assert freed.success and not freed.action_spent
    assert mira.grapple is None and spear.grapple is None
