"""Opposed rolls outside an attack: a die, a trait and modifiers against another's roll.

Closing in, breaking away and hiding are action rolls [002 "Use D20, D12, or D10 based on
Grit Level"]: the roller's core die with its own Risk, plus a trait and modifiers. A
Risk failure leaves only the modifiers, as a defense's does [bot].
"""

import random
from collections.abc import Sequence

from pydantic import Field

from bot.rules.dice import CoreRoll, roll_action
from bot.rules.grit import die_of
from bot.rules.models import Combatant
from bot.rules.results import Modifier, Result, total_of
from bot.rules.specials import can_react


class Opposed(Result):
    """One side of an opposed roll: a die, a trait, modifiers."""

    combatant_id: int
    core: CoreRoll | None  # None: it cannot roll (Stunned, Broken) and does not resist
    trait: str
    trait_value: int = 0
    modifiers: list[Modifier] = Field(default_factory=list)

    @property
    def failed(self) -> bool:
        """Return whether the roll failed outright: no roll, or a Risk failure."""
        return self.core is None or self.core.risk_failure

    @property
    def value(self) -> int:
        """Return the roll's value; a Risk failure leaves only the modifiers."""
        if self.core is None:
            return 0
        if self.core.risk_failure:
            return total_of(self.modifiers)
        return self.core.total + self.trait_value + total_of(self.modifiers)


def roll_trait(
    combatant: Combatant, trait: str, rng: random.Random, modifiers: Sequence[Modifier] = ()
) -> Opposed:
    """Roll the combatant's core die + a trait (+ modifiers) for an action."""
    return Opposed(
        combatant_id=combatant.id,
        core=roll_action(combatant, rng),
        trait=trait.capitalize(),
        trait_value=getattr(combatant, trait),
        modifiers=list(modifiers),
    )


def resist(combatant: Combatant, rng: random.Random, trait: str = "physical") -> Opposed:
    """Roll a reaction against someone's action: core die + trait, none if it cannot react."""
    if die_of(combatant) is None or not can_react(combatant):
        return Opposed(combatant_id=combatant.id, core=None, trait=trait.capitalize())
    return roll_trait(combatant, trait, rng)
