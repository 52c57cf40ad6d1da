"""Fortune options and declarations in words: the public line, which is also the log's."""

from __future__ import annotations

from bot.render.text import name_text
from bot.rules.declarations import Declared, Undeclared
from bot.rules.fortune import Hasted, Held
from bot.rules.initiative import Sacrifice
from bot.rules.models import Combatant, Declaration, InitiativeMode

# Why Haste and Hold are a place in the order, not a bonus, outside fortune [GAME.md §5, bot].
NO_BONUS_BECAUSE: dict[InitiativeMode, str] = {
    "fortune": "",
    "finesse": "finesse mode rolls no initiative",
    "sides": "sides mode rolls once per side",
    "once": "once mode keeps the fight's first roll",
}
KIND_NAMES = {
    "primary": "primary",
    "sub": "sub-action",
    "movement": "movement",
    "fast": "fast action",
    "long": "long action",
    "minor": "minor act",
}


def _text(text: str) -> str:
    """Escape what a player typed so it shows as typed."""
    return name_text(text)


def _actions(count: int) -> str:
    return f"{count} action{'s' if count != 1 else ''}"


def haste_text(combatant: Combatant, hasted: Hasted) -> str:
    """Return "Mira hastes: +3 initiative when round 2's initiative is rolled; one action"."""
    if hasted.bonus is not None:
        effect = f"+{hasted.bonus} initiative when round {hasted.round}'s initiative is rolled"
    else:
        effect = (
            f"{NO_BONUS_BECAUSE[hasted.mode]}, so Haste puts it at the front of "
            f"round {hasted.round}'s order instead of +3"
        )
    return f"⚡ **{name_text(combatant.name)}** hastes: {effect}; only {_actions(hasted.actions)} this round."


def wait_text(combatant: Combatant) -> str:
    """Return the line for a Wait declared before the combatant's turn."""
    return (
        f"⏸ **{name_text(combatant.name)}** waits: its turn is passed over, and it may `/act` "
        "at any moment this round."
    )


def hold_text(combatant: Combatant, held: Held) -> str:
    """Return "Orc holds into round 2: +10 initiative then; …"."""
    if held.bonus is not None:
        effect = f"+{held.bonus} initiative then"
    else:
        effect = f"it goes first then ({NO_BONUS_BECAUSE[held.mode]})"
    lost = ""
    if held.actions_lost:
        verb = "is" if held.actions_lost == 1 else "are"
        lost = f"; the {_actions(held.actions_lost)} it had left this round {verb} lost"
    return f"⏩ **{name_text(combatant.name)}** holds into round {held.into_round}: {effect}{lost}."


def sacrifice_text(combatant: Combatant, sacrificed: Sacrifice, round_number: int) -> str:
    """Return "Mira sacrifices an action: +3 to attack for the rest of round 1 (1 action left)"."""
    return (
        f"✚ **{name_text(combatant.name)}** sacrifices an action: +{sacrificed.bonus} to "
        f"{sacrificed.target} for the rest of round {round_number} "
        f"({_actions(sacrificed.actions_left)} left)."
    )


def declaration_mark(declaration: Declaration) -> str:
    """Return the tracker's mark for a declaration: "📝 primary: Attack the goblin"."""
    return f"📝 {KIND_NAMES[declaration.kind]}: {_text(declaration.text)}"


def declared_text(combatant: Combatant, declared: Declared) -> str:
    """Return the line for a declaration, or for starting or working on a long action."""
    name = f"**{name_text(combatant.name)}**"
    if declared.started is not None:
        action = declared.started
        if action.kind == "cumulative":
            how = "each main action spent on it adds 1; an attack that round hits automatically"
        else:
            how = "a round of full attention each; an attack resets it and gets no defense"
        return (
            f"⏳ {name} starts a long action: {_text(action.name)} "
            f"({action.kind}, 0/{action.rounds} — {how})."
        )
    if declared.progress is not None:
        step = declared.progress
        spent = _actions(step.actions_spent)
        count = f"{step.progress}/{step.rounds}"
        if step.completed:
            return (
                f"✅ {name} completes {_text(step.name)} ({count}, {spent} spent) and may use "
                f"its remaining {_actions(combatant.actions_left)}."
            )
        if not step.added:
            return (
                f"⏳ {name} works on {_text(step.name)} ({spent} spent) but was attacked this "
                f"round: no progress ({count})."
            )
        return f"⏳ {name} works on {_text(step.name)}: {count} ({spent} spent)."
    if declared.planned is not None:
        action = declared.planned
        return (
            f"⏳ {name} will work on {_text(action.name)} this round "
            f"({action.progress}/{action.rounds}): it is busy with it from now on, and adds to "
            "it by declaring it again on its turn."
        )
    declaration = declared.declaration
    if declaration.kind == "minor":
        if declared.initiative_penalty is None:
            return f"📝 {name}: {_text(declaration.text)} (a minor act: free)."
        now = f" (initiative now {declared.initiative})" if declared.initiative is not None else ""
        return (
            f"📝 {name}: {_text(declaration.text)} — a minor act before its turn, −2 "
            f"initiative ({declared.initiative_penalty} this round){now}."
        )
    if declaration.kind == "fast":
        return (
            f"📝 {name} declares a fast action: {_text(declaration.text)} — it resolves at once "
            "(player characters before NPCs)."
        )
    return f"📝 {name} declares: {_text(declaration.text)} ({KIND_NAMES[declaration.kind]})."


def undeclared_text(combatant: Combatant, undeclared: Undeclared) -> str:
    """Return the line for a withdrawn declaration or an abandoned long action."""
    name = f"**{name_text(combatant.name)}**"
    if undeclared.abandoned is not None:
        action = undeclared.abandoned
        return (
            f"{name} abandons {_text(action.name)}: its progress "
            f"({action.progress}/{action.rounds}) is lost."
        )
    assert undeclared.withdrawn is not None
    return f"{name} withdraws its declaration ({_text(undeclared.withdrawn.text)})."
