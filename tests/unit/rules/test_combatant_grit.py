"""A combatant's Grit in a fight: back on its feet before its turn, it gets its actions [002].

[002]: a Broken combatant "cannot act until Grit is restored above 0"; GAME.md §5: two
actions per round (docs/RULES.md). Restored before its turn is over, it takes that turn
with this round's actions; restored after its turn passed, it waits for the next round.
"""

from __future__ import annotations

from bot.rules.combatant_grit import change_combatant_grit, turn_to_come
from bot.rules.models import Combatant, Encounter


def fight(*, turn: int | None, started: int | None = None, **broken: object) -> Encounter:
    """Round 2: the Goblin (id 1) then Mira (id 2, Broken, 0 actions) in the order."""
    goblin = Combatant(id=1, name="Goblin")
    mira = Combatant(
        id=2, name="Mira", grit=0, actions_left=0, turn_started_round=started, **broken
    )
    return Encounter(
        channel_id=1,
        gm_id=9,
        round=2,
        phase="initiative",
        combatants=[goblin, mira],
        order=[1, 2],
        turn=turn,
    )


def mira(encounter: Encounter) -> Combatant:
    return encounter.combatants[1]


def test_healed_before_its_turn_it_gets_two_actions() -> None:
    """Mira healed 5 during the Goblin's turn did not get the round's 2 actions."""
    encounter = fight(turn=0)
    change = change_combatant_grit(encounter, mira(encounter), heal=5)
    assert change.announcement == "back_on_feet"
    assert mira(encounter).actions_left == 2


def test_restored_at_its_own_turn_start_it_gets_two_actions() -> None:
    """Regeneration at Mira's own turn start (her turn has begun) left her with 0 actions."""
    encounter = fight(turn=1, started=2)
    assert turn_to_come(encounter, mira(encounter))
    change_combatant_grit(encounter, mira(encounter), heal=3)
    assert mira(encounter).actions_left == 2


def test_restored_after_its_turn_passed_it_waits_for_the_next_round() -> None:
    """Mira, whose turn already passed this round, got actions from a later heal."""
    encounter = fight(turn=0, started=2)  # her turn started (and was skipped) earlier
    assert not turn_to_come(encounter, mira(encounter))
    change_combatant_grit(encounter, mira(encounter), set_to=5)
    assert mira(encounter).actions_left == 0


def test_a_holding_or_acted_combatant_gets_nothing_back() -> None:
    """A combatant that holds into the next round or has acted got actions from a heal."""
    for state in ({"holding": True}, {"acted_this_round": True}, {"acted_out_of_turn": True}):
        encounter = fight(turn=0, **state)
        change_combatant_grit(encounter, mira(encounter), heal=5)
        assert mira(encounter).actions_left == 0, state


def test_damage_or_a_heal_that_stays_broken_changes_no_actions() -> None:
    """A change that does not bring Mira back changed her actions."""
    encounter = fight(turn=0)
    change_combatant_grit(encounter, mira(encounter), set_to=0, max_grit=40)
    assert mira(encounter).actions_left == 0
