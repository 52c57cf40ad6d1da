"""Grit changes in words: one renderer for attacks, Specials and /grit alike."""

from __future__ import annotations

from bot.render.text import die_text
from bot.rules.grit import GritChange


def level_change_text(change: GritChange) -> str | None:
    """Return the level-change line [GAME.md §2], e.g. "Mira drops to Reduced Grit — now rolls d12"."""
    name, level, die = change.name, change.level_after.display, die_text(change.die_after)
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


def grit_change_text(change: GritChange) -> str:
    """Return what a change did: "Goblin takes 7 damage (Grit 30 → 23)." plus any level line."""
    numbers = f"Grit {change.grit_before} → {change.grit_after}"
    if change.max_after != change.max_before:
        numbers += f", max {change.max_before} → {change.max_after}"
    match change.kind:
        case "damage":
            text = f"{change.name} takes {change.amount} damage ({numbers})."
        case "heal":
            withheld = f", {change.blight} withheld by Blight" if change.blight else ""
            text = f"{change.name} heals {change.amount}{withheld} ({numbers})."
        case "set":
            text = f"{change.name}'s Grit is set to {change.amount} ({numbers})."
        case _:
            text = f"{change.name}'s maximum Grit is now {change.max_after} ({numbers})."
    level = level_change_text(change)
    return text if level is None else f"{text} {level}"
