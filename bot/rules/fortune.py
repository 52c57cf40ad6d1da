"""Fortune options as a command takes them: Haste, Wait, act now, Hold, Sacrifice [GAME.md §5].

The round state machine (`bot.rules.encounter`) moves the turns; this module adds what
a command checks first — round zero's surprise, a round that is closing, Hold before
the turns — and returns each choice as data for the reply and the round log.
"""

from bot.errors import RuleViolation
from bot.i18n import L_
from bot.rules import encounter as flow
from bot.rules.acting import doing_text
from bot.rules.encounter import Step, TurnHooks
from bot.rules.initiative import (
    HASTE_BONUS,
    HOLD_BONUS,
    Sacrifice,
    actions_per_round,
    sacrifice,
)
from bot.rules.models import Combatant, Encounter, InitiativeMode, SacrificeFor
from bot.rules.results import Result

# Phases after the Counter phase: the round's actions are over [GAME.md §5 Round flow].
CLOSED_PHASES = ("cleanup", "summary")


class Hasted(Result):
    """A Haste declared for this round."""

    combatant_id: int
    round: int
    mode: InitiativeMode
    bonus: int | None  # +3 to the fortune roll; None where Haste is a place at the front
    actions: int  # actions this round: one [003]


class Waited(Result):
    """A Wait: the combatant's turn is passed over, now or when it comes up."""

    combatant_id: int
    round: int
    own_turn: bool  # it waited on its own turn, so the order moved on
    step: Step


class Held(Result):
    """A Hold: the combatant carries into the next round."""

    combatant_id: int
    into_round: int
    mode: InitiativeMode
    bonus: int | None  # +10 to next round's fortune roll; None where Hold is first place
    actions_lost: int  # unspent actions this round, given up [GAME.md §5, bot]


def require_in_round(encounter: Encounter, combatant: Combatant, doing: str) -> None:
    """Refuse a choice by a surprised combatant in round zero, or once the round is closing."""
    if flow.surprised(encounter, combatant):
        raise RuleViolation(
            "{name} is caught by the ambush: in round zero it takes no "
            "actions, so it cannot {doing}.",
            name=combatant.name,
            doing=doing_text(doing),
        )
    if encounter.phase in CLOSED_PHASES:
        raise RuleViolation(
            "Round {round} is closing ({phase}); {doing} in round {next}.",
            round=encounter.round,
            phase=L_(encounter.phase.capitalize()),  # the phase names of bot.render.text
            doing=doing_text(doing),
            next=encounter.round + 1,
        )


def haste(encounter: Encounter, combatant: Combatant) -> Hasted:
    """Haste before initiative is rolled: +3 (fortune) or the front of the order, one action."""
    require_in_round(encounter, combatant, "haste")
    flow.haste(encounter, combatant)
    return Hasted(
        combatant_id=combatant.id,
        round=encounter.round,
        mode=encounter.mode,
        bonus=HASTE_BONUS if encounter.mode == "fortune" else None,
        actions=actions_per_round(combatant),
    )


def wait(encounter: Encounter, combatant: Combatant, hooks: TurnHooks | None = None) -> Waited:
    """Wait: pass over the combatant's turn; on its own turn the order moves on at once."""
    require_in_round(encounter, combatant, "wait")
    round_number = encounter.round
    actor = flow.current_actor(encounter)
    own_turn = actor is not None and actor.id == combatant.id
    step = flow.wait(encounter, combatant, hooks)
    return Waited(combatant_id=combatant.id, round=round_number, own_turn=own_turn, step=step)


def act(encounter: Encounter, combatant: Combatant) -> Step:
    """Act now: a waiting combatant takes its action inside the current turn [003]."""
    require_in_round(encounter, combatant, "act")
    return flow.act_now(encounter, combatant)


def hold(encounter: Encounter, combatant: Combatant) -> Held:
    """Hold: a waiting combatant gives up the rest of this round for +10 (or first place) next."""
    require_in_round(encounter, combatant, "hold")
    if combatant.holding:
        raise RuleViolation("{name} already holds into the next round.", name=combatant.name)
    if combatant.waiting and not flow.turns_running(encounter):
        # Before the turns, `holding` still carries last round's bonus into this round's
        # roll; a waiting combatant that is still waiting at the round's end holds anyway.
        raise RuleViolation(
            "{name} is waiting; Hold is chosen once round {round}'s "
            "turns have begun (a combatant still waiting when the round "
            "ends holds anyway).",
            name=combatant.name,
            round=encounter.round,
        )
    lost = combatant.actions_left
    flow.hold(encounter, combatant)
    return Held(
        combatant_id=combatant.id,
        into_round=encounter.round + 1,
        mode=encounter.mode,
        bonus=HOLD_BONUS if encounter.mode == "fortune" else None,
        actions_lost=lost,
    )


def default_sacrifice_target(encounter: Encounter, combatant: Combatant) -> SacrificeFor:
    """Return what a sacrifice is for when nobody says: attack on its turn, else defense."""
    # Outside its own turn a combatant sacrifices against an attack [003]; on its turn,
    # for its own attack [bot].
    actor = flow.current_actor(encounter)
    return "attack" if actor is not None and actor.id == combatant.id else "defense"


def sacrifice_action(
    encounter: Encounter, combatant: Combatant, target: SacrificeFor | None = None
) -> Sacrifice:
    """Sacrifice one action for +3 to attack, defense or a check for the rest of the round."""
    require_in_round(encounter, combatant, "sacrifice an action")
    if flow.is_broken(combatant):
        raise RuleViolation("{name} is Broken and cannot act.", name=combatant.name)
    if combatant.actions_left < 1:
        if combatant.holding:
            raise RuleViolation(
                "{name} has no actions left this round to sacrifice (it holds into the next round).",
                name=combatant.name,
            )
        raise RuleViolation(
            "{name} has no actions left this round to sacrifice.", name=combatant.name
        )
    return sacrifice(combatant, target or default_sacrifice_target(encounter, combatant))
