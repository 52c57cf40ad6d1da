"""Hiding and seeking: the Hide action, hidden status and its +4 [000, 002].

- Hidden status [000]: once hidden a character stays hidden until it attacks an enemy or
  is spotted; all its actions have a +4 bonus.
- Hide [002 "Hide Action vs highest Perception. Success = Invisible, free movement until
  aggressive Action"]: an action roll against the highest Perception among the enemies.
- An attack from stealth is opposed by the target's Perception as a passive defense, and
  a melee one deals double damage [002] (`bot.rules.attacks`).

Rulings [bot]: the Hide roll is the core die + Finesse (an action roll with Risk); it
succeeds when it reaches the Perception, as the ambush roll does; only enemies that can
perceive count (a Broken one is senseless, like [003]'s unconscious; the GM's hidden NPCs
are not in play yet); "free movement"
means moving does not give the hider away — a move still costs what it costs. The GM's
hidden NPCs (kept off the tracker) count as in hidden status too.
"""

import random

from bot.errors import RuleViolation
from bot.rules import encounter as flow
from bot.rules.acting import require_turn
from bot.rules.grit import perception_m
from bot.rules.initiative import spend_action
from bot.rules.models import Combatant, Encounter
from bot.rules.opposed import Opposed, roll_trait
from bot.rules.results import Modifier, Result

HIDDEN_BONUS = 4  # to all actions of a hidden character [000]


def in_stealth(combatant: Combatant) -> bool:
    """Return whether a combatant is in hidden status (hidden by the Hide action, or by the GM)."""
    return combatant.stealth or combatant.hidden


def stealth_modifiers(combatant: Combatant) -> list[Modifier]:
    """Return the +4 a hidden combatant adds to each of its actions [000]."""
    return [Modifier(name="Hidden", value=HIDDEN_BONUS)] if in_stealth(combatant) else []


def watchers(encounter: Encounter, combatant: Combatant) -> list[Combatant]:
    """Return the enemies who could spot the combatant: on the other side, seen, not Broken."""
    # The GM's hidden NPCs are not in the scene's play yet, and the roll is public [bot].
    return [
        c
        for c in encounter.combatants
        if c.side != combatant.side
        and not c.fixed_object
        and not c.hidden
        and not flow.is_broken(c)
    ]


class Hid(Result):
    """A Hide action: the roll against the highest Perception, and whether it hides."""

    combatant_id: int
    roll: Opposed
    perception: int  # the highest Perception among the watchers, in metres
    perceiver_id: int | None
    success: bool
    forced: bool = False


def hide(
    encounter: Encounter, combatant: Combatant, rng: random.Random, *, forced: bool = False
) -> Hid:
    """Hide: one action; core die + Finesse against the enemies' highest Perception [002]."""
    if in_stealth(combatant):
        raise RuleViolation("{name} is hidden already.", name=combatant.name)
    forced = require_turn(encounter, combatant, "hide", forced=forced)
    spend_action(combatant)
    watching = watchers(encounter, combatant)
    perceiver = max(watching, key=perception_m, default=None)
    perception = perception_m(perceiver) if perceiver is not None else 0
    roll = roll_trait(combatant, "finesse", rng)
    success = not roll.failed and roll.value >= perception
    if success:
        combatant.stealth = True
    return Hid(
        combatant_id=combatant.id,
        roll=roll,
        perception=perception,
        perceiver_id=perceiver.id if perceiver is not None else None,
        success=success,
        forced=forced,
    )


def reveal(combatant: Combatant) -> bool:
    """End hidden status (it attacked, or it was spotted); return whether it was hidden."""
    was = in_stealth(combatant)
    combatant.stealth = False
    combatant.hidden = False
    return was
