"""The one command pipeline: the channel's state under its lock, the caller, and what is said.

A command is `async with at_table(interaction) as table:` → `table.pick(...)` → a rules
flow → `table.say(text, about=combatant)`. Leaving the block commits every change in one
transaction, refreshes the pinned tracker if the encounter changed, and delivers what
was said: `say` decides who may see each line (a hidden NPC reaches only the GM; players
read an NPC's Grit as level and die) and what goes into the round log shown to players.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands

from bot.errors import Ambiguous, NoEncounter, NotAllowed, NotFound, RuleViolation
from bot.i18n import L_, N_, Lazy, _, language_of, p_, speaking
from bot.i18n.commands import server_language
from bot.outbox import Outbox
from bot.permissions import Caller, controls, is_gm, require_gm
from bot.render.grit import grit_change_text
from bot.render.text import name_list, name_text
from bot.render.turns import Announcement, Text, summary_embeds
from bot.rules import encounter as flow
from bot.rules.combatant_grit import change_combatant_grit
from bot.rules.grit import GritChange
from bot.rules.models import Combatant, Encounter, LogKind, log_text
from bot.rules.names import clean_name, close_names, name_key
from bot.store import ChannelState, GuildSettings

if TYPE_CHECKING:
    from bot.app import Tablehand

log = logging.getLogger(__name__)

AUTOCOMPLETE_LIMIT = 25  # Discord shows at most 25 choices
GM_TURN = N_(
    "⏳ Over to the GM: a combatant only the GM sees takes its turn (`/init next` ends it)."
)
SENT_TOO_EARLY = N_(
    "That turn was already over when you sent this; send /init next again to end the one on now."
)
DONE = N_("Done.")  # the answer to a command whose every line was the GM's

# What the caller means a combatant for: to act for it (its player or the GM), to answer
# an attack on it (its player; the GM for NPCs), to aim at it, or to look at it.
Purpose = Literal["act", "defend", "target", "look"]
About = Combatant | Iterable[Combatant] | None
EmbedText = discord.Embed | Callable[[bool], discord.Embed]


def moment_of(encounter: Encounter) -> str:
    """Return what identifies the moment of a fight: round, phase, whose turn, and any /act."""
    owner = "-"
    if encounter.phase == "initiative" and encounter.turn is not None:
        if 0 <= encounter.turn < len(encounter.order):
            owner = str(encounter.order[encounter.turn])
    return f"{encounter.round}.{encounter.phase[:3]}.{owner}.{encounter.acting_now or 0}"


class Moments:
    """When each channel's current moment was announced, so a command can tell what it was sent for.

    A slash command carries only when it was sent (its snowflake). One sent before the
    moment it would act on was announced (the announcing message's snowflake, Discord's
    same clock) was meant for the moment before. Kept in memory: a race is sub-second.
    """

    def __init__(self) -> None:
        self._announced: dict[int, tuple[str, int | None]] = {}

    def began(self, channel_id: int, moment: str) -> None:
        """Note that a channel's new moment is committed and its announcement is on its way."""
        self._announced[channel_id] = (moment, None)

    def announced(self, channel_id: int, moment: str, snowflake: int) -> None:
        """Note when the channel's moment was first shown (unless another has begun since)."""
        if self._announced.get(channel_id) == (moment, None):
            self._announced[channel_id] = (moment, snowflake)

    def sent_before(self, channel_id: int, moment: str, snowflake: int) -> bool:
        """Return whether something sent at `snowflake` was sent before `moment` was shown."""
        known = self._announced.get(channel_id)
        if known is None or known[0] != moment:
            return False  # announced long ago (or before a restart): nothing to race
        shown_at = known[1]
        return shown_at is None or snowflake < shown_at


def _about(about: About) -> tuple[Combatant, ...]:
    if about is None:
        return ()
    if isinstance(about, Combatant):
        return (about,)
    return tuple(about)


@dataclass
class Table:
    """One command's view of its channel: state, caller, server settings, and what it says."""

    bot: Tablehand
    interaction: discord.Interaction | None  # None: the bot's own work (timers)
    caller: Caller
    settings: GuildSettings
    state: ChannelState
    out: Outbox = field(default_factory=Outbox)
    new_moment: str | None = None  # the fight's moment, if this command changed it
    language: str = "en"  # what the channel speaks (the caller's replies speak theirs)

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

    @property
    def moment(self) -> str | None:
        """Return the fight's moment (see `moment_of`), or None without a readable fight."""
        encounter = self._readable_encounter
        return None if encounter is None else moment_of(encounter)

    def require_sent_for_now(self) -> None:
        """Refuse a command sent before the fight's current moment was announced."""
        moment = self.moment
        if (
            self.interaction is not None
            and moment is not None
            and self.bot.moments.sent_before(self.channel_id, moment, self.interaction.id)
        ):
            raise RuleViolation(SENT_TOO_EARLY)

    def require_gm(self, doing: str) -> None:
        """Refuse unless the caller is the GM; `doing` completes "Only the GM can …"."""
        require_gm(self.caller, self._readable_encounter, self.settings, doing)

    def forcing(self, force: bool) -> bool:
        """Return whether the GM forces an out-of-turn action [GAME.md §10]; refuse anyone else."""
        if force:
            self.require_gm(N_("force an out-of-turn action"))
        return force

    def gm(self, doing: str) -> Encounter:
        """Return the encounter if the caller is its GM; refuse with "no encounter" first."""
        encounter = self.encounter
        self.require_gm(doing)
        return encounter

    # Who the caller means ------------------------------------------------------------

    def may(self, combatant: Combatant, purpose: Purpose) -> bool:
        """Return whether the caller may use this combatant for the purpose."""
        match purpose:
            case "act":
                return controls(self.caller, combatant) or self.is_gm
            case "defend":
                if combatant.controller_id is not None:
                    return controls(self.caller, combatant)
                return self.is_gm
            case _:
                return self.is_gm or not combatant.hidden

    def named(self, name: str) -> Combatant:
        """Return the named combatant the caller can see; a near miss asks "did you mean"."""
        wanted = name_key(name)
        for combatant in self.encounter.combatants:
            if name_key(combatant.name) == wanted and (self.is_gm or not combatant.hidden):
                return combatant
        typed = clean_name(name)
        near = self.near(typed)
        if near:
            raise Ambiguous(
                L_(
                    "No combatant named {typed!r} here. Did you mean {names}?",
                    typed=typed,
                    names=name_list(near, _("or"), translated=True),
                ),
                near,
                typed=name,
            )
        raise NotFound("No combatant named {name!r} in this encounter.", name=typed)

    def near(self, name: str) -> list[str]:
        """Return the visible combatants' names close to a name that fits none ("did you mean")."""
        if self.state.damaged or self.state.encounter is None:
            return []
        return close_names(clean_name(name), [c.name for c in self.visible()])

    def visible(self) -> list[Combatant]:
        """Return the combatants the caller may see (players never see hidden NPCs)."""
        return [c for c in self.encounter.combatants if self.is_gm or not c.hidden]

    def find(self, name: str) -> Combatant | None:
        """Return the named combatant the caller can see, or None (no fight, no such name)."""
        if self.state.damaged or self.state.encounter is None:
            return None
        try:
            return self.named(name)
        except (NotFound, Ambiguous):
            return None

    def require(self, combatant: Combatant, purpose: Purpose = "act") -> Combatant:
        """Return the combatant if the caller may use it for the purpose; refuse otherwise."""
        if not self.may(combatant, purpose):
            raise NotAllowed(_not_yours(combatant, purpose))
        return combatant

    def pick(
        self,
        name: str | None,
        purpose: Purpose = "act",
        *,
        wanted: Callable[[Combatant], bool] | None = None,
        option: str = "combatant",
    ) -> Combatant:
        """Return the combatant the caller means: the named one, else their own for the purpose.

        With no name: the caller's one combatant that is `wanted` (e.g. waiting), else the
        current actor if it is theirs (or, for a GM without combatants, anyone's), else
        their only combatant.
        """
        if name:
            return self.require(self.named(name), purpose)
        mine = [c for c in self.encounter.combatants if controls(self.caller, c)]
        if wanted is not None:
            fits = [c for c in self.encounter.combatants if wanted(c) and self._own(c)]
            if len(fits) > 1:
                raise Ambiguous(
                    L_(
                        "Several of your combatants could ({names}); name one (`{option}`).",
                        names=", ".join(name_text(c.name) for c in fits),
                        option=p_("option name", option),
                    ),
                    [c.name for c in fits],
                    option=option,
                )
            if fits:
                return fits[0]
        actor = flow.current_actor(self.encounter)
        if actor is not None and (actor in mine or (self.is_gm and not mine)):
            return actor
        if len(mine) == 1:
            return mine[0]
        if not mine:
            if self.is_gm:
                named = [c.name for c in self.visible() if self.may(c, purpose)]
                raise Ambiguous(
                    L_(
                        "Name the combatant (the `{option}` option).",
                        option=p_("option name", option),
                    ),
                    named,
                    option=option,
                )
            raise NotFound("You control no combatant in this encounter; /init join first.")
        raise Ambiguous(
            L_(
                "You control several combatants; name one (the `{option}` option).",
                option=p_("option name", option),
            ),
            [c.name for c in mine],
            option=option,
        )

    def _own(self, combatant: Combatant) -> bool:
        """Return whether the combatant is the caller's: their own, or an NPC of the GM's."""
        return controls(self.caller, combatant) or (self.is_gm and combatant.controller_id is None)

    # Saying things -------------------------------------------------------------------

    def hidden(self, about: About) -> bool:
        """Return whether anything said about these combatants is the GM's alone."""
        return any(c.hidden for c in _about(about))

    def say(
        self,
        text: Text | Lazy,
        *,
        about: About = None,
        round: int | None = None,
        log: bool | Text | Lazy = True,
        kind: LogKind = "event",
    ) -> None:
        """Say something at the table: to everyone (and the round log) unless a hidden NPC is in it.

        `text` may be a function of `gm_view`: the table reads an NPC's Grit as level and die
        (the GM has the exact numbers in `/init list`); what is only about hidden NPCs is
        rendered for the GM. `log` is False for nothing in the log, or a shorter line for it;
        `kind` says what the line is about (round summaries group by it). A text built with
        `L_()` (or a function calling `_()`) speaks the server's language; a plain string is
        said as it is.
        """
        render = _renderer(text)
        with speaking(self.language):  # what the table reads speaks the server's language
            if self.hidden(about):
                self.out.gm.append(str(render(True)))
                return
            public = str(render(False))
        self.out.public.append(public)
        if log is not False:
            self.note(public if log is True else log, round=round, kind=kind)

    def note(
        self,
        text: Text | Lazy,
        *,
        about: About = None,
        round: int | None = None,
        kind: LogKind = "event",
    ) -> None:
        """Put a line into the round log alone (what players may read of it)."""
        if self.hidden(about) or self.state.damaged or self.state.encounter is None:
            return
        number = self.encounter.round if round is None else round
        with speaking(self.language):
            self.state.log(number, log_text(kind, str(_renderer(text)(False))))

    def show(self, embed: EmbedText, *, about: About = None) -> None:
        """Show an embed at the table, or only to the GM when a hidden NPC is in it."""
        render = embed if callable(embed) else _constant(embed)
        with speaking(self.language):
            if self.hidden(about):
                self.out.gm_embeds.append(render(True))
            else:
                self.out.embeds.append(render(False))

    def tell(
        self,
        text: str | None = None,
        *,
        embed: discord.Embed | None = None,
        view: discord.ui.View | None = None,
    ) -> None:
        """Tell the caller alone (an ephemeral reply), with buttons if given."""
        if text:
            self.out.private.append(text)
        if embed is not None:
            self.out.private_embeds.append(embed)
        if view is not None:
            self.out.private_view = view

    def ping(self, user_id: int | None) -> None:
        """Ping this user with the public message (nobody else is ever pinged)."""
        if user_id is not None and user_id not in self.out.pings:
            self.out.pings.append(user_id)

    def announce(self, said: Announcement) -> None:
        """Say what a step of the round did, line by line, and ping whose turn it is."""
        for line in said.lines:
            self.say(line.text, about=line.about, round=line.round, kind=line.kind)
        self.ping(said.ping)
        if said.gm_turn and not self.is_gm:
            # A player handed the turn to a combatant only the GM sees: the table would
            # stall without a word, so the GM is pinged, and nobody learns who acts.
            self.say(lambda gm_view: _(GM_TURN), log=False)
            self.ping(self.encounter.gm_id)
        if said.summary_round is not None:
            self.out.summary_round = said.summary_round

    def change_grit(
        self,
        combatant: Combatant,
        *,
        damage: int | None = None,
        heal: int | None = None,
        set_to: int | None = None,
        max_grit: int | None = None,
        say: bool = True,
    ) -> GritChange:
        """Change a combatant's Grit through the one rule for it, and say what happened."""
        change = change_combatant_grit(
            self.encounter, combatant, damage=damage, heal=heal, set_to=set_to, max_grit=max_grit
        )
        if say:
            self.say(
                lambda gm_view: grit_change_text(change, gm_view=gm_view),
                about=combatant,
                kind="grit",
            )
        return change

    async def _finish(self, moment_before: str | None) -> None:
        """Before the commit: note a new moment of the fight, build the round summary."""
        moment = self.moment
        if moment is not None and moment != moment_before:
            # Under the lock: a command that waits for it finds the new moment on its way.
            self.new_moment = moment
            self.bot.moments.began(self.channel_id, moment)
        if self.out.summary_round is not None:
            entries = await self.state.round_log(self.out.summary_round)
            with speaking(self.language):
                self.out.embeds.extend(summary_embeds(self.out.summary_round, entries))

    async def deliver(self) -> None:
        """Send what was said: the public part, then the caller's private part."""
        shown = self._shown if self.new_moment is not None else None
        guild_id = self.settings.guild_id or None
        self.out.link(lambda text: self.bot.help.linked(text, guild_id))
        if self.interaction is not None:
            out = self.out
            if not self.is_gm and not (
                out.public or out.embeds or out.private or out.private_embeds
            ):
                # Everything said was about hidden NPCs (a player ended a turn before one):
                # the GM's alone, yet the player's command must still be answered.
                out.private.append(_(DONE))
            await out.answer(self.interaction, gm=self.is_gm, shown=shown)
        else:
            channel = self.bot.get_partial_messageable(self.channel_id)
            await self.out.post(channel, shown=shown)

    def _shown(self, message_id: int | None = None) -> None:
        """Note when the new moment was announced (without a message id: about now)."""
        assert self.new_moment is not None
        now = discord.utils.time_snowflake(discord.utils.utcnow())
        self.bot.moments.announced(self.channel_id, self.new_moment, message_id or now)


def _renderer(text: Text | Lazy) -> Callable[[bool], object]:
    return text if callable(text) else _constant(text)


def _constant(value: object) -> Callable[[bool], object]:
    return lambda gm_view: value  # the same for the GM and the players


def _not_yours(combatant: Combatant, purpose: Purpose) -> Lazy:
    if purpose == "defend":
        return L_("This is not your defense.")
    if combatant.controller_id is None:
        return L_("{name} is the GM's combatant; you cannot act for it.", name=combatant.name)
    return L_("{name} is another player's combatant; you cannot act for it.", name=combatant.name)


async def channel_language(interaction: discord.Interaction) -> str:
    """Return what the interaction's channel speaks: the server's language (a DM: the user's)."""
    bot: Tablehand = interaction.client  # type: ignore[assignment]
    if interaction.guild_id is None:
        return language_of(interaction.locale)  # a DM is the user's own channel
    settings = await bot.store.settings(interaction.guild_id)
    return server_language(settings.language, interaction.guild_locale)


# Interaction.extras key: the loop's clock when the interaction's gateway event was parsed.
ARRIVED = "tablehand.arrived"


@asynccontextmanager
async def at_table(interaction: discord.Interaction) -> AsyncIterator[Table]:
    """Load the channel's state under its lock; commit, refresh the tracker and reply after."""
    bot: Tablehand = interaction.client  # type: ignore[assignment]
    if interaction.channel_id is None:
        raise NoEncounter("Use Tablehand in a server channel or thread.")
    give_up_at = _give_up_at(bot, interaction)
    settings = await bot.store.settings(interaction.guild_id)
    language = server_language(settings.language, interaction.guild_locale)
    async with bot.store.channel(interaction.channel_id, give_up_at=give_up_at) as state:
        table = Table(bot, interaction, Caller.of(interaction), settings, state, language=language)
        before = table.moment
        yield table
        await table._finish(before)
    await _after_commit(table)


def _give_up_at(bot: Tablehand, interaction: discord.Interaction) -> float | None:
    """Return when a command stops waiting for its channel; None once it has answered.

    Past Discord's deadline nobody would hear the command's answer, and a change applied
    unheard is one its user sends again: so it gives up, changing nothing, while its
    refusal can still be heard. The time counts from the interaction's arrival (stamped
    by `Tablehand.dispatch`), so a wait in the event loop's queue counts too. An answered
    (deferred) interaction has minutes left.
    """
    if interaction.response.is_done():
        return None
    now = asyncio.get_running_loop().time()
    return interaction.extras.get(ARRIVED, now) + bot.patience


@asynccontextmanager
async def at_channel(bot: Tablehand, channel_id: int) -> AsyncIterator[Table]:
    """Load a channel's state under its lock for the bot's own work (a timer), not a user's."""
    # The caller is the bot itself, with no rights: whatever runs here checks none.
    async with bot.store.channel(channel_id) as state:
        encounter = None if state.damaged else state.encounter
        settings, language = await encounter_language(bot, encounter)
        caller = Caller(user_id=bot.user.id if bot.user else 0)
        table = Table(bot, None, caller, settings, state, language=language)
        before = table.moment
        yield table
        await table._finish(before)
    await _after_commit(table)


async def encounter_language(
    bot: Tablehand, encounter: Encounter | None
) -> tuple[GuildSettings, str]:
    """Return the settings of an encounter's server and what its channel speaks."""
    guild_id = encounter.guild_id if encounter else None
    settings = await bot.store.settings(guild_id)
    guild = bot.get_guild(guild_id) if guild_id else None
    return settings, server_language(settings.language, guild.preferred_locale if guild else None)


async def _after_commit(table: Table) -> None:
    if table.state.encounter_written:
        table.bot.trackers.touch(table.channel_id)
    try:
        if not table.out.empty:
            await table.deliver()
    finally:
        if table.new_moment is not None:
            table._shown()  # nothing was said, or Discord refused it: the tracker shows it now


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
        wanted = name_key(str(name or ""))
        return next((c for c in self.visible() if name_key(c.name) == wanted), None)

    def actable(self) -> list[Combatant]:
        """Return the combatants the caller may act for."""
        return [c for c in self.visible() if self.gm or controls(self.caller, c)]


async def glance(interaction: discord.Interaction) -> Glance | None:
    """Look at the channel's encounter without its lock (autocomplete must never wait)."""
    bot: Tablehand = interaction.client  # type: ignore[assignment]
    if interaction.channel_id is None:
        return None
    encounter = await bot.store.glimpse(interaction.channel_id)
    if encounter is None:
        return None
    caller = Caller.of(interaction)
    settings = await bot.store.settings(interaction.guild_id)
    return Glance(encounter, caller, is_gm(caller, encounter, settings))


def name_choices(names: list[str], current: str) -> list[app_commands.Choice[str]]:
    """Rank names for autocomplete: those starting with what was typed, then containing it."""
    return _ranked([(n, name_key(n)) for n in names], current)


def _ranked(keyed: list[tuple[str, str]], current: str) -> list[app_commands.Choice[str]]:
    """Rank (name, key) pairs as `name_choices` ranks names."""
    wanted = name_key(current)
    shown = [n for n, key in keyed if key.startswith(wanted)]
    if len(shown) < AUTOCOMPLETE_LIMIT:  # enough start with it: containing ones rank after
        shown += [n for n, key in keyed if wanted in key and not key.startswith(wanted)]
    return [app_commands.Choice(name=n, value=n) for n in shown[:AUTOCOMPLETE_LIMIT]]


# The visible names (and keys) of a shared committed encounter, for the GM and for players,
# by the encounter's id: a fight of 100 is keyed once per commit, not once per keystroke.
# `glimpse` never changes what it shares; the weak reference tells a reused id apart.
_SEEN: dict[tuple[int, bool], tuple[weakref.ref[Encounter], list[tuple[str, str]]]] = {}
SEEN_KEPT = 256


def _visible_names(seen: Glance) -> list[tuple[str, str]]:
    """Return the names (with keys) of the combatants the caller may see, in order."""
    at = (id(seen.encounter), seen.gm)
    kept = _SEEN.get(at)
    if kept is not None and kept[0]() is seen.encounter:
        return kept[1]
    keyed = [(c.name, name_key(c.name)) for c in seen.visible()]
    if len(_SEEN) >= SEEN_KEPT:
        _SEEN.clear()  # a few hundred fights typed into at once: start again
    _SEEN[at] = (weakref.ref(seen.encounter), keyed)
    return keyed


async def combatant_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Autocomplete combatant names of this channel's encounter (hidden ones for the GM only)."""
    seen = await glance(interaction)
    return [] if seen is None else _ranked(_visible_names(seen), current)


def mention_allowed(*user_ids: int | None) -> discord.AllowedMentions:
    """Allow pinging exactly these users and nobody else."""
    users = [discord.Object(id=uid) for uid in user_ids if uid is not None]
    return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)
