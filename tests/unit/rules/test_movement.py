"""Moving and standing up cost actions [003]; Full Cover is an action [002]."""

from __future__ import annotations

import pytest

from bot.errors import BadInput, RuleViolation
from bot.rules.attack_flow import declare_attack
from bot.rules.attacks import AttackSpec, cover_level
from bot.rules.cover import take_full_cover
from bot.rules.movement import actions_for, move_combatant, stand
from bot.rules.specials import SpecialBook
from tests.scripted import ScriptedRandom, d20
from tests.unit.rules.factories import combatant, fight

BOOK = SpecialBook([])


def mira_first(**stats: object):
    mira = combatant("Mira", id=0, is_npc=False, side="party", finesse=5, **stats)
    goblin = combatant("Goblin", id=0)
    return fight(mira, goblin), mira, goblin


@pytest.mark.parametrize(
    ("metres", "mobility", "actions"),
    [(2, 8, 0), (3, 8, 1), (10, 8, 1), (11, 8, 2), (18, 8, 2), (6, 4, 1), (7, 4, 2)],
)
def test_one_space_is_free_then_mobility_per_action(
    metres: int, mobility: int, actions: int
) -> None:
    """A round's move did not cost 0 for one space (2 m), then an action per Mobility [003, 002]."""
    assert actions_for(metres, mobility) == actions


def test_moving_spends_the_actions_it_needs_and_no_more() -> None:
    """Mira (Prime, Mobility 8 m) paid for the free space, or paid twice for one move [003]."""
    encounter, mira, _goblin = mira_first()
    free = move_combatant(encounter, mira, 2, BOOK)
    assert (free.actions_spent, mira.actions_left) == (0, 2)
    paid = move_combatant(encounter, mira, 6, BOOK)
    assert (paid.actions_spent, mira.actions_left) == (1, 1)
    within = move_combatant(encounter, mira, 2, BOOK)  # 10 m: 2 free + 8 paid for
    assert within.actions_spent == 0
    with pytest.raises(RuleViolation, match=r"Mira can move 8 m more this round \(2 m free"):
        move_combatant(encounter, mira, 9, BOOK)
    assert mira.moved_m == 10


def test_moving_out_of_turn_is_refused_unless_forced() -> None:
    """The Goblin moved during Mira's turn without the GM forcing it [GAME.md §10]."""
    encounter, _mira, goblin = mira_first()
    with pytest.raises(RuleViolation, match="It is not Goblin's turn"):
        move_combatant(encounter, goblin, 2, BOOK)
    assert move_combatant(encounter, goblin, 2, BOOK, forced=True).forced
    with pytest.raises(BadInput, match="Move at least 1 m"):
        move_combatant(encounter, goblin, 0, BOOK, forced=True)


def test_a_prone_combatant_moves_one_space_and_standing_takes_an_action() -> None:
    """Prone moved more than one space, or stood up without spending an action [003]."""
    encounter, mira, _goblin = mira_first(prone=True)
    move_combatant(encounter, mira, 2, BOOK)
    with pytest.raises(RuleViolation, match="prone: it moves one space"):
        move_combatant(encounter, mira, 2, BOOK)
    stood = stand(encounter, mira)
    assert (stood.actions_left, mira.prone) == (1, False)
    mira.prone, mira.actions_left = True, 0
    with pytest.raises(RuleViolation, match="no action left this round to stand up"):
        stand(encounter, mira)


def test_full_cover_is_an_action_and_attacking_exposes() -> None:
    """Full Cover cost nothing, did not count as cover 4 against ranged, or outlived an attack [002]."""
    encounter, mira, goblin = mira_first()
    took = take_full_cover(encounter, mira)
    assert (took.actions_left, mira.full_cover) == (1, True)
    assert cover_level(mira, AttackSpec(style="ranged", distance=3)) == 4
    assert cover_level(mira, AttackSpec(style="ranged", distance=0)) == 0  # point-blank [000]
    assert cover_level(mira, AttackSpec()) == 0  # melee
    declared = declare_attack(
        encounter,
        mira,
        goblin,
        AttackSpec(),
        ScriptedRandom([d20(9)]),
        attack_id="x",
        now=0,
        timeout=1,
    )
    assert declared.exposed and not mira.full_cover


def test_moving_leaves_full_cover() -> None:
    """Moving kept a combatant in full cover [bot]."""
    encounter, mira, _goblin = mira_first()
    take_full_cover(encounter, mira)
    assert move_combatant(encounter, mira, 2, BOOK).exposed and not mira.full_cover
