"""Long actions: progress toward a count set by the GM [GAME.md §5 Long actions, 000].

Focused: the count is in rounds of complete attention; if the actor is attacked it
gets no defense and the progress goes back to 0. Cumulative: each main action spent
on it adds 1; in a round it is attacked no progress is added and that attack hits
automatically. Both hold only while the actor performs the action: in a round whose
declaration is the long action, and not while Broken [000, GAME.md §10].
"""

from typing import Literal

from bot.errors import BadInput, RuleViolation
from bot.rules.grit import die_of
from bot.rules.initiative import spend_action
from bot.rules.models import Combatant, LongAction, LongActionKind
from bot.rules.results import Result

MAX_NAME_LENGTH = 80

# What being attacked means for a combatant busy with a long action.
LongActionDefense = Literal["no_defense", "auto_hit"]


class LongActionProgress(Result):
    """One step of a long action: what was added and whether it is done."""

    combatant_id: int
    name: str
    kind: LongActionKind
    progress: int
    rounds: int
    added: int  # 0 in a round the actor was attacked
    actions_spent: int
    completed: bool  # the long action is done and cleared; remaining actions are free to use


class LongActionInterrupted(Result):
    """What an attack did to a long action."""

    combatant_id: int
    name: str
    kind: LongActionKind
    effect: LongActionDefense
    progress_before: int
    progress_after: int


def start_long_action(
    combatant: Combatant, name: str, kind: LongActionKind, rounds: int
) -> LongAction:
    """Begin a long action of `rounds` count; its progress starts at 0."""
    cleaned = " ".join(name.split())
    if not cleaned:
        raise BadInput("A long action needs a name (what is the character doing?).")
    if len(cleaned) > MAX_NAME_LENGTH:
        raise BadInput(
            "Long action names are at most {max_name_length} characters.",
            max_name_length=MAX_NAME_LENGTH,
        )
    if rounds < 1:
        raise BadInput("A long action takes at least 1 round (got {rounds}).", rounds=rounds)
    if die_of(combatant) is None:
        raise RuleViolation("{name} is Broken and cannot act.", name=combatant.name)
    if combatant.long_action is not None:
        raise RuleViolation(
            "{name} is already busy with {long_action}; stop it first.",
            name=combatant.name,
            long_action=combatant.long_action.name,
        )
    combatant.long_action = LongAction(name=cleaned, kind=kind, rounds=rounds)
    return combatant.long_action


def work_on_long_action(combatant: Combatant) -> LongActionProgress:
    """Spend effort on the long action: a main action (cumulative) or the round (focused)."""
    # No progress is added in a round the actor was attacked [000].
    action = combatant.long_action
    if action is None:
        raise RuleViolation("{name} has no long action under way.", name=combatant.name)
    # Focused work takes the actor's complete attention: the rest of its actions this round.
    spend = 1 if action.kind == "cumulative" else max(combatant.actions_left, 1)
    spend_action(combatant, spend)
    added = 0 if action.attacked_this_round else 1
    action.progress = min(action.progress + added, action.rounds)
    completed = action.progress >= action.rounds
    if completed:
        combatant.long_action = None
    return LongActionProgress(
        combatant_id=combatant.id,
        name=action.name,
        kind=action.kind,
        progress=action.progress,
        rounds=action.rounds,
        added=added,
        actions_spent=spend,
        completed=completed,
    )


def performing(combatant: Combatant) -> bool:
    """Return whether the combatant is performing its long action this round [000, GAME.md §10]."""
    # "while performing that action" [000]: in a round whose declaration is the long
    # action (declared to start it, plan it or work on it), and never while Broken, since a
    # Broken combatant performs nothing [002, GAME.md §10].
    declaration = combatant.declaration
    return (
        combatant.long_action is not None
        and declaration is not None
        and declaration.kind == "long"
        and die_of(combatant) is not None
    )


def long_action_defense(combatant: Combatant) -> LongActionDefense | None:
    """Return what performing a long action does to the defense: none, or an automatic hit."""
    action = combatant.long_action
    if action is None or not performing(combatant):
        return None
    return "no_defense" if action.kind == "focused" else "auto_hit"


def long_action_attacked(combatant: Combatant) -> LongActionInterrupted | None:
    """Record an attack on a combatant performing a long action (none when it is not)."""
    # Focused: progress back to 0. Cumulative: no progress this round. An attack made
    # after this round's progress was added leaves that progress standing [bot].
    action = combatant.long_action
    if action is None or not performing(combatant):
        return None
    before = action.progress
    if action.kind == "focused":
        action.progress = 0
    action.attacked_this_round = True
    return LongActionInterrupted(
        combatant_id=combatant.id,
        name=action.name,
        kind=action.kind,
        effect="no_defense" if action.kind == "focused" else "auto_hit",
        progress_before=before,
        progress_after=action.progress,
    )


def stop_long_action(combatant: Combatant) -> LongAction:
    """Abandon the long action under way; return it as it stood."""
    action = combatant.long_action
    if action is None:
        raise RuleViolation("{name} has no long action under way.", name=combatant.name)
    combatant.long_action = None
    return action


def new_round(combatant: Combatant) -> None:
    """Clear the long action's "attacked this round" mark at the end of a round."""
    if combatant.long_action is not None:
        combatant.long_action.attacked_this_round = False
