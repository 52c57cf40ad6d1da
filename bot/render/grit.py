"""Grit changes in words: one renderer for attacks, Specials and /grit alike."""

from __future__ import annotations

from bot.render.text import die_text, name_text
from bot.rules.grit import GritChange, core_die, die_of
from bot.rules.models import Combatant


def level_change_text(change: GritChange) -> str | None:
    """Return the level-change line [GAME.md §2], e.g. "Mira drops to Reduced Grit — now rolls d12"."""
    name, level, die = (
        name_text(change.name),
        change.level_after.display,
        die_text(change.die_after),
    )
    match change.announcement:
        case "drops":
            return f"{name} drops to {level} Grit — now rolls {die}."
        case "rises":
            return f"{name} rises to {level} Grit — now rolls {die}."
        case "broken":
            return f"{name} is Broken and cannot act." + (
                " An Injury is recorded." if change.injured else ""
            )
        case "back_on_feet":
            return f"{name} is back on their feet at {level} — rolls {die}."
    return None


def _numbers(change: GritChange, exact: bool) -> str:
    """Return " (Grit 30 → 23)" exactly, or " (Prime d20)" (the level alone says it when crossed)."""
    if exact:
        numbers = f"Grit {change.grit_before} → {change.grit_after}"
        if change.max_after != change.max_before:
            numbers += f", max {change.max_before} → {change.max_after}"
        return f" ({numbers})"
    if change.crossed:
        return ""
    level = change.level_after.display
    return f" ({level})" if change.die_after is None else f" ({level} {die_text(change.die_after)})"


def grit_change_text(change: GritChange, *, gm_view: bool) -> str:
    """Return what a change did: "Goblin takes 7 damage (Grit 30 → 23)." plus any level line.

    An NPC's numbers are the GM's: everyone else reads its level and die [COMMANDS.md].
    """
    exact = gm_view or not change.npc
    numbers = _numbers(change, exact)
    name = name_text(change.name)
    match change.kind:
        case "damage":
            text = f"{name} takes {change.amount} damage{numbers}."
        case "heal":
            withheld = f", {change.blight} withheld by Blight" if change.blight else ""
            text = f"{name} heals {change.amount}{withheld}{numbers}."
        case "set" if exact:
            text = f"{name}'s Grit is set to {change.amount}{numbers}."
        case "set":
            text = f"{name}'s Grit is set{numbers}."
        case _ if exact:
            text = f"{name}'s maximum Grit is now {change.max_after}{numbers}."
        case _:
            text = f"{name}'s maximum Grit changes{numbers}."
    level = level_change_text(change)
    return text if level is None else f"{text} {level}"


def die_shift_text(target: Combatant, before: int | None, levels: int) -> str:
    """Return what /grit modifier did: "Goblin's die shifts one level down — now rolls d12"."""
    after = die_of(target)
    steps = "one level" if levels == 1 else f"{levels} levels"
    name = name_text(target.name)
    if after is None:
        if levels:
            return f"{name} is Broken; once Grit is restored, the die shifts {steps} down."
        return f"{name}'s die modifier is cleared."
    if levels == 0:
        return f"{name}'s die modifier is cleared — rolls {die_text(after)}."
    natural = die_text(core_die(target.grit))
    line = f"{name}'s die shifts {steps} down — now rolls {die_text(after)} (from {natural})."
    return line + (" The die was already that low." if before == after else "")
