"""Movement and standing up cost actions [003, GAME.md §5].

"A character may move a single space per round without using an action. He may move a
number of spaces equal to his Movement by expending an action. Other moves — standing
from a prone position, mounting an animal, making a leap — take one action." A prone
character "can move only 1 space per round" [003]. Movement here is the Grit table's
Mobility [002] (less Slow, `bot.rules.specials.mobility`), in metres: one space = 2 m.

So each round the first 2 m are free, and each action spent on moving covers Mobility
more; moving twice is two actions [003 "move twice"]. An engaged combatant is locked onto
its space until it breaks away [000]. Moving leaves Full Cover [bot].
"""

import math

from bot.errors import BadInput, RuleViolation
from bot.i18n import Ln_
from bot.rules import encounter as flow
from bot.rules.acting import require_turn
from bot.rules.cover import expose
from bot.rules.initiative import spend_action, stand_up
from bot.rules.models import Combatant, Encounter
from bot.rules.results import Result
from bot.rules.specials import MAX_MOVE_M, Mobility, Movement, SpecialBook, mobility, move

FREE_MOVE_M = 2  # one space a round without an action [003]
PRONE_MOVE_M = 2  # a prone character moves one space a round [003]


class Moved(Result):
    """A /move: the movement (Lacerate, Mobility), the actions it cost, what it ended."""

    movement: Movement
    actions_spent: int
    actions_left: int
    exposed: bool = False  # it left Full Cover
    forced: bool = False


def actions_for(metres_this_round: int, mobility_m: int) -> int:
    """Return how many move actions a round's movement needs: the first 2 m free, then Mobility each."""
    beyond = metres_this_round - FREE_MOVE_M
    if beyond <= 0:
        return 0
    if mobility_m <= 0:
        raise RuleViolation("Without Mobility only the free space can be moved.")
    return math.ceil(beyond / mobility_m)


def _actions_to_spend(combatant: Combatant, allowed: Mobility, after: int) -> int:
    """Return the actions a move to `after` metres this turn costs; refuse more than are left."""
    spent = max(0, actions_for(after, allowed.limit_m) - combatant.move_actions)
    if spent > combatant.actions_left:
        reach = FREE_MOVE_M + (combatant.move_actions + combatant.actions_left) * allowed.limit_m
        raise RuleViolation(
            Ln_(
                "{name} can move {more} m more this round (2 m free, then "
                "{limit_m} m per action; {n} action left).",
                "{name} can move {more} m more this round (2 m free, then "
                "{limit_m} m per action; {n} actions left).",
                combatant.actions_left,
                name=combatant.name,
                more=max(0, reach - combatant.moved_m),
                limit_m=allowed.limit_m,
            )
        )
    return spent


def move_combatant(
    encounter: Encounter,
    combatant: Combatant,
    metres: int,
    book: SpecialBook,
    *,
    forced: bool = False,
) -> Moved:
    """Move on the combatant's turn: spend the actions the distance needs, then Lacerate [003]."""
    if not 1 <= metres <= MAX_MOVE_M:
        raise BadInput(
            "Move at least 1 m and at most {max_move_m} m at once (got {metres}).",
            max_move_m=MAX_MOVE_M,
            metres=metres,
        )
    forced = require_turn(encounter, combatant, "move", forced=forced)
    name = combatant.name
    if combatant.engaged_with:
        other = flow.by_id(encounter, combatant.engaged_with[0])
        raise RuleViolation(
            "{name} is engaged with {other} and locked onto its space: "
            "break away first (/breakaway).",
            name=name,
            other=other.name,
        )
    allowed = mobility(combatant, book)
    after = combatant.moved_m + metres
    if combatant.prone and after > PRONE_MOVE_M:
        raise RuleViolation(
            "{name} is prone: it moves one space (2 m) a round; standing "
            "up takes an action (/effect remove special:Prone).",
            name=name,
        )
    spent = _actions_to_spend(combatant, allowed, after) if allowed.stopped_by is None else 0
    movement = move(combatant, metres, book)  # refuses Root, Brace, a bad distance
    if spent:
        spend_action(combatant, spent)
        combatant.move_actions += spent
    return Moved(
        movement=movement,
        actions_spent=spent,
        actions_left=combatant.actions_left,
        exposed=expose(combatant),
        forced=forced,
    )


class StoodUp(Result):
    """Standing up from prone: one action [003]."""

    combatant_id: int
    actions_left: int
    forced: bool = False


def stand(encounter: Encounter, combatant: Combatant, *, forced: bool = False) -> StoodUp:
    """Stand up from prone on the combatant's turn: one action [003]."""
    if not combatant.prone:
        raise RuleViolation("{name} is not prone.", name=combatant.name)
    forced = require_turn(encounter, combatant, "stand up", forced=forced)
    if combatant.actions_left < 1:
        raise RuleViolation(
            "{name} has no action left this round to stand up (it takes one).", name=combatant.name
        )
    left = stand_up(combatant)
    return StoodUp(combatant_id=combatant.id, actions_left=left, forced=forced)
