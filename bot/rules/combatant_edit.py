"""The GM's corrections to a combatant in a fight: its stats and its situation (/init edit).

NPCs have no sheet, so their Perception, durability and stamina are set here [GAME.md §1,
000]; so is what the table decides about the battlefield — directions blocked, reach, a
fixed object — and what the GM rules outside the dice: spotted, prone, Injuries. Each
change goes through the model's own bounds, and comes back as before → after.
"""

from typing import Any

from pydantic import ValidationError

from bot.errors import BadInput
from bot.i18n import N_, _
from bot.rules import encounter as flow
from bot.rules.models import Combatant, Encounter
from bot.rules.results import Result

# The fields /init edit may set, and how a reply names them.
# (Message ids: a reply translates them with `_()` where it names them.)
EDITABLE: dict[str, str] = {
    "physical": N_("Physical"),
    "finesse": N_("Finesse"),
    "risk": N_("Risk"),
    "crit_range": N_("crit range"),
    "perception_m": N_("Perception (m)"),
    "durability": N_("durability"),
    "stamina": N_("stamina"),
    "reach": N_("reach"),
    "directions_blocked": N_("directions blocked"),
    "fixed_object": N_("fixed object"),
    "prone": N_("prone"),
    "stealth": N_("hidden status"),
    "injuries": N_("Injuries"),
    "leg_injury": N_("leg injury"),
}


class FieldChange(Result):
    """One field set by /init edit."""

    field: str
    before: Any
    after: Any


def edit_combatant(
    encounter: Encounter, combatant: Combatant, changes: dict[str, Any]
) -> list[FieldChange]:
    """Set the given fields on a combatant, all or none; return what changed."""
    unknown = set(changes) - set(EDITABLE)
    if unknown:
        raise BadInput("/init edit cannot set {fields}.", fields=", ".join(sorted(unknown)))
    if not changes:
        raise BadInput("Give at least one field to change, e.g. perception:12.")
    if "injuries" in changes and changes["injuries"] < 0:
        raise BadInput("Injuries cannot be negative.")
    try:
        edited = combatant.model_validate({**combatant.model_dump(), **changes})
    except ValidationError as error:
        problem = error.errors()[0]
        name = str(problem["loc"][0])
        field = _(EDITABLE[name]) if name in EDITABLE else name
        raise BadInput("{field}: {problem}.", field=field, problem=problem["msg"]) from None
    if changes.get("fixed_object"):
        flow.take_out_of_order(encounter, combatant)  # an object takes no turns [003]
    done = []
    for field, value in changes.items():
        before = getattr(combatant, field)
        if before != value:
            setattr(combatant, field, getattr(edited, field))
            done.append(FieldChange(field=field, before=before, after=value))
    return done
