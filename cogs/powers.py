"""/power, /special and /pp: the SRD catalogue at the table [COMMANDS.md /power, /special, /pp].

Read-only look-ups: no database, no encounter. Replies are public, since they are
table reference everyone may read; paging buttons work for anyone, and after a
restart, because the entry, level and page are all in their custom_id.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.catalogue import (
    CurveTarget,
    Entry,
    PowerEntryView,
    entry_view,
    pp_target,
    special_cost,
)
from bot.catalogue import price as price_build
from bot.catalogue.names import normalise
from bot.catalogue.pricing import CURVED_TYPES
from bot.errors import BadInput, NotFound
from bot.render.powers import (
    curve_embed,
    entry_page,
    entry_pager,
    movement_embed,
    price_embed,
    special_embed,
)
from bot.table import AUTOCOMPLETE_LIMIT

if TYPE_CHECKING:
    from bot.app import Tablehand

Level = app_commands.Range[int, 1, 16]


class Powers(commands.Cog):
    """Look up catalogue entries and Specials; give curve targets and price builds."""

    pp = app_commands.Group(name="pp", description="Power Points: curve targets and build prices")

    def __init__(self, bot: Tablehand) -> None:
        self.bot = bot
        catalogue = bot.catalogue
        curved = [catalogue.power_type(key) for key in CURVED_TYPES]
        # (shown name, value, folded names to match typing against)
        self._curved_types = [
            (t.name, t.key, {normalise(n) for n in (t.name, t.key, *t.aliases)}) for t in curved
        ]
        self._movement_types = [
            (f"Movement: {t.name}", t.key, {normalise(n) for n in (t.name, t.key, *t.aliases)})
            for t in catalogue.movement.types
        ]

    # Commands ------------------------------------------------------------------------

    @app_commands.command(name="power", description="Look up a power, movement type or SRD rule")
    @app_commands.describe(
        name="Power, movement type, buff, reaction, passive, rule or table",
        level="Show only this level's row of the level table (1–16)",
    )
    async def power(
        self, interaction: discord.Interaction, name: str, level: Level | None = None
    ) -> None:
        entry = self.bot.lookup.find(name)
        view = self._view(entry, level)
        if level is not None and (view.table is None or view.table.header != "Level"):
            if view.kind == "special":
                raise BadInput(
                    f"{view.display_name} has no levels; see its cost by X with "
                    f"/special name:{view.name} x:{level}."
                )
            raise BadInput(f"{view.display_name} has no level table; leave level out.")
        page = entry_page(view)
        pager = entry_pager(view.id, level, page)
        if pager is None:
            await interaction.response.send_message(embed=page.embed)
        else:
            await interaction.response.send_message(embed=page.embed, view=pager)

    @app_commands.command(name="special", description="Look up a Special and its cost at X")
    @app_commands.describe(
        name="The Special (Ruin, Stunned, Push…)",
        x="Price it at this X (without: its cost table for X = 1–10)",
    )
    async def special(
        self,
        interaction: discord.Interaction,
        name: str,
        x: app_commands.Range[int, 1, 99] | None = None,
    ) -> None:
        found = self.bot.lookup.find(name, kind="special")
        special = self.bot.catalogue.special(found.key)
        cost = special_cost(special, x) if x is not None or not special.takes_x else None
        view = self._view(special, None)
        await interaction.response.send_message(embed=special_embed(view, cost))

    @pp.command(name="target", description="The target PP of a power type at a level")
    @app_commands.describe(
        power_type="Active, Active Buff, Reaction, Passive, or a movement type",
        level="Power level (1–16)",
        charged="Charged power: +10 PP to the target",
    )
    @app_commands.rename(power_type="type")
    async def target(
        self,
        interaction: discord.Interaction,
        power_type: app_commands.Range[str, 1, 60],
        level: Level,
        charged: bool = False,
    ) -> None:
        answer = pp_target(self.bot.catalogue, power_type, level, charged=charged)
        if isinstance(answer, CurveTarget):
            embed = curve_embed(answer)
        else:
            embed = movement_embed(answer)
        await interaction.response.send_message(embed=embed)

    @pp.command(name="price", description="Price a build from its components and judge it")
    @app_commands.describe(
        components="e.g. damage:2d8 range:16 radius:3 ruin:2 charged",
        power_type="Judge it against this curve: Active, Active Buff, Reaction or Passive",
        level="Judge it at this level (default: the lowest level whose target holds it)",
    )
    @app_commands.rename(power_type="type")
    async def price(
        self,
        interaction: discord.Interaction,
        components: app_commands.Range[str, 1, 500],
        power_type: app_commands.Range[str, 1, 60] | None = None,
        level: Level | None = None,
    ) -> None:
        breakdown = price_build(self.bot.catalogue, components, power_type, level)
        await interaction.response.send_message(embed=price_embed(breakdown))

    # Autocomplete --------------------------------------------------------------------

    @power.autocomplete("name")
    async def _entry_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return self._choices(current, None)

    @special.autocomplete("name")
    async def _special_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return self._choices(current, "special")

    @target.autocomplete("power_type")
    async def _target_types(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return _type_choices([*self._curved_types, *self._movement_types], current)

    @price.autocomplete("power_type")
    async def _price_types(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return _type_choices(self._curved_types, current)

    # Buttons -------------------------------------------------------------------------

    async def turn_page(
        self, interaction: discord.Interaction, entry: str, level: int, page: int
    ) -> None:
        """Show another page of an entry's table in place (◀ / ▶)."""
        found = self.bot.lookup.get(entry)
        if found is None:
            raise NotFound("That entry is no longer in the catalogue; look it up again.")
        view = self._view(found, level or None)
        shown = entry_page(view, page)
        await interaction.response.edit_message(
            embed=shown.embed, view=entry_pager(view.id, level or None, shown)
        )

    # Internals -----------------------------------------------------------------------

    def _view(self, entry: Entry, level: int | None) -> PowerEntryView:
        see_also = self.bot.lookup.see_also(entry)
        return entry_view(self.bot.catalogue, entry, level, see_also=see_also)

    def _choices(self, current: str, kind: str | None) -> list[app_commands.Choice[str]]:
        return list(self._ranked(current.strip().casefold(), kind))

    @functools.lru_cache(maxsize=4096)  # noqa: B019 - one cog per bot; the catalogue is fixed
    def _ranked(self, typed: str, kind: str | None) -> tuple[app_commands.Choice[str], ...]:
        """Rank the catalogue for what was typed; the same letters come back as users type."""
        return tuple(
            app_commands.Choice(name=choice.name, value=choice.value)
            for choice in self.bot.lookup.suggest(typed, kind=kind)
        )


def _type_choices(
    types: list[tuple[str, str, set[str]]], current: str
) -> list[app_commands.Choice[str]]:
    """Return the types whose names start with (then contain) what was typed."""
    typed = normalise(current)
    starts = [t for t in types if any(name.startswith(typed) for name in t[2])]
    contains = [t for t in types if t not in starts and any(typed in name for name in t[2])]
    return [
        app_commands.Choice(name=shown, value=value)
        for shown, value, _ in [*starts, *contains][:AUTOCOMPLETE_LIMIT]
    ]


async def setup(bot: Tablehand) -> None:
    await bot.add_cog(Powers(bot))
