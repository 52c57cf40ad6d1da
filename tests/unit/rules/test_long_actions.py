"""Long actions: focused and cumulative progress toward a count [GAME.md §5, 000]."""

from __future__ import annotations

import pytest

from bot.errors import BadInput, RuleViolation
from bot.rules.long_actions import (
    long_action_attacked,
    long_action_defense,
    new_round,
    start_long_action,
    stop_long_action,
    work_on_long_action,
)
from bot.rules.models import Combatant, Declaration
from tests.unit.rules.factories import combatant


def test_a_long_action_starts_at_zero() -> None:
    """A new long action did not start with progress 0 toward its count."""
    mira = combatant()
    action = start_long_action(mira, "Pick the lock", "cumulative", 3)
    assert (action.progress, action.rounds, mira.long_action) == (0, 3, action)


def test_each_main_action_adds_one_to_a_cumulative_action() -> None:
    """A cumulative long action did not gain 1 per main action, keeping the other action free."""
    mira = combatant()
    start_long_action(mira, "Dig", "cumulative", 3)
    step = work_on_long_action(mira)
    assert (step.progress, step.added, step.actions_spent, mira.actions_left) == (1, 1, 1, 1)


def test_a_cumulative_action_completes_and_frees_the_remaining_actions() -> None:
    """A cumulative long action reaching its count did not complete with an action left."""
    mira = combatant()
    start_long_action(mira, "Dig", "cumulative", 1)
    step = work_on_long_action(mira)
    assert step.completed
    assert mira.long_action is None
    assert mira.actions_left == 1


def _performing(mira: Combatant) -> None:
    """Make the long action this round's declaration: it is being performed [000]."""
    assert mira.long_action is not None
    mira.declaration = Declaration(text=mira.long_action.name, kind="long")


def test_no_progress_in_a_round_a_cumulative_action_is_attacked() -> None:
    """A cumulative long action gained progress in a round it was attacked [000]."""
    mira = combatant()
    start_long_action(mira, "Dig", "cumulative", 3)
    _performing(mira)
    interrupted = long_action_attacked(mira)
    assert interrupted is not None and interrupted.effect == "auto_hit"
    step = work_on_long_action(mira)
    assert (step.added, step.progress) == (0, 0)
    new_round(mira)
    assert work_on_long_action(mira).progress == 1


def test_a_focused_action_takes_the_whole_round() -> None:
    """A round of focus did not add 1 and use up the actor's actions."""
    mira = combatant()
    start_long_action(mira, "Ritual", "focused", 2)
    step = work_on_long_action(mira)
    assert (step.progress, step.actions_spent, mira.actions_left) == (1, 2, 0)


def test_an_attack_resets_a_focused_action_to_zero() -> None:
    """An attack on a focused long action did not reset its progress to 0 [000]."""
    mira = combatant()
    start_long_action(mira, "Ritual", "focused", 4)
    _performing(mira)
    assert mira.long_action is not None
    mira.long_action.progress = 3
    interrupted = long_action_attacked(mira)
    assert interrupted is not None
    assert (interrupted.effect, interrupted.progress_before, interrupted.progress_after) == (
        "no_defense",
        3,
        0,
    )


@pytest.mark.parametrize(
    ("kind", "effect"), [("focused", "no_defense"), ("cumulative", "auto_hit")]
)
def test_what_a_long_action_does_to_defense(kind: str, effect: str) -> None:
    """A long action's kind did not decide: focused → no defense, cumulative → automatic hit."""
    mira = combatant()
    assert long_action_defense(mira) is None
    start_long_action(mira, "Task", kind, 2)  # type: ignore[arg-type]
    assert long_action_defense(mira) is None  # not performed this round [000, GAME.md §10]
    _performing(mira)
    assert long_action_defense(mira) == effect
    mira.grit = 0
    assert long_action_defense(mira) is None  # a Broken combatant performs nothing


def test_working_without_a_long_action_is_refused() -> None:
    """Working on a long action that does not exist was allowed."""
    with pytest.raises(RuleViolation):
        work_on_long_action(combatant())


def test_a_second_long_action_is_refused() -> None:
    """A second long action replaced the one under way."""
    mira = combatant()
    start_long_action(mira, "Dig", "cumulative", 3)
    with pytest.raises(RuleViolation):
        start_long_action(mira, "Sing", "focused", 2)


@pytest.mark.parametrize(("name", "rounds"), [("", 2), ("Dig", 0)])
def test_malformed_long_actions_are_refused(name: str, rounds: int) -> None:
    """A long action with no name or no rounds was started."""
    with pytest.raises(BadInput):
        start_long_action(combatant(), name, "focused", rounds)


def test_stopping_clears_the_long_action() -> None:
    """Stopping a long action did not clear it."""
    mira = combatant()
    start_long_action(mira, "Dig", "cumulative", 3)
    assert stop_long_action(mira).name == "Dig"
    assert mira.long_action is None
