"""What an Injury does at the table [000, 002].

- Injuries occur at 0 Grit and require special treatment [002]: healing above 0 does not
  clear them; the GM does, after treatment or rest (/init edit injuries:N).
- "Wounds apply to Finesse checks" [000], said of initiative by Finesse: each Injury is
  −1 to Finesse checks and to initiative [bot: the documents give no number].
- "Injuries and wounds to the legs will prevent jumping all together" [000]: a combatant
  with a leg injury cannot make a jump check.
"""

from __future__ import annotations

from typing import Protocol

from bot.errors import RuleViolation
from bot.rules.models import Combatant
from bot.rules.results import Modifier


class Injured(Protocol):
    """Anything that records Injuries: a Combatant or a Character."""

    injuries: int


INJURY_PENALTY = 1  # per Injury, to Finesse checks and initiative [bot]


def injury_penalty(combatant: Injured) -> int:
    """Return what a combatant's Injuries take off its Finesse checks (a negative number or 0)."""
    return -INJURY_PENALTY * combatant.injuries


def injury_modifiers(combatant: Injured, trait: str | None) -> list[Modifier]:
    """Return the Injury penalty for a check of this trait: Finesse checks only [000]."""
    penalty = injury_penalty(combatant)
    if trait is None or trait.casefold() != "finesse" or not penalty:
        return []
    return [Modifier(name=f"Injuries ×{combatant.injuries}", value=penalty)]


def require_can_jump(combatant: Combatant) -> None:
    """Refuse a jump by a combatant with an injury to the legs [000]."""
    if combatant.leg_injury:
        raise RuleViolation(
            "{name} has an injury to the legs: it cannot jump at all until it is treated.",
            name=combatant.name,
        )
