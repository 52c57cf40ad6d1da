"""A loadout as text: each weapon, armor and shield with its numbers [GAME.md §9]."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.render.text import name_text
from bot.rules.loadout import Stowed
from bot.rules.models import Armor, Item, Shield, Weapon
from bot.rules.names import name_key

EMPTY = "No weapons, armor or shield."
FIELD_LIMIT = 1024  # characters of one embed field [Discord]


def weapon_text(weapon: Weapon) -> str:
    """Return "**Greataxe** — melee 1d12, base Risk 3, reach 2, braced"."""
    parts = [f"{weapon.style} {weapon.damage or 'no damage'}", f"base Risk {weapon.base_risk}"]
    if weapon.penetration is not None:
        parts.append(f"penetration {weapon.penetration}")
    if weapon.weight is not None:
        parts.append(f"weight {weapon.weight:g}")
    if weapon.range_kind is not None:
        parts.append(f"range {weapon.range_kind}")
    if weapon.reach != 1:
        parts.append(f"reach {weapon.reach}")
    if weapon.braced:
        parts.append("braced")
    return f"**{name_text(weapon.name)}** — " + ", ".join(parts)


def item_text(item: Item) -> str:
    """Return one item's line: a weapon's attack, armor's absorb, a shield's block and guard."""
    if isinstance(item, Weapon):
        return weapon_text(item)
    if isinstance(item, Armor):
        return (
            f"**{name_text(item.name)}** — armor: absorbs {item.absorb}, "
            f"crit guard {item.crit_guard}"
        )
    assert isinstance(item, Shield)
    durability = "" if item.durability is None else f", durability {item.durability}"
    return (
        f"**{name_text(item.name)}** — shield: block +{item.block}, guard +{item.guard}{durability}"
    )


def loadout_text(items: Sequence[Item]) -> str:
    """Return a loadout, an item a line."""
    return "\n".join(item_text(item) for item in items) or EMPTY


def loadout_chunks(items: Sequence[Item]) -> list[str]:
    """Return a loadout cut at item lines into pieces that each fit one embed field."""
    chunks: list[str] = []
    for line in loadout_text(items).split("\n"):
        if chunks and len(chunks[-1]) + 1 + len(line) <= FIELD_LIMIT:
            chunks[-1] += "\n" + line
        else:
            chunks.append(line[:FIELD_LIMIT])
    return chunks


def add_loadout(embed: discord.Embed, items: Sequence[Item]) -> None:
    """Add a loadout to a sheet's embed: one field, or a few when it is long."""
    for n, chunk in enumerate(loadout_chunks(items)):
        embed.add_field(name="Loadout" if n == 0 else "Loadout (more)", value=chunk, inline=False)


def stowed_text(owner: str, stowed: Stowed) -> str:
    """Return what adding an item did: "**Brom** carries **Greataxe** — …; it replaces Axe."."""
    replaced = stowed.replaced
    if replaced is not None and name_key(replaced.name) == name_key(stowed.item.name):
        return f"**{name_text(owner)}** changes {item_text(stowed.item)}."
    text = f"**{name_text(owner)}** carries {item_text(stowed.item)}."
    if replaced is not None:
        text += f" It replaces **{name_text(replaced.name)}**."
    return text
