"""/init: the encounter, its turn order and the pinned tracker [COMMANDS.md /init]."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import BadInput, NotAllowed, NotFound, RuleViolation
from bot.permissions import controls
from bot.render.tracker import ended_embed, tracker_embed
from bot.render.turns import Announcement, announce, summary_embed
from bot.rules import encounter as flow
from bot.rules.models import Combatant, Encounter
from bot.table import Table, at_table, combatant_choices, mention_allowed
from bot.views import confirm_view
from cogs.characters import character_choices

if TYPE_CHECKING:
    from bot.app import Tablehand

log = logging.getLogger(__name__)

Stat = app_commands.Range[int, -50, 100]


def _tags(text: str | None) -> list[str]:
    return [tag.strip() for tag in (text or "").split(",") if tag.strip()][:10]


class Initiative(
    commands.GroupCog, group_name="init", group_description="The encounter and its tracker"
):
    """The encounter in this channel: start, combatants, turns, the pinned tracker."""

    def __init__(self, bot: Tablehand) -> None:
        self.bot = bot
        super().__init__()

    # Replies -------------------------------------------------------------------------

    async def _announce(
        self, interaction: discord.Interaction, table_channel: int, said: Announcement, gm: bool
    ) -> None:
        """Send a step's announcement: public text pinging the actor, the GM's note privately."""
        embeds = []
        if said.summary_round is not None:
            async with self.bot.store.channel(table_channel) as state:
                entries = await state.round_log(said.summary_round)
            embeds.append(summary_embed(said.summary_round, entries))
        public = "\n".join(said.public)
        if said.ping is not None and said.public:
            public += f" <@{said.ping}>"
        note = "\n".join(said.gm_note) if gm else ""
        if public or embeds:
            await interaction.response.send_message(
                public or None, embeds=embeds, allowed_mentions=mention_allowed(said.ping)
            )
            if note:
                await interaction.followup.send(note, ephemeral=True)
        else:
            await interaction.response.send_message(note or "Done.", ephemeral=True)

    async def send_announcement(
        self, interaction: discord.Interaction, table_channel: int, said: Announcement, gm: bool
    ) -> None:
        """Send another cog's step as /init next would (Fortune's /wait, /act, /hold)."""
        await self._announce(interaction, table_channel, said, gm)

    # Commands ------------------------------------------------------------------------

    @app_commands.command(
        name="start", description="Open an encounter in this channel and pin its tracker"
    )
    @app_commands.describe(
        mode="How initiative is found each round (default fortune)",
        flow="compact: the GM only advances turns; full: the GM steps through every phase",
        ambush="The side that ambushes in round zero",
        ambush_roll="Ambushers roll (d20 with Stealth, else d10) against the targets' best Perception",
    )
    async def start(
        self,
        interaction: discord.Interaction,
        mode: Literal["fortune", "finesse", "sides", "once"] = "fortune",
        flow: Literal["compact", "full"] = "compact",
        ambush: Literal["party", "foes"] | None = None,
        ambush_roll: bool = False,
    ) -> None:
        if ambush_roll and ambush is None:
            raise BadInput("ambush_roll needs an ambush side (ambush: party or foes).")
        async with at_table(interaction) as table:
            existing = table.state.encounter
            if existing is not None:
                raise RuleViolation(
                    f"This channel already has an encounter (round {existing.round}); "
                    "end it with /init end first."
                )
            encounter = Encounter(
                channel_id=table.channel_id,
                guild_id=interaction.guild_id,
                gm_id=interaction.user.id,
                mode=mode,
                flow=flow,
                ambush=ambush,
                ambush_roll=ambush_roll,
                round=0 if ambush else 1,
                phase="start" if flow == "full" else "declaration",
            )
            try:
                encounter.tracker_message_id = await self.bot.trackers.post(
                    table.channel_id, encounter
                )
            except discord.Forbidden:
                raise NotAllowed(
                    "I may not post in this channel: give Tablehand Send Messages, Embed Links "
                    "and Manage Messages here."
                ) from None
            except discord.HTTPException as error:
                # Discord failed, not the command: the tracker is posted on the next change.
                log.warning("posting the tracker in %s failed: %s", table.channel_id, error)
            table.state.encounter = encounter
            table.log(f"{interaction.user.display_name} opens the encounter ({mode}, {flow}).")
        if encounter.tracker_message_id is None:
            self.bot.trackers.touch(table.channel_id)
        opening = "Round zero: the ambush" if ambush else "Round 1"
        await interaction.response.send_message(
            f"Encounter started — mode **{mode}**, flow **{flow}**. {opening}. "
            "The GM adds foes with `/init add`, players `/init join`; "
            "`/init next` starts the turns. The tracker is pinned in this channel."
        )

    @app_commands.command(
        name="add", description="Add NPCs (or, with controller, a player's combatant)"
    )
    @app_commands.describe(
        name="Name; with count, numbered (Goblin 1..n)",
        count="How many (numbered)",
        hidden="Hidden from players until /init reveal",
        controller="The player who controls it (it becomes a player character)",
        tags="Comma-separated tags, e.g. Undead, Stealth",
        default_defense="Used when the defender does not choose in time",
    )
    async def add(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 32],
        physical: Stat = 0,
        finesse: Stat = 0,
        grit: app_commands.Range[int, 0, 999] | None = None,
        max_grit: app_commands.Range[int, 1, 999] = 30,
        risk: app_commands.Range[int, -20, 20] = 0,
        initiative_bonus: app_commands.Range[int, -50, 50] = 0,
        count: app_commands.Range[int, 1, flow.MAX_COMBATANTS] = 1,
        hidden: bool = False,
        side: Literal["party", "foes"] | None = None,
        controller: discord.Member | None = None,
        mastery_rank: app_commands.Range[int, 1, 10] = 1,
        crit_range: app_commands.Range[int, 1, 10] = 1,
        tags: app_commands.Range[str, 0, 200] | None = None,
        default_defense: Literal["auto", "block", "dodge", "break_away", "take_cover"] = "auto",
    ) -> None:
        if grit is not None and grit > max_grit:
            raise BadInput(f"Grit {grit} is above max_grit {max_grit}.")
        if hidden and controller is not None:
            raise BadInput("Only NPCs can be hidden; a combatant with a controller is a player's.")
        async with at_table(interaction) as table:
            encounter = table.gm("add combatants")
            added: list[Combatant] = []
            for combatant_name in flow.numbered_names(encounter, name, count):
                combatant = Combatant(
                    id=0,
                    name=combatant_name,
                    physical=physical,
                    finesse=finesse,
                    grit=max_grit if grit is None else grit,
                    max_grit=max_grit,
                    risk=risk,
                    initiative_bonus=initiative_bonus,
                    hidden=hidden,
                    controller_id=controller.id if controller else None,
                    is_npc=controller is None,
                    side=side or ("party" if controller else "foes"),
                    mastery_rank=mastery_rank,
                    crit_range=crit_range,
                    tags=_tags(tags),
                    default_defense=default_defense,
                )
                flow.add_combatant(encounter, combatant, self.bot.rng)
                added.append(combatant)
                if not hidden:
                    table.log(f"{combatant.name} joins the fight.")
        names = ", ".join(c.name for c in added)
        self.bot.trackers.touch(table.channel_id)
        if hidden:
            await interaction.response.send_message(
                f"Added hidden: {names}. Players do not see them until `/init reveal`.",
                ephemeral=True,
            )
        else:
            await interaction.response.send_message(f"Added {names}.")

    @app_commands.command(name="join", description="Join the fight with your character")
    @app_commands.describe(
        character="Your character (default: your active one); a new name uses the stats given here",
    )
    @app_commands.autocomplete(character=character_choices)
    async def join(
        self,
        interaction: discord.Interaction,
        character: app_commands.Range[str, 1, 32] | None = None,
        physical: Stat | None = None,
        finesse: Stat | None = None,
        grit: app_commands.Range[int, 0, 999] | None = None,
        max_grit: app_commands.Range[int, 1, 999] | None = None,
        initiative_bonus: app_commands.Range[int, -50, 50] | None = None,
    ) -> None:
        store = self.bot.store
        guild_id = interaction.guild_id or 0
        user = interaction.user
        sheet = (
            await store.get_character(guild_id, user.id, character)
            if character
            else await store.active_character(guild_id, user.id)
        )
        inline = {
            key: value
            for key, value in {
                "physical": physical,
                "finesse": finesse,
                "grit": grit,
                "max_grit": max_grit,
                "initiative_bonus": initiative_bonus,
            }.items()
            if value is not None
        }
        if sheet is None and character is None:
            raise NotFound(
                "You have no active character: create one with /character create, "
                "or join with a name (`character:`) and stats."
            )
        async with at_table(interaction) as table:
            encounter = table.encounter
            if sheet is not None:
                fields = sheet.model_dump(exclude={"id", "guild_id", "owner_id", "name"})
                fields.update(inline)
                combatant = Combatant(id=0, name=sheet.name, character_id=sheet.id, **fields)
            else:
                stats = {"max_grit": 30, **inline}
                stats.setdefault("grit", stats["max_grit"])
                combatant = Combatant(id=0, name=character or user.display_name, **stats)
            if combatant.grit > combatant.max_grit:
                raise BadInput(f"Grit {combatant.grit} is above max_grit {combatant.max_grit}.")
            combatant.controller_id = user.id
            combatant.is_npc = False
            combatant.side = "party"
            mine = [
                c
                for c in encounter.combatants
                if c.character_id and c.character_id == combatant.character_id
            ]
            if mine:
                raise RuleViolation(f"{mine[0].name} is already in this fight.")
            flow.add_combatant(encounter, combatant, self.bot.rng)
            table.log(f"{combatant.name} joins the fight.")
        self.bot.trackers.touch(table.channel_id)
        await interaction.response.send_message(f"**{combatant.name}** joins the fight.")

    @app_commands.command(name="remove", description="Take a combatant out of the fight")
    @app_commands.autocomplete(combatant=combatant_choices)
    async def remove(self, interaction: discord.Interaction, combatant: str) -> None:
        async with at_table(interaction) as table:
            encounter = table.gm("remove combatants")
            leaving = table.combatant(combatant)
            was_acting = flow.current_actor(encounter) is leaving
            step = flow.remove_combatant(encounter, leaving, self.bot.hooks)
            self._write_back(table, leaving)
            if not leaving.hidden:
                table.log(f"{leaving.name} leaves the fight.")
            said = announce(encounter, step) if was_acting else Announcement()
            self._log(table, said)
        self.bot.trackers.touch(table.channel_id)
        said.public.insert(0, f"{leaving.name} leaves the fight.")
        await self._announce(interaction, table.channel_id, said, gm=True)

    @app_commands.command(
        name="next", description="End the current turn (or phase) and start the next"
    )
    async def next(self, interaction: discord.Interaction) -> None:
        async with at_table(interaction) as table:
            encounter = table.encounter
            actor = flow.current_actor(encounter)
            if not table.is_gm and (actor is None or not controls(table.caller, actor)):
                if actor is None:
                    raise NotAllowed("Only the GM can start the turns or step the phase.")
                raise NotAllowed(
                    f"It is {actor.name}'s turn; only its player or the GM can end it."
                )
            step = flow.advance(encounter, self.bot.rng, self.bot.hooks)
            said = announce(encounter, step)
            self._log(table, said)
            gm = table.is_gm
        self.bot.trackers.touch(table.channel_id)
        await self._announce(interaction, table.channel_id, said, gm=gm)

    @app_commands.command(name="prev", description="Step back one turn (nothing ticks again)")
    async def prev(self, interaction: discord.Interaction) -> None:
        async with at_table(interaction) as table:
            encounter = table.gm("step back a turn")
            step = flow.retreat(encounter)
            actor = flow.by_id(encounter, step.current) if step.current else None
        self.bot.trackers.touch(table.channel_id)
        name = actor.name if actor and not actor.hidden else "the previous combatant"
        await interaction.response.send_message(f"Stepped back: it is {name}'s turn again.")

    @app_commands.command(name="round", description="End the round now")
    async def round(self, interaction: discord.Interaction) -> None:
        async with at_table(interaction) as table:
            encounter = table.gm("end the round")
            step = flow.end_round(encounter, self.bot.hooks)
            said = announce(encounter, step)
            self._log(table, said)
        self.bot.trackers.touch(table.channel_id)
        await self._announce(interaction, table.channel_id, said, gm=True)

    @app_commands.command(
        name="move", description="Put a combatant at another place in this round's order"
    )
    @app_commands.autocomplete(combatant=combatant_choices)
    async def move(
        self,
        interaction: discord.Interaction,
        combatant: str,
        position: app_commands.Range[int, 1, flow.MAX_COMBATANTS],
    ) -> None:
        async with at_table(interaction) as table:
            encounter = table.gm("reorder the turns")
            moving = table.combatant(combatant)
            flow.move_combatant(encounter, moving, position)
            if not moving.hidden:
                table.log(f"The GM moves {moving.name} to place {position}.")
        self.bot.trackers.touch(table.channel_id)
        await interaction.response.send_message(f"{moving.name} now acts at place {position}.")

    @app_commands.command(name="list", description="Show the whole tracker (only to you)")
    async def list(self, interaction: discord.Interaction) -> None:
        async with at_table(interaction) as table:
            encounter = table.encounter
            gm = table.is_gm
        await interaction.response.send_message(
            embed=tracker_embed(encounter, gm_view=gm), ephemeral=True
        )

    @app_commands.command(name="reveal", description="Show a hidden NPC to the players")
    @app_commands.autocomplete(combatant=combatant_choices)
    async def reveal(self, interaction: discord.Interaction, combatant: str) -> None:
        async with at_table(interaction) as table:
            table.gm("reveal combatants")
            shown = table.combatant(combatant)
            if not shown.hidden:
                raise RuleViolation(f"{shown.name} is not hidden.")
            shown.hidden = False
            table.log(f"{shown.name} is revealed.")
        self.bot.trackers.touch(table.channel_id)
        await interaction.response.send_message(f"**{shown.name}** is revealed!")

    @app_commands.command(name="end", description="End the encounter (asks to confirm)")
    async def end(self, interaction: discord.Interaction) -> None:
        async with at_table(interaction) as table:
            if table.state.damaged:  # its GM is unknown: Manage Channels or the GM role clears it
                table.require_gm("clear a damaged encounter")
                ref = "0"
            else:
                ref = str(table.gm("end the encounter").tracker_message_id or 0)
        await interaction.response.send_message(
            "End this encounter? The tracker is unpinned and the fight's Grit is written back "
            "to the characters.",
            view=confirm_view("end", interaction.user.id, ref),
            ephemeral=True,
        )

    # Buttons -------------------------------------------------------------------------

    async def confirm_end(self, interaction: discord.Interaction, ref: str) -> None:
        """Carry out /init end once its author confirmed."""
        async with at_table(interaction) as table:
            table.require_gm("end the encounter")
            if table.state.damaged:
                table.state.encounter = None
                ended = None
            else:
                ended = table.encounter
                if str(ended.tracker_message_id or 0) != ref:
                    raise RuleViolation("That encounter is already over.")
                for combatant in ended.combatants:
                    self._write_back(table, combatant)
                summary = await table.state.round_log(ended.round)
                table.state.encounter = None
        if ended is None:
            await interaction.response.edit_message(
                content="The damaged encounter is cleared.", view=None
            )
            return
        lines = _final_summary(ended)
        if ended.tracker_message_id is not None:
            await self.bot.trackers.retire(
                table.channel_id, ended.tracker_message_id, ended_embed(ended, lines)
            )
        await interaction.response.edit_message(content="Encounter ended.", view=None)
        embeds = [summary_embed(ended.round, summary)] if summary else []
        await interaction.followup.send(
            f"**The encounter is over** after round {ended.round}.\n" + "\n".join(lines),
            embeds=embeds,
        )

    async def tracker_button(self, interaction: discord.Interaction, action: str) -> None:
        """Handle Next / Wait / Hold on the pinned tracker, with the commands' permissions."""
        bot = self.bot
        encounter = await bot.store.peek(interaction.channel_id or 0)
        message = interaction.message
        if encounter is None or message is None or encounter.tracker_message_id != message.id:
            await interaction.response.edit_message(view=None)
            await interaction.followup.send(
                "This encounter is over; its buttons no longer do anything.", ephemeral=True
            )
            return
        if action == "next":
            await self.next.callback(self, interaction)  # type: ignore[arg-type]
            return
        fortune = bot.get_cog("Fortune")
        if fortune is None:
            raise RuleViolation("Wait and Hold are not available on this bot.")
        await getattr(fortune, f"button_{action}")(interaction)

    # Internals -----------------------------------------------------------------------

    @staticmethod
    def _log(table: Table, said: Announcement) -> None:
        for round_number, line in said.log:
            table.state.log(round_number, line)

    @staticmethod
    def _write_back(table: Table, combatant: Combatant) -> None:
        """Write a character's fight Grit back to its sheet when it leaves or the fight ends."""
        if combatant.character_id is not None:
            table.state.write_back(
                combatant.character_id, combatant.grit, combatant.max_grit, combatant.injuries
            )


def _final_summary(encounter: Encounter) -> list[str]:
    """Return who is standing and who is Broken when the fight ends."""
    standing = [c for c in encounter.combatants if not flow.is_broken(c) and not c.hidden]
    broken = [c for c in encounter.combatants if flow.is_broken(c) and not c.hidden]
    lines = []
    if standing:
        lines.append(
            "Standing: " + ", ".join(f"{c.name} ({c.grit}/{c.max_grit})" for c in standing)
        )
    if broken:
        lines.append("Broken: " + ", ".join(c.name for c in broken))
    return lines


async def setup(bot: Tablehand) -> None:
    await bot.add_cog(Initiative(bot))
