"""Fortune options and declarations in words: the public line, which is also the log's."""

from __future__ import annotations

from bot.i18n import N_, _, n_
from bot.render.text import name_text
from bot.rules.declarations import Declared, Undeclared
from bot.rules.fortune import Hasted, Held
from bot.rules.initiative import Sacrifice
from bot.rules.models import Combatant, Declaration, InitiativeMode

# Why Haste and Hold are a place in the order, not a bonus, outside fortune [GAME.md §5, bot].
NO_BONUS_BECAUSE: dict[InitiativeMode, str] = {
    "fortune": "",
    "finesse": N_("finesse mode rolls no initiative"),
    "sides": N_("sides mode rolls once per side"),
    "once": N_("once mode keeps the fight's first roll"),
}
KIND_NAMES = {
    "primary": N_("primary"),
    "sub": N_("sub-action"),
    "movement": N_("movement"),
    "fast": N_("fast action"),
    "long": N_("long action"),
    "minor": N_("minor act"),
}


def _text(text: str) -> str:
    """Escape what a player typed so it shows as typed."""
    return name_text(text)


def _actions(count: int) -> str:
    return n_("{n} action", "{n} actions", count)


def haste_text(combatant: Combatant, hasted: Hasted) -> str:
    """Return "Mira hastes: +3 initiative when round 2's initiative is rolled; one action"."""
    if hasted.bonus is not None:
        effect = _(
            "+{bonus} initiative when round {round}'s initiative is rolled",
            bonus=hasted.bonus,
            round=hasted.round,
        )
    else:
        effect = _(
            "{because}, so Haste puts it at the front of round {round}'s order instead of +3",
            because=_(NO_BONUS_BECAUSE[hasted.mode]),
            round=hasted.round,
        )
    return _(
        "⚡ **{name}** hastes: {effect}; only {actions} this round.",
        name=name_text(combatant.name),
        effect=effect,
        actions=_actions(hasted.actions),
    )


def wait_text(combatant: Combatant) -> str:
    """Return the line for a Wait declared before the combatant's turn."""
    return _(
        "⏸ **{name}** waits: its turn is passed over, and it may `/act` at any moment this round.",
        name=name_text(combatant.name),
    )


def hold_text(combatant: Combatant, held: Held) -> str:
    """Return "Orc holds into round 2: +10 initiative then; …"."""
    if held.bonus is not None:
        effect = _("+{bonus} initiative then", bonus=held.bonus)
    else:
        effect = _("it goes first then ({because})", because=_(NO_BONUS_BECAUSE[held.mode]))
    lost = ""
    if held.actions_lost:
        lost = n_(
            "; the {n} action it had left this round is lost",
            "; the {n} actions it had left this round are lost",
            held.actions_lost,
        )
    return _(
        "⏩ **{name}** holds into round {round}: {effect}{lost}.",
        name=name_text(combatant.name),
        round=held.into_round,
        effect=effect,
        lost=lost,
    )


def sacrifice_text(combatant: Combatant, sacrificed: Sacrifice, round_number: int) -> str:
    """Return "Mira sacrifices an action: +3 to attack for the rest of round 1 (1 action left)"."""
    return _(
        "✚ **{name}** sacrifices an action: +{bonus} to {target} for the rest of round {round} "
        "({actions} left).",
        name=name_text(combatant.name),
        bonus=sacrificed.bonus,
        target=_(sacrificed.target),
        round=round_number,
        actions=_actions(sacrificed.actions_left),
    )


def declaration_mark(declaration: Declaration) -> str:
    """Return the tracker's mark for a declaration: "📝 primary: Attack the goblin"."""
    return f"📝 {_(KIND_NAMES[declaration.kind])}: {_text(declaration.text)}"


def declared_text(combatant: Combatant, declared: Declared) -> str:
    """Return the line for a declaration, or for starting or working on a long action."""
    name = f"**{name_text(combatant.name)}**"
    if declared.started is not None:
        action = declared.started
        if action.kind == "cumulative":
            how = _("each main action spent on it adds 1; an attack that round hits automatically")
        else:
            how = _("a round of full attention each; an attack resets it and gets no defense")
        return _(
            "⏳ {name} starts a long action: {action} ({kind}, 0/{rounds} — {how}).",
            name=name,
            action=_text(action.name),
            kind=_(action.kind),
            rounds=action.rounds,
            how=how,
        )
    if declared.progress is not None:
        return _progress_text(combatant, name, declared)
    if declared.planned is not None:
        action = declared.planned
        return _(
            "⏳ {name} will work on {action} this round ({progress}/{rounds}): it is busy with it "
            "from now on, and adds to it by declaring it again on its turn.",
            name=name,
            action=_text(action.name),
            progress=action.progress,
            rounds=action.rounds,
        )
    return _declaration_text(name, declared)


def _progress_text(combatant: Combatant, name: str, declared: Declared) -> str:
    step = declared.progress
    assert step is not None
    fields = {
        "name": name,
        "action": _text(step.name),
        "spent": _actions(step.actions_spent),
        "count": f"{step.progress}/{step.rounds}",
    }
    if step.completed:
        return _(
            "✅ {name} completes {action} ({count}, {spent} spent) and may use its remaining "
            "{left}.",
            left=_actions(combatant.actions_left),
            **fields,
        )
    if not step.added:
        return _(
            "⏳ {name} works on {action} ({spent} spent) but was attacked this round: "
            "no progress ({count}).",
            **fields,
        )
    return _("⏳ {name} works on {action}: {count} ({spent} spent).", **fields)


def _declaration_text(name: str, declared: Declared) -> str:
    declaration = declared.declaration
    text = _text(declaration.text)
    if declaration.kind == "minor":
        if declared.initiative_penalty is None:
            return _("📝 {name}: {text} (a minor act: free).", name=name, text=text)
        now = ""
        if declared.initiative is not None:
            now = " " + _("(initiative now {initiative})", initiative=declared.initiative)
        return _(
            "📝 {name}: {text} — a minor act before its turn, −2 initiative ({penalty} this "
            "round){now}.",
            name=name,
            text=text,
            penalty=declared.initiative_penalty,
            now=now,
        )
    if declaration.kind == "fast":
        return _(
            "📝 {name} declares a fast action: {text} — it resolves at once "
            "(player characters before NPCs).",
            name=name,
            text=text,
        )
    return _(
        "📝 {name} declares: {text} ({kind}).",
        name=name,
        text=text,
        kind=_(KIND_NAMES[declaration.kind]),
    )


def undeclared_text(combatant: Combatant, undeclared: Undeclared) -> str:
    """Return the line for a withdrawn declaration or an abandoned long action."""
    name = f"**{name_text(combatant.name)}**"
    if undeclared.abandoned is not None:
        action = undeclared.abandoned
        return _(
            "{name} abandons {action}: its progress ({progress}/{rounds}) is lost.",
            name=name,
            action=_text(action.name),
            progress=action.progress,
            rounds=action.rounds,
        )
    assert undeclared.withdrawn is not None
    return _(
        "{name} withdraws its declaration ({text}).",
        name=name,
        text=_text(undeclared.withdrawn.text),
    )
