"""/init edit: NPC Perception, durability and stamina, and the battlefield's facts [GAME.md §1]."""

from __future__ import annotations

import pytest

from bot.errors import BadInput, RuleViolation
from bot.rules.combatant_edit import edit_combatant
from bot.rules.grit import perception_m
from tests.unit.rules.factories import combatant, fight


def test_an_npc_gets_perception_durability_and_stamina() -> None:
    """An NPC's Perception, durability and stamina could not be set, or the change was not told."""
    goblin = combatant("Goblin", id=0)
    encounter = fight(goblin, start=False)
    assert perception_m(goblin) == 10  # the Grit table's, Prime [002]
    changes = edit_combatant(
        encounter, goblin, {"perception_m": 14, "durability": 3, "stamina": 2, "reach": 2}
    )
    assert [(c.field, c.before, c.after) for c in changes] == [
        ("perception_m", None, 14),
        ("durability", None, 3),
        ("stamina", None, 2),
        ("reach", 1, 2),
    ]
    assert (perception_m(goblin), goblin.durability, goblin.stamina, goblin.reach) == (14, 3, 2, 2)


def test_a_bad_value_changes_nothing() -> None:
    """An out-of-range value was stored, or half of an edit was."""
    goblin = combatant("Goblin", id=0)
    encounter = fight(goblin, start=False)
    with pytest.raises(BadInput, match="directions blocked"):
        edit_combatant(encounter, goblin, {"stamina": 4, "directions_blocked": 7})
    assert (goblin.stamina, goblin.directions_blocked) == (None, 0)


def test_a_combatant_made_an_object_leaves_the_turn_order() -> None:
    """A combatant made a fixed object kept its turn, or the acting one was made an object [003]."""
    mira = combatant("Mira", id=0, finesse=5, is_npc=False, side="party")
    door = combatant("Door", id=0, finesse=2)
    goblin = combatant("Goblin", id=0, finesse=1)
    encounter = fight(mira, door, goblin)
    with pytest.raises(RuleViolation, match="It is Mira's turn"):
        edit_combatant(encounter, mira, {"fixed_object": True})
    edit_combatant(encounter, door, {"fixed_object": True})
    assert encounter.order == [mira.id, goblin.id] and encounter.turn == 0
