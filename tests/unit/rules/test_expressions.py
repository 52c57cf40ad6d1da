"""Free-form dice expressions through the d20 library, within the limits [GAME.md §3]."""

from __future__ import annotations

import random

import d20
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.errors import DiceError
from bot.rules import expressions
from bot.rules.dice import (
    MAX_DIE_CHECKS,
    ExpressionRoll,
    check_expression,
    resolve_core,
    roll_expression,
    worst_checks,
)


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
        ("1000d1000" + "k>0" * 63, "at most 10,000 dice in all; this one could check 63,000"),
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


# The work bound [README, Table rulings, bot]: keep, drop, reroll, explode, minimum and
# maximum conditions may check at most 10,000 dice in one roll, counted at worst before
# rolling; every pool a condition looks at counts each of its dice once.


def test_the_work_bound_is_ten_thousand_die_checks() -> None:
    """The bound is not the ruling's 10,000 die checks."""
    assert MAX_DIE_CHECKS == 10_000


@pytest.mark.parametrize(
    ("expression", "checks"),
    [
        ("1d20+3", 0),
        ("4d6kh3", 4),
        ("1000d1000kh1", 1000),  # d20's own keep looked again per die: 1,000,000
        ("1000d1000" + "k>0" * 10, 10_000),
        ("2d20kh1kl1", 4),  # two conditions, each looks at both dice
        ("1000d6mi2", 1000),
        ("(1d6,2d6,3)kh1", 6),  # an entry weighs its nodes and dice: 1d6 2, 2d6 3, 3 one
    ],
)
def test_a_roll_counts_every_die_its_conditions_check(expression: str, checks: int) -> None:
    """A roll's counted checks are not its conditions × the dice they look at."""
    roll = roll_expression(expression, random.Random(1))
    assert roll.checks == checks
    assert worst_checks(expression) >= checks


def test_the_worst_case_counts_the_dice_explosions_and_rerolls_may_add() -> None:
    """4d6e6kh3 was not bounded by 1,000 checks for e6 and 1,000 for kh3 (996 rolls spare)."""
    assert worst_checks("4d6e6kh3") == 2000
    assert worst_checks("1d6e6+1d6e6") == 2 * 999  # each may take all 998 spare rolls


def test_exactly_the_bound_rolls_and_one_more_condition_is_refused() -> None:
    """1000 dice × 10 conditions (10,000 checks) was refused, or × 11 was rolled."""
    assert roll_expression("1000d1000" + "k>0" * 10, random.Random(2)).checks == 10_000
    with pytest.raises(DiceError, match="this one could check 11,000"):
        roll_expression("1000d1000" + "k>0" * 11, random.Random(2))


def test_a_condition_that_rereads_the_whole_pool_each_pass_is_bounded_at_worst() -> None:
    """4d6rrh1 (rerolls the highest die forever) was not refused before rolling."""
    # Pointwise conditions (rr1, e>5) look at each new die once; rrh1 reads the pool each pass.
    assert worst_checks("4d6rrh1") == 997 * 1000
    with pytest.raises(DiceError, match="at most 10,000 dice in all"):
        check_expression("4d6rrh1")


def test_checking_refuses_too_much_work_before_anything_is_rolled() -> None:
    """check_expression (used by /attack damage and /grit amounts) let the selector bomb by."""
    with pytest.raises(DiceError, match="could check 63,000"):
        check_expression("1000d1000" + "k>0" * 63, core=None)


def _d20_roll(expression: str, seed: int) -> tuple[int, list[int]] | str:
    """Roll with d20's own operators from the global random seeded like random.Random(seed)."""
    state = random.getstate()
    random.seed(seed)
    try:
        result = d20.Roller(d20.RollContext(max_rolls=1000)).roll(expression)
    except d20.RollError as error:
        return type(error).__name__
    finally:
        random.setstate(state)
    return result.total, sorted(_faces(result.expr))


def _faces(node: d20.Number) -> list[int]:
    if isinstance(node, d20.Dice):
        return [int(v.number) for die in node.values for v in die.values]
    return [f for child in node.children for f in _faces(child)]


_SMALL_OPERATED = st.builds(
    "{}d{}{}".format,
    st.integers(1, 12),
    st.integers(1, 8),
    st.lists(
        st.builds(
            "{}{}{}".format,
            st.sampled_from(["k", "p", "rr", "ro", "ra", "e", "mi", "ma"]),
            st.sampled_from(["", "h", "l", "<", ">"]),
            st.integers(0, 8),
        ),
        max_size=4,
    ).map("".join),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_SMALL_OPERATED, min_size=1, max_size=3).map("+".join), st.integers(0, 2**32))
def test_counted_operators_roll_what_d20s_own_operators_roll(expression: str, seed: int) -> None:
    """Keep, drop, reroll or explode gave another total or other faces than d20's own."""
    # d20 rerolls in set order, so which die gets which new face may differ: totals and
    # faces may not. Small pools keep d20's quadratic operators fast here.
    expected = _d20_roll(expression, seed)
    try:
        roll = roll_expression(expression, random.Random(seed))
    except DiceError as error:
        # Refused: as d20 refuses, or by the bound, which assumes every spare roll is used.
        assert isinstance(expected, str) or "could check" in error.message, expression
    else:
        assert (roll.total, sorted(roll.faces)) == expected, expression


_CONDITION = st.builds(
    "{}{}{}".format,
    st.sampled_from(["k", "p", "rr", "ro", "ra", "e", "mi", "ma"]),
    st.sampled_from(["", "h", "l", "<", ">"]),
    st.sampled_from([0, 1, 2, 6, 500, 999, 1000]),
)
_POOL = st.sampled_from(["1000d1000", "500d6", "1d1", "10d2", "(1000d6,1)", "((999d2,1)kh1,2)"])


@settings(max_examples=300, deadline=None)
@given(
    st.builds(lambda pool, ops: (pool + "".join(ops))[:200], _POOL, st.lists(_CONDITION)),
    st.integers(0, 2**32),
)
def test_no_roll_checks_more_dice_than_its_worst_case_or_the_bound(
    expression: str, seed: int
) -> None:
    """A selector-heavy roll checked more dice than counted before rolling, or than 10,000."""
    try:
        roll = roll_expression(expression, random.Random(seed))
    except DiceError as error:
        assert "\n" not in error.message
        assert "more than 10,000" not in error.message  # the bound before rolling held
    else:
        assert roll.checks <= worst_checks(expression) <= MAX_DIE_CHECKS, expression


def test_the_count_while_rolling_stops_a_roll_the_bound_before_rolling_missed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the worst case under-counted, 11,000 checks were rolled instead of stopped."""
    # The context counts as d20 counts rolls: a second bound, should the first be wrong.
    monkeypatch.setattr(expressions, "_worst_checks", lambda tree, spare: (0, 0))
    with pytest.raises(DiceError, match="need to check more than 10,000 dice") as caught:
        roll_expression("1000d1000" + "k>0" * 11, random.Random(0))
    assert "\n" not in caught.value.message


def _outcome(expression: str, core: int | None, seed: int) -> tuple[object, ...]:
    """Return what checking and rolling an expression gives: results, or the refusal."""
    try:
        resolved = check_expression(expression, core=core)
        roll = roll_expression(expression, random.Random(seed), core=core)
    except DiceError as error:
        return ("refused", error.message)
    return (resolved, roll.expression, roll.total, roll.breakdown, roll.faces, roll.checks)


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.text(alphabet=_DICE_ALPHABET, max_size=60),
        st.sampled_from(["1d8+1", "core+2", "2d6", "1000d1000k>0", " 1d20 ", "4d6rrh1"]),
    ),
    st.sampled_from([None, 12, 20]),
    st.integers(0, 2**32),
)
def test_a_text_checked_before_is_read_as_when_it_was_new(
    expression: str, core: int | None, seed: int
) -> None:
    """A text read again from the checked texts rolled or was refused otherwise than fresh."""
    expressions._CHECKED.clear()
    fresh = _outcome(expression, core, seed)
    assert _outcome(expression, core, seed) == fresh  # now from the checked texts
    if fresh[0] != "refused":
        assert (expression, core) in expressions._CHECKED
