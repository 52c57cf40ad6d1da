"""Bonus damage a defender's Specials add to hits on it: Hex and Sundered [GAME.md §7, 001]."""

import math

from bot.rules.models import Combatant
from bot.rules.results import Result

HEX = "hex"  # +1d8 per 2 X (rounded up) when hit by a Spell [001]
SUNDERED = "sundered"  # the same when hit by a non-Spell attack [001]
X_PER_DIE = 2
BONUS_DIE = 8


class HitBonus(Result):
    """One Special's extra damage on a hit: Sundered 3 → 2d8."""

    special: str  # as the combatant carries it: "Sundered"
    x: int
    dice: str  # a dice expression for `resolve_attack(extra_damage_dice=...)`


def bonus_dice_count(x: int) -> int:
    """Return how many d8 a Special of this X adds: one per 2 X, rounded up."""
    return math.ceil(x / X_PER_DIE) if x > 0 else 0


def hit_bonus(defender: Combatant, *, spell: bool) -> list[HitBonus]:
    """Return the extra damage dice a hit on the defender gets from its Hex or Sundered."""
    # Hex counts against Spells, Sundered against everything else. Several entries of the
    # same Special (from separate sources) add their X, as Diminishing Specials stack [001].
    wanted = HEX if spell else SUNDERED
    carried = [s for s in defender.specials if s.name.casefold() == wanted and s.x]
    x = sum(s.x or 0 for s in carried)
    count = bonus_dice_count(x)
    if not count:
        return []
    return [HitBonus(special=carried[0].name, x=x, dice=f"{count}d{BONUS_DIE}")]
