"""/init edit in words: the options' help, and the reply that lists what changed."""

from __future__ import annotations

from bot.i18n import _
from bot.render.text import name_text
from bot.rules.combatant_edit import EDITABLE, FieldChange

EDIT_HELP = dict(
    combatant="Who (any combatant; NPC stats live here)",
    physical="Physical",
    finesse="Finesse",
    perception_m="Perception in metres (else the Grit table's)",
    durability="Durability of its held shield or item, against penetration",
    stamina="Stamina, spent by ranged dodges",
    reach="Its melee weapon's reach (longer wins Reach Advantage)",
    directions_blocked="Directions blocked: −1 each to Break Away and ranged dodges",
    fixed_object="A fixed object: defense 3 + range, takes no turns",
    prone="Prone, without spending an action (a correction)",
    stealth="In hidden status (false: spotted)",
    injuries="Injuries recorded (−1 each to Finesse checks and initiative)",
    leg_injury="An injury to the legs: no jumping",
    risk="Its standing Risk modifier",
    crit_range="Its critical range",
)


def _value(value: object) -> str:
    if value is None:
        return _("none")
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return str(value)


def edited_text(name: str, changes: list[FieldChange]) -> str:
    """Return "Goblin: Perception (m) none → 12, durability none → 3." (or nothing changed)."""
    name = name_text(name)
    if not changes:
        return _("{name}: nothing changes (those are its values already).", name=name)
    parts = [
        _(
            "{field} {before} → {after}",
            field=_(EDITABLE[c.field]),
            before=_value(c.before),
            after=_value(c.after),
        )
        for c in changes
    ]
    return _("✎ {name}: {changes}.", name=name, changes=", ".join(parts))
