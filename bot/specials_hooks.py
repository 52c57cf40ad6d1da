"""The turn hooks that make Specials tick: the round state machine calls them [GAME.md §7].

`bot.rules.encounter` calls `turn_start` once per combatant per round (guarded so
/init prev and restarts never tick twice) and `turn_end` when its turn ends; what they
return is data, which the turn announcement puts into words for each audience.
"""

from __future__ import annotations

from bot.rules import powers, specials
from bot.rules.combatant_grit import change_combatant_grit
from bot.rules.models import Combatant, Encounter
from bot.rules.results import Result
from bot.rules.specials import SpecialBook


class SpecialHooks:
    """Turn hooks backed by the catalogue's Special definitions."""

    def __init__(self, book: SpecialBook) -> None:
        self.book = book

    def turn_start(self, encounter: Encounter, combatant: Combatant) -> list[Result]:
        """Tick, decay, Stunned and Root at the combatant's turn start."""
        effects = specials.start_turn(encounter, combatant, self.book)
        found: list[Result] = [] if effects.empty else [effects]
        buff = powers.buff_turn_start(encounter, combatant)  # a maintained Active Buff [001]
        healing = [] if buff is None else [buff]
        healing += powers.passive_healing(combatant)  # "recovery each turn" [001 Passive]
        for turn in healing:
            if turn.healed:
                grit = change_combatant_grit(encounter, combatant, heal=turn.healed)
                turn = turn.model_copy(update={"grit": grit})
            if turn.ended or turn.healed:
                found.append(turn)
        return found

    def turn_end(self, encounter: Encounter, combatant: Combatant) -> list[Result]:
        """Slow's damage and Brace's decay at the combatant's turn end."""
        effects = specials.end_turn(encounter, combatant, self.book)
        return [] if effects is None or effects.empty else [effects]
