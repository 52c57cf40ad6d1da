"""Melee range: Engagement, Reach Advantage, Closing In and Break Away [000 Melee Rules].

- **Engagement**: two characters sharing a space are locked onto it until the engagement
  ends, one of them is wounded, or one performs a successful break away [000].
- **Reach Advantage**: a longer-reach weapon attacks without being attacked; a shorter
  one must first close in, unless it is a sneak attack [000].
- **Closing In** is a minor action that acts exactly like a dodge; after it the other no
  longer has reach advantage [000].

What the documents leave open, the bot rules [bot]: positions are not tracked, so
engaging is declared (`/engage`); closing in engages the two, and engaged combatants have
no reach advantage over each other; a close-in is the closer's dodge (core die +
Finesse) against the reach holder's core die + Physical, holding on a tie as a dodge
does, once a round, and a failed one only keeps the closer at bay; "wounded" is Broken;
a break away on one's turn is an action, rolled like the Break Away defense against
the highest of the holders' core die + Physical (only the highest reaction applies
[002]), and succeeds above it. A grappling combatant's only action is that break away,
once a turn, free.
"""

import random

from pydantic import Field

from bot.errors import BadInput, RuleViolation
from bot.rules import encounter as flow
from bot.rules.acting import require_turn
from bot.rules.grappling import let_go
from bot.rules.initiative import spend_action
from bot.rules.models import Combatant, Encounter
from bot.rules.opposed import Opposed, resist, roll_trait
from bot.rules.results import Modifier, Result
from bot.rules.stealth import stealth_modifiers

CLOSE_IN = "close_in"
BREAK_AWAY = "break_away"


def are_engaged(a: Combatant, b: Combatant) -> bool:
    """Return whether two combatants share a space, locked in melee [000]."""
    return b.id in a.engaged_with


def engage(a: Combatant, b: Combatant) -> None:
    """Lock two combatants onto one space."""
    if b.id not in a.engaged_with:
        a.engaged_with.append(b.id)
    if a.id not in b.engaged_with:
        b.engaged_with.append(a.id)


def disengage_pair(a: Combatant, b: Combatant) -> bool:
    """End the engagement between two combatants; return whether there was one."""
    was = are_engaged(a, b)
    if b.id in a.engaged_with:
        a.engaged_with.remove(b.id)
    if a.id in b.engaged_with:
        b.engaged_with.remove(a.id)
    return was


def reach_advantage(holder: Combatant, other: Combatant) -> bool:
    """Return whether `holder` has reach advantage over `other`: longer reach, not engaged."""
    return holder.reach > other.reach and not are_engaged(holder, other)


def require_reach(attacker: Combatant, defender: Combatant, *, sneak: bool) -> None:
    """Refuse a melee attack on a longer reach that the attacker has not closed in on [000]."""
    if sneak or not reach_advantage(defender, attacker):
        return
    raise RuleViolation(
        "{defender}'s reach ({reach}) is longer than {attacker}'s ({own}): "
        "close in first (/engage target:{defender}).",
        defender=defender.name,
        reach=defender.reach,
        attacker=attacker.name,
        own=attacker.reach,
    )


class Engaged(Result):
    """An /engage: the two now share a space, or a close-in kept the closer at bay."""

    combatant_id: int
    target_id: int
    engaged: bool
    close_in: Opposed | None = None  # the closer's dodge, when the target had the longer reach
    threat: Opposed | None = None  # the reach holder's roll against it
    forced: bool = False


def engage_target(
    encounter: Encounter,
    closer: Combatant,
    target: Combatant,
    rng: random.Random,
    *,
    forced: bool = False,
) -> Engaged:
    """Move into a foe's space and lock on; through a longer reach, close in first [000]."""
    if target.id == closer.id:
        raise BadInput("{name} cannot engage themself.", name=closer.name)
    if target.side == closer.side:
        raise RuleViolation(
            "{target} is on {name}'s side; engage a foe.", target=target.name, name=closer.name
        )
    if target.fixed_object or flow.is_broken(target):
        raise RuleViolation(
            "{target} cannot be engaged (it does not fight back).", target=target.name
        )
    if are_engaged(closer, target):
        raise RuleViolation(
            "{name} is already engaged with {target}.", name=closer.name, target=target.name
        )
    forced = require_turn(encounter, closer, "engage", forced=forced)
    for one in (closer, target):
        if one.hidden:  # sharing a space puts it on the table, still unspotted [bot]
            one.hidden, one.stealth = False, True
    common = {"combatant_id": closer.id, "target_id": target.id, "forced": forced}
    if not reach_advantage(target, closer) or closer.stealth or closer.hidden:
        engage(closer, target)  # a sneak needs no closing in [000]
        return Engaged(**common, engaged=True)
    if closer.free_tries.get(CLOSE_IN) == encounter.round:
        raise RuleViolation("{name} has tried to close in this round already.", name=closer.name)
    closer.free_tries = {**closer.free_tries, CLOSE_IN: encounter.round}
    dodge = roll_trait(closer, "finesse", rng, stealth_modifiers(closer))
    threat = resist(target, rng)
    success = not dodge.failed and dodge.value >= threat.value
    if success:
        engage(closer, target)
    return Engaged(**common, engaged=success, close_in=dodge, threat=threat)


class BrokeAway(Result):
    """A break away on the combatant's turn: its roll against the best of those holding it."""

    combatant_id: int
    roll: Opposed
    holders: list[Opposed]
    success: bool
    freed_from: list[int] = Field(default_factory=list)  # engagements and the grapple ended
    action_spent: bool
    forced: bool = False

    @property
    def best(self) -> Opposed | None:
        """Return the highest holder's roll: only the highest reaction applies [002]."""
        return max(self.holders, key=lambda h: h.value, default=None)


def break_away(
    encounter: Encounter, combatant: Combatant, rng: random.Random, *, forced: bool = False
) -> BrokeAway:
    """Break away from engagement or a grapple: the higher trait − directions blocked [000]."""
    holder_ids = list(combatant.engaged_with)
    if combatant.grapple is not None and combatant.grapple.partner_id not in holder_ids:
        holder_ids.append(combatant.grapple.partner_id)
    if not holder_ids:
        raise RuleViolation("{name} is neither engaged nor grappling.", name=combatant.name)
    forced = require_turn(encounter, combatant, "break away", forced=forced, breaking_away=True)
    grappling = combatant.grapple is not None
    if grappling:
        if combatant.free_tries.get(BREAK_AWAY) == encounter.round:
            raise RuleViolation(
                "{name} has tried to break away this round already.", name=combatant.name
            )
        combatant.free_tries = {**combatant.free_tries, BREAK_AWAY: encounter.round}
    else:
        spend_action(combatant)
    trait = "physical" if combatant.physical >= combatant.finesse else "finesse"
    blocked = combatant.directions_blocked
    extra = [Modifier(name="Directions blocked", value=-blocked)] if blocked else []
    roll = roll_trait(combatant, trait, rng, [*stealth_modifiers(combatant), *extra])
    holders = [resist(flow.by_id(encounter, i), rng) for i in holder_ids]
    best = max((h.value for h in holders), default=0)
    success = not roll.failed and roll.value > best
    freed = let_go(encounter, combatant) if success else []
    return BrokeAway(
        combatant_id=combatant.id,
        roll=roll,
        holders=holders,
        success=success,
        freed_from=freed,
        action_spent=not grappling,
        forced=forced,
    )
