"""Fortune options and declarations: /haste, /wait, /hold, /act, /sacrifice, /declare, /undeclare.

Each command loads the channel's state, checks who may act for the combatant, calls
`bot.rules.fortune` or `bot.rules.declarations`, saves once, and says what happened in
the channel and in the round log [COMMANDS.md, GAME.md §5]. A hidden NPC's choices are
told to the GM alone and kept out of the public log.
"""

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import turns
from bot.attacks import prompt_of, refresh_prompt
from bot.render.fortune import declared_text, haste_text, sacrifice_text, undeclared_text
from bot.render.maneuvers import forced_note
from bot.render.turns import announce
from bot.rules import attack_flow, declarations, fortune
from bot.rules.acting import on_turn
from bot.rules.models import DeclarationKind, LongActionKind, SacrificeFor
from bot.table import at_table, combatant_choices, glance, name_choices

if TYPE_CHECKING:
    from bot.app import Tablehand

COMBATANT_HELP = "Who (default: your combatant; the GM may name any)"


async def _long_action_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Suggest the long actions under way of the combatants the caller may act for."""
    seen = await glance(interaction)
    if seen is None:
        return []
    names = [c.long_action.name for c in seen.actable() if c.long_action is not None]
    return name_choices(names, current)


class Fortune(commands.Cog):
    """Haste, Wait, Hold, act now, Sacrifice and declarations [GAME.md §5]."""

    def __init__(self, bot: "Tablehand") -> None:
        self.bot = bot

    @app_commands.guild_only()
    @app_commands.command(
        name="haste", description="Haste before initiative is rolled: +3 initiative, one action"
    )
    @app_commands.describe(combatant=COMBATANT_HELP)
    @app_commands.autocomplete(combatant=combatant_choices)
    async def haste(self, interaction: discord.Interaction, combatant: str | None = None) -> None:
        async with at_table(interaction) as table:
            chosen = table.pick(combatant, "act")
            hasted = fortune.haste(table.encounter, chosen)
            table.say(lambda gm_view: haste_text(chosen, hasted), about=chosen, kind="turn")

    @app_commands.guild_only()
    @app_commands.command(
        name="wait", description="Wait: pass your turn and /act at any later moment this round"
    )
    @app_commands.describe(combatant=COMBATANT_HELP)
    @app_commands.autocomplete(combatant=combatant_choices)
    async def wait_(self, interaction: discord.Interaction, combatant: str | None = None) -> None:
        async with at_table(interaction) as table:
            turns.wait(table, combatant)

    @app_commands.guild_only()
    @app_commands.command(
        name="act", description="A waiting combatant acts now, inside the current turn"
    )
    @app_commands.describe(combatant=COMBATANT_HELP)
    @app_commands.autocomplete(combatant=combatant_choices)
    async def act(self, interaction: discord.Interaction, combatant: str | None = None) -> None:
        async with at_table(interaction) as table:
            chosen = table.pick(combatant, "act", wanted=lambda c: c.waiting)
            encounter = table.encounter
            table.announce(announce(encounter, fortune.act(encounter, chosen)))

    @app_commands.guild_only()
    @app_commands.command(
        name="hold", description="A waiting combatant holds into next round: +10 initiative"
    )
    @app_commands.describe(combatant=COMBATANT_HELP)
    @app_commands.autocomplete(combatant=combatant_choices)
    async def hold(self, interaction: discord.Interaction, combatant: str | None = None) -> None:
        async with at_table(interaction) as table:
            turns.hold(table, combatant)

    @app_commands.guild_only()
    @app_commands.command(
        name="sacrifice", description="Give up an action for +3 to attack, defense or checks"
    )
    @app_commands.rename(for_="for")
    @app_commands.describe(
        for_="What gets +3 for the rest of the round (default: attack on your turn, else defense)",
        combatant=COMBATANT_HELP,
        force="GM: sacrifice out of turn (the reply says so)",
    )
    @app_commands.autocomplete(combatant=combatant_choices)
    async def sacrifice(
        self,
        interaction: discord.Interaction,
        for_: SacrificeFor | None = None,
        combatant: str | None = None,
        force: bool = False,
    ) -> None:
        async with at_table(interaction) as table:
            chosen = table.pick(combatant, "act")
            encounter = table.encounter
            forced = table.forcing(force)
            result, answered = attack_flow.sacrifice(encounter, chosen, for_, forced=forced)
            out_of_turn = answered is None and forced and not on_turn(encounter, chosen)
            number = encounter.round
            table.say(
                lambda gm_view: sacrifice_text(chosen, result, number) + forced_note(out_of_turn),
                about=chosen,
                kind="turn",
            )
            prompt = prompt_of(encounter, answered, [], None) if answered else None
        if answered is not None and prompt is not None:
            bot = self.bot
            await refresh_prompt(
                bot, table.channel_id, prompt, answered.prompt_message_id, table.language
            )

    # Declarations --------------------------------------------------------------------

    @app_commands.guild_only()
    @app_commands.command(
        name="declare",
        description="Declare what a combatant does this round (kind:long to persist)",
    )
    @app_commands.describe(
        action="What it does; for a long action under way, its name again to work on it",
        kind="primary, sub, movement, fast, long (several rounds), or minor (−2 before its turn)",
        rounds="A new long action's count (set by the GM)",
        long_type="focused: full attention, reset when attacked; cumulative: +1 per main action",
        combatant=COMBATANT_HELP,
        force="GM: work on a long action out of turn (the reply says so)",
    )
    @app_commands.autocomplete(action=_long_action_choices, combatant=combatant_choices)
    async def declare(
        self,
        interaction: discord.Interaction,
        action: app_commands.Range[str, 1, 100],
        kind: DeclarationKind = "primary",
        rounds: app_commands.Range[int, 1, 100] | None = None,
        long_type: LongActionKind | None = None,
        combatant: str | None = None,
        force: bool = False,
    ) -> None:
        async with at_table(interaction) as table:
            chosen = table.pick(combatant, "act")
            declared = declarations.declare(
                table.encounter,
                chosen,
                action,
                kind,
                rounds=rounds,
                long_type=long_type,
                forced=table.forcing(force),
            )
            table.say(lambda gm_view: declared_text(chosen, declared), about=chosen, kind="declare")

    @app_commands.guild_only()
    @app_commands.command(
        name="undeclare", description="Withdraw this round's declaration (abandons a long action)"
    )
    @app_commands.describe(combatant=COMBATANT_HELP)
    @app_commands.autocomplete(combatant=combatant_choices)
    async def undeclare(
        self, interaction: discord.Interaction, combatant: str | None = None
    ) -> None:
        async with at_table(interaction) as table:
            chosen = table.pick(combatant, "act")
            undeclared = declarations.undeclare(table.encounter, chosen)
            table.say(
                lambda gm_view: undeclared_text(chosen, undeclared), about=chosen, kind="declare"
            )


async def setup(bot: "Tablehand") -> None:
    await bot.add_cog(Fortune(bot))
