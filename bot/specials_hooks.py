"""The turn hooks that make Specials tick: the round state machine calls them [GAME.md §7].

`bot.rules.encounter` calls `turn_start` once per combatant per round (guarded so
/init prev and restarts never tick twice) and `turn_end` when its turn ends; the
lines returned go into the turn announcement and the round's log.
"""

from __future__ import annotations

from bot.catalogue import Catalogue
from bot.render.effects import turn_end_text, turn_start_text
from bot.rules import specials
from bot.rules.models import Combatant, Encounter
from bot.rules.specials import SpecialBook


class SpecialHooks:
    """Turn hooks backed by the catalogue's Special definitions."""

    def __init__(self, book: SpecialBook) -> None:
        self.book = book

    @classmethod
    def from_catalogue(cls, catalogue: Catalogue) -> SpecialHooks:
        """Build the hooks from the loaded catalogue."""
        return cls(SpecialBook(catalogue.specials.specials))

    def turn_start(self, encounter: Encounter, combatant: Combatant) -> list[str]:
        """Tick, decay, Stunned and Root at the combatant's turn start; one line if anything."""
        line = turn_start_text(specials.start_turn(combatant, self.book))
        return [line] if line else []

    def turn_end(self, encounter: Encounter, combatant: Combatant) -> list[str]:
        """Slow's damage and Brace's decay at the combatant's turn end; one line if anything."""
        line = turn_end_text(specials.end_turn(combatant, self.book, encounter.round))
        return [line] if line else []
