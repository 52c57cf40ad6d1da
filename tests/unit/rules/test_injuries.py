"""What an Injury does at the table [000 "Wounds apply to Finesse checks", legs; 002]."""

from __future__ import annotations

import pytest

from bot.errors import RuleViolation
from bot.rules.checks import roll_check
from bot.rules.initiative import order_for_round
from tests.scripted import ScriptedRandom, d20
from tests.unit.rules.factories import character, combatant


def test_each_injury_costs_a_finesse_check_one() -> None:
    """Two Injuries did not take 2 off a Finesse check, or touched a Physical one [000, bot]."""
    hurt = combatant(injuries=2, finesse=4, physical=4)
    finesse = roll_check(hurt, 9, ScriptedRandom([d20(7)]), trait=4, trait_name="Finesse")
    assert [(m.name, m.value) for m in finesse.modifiers] == [("Injuries ×2", -2)]
    assert finesse.total == 7 + 4 - 2
    physical = roll_check(hurt, 9, ScriptedRandom([d20(7)]), trait=4, trait_name="Physical")
    assert physical.modifiers == [] and physical.total == 11
    sheet = roll_check(character(injuries=1), 9, ScriptedRandom([d20(7)]), trait_name="Finesse")
    assert sheet.total == 6  # a character's Injuries count outside a fight too


def test_injuries_lower_initiative_by_finesse() -> None:
    """Initiative by Finesse ignored Injuries [000 "Wounds apply to Finesse checks"]."""
    mira = combatant("Mira", finesse=3, injuries=3)
    brom = combatant("Brom", finesse=1)
    dice = ScriptedRandom([])
    entries = order_for_round([mira, brom], "finesse", dice)
    assert [(e.name, e.total) for e in entries] == [("Brom", 1), ("Mira", 0)]
    dice = ScriptedRandom([d20(10)])
    rolled = order_for_round([mira], "fortune", dice)
    dice.done()
    assert rolled[0].total == 10 + 3 - 3
    assert [(b.name, b.value) for b in rolled[0].bonuses] == [("Injuries ×3", -3)]


def test_an_injury_to_the_legs_prevents_jumping() -> None:
    """A leg injury let a combatant jump [000 "Injuries and wounds to the legs will prevent jumping"]."""
    with pytest.raises(RuleViolation, match="injury to the legs"):
        roll_check(combatant(leg_injury=True), 6, ScriptedRandom([]), jump=True)
    dice = ScriptedRandom([d20(6)])
    jumped = roll_check(combatant(), 6, dice, jump=True)
    dice.done()
    assert jumped.jump and jumped.success
