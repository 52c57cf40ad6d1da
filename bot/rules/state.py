"""Looking at an encounter: who is who, and who acts now [GAME.md §5].

The round state machine (`bot.rules.encounter`) changes the encounter; these read it, for
it and for the rules that must know whose turn it is (`bot.rules.acting`) without
depending on the machine itself. `bot.rules.encounter` offers them under its own name.
"""

from __future__ import annotations

from bot.errors import NotFound
from bot.rules.grit import die_of
from bot.rules.models import Combatant, Encounter, Phase
from bot.rules.names import clean_name, name_key

# Phases before the turns, in the `full` flow's order; `compact` opens at Declaration.
OPENING_PHASES: tuple[Phase, ...] = ("start", "question", "declaration")


def by_id(encounter: Encounter, combatant_id: int) -> Combatant:
    """Return the combatant with this id."""
    for combatant in encounter.combatants:
        if combatant.id == combatant_id:
            return combatant
    raise NotFound("That combatant is no longer in this encounter.")


def by_name(encounter: Encounter, name: str) -> Combatant:
    """Return the combatant with this name (normalised, case-insensitive)."""
    wanted = name_key(name)
    for combatant in encounter.combatants:
        if name_key(combatant.name) == wanted:
            return combatant
    raise NotFound("No combatant named {name!r} in this encounter.", name=clean_name(name))


def current_actor(encounter: Encounter) -> Combatant | None:
    """Return who acts now: a waiting combatant acting out of turn, else the turn's owner."""
    if encounter.acting_now is not None:
        return by_id(encounter, encounter.acting_now)
    if encounter.turn is None or encounter.phase != "initiative":
        return None
    return by_id(encounter, encounter.order[encounter.turn])


def turns_running(encounter: Encounter) -> bool:
    """Return whether the round's turns have begun (initiative is rolled)."""
    return encounter.phase not in OPENING_PHASES


def is_broken(combatant: Combatant) -> bool:
    """Return whether a combatant is Broken (0 Grit) and cannot act [002]."""
    return die_of(combatant) is None


def surprised(encounter: Encounter, combatant: Combatant) -> bool:
    """Return whether a combatant is caught by the ambush of round zero [003]."""
    return (
        encounter.round == 0 and encounter.ambush is not None and combatant.side != encounter.ambush
    )
