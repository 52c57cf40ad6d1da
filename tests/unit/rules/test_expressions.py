"""Free-form dice expressions through the d20 library, within the limits [GAME.md §3]."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.errors import DiceError
from bot.rules.dice import ExpressionRoll, check_expression, resolve_core, roll_expression


@pytest.mark.parametrize(
    ("expression", "core", "total", "breakdown", "faces"),
    [
        ("1d20+3", None, 14, "1d20 (11) + 3 = `14`", [11]),
        ("core+2", 12, 8, "1d12 (6) + 2 = `8`", [6]),
        ("4d6kh3", None, 13, "4d6kh3 (3, ~~2~~, 4, **6**) = `13`", [3, 2, 4, 6]),
    ],
)
def test_a_seeded_expression_rolls_exactly(
    expression: str, core: int | None, total: int, breakdown: str, faces: list[int]
) -> None:
    """Seed 7 does not give the exact faces, breakdown and total."""
    roll = roll_expression(expression, random.Random(7), core=core)
    assert (roll.total, roll.breakdown, roll.faces) == (total, breakdown, faces)


def test_exploding_dice_in_an_expression_use_the_injected_random() -> None:
    """Seed 20's 1d6e6 does not explode 6 → 6 → 2 for 14."""
    roll = roll_expression("1d6e6", random.Random(20))
    assert (roll.faces, roll.total) == ([6, 6, 2], 14)


def test_expressions_leave_the_global_random_state_alone() -> None:
    """Rolling an expression drew from the random module's global state."""
    state = random.getstate()
    roll_expression("10d20e20 + 4d6rr1", random.Random(1))
    assert random.getstate() == state


@pytest.mark.parametrize(
    ("typed", "die", "resolved"),
    [
        ("core", 20, "d20"),
        ("core+3", 12, "d12+3"),
        ("2corekh1", 10, "2d10kh1"),
        ("CORE", 20, "d20"),
    ],
)
def test_the_core_token_becomes_the_rollers_die(typed: str, die: int, resolved: str) -> None:
    """`core` is not replaced by the roller's current core die."""
    assert resolve_core(typed, die) == resolved


def test_core_without_a_die_is_a_dice_error() -> None:
    """`core` for a Broken roller rolled instead of raising DiceError."""
    with pytest.raises(DiceError, match="Broken"):
        roll_expression("core+1", random.Random(0), core=None)


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("1" * 201, "at most 200 characters"),
        ("1001d2", "at most 1000 dice"),
        ("600d6+401d6", "at most 1000 dice"),
        ("1d1001", "at most 1000 sides"),
        ("(" * 21 + "1" + ")" * 21, "nests brackets"),
        ("1d1e1", "more than 1000 dice"),
        ("1d2rr<3", "more than 1000 dice"),
        ("1/0", "divide by zero"),
        ("1d0", "0-sided"),
        ("1d20+", "ends too early"),
        ("fireball", "can't be read"),
        ("", "Give a dice expression"),
    ],
)
def test_malformed_or_oversized_expressions_raise_one_dice_error(
    expression: str, message: str
) -> None:
    """A bad expression did not raise DiceError with a readable one-line message."""
    with pytest.raises(DiceError, match=message) as caught:
        roll_expression(expression, random.Random(0))
    assert "\n" not in caught.value.message


def test_the_limits_themselves_are_allowed() -> None:
    """1000 dice of 1000 sides in 200 characters were refused."""
    roll = roll_expression("1000d1000", random.Random(0))
    assert len(roll.faces) == 1000


_DICE_ALPHABET = "0123456789d%+-*/()<>=!,.khlpreomia []core "


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=_DICE_ALPHABET, max_size=220), st.integers(0, 2**32))
def test_every_expression_either_rolls_or_raises_the_dice_error(expression: str, seed: int) -> None:
    """Some input raised something other than DiceError."""
    try:
        roll = roll_expression(expression, random.Random(seed), core=20)
    except DiceError as error:
        assert error.message
    else:
        assert isinstance(roll, ExpressionRoll)


_TERM = st.builds(
    "{}d{}{}".format,
    st.integers(1, 30),
    st.integers(1, 100),
    st.sampled_from(["", "kh1", "kl1", "e6", "ro1", "mi2", "ma5"]),
)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.one_of(_TERM, st.integers(0, 99).map(str)), min_size=1, max_size=6),
    st.lists(st.sampled_from("+-*"), min_size=5, max_size=5),
    st.integers(0, 2**32),
)
def test_well_formed_expressions_roll_or_hit_a_limit(
    terms: list[str], ops: list[str], seed: int
) -> None:
    """A well-formed expression raised something other than DiceError."""
    expression = terms[0] + "".join(op + term for op, term in zip(ops, terms[1:], strict=False))
    try:
        roll = roll_expression(expression, random.Random(seed))
    except DiceError as error:
        assert "\n" not in error.message
    else:
        assert roll.expression == expression


def test_checking_an_expression_resolves_it_without_rolling() -> None:
    """Checking `core+2` for a d12 did not return `d12+2`, or refused a valid expression."""
    assert check_expression("core+2", core=12) == "d12+2"


def test_checking_an_expression_applies_the_limits() -> None:
    """Checking 1001 dice did not raise DiceError."""
    with pytest.raises(DiceError):
        check_expression("1001d6")
