"""Small builders for the rules tests: a combatant with only the numbers a test cares about."""

from __future__ import annotations

import random
from typing import Any

from bot.rules import encounter as flow
from bot.rules.models import Character, Combatant, Encounter

_next_id = iter(range(1, 1_000_000))


def combatant(name: str = "Mira", **fields: Any) -> Combatant:
    """Build a combatant with defaults (30 Grit: Prime, d20)."""
    fields.setdefault("id", next(_next_id))
    return Combatant(name=name, **fields)


def character(name: str = "Mira", **fields: Any) -> Character:
    """Build a player's character with defaults."""
    return Character(name=name, guild_id=1, owner_id=1, **fields)


def fight(*combatants: Combatant, start: bool = True) -> Encounter:
    """Put combatants in a finesse-mode encounter; with `start`, the highest Finesse acts."""
    encounter = Encounter(channel_id=1, gm_id=9, mode="finesse")
    for one in combatants:
        flow.add_combatant(encounter, one, random.Random(0))
    if start:
        flow.advance(encounter, random.Random(0))
    return encounter
