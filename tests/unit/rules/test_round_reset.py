"""A combatant's round starting afresh [GAME.md §5]: the same state as assigning every field.

`_reset_for_round` assigns only the fields that differ (each assignment is validated and
marks the field changed for the store's text); these check it leaves exactly what
assigning all of them left, and marks what it changed.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.rules import encounter as flow
from bot.rules.initiative import actions_per_round
from bot.rules.models import Combatant, Declaration, GrappleHold


def reset_every_field(combatant: Combatant) -> None:
    """The reset as it was: every per-round field assigned, whatever it held."""
    combatant.hasted = False
    combatant.waiting = False
    combatant.minor_acts = 0
    combatant.sacrifices = {}
    combatant.moved_m = 0
    combatant.move_actions = 0
    combatant.charged_spaces = 0
    combatant.acted_this_round = False
    combatant.acted_out_of_turn = False
    combatant.declaration = None
    combatant.actions_left = actions_per_round(combatant)


round_states = st.fixed_dictionaries(
    {
        "grit": st.integers(0, 40),
        "die_shift": st.integers(0, 5),
        "hasted": st.booleans(),
        "waiting": st.booleans(),
        "holding": st.booleans(),
        "minor_acts": st.integers(0, 3),
        "sacrifices": st.dictionaries(
            st.sampled_from(["attack", "defense", "check"]), st.integers(0, 2)
        ),
        "moved_m": st.integers(0, 12),
        "move_actions": st.integers(0, 2),
        "charged_spaces": st.integers(0, 4),
        "acted_this_round": st.booleans(),
        "acted_out_of_turn": st.booleans(),
        "actions_left": st.integers(0, 3),
        "declaration": st.none() | st.builds(Declaration, text=st.just("Attack the goblin")),
        "grapple": st.none() | st.builds(GrappleHold, partner_id=st.just(2), role=st.just("held")),
    }
)


@given(round_states)
def test_a_round_reset_leaves_what_assigning_every_field_left(state: dict[str, object]) -> None:
    """Skipping the assignments of fields already at rest changed a combatant's new round."""
    fast = Combatant(id=1, name="Mira", max_grit=40, **state)
    slow = Combatant(id=1, name="Mira", max_grit=40, **state)
    flow._reset_for_round(fast)
    reset_every_field(slow)
    assert fast.model_dump_json() == slow.model_dump_json()


@given(round_states)
def test_a_round_reset_marks_each_field_it_changed(state: dict[str, object]) -> None:
    """A field the reset changed was not marked as set: the store would keep its old text."""
    combatant = Combatant(id=1, name="Mira", max_grit=40, **state)
    before = combatant.model_dump()
    flow._reset_for_round(combatant)
    after = combatant.model_dump()
    changed = {field for field in after if after[field] != before[field]}
    assert changed <= combatant.model_fields_set


def test_a_combatant_at_rest_is_not_marked_changed() -> None:
    """A fresh combatant's round reset assigned fields that were already as the round starts."""
    combatant = Combatant(id=1, name="Mira")
    flow._reset_for_round(combatant)
    assert combatant.model_fields_set == set()
