"""A combatant's Grit in a fight: the one writer for attacks, Specials, /grit and every source.

`bot.rules.grit.change_grit` keeps the track itself (0..max, Injuries, Blight). In a
fight one more thing follows from it: a combatant Broken when its round opened got no
actions; back on its feet before its turn is over, it takes that turn with this
round's actions [002 "cannot act until Grit is restored above 0"; GAME.md §2]. Broken,
it lets go of every engagement and grapple [000 "one character is wounded"].
"""

from __future__ import annotations

from bot.rules.grappling import let_go
from bot.rules.grit import GritChange, change_grit
from bot.rules.initiative import actions_per_round
from bot.rules.models import Combatant, Encounter


def turn_to_come(encounter: Encounter, combatant: Combatant) -> bool:
    """Return whether the combatant's turn this round has not yet passed (or is starting now)."""
    if combatant.acted_this_round or combatant.acted_out_of_turn or combatant.holding:
        return False
    if combatant.turn_started_round != encounter.round:
        return True
    # Its turn start is running now (a Regeneration tick): that turn is still its own.
    turn = encounter.turn
    return (
        turn is not None
        and 0 <= turn < len(encounter.order)
        and (encounter.order[turn] == combatant.id)
    )


def change_combatant_grit(
    encounter: Encounter,
    combatant: Combatant,
    *,
    damage: int | None = None,
    heal: int | None = None,
    set_to: int | None = None,
    max_grit: int | None = None,
) -> GritChange:
    """Change a combatant's Grit; back on its feet with its turn to come, it gets its actions."""
    change = change_grit(combatant, damage=damage, heal=heal, set_to=set_to, max_grit=max_grit)
    if change.announcement == "back_on_feet" and turn_to_come(encounter, combatant):
        combatant.actions_left = max(combatant.actions_left, actions_per_round(combatant))
    if combatant.grit == 0:
        let_go(encounter, combatant)  # a wounded combatant's engagements and grapple end [000]
    return change
