"""Grit changes in words: one renderer for attacks, Specials and /grit alike."""

from __future__ import annotations

from bot.i18n import _, n_
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
            return _(
                "{name} drops to {level} Grit — now rolls {die}.", name=name, level=level, die=die
            )
        case "rises":
            return _(
                "{name} rises to {level} Grit — now rolls {die}.", name=name, level=level, die=die
            )
        case "broken" if change.injured:
            return _("{name} is Broken and cannot act. An Injury is recorded.", name=name)
        case "broken":
            return _("{name} is Broken and cannot act.", name=name)
        case "back_on_feet":
            return _(
                "{name} is back on their feet at {level} — rolls {die}.",
                name=name,
                level=level,
                die=die,
            )
    return None


def _numbers(change: GritChange, exact: bool) -> str:
    """Return " (Grit 30 → 23)" exactly, or " (Prime d20)" (the level alone says it when crossed)."""
    if exact:
        numbers = f"Grit {change.grit_before} → {change.grit_after}"
        if change.max_after != change.max_before:
            numbers += ", " + _(
                "max {before} → {after}", before=change.max_before, after=change.max_after
            )
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
            text = _(
                "{name} takes {amount} damage{numbers}.",
                name=name,
                amount=change.amount,
                numbers=numbers,
            )
        case "heal" if change.blight:
            text = _(
                "{name} heals {amount}, {blight} withheld by Blight{numbers}.",
                name=name,
                amount=change.amount,
                blight=change.blight,
                numbers=numbers,
            )
        case "heal":
            text = _(
                "{name} heals {amount}{numbers}.", name=name, amount=change.amount, numbers=numbers
            )
        case "set" if exact:
            text = _(
                "{name}'s Grit is set to {amount}{numbers}.",
                name=name,
                amount=change.amount,
                numbers=numbers,
            )
        case "set":
            text = _("{name}'s Grit is set{numbers}.", name=name, numbers=numbers)
        case _ if exact:
            text = _(
                "{name}'s maximum Grit is now {max}{numbers}.",
                name=name,
                max=change.max_after,
                numbers=numbers,
            )
        case _:
            text = _("{name}'s maximum Grit changes{numbers}.", name=name, numbers=numbers)
    level = level_change_text(change)
    return text if level is None else f"{text} {level}"


def die_shift_text(target: Combatant, before: int | None, levels: int) -> str:
    """Return what /grit modifier did: "Goblin's die shifts one level down — now rolls d12"."""
    after = die_of(target)
    name = name_text(target.name)
    if after is None:
        if levels:
            return n_(
                "{name} is Broken; once Grit is restored, the die shifts one level down.",
                "{name} is Broken; once Grit is restored, the die shifts {n} levels down.",
                levels,
                name=name,
            )
        return _("{name}'s die modifier is cleared.", name=name)
    if levels == 0:
        return _("{name}'s die modifier is cleared — rolls {die}.", name=name, die=die_text(after))
    line = n_(
        "{name}'s die shifts one level down — now rolls {die} (from {natural}).",
        "{name}'s die shifts {n} levels down — now rolls {die} (from {natural}).",
        levels,
        name=name,
        die=die_text(after),
        natural=die_text(core_die(target.grit)),
    )
    if before == after:
        return line + " " + _("The die was already that low.")
    return line
