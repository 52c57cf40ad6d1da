"""/roll and /check: free dice and challenge-level checks [COMMANDS.md; GAME.md §3, §6]."""

import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import options
from bot.errors import BadInput, NotFound
from bot.i18n import _, speaking
from bot.permissions import controls
from bot.render.attacks import check_text, roll_text
from bot.rules import encounter as flow
from bot.rules.attack_flow import parse_extra_dice
from bot.rules.attacks import Attribute
from bot.rules.checks import ChallengeLevel, TimeTaken, roll_check
from bot.rules.dice import Advantage, Roller, roll_expression, split_label
from bot.rules.grit import die_of
from bot.rules.models import Combatant
from bot.sheets import as_played
from bot.table import Table, at_table, channel_language, combatant_choices

if TYPE_CHECKING:
    from bot.app import Tablehand

_CORE_TOKEN = re.compile(r"(?<![A-Za-z])core", re.IGNORECASE)  # as bot.rules.dice reads it
CHECK_HELP = dict(
    difficulty="A challenge level: a number, or Trivial 3 … Inconceivable 21",
    trait="The trait's value added to the core die",
    attribute="Add the roller's Physical or Finesse instead (Injuries cost Finesse checks 1 each)",
    time="Taking longer adds +3/+6; rushing raises the level by 3 per halving",
    modifier="The GM's modifier (fine tools +, improvised tools −)",
    risk="Situational Risk added to the check's Risk",
    advantage="Roll two core dice and keep the better (or worse)",
    explode="A maximum face rolls again and adds",
    bonus="Bonus and penalty dice, e.g. +1d10 -1d6 (never cause Risk or Critical)",
    jump="A jump: refused with an injury to the legs",
    combatant="Who checks (default: yours; the GM names NPCs)",
)


async def difficulty_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Offer the named challenge levels; any number typed is taken as it is."""
    typed = current.strip().casefold()
    levels = [
        app_commands.Choice(name=f"{_(level.display)} ({level.value})", value=level.display)
        for level in ChallengeLevel
        if typed in level.display.casefold()
        or typed in _(level.display).casefold()
        or typed == str(level.value)
    ]
    if typed.isdigit() and not any(c.value == typed for c in levels):
        levels.insert(0, app_commands.Choice(name=typed, value=typed))
    return levels


def fighter(table: Table, name: str | None) -> Combatant | None:
    """Return who rolls in this channel's fight: the named combatant, else the caller's own."""
    encounter = None if table.state.damaged else table.state.encounter
    if encounter is None:
        if name:
            raise NotFound("This channel has no encounter to find that combatant in.")
        return None
    if name:
        return table.pick(name, "act")
    mine = any(controls(table.caller, c) for c in encounter.combatants)
    if mine or (table.is_gm and flow.current_actor(encounter) is not None):
        return table.pick(None, "act")
    return None


class Dice(commands.Cog):
    """Free dice expressions and checks."""

    def __init__(self, bot: "Tablehand") -> None:
        self.bot = bot

    async def _active(self, interaction: discord.Interaction) -> Roller | None:
        """Return the caller's active character as it plays now (in a fight elsewhere: live)."""
        store = self.bot.store
        active = await store.active_character(interaction.guild_id or 0, interaction.user.id)
        return None if active is None else await as_played(store, active)

    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.command(
        name="roll", description="Roll dice, e.g. 2d20kh1+3 or 1d20+5 attack; core is your core die"
    )
    @app_commands.describe(
        expression="Dice, e.g. 1d20+5, and a label after them if you like: 1d20+5 attack"
    )
    async def roll(
        self, interaction: discord.Interaction, expression: app_commands.Range[str, 1, 200]
    ) -> None:
        expression, label = split_label(expression)  # "1d20+5 attack", as typed elsewhere
        core = None
        if _CORE_TOKEN.search(expression):
            async with at_table(interaction) as table:
                roller: Roller | None = fighter(table, None)
            roller = roller or await self._active(interaction)
            if roller is None:
                raise NotFound(
                    "`core` is your core die: join this channel's fight (/init join) "
                    "or choose an active character (/character use)."
                )
            core = die_of(roller)
        result = roll_expression(expression, self.bot.rng, core=core)
        with speaking(await channel_language(interaction)):  # the roll is the table's to read
            text = roll_text(interaction.user.display_name, result, core, label=label)
        await interaction.response.send_message(text)

    @app_commands.guild_only()
    @app_commands.command(name="check", description="Roll a check against a challenge level")
    @app_commands.autocomplete(combatant=combatant_choices, difficulty=difficulty_choices)
    @app_commands.describe(**CHECK_HELP)
    async def check(
        self,
        interaction: discord.Interaction,
        difficulty: app_commands.Range[str, 1, 20],
        trait: options.Trait | None = None,
        attribute: Attribute | None = None,
        time: TimeTaken = "normal",
        modifier: options.Modifier = 0,
        risk: options.Risk = 0,
        advantage: Advantage | None = None,
        explode: bool = False,
        bonus: app_commands.Range[str, 1, 200] | None = None,
        jump: bool = False,
        combatant: options.Name | None = None,
    ) -> None:
        if trait is not None and attribute is not None:
            raise BadInput("Give the trait's value or the attribute to use, not both.")
        bonus_dice, penalty_dice = parse_extra_dice(bonus)
        roll = {
            "modifier": modifier,
            "time": time,
            "situational_risk": risk,
            "advantage": advantage,
            "explode": explode,
            "bonus_dice": bonus_dice,
            "penalty_dice": penalty_dice,
            "jump": jump,
        }
        rng = self.bot.rng
        async with at_table(interaction) as table:
            roller = fighter(table, combatant)
            if roller is not None:
                result = roll_check(
                    roller, difficulty, rng, **_trait(roller, trait, attribute), **roll
                )
                table.say(lambda gm_view: check_text(result), about=roller, log=False)
        if roller is not None:
            return
        character = await self._active(interaction)
        if character is None:
            raise NotFound(
                "A check rolls your core die: join this channel's fight (/init join) "
                "or choose an active character (/character use)."
            )
        result = roll_check(
            character, difficulty, rng, **_trait(character, trait, attribute), **roll
        )
        with speaking(await channel_language(interaction)):
            text = check_text(result)
        await interaction.response.send_message(text)


def _trait(roller: Roller, trait: int | None, attribute: str | None) -> dict[str, object]:
    """Return the trait a check adds: a value typed, or the roller's Physical or Finesse."""
    if attribute is not None:
        return {"trait": getattr(roller, attribute), "trait_name": attribute.capitalize()}
    return {"trait": trait or 0}


async def setup(bot: "Tablehand") -> None:
    await bot.add_cog(Dice(bot))
