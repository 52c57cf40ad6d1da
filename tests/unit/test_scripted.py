"""The scripted dice of the tests: listed faces in order, and a loud failure for anything else."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import pytest

from bot.rules.dice import roll_core, roll_dice, roll_expression
from tests.scripted import (
    Face,
    ScriptedRandom,
    ScriptError,
    d4,
    d6,
    d8,
    d12,
    d20,
    percentile,
)


def test_it_hands_out_the_listed_faces_in_order() -> None:
    """The faces came out in another order, or as other numbers."""
    dice = ScriptedRandom([d20(10), d20(3), 1])
    assert [dice.randint(1, 20), dice.randint(1, 20), dice.randint(1, 8)] == [10, 3, 1]
    dice.done()


def test_it_is_a_random_random() -> None:
    """Code typed for a random.Random could not take scripted dice."""
    assert isinstance(ScriptedRandom(), random.Random)


def test_the_rules_roll_the_listed_faces() -> None:
    """An exploding core roll did not read d20 20 as natural and d20 9 as its explosion."""
    with ScriptedRandom([d20(20), d20(9)]) as dice:
        roll = roll_core(20, dice, explode=True)
    assert (roll.natural, roll.explosions, roll.total) == (20, [9], 29)


def test_the_dice_library_draws_a_listed_face_as_shown() -> None:
    """A d20-library die (randrange(n), plus 1) did not show the listed face."""
    with ScriptedRandom([d6(3), d6(2)]) as dice:
        rolled = roll_expression("2d6+1", dice)
    assert (rolled.breakdown, rolled.total) == ("2d6 (3, 2) + 1 = `6`", 6)


def test_the_percentile_die_shows_tens() -> None:
    """The d20 library's d% (randrange(0, 100, 10)) did not show the listed 30."""
    with ScriptedRandom([percentile(30), d6(2)]) as dice:
        rolled = roll_expression("1d%+1d6", dice)
    assert (rolled.faces, rolled.total) == ([30, 2], 32)


def test_a_face_that_does_not_fit_the_die_fails_at_once() -> None:
    """A 7 was handed to a d6, or the error did not name the die and the face."""
    dice = ScriptedRandom([7])
    with pytest.raises(
        ScriptError, match=r"draw 1, d6 \(randint\(1, 6\)\): face 7 does not fit d6"
    ):
        roll_dice("1d6", dice)


def test_a_face_listed_for_another_die_fails() -> None:
    """A face listed as a d20's was handed to a d8."""
    dice = ScriptedRandom([d20(10), d20(3)])
    dice.randint(1, 20)
    with pytest.raises(ScriptError, match=r"draw 2, d8 .*lists d20 3, for another die"):
        dice.randint(1, 8)


def test_running_out_names_how_many_faces_were_used() -> None:
    """A draw after the last face did not fail, or did not say what the script held."""
    dice = ScriptedRandom([d20(10), d20(3)])
    dice.randint(1, 20)
    dice.randint(1, 20)
    message = (
        "ran out at draw 3, d8 (randrange(8)): the script listed 2 faces, all used (d20 10, d20 3)"
    )
    with pytest.raises(ScriptError, match=re.escape(message)):
        roll_expression("1d8", dice)


REFUSED = [
    pytest.param(lambda r: r.random(), "random()", id="random"),
    pytest.param(lambda r: r.getrandbits(8), "getrandbits()", id="getrandbits"),
    pytest.param(lambda r: r.randbytes(2), "randbytes()", id="randbytes"),
    pytest.param(lambda r: r.choice([1, 2]), "choice()", id="choice"),
    pytest.param(lambda r: r.choices([1, 2]), "choices()", id="choices"),
    pytest.param(lambda r: r.shuffle([1, 2]), "shuffle()", id="shuffle"),
    pytest.param(lambda r: r.sample([1, 2], 1), "sample()", id="sample"),
    pytest.param(lambda r: r.uniform(0, 1), "uniform()", id="uniform"),
    pytest.param(lambda r: r.gauss(0, 1), "random()", id="gauss"),
    pytest.param(lambda r: r.seed(1), "seed()", id="seed"),
    pytest.param(lambda r: r.getstate(), "getstate()", id="getstate"),
    pytest.param(lambda r: r.setstate(random.Random(1).getstate()), "setstate()", id="setstate"),
    pytest.param(lambda r: r._randbelow(6), "_randbelow()", id="_randbelow"),
    pytest.param(lambda r: r.randint(2, 7), "randint(2, 7) is not a die roll", id="randint(2, 7)"),
    pytest.param(lambda r: r.randrange(1, 7), "randrange(1, 7, 1) is not", id="randrange(1, 7)"),
]


@pytest.mark.parametrize(("call", "named"), REFUSED)
def test_every_other_draw_fails_so_no_hidden_stream_is_used(
    call: Callable[[ScriptedRandom], object], named: str
) -> None:
    """A draw that is not a scripted die returned something instead of failing loudly."""
    dice = ScriptedRandom([d20(10)] * 10)
    with pytest.raises(ScriptError, match=re.escape(named)):
        call(dice)
    assert dice.used == 0


def test_an_error_the_code_swallowed_is_raised_again_by_done() -> None:
    """A failed draw caught by the code under test (the bot's apology) let done() pass."""
    dice = ScriptedRandom([d20(10)])
    try:
        dice.randint(1, 12)
    except Exception:  # what the bot's error handler does with an unexpected error
        pass
    with pytest.raises(ScriptError, match="lists d20 10, for another die"):
        dice.done()


def test_done_fails_while_faces_are_left() -> None:
    """A script with faces never drawn passed done(), or did not list them."""
    dice = ScriptedRandom([d20(10), d20(3), d8(1)])
    dice.randint(1, 20)
    message = "2 of the script's 3 faces were never drawn: d20 3, d8 1. Drawn: d20 10."
    with pytest.raises(ScriptError, match=re.escape(message)):
        dice.done()


def test_the_block_form_checks_every_face_was_drawn() -> None:
    """Leaving a `with ScriptedRandom(...)` block with faces left did not fail."""
    with pytest.raises(ScriptError, match="never drawn: d12 8"), ScriptedRandom([d12(8)]):
        pass


def test_the_block_form_lets_the_blocks_own_error_through() -> None:
    """An error inside the block was replaced by the check of unused faces."""
    with pytest.raises(KeyError), ScriptedRandom([d12(8)]):
        raise KeyError("the test's own failure")


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: d20(21), "d20 has no face 21"),
        (lambda: d4(0), "d4 has no face 0"),
        (lambda: percentile(15), "d% has no face 15"),
    ],
)
def test_a_face_the_die_cannot_show_is_refused_when_listed(
    make: Callable[[], Face], message: str
) -> None:
    """A script listing d20 21 was accepted, to fail only when drawn."""
    with pytest.raises(ValueError, match=re.escape(message)):
        make()
