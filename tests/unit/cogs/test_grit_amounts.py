"""Amounts for /grit damage and heal: plain numbers or dice, never negative, capped."""

from __future__ import annotations

import random

import pytest

from bot.errors import BadInput, DiceError
from bot.rules.dice import roll_expression
from cogs.grit import MAX_AMOUNT, check_amount, roll_amount


@pytest.mark.parametrize(("typed", "value"), [("0", 0), ("7", 7), (" +12 ", 12), ("10000", 10000)])
def test_a_plain_number_is_its_own_amount(typed: str, value: int) -> None:
    """A whole number is taken as it is, without rolling."""
    assert check_amount(typed) == value
    assert roll_amount(typed, random.Random(1)) == (value, None)


def test_dice_are_checked_without_rolling() -> None:
    """A dice expression passes the check as None (to be rolled) and draws nothing."""
    rng = random.Random(4)
    assert check_amount("2d6+1") is None
    assert rng.random() == random.Random(4).random()


def test_dice_are_rolled_from_the_given_random() -> None:
    """Rolling an amount draws from the injected Random, exactly as roll_expression does."""
    value, roll = roll_amount("3d8", random.Random(9))
    expected = roll_expression("3d8", random.Random(9))
    assert roll == expected
    assert value == expected.total


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("-1", "An amount cannot be negative (got -1)"),
        (str(MAX_AMOUNT + 1), f"One Grit change is at most {MAX_AMOUNT} (got {MAX_AMOUNT + 1})"),
        ("many", "An amount is a whole number or dice such as 2d6, not 'many'"),
        ("core", "An amount is a whole number or dice such as 2d6, not 'core'"),
        ("core+1", "`core` belongs to /roll"),
    ],
)
def test_bad_amounts_are_refused(typed: str, message: str) -> None:
    """Negative, oversized and wordy amounts are refused with a readable reason."""
    with pytest.raises(BadInput, match=message.replace("(", r"\(").replace(")", r"\)")):
        check_amount(typed)


def test_too_many_dice_are_refused_before_rolling() -> None:
    """The dice limits apply before anything is rolled."""
    with pytest.raises(DiceError, match="at most 1000 dice"):
        check_amount("1001d6")


def test_a_roll_below_zero_is_refused() -> None:
    """Dice whose total is negative are refused, naming the roll."""
    with pytest.raises(BadInput, match=r"1d4-10 rolled -\d"):
        roll_amount("1d4-10", random.Random(2))
