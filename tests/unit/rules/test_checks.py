"""Checks against challenge levels and the time taken [GAME.md §6, 003]."""

from __future__ import annotations

import random

import pytest

from bot.errors import BadInput
from bot.rules.checks import ChallengeLevel, challenge_level, level_name, roll_check
from tests.scripted import ScriptedRandom, d20
from tests.unit.rules.factories import character, combatant


@pytest.mark.parametrize(
    ("name", "level"),
    [
        ("Trivial", 3),
        ("Mild", 6),
        ("Fair", 9),
        ("Moderate", 12),
        ("Great", 15),
        ("Incredible", 18),
        ("Inconceivable", 21),
    ],
)
def test_challenge_levels(name: str, level: int) -> None:
    """The challenge levels differ from [003]'s table (Trivial 3 … Inconceivable 21)."""
    assert challenge_level(name) == level
    assert challenge_level(name.lower()) == level
    assert ChallengeLevel[name.upper()].display == name
    assert level_name(level) == name


def test_a_numeric_level_is_taken_as_it_is() -> None:
    """A GM's own challenge level of 10 (or "10") was not accepted."""
    assert challenge_level(10) == challenge_level("10") == 10
    assert level_name(10) is None


@pytest.mark.parametrize("level", ["Impossible", 0, "-3"])
def test_unknown_levels_are_refused(level: int | str) -> None:
    """An unknown challenge level was accepted."""
    with pytest.raises(BadInput):
        challenge_level(level)


@pytest.mark.parametrize(
    ("time", "bonus", "raise_"),
    [
        ("normal", 0, 0),
        ("double", 3, 0),
        ("quadruple", 6, 0),
        ("half", 0, 3),
        ("quarter", 0, 6),
        ("eighth", 0, 9),
    ],
)
def test_time_taken(time: str, bonus: int, raise_: int) -> None:
    """Time is not +3 for double, +6 for quadruple, level +3 per halving [003]."""
    result = roll_check(combatant(), 12, random.Random(3), time=time)  # type: ignore[arg-type]
    assert result.total == result.core.total + bonus
    assert result.target == 12 + raise_


def test_a_check_reaching_the_level_succeeds() -> None:
    """Seed 3: 8 + trait 1 = 9 against Fair 9 did not succeed (total ≥ level) [GAME.md §6]."""
    result = roll_check(combatant(), "fair", random.Random(3), trait=1)
    assert (result.core.natural, result.total, result.target) == (8, 9, 9)
    assert result.success


def test_a_check_below_the_level_fails() -> None:
    """Seed 1: 5 + 3 + 3 (double time) = 11 against Moderate 12 succeeded."""
    result = roll_check(combatant(), "moderate", random.Random(1), trait=3, time="double")
    assert (result.core.natural, result.total) == (5, 11)
    assert not result.success


def test_a_risk_failure_fails_whatever_the_total() -> None:
    """Seed 31's natural 1 with trait 30 passed a Trivial check [002]."""
    result = roll_check(combatant(), "trivial", random.Random(31), trait=30)
    assert result.core.risk_failure
    assert not result.success


def test_a_critical_does_not_pass_a_level_the_total_cannot_reach() -> None:
    """A natural 20 passed a level-40 check: the total must reach the level [GAME.md §6, bot]."""
    result = roll_check(combatant(), 40, ScriptedRandom([d20(20)]))
    assert result.core.critical
    assert result.total == 20
    assert not result.success
    reached = roll_check(combatant(), 20, ScriptedRandom([d20(20)]))
    assert reached.core.critical and reached.success


def test_a_character_rolls_its_own_core_die() -> None:
    """Seed 3: a Reduced character did not roll a d12 (4) + 1 = 5."""
    result = roll_check(character(grit=15), 9, random.Random(3), trait=1)
    assert (result.core.die, result.core.natural, result.total) == (12, 4, 5)


def test_a_sacrifice_for_a_check_adds_three() -> None:
    """An action sacrificed for a check did not add +3 [003]."""
    result = roll_check(combatant(sacrifices={"check": 1}), 9, random.Random(3))
    assert [(m.name, m.value) for m in result.modifiers] == [("Sacrifice", 3)]
