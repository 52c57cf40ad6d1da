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


def test_a_combatant_with_a_turn_this_round_cannot_become_an_object() -> None:
    """A combatant in this round's order became a fixed object, which takes no turns [003]."""
    goblin = combatant("Goblin", id=0)
    encounter = fight(goblin)
    with pytest.raises(RuleViolation, match="has a turn this round"):
        edit_combatant(encounter, goblin, {"fixed_object": True})
    door = combatant("Door", id=0)
    later = fight(door, start=False)
    edit_combatant(later, door, {"fixed_object": True})
    assert door.fixed_object
