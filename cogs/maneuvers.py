"""/hide, /cover, /engage, /breakaway, /guard and /essence: maneuvers on one's turn [000, 002].

Each command loads the channel's state, picks the combatant the caller acts for, calls
one rule in `bot.rules` (stealth, cover, melee, items, essences), and says what happened.
Out of turn they are refused unless the GM forces them (`force:true`) [GAME.md §10].
"""

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import options
from bot.render.maneuvers import (
    broke_away_text,
    cover_text,
    engaged_text,
    essence_ended_text,
    essence_used_text,
    guarded_text,
    hid_log,
    hid_text,
)
from bot.rules import encounter as flow
from bot.rules.cover import take_full_cover
from bot.rules.essences import end_essence, use_essence
from bot.rules.items import guard
from bot.rules.melee import break_away, engage_target
from bot.rules.models import EssenceKind
from bot.rules.stealth import hide
from bot.table import at_table, combatant_choices

if TYPE_CHECKING:
    from bot.app import Tablehand

WHO = "Who (default: your combatant; the GM may name any)"
FORCE = "GM: let it act out of its turn (the reply says so)"


class Maneuvers(commands.Cog):
    """Hiding, full cover, engaging and breaking away, guarding, essences."""

    essence = app_commands.Group(
        name="essence",
        description="Essences: one active at a time",
        guild_only=True,
        allowed_contexts=app_commands.AppCommandContext(guild=True),  # a table command
    )

    def __init__(self, bot: "Tablehand") -> None:
        self.bot = bot

    @app_commands.guild_only()
    @app_commands.command(
        name="hide", description="Hide (one action): your roll vs the enemies' best Perception"
    )
    @app_commands.describe(combatant=WHO, force=FORCE)
    @app_commands.autocomplete(combatant=combatant_choices)
    async def hide(
        self,
        interaction: discord.Interaction,
        combatant: options.Name | None = None,
        force: bool = False,
    ) -> None:
        async with at_table(interaction) as table:
            hider = table.pick(combatant, "act")
            hid = hide(table.encounter, hider, self.bot.rng, forced=table.forcing(force))
            watcher = None
            if hid.perceiver_id is not None:
                watcher = flow.by_id(table.encounter, hid.perceiver_id).name
            table.say(
                lambda gm_view: hid_text(hider.name, hid, watcher),
                about=hider,
                log=lambda gm_view: hid_log(hider.name, hid),
            )

    @app_commands.guild_only()
    @app_commands.command(
        name="cover", description="Take full cover (one action): cover 4 against ranged"
    )
    @app_commands.describe(combatant=WHO, force=FORCE)
    @app_commands.autocomplete(combatant=combatant_choices)
    async def cover(
        self,
        interaction: discord.Interaction,
        combatant: options.Name | None = None,
        force: bool = False,
    ) -> None:
        async with at_table(interaction) as table:
            taker = table.pick(combatant, "act")
            took = take_full_cover(table.encounter, taker, forced=table.forcing(force))
            table.say(lambda gm_view: cover_text(taker.name, took), about=taker)

    @app_commands.guild_only()
    @app_commands.command(
        name="engage", description="Engage a foe: share its space (close in on a longer reach)"
    )
    @app_commands.describe(target="The foe", combatant=WHO, force=FORCE)
    @app_commands.autocomplete(target=combatant_choices, combatant=combatant_choices)
    async def engage(
        self,
        interaction: discord.Interaction,
        target: options.Name,
        combatant: options.Name | None = None,
        force: bool = False,
    ) -> None:
        async with at_table(interaction) as table:
            closer = table.pick(combatant, "act")
            foe = table.named(target)
            engaged = engage_target(
                table.encounter, closer, foe, self.bot.rng, forced=table.forcing(force)
            )
            table.say(
                lambda gm_view: engaged_text(closer.name, foe.name, engaged), about=(closer, foe)
            )

    @app_commands.guild_only()
    @app_commands.command(name="breakaway", description="Break away from engagement or a grapple")
    @app_commands.describe(combatant=WHO, force=FORCE)
    @app_commands.autocomplete(combatant=combatant_choices)
    async def breakaway(
        self,
        interaction: discord.Interaction,
        combatant: options.Name | None = None,
        force: bool = False,
    ) -> None:
        async with at_table(interaction) as table:
            leaver = table.pick(combatant, "act")
            broke = break_away(table.encounter, leaver, self.bot.rng, forced=table.forcing(force))
            names = {c.id: c.name for c in table.encounter.combatants}
            about = [leaver, *(flow.by_id(table.encounter, h.combatant_id) for h in broke.holders)]
            table.say(lambda gm_view: broke_away_text(leaver.name, broke, names), about=about)

    @app_commands.guild_only()
    @app_commands.command(
        name="guard", description="Raise your shield (one action): its guard to every defense"
    )
    @app_commands.describe(combatant=WHO, force=FORCE)
    @app_commands.autocomplete(combatant=combatant_choices)
    async def guard(
        self,
        interaction: discord.Interaction,
        combatant: options.Name | None = None,
        force: bool = False,
    ) -> None:
        async with at_table(interaction) as table:
            guarder = table.pick(combatant, "act")
            guarded = guard(table.encounter, guarder, forced=table.forcing(force))
            table.say(lambda gm_view: guarded_text(guarder.name, guarded), about=guarder)

    @essence.command(name="use", description="Use an essence: only one is active at a time")
    @app_commands.describe(
        name="The essence, e.g. Elixir of Iron",
        kind="elixir, tonic, salve or balm (a bomb is thrown: /attack style:thrown)",
        rounds="How many rounds it lasts (default: until ended)",
        attacks="A balm: how many attacks it lasts",
        combatant=WHO,
        force=FORCE,
    )
    @app_commands.autocomplete(combatant=combatant_choices)
    async def essence_use(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 40],
        kind: EssenceKind,
        rounds: app_commands.Range[int, 1, 100] | None = None,
        attacks: app_commands.Range[int, 1, 100] | None = None,
        combatant: options.Name | None = None,
        force: bool = False,
    ) -> None:
        async with at_table(interaction) as table:
            user = table.pick(combatant, "act")
            used = use_essence(
                table.encounter,
                user,
                name,
                kind,
                rounds=rounds,
                attacks=attacks,
                forced=table.forcing(force),
            )
            table.say(lambda gm_view: essence_used_text(user.name, used), about=user)

    @essence.command(name="end", description="End the active essence")
    @app_commands.describe(combatant=WHO)
    @app_commands.autocomplete(combatant=combatant_choices)
    async def essence_end(
        self, interaction: discord.Interaction, combatant: options.Name | None = None
    ) -> None:
        async with at_table(interaction) as table:
            user = table.pick(combatant, "act")
            table.say(lambda gm_view: essence_ended_text(user.name, end_essence(user)), about=user)


async def setup(bot: "Tablehand") -> None:
    await bot.add_cog(Maneuvers(bot))
