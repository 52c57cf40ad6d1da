"""Declarations: what each combatant says it will do this round [GAME.md §5 Round flow, 000].

A declaration lasts the round (Cleanup clears it) and replaces an earlier one. A long
action is declared with `kind="long"`: the first time with its count, which starts it
at 0; afterwards declaring it again on the combatant's turn spends effort on it — one
main action (cumulative) or the round's remaining actions (focused) — and its progress
stays across rounds. Declared outside its turn, the long action is this round's plan:
the combatant performs it this round (so an attack on it finds it busy), and works on
it by declaring it again when its turn comes [000, GAME.md §10].

A minor act (`kind="minor"`: drawing a weapon, shouting, a single space) is free, but
before the combatant's turn it costs −2 initiative [003]; it does not replace the
round's declaration.
"""

from bot.errors import BadInput, RuleViolation
from bot.i18n import L_
from bot.rules import encounter as flow
from bot.rules.acting import on_turn, require_able
from bot.rules.fortune import require_in_round
from bot.rules.long_actions import (
    LongActionProgress,
    start_long_action,
    stop_long_action,
    work_on_long_action,
)
from bot.rules.models import (
    Combatant,
    Declaration,
    DeclarationKind,
    Encounter,
    LongAction,
    LongActionKind,
)
from bot.rules.results import Result

MAX_DECLARATION_LENGTH = 100
DEFAULT_LONG_KIND: LongActionKind = "focused"  # when /declare kind:long gives no long_type [bot]


class Declared(Result):
    """A declaration recorded, and what it did to a long action."""

    combatant_id: int
    declaration: Declaration
    replaced: Declaration | None = None  # the one it replaces this round
    started: LongAction | None = None  # a long action begun now, at 0
    progress: LongActionProgress | None = None  # effort spent on the long action under way
    planned: LongAction | None = None  # declared out of turn: performed, worked on its turn
    initiative_penalty: int | None = None  # a minor act before its turn: −2 each [003]
    initiative: int | None = None  # its initiative after that penalty, once rolled


class Undeclared(Result):
    """A declaration withdrawn, and the long action abandoned with it."""

    combatant_id: int
    withdrawn: Declaration | None = None
    abandoned: LongAction | None = None  # as it stood: its progress is lost


def clean_text(text: str) -> str:
    """Return a declaration's text on one line, refusing an empty or overlong one."""
    cleaned = " ".join(text.split())
    if not cleaned:
        raise BadInput("Say what the combatant will do (the `action` option).")
    if len(cleaned) > MAX_DECLARATION_LENGTH:
        raise BadInput(
            "A declaration is at most {max_declaration_length} characters.",
            max_declaration_length=MAX_DECLARATION_LENGTH,
        )
    return cleaned


def declare(
    encounter: Encounter,
    combatant: Combatant,
    text: str,
    kind: DeclarationKind = "primary",
    *,
    rounds: int | None = None,
    long_type: LongActionKind | None = None,
    forced: bool = False,
) -> Declared:
    """Record this round's declaration; for a long action, start it, plan it or work on it."""
    cleaned = clean_text(text)
    require_in_round(encounter, combatant, "declare")
    if flow.is_broken(combatant):
        raise RuleViolation("{name} is Broken and cannot act.", name=combatant.name)
    if kind != "long" and (rounds is not None or long_type is not None):
        raise BadInput("rounds and long_type belong to a long action (kind:long).")
    if kind == "minor":
        return _minor_act(encounter, combatant, cleaned)
    started = progress = planned = None
    if kind == "long":
        under_way = combatant.long_action
        if under_way is None:
            if rounds is None:
                raise BadInput(
                    "A new long action needs its count: rounds:N (the GM sets how many)."
                )
            started = start_long_action(
                combatant, cleaned, long_type or DEFAULT_LONG_KIND, rounds
            ).model_copy()
        else:
            _check_same(combatant, under_way, cleaned, rounds, long_type)
            cleaned = under_way.name
            if on_turn(encounter, combatant) or forced:
                progress = _work(encounter, combatant, under_way)
            else:
                planned = under_way.model_copy()
    replaced = combatant.declaration
    combatant.declaration = Declaration(text=cleaned, kind=kind)
    return Declared(
        combatant_id=combatant.id,
        declaration=combatant.declaration,
        replaced=replaced,
        started=started,
        progress=progress,
        planned=planned,
    )


def _minor_act(encounter: Encounter, combatant: Combatant, text: str) -> Declared:
    """A minor act: free; before the combatant's turn, −2 initiative in fortune mode [003]."""
    penalty = flow.minor_act(encounter, combatant)
    return Declared(
        combatant_id=combatant.id,
        declaration=Declaration(text=text, kind="minor"),
        initiative_penalty=penalty,
        initiative=combatant.initiative if penalty is not None else None,
    )


def _check_same(
    combatant: Combatant,
    under_way: LongAction,
    text: str,
    rounds: int | None,
    long_type: LongActionKind | None,
) -> None:
    """Refuse a declaration that names another long action, or re-counts this one."""
    progress = f"{under_way.progress}/{under_way.rounds}"
    if text.casefold() != under_way.name.casefold():
        raise RuleViolation(
            "{name} is busy with {under_way} ({progress}); declare it "
            "again to work on it, or /undeclare to abandon it first.",
            name=combatant.name,
            under_way=under_way.name,
            progress=progress,
        )
    if rounds is not None or (long_type is not None and long_type != under_way.kind):
        raise BadInput(
            "{under_way} is under way ({kind}, {progress}); its count "
            "and type are set when it starts.",
            under_way=under_way.name,
            kind=L_(under_way.kind),
            progress=progress,
        )


def _work(encounter: Encounter, combatant: Combatant, under_way: LongAction) -> LongActionProgress:
    """Spend effort on the long action under way, on the combatant's turn."""
    require_able(encounter, combatant)
    if combatant.actions_left < 1:
        raise RuleViolation(
            "{name} has no actions left this round to work on {under_way}.",
            name=combatant.name,
            under_way=under_way.name,
        )
    return work_on_long_action(combatant)


def undeclare(encounter: Encounter, combatant: Combatant) -> Undeclared:
    """Withdraw this round's declaration; withdrawing a long action abandons it."""
    # A long action is withdrawn when this round's declaration is it, or when nothing
    # else was declared this round [bot].
    declaration = combatant.declaration
    abandons = combatant.long_action is not None and (
        declaration is None or declaration.kind == "long"
    )
    if declaration is None and not abandons:
        raise RuleViolation("{name} has declared nothing this round.", name=combatant.name)
    abandoned = stop_long_action(combatant).model_copy() if abandons else None
    combatant.declaration = None
    return Undeclared(combatant_id=combatant.id, withdrawn=declaration, abandoned=abandoned)


def shows_declarations(encounter: Encounter) -> bool:
    """Return whether the tracker lists declarations now: the `full` flow's Declaration phase."""
    return encounter.flow == "full" and encounter.phase == "declaration"
