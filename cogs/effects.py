"""/effect and /move: Specials on combatants and the movement they care about [COMMANDS.md].

Who may: the GM for any combatant; a player for the combatants they control (their
own Brace, a Cleanse on themself). The turn-start and turn-end bookkeeping runs from
the round state machine through `bot.hooks` (`bot.specials_hooks`).
"""

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.catalogue.models import Special
from bot.i18n import _
from bot.render.effects import (
    applied_text,
    cleansed_text,
    effect_lines,
    moved_log,
    movement_text,
    removed_text,
    special_text,
    stood_text,
)
from bot.rules import movement
from bot.rules import specials as rules
from bot.table import AUTOCOMPLETE_LIMIT, at_table, combatant_choices, glance

if TYPE_CHECKING:
    from bot.app import Tablehand


class Effects(commands.Cog):
    """Specials on combatants: apply, cleanse, remove, list; and /move."""

    effect = app_commands.Group(
        name="effect",
        description="Specials on combatants (Ruin, Root…)",
        guild_only=True,
        allowed_contexts=app_commands.AppCommandContext(guild=True),  # a table command
    )

    def __init__(self, bot: "Tablehand") -> None:
        self.bot = bot
        self.book = bot.book

    # Autocomplete --------------------------------------------------------------------

    def _catalogue_choices(self, current: str) -> list[app_commands.Choice[str]]:
        tracked = {s.key for s in self.book.tracked()}
        if not current.strip():
            return [
                app_commands.Choice(name=display(s), value=f"special:{s.key}")
                for s in self.book.tracked()
            ][:AUTOCOMPLETE_LIMIT]
        return [
            app_commands.Choice(name=c.name, value=c.value)
            for c in self.bot.lookup.suggest(current, kind="special")
            if c.value.removeprefix("special:") in tracked
        ][:AUTOCOMPLETE_LIMIT]

    async def _carried_choices(
        self, interaction: discord.Interaction, current: str, *, cleansable: bool
    ) -> list[app_commands.Choice[str]]:
        """Offer the named combatant's own Specials, else every Special the tracker keeps."""
        seen = await glance(interaction)
        target = (
            None if seen is None else seen.named(getattr(interaction.namespace, "combatant", ""))
        )
        if target is None:
            return self._catalogue_choices(current)
        typed = current.strip().casefold()
        choices = []
        carried = [("Prone", "special:prone")] if target.prone else []
        for active in target.specials:
            definition = self.book.get(active.name)
            if definition is None or (cleansable and not definition.cleanse):
                continue
            carried.append((special_text(active), f"special:{definition.key}"))
        for name, value in carried:
            if cleansable and value == "special:prone":
                continue
            if typed in name.casefold():
                choices.append(app_commands.Choice(name=name, value=value))
        return choices[:AUTOCOMPLETE_LIMIT] or self._catalogue_choices(current)

    async def any_special(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return self._catalogue_choices(current)

    async def cleansable_special(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._carried_choices(interaction, current, cleansable=True)

    async def carried_special(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._carried_choices(interaction, current, cleansable=False)

    # Helpers -------------------------------------------------------------------------

    def _special(self, query: str) -> Special:
        """Return the catalogue's Special a typed name means (fuzzy), or say there is none."""
        entry = self.bot.lookup.find(query, kind="special")  # "No Special named …" if none
        assert isinstance(entry, Special)
        return entry

    # /effect -------------------------------------------------------------------------

    @effect.command(name="apply", description="Put a Special on a combatant (stacking rules apply)")
    @app_commands.describe(
        combatant="Who gets it",
        special="The Special (Ruin, Root, Stunned…)",
        x="Its X: needed for Ruin(X) and the like, left out for Stunned, Prone, Immovable",
        source="Who applied it (Challenge records its challenger)",
    )
    @app_commands.autocomplete(combatant=combatant_choices, special=any_special)
    async def apply(
        self,
        interaction: discord.Interaction,
        combatant: str,
        special: str,
        x: int | None = None,
        source: app_commands.Range[str, 1, 32] | None = None,
    ) -> None:
        definition = self._special(special)
        async with at_table(interaction) as table:
            target = table.pick(combatant, "act")
            applied = rules.apply_special(target, definition, x, source)
            table.say(
                lambda gm_view: applied_text(applied),
                about=target,
                log=applied.changed,
                kind="effect",
            )

    @effect.command(name="cleanse", description="Cleanse(X): lower one eligible Special by X")
    @app_commands.describe(
        combatant="Whose Special",
        special="The Special to lower (not Regeneration, Prone, Stunned, Brace, Bulwark, Immovable)",
        x="Cleanse's X: how far it lowers that one Special",
    )
    @app_commands.autocomplete(combatant=combatant_choices, special=cleansable_special)
    async def cleanse(
        self, interaction: discord.Interaction, combatant: str, special: str, x: int
    ) -> None:
        definition = self._special(special)
        async with at_table(interaction) as table:
            target = table.pick(combatant, "act")
            lowered = rules.cleanse_special(target, definition, x)
            table.say(
                lambda gm_view: cleansed_text(target.name, x, lowered), about=target, kind="effect"
            )

    @effect.command(name="remove", description="Take a Special off (or lower it by X)")
    @app_commands.describe(
        combatant="Whose Special",
        special="The Special to remove (Prone: the combatant stands up, one action)",
        x="Lower it by X instead (spend Bulwark or Mark, a Vitality check against Root)",
        force="GM: stand up out of turn (the reply says so)",
    )
    @app_commands.autocomplete(combatant=combatant_choices, special=carried_special)
    async def remove(
        self,
        interaction: discord.Interaction,
        combatant: str,
        special: str,
        x: int | None = None,
        force: bool = False,
    ) -> None:
        definition = self._special(special)
        async with at_table(interaction) as table:
            target = table.pick(combatant, "act")
            forced = table.forcing(force)
            if definition.key == rules.PRONE and x is None:
                stood = movement.stand(table.encounter, target, forced=forced)
                table.say(lambda gm_view: stood_text(target.name, stood), about=target)
                return
            lowered = rules.remove_special(target, definition, x)
            table.say(
                lambda gm_view: removed_text(target.name, lowered), about=target, kind="effect"
            )

    @effect.command(name="list", description="Show Specials with X and source (only to you)")
    @app_commands.describe(combatant="One combatant, with each Special's effect (default: all)")
    @app_commands.autocomplete(combatant=combatant_choices)
    async def list(self, interaction: discord.Interaction, combatant: str | None = None) -> None:
        async with at_table(interaction) as table:
            encounter = table.encounter
            shown = [c for c in encounter.combatants if table.is_gm or not c.hidden]
            names = {c.id: c.name for c in shown}
            if combatant:
                lines = effect_lines(table.named(combatant), self.book, detail=True, names=names)
            else:
                lines = [line for c in shown for line in effect_lines(c, self.book, names=names)]
            table.tell("\n".join(lines) or _("No combatants yet."))  # as many messages as it takes

    # /move ---------------------------------------------------------------------------

    @app_commands.guild_only()
    @app_commands.command(name="move", description="Record voluntary movement this turn, in metres")
    @app_commands.describe(
        distance="Metres moved (one space = 2 m): 2 m free a round, then Mobility per action",
        combatant="Who moves (default: your combatant)",
        force="GM: move out of turn (the reply says so)",
    )
    @app_commands.autocomplete(combatant=combatant_choices)
    async def move(
        self,
        interaction: discord.Interaction,
        distance: int,
        combatant: str | None = None,
        force: bool = False,
    ) -> None:
        async with at_table(interaction) as table:
            mover = table.pick(combatant, "act")
            moved = movement.move_combatant(
                table.encounter, mover, distance, self.book, forced=table.forcing(force)
            )
            lacerate = None
            if moved.movement.lacerate_damage:
                damage = moved.movement.lacerate_damage
                lacerate = table.change_grit(mover, damage=damage, say=False)
            table.say(
                lambda gm_view: movement_text(moved, lacerate, gm_view=gm_view),
                about=mover,
                log=moved_log(moved.movement, lacerate),
            )


def display(special: Special) -> str:
    """Return the name an autocomplete shows: "Ruin(X)", "Stunned"."""
    return f"{special.name}(X)" if special.takes_x else special.name


async def setup(bot: "Tablehand") -> None:
    await bot.add_cog(Effects(bot))
