"""What /character power and /npc power share: the catalogue's powers by name, and their choices.

Both cogs put powers on a sheet (a character's, a template's); neither imports the other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands

from bot.catalogue.lookup import excluded_message
from bot.catalogue.views import Entry
from bot.errors import NotFound
from bot.rules.names import clean_name
from bot.table import name_choices

if TYPE_CHECKING:
    from bot.app import Tablehand

POWER_ENTRY_KINDS = ("active", "active_buff", "reaction", "passive", "movement")
BuiltKind = Literal["active", "active_buff", "reaction", "passive"]
PowerName = app_commands.Range[str, 1, 80]
Level = app_commands.Range[int, 1, 16]
Trigger = app_commands.Range[str, 1, 40]
Components = app_commands.Range[str, 1, 500]
HELP = {  # short: /npc and /character stay within Discord's 4,000 characters a command
    "level": "1–16",
    "limit": "Once per turn, round, combat or day",
    "trigger": "A Reaction's trigger",
    "spell": "A Spell (Hex adds to its hits)",
}


def catalogue_entry(bot: Tablehand, name: str) -> Entry:
    """Return the catalogue power a name means, or refuse a guess (with the closest names)."""
    match = bot.lookup.match(name, kind=POWER_ENTRY_KINDS)
    if match.entry is None or match.exclusion is not None:
        raise NotFound(excluded_message(match))
    if match.guessed:
        raise NotFound(
            "No catalogue power is named {name!r}; the closest: {closest}.",
            name=clean_name(name),
            closest=", ".join(c.name for c in match.alternatives[:3]),
        )
    return match.entry


async def catalogue_power_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Suggest the catalogue's Actives, Buffs, Reactions, Passives and Movements."""
    bot: Tablehand = interaction.client  # type: ignore[assignment]
    return [
        app_commands.Choice(name=c.name, value=c.value)
        for c in bot.lookup.suggest(current, kind=POWER_ENTRY_KINDS)
    ]


async def trigger_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Suggest the SRD's Reaction triggers."""
    bot: Tablehand = interaction.client  # type: ignore[assignment]
    return name_choices([t.key for t in bot.catalogue.tables.reaction_triggers], current)
