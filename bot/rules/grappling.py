"""Grappling a combatant or an item [000 Grappling; 002 "standard grappling mechanics"].

A grapple is made like an attack and treated like a dodge: core die + Finesse against
the target's defense, no damage. On a hit both are locked: neither can perform any
actions, both are treated as if they have already made their actions, and the only
action left to them is a Break Away (`bot.rules.melee.break_away`). Grappling an item
works the same, and the item cannot be used while it is held [000].
"""

from bot.errors import RuleViolation
from bot.i18n import L_, Lazy
from bot.rules.models import Combatant, Encounter, GrappleHold
from bot.rules.results import Result


class Grappled(Result):
    """A grapple that took hold: who holds whom, and the item if it is an item."""

    grappler_id: int
    target_id: int
    item: str | None = None


def grapple_refusal(grappler: Combatant, target: Combatant) -> Lazy | None:
    """Return why this grapple cannot be tried, or None."""
    if target.grapple is not None:
        return L_("{name} is already locked in a grapple.", name=target.name)
    if target.fixed_object:
        return L_("{name} is a fixed object; there is nothing to wrestle.", name=target.name)
    if grappler.grapple is not None:
        return L_("{name} is already locked in a grapple.", name=grappler.name)
    return None


def hold(grappler: Combatant, target: Combatant, item: str | None = None) -> Grappled:
    """Lock two combatants in a grapple: neither has actions left this round [000]."""
    refusal = grapple_refusal(grappler, target)
    if refusal is not None:
        raise RuleViolation(refusal)
    grappler.grapple = GrappleHold(partner_id=target.id, role="grappler", item=item)
    target.grapple = GrappleHold(partner_id=grappler.id, role="held", item=item)
    # "treated as if they have already made their actions" [000]
    grappler.actions_left = 0
    target.actions_left = 0
    return Grappled(grappler_id=grappler.id, target_id=target.id, item=item)


def release(encounter: Encounter, combatant: Combatant) -> int | None:
    """End the combatant's grapple, on both sides; return its partner's id, if it had one."""
    hold_ = combatant.grapple
    if hold_ is None:
        return None
    combatant.grapple = None
    partner = next((c for c in encounter.combatants if c.id == hold_.partner_id), None)
    if partner is not None and partner.grapple is not None:
        partner.grapple = None
    return hold_.partner_id


def item_usable(combatant: Combatant, item: str) -> bool:
    """Return whether the combatant may use this item: not while it is grappled [000]."""
    held = combatant.grapple
    return held is None or held.item is None or held.item.casefold() != item.strip().casefold()


def let_go(encounter: Encounter, combatant: Combatant) -> list[int]:
    """End every engagement and the grapple of a combatant (wounded, or gone); return who with."""
    # Engagement lasts "until either their engagement ends, one character is wounded or one
    # character performs a successful break away" [000]; wounded is Broken [bot].
    freed = list(combatant.engaged_with)
    for other in encounter.combatants:
        if combatant.id in other.engaged_with:
            other.engaged_with.remove(combatant.id)
    combatant.engaged_with = []
    partner = release(encounter, combatant)
    if partner is not None and partner not in freed:
        freed.append(partner)
    return freed
