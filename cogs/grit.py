"""/grit: show Grit, deal damage, heal, set it, shift the die [GAME.md §2, COMMANDS.md /grit].

A name is looked up first among this channel's combatants (`Table.change_grit`: the
fight's one Grit rule, said at the table), then among the caller's own characters on
this server (the sheet's Grit outside combat, saved at once). The GM may change any
combatant; a player only the combatants they control and their own characters.
"""

import random
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot import options
from bot.errors import Ambiguous, BadInput, NotFound
from bot.i18n import L_, N_, _, speaking
from bot.permissions import controls
from bot.render.characters import grit_card
from bot.render.grit import die_shift_text, grit_change_text
from bot.render.text import name_list, roll_breakdown
from bot.rules.dice import ExpressionRoll, check_expression, roll_expression
from bot.rules.grit import GritChange, change_grit, die_of
from bot.rules.models import Character, Combatant
from bot.rules.names import clean_name, name_key
from bot.sheets import (
    as_played,
    character_choices,
    find_own,
    no_active_character,
    own_sheet,
)
from bot.table import AUTOCOMPLETE_LIMIT, Table, at_table, channel_language, combatant_choices

if TYPE_CHECKING:
    from bot.app import Tablehand

MAX_AMOUNT = 10_000  # one damage or healing at most [bot]
MAX_SHIFT = 2  # d20 → d10 is two steps; more changes nothing [GAME.md §2]
_INTEGER = re.compile(r"^[+-]?\d+$")
_CORE = re.compile(r"core", re.IGNORECASE)

Change = Literal["damage", "heal"]


# Amounts -------------------------------------------------------------------------------


def _capped(value: int, typed: str) -> int:
    plain = bool(_INTEGER.match(typed))
    if value < 0 and plain:
        raise BadInput(
            "An amount cannot be negative (got {value}): "
            "/grit damage lowers Grit and /grit heal restores it.",
            value=value,
        )
    if value < 0:
        raise BadInput(
            "An amount cannot be negative ({typed} rolled {value}): "
            "/grit damage lowers Grit and /grit heal restores it.",
            typed=typed,
            value=value,
        )
    if value > MAX_AMOUNT and plain:
        raise BadInput(
            "One Grit change is at most {most} (got {value}).", most=MAX_AMOUNT, value=value
        )
    if value > MAX_AMOUNT:
        raise BadInput(
            "One Grit change is at most {most} ({typed} rolled {value}).",
            most=MAX_AMOUNT,
            typed=typed,
            value=value,
        )
    return value


def check_amount(text: str) -> int | None:
    """Check an amount without rolling: return a plain number, or None for a dice expression."""
    typed = text.strip()
    if _INTEGER.match(typed):
        return _capped(int(typed), typed)
    if not any(char.isdigit() for char in typed):
        raise BadInput(
            "An amount is a whole number or dice such as 2d6, not {typed!r}.", typed=typed
        )
    if _CORE.search(typed):
        raise BadInput("An amount is a number or dice such as 2d6; `core` belongs to /roll.")
    check_expression(typed, core=None)  # syntax and dice limits: raises DiceError
    return None


def roll_amount(text: str, rng: random.Random) -> tuple[int, ExpressionRoll | None]:
    """Return an amount: a plain number as it is, or a dice expression rolled with `rng`."""
    plain = check_amount(text)
    if plain is not None:
        return plain, None
    roll = roll_expression(text, rng)
    return _capped(roll.total, text.strip()), roll


def _with_roll(line: str, roll: ExpressionRoll | None) -> str:
    return line if roll is None else f"🎲 {roll_breakdown(roll)}\n{line}"


def _rolled(table: Table, roll: ExpressionRoll | None, target: Combatant) -> None:
    """Show the dice an amount rolled, beside the change (not in the round log)."""
    if roll is not None:
        table.say(f"🎲 {roll_breakdown(roll)}", about=target, log=False)


# Autocomplete --------------------------------------------------------------------------


async def target_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Autocomplete this channel's combatants, then the caller's own characters."""
    fighting = await combatant_choices(interaction, current)
    taken = {name_key(str(choice.value)) for choice in fighting}
    own = [
        choice
        for choice in await character_choices(interaction, current)
        if name_key(str(choice.value)) not in taken
    ]
    return (fighting + own)[:AUTOCOMPLETE_LIMIT]


# The cog -------------------------------------------------------------------------------


@app_commands.guild_only()
class Grit(commands.GroupCog, group_name="grit", group_description="Grit: the health track"):
    """Show and change Grit for combatants and your characters."""

    def __init__(self, bot: "Tablehand") -> None:
        self.bot = bot
        super().__init__()

    async def _own_character(
        self, interaction: discord.Interaction, name: str, near: list[str] | None
    ) -> Character:
        """Return the caller's character, or say that neither a combatant nor one is found.

        `near` holds the fight's combatants close to the name (None: there is no fight).
        """
        if interaction.guild_id is None:
            raise BadInput("Characters belong to a server: use /grit in a server channel.")
        try:
            return await find_own(self.bot.store, interaction.guild_id, interaction.user.id, name)
        except (NotFound, Ambiguous) as error:
            if near is None:
                raise
            close = near + [c for c in getattr(error, "choices", ()) if c not in near]
        typed = clean_name(name)
        if close:
            raise Ambiguous(
                L_(
                    "No combatant named {typed!r} here. Did you mean {names}?",
                    typed=typed,
                    names=name_list(close, _("or"), translated=True),
                ),
                close,
                typed=name,
            )
        raise NotFound(
            "No combatant named {name!r} here, and you have no character by that name.",
            name=typed,
        )

    async def _change_sheet(
        self,
        interaction: discord.Interaction,
        name: str,
        near: list[str] | None,
        write: Callable[[Character], tuple[GritChange, ExpressionRoll | None]],
    ) -> None:
        """Change the Grit of the caller's own character outside combat, save it, and say so."""
        await self._own_character(interaction, name, near)
        guild_id = interaction.guild_id or 0
        async with own_sheet(self.bot.store, guild_id, interaction.user.id, name) as sheet:
            sheet.require_own_grit()  # before any dice are rolled
            change, roll = write(sheet.character)
        # A sheet is a player's own character: its numbers are no secret. The channel reads it.
        with speaking(await channel_language(interaction)):
            text = _with_roll(grit_change_text(change, gm_view=True), roll)
        await interaction.response.send_message(text)

    # Commands ------------------------------------------------------------------------

    @app_commands.command(name="show", description="Show Grit: level, die, bar and Grit table")
    @app_commands.describe(
        combatant="A combatant here or your character (default: yours in this fight, else your active character)"
    )
    @app_commands.autocomplete(combatant=target_choices)
    async def show(self, interaction: discord.Interaction, combatant: str | None = None) -> None:
        async with at_table(interaction) as table:
            encounter = table.state.encounter
            target: Combatant | None = None
            if combatant:
                target = table.find(combatant)
                near = None if target is not None or encounter is None else table.near(combatant)
            elif encounter is not None and any(
                controls(table.caller, c) for c in encounter.combatants
            ):
                target = table.pick(None, "look")
            gm = table.is_gm
        if target is not None:
            embed = grit_card(target, exact=gm or not target.is_npc)
        elif combatant:
            character = await self._own_character(interaction, combatant, near)
            embed = grit_card(await as_played(self.bot.store, character), exact=True)
        else:
            active = await self.bot.store.active_character(
                interaction.guild_id or 0, interaction.user.id
            )
            if active is None:
                raise await no_active_character(
                    self.bot.store,
                    interaction.guild_id or 0,
                    interaction.user.id,
                    "combatant",
                    otherwise=N_(", or name a combatant (`combatant:`)"),
                )
            embed = grit_card(await as_played(self.bot.store, active), exact=True)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="damage", description="Lower Grit by an amount (dice allowed: 2d6)")
    @app_commands.describe(
        combatant="A combatant here, or your own character outside a fight",
        amount=f"A whole number or dice such as 2d6+1, at most {MAX_AMOUNT}",
    )
    @app_commands.autocomplete(combatant=target_choices)
    async def damage(
        self,
        interaction: discord.Interaction,
        combatant: str,
        amount: app_commands.Range[str, 1, 200],
    ) -> None:
        await self._damage_or_heal(interaction, combatant, amount, "damage")

    @app_commands.command(name="heal", description="Restore Grit by an amount (dice allowed: 2d6)")
    @app_commands.describe(
        combatant="A combatant here, or your own character outside a fight",
        amount=f"A whole number or dice such as 2d6+1, at most {MAX_AMOUNT}",
    )
    @app_commands.autocomplete(combatant=target_choices)
    async def heal(
        self,
        interaction: discord.Interaction,
        combatant: str,
        amount: app_commands.Range[str, 1, 200],
    ) -> None:
        await self._damage_or_heal(interaction, combatant, amount, "heal")

    async def _damage_or_heal(
        self, interaction: discord.Interaction, name: str, amount: str, kind: Change
    ) -> None:
        check_amount(amount)  # a malformed amount is refused before anything is looked up
        rng = self.bot.rng
        async with at_table(interaction) as table:
            target = table.find(name)
            if target is not None:
                table.require(target, "act")
                value, roll = roll_amount(amount, rng)
                _rolled(table, roll, target)
                table.change_grit(target, **{kind: value})
                return
            near = None if table.state.encounter is None else table.near(name)

        def write(character: Character) -> tuple[GritChange, ExpressionRoll | None]:
            value, roll = roll_amount(amount, rng)
            return change_grit(character, **{kind: value}), roll

        await self._change_sheet(interaction, name, near, write)

    @app_commands.command(name="set", description="Set Grit (and optionally its maximum)")
    @app_commands.describe(
        combatant="A combatant here, or your own character outside a fight",
        value="The new Grit",
        max="The new maximum Grit (default: unchanged)",
    )
    @app_commands.autocomplete(combatant=target_choices)
    async def set(
        self,
        interaction: discord.Interaction,
        combatant: str,
        value: options.Grit,
        max: options.MaxGrit | None = None,
    ) -> None:
        def within(target: Combatant | Character) -> None:
            ceiling = target.max_grit if max is None else max
            if value > ceiling:
                raise BadInput(
                    "Grit {value} is above {name}'s maximum {ceiling}; give a larger max as well.",
                    value=value,
                    name=target.name,
                    ceiling=ceiling,
                )

        async with at_table(interaction) as table:
            target = table.find(combatant)
            if target is not None:
                table.require(target, "act")
                within(target)
                table.change_grit(target, set_to=value, max_grit=max)
                return
            near = None if table.state.encounter is None else table.near(combatant)

        def write(character: Character) -> tuple[GritChange, ExpressionRoll | None]:
            within(character)
            return change_grit(character, set_to=value, max_grit=max), None

        await self._change_sheet(interaction, combatant, near, write)

    @app_commands.command(
        name="modifier", description="Shift a combatant's die down by situational levels"
    )
    @app_commands.describe(
        combatant="A combatant in this fight",
        levels="Levels down for every roll until changed: 0 clears, 1 is d20 → d12, 2 is d20 → d10",
    )
    @app_commands.autocomplete(combatant=combatant_choices)
    async def modifier(
        self,
        interaction: discord.Interaction,
        combatant: str,
        levels: app_commands.Range[int, 0, MAX_SHIFT],
    ) -> None:
        async with at_table(interaction) as table:
            target = table.pick(combatant, "act")
            before = die_of(target)
            target.die_shift = levels
            table.say(
                lambda gm_view: die_shift_text(target, before, levels), about=target, kind="grit"
            )


async def setup(bot: "Tablehand") -> None:
    await bot.add_cog(Grit(bot))
