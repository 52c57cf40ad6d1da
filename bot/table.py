"""What every command shares: the channel's state under its lock, the caller and their rights.

A command is five steps: `async with at_table(interaction) as table:` loads the
channel's state (holding its lock), the command checks permission and calls
`bot.rules`, and leaving the block saves everything at once; then it renders.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.errors import BadInput, NoEncounter, NotFound
from bot.permissions import Caller, controls, is_gm, require_act_for, require_gm
from bot.render.grit import grit_change_text
from bot.rules import encounter as flow
from bot.rules.grit import GritChange, change_grit
from bot.rules.initiative import actions_per_round
from bot.rules.models import Combatant, Encounter
from bot.store import ChannelState, GuildSettings

if TYPE_CHECKING:
    from bot.app import Tablehand

AUTOCOMPLETE_LIMIT = 25  # Discord shows at most 25 choices


@dataclass
class Table:
    """One command's view of its channel: state, caller, server settings."""

    bot: Tablehand
    interaction: discord.Interaction | None  # None: the bot's own work (timers)
    caller: Caller
    settings: GuildSettings
    state: ChannelState

    @property
    def channel_id(self) -> int:
        return self.state.channel_id

    @property
    def encounter(self) -> Encounter:
        """Return the channel's encounter, or refuse: there is none."""
        return self.state.require_encounter()

    @property
    def _readable_encounter(self) -> Encounter | None:
        # A damaged encounter has no known starter: GM rights come from the server then.
        return None if self.state.damaged else self.state.encounter

    @property
    def is_gm(self) -> bool:
        return is_gm(self.caller, self._readable_encounter, self.settings)

    def require_gm(self, doing: str) -> None:
        """Refuse unless the caller is the GM; `doing` completes "Only the GM can …"."""
        require_gm(self.caller, self._readable_encounter, self.settings, doing)

    def gm(self, doing: str) -> Encounter:
        """Return the encounter if the caller is its GM; refuse with "no encounter" first."""
        encounter = self.encounter
        self.require_gm(doing)
        return encounter

    def combatant(self, name: str) -> Combatant:
        """Return the named combatant; players cannot name hidden NPCs."""
        combatant = flow.by_name(self.encounter, name)
        if combatant.hidden and not self.is_gm:
            raise NotFound(f"No combatant named {name.strip()!r} in this encounter.")
        return combatant

    def acting_for(self, name: str | None) -> Combatant:
        """Return the combatant the caller acts for: the named one, else their own."""
        encounter = self.encounter
        if name:
            combatant = self.combatant(name)
        else:
            combatant = self.own_combatant()
        require_act_for(self.caller, combatant, encounter, self.settings)
        return combatant

    def own_combatant(self) -> Combatant:
        """Return the caller's combatant when they name none: theirs, or the current actor."""
        encounter = self.encounter
        mine = [c for c in encounter.combatants if controls(self.caller, c)]
        actor = flow.current_actor(encounter)
        if actor is not None and (actor in mine or (self.is_gm and not mine)):
            return actor
        if len(mine) == 1:
            return mine[0]
        if not mine:
            if self.is_gm:
                raise BadInput("Name the combatant (the `combatant` option).")
            raise NotFound("You control no combatant in this encounter; /init join first.")
        raise BadInput("You control several combatants; name one (the `combatant` option).")

    def log(self, text: str) -> None:
        """Add a line to this round's action log."""
        self.state.log(self.encounter.round, text)

    def change_grit(
        self,
        combatant: Combatant,
        *,
        damage: int | None = None,
        heal: int | None = None,
        set_to: int | None = None,
        max_grit: int | None = None,
    ) -> tuple[GritChange, str]:
        """Change a combatant's Grit — the one path for attacks, Specials and /grit.

        Returns the change and its line (amount, before → after, any level change),
        which is also written to the round's log.
        """
        change = change_grit(combatant, damage=damage, heal=heal, set_to=set_to, max_grit=max_grit)
        # Broken when the round opened, it got no actions; back on its feet before its
        # turn, it takes that turn with this round's actions [002 "until Grit is restored"].
        if (
            change.announcement == "back_on_feet"
            and combatant.actions_left == 0
            and combatant.turn_started_round != self.encounter.round
        ):
            combatant.actions_left = actions_per_round(combatant)
        text = grit_change_text(change)
        if not combatant.hidden:
            self.log(text)
        return change, text


@asynccontextmanager
async def at_table(interaction: discord.Interaction) -> AsyncIterator[Table]:
    """Load the channel's state under its lock; commit when the block ends without error."""
    bot: Tablehand = interaction.client  # type: ignore[assignment]
    if interaction.channel_id is None:
        raise NoEncounter("Use Tablehand in a server channel or thread.")
    settings = await bot.store.settings(interaction.guild_id)
    async with bot.store.channel(interaction.channel_id) as state:
        yield Table(bot, interaction, Caller.of(interaction), settings, state)


@asynccontextmanager
async def at_channel(bot: Tablehand, channel_id: int) -> AsyncIterator[Table]:
    """Load a channel's state under its lock for the bot's own work (a timer), not a user's."""
    # The caller is the bot itself, with no rights: whatever runs here checks none.
    async with bot.store.channel(channel_id) as state:
        encounter = None if state.damaged else state.encounter
        settings = await bot.store.settings(encounter.guild_id if encounter else None)
        caller = Caller(user_id=bot.user.id if bot.user else 0)
        yield Table(bot, None, caller, settings, state)


@dataclass(frozen=True)
class Glance:
    """What an autocomplete may see of a channel: the committed encounter and the caller's rights."""

    encounter: Encounter
    caller: Caller
    gm: bool

    def visible(self) -> list[Combatant]:
        """Return the combatants the caller may see (players never see hidden NPCs)."""
        return [c for c in self.encounter.combatants if self.gm or not c.hidden]

    def named(self, name: object) -> Combatant | None:
        """Return the visible combatant of that name, if any."""
        wanted = str(name or "").strip().casefold()
        return next((c for c in self.visible() if c.name.casefold() == wanted), None)

    def actable(self) -> list[Combatant]:
        """Return the combatants the caller may act for."""
        return [c for c in self.visible() if self.gm or controls(self.caller, c)]


async def glance(interaction: discord.Interaction) -> Glance | None:
    """Look at the channel's encounter without its lock (autocomplete must never wait)."""
    bot: Tablehand = interaction.client  # type: ignore[assignment]
    if interaction.channel_id is None:
        return None
    encounter = await bot.store.peek(interaction.channel_id)
    if encounter is None:
        return None
    caller = Caller.of(interaction)
    settings = await bot.store.settings(interaction.guild_id)
    return Glance(encounter, caller, is_gm(caller, encounter, settings))


def name_choices(names: list[str], current: str) -> list[app_commands.Choice[str]]:
    """Rank names for autocomplete: those starting with what was typed, then containing it."""
    wanted = current.strip().casefold()
    starts = [n for n in names if n.casefold().startswith(wanted)]
    contains = [n for n in names if wanted in n.casefold() and n not in starts]
    return [app_commands.Choice(name=n, value=n) for n in (starts + contains)[:AUTOCOMPLETE_LIMIT]]


async def combatant_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Autocomplete combatant names of this channel's encounter (hidden ones for the GM only)."""
    seen = await glance(interaction)
    return [] if seen is None else name_choices([c.name for c in seen.visible()], current)


def mention_allowed(*user_ids: int | None) -> discord.AllowedMentions:
    """Allow pinging exactly these users and nobody else."""
    users = [discord.Object(id=uid) for uid in user_ids if uid is not None]
    return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)
