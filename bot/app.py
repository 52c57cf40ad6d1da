"""The bot: a discord.py Bot that loads every cog, syncs its commands and reports errors."""

from __future__ import annotations

import asyncio
import gc
import importlib
import logging
import pkgutil
import random
import time
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands

import cogs
from bot import choices
from bot.catalogue import Catalogue, Lookup
from bot.catalogue.kept import load_indexed
from bot.catalogue.views import EntryViews
from bot.config import Settings
from bot.help import CommandIds
from bot.i18n import _, load_all
from bot.i18n.commands import CommandTranslator, speak_for
from bot.replies import report_error
from bot.rules.specials import SpecialBook
from bot.scheduler import Scheduler
from bot.specials_hooks import SpecialHooks
from bot.store import Store, open_store
from bot.table import ARRIVED, Moments
from bot.tracker import RECONCILE_WINDOW, Trackers
from bot.turns import render_tracker
from bot.views import answer_vanished_click
from bot.warm import build_models

log = logging.getLogger("tablehand")

# Modules the bot imports on first use rather than at start-up, because importing them
# builds something slow (d20 its parser: a tenth of a second). Once the bot is ready they
# are imported in a thread, so that the first roll after a start does not wait either.
# (rapidfuzz, a fiftieth, is imported at start: a first command needing it while the
# thread still imported d20 held the loop for 190 ms, the import and the GIL shared.)
WARM_UP = ("bot.rules.expressions",)


def warm_up(modules: tuple[str, ...] = WARM_UP) -> None:
    """Import what the bot left for first use, and build the fights' models (in a thread)."""
    for name in modules:
        importlib.import_module(name)
    build_models()  # each fight command's first use built some: 10-15 ms of its loop


def point_discord_at(api_base: str, gateway_url: str) -> None:
    """Send discord.py's REST calls and gateway connection to these addresses."""
    # Both are class attributes that discord.py reads on every request / connect; the
    # webhook module (interaction callbacks) imports the same Route [loopback notes].
    discord.http.Route.BASE = api_base.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


def cog_extensions() -> list[str]:
    """Return every module in cogs/ as an extension name."""
    return sorted(f"cogs.{m.name}" for m in pkgutil.iter_modules(cogs.__path__) if not m.ispkg)


class TablehandTree(app_commands.CommandTree):
    """A command tree whose errors all go through one handler."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Speak the user's language; refuse a server-only command outside a server."""
        # Each interaction is handled in a task of its own: this language is its alone.
        speak_for(interaction)
        if interaction.guild_id is None and interaction.command is not None:
            root = interaction.command
            if isinstance(root, app_commands.Command) and root.root_parent is not None:
                root = root.root_parent
            contexts = getattr(root, "allowed_contexts", None)
            if contexts is not None and not contexts.dm_channel:
                raise app_commands.NoPrivateMessage(
                    _(
                        "/{command} works in a server channel, not in direct messages.",
                        command=root.name,
                    )
                )
        return True

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        if not await choices.offer(interaction, error):  # "which one?" gets a menu
            await report_error(interaction, error)


# Seconds a command may wait for its channel: its refusal must still reach Discord within
# the 3 s Discord waits for an interaction's first answer [bot].
COMMAND_PATIENCE = 2.5


class Tablehand(commands.Bot):
    """The Tablehand bot: state in a store, randomness from one injected source."""

    def __init__(
        self,
        settings: Settings,
        *,
        rng: random.Random | None = None,
        extensions: list[str] | None = None,
        store: Store | None = None,
        catalogue: Catalogue | None = None,
        tracker_interval: float = 1.0,
        freeze_heap: bool = False,
        sync_on_start: bool = False,
        **client_options: Any,
    ) -> None:
        options: dict[str, Any] = {
            "intents": discord.Intents.none() | discord.Intents(guilds=True),
            # Nothing the bot sends pings anyone unless a message names the user itself.
            "allowed_mentions": discord.AllowedMentions.none(),
            "chunk_guilds_at_startup": False,
            # on_ready only starts background work that needs no guild cache; guilds that
            # stream in later are still added. discord.py's default waits 2 s after the last.
            "guild_ready_timeout": 0.5,
        }
        options.update(client_options)
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            tree_cls=TablehandTree,
            **options,
        )
        self.settings = settings
        self.freeze_heap = freeze_heap  # for the one bot of a process (python -m bot), not tests
        # Commands are synced by `tablehand sync-commands`, not on every start; the sandbox
        # and in-process tests, whose Discord is new each time, sync as they start.
        self.sync_on_start = sync_on_start
        self.rng = rng if rng is not None else random.Random()
        self.store: Store = store if store is not None else open_store(settings.database)
        # The SRD catalogue, validated once: a malformed data file stops start-up here.
        if catalogue is None:  # kept validated and indexed from an earlier start, if current
            self.catalogue, self.lookup = load_indexed()
        else:
            self.catalogue, self.lookup = catalogue, Lookup(catalogue)
        self.entry_views = EntryViews(self.catalogue, self.lookup.see_also)
        self._extensions = cog_extensions() if extensions is None else extensions
        self.started_at = time.monotonic()
        self.ready_after: float | None = None
        self._reconcile: asyncio.Task[int] | None = None
        self._warm_up: asyncio.Task[None] | None = None
        self.scheduler = Scheduler()  # timers: defense timeouts and other background work
        # The Specials the tracker keeps, and what they do at turn boundaries [GAME.md §7].
        self.book = SpecialBook(self.catalogue.specials.specials)
        self.hooks = SpecialHooks(self.book)
        self.trackers = Trackers(self, self.store, render_tracker, interval=tracker_interval)
        self.moments = Moments()  # when each fight's turn last changed, for racing commands
        # How long a command waits for its busy channel before it gives up, changing nothing
        # (`bot.table.at_table`): Discord waits 3 s for the first answer, then drops it.
        self.patience = COMMAND_PATIENCE
        # Command ids for clickable mentions (`bot.help.mention("init next")`), from the sync
        # or, when this start did not sync, from Discord's list of registered commands.
        self.help = CommandIds()
        self.choices = choices.PendingChoices()  # commands waiting for a "which one?" answer

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        """Stamp each interaction with its arrival, then dispatch the event as discord.py does."""
        if event_name == "interaction" and args:
            # Called as the gateway event is parsed, before its command's task runs: what
            # the command waits from now on, in the loop's queue or for its channel, counts
            # against Discord's 3 s (`bot.table.at_table`).
            args[0].extras[ARRIVED] = asyncio.get_running_loop().time()
        super().dispatch(event_name, *args, **kwargs)

    @property
    def extension_names(self) -> list[str]:
        """Return the extensions this bot loads at start-up."""
        return list(self._extensions)

    async def setup_hook(self) -> None:
        load_all()  # a broken catalogue stops start-up here, not a user's first German reply
        await self.tree.set_translator(CommandTranslator())
        await self.store.open()
        self.add_dynamic_items(choices.ChoiceMenu)
        for extension in self._extensions:
            await self.load_extension(extension)
        if self.freeze_heap:
            # What exists now (the catalogue, the cogs, discord.py's state) lives as long as
            # the process: out of the collector's sight, full collections stop walking it.
            # `python -m bot` built it with the collector off (bot.__main__.main): a full
            # collection first would walk all of it to find next to no garbage.
            gc.freeze()
            gc.enable()
        if self.sync_on_start:
            await self.sync_commands()
        await self.learn_command_ids()

    async def learn_command_ids(self) -> None:
        """Fetch the registered commands' ids for mentions, unless a sync already gave them."""
        if self.help.known:
            return
        try:
            for guild_id in self.settings.guild_ids:
                found = await self.tree.fetch_commands(guild=discord.Object(id=guild_id))
                self.help.learn(found, guild_id)
            self.help.learn(await self.tree.fetch_commands(), None)
        except discord.HTTPException as error:  # mentions fall back to plain `/name` text
            log.warning("could not fetch the registered commands: %s", error)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        await answer_vanished_click(interaction)

    async def on_guild_channel_pins_update(
        self, channel: discord.abc.GuildChannel | discord.Thread, last_pin: object
    ) -> None:
        self.trackers.pins_changed(channel.id)

    async def sync_commands(self) -> list[app_commands.AppCommand]:
        """Register the command tree: to the configured guilds at once, else globally."""
        if not self.settings.guild_ids:
            synced = await self.tree.sync()
            self.help.learn(synced, None)
            return synced
        synced: list[app_commands.AppCommand] = []
        for guild_id in self.settings.guild_ids:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            self.help.learn(synced, guild_id)
        return synced

    # A sharded bot (bot/shards.py) catches each shard up as it becomes ready instead.
    catches_up_per_shard = False

    def owns_guild(self, guild_id: int | None) -> bool:
        """Return whether this process serves the guild (one unsharded process serves all)."""
        return True

    def owned_guild_ids(self) -> set[int] | None:
        """Return the guilds this process serves; None: every guild."""
        return None

    async def catch_up(self, guild_ids: set[int] | None) -> None:
        """Take up these guilds after a (re)connect: re-arm their timers, reconcile their trackers."""
        self.dispatch("guilds_served", guild_ids)
        await self.trackers.reconcile(time.time() - RECONCILE_WINDOW, guild_ids=guild_ids)

    async def on_ready(self) -> None:
        if self.ready_after is None:
            self.ready_after = time.monotonic() - self.started_at
            log.info(
                "ready as %s in %d guild(s) after %.2f s",
                self.user,
                len(self.guilds),
                self.ready_after,
            )
            self._warm_up = asyncio.create_task(self._warm(), name="warm-up")
            if self.catches_up_per_shard:
                return
            # Encounters load lazily; only their trackers are brought up to date, slowly.
            self._reconcile = asyncio.create_task(
                self.trackers.reconcile(time.time() - RECONCILE_WINDOW), name="tracker-reconcile"
            )

    async def _warm(self) -> None:
        """Run warm_up in a worker thread; a failure is logged (first use raises it again)."""
        try:
            await asyncio.to_thread(warm_up, WARM_UP)
            await asyncio.to_thread(self.help.patterns)  # the first reply's links: 5 ms
        except Exception:
            log.exception("warming up %s failed", ", ".join(WARM_UP))
        else:
            log.info("warmed up %s", ", ".join(WARM_UP))
        finally:
            self.store.warmed_up()  # no worker thread competes for the interpreter now

    async def close(self) -> None:
        try:
            if self._reconcile is not None:
                self._reconcile.cancel()
            await self.scheduler.close()
            await self.trackers.close()
            await super().close()
        finally:
            await self.store.close()
