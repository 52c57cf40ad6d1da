"""Acting on one's turn, and out of turn only as the rules allow [GAME.md §10, 003, 000]."""

from __future__ import annotations

import random

import pytest

from bot.errors import RuleViolation
from bot.rules import encounter as flow
from bot.rules.acting import on_turn, require_turn
from bot.rules.models import Combatant, Encounter, GrappleHold


def fight(mode: str = "finesse") -> Encounter:
    """Mira (Finesse 5, alice's) and the Goblin (1) in round 1's Declaration."""
    encounter = Encounter(channel_id=1, gm_id=9, mode=mode)  # type: ignore[arg-type]
    for name, finesse, npc in (("Mira", 5, False), ("Goblin", 1, True)):
        combatant = Combatant(id=0, name=name, finesse=finesse, is_npc=npc)
        combatant.side = "foes" if npc else "party"
        flow.add_combatant(encounter, combatant, random.Random(0))
    return encounter


def test_before_the_turns_nobody_acts() -> None:
    """An action before the round's turns began was allowed without the GM forcing it."""
    encounter = fight()
    mira = flow.by_name(encounter, "Mira")
    with pytest.raises(RuleViolation, match="round 1's turns have not begun"):
        require_turn(encounter, mira, "attack")
    assert require_turn(encounter, mira, "attack", forced=True) is True


def test_the_current_actor_acts_and_the_others_are_refused_with_the_way() -> None:
    """The actor was refused, or another combatant was allowed, or not told how to act sooner."""
    encounter = fight()
    flow.advance(encounter, random.Random(0))  # by Finesse: Mira first [000]
    mira, goblin = flow.by_name(encounter, "Mira"), flow.by_name(encounter, "Goblin")
    assert on_turn(encounter, mira)
    assert require_turn(encounter, mira, "attack") is False
    with pytest.raises(RuleViolation) as refused:
        require_turn(encounter, goblin, "attack")
    assert str(refused.value) == (
        "It is not Goblin's turn: attack when it comes, or /wait and then /act to attack "
        "sooner; the GM may force it (force:true)."
    )


def test_a_waiting_combatant_acts_through_act() -> None:
    """A waiting combatant acted without /act, or could not act after it [003]."""
    encounter = fight()
    flow.advance(encounter, random.Random(0))
    goblin = flow.by_name(encounter, "Goblin")
    flow.wait(encounter, goblin)
    with pytest.raises(RuleViolation, match="Goblin is waiting: /act first to move now"):
        require_turn(encounter, goblin, "move")
    flow.act_now(encounter, goblin)
    assert require_turn(encounter, goblin, "move") is False


def test_a_turn_that_is_over_is_over() -> None:
    """A combatant whose turn had passed could still act without the GM."""
    encounter = fight()
    flow.advance(encounter, random.Random(0))
    flow.advance(encounter, random.Random(0))  # Mira's turn ends
    mira = flow.by_name(encounter, "Mira")
    with pytest.raises(RuleViolation, match="its turn this round is over"):
        require_turn(encounter, mira, "attack")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"grit": 0}, "Mira is Broken and cannot act until Grit is restored."),
        ({"fixed_object": True}, "Mira is a fixed object; it takes no actions."),
        (
            {"grapple": GrappleHold(partner_id=2, role="held")},
            "Mira is locked in a grapple with Goblin: Break Away is the only action",
        ),
    ],
    ids=["broken", "object", "grappling"],
)
def test_who_cannot_act_even_forced(change: dict, message: str) -> None:
    """A Broken combatant, an object, or one in a grapple acted because the GM forced it [002, 000]."""
    encounter = fight()
    flow.advance(encounter, random.Random(0))
    mira = flow.by_name(encounter, "Mira")
    for key, value in change.items():
        setattr(mira, key, value)
    with pytest.raises(RuleViolation, match=message):
        require_turn(encounter, mira, "attack", forced=True)


def test_a_grappling_combatant_may_still_break_away() -> None:
    """A grappling combatant was refused its one action, Break Away [000]."""
    encounter = fight()
    flow.advance(encounter, random.Random(0))
    mira = flow.by_name(encounter, "Mira")
    mira.grapple = GrappleHold(partner_id=2, role="held")
    assert require_turn(encounter, mira, "break away", breaking_away=True) is False
