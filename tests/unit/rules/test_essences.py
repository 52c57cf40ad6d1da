"""Essences: one active at a time [002]; they last rounds, or a balm some attacks."""

from __future__ import annotations

import pytest

from bot.errors import BadInput, RuleViolation
from bot.rules import encounter as flow
from bot.rules.attack_flow import declare_attack
from bot.rules.attacks import AttackSpec
from bot.rules.essences import end_essence, use_essence
from tests.scripted import ScriptedRandom, d20
from tests.unit.rules.factories import combatant, fight


def test_only_one_essence_is_active_at_a_time() -> None:
    """A second essence became active while one was [002 "Only one active essence at a time"]."""
    mira = combatant("Mira", id=0, finesse=5, is_npc=False, side="party")
    encounter = fight(mira, combatant("Goblin", id=0))
    used = use_essence(encounter, mira, "Elixir of Iron", "elixir", rounds=2)
    assert used.essence.rounds_left == 2 and mira.actions_left == 2  # a sub action: free [000]
    with pytest.raises(RuleViolation, match="already has Elixir of Iron active"):
        use_essence(encounter, mira, "Tonic", "tonic")
    assert end_essence(mira).reason == "ended" and mira.essence is None
    use_essence(encounter, mira, "Tonic", "tonic")
    assert mira.essence is not None and mira.essence.name == "Tonic"


def test_an_essence_runs_out_with_its_rounds() -> None:
    """An essence of 2 rounds did not run out as the second round ended."""
    mira = combatant("Mira", id=0, finesse=5, is_npc=False, side="party")
    encounter = fight(mira, combatant("Goblin", id=0))
    use_essence(encounter, mira, "Salve", "salve", rounds=2)
    first = flow.end_round(encounter)
    assert first.round_end is not None and first.round_end.essences_ended == []
    flow.advance(encounter, ScriptedRandom([]))
    second = flow.end_round(encounter)
    assert second.round_end is not None
    assert [e.essence.name for e in second.round_end.essences_ended] == ["Salve"]
    assert mira.essence is None


def test_a_balm_lasts_its_attacks() -> None:
    """A balm for 1 attack outlasted that attack [002 "Balms … last multiple attacks"]."""
    mira = combatant("Mira", id=0, finesse=5, is_npc=False, side="party")
    goblin = combatant("Goblin", id=0)
    encounter = fight(mira, goblin)
    use_essence(encounter, mira, "Venom Balm", "balm", attacks=1)
    declared = declare_attack(
        encounter,
        mira,
        goblin,
        AttackSpec(),
        ScriptedRandom([d20(9)]),
        attack_id="a",
        now=0,
        timeout=1,
    )
    assert declared.essence_ended is not None and declared.essence_ended.reason == "ran_out"
    with pytest.raises(BadInput, match="Only a balm lasts a number of attacks"):
        use_essence(encounter, mira, "Elixir", "elixir", attacks=2)
