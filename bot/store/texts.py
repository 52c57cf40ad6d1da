"""An encounter's stored text, written again only where a block changed it.

Dumping a whole encounter of 10 combatants to JSON cost a block about as much as
parsing it; a command changes one or two of them. The text is the encounter's JSON
exactly as `model_dump_json` writes it, built from each combatant's own part: the part
a combatant had in the committed text when the block left it unchanged, else dumped.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.rules.models import Encounter
from bot.store.copies import Origins, unchanged

_COMBATANTS = {"combatants"}
# The encounter's JSON without its combatants, where they go: before the field after them.
_FIELDS = list(Encounter.model_fields)
_AFTER_COMBATANTS = f',"{_FIELDS[_FIELDS.index("combatants") + 1]}":'

Parts = tuple[str, ...]  # each combatant's JSON, in the encounter's order


def encounter_text(
    encounter: Encounter, origins: Origins, before: Mapping[int, str]
) -> tuple[str, Parts]:
    """Return an encounter's JSON (as `model_dump_json` gives it) and each combatant's part.

    `before` holds the committed combatants' parts, by the id() of each (the caller keeps
    them alive): a committed combatant itself (readers share it: never changed) keeps its
    part, and so does an unchanged copy of one (`origins`: which models are copies).
    """
    parts = []
    for combatant in encounter.combatants:
        part = before.get(id(combatant))
        entry = origins.get(id(combatant)) if part is None else None
        if entry is not None and unchanged(combatant, origins):
            part = before.get(id(entry[1]))
        parts.append(combatant.model_dump_json() if part is None else part)
    rest = encounter.model_dump_json(exclude=_COMBATANTS)
    at = rest.index(_AFTER_COMBATANTS)  # JSON strings escape '"': only the key can match
    return f'{rest[:at]},"combatants":[{",".join(parts)}]{rest[at:]}', tuple(parts)
