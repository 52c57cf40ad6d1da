"""A loadout as text: each weapon, armor and shield with its numbers [GAME.md §9]."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.i18n import N_, _
from bot.render.text import name_text
from bot.rules.loadout import Stowed
from bot.rules.models import Armor, Item, Shield, Weapon
from bot.rules.names import name_key

EMPTY = N_("No weapons, armor or shield.")
FIELD_LIMIT = 1024  # characters of one embed field [Discord]
# A weapon's style and range band as a loadout line names them.
STYLE_NAMES = {
    "melee": N_("melee"),
    "targeted": N_("targeted"),
    "ranged": N_("ranged"),
    "thrown": N_("thrown"),
    "unarmed": N_("unarmed"),
}
RANGE_NAMES = {"short": N_("short"), "long": N_("long"), "bow": N_("bow")}


def _named(names: dict[str, str], key: str) -> str:
    return _(names[key]) if key in names else key


def weapon_text(weapon: Weapon) -> str:
    """Return "**Greataxe** — melee 1d12, base Risk 3, reach 2, braced"."""
    style = _named(STYLE_NAMES, weapon.style)
    if weapon.damage:
        attack = _("{style} {damage}", style=style, damage=weapon.damage)
    else:
        attack = _("{style} no damage", style=style)
    parts = [attack, _("base Risk {risk}", risk=weapon.base_risk)]
    if weapon.penetration is not None:
        parts.append(_("penetration {n}", n=weapon.penetration))
    if weapon.weight is not None:
        weight = format(weapon.weight, "g")
        parts.append(_("weight {weight}", weight=weight))
    if weapon.range_kind is not None:
        parts.append(_("range {band}", band=_named(RANGE_NAMES, weapon.range_kind)))
    if weapon.reach != 1:
        parts.append(_("reach {n}", n=weapon.reach))
    if weapon.braced:
        parts.append(_("braced"))
    return f"**{name_text(weapon.name)}** — " + ", ".join(parts)


def item_text(item: Item) -> str:
    """Return one item's line: a weapon's attack, armor's absorb, a shield's block and guard."""
    if isinstance(item, Weapon):
        return weapon_text(item)
    name = name_text(item.name)
    if isinstance(item, Armor):
        return _(
            "**{name}** — armor: absorbs {absorb}, crit guard {guard}",
            name=name,
            absorb=item.absorb,
            guard=item.crit_guard,
        )
    assert isinstance(item, Shield)
    if item.durability is None:
        return _(
            "**{name}** — shield: block +{block}, guard +{guard}",
            name=name,
            block=item.block,
            guard=item.guard,
        )
    return _(
        "**{name}** — shield: block +{block}, guard +{guard}, durability {durability}",
        name=name,
        block=item.block,
        guard=item.guard,
        durability=item.durability,
    )


def loadout_text(items: Sequence[Item]) -> str:
    """Return a loadout, an item a line."""
    return "\n".join(item_text(item) for item in items) or _(EMPTY)


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
        embed.add_field(
            name=_("Loadout") if n == 0 else _("Loadout (more)"), value=chunk, inline=False
        )


def stowed_text(owner: str, stowed: Stowed) -> str:
    """Return what adding an item did: "**Brom** carries **Greataxe** — …; it replaces Axe."."""
    replaced = stowed.replaced
    fields = {"owner": name_text(owner), "item": item_text(stowed.item)}
    if replaced is not None and name_key(replaced.name) == name_key(stowed.item.name):
        return _("**{owner}** changes {item}.", **fields)
    if replaced is not None:
        return _(
            "**{owner}** carries {item}. It replaces **{replaced}**.",
            replaced=name_text(replaced.name),
            **fields,
        )
    return _("**{owner}** carries {item}.", **fields)


def loadout_reply(owner: str, items: Sequence[Item]) -> str:
    """Return a loadout as /character weapon list and /npc weapon list say it."""
    return _("**{owner}**'s loadout:\n{items}", owner=name_text(owner), items=loadout_text(items))
