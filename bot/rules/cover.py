"""Full Cover: an action to gain full protection; attacking exposes [002].

[002] tells Half-Cover (move near an obstacle: attacks as normal, a reduced chance to be
hit — the attack's `cover` level 1–3 [000]) from Full-Cover ("Action to gain full
protection; attacking exposes character"). The bot counts Full Cover as cover level 4
(+20 [000] "covers all of the character's body") against ranged and thrown attacks, so
Take Cover doubles it, until the combatant attacks or moves [bot].
"""

from bot.errors import RuleViolation
from bot.rules.acting import require_turn
from bot.rules.initiative import spend_action
from bot.rules.models import Combatant, Encounter
from bot.rules.results import Result


class TookCover(Result):
    """Full Cover taken: one action spent."""

    combatant_id: int
    actions_left: int
    forced: bool = False


def take_full_cover(
    encounter: Encounter, combatant: Combatant, *, forced: bool = False
) -> TookCover:
    """Take Full Cover: one action; cover 4 against ranged attacks until it attacks or moves."""
    if combatant.full_cover:
        raise RuleViolation("{name} is in full cover already.", name=combatant.name)
    forced = require_turn(encounter, combatant, "take full cover", forced=forced)
    left = spend_action(combatant)
    combatant.full_cover = True
    return TookCover(combatant_id=combatant.id, actions_left=left, forced=forced)


def expose(combatant: Combatant) -> bool:
    """Leave Full Cover (it attacked or moved); return whether it was in it."""
    was = combatant.full_cover
    combatant.full_cover = False
    return was
