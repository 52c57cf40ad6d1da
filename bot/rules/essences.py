"""Essences: consumable magical or alchemical effects, one active at a time [002].

[002] lists Elixirs (drunk), Tonics (heal or protect), Salves (on the skin) and Balms (on
weapons, lasting several attacks), and Bombs (thrown; an attack, not an active essence).
The bot keeps which essence is active and how long it lasts; what it does is the GM's,
played with /effect or /grit [bot]. Using one is a sub action ([000] "Using Items"): it
costs no action, on the user's turn. A second essence while one is active is refused.
"""

from typing import Literal

from bot.errors import BadInput, RuleViolation
from bot.rules.acting import require_turn
from bot.rules.models import MAX_ITEM_NAME, ActiveEssence, Combatant, Encounter, EssenceKind
from bot.rules.results import Result

MAX_DURATION = 100  # rounds or attacks [bot]

EndReason = Literal["ended", "ran_out"]


class EssenceUsed(Result):
    """An essence made active on a combatant."""

    combatant_id: int
    essence: ActiveEssence
    forced: bool = False


class EssenceEnded(Result):
    """An essence no longer active: ended by its user or the GM, or run out."""

    combatant_id: int
    essence: ActiveEssence
    reason: EndReason


def use_essence(
    encounter: Encounter,
    combatant: Combatant,
    name: str,
    kind: EssenceKind,
    *,
    rounds: int | None = None,
    attacks: int | None = None,
    forced: bool = False,
) -> EssenceUsed:
    """Make an essence active: only one at a time [002]; it lasts rounds, attacks, or until ended."""
    cleaned = " ".join(name.split())
    if not cleaned:
        raise BadInput("Name the essence.")
    if len(cleaned) > MAX_ITEM_NAME:
        raise BadInput("Essence names are at most {most} characters.", most=MAX_ITEM_NAME)
    for count in (rounds, attacks):
        if count is not None and not 1 <= count <= MAX_DURATION:
            raise BadInput("An essence lasts 1–{most} rounds or attacks.", most=MAX_DURATION)
    if attacks is not None and kind != "balm":
        raise BadInput("Only a balm lasts a number of attacks; give rounds for the others.")
    active = combatant.essence
    if active is not None:
        raise RuleViolation(
            "{name} already has {essence} active: one essence at a time (/essence end first).",
            name=combatant.name,
            essence=active.name,
        )
    forced = require_turn(encounter, combatant, "use an essence", forced=forced)
    combatant.essence = ActiveEssence(
        name=cleaned, kind=kind, rounds_left=rounds, attacks_left=attacks
    )
    return EssenceUsed(combatant_id=combatant.id, essence=combatant.essence, forced=forced)


def end_essence(combatant: Combatant) -> EssenceEnded:
    """End the combatant's active essence."""
    active = combatant.essence
    if active is None:
        raise RuleViolation("{name} has no essence active.", name=combatant.name)
    combatant.essence = None
    return EssenceEnded(combatant_id=combatant.id, essence=active, reason="ended")


def _spend(
    combatant: Combatant, field: Literal["rounds_left", "attacks_left"]
) -> EssenceEnded | None:
    active = combatant.essence
    if active is None or getattr(active, field) is None:
        return None
    left = getattr(active, field) - 1
    if left >= 1:
        combatant.essence = active.model_copy(update={field: left})
        return None
    combatant.essence = None
    return EssenceEnded(combatant_id=combatant.id, essence=active, reason="ran_out")


def essence_round_passed(combatant: Combatant) -> EssenceEnded | None:
    """Count down an essence that lasts rounds, at the round's end; return it if it ran out."""
    return _spend(combatant, "rounds_left")


def essence_attack_made(combatant: Combatant) -> EssenceEnded | None:
    """Count down a balm's attacks as its weapon attacks; return it if it ran out [002]."""
    return _spend(combatant, "attacks_left")
