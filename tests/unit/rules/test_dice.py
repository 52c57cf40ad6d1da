"""The core roll and free-form dice expressions [GAME.md §3, 002]."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.errors import BadInput, DiceError, RuleViolation
from bot.rules.dice import (
    MAX_EXPLOSIONS,
    roll_action,
    roll_core,
    split_label,
    total_risk,
)
from tests.unit.rules.factories import combatant


def test_a_natural_top_face_is_a_critical() -> None:
    """Seed 5 rolling a natural 20 on a d20 is not a critical success."""
    roll = roll_core(20, random.Random(5))
    assert (roll.faces, roll.natural, roll.total) == ([20], 20, 20)
    assert roll.critical
    assert not roll.risk_failure


def test_a_natural_one_is_a_critical_failure_and_a_risk_failure() -> None:
    """Seed 31 rolling a natural 1 is not both a critical failure and a Risk failure."""
    roll = roll_core(20, random.Random(31))
    assert roll.natural == 1
    assert roll.critical_failure
    assert roll.risk_failure
    assert not roll.critical


def test_a_face_within_total_risk_fails() -> None:
    """A natural 2 against Risk 3 (a Great Axe) does not fail [002]."""
    roll = roll_core(20, random.Random(2), risk=3)
    assert roll.natural == 2
    assert roll.risk_failure
    assert not roll.critical_failure


@pytest.mark.parametrize(
    ("base", "modifier", "situational", "total"), [(1, 0, 0, 1), (3, 1, 2, 6), (1, -3, 0, 1)]
)
def test_total_risk_adds_base_modifier_and_situation(
    base: int, modifier: int, situational: int, total: int
) -> None:
    """Total Risk is not base + the combatant's Risk + situational (at least 1)."""
    assert total_risk(base, modifier, situational) == total


def test_a_widened_crit_range_makes_19_critical() -> None:
    """A natural 19 with crit range 2 is not a critical."""
    roll = roll_core(20, random.Random(6), crit_range=2)
    assert roll.natural == 19
    assert roll.critical


def test_a_face_both_within_risk_and_crit_range_is_a_risk_failure() -> None:
    """A natural 20 with Risk 20 is called a critical instead of a Risk failure [GAME.md §3]."""
    roll = roll_core(20, random.Random(5), risk=20)
    assert roll.risk_failure
    assert not roll.critical


def test_an_explosive_maximum_rolls_again_and_adds() -> None:
    """Seed 421's 20 → 20 → 9 does not explode twice for a total of 49."""
    roll = roll_core(20, random.Random(421), explode=True)
    assert (roll.natural, roll.explosions, roll.total) == (20, [20, 9], 49)
    assert roll.critical


def test_a_d10_explosion_adds_the_second_die() -> None:
    """A d10's 10 does not roll a second d10 and add it [002's example]."""
    roll = roll_core(10, random.Random(5), explode=True)
    assert (roll.faces, roll.explosions, roll.total) == ([10], [5], 15)


def test_explosions_stop_after_ten_rerolls() -> None:
    """A d2 showing 2 eleven times running rolled more than ten extra dice [GAME.md §3]."""
    roll = roll_core(2, random.Random(2680), explode=True)
    assert roll.explosions == [2] * MAX_EXPLOSIONS
    assert roll.total == 22


def test_advantage_keeps_the_better_face() -> None:
    """Advantage on 13 and 14 does not keep 14."""
    roll = roll_core(20, random.Random(0), advantage="advantage")
    assert (roll.faces, roll.natural) == ([13, 14], 14)


def test_disadvantage_keeps_the_worse_face() -> None:
    """Disadvantage on 13 and 14 does not keep 13."""
    roll = roll_core(20, random.Random(0), advantage="disadvantage")
    assert (roll.faces, roll.natural) == ([13, 14], 13)


def test_bonus_and_penalty_dice_add_and_subtract() -> None:
    """Seed 1: 5 + 1d10 (10) − 1d6 + 2 is not added up correctly."""
    roll = roll_core(20, random.Random(1), bonus_dice=["1d10"], penalty_dice=["1d6"], modifier=2)
    assert roll.natural == 5
    assert roll.bonus[0].faces == [10]
    assert roll.total == 5 + 10 - roll.penalty[0].faces[0] + 2


def test_a_maximum_bonus_die_is_no_critical() -> None:
    """A bonus d10 showing 10 made the roll critical [002]."""
    roll = roll_core(20, random.Random(1), bonus_dice=["1d10"])
    assert roll.bonus[0].faces == [10]
    assert not roll.critical


def test_a_bonus_die_without_a_count_means_one() -> None:
    """A bonus "d10" is not read as 1d10."""
    roll = roll_core(20, random.Random(1), bonus_dice=["d10"])
    assert roll.bonus[0].spec == "1d10"


@pytest.mark.parametrize("spec", ["1d10x", "0d0", "1d1001", "1001d6", "one"])
def test_malformed_bonus_dice_are_refused(spec: str) -> None:
    """A bad bonus die spec rolls instead of raising DiceError."""
    with pytest.raises(DiceError):
        roll_core(20, random.Random(0), bonus_dice=[spec])


def test_a_broken_combatant_cannot_roll_an_action() -> None:
    """A Broken combatant rolled an action instead of raising RuleViolation."""
    with pytest.raises(RuleViolation):
        roll_action(combatant(grit=0), random.Random(0))


def test_an_action_roll_uses_the_combatants_die_risk_and_crit_range() -> None:
    """A Reduced combatant with Risk 1 and a Great Axe does not roll d12 at Risk 4."""
    roll = roll_action(combatant(grit=15, risk=1, crit_range=2), random.Random(0), base_risk=3)
    assert (roll.die, roll.risk, roll.crit_range) == (12, 4, 2)


def test_core_die_rejects_nonsense() -> None:
    """A one-sided core die or Risk 0 is rolled instead of raising BadInput."""
    with pytest.raises(BadInput):
        roll_core(1, random.Random(0))
    with pytest.raises(BadInput):
        roll_core(20, random.Random(0), risk=0)


@given(
    seed=st.integers(0, 2**32),
    die=st.sampled_from([20, 12, 10]),
    risk=st.integers(1, 22),
    crit_range=st.integers(1, 5),
    explode=st.booleans(),
    advantage=st.sampled_from([None, "advantage", "disadvantage"]),
    bonus=st.lists(st.sampled_from(["1d10", "2d6", "1d20"]), max_size=3),
    penalty=st.lists(st.sampled_from(["1d4", "1d6"]), max_size=2),
    modifier=st.integers(-10, 10),
)
def test_a_rolls_total_is_the_sum_of_its_parts(
    seed, die, risk, crit_range, explode, advantage, bonus, penalty, modifier
) -> None:
    """A roll's total differs from kept face + explosions + bonus − penalty + modifier."""
    roll = roll_core(
        die,
        random.Random(seed),
        risk=risk,
        crit_range=crit_range,
        explode=explode,
        advantage=advantage,
        bonus_dice=bonus,
        penalty_dice=penalty,
        modifier=modifier,
    )
    parts = (
        roll.natural
        + sum(roll.explosions)
        + sum(f for g in roll.bonus for f in g.faces)
        - sum(f for g in roll.penalty for f in g.faces)
        + modifier
    )
    assert roll.total == parts
    assert roll.natural in roll.faces
    assert len(roll.explosions) <= MAX_EXPLOSIONS


@given(
    seed=st.integers(0, 2**32),
    die=st.sampled_from([20, 12, 10]),
    risk=st.integers(1, 22),
    crit_range=st.integers(1, 5),
    bonus=st.lists(st.sampled_from(["1d10", "2d6", "1d20"]), min_size=1, max_size=3),
)
def test_risk_and_critical_never_come_from_bonus_dice_or_explosions(
    seed, die, risk, crit_range, bonus
) -> None:
    """Adding explosions or bonus/penalty dice changed the natural face, Risk or Critical."""
    plain = roll_core(die, random.Random(seed), risk=risk, crit_range=crit_range)
    loaded = roll_core(
        die,
        random.Random(seed),
        risk=risk,
        crit_range=crit_range,
        explode=True,
        bonus_dice=bonus,
        penalty_dice=bonus,
    )
    assert loaded.natural == plain.natural
    flags = ("risk_failure", "critical", "critical_failure")
    assert [getattr(loaded, f) for f in flags] == [getattr(plain, f) for f in flags]
    assert plain.risk_failure == (plain.natural <= risk)
    assert plain.critical == (plain.natural > die - crit_range and plain.natural > risk)


def test_a_discarded_maximum_does_not_explode() -> None:
    """Seed 5: disadvantage on 20 and 9 kept 20 or exploded the discarded 20."""
    roll = roll_core(20, random.Random(5), advantage="disadvantage", explode=True)
    assert (roll.faces, roll.natural, roll.explosions) == ([20, 9], 9, [])
    assert not roll.critical


def test_a_kept_maximum_explodes() -> None:
    """Seed 9: advantage on 15 and 20 did not keep 20 and explode it (12)."""
    roll = roll_core(20, random.Random(9), advantage="advantage", explode=True)
    assert (roll.faces, roll.natural, roll.explosions, roll.total) == ([15, 20], 20, [12], 32)


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("1d20+5 attack", ("1d20+5", "attack")),
        ("1d20 + 5 to hit the goblin", ("1d20 + 5", "to hit the goblin")),
        ("core+2 sneak", ("core+2", "sneak")),
        ("4d6kh3", ("4d6kh3", None)),  # dice alone: no label
        ("1d20 + 5", ("1d20 + 5", None)),
        ("fireball", ("fireball", None)),  # no dice at all: left for the roll to refuse
    ],
)
def test_a_label_is_the_words_after_the_dice(typed: str, expected: tuple[str, str | None]) -> None:
    """/roll's label took part of the dice, or dice without words got a label [bot]."""
    assert split_label(typed) == expected
