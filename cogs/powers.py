"""/power, /special and /pp: the SRD catalogue at the table [COMMANDS.md /power, /special, /pp].

Read-only look-ups: no database, no encounter. Replies are public, since they are
table reference everyone may read. A look-up that is not an exact name, an alias,
an SRD heading or an unambiguous prefix says it guessed and offers the others in a
menu. The ◀ / ▶ buttons and the menu work for anyone, and after a restart, because
the entry, level, page (or X) are all in their custom_id. An answer speaks the language
of whoever asked (or turned the page): it is their reference, and needs no table.
"""

import functools
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.catalogue import (
    CurveTarget,
    Entry,
    Match,
    PowerEntryView,
    pp_target,
    special_cost,
)
from bot.catalogue import price as price_build
from bot.catalogue.design import design_power
from bot.catalogue.names import normalise
from bot.catalogue.pricing import CURVED_TYPES
from bot.catalogue.views import entry_id
from bot.errors import BadInput, NotFound
from bot.i18n import L_, N_, Lazy, _
from bot.i18n.commands import speak_for
from bot.render.powers import (
    EntryPage,
    curve_embed,
    design_embed,
    entry_page,
    excluded_embed,
    guess_line,
    movement_embed,
    price_embed,
    special_embed,
)
from bot.replies import report_error
from bot.table import AUTOCOMPLETE_LIMIT
from bot.views import PersistentButton

if TYPE_CHECKING:
    from bot.app import Tablehand

Level = app_commands.Range[int, 1, 16]
# Look-ups need no table: also in DMs, and for a user who installed the app to their account.
EVERYWHERE = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
ANY_INSTALL = app_commands.AppInstallationType(guild=True, user=True)
PICK_PLACEHOLDER = N_("Did you mean…")


# ---------------------------------------------------------------- showing entries


def entry_view_for(bot: "Tablehand", entry: Entry, level: int | None) -> PowerEntryView:
    """Render an entry with its namesakes listed (kept: the catalogue is fixed)."""
    return bot.entry_views.get(entry, level)


def level_fits(view: PowerEntryView) -> bool:
    """Say whether an entry has a level table a level can pick a row of."""
    return view.table is not None and view.table.header == "Level"


def pager_items(entry: str, level: int | None, page: EntryPage) -> list[discord.ui.Item[Any]]:
    """Return ◀ / ▶ for an entry whose table has several pages (none for one page)."""
    if page.pages <= 1:
        return []
    at, last = page.page, page.pages - 1
    return [
        EntryPageButton(entry, level or 0, max(at - 1, 0), "p", disabled=at == 0),
        EntryPageButton(entry, level or 0, min(at + 1, last), "n", disabled=at == last),
    ]


def component_view(*items: discord.ui.Item[Any]) -> discord.ui.View | None:
    """Put items in a view that never times out (None when there are none)."""
    if not items:
        return None
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


class EntryPageButton(
    PersistentButton,
    template=r"th:page:(?P<entry>[a-z_]+:[a-z0-9_]+):(?P<level>\d{1,2}):(?P<page>\d{1,2}):(?P<way>[pn])",
):
    """◀ / ▶ on a long entry: the custom_id holds the entry, level and target page."""

    def __init__(
        self, entry: str, level: int, page: int, way: str, *, disabled: bool = False
    ) -> None:
        self.entry, self.level, self.page = entry, level, page
        super().__init__(
            discord.ui.Button(
                label="◀" if way == "p" else "▶",
                style=discord.ButtonStyle.secondary,
                custom_id=f"th:page:{entry}:{level}:{page}:{way}",
                disabled=disabled,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> "EntryPageButton":
        return cls(match["entry"], int(match["level"]), int(match["page"]), match["way"])

    async def pressed(self, interaction: discord.Interaction) -> None:
        """Show another page of the entry's table in place, keeping any guess menu."""
        bot: Tablehand = interaction.client  # type: ignore[assignment]
        found = bot.lookup.get(self.entry)
        if found is None:
            raise NotFound("That entry is no longer in the catalogue; look it up again.")
        view = entry_view_for(bot, found, self.level or None)
        shown = entry_page(view, self.page)
        kept = [EntryPick.from_message(c) for c in _selects(interaction.message)]
        items = [*pager_items(view.id, self.level or None, shown), *kept]
        await interaction.response.edit_message(embed=shown.embed, view=component_view(*items))


def _selects(message: discord.Message | None) -> list[discord.SelectMenu]:
    if message is None:
        return []
    found = []
    for row in message.components:
        for child in getattr(row, "children", ()):
            if isinstance(child, discord.SelectMenu) and child.custom_id:
                found.append(child)
    return found


class EntryPick(
    discord.ui.DynamicItem[discord.ui.Select], template=r"th:pick:(?P<mode>[ps]):(?P<arg>\d{1,2})"
):
    """The "did you mean" menu of a guessed look-up; its custom_id holds the level (or X)."""

    def __init__(self, mode: str, arg: int, options: list[discord.SelectOption]) -> None:
        self.mode, self.arg = mode, arg
        super().__init__(
            discord.ui.Select(
                custom_id=f"th:pick:{mode}:{arg}",
                placeholder=_(PICK_PLACEHOLDER),
                options=options,
                min_values=1,
                max_values=1,
            )
        )

    @classmethod
    def from_message(cls, menu: discord.SelectMenu) -> "EntryPick":
        """Rebuild the menu as it stands on a message."""
        found = re.fullmatch(cls.__discord_ui_compiled_template__, menu.custom_id or "")
        if found is None:
            raise ValueError(f"not a pick menu: {menu.custom_id!r}")
        return cls(found["mode"], int(found["arg"]), list(menu.options))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str], /
    ) -> "EntryPick":
        return cls(match["mode"], int(match["arg"]), list(item.options))

    async def callback(self, interaction: discord.Interaction) -> None:
        speak_for(interaction)  # the pick's task speaks its user's language, as the pager's
        try:
            await self.pressed(interaction)
        except Exception as error:
            await report_error(interaction, error)

    async def pressed(self, interaction: discord.Interaction) -> None:
        """Replace the guess with the entry picked from the menu."""
        bot: Tablehand = interaction.client  # type: ignore[assignment]
        picked = self.item.values[0] if self.item.values else ""
        found = bot.lookup.get(picked)
        if found is None:
            raise NotFound("That entry is no longer in the catalogue; look it up again.")
        if self.mode == "s" and found.kind == "special":
            special = bot.catalogue.special(found.key)
            x = self.arg or None
            fits = x is not None and special.takes_x and special.min_x <= x <= special.max_x
            cost = (
                special_cost(special, x if fits else None) if fits or not special.takes_x else None
            )
            embed = special_embed(entry_view_for(bot, special, None), cost)
            await interaction.response.edit_message(content=None, embed=embed, view=None)
            return
        view = entry_view_for(bot, found, None)
        level = self.arg or None
        if level is not None and level_fits(view):
            view = entry_view_for(bot, found, level)
        else:
            level = None
        page = entry_page(view)
        items = pager_items(view.id, level, page)
        await interaction.response.edit_message(
            content=None, embed=page.embed, view=component_view(*items)
        )


def pick_menu(
    bot: "Tablehand", match: Match, mode: str, arg: int | None
) -> list[discord.ui.Item[Any]]:
    """Return the "did you mean" menu for a guess (nothing when it has no alternatives)."""
    options = [
        discord.SelectOption(label=bot.lookup.name_of(entry)[:100], value=entry_id(entry))
        for entry in match.alternatives[:25]
    ]
    return [EntryPick(mode, arg or 0, options)] if options else []


# ---------------------------------------------------------------- the cog


class Powers(commands.Cog):
    """Look up catalogue entries and Specials; give curve targets, price builds, check designs."""

    pp = app_commands.Group(
        name="pp",
        description="Power Points: curve targets, build prices and design checks",
        allowed_contexts=EVERYWHERE,
        allowed_installs=ANY_INSTALL,
    )

    def __init__(self, bot: "Tablehand") -> None:
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

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(EntryPageButton, EntryPick)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(EntryPageButton, EntryPick)

    # Commands ------------------------------------------------------------------------

    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.command(name="power", description="Look up a power, movement type or SRD rule")
    @app_commands.describe(
        name="Power, movement type, buff, reaction, passive, rule, table or SRD heading",
        level="Show only this level's row of the level table (1–16)",
    )
    async def power(
        self, interaction: discord.Interaction, name: str, level: Level | None = None
    ) -> None:
        match = self.bot.lookup.match(name)
        if match.entry is None or match.exclusion is not None:
            await self._excluded(interaction, match)
            return
        view = entry_view_for(self.bot, match.entry, level)
        if level is not None and not level_fits(view):
            raise BadInput(self._no_levels(view, level, match))
        page = entry_page(view)
        items = pager_items(view.id, level, page)
        if match.guessed:
            items += pick_menu(self.bot, match, "p", level)
        await interaction.response.send_message(
            content=self._guess_content(match, view.display_name),
            embed=page.embed,
            view=component_view(*items) or discord.utils.MISSING,
        )

    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
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
        match = self.bot.lookup.match(name, kind="special")
        if match.entry is None or match.exclusion is not None:
            await self._excluded(interaction, match)
            return
        special = self.bot.catalogue.special(match.entry.key)
        cost = special_cost(special, x) if x is not None or not special.takes_x else None
        view = entry_view_for(self.bot, special, None)
        items = pick_menu(self.bot, match, "s", x) if match.guessed else []
        await interaction.response.send_message(
            content=self._guess_content(match, view.display_name),
            embed=special_embed(view, cost),
            view=component_view(*items) or discord.utils.MISSING,
        )

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
        components="e.g. damage:2d8 range:16 radius:3 ruin:2 charged, or wall:6x2x0.5 los",
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

    @pp.command(name="design", description="Check a whole Power against the SRD: its power card")
    @app_commands.describe(
        name="The Power's name",
        power_type="Active, Active Buff, Reaction, Passive, or a movement type",
        components="Its parts, e.g. damage:2d8 range:16 ruin:2 — or per level: L1 … L4 …",
        level="Its level (leave out when components has L1 … groups)",
        tags="Tags, comma-separated: Spell, Charged, an element",
        flavour="The card's one flavour line",
    )
    @app_commands.rename(power_type="type")
    async def design(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 60],
        power_type: app_commands.Range[str, 1, 60],
        components: app_commands.Range[str, 0, 500] = "",
        level: Level | None = None,
        tags: app_commands.Range[str, 1, 120] | None = None,
        flavour: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        card = design_power(self.bot.catalogue, name, power_type, components, level, tags, flavour)
        await interaction.response.send_message(embed=design_embed(card))

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
    @design.autocomplete("power_type")
    async def _target_types(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return _type_choices([*self._curved_types, *self._movement_types], current)

    @price.autocomplete("power_type")
    async def _price_types(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return _type_choices(self._curved_types, current)

    # Internals -----------------------------------------------------------------------

    async def _excluded(self, interaction: discord.Interaction, match: Match) -> None:
        if match.exclusion is None:
            raise NotFound("No entry named '{query}'.", query=match.query[:50])
        await interaction.response.send_message(embed=excluded_embed(match.query, match.exclusion))

    @staticmethod
    def _guess_content(match: Match, shown: str) -> str | None:
        if not match.guessed:
            return None
        return guess_line(match.query, shown, len(match.alternatives[:25]))

    @staticmethod
    def _no_levels(view: PowerEntryView, level: int, match: Match) -> Lazy:
        fields = {"query": match.query[:50], "entry": view.display_name}
        if view.kind == "special":
            fields |= {"name": view.name, "x": level}
            if match.guessed:
                return L_(
                    "No exact match for '{query}'; the closest, {entry} has no levels; see its "
                    "cost by X with /special name:{name} x:{x}.",
                    **fields,
                )
            return L_(
                "{entry} has no levels; see its cost by X with /special name:{name} x:{x}.",
                **fields,
            )
        if match.guessed:
            return L_(
                "No exact match for '{query}'; the closest, {entry} has no level table; "
                "leave level out.",
                **fields,
            )
        return L_("{entry} has no level table; leave level out.", **fields)

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


async def setup(bot: "Tablehand") -> None:
    await bot.add_cog(Powers(bot))
