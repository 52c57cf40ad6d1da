"""Loadouts in commands: items built from options, and the names autocomplete offers [GAME.md §9].

`/character weapon …` and `/npc weapon …` (with armor and shields) share these; the
rules of a loadout are `bot.rules.loadout`, its text `bot.render.loadout`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, get_args

import discord
from discord import app_commands
from pydantic import ValidationError

from bot.errors import BadInput
from bot.rules.loadout import weapons
from bot.rules.models import MAX_ITEM_NAME, Armor, AttackStyle, Item, Shield, Weapon
from bot.rules.names import clean_name, name_key
from bot.table import glance, name_choices

if TYPE_CHECKING:
    from bot.app import Tablehand

# A weapon's styles: an unarmed attack needs none.
ArmedStyle = Literal[tuple(s for s in get_args(AttackStyle) if s != "unarmed")]  # type: ignore[valid-type]
ItemName = app_commands.Range[str, 1, MAX_ITEM_NAME]
Damage = app_commands.Range[str, 1, 100]
BaseRisk = app_commands.Range[int, 1, 20]
Penetration = app_commands.Range[int, 0, 100]
Weight = app_commands.Range[float, 0.1, 1000.0]
Reach = app_commands.Range[int, 0, 10]
ItemNumber = app_commands.Range[int, 0, 100]
Durability = app_commands.Range[int, 0, 999]

WEAPON_HELP = dict(
    name="Its name (one the loadout has is changed)",
    damage="Damage dice, e.g. 1d12+1",
    style="melee (default), targeted, ranged or thrown",
    base_risk="Base Risk (default 1; a Great Axe has 3)",
    penetration="Ranged/thrown: penetration",
    weight="Thrown: weight (range = Physical ÷ weight)",
    range_kind="Ranged/thrown: range band",
    reach="Melee reach (default 1)",
    braced="Set against a charge (spear, pike)",
)
ARMOR_HELP = dict(
    name="Its name; it replaces the armor worn",
    absorb="Taken off each hit's damage",
    crit_guard="Narrows an attacker's critical range",
)
SHIELD_HELP = dict(
    name="Its name; it replaces the shield held",
    block="Added to every Block",
    guard="Added to defense while guarding",
    durability="Against penetration",
)
ITEM_HELP = "The weapon, armor or shield"


def item_name(text: str) -> str:
    """Return an item's name, trimmed, or refuse an empty one."""
    name = clean_name(text)
    if not name:
        raise BadInput("An item needs a name.")
    return name


def built(kind: type[Weapon] | type[Armor] | type[Shield], **fields: Any) -> Item:
    """Build an item from checked options; a value the model refuses is one clear line."""
    given = {key: value for key, value in fields.items() if value is not None}
    try:
        return kind(**{**given, "name": item_name(fields["name"])})
    except ValidationError as error:
        problem = error.errors()[0]
        where = ".".join(str(part) for part in problem["loc"]) or "value"
        raise BadInput("{where}: {problem}.", where=where, problem=problem["msg"]) from None


async def sheet_item_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Autocomplete the items of the caller's named (or active) character."""
    bot: Tablehand = interaction.client  # type: ignore[assignment]
    guild_id, user_id = interaction.guild_id or 0, interaction.user.id
    named = getattr(interaction.namespace, "character", None)
    if named:
        sheet = await bot.store.get_character(guild_id, user_id, named)
    else:
        sheet = await bot.store.active_character(guild_id, user_id)
    return name_choices([i.name for i in sheet.items] if sheet else [], current)


async def attack_weapon_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Autocomplete /attack's weapon: the named attacker's, else those of the caller's combatants."""
    seen = await glance(interaction)
    if seen is None:
        return []
    mine = seen.actable()  # only whom the caller may attack with: no peek at others' gear
    named = getattr(interaction.namespace, "attacker", None)
    if named:
        mine = [c for c in mine if name_key(c.name) == name_key(str(named))]
    names = dict.fromkeys(w.name for c in mine for w in weapons(c.items))
    return name_choices(list(names), current)
