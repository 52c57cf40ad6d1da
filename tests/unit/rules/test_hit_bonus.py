"""Hex and Sundered: +1d8 per 2 X, rounded up, on Spell / non-Spell hits [GAME.md §7, 001]."""

from __future__ import annotations

import pytest

from bot.rules.hit_bonus import HitBonus, bonus_dice_count, hit_bonus
from bot.rules.models import ActiveSpecial
from tests.unit.rules.factories import combatant


@pytest.mark.parametrize(("x", "dice"), [(0, 0), (1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (9, 5)])
def test_one_d8_per_two_x_rounded_up(x: int, dice: int) -> None:
    """Hex or Sundered of this X does not add one d8 per 2 X, rounded up."""
    assert bonus_dice_count(x) == dice


def test_sundered_adds_to_a_non_spell_hit_and_hex_does_not() -> None:
    """A non-Spell hit did not get Sundered's dice, or got Hex's."""
    defender = combatant(
        specials=[ActiveSpecial(name="Sundered", x=3), ActiveSpecial(name="Hex", x=4)]
    )
    assert hit_bonus(defender, spell=False) == [HitBonus(special="Sundered", x=3, dice="2d8")]


def test_hex_adds_to_a_spell_hit_and_sundered_does_not() -> None:
    """A Spell hit did not get Hex's dice, or got Sundered's."""
    defender = combatant(
        specials=[ActiveSpecial(name="Sundered", x=3), ActiveSpecial(name="hex", x=4)]
    )
    assert hit_bonus(defender, spell=True) == [HitBonus(special="hex", x=4, dice="2d8")]


def test_separate_entries_of_one_special_add_their_x() -> None:
    """Two Sundered entries from separate sources did not add their X before the dice."""
    defender = combatant(
        specials=[
            ActiveSpecial(name="Sundered", x=1, source="Mira"),
            ActiveSpecial(name="Sundered", x=2, source="Brom"),
        ]
    )
    assert hit_bonus(defender, spell=False) == [HitBonus(special="Sundered", x=3, dice="2d8")]


def test_no_special_no_bonus() -> None:
    """A defender without Hex or Sundered still got bonus dice."""
    assert hit_bonus(combatant(specials=[ActiveSpecial(name="Ruin", x=3)]), spell=False) == []
