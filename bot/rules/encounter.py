"""The round state machine: turns, phases, Wait / act-now / Hold, round ends [GAME.md §5].

Every function takes an Encounter, changes it in place and returns what happened as
data; nothing here sends anything. The cog renders the result and the store saves
the encounter once.
"""

import random
from typing import Any, Literal, Protocol

from pydantic import Field, SerializeAsAny

from bot.errors import BadInput, RuleViolation
from bot.rules import long_actions
from bot.rules.essences import EssenceEnded, essence_round_passed
from bot.rules.initiative import (
    MINOR_ACT_PENALTY,
    Ambush,
    InitiativeEntry,
    actions_per_round,
    declare_minor_act,
    order_for_round,
    roll_ambush,
)
from bot.rules.models import MAX_NAME_LENGTH, Combatant, Encounter, Phase, RoundSnapshot
from bot.rules.names import clean_name, name_key
from bot.rules.results import Result
from bot.rules.state import (
    OPENING_PHASES,
    by_id,
    by_name,
    current_actor,
    is_broken,
    surprised,
    turns_running,
)

__all__ = [  # the state queries, read through this module everywhere
    "OPENING_PHASES",
    "by_id",
    "by_name",
    "current_actor",
    "is_broken",
    "surprised",
    "turns_running",
]

MAX_COMBATANTS = 100  # per encounter; a longer tracker shows a window around the actor

# Phases after the last turn in the `full` flow [GAME.md §5 Round flow].
CLOSING_PHASES: tuple[Phase, ...] = ("reaction", "resolution", "counter", "cleanup", "summary")

# A combatant's state of the round: what /init prev brings back of the previous round.
ROUND_STATE = (
    "initiative",
    "actions_left",
    "hasted",
    "waiting",
    "holding",
    "acted_this_round",
    "acted_out_of_turn",
    "declaration",
    "minor_acts",
    "sacrifices",
    "moved_m",
)

SkipReason = Literal["broken", "waiting", "held", "surprised", "acted"]


class Skip(Result):
    """A turn that came up but was passed over, and why."""

    combatant_id: int
    reason: SkipReason


class TurnStart(Result):
    """What happened at the start of a combatant's turn: its Specials ticked [001]."""

    combatant_id: int
    effects: list[SerializeAsAny[Result]] = Field(default_factory=list)  # what the hooks did


class TurnEnd(Result):
    """What happened at the end of a combatant's turn (Slow, Brace) [001]."""

    combatant_id: int
    effects: list[SerializeAsAny[Result]] = Field(default_factory=list)


class RoundEnd(Result):
    """A round that ended: who holds into the next one, whose essence ran out."""

    round: int
    held: list[int] = Field(
        default_factory=list
    )  # waiting combatants that hold into the next round
    all_waiting: bool = False  # everyone left was waiting, so the round passed [003]
    essences_ended: list[EssenceEnded] = Field(default_factory=list)  # ran out of rounds


class Step(Result):
    """What one advance of the encounter did."""

    round: int
    phase: Phase
    ended: int | None = None  # the combatant whose turn (or act) ended
    skipped: list[Skip] = Field(default_factory=list)
    turn_starts: list[TurnStart] = Field(default_factory=list)
    turn_ends: list[TurnEnd] = Field(default_factory=list)
    initiative: list[InitiativeEntry] = Field(default_factory=list)  # set in this step
    ambush: Ambush | None = None  # round zero's ambush roll
    round_end: RoundEnd | None = None  # Cleanup ran: waiting combatants now hold
    summary_round: int | None = None  # post this round's summary now
    new_round: int | None = None  # a new round opened
    current: int | None = None  # who acts now, if anyone
    resumed: bool = False  # an /act ended and the interrupted turn goes on


class TurnHooks(Protocol):
    """Game effects that run at turn boundaries (Specials plug in here); they return data."""

    def turn_start(self, encounter: Encounter, combatant: Combatant) -> list[Result]: ...

    def turn_end(self, encounter: Encounter, combatant: Combatant) -> list[Result]: ...


class NoHooks:
    """Turn boundaries with no effects attached."""

    def turn_start(self, encounter: Encounter, combatant: Combatant) -> list[Result]:
        return []

    def turn_end(self, encounter: Encounter, combatant: Combatant) -> list[Result]:
        return []


# Building the encounter.


def unique_name(encounter: Encounter, name: str) -> str:
    """Return a cleaned combatant name, refusing one already in the encounter."""
    cleaned = clean_name(name)
    if not cleaned:
        raise BadInput("A combatant needs a name.")
    if len(cleaned) > MAX_NAME_LENGTH:
        raise BadInput(
            "Combatant names are at most {max_name_length} characters.",
            max_name_length=MAX_NAME_LENGTH,
        )
    key = name_key(cleaned)  # `same_name` would look both keys up for every combatant
    for existing in encounter.combatants:
        if name_key(existing.name) == key:
            raise BadInput(
                "There is already a combatant named {existing} in this encounter.",
                existing=existing.name,
            )
    return cleaned


def numbered_names(encounter: Encounter, name: str, count: int) -> list[str]:
    """Return names for `count` copies: "Goblin" once, or "Goblin 1".."Goblin n"."""
    if count < 1:
        raise BadInput("Add at least one combatant (count ≥ 1).")
    room = MAX_COMBATANTS - len(encounter.combatants)
    if count > room:
        raise BadInput(
            "An encounter holds at most {max_combatants} combatants; there is room for {room} more.",
            max_combatants=MAX_COMBATANTS,
            room=max(room, 0),
        )
    if count == 1:
        return [unique_name(encounter, name)]
    base = unique_name(encounter, name)
    names = [f"{base} {n}" for n in range(1, count + 1)]
    for candidate in names:
        unique_name(encounter, candidate)
    return names


def add_combatant(
    encounter: Encounter, combatant: Combatant, rng: random.Random
) -> InitiativeEntry | None:
    """Add a combatant; once turns run, it takes its place in this round's order."""
    if len(encounter.combatants) >= MAX_COMBATANTS:
        raise BadInput(
            "An encounter holds at most {max_combatants} combatants.", max_combatants=MAX_COMBATANTS
        )
    combatant.name = unique_name(encounter, combatant.name)
    combatant.id = encounter.next_combatant_id
    encounter.next_combatant_id += 1
    _reset_for_round(combatant)
    encounter.combatants.append(combatant)
    if encounter.phase != "initiative" or surprised(encounter, combatant):
        return None
    if combatant.fixed_object:
        return None  # an object takes no turns [003]
    if encounter.round == 0 and combatant.side != encounter.ambush:
        return None
    # It is placed by initiative among those already ordered. If that place is already
    # past, its first turn comes next round: an order never hands out a second turn.
    entries = order_for_round(
        [by_id(encounter, cid) for cid in encounter.order] + [combatant],
        encounter.mode,
        rng,
        only=[combatant.id],
        existing=_existing_initiative(encounter),
    )
    rank = {entry.combatant_id: i for i, entry in enumerate(entries)}
    mine = rank[combatant.id]
    place = next(
        (i for i, cid in enumerate(encounter.order) if rank[cid] > mine), len(encounter.order)
    )
    encounter.order.insert(place, combatant.id)
    if encounter.turn is not None and place <= encounter.turn:
        encounter.turn += 1
    entry = entries[mine]
    combatant.initiative = entry.total
    return entry


def remove_combatant(encounter: Encounter, combatant: Combatant, hooks: TurnHooks) -> Step:
    """Take a combatant out; if it was acting, the next turn starts."""
    acting = current_actor(encounter)
    was_acting = acting is not None and acting.id == combatant.id
    if encounter.acting_now == combatant.id:
        encounter.acting_now = None
        # The interrupted turn goes on, unless its owner left or waited meanwhile.
        was_acting = encounter.turn_passed
        encounter.turn_passed = False
    if combatant.id in encounter.order:
        index = encounter.order.index(combatant.id)
        encounter.order.remove(combatant.id)
        if encounter.turn is not None and index <= encounter.turn:
            encounter.turn -= 1  # at the turn itself: the next turn is now at this index
            if index == encounter.turn + 1 and encounter.acting_now is not None:
                encounter.turn_passed = True  # its owner left during an /act
    encounter.combatants.remove(combatant)
    if was_acting:
        return _next_turn(encounter, hooks, ended=None)
    return _step(encounter)


def take_out_of_order(encounter: Encounter, combatant: Combatant) -> None:
    """Take a combatant out of this round's turns (it became a fixed object), keeping the turn."""
    for acting in (current_actor(encounter), _turn_owner(encounter)):
        if acting is not None and acting.id == combatant.id:
            raise RuleViolation(
                "It is {name}'s turn; end it first (/init next).", name=combatant.name
            )
    if combatant.id not in encounter.order:
        return
    index = encounter.order.index(combatant.id)
    encounter.order.remove(combatant.id)
    if encounter.turn is not None and index < encounter.turn:
        encounter.turn -= 1


def move_combatant(encounter: Encounter, combatant: Combatant, position: int) -> int:
    """Put a combatant at a 1-based place in this round's order; return the place it took.

    Whose turn it is stays; those who had their turn stay before it, those still to act
    after it: one still to act moved to a passed place acts next instead, one that had
    its turn is not moved to a place still to come, and the actor is not moved at all.
    """
    if encounter.phase != "initiative" or encounter.turn is None:
        raise RuleViolation("The turn order is set when the round's turns begin; move it then.")
    if not 1 <= position <= len(encounter.order):
        raise BadInput("Position must be between 1 and {last}.", last=len(encounter.order))
    if combatant.id not in encounter.order:
        raise RuleViolation("{name} has no place in this round's order yet.", name=combatant.name)
    owner = None if encounter.turn_passed else _turn_owner(encounter)
    if owner is not None and owner.id == combatant.id:
        raise RuleViolation(
            "{name} is taking its turn now; to act later this round it can /wait.",
            name=combatant.name,
        )
    # The order is those who had their turn, the owner of this one, then those still to act.
    passed = encounter.turn + (0 if owner else 1)
    first_to_come = passed + (1 if owner else 0)
    place = position - 1
    if encounter.order.index(combatant.id) < passed:
        if place >= passed:
            raise RuleViolation(
                "{name} has had its turn this round; place {position} is "
                "still to come (it would act twice).",
                name=combatant.name,
                position=position,
            )
    else:
        place = max(place, first_to_come)  # still to act this round: next at the earliest
    order = [cid for cid in encounter.order if cid != combatant.id]
    order.insert(place, combatant.id)
    encounter.order = order
    encounter.turn = first_to_come - 1
    return place + 1


# Advancing.


def advance(encounter: Encounter, rng: random.Random, hooks: TurnHooks | None = None) -> Step:
    """Do what /init next does: end the current turn (or phase) and start what follows."""
    hooks = hooks or NoHooks()
    if encounter.acting_now is not None:
        return _end_act(encounter, hooks)
    if encounter.phase in OPENING_PHASES:
        if encounter.flow == "full" and encounter.phase != "declaration":
            encounter.phase = OPENING_PHASES[OPENING_PHASES.index(encounter.phase) + 1]
            return _step(encounter)
        return _begin_turns(encounter, rng, hooks)
    if encounter.phase == "initiative":
        ended = current_actor(encounter)
        ends = [_end_turn(encounter, ended, hooks)] if ended is not None else []
        step = _next_turn(encounter, hooks, ended=ended.id if ended else None)
        return step.model_copy(update={"turn_ends": ends + step.turn_ends})
    return _closing_phase(encounter)


def end_round(encounter: Encounter, hooks: TurnHooks | None = None) -> Step:
    """Do what /init round does: end the round now, whoever has not acted yet."""
    hooks = hooks or NoHooks()
    if not turns_running(encounter):
        raise RuleViolation("The round's turns have not begun; /init next starts them.")
    ended = current_actor(encounter)
    encounter.acting_now = None
    ends = []
    if ended is not None and encounter.phase == "initiative":
        ends = [_end_turn(encounter, ended, hooks)]
    if encounter.phase == "initiative":
        _remember_round(encounter)
    step = _close_and_open(encounter, all_waiting=False, ended=ended.id if ended else None)
    return step.model_copy(update={"turn_ends": ends})


def retreat(encounter: Encounter) -> Step:
    """Do what /init prev does: step back to the previous turn, into the last round if need be.

    Nothing ticks again: turn starts and ends run once per round (`turn_started_round`,
    `turn_ended_round`), and a round's Cleanup once (`cleaned_round`).
    """
    if encounter.acting_now is not None:
        raise RuleViolation("Finish the current /act first (/init next), then step back.")
    if encounter.phase == "initiative" and encounter.turn is not None:
        for index in range(encounter.turn - 1, -1, -1):
            combatant = by_id(encounter, encounter.order[index])
            if _skip_reason(encounter, combatant) is not None:
                continue  # it was passed over, not a turn to return to
            by_id(encounter, encounter.order[encounter.turn]).acted_this_round = False
            combatant.acted_this_round = False
            encounter.turn = index
            return _step(encounter)
        return _back_into_previous_round(encounter)
    if encounter.phase in CLOSING_PHASES:
        return _back_to_last_turn(encounter)  # the `full` flow, after the round's turns
    return _back_into_previous_round(encounter)


def _last_turn(encounter: Encounter) -> int | None:
    """Return the index of the round's last turn taken in its order, if any."""
    for index in range(len(encounter.order) - 1, -1, -1):
        combatant = by_id(encounter, encounter.order[index])
        if combatant.acted_this_round and not combatant.acted_out_of_turn:
            return index
    return None


def _reopen_turn(encounter: Encounter, index: int) -> Step:
    """Make the turn at `index` the current one again, as if it had not ended."""
    encounter.phase = "initiative"
    encounter.turn = index
    encounter.acting_now = None
    encounter.turn_passed = False
    by_id(encounter, encounter.order[index]).acted_this_round = False
    return _step(encounter)


def _back_to_last_turn(encounter: Encounter) -> Step:
    """Step back from the phases after the turns into the round's last turn."""
    last = _last_turn(encounter)
    if last is None:
        raise RuleViolation(
            "Nobody took a turn in round {round}; there is none to go back to.",
            round=encounter.round,
        )
    return _reopen_turn(encounter, last)


def _back_into_previous_round(encounter: Encounter) -> Step:
    """Step back from a round's start into the last turn of the round before [bot].

    The previous round comes back as its last turn left it: its order, who had acted,
    who waited, actions and Haste. This round's initiative, if rolled, is rolled again.
    """
    saved = encounter.previous_round
    if saved is None or saved.round != encounter.round - 1:
        if encounter.round <= 1:
            raise RuleViolation(
                "This is the start of round {round}; there is no turn before it to go back to.",
                round=encounter.round,
            )
        raise RuleViolation(
            "This is the start of round {round}; there is no turn before it to go back to "
            "(/init prev steps back one round at most).",
            round=encounter.round,
        )
    present = {c.id for c in encounter.combatants}
    for combatant in encounter.combatants:
        state = saved.combatants.get(combatant.id)
        if state is not None:  # a newcomer of this round keeps its own
            for name in ROUND_STATE:
                setattr(combatant, name, state.get(name, _round_default(name)))
    encounter.round = saved.round
    encounter.order = [cid for cid in saved.order if cid in present]
    encounter.previous_round = None  # one round back at most
    last = _last_turn(encounter)
    if last is None:
        raise RuleViolation(
            "Nobody took a turn in round {round}; there is none to go back to.", round=saved.round
        )
    return _reopen_turn(encounter, last)


def _round_default(name: str) -> Any:
    """Return a fresh round's value of a combatant's field."""
    field = Combatant.model_fields[name]
    return field.get_default(call_default_factory=True)


def _remember_round(encounter: Encounter) -> None:
    """Keep the round as its last turn left it, before Cleanup, for /init prev."""
    encounter.previous_round = RoundSnapshot(
        round=encounter.round,
        order=list(encounter.order),
        turn=encounter.turn,
        combatants={
            c.id: c.model_dump(include=set(ROUND_STATE), exclude_defaults=True)
            for c in encounter.combatants
        },
    )


# Fortune options that change the order [GAME.md §5].


def haste(encounter: Encounter, combatant: Combatant) -> None:
    """Haste: +3 initiative (or the front of the order) and one action this round [003]."""
    if turns_running(encounter):
        raise RuleViolation(
            "Haste is declared before initiative is rolled, and round "
            "{round}'s turns have begun. Declare it next round, before "
            "the GM's /init next.",
            round=encounter.round,
        )
    if combatant.hasted:
        raise RuleViolation("{name} is already hasted this round.", name=combatant.name)
    _require_can_act(combatant)
    combatant.hasted = True
    combatant.actions_left = min(combatant.actions_left, actions_per_round(combatant))


def wait(encounter: Encounter, combatant: Combatant, hooks: TurnHooks | None = None) -> Step:
    """Wait: pass over the combatant's turn; it may /act later this round [003]."""
    _require_can_act(combatant)
    if combatant.waiting:
        raise RuleViolation("{name} is already waiting.", name=combatant.name)
    if combatant.holding:
        raise RuleViolation("{name} is holding into the next round.", name=combatant.name)
    if combatant.acted_this_round or encounter.acting_now == combatant.id:
        raise RuleViolation("{name} has already acted this round.", name=combatant.name)
    combatant.waiting = True
    if encounter.acting_now is not None and _turn_owner(encounter) is combatant:
        encounter.turn_passed = True  # its turn is interrupted: it passes when the act ends
    actor = current_actor(encounter)
    if actor is not None and actor.id == combatant.id:
        # Its own turn: the turn is passed over and the order goes on.
        return _next_turn(encounter, hooks or NoHooks(), ended=None, waited=combatant.id)
    return _step(encounter)


def act_now(encounter: Encounter, combatant: Combatant) -> Step:
    """Act: a waiting combatant acts now, inside the current turn [003]."""
    if not combatant.waiting:
        raise RuleViolation(
            "{name} is not waiting; only a waiting combatant can /act.", name=combatant.name
        )
    if encounter.acting_now is not None:
        other = by_id(encounter, encounter.acting_now)
        raise RuleViolation(
            "{other} is acting out of turn right now; wait for /init next.", other=other.name
        )
    if encounter.phase not in ("initiative", "reaction", "counter"):
        raise RuleViolation("Waiting combatants act once the round's turns have begun.")
    _require_can_act(combatant)
    combatant.waiting = False
    encounter.acting_now = combatant.id
    return _step(encounter)


def hold(encounter: Encounter, combatant: Combatant) -> None:
    """Hold: a waiting combatant carries into next round with the Hold bonus [003]."""
    if not combatant.waiting:
        raise RuleViolation("{name} must be waiting to hold (/wait first).", name=combatant.name)
    _hold(combatant)


def minor_act(encounter: Encounter, combatant: Combatant) -> int | None:
    """Record a minor act; before its turn in fortune mode, −2 initiative [003]. Return the penalty."""
    # On or after its turn a minor act is free. Before initiative is rolled the −2 goes into
    # the roll; once rolled, the total drops and the combatant takes its new place among
    # those yet to act. The other modes roll no initiative of its own to lower [bot].
    if encounter.mode != "fortune" or not _turn_to_come(encounter, combatant):
        return None
    penalty = declare_minor_act(combatant)
    if combatant.initiative is not None and combatant.id in encounter.order:
        combatant.initiative -= MINOR_ACT_PENALTY
        _reposition(encounter, combatant)
    return penalty


def _turn_to_come(encounter: Encounter, combatant: Combatant) -> bool:
    if combatant.acted_this_round or combatant.acted_out_of_turn or combatant.holding:
        return False
    if not turns_running(encounter) or combatant.id not in encounter.order:
        return not turns_running(encounter)
    return encounter.turn is None or encounter.order.index(combatant.id) > encounter.turn


def _reposition(encounter: Encounter, combatant: Combatant) -> None:
    """Move a combatant whose initiative fell later among those still to act this round."""
    start = (encounter.turn if encounter.turn is not None else -1) + 1
    encounter.order.remove(combatant.id)
    place = len(encounter.order)
    for index in range(start, len(encounter.order)):
        other = by_id(encounter, encounter.order[index])
        if (other.initiative or 0) < (combatant.initiative or 0):
            place = index
            break
    encounter.order.insert(place, combatant.id)


# Internals.


def _turn_owner(encounter: Encounter) -> Combatant | None:
    """Return whose turn it is in the order (an /act may be running inside it)."""
    turn = encounter.turn
    if encounter.phase != "initiative" or turn is None or not 0 <= turn < len(encounter.order):
        return None
    return by_id(encounter, encounter.order[turn])


def _require_can_act(combatant: Combatant) -> None:
    if is_broken(combatant):
        raise RuleViolation("{name} is Broken and cannot act.", name=combatant.name)


def _hold(combatant: Combatant) -> None:
    # No extra actions: what it did not spend this round is lost [GAME.md §5, bot].
    combatant.waiting = False
    combatant.holding = True
    combatant.actions_left = 0


# What a combatant's round starts with (its actions follow from the rest: Hasted has one).
_ROUND_START: tuple[tuple[str, object], ...] = (
    ("hasted", False),
    ("waiting", False),
    ("minor_acts", 0),
    ("moved_m", 0),
    ("move_actions", 0),
    ("charged_spaces", 0),
    ("acted_this_round", False),
    ("acted_out_of_turn", False),
    ("declaration", None),
)


def _reset_for_round(combatant: Combatant) -> None:
    """Start a combatant's round afresh (only what differs is assigned)."""
    # Each assignment is validated and marks the field changed for the store's text, and
    # in a big fight most of these are already at rest: 11 assignments x 100 combatants
    # were a third of /init add's own work.
    for field, value in _ROUND_START:
        if getattr(combatant, field) != value:
            setattr(combatant, field, value)
    if combatant.sacrifices:
        combatant.sacrifices = {}
    actions = actions_per_round(combatant)
    if combatant.actions_left != actions:
        combatant.actions_left = actions


def _existing_initiative(encounter: Encounter) -> dict[int, int]:
    return {c.id: c.initiative for c in encounter.combatants if c.initiative is not None}


def _step(encounter: Encounter, **fields: object) -> Step:
    actor = current_actor(encounter)
    return Step(
        round=encounter.round,
        phase=encounter.phase,
        current=actor.id if actor else None,
        **fields,
    )


def _begin_turns(encounter: Encounter, rng: random.Random, hooks: TurnHooks) -> Step:
    """Close Declaration: set this round's order (rolling it if the mode says so), start turns."""
    if not encounter.combatants:
        raise RuleViolation("Add combatants first (/init add, /init join).")
    actors = [c for c in encounter.combatants if not c.fixed_object]  # objects take no turns
    ambush = None
    if encounter.round == 0:
        # Round zero: only the ambushers act, and with a roll only those who beat the
        # targets' highest Perception [003, 002].
        actors = [c for c in actors if c.side == encounter.ambush]
        targets = [c for c in encounter.combatants if c.side != encounter.ambush]
        if encounter.ambush_roll and actors and targets:
            ambush = roll_ambush(actors, targets, rng)
            actors = [c for c in actors if c.id in set(ambush.succeeded)]
    entries = order_for_round(actors, encounter.mode, rng, existing=_existing_initiative(encounter))
    encounter.order = [entry.combatant_id for entry in entries]
    ordered = {c.id: c for c in actors}  # by_id for each entry was a scan of the encounter
    for entry in entries:
        combatant = ordered[entry.combatant_id]
        combatant.initiative = entry.total
        if combatant.holding:
            combatant.holding = False  # the Hold bonus is spent on this order
    encounter.phase = "initiative"
    encounter.turn = -1
    step = _next_turn(encounter, hooks, ended=None)
    return step.model_copy(update={"initiative": entries, "ambush": ambush})


def _end_turn(encounter: Encounter, combatant: Combatant, hooks: TurnHooks) -> TurnEnd:
    combatant.acted_this_round = True
    return TurnEnd(combatant_id=combatant.id, effects=hooks.turn_end(encounter, combatant))


def _end_act(encounter: Encounter, hooks: TurnHooks) -> Step:
    """An /act inside someone's turn is over: the interrupted turn goes on."""
    actor = by_id(encounter, encounter.acting_now)  # type: ignore[arg-type]
    encounter.acting_now = None
    actor.acted_out_of_turn = True
    end = _end_turn(encounter, actor, hooks)
    if encounter.turn_passed:
        encounter.turn_passed = False
        if encounter.phase == "initiative":
            step = _next_turn(encounter, hooks, ended=actor.id)
            return step.model_copy(update={"turn_ends": [end, *step.turn_ends]})
    resumed = encounter.phase == "initiative"
    return _step(encounter, ended=actor.id, resumed=resumed, turn_ends=[end])


def _skip_reason(encounter: Encounter, combatant: Combatant) -> SkipReason | None:
    if surprised(encounter, combatant):
        return "surprised"
    if is_broken(combatant):
        return "broken"
    if combatant.waiting:
        return "waiting"
    if combatant.holding:
        return "held"
    if combatant.acted_out_of_turn:
        return "acted"  # it used /act earlier this round: no second turn
    return None


def _start_turn(encounter: Encounter, combatant: Combatant, hooks: TurnHooks) -> TurnStart | None:
    """Run turn-start effects once per round, whatever happens to the turn after [001]."""
    if combatant.turn_started_round == encounter.round:
        return None  # /init prev and restarts never tick twice
    combatant.turn_started_round = encounter.round
    combatant.guarding = False  # a guard lasts until the guard's next turn [002, bot]
    return TurnStart(combatant_id=combatant.id, effects=hooks.turn_start(encounter, combatant))


def _next_turn(
    encounter: Encounter, hooks: TurnHooks, ended: int | None, waited: int | None = None
) -> Step:
    """Move to the next combatant who can take its turn; close the round if nobody is left."""
    skipped = [] if waited is None else [Skip(combatant_id=waited, reason="waiting")]
    starts: list[TurnStart] = []
    index = (encounter.turn if encounter.turn is not None else -1) + 1
    while index < len(encounter.order):
        combatant = by_id(encounter, encounter.order[index])
        encounter.turn = index
        start = _start_turn(encounter, combatant, hooks)
        if start is not None:
            starts.append(start)
        # Checked after the turn-start effects: a tick may just have Broken it.
        reason = _skip_reason(encounter, combatant)
        if reason is None:
            return _step(encounter, ended=ended, skipped=skipped, turn_starts=starts)
        skipped.append(Skip(combatant_id=combatant.id, reason=reason))
        index += 1
    # Nobody left who can take a turn. If some are waiting, everyone left is waiting:
    # the round passes and they hold [003].
    all_waiting = any(c.waiting for c in encounter.combatants)
    _remember_round(encounter)
    if encounter.flow == "full":
        encounter.phase = "reaction"
        encounter.turn = None
        return _step(encounter, ended=ended, skipped=skipped, turn_starts=starts)
    step = _close_and_open(encounter, all_waiting=all_waiting, ended=ended)
    return step.model_copy(update={"skipped": skipped, "turn_starts": starts})


def _closing_phase(encounter: Encounter) -> Step:
    """The `full` flow after the turns: Reaction → Resolution → Counter → Cleanup → Summary."""
    if encounter.phase == "summary":
        _open_round(encounter)
        return _step(encounter, new_round=encounter.round)
    encounter.phase = CLOSING_PHASES[CLOSING_PHASES.index(encounter.phase) + 1]
    encounter.acting_now = None
    if encounter.phase == "cleanup":
        return _step(encounter, round_end=_cleanup_once(encounter, all_waiting=False))
    if encounter.phase == "summary":
        return _step(encounter, summary_round=encounter.round)
    return _step(encounter)


def _cleanup(encounter: Encounter, *, all_waiting: bool) -> RoundEnd:
    """End-of-round bookkeeping: waiting combatants hold; long actions forget this round."""
    held = []
    ran_out = []
    for combatant in encounter.combatants:
        if combatant.waiting:
            _hold(combatant)
            held.append(combatant.id)
        long_actions.new_round(combatant)
        if (ended := essence_round_passed(combatant)) is not None:
            ran_out.append(ended)
    return RoundEnd(
        round=encounter.round,
        held=held,
        all_waiting=all_waiting and bool(held),
        essences_ended=ran_out,
    )


def _cleanup_once(encounter: Encounter, *, all_waiting: bool) -> RoundEnd:
    """Run the round's Cleanup, once: after /init prev stepped back, only the holds again."""
    if encounter.cleaned_round == encounter.round:
        held = [c.id for c in encounter.combatants if c.waiting]
        for combatant in encounter.combatants:
            if combatant.waiting:
                _hold(combatant)
        return RoundEnd(round=encounter.round, held=held, all_waiting=all_waiting and bool(held))
    encounter.cleaned_round = encounter.round
    return _cleanup(encounter, all_waiting=all_waiting)


def _open_round(encounter: Encounter) -> None:
    """Open the next round at its first phase; per-round state starts afresh."""
    encounter.round += 1
    encounter.phase = "start" if encounter.flow == "full" else "declaration"
    encounter.turn = None
    encounter.acting_now = None
    encounter.turn_passed = False
    for combatant in encounter.combatants:
        _reset_for_round(combatant)
        if encounter.mode != "once":
            combatant.initiative = None


def _close_and_open(encounter: Encounter, *, all_waiting: bool, ended: int | None) -> Step:
    """Run Cleanup, ask for the round's Summary and open the next round, in one step."""
    finished = encounter.round
    round_end = _cleanup_once(encounter, all_waiting=all_waiting)
    _open_round(encounter)
    return _step(
        encounter,
        ended=ended,
        round_end=round_end,
        summary_round=finished,
        new_round=encounter.round,
    )
