"""Fortune options as commands take them: Haste, Wait, act now, Hold, Sacrifice [GAME.md §5]."""

from __future__ import annotations

import random

import pytest

from bot.errors import RuleViolation
from bot.rules import encounter as flow
from bot.rules import fortune
from bot.rules.initiative import sacrifice_bonus
from bot.rules.models import Combatant, Declaration, Encounter


def make(mode: str = "finesse", flow_: str = "compact", **kw: object) -> Encounter:
    return Encounter(channel_id=1, gm_id=99, mode=mode, flow=flow_, **kw)


def add(encounter: Encounter, name: str, **stats: object) -> Combatant:
    combatant = Combatant(id=0, name=name, **stats)
    flow.add_combatant(encounter, combatant, random.Random(0))
    return combatant


def fight(mode: str = "finesse", flow_: str = "compact") -> Encounter:
    """Mira, Goblin, Orc by Finesse 5, 3, 1."""
    encounter = make(mode, flow_, phase="start" if flow_ == "full" else "declaration")
    add(encounter, "Mira", finesse=5, is_npc=False, side="party", controller_id=1)
    add(encounter, "Goblin", finesse=3)
    add(encounter, "Orc", finesse=1)
    return encounter


def begin(encounter: Encounter) -> None:
    """Step to the first turn."""
    while encounter.phase != "initiative":
        flow.advance(encounter, random.Random(0))


def actor(encounter: Encounter) -> str | None:
    current = flow.current_actor(encounter)
    return None if current is None else current.name


def named(encounter: Encounter, name: str) -> Combatant:
    return flow.by_name(encounter, name)


def test_a_combatant_that_acted_out_of_turn_gets_no_second_turn() -> None:
    """A waiting combatant that used /act before its place got its own turn as well."""
    encounter = fight()
    begin(encounter)
    orc = named(encounter, "Orc")
    fortune.wait(encounter, orc)
    fortune.act(encounter, orc)
    flow.advance(encounter, random.Random(0))  # the act ends: back to Mira
    assert actor(encounter) == "Mira"
    flow.advance(encounter, random.Random(0))
    assert actor(encounter) == "Goblin"
    step = flow.advance(encounter, random.Random(0))
    assert [(s.combatant_id, s.reason) for s in step.skipped] == [(orc.id, "acted")]
    assert step.new_round == 2


def test_prev_does_not_step_back_into_a_place_passed_by_act() -> None:
    """/init prev gave the turn back to a combatant that had already acted out of turn."""
    encounter = fight()
    begin(encounter)
    goblin = named(encounter, "Goblin")
    fortune.wait(encounter, goblin)
    fortune.act(encounter, goblin)
    flow.advance(encounter, random.Random(0))  # the act ends
    flow.advance(encounter, random.Random(0))  # Mira ends; Goblin's place passes
    assert actor(encounter) == "Orc"
    flow.retreat(encounter)
    assert actor(encounter) == "Mira"


def test_a_new_round_clears_out_of_turn_marks_and_declarations() -> None:
    """An /act or a declaration of last round still marked a combatant in the new round."""
    encounter = fight()
    begin(encounter)
    orc = named(encounter, "Orc")
    orc.declaration = Declaration(text="Charge")
    fortune.wait(encounter, orc)
    fortune.act(encounter, orc)
    flow.end_round(encounter)
    assert (orc.acted_out_of_turn, orc.declaration) == (False, None)


def test_haste_in_fortune_is_plus_three_and_one_action() -> None:
    """Haste in fortune mode was not reported as +3 initiative with one action [003]."""
    encounter = fight("fortune")
    hasted = fortune.haste(encounter, named(encounter, "Orc"))
    assert (hasted.bonus, hasted.actions, hasted.round) == (3, 1, 1)


@pytest.mark.parametrize("mode", ["finesse", "sides", "once"])
def test_haste_outside_fortune_is_a_place_at_the_front(mode: str) -> None:
    """Haste outside fortune was reported as a bonus, or did not put the combatant first [bot]."""
    encounter = fight(mode)
    hasted = fortune.haste(encounter, named(encounter, "Orc"))
    assert (hasted.bonus, hasted.actions) == (None, 1)
    begin(encounter)
    assert actor(encounter) == "Orc"


def test_haste_after_initiative_is_rolled_is_refused() -> None:
    """Haste was accepted after the round's initiative was rolled [003]."""
    encounter = fight("fortune")
    begin(encounter)
    with pytest.raises(RuleViolation, match="before initiative is rolled"):
        fortune.haste(encounter, named(encounter, "Orc"))
    assert not named(encounter, "Orc").hasted


def test_a_surprised_combatant_cannot_haste_in_round_zero() -> None:
    """A combatant caught by the ambush hasted in round zero, where it takes no actions [003]."""
    encounter = make(ambush="party", round=0)
    add(encounter, "Mira", is_npc=False, side="party")
    goblin = add(encounter, "Goblin")
    with pytest.raises(RuleViolation, match="caught by the ambush"):
        fortune.haste(encounter, goblin)


def test_waiting_on_its_own_turn_moves_the_order_on() -> None:
    """A combatant waiting on its own turn did not pass the turn to the next in order."""
    encounter = fight()
    begin(encounter)
    waited = fortune.wait(encounter, named(encounter, "Mira"))
    assert waited.own_turn
    assert actor(encounter) == "Goblin"
    assert waited.step.current == named(encounter, "Goblin").id


def test_waiting_before_its_turn_keeps_the_current_actor() -> None:
    """A Wait declared before the combatant's turn changed whose turn it is."""
    encounter = fight()
    begin(encounter)
    waited = fortune.wait(encounter, named(encounter, "Orc"))
    assert not waited.own_turn
    assert actor(encounter) == "Mira"
    assert named(encounter, "Orc").waiting


def test_when_everyone_left_waits_the_round_passes_and_all_hold() -> None:
    """The last combatant waiting behind other waiters did not pass the round with all holding."""
    encounter = fight()
    begin(encounter)
    fortune.wait(encounter, named(encounter, "Goblin"))
    flow.advance(encounter, random.Random(0))  # Mira ends; Goblin waits; Orc's turn
    waited = fortune.wait(encounter, named(encounter, "Orc"))
    end = waited.step.round_end
    assert end is not None and end.all_waiting
    assert end.held == [named(encounter, "Goblin").id, named(encounter, "Orc").id]
    assert waited.step.new_round == 2


def test_hold_reports_the_bonus_and_the_actions_it_gives_up() -> None:
    """Hold did not report +10 next round and the actions lost this round [003, bot]."""
    encounter = fight("fortune")
    begin(encounter)
    orc = named(encounter, "Orc")
    fortune.wait(encounter, orc)
    held = fortune.hold(encounter, orc)
    assert (held.into_round, held.bonus, held.actions_lost) == (2, 10, 2)
    assert (orc.holding, orc.waiting, orc.actions_left) == (True, False, 0)


def test_hold_outside_fortune_is_first_place() -> None:
    """Hold outside fortune was reported as a bonus instead of first place [bot]."""
    encounter = fight("finesse")
    begin(encounter)
    orc = named(encounter, "Orc")
    fortune.wait(encounter, orc)
    assert fortune.hold(encounter, orc).bonus is None


def test_hold_without_waiting_is_refused() -> None:
    """A combatant that was not waiting could hold."""
    encounter = fight()
    begin(encounter)
    with pytest.raises(RuleViolation, match="must be waiting"):
        fortune.hold(encounter, named(encounter, "Orc"))


def test_holding_twice_is_refused() -> None:
    """A combatant already holding could hold again."""
    encounter = fight()
    begin(encounter)
    orc = named(encounter, "Orc")
    fortune.wait(encounter, orc)
    fortune.hold(encounter, orc)
    with pytest.raises(RuleViolation, match="already holds"):
        fortune.hold(encounter, orc)


def test_hold_before_the_turns_is_refused() -> None:
    """Hold before the round's turns began was accepted (it would carry +10 into this round)."""
    encounter = fight("fortune")
    orc = named(encounter, "Orc")
    fortune.wait(encounter, orc)
    with pytest.raises(RuleViolation, match="once round 1's turns have begun"):
        fortune.hold(encounter, orc)
    assert (orc.waiting, orc.holding) == (True, False)


def test_sacrifice_is_for_attack_on_its_own_turn_and_defense_otherwise() -> None:
    """A sacrifice without `for` was not for attack on its turn and for defense outside it."""
    encounter = fight()
    begin(encounter)
    mira, orc = named(encounter, "Mira"), named(encounter, "Orc")
    assert fortune.sacrifice_action(encounter, mira).target == "attack"
    assert fortune.sacrifice_action(encounter, orc).target == "defense"


def test_a_sacrifice_for_defense_is_what_an_attack_reads() -> None:
    """A defense sacrifice did not show up as +3 in sacrifice_bonus, which attacks read [003]."""
    encounter = fight()
    begin(encounter)
    orc = named(encounter, "Orc")
    result = fortune.sacrifice_action(encounter, orc, "defense")
    assert (result.bonus, result.actions_left) == (3, 1)
    assert (sacrifice_bonus(orc, "defense"), sacrifice_bonus(orc, "attack")) == (3, 0)


def test_sacrificing_with_no_actions_left_is_refused_and_changes_nothing() -> None:
    """A sacrifice with no actions left was accepted or changed the combatant."""
    encounter = fight("fortune")
    mira = named(encounter, "Mira")
    fortune.haste(encounter, mira)
    begin(encounter)
    fortune.sacrifice_action(encounter, mira, "attack")
    before = mira.model_dump()
    with pytest.raises(RuleViolation, match="no actions left this round to sacrifice"):
        fortune.sacrifice_action(encounter, mira, "attack")
    assert mira.model_dump() == before


def test_choices_are_refused_once_the_round_is_closing() -> None:
    """A sacrifice was accepted in the full flow's Cleanup, after the round's actions."""
    encounter = fight("finesse", "full")
    while encounter.phase != "cleanup":
        flow.advance(encounter, random.Random(0))
    with pytest.raises(RuleViolation, match="Round 1 is closing"):
        fortune.sacrifice_action(encounter, named(encounter, "Mira"), "attack")
