"""Tablehand over gateway shards, and the leases that say which process serves which shard.

Discord splits a bot's guilds into shards: guild `g` is on shard `(g >> 22) % shard_count`.
One process runs the shards of `TABLEHAND_SHARD_IDS` (all by default) through discord.py's
AutoShardedBot. With PostgreSQL, several processes share the work through leases in the
database (shard, owner, expiry, heartbeat): a process connects only the shards it holds,
renews them every third of the lease, stops serving a shard whose lease it lost, and
takes over the shards of a process that stopped renewing (a crash). A process that stops
cleanly gives its leases back, so a rolling restart's new process takes them at once.

Each shard that becomes ready is caught up: its guilds' waiting defenses are armed again
and their trackers brought to the stored state. Log lines name the shard they are about.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import os
import secrets
import socket
import time
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.app import Tablehand

if TYPE_CHECKING:
    from bot.config import Settings
    from bot.store.postgres import PostgresStore

log = logging.getLogger("tablehand.shards")

IDENTIFY_INTERVAL = 5.0  # seconds between IDENTIFYs of one concurrency bucket [Discord]

current_shard: contextvars.ContextVar[int | None] = contextvars.ContextVar(
    "current_shard", default=None
)


def shard_of(guild_id: int, shard_count: int) -> int:
    """Return the shard Discord puts a guild on."""
    return (guild_id >> 22) % shard_count


class ShardFilter(logging.Filter):
    """Give every log record the shard it is about (`-` for none), for `%(shard)s`."""

    def filter(self, record: logging.LogRecord) -> bool:
        shard = current_shard.get()
        record.shard = "-" if shard is None else shard
        return True


class ShardedTablehand(Tablehand, commands.AutoShardedBot):
    """Tablehand over several gateway shards; with PostgreSQL, only those it holds leases on."""

    catches_up_per_shard = True

    def __init__(self, settings: Settings, **options: Any) -> None:
        count = settings.shard_count or 1
        self.wanted_shards = list(settings.shard_ids or range(count))
        self.leases: LeaseKeeper | None = None
        self._identify_buckets = 1
        self._identify_locks: dict[int, asyncio.Lock] = {}
        self._identified: dict[int, float] = {}
        super().__init__(settings, shard_count=count, shard_ids=list(self.wanted_shards), **options)
        if self.store.multi_process:
            self.leases = LeaseKeeper(self, self.store, settings.shard_lease_seconds)  # type: ignore[arg-type]
        self._name_shards_in_events()

    def _name_shards_in_events(self) -> None:
        """Set `current_shard` while each gateway event is parsed.

        Every task discord.py starts for an event (a command, a button, a listener) is
        created while its event is parsed and copies the context then, so what they log
        carries the shard of the event's guild.
        """
        count = self.shard_count or 1
        parsers = self._connection.parsers
        for name, parse in list(parsers.items()):

            def marked(data: Any, parse: Any = parse) -> None:
                guild_id = data.get("guild_id") if isinstance(data, dict) else None
                if guild_id is not None:
                    current_shard.set(shard_of(int(guild_id), count))
                elif isinstance(data, dict) and data.get("shard"):
                    current_shard.set(data["shard"][0])
                parse(data)

            parsers[name] = marked

    @property
    def serving(self) -> set[int]:
        """Return the shards this process serves now."""
        if self.leases is not None:
            return set(self.leases.serving)
        return set(self.shard_ids or range(self.shard_count or 1))

    def owns_guild(self, guild_id: int | None) -> bool:
        return guild_id is not None and shard_of(guild_id, self.shard_count or 1) in self.serving

    def owned_guild_ids(self) -> set[int] | None:
        serving = self.serving
        return {g.id for g in self.guilds if g.shard_id in serving}

    async def launch_shards(self) -> None:
        limits = await self.fetch_session_start_limits()
        self._identify_buckets = max(1, limits.max_concurrency)
        if self.leases is not None:
            # Connect only what this process holds; a standby waits here for a lease.
            self.shard_ids = await self.leases.first_shards()
            self.leases.start()  # renewing starts now: connecting shards takes a while
        log.info("serving shards %s of %s", sorted(self.shard_ids or []), self.shard_count)
        await super().launch_shards()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Identify as fast as Discord allows: `max_concurrency` buckets, each once per 5 s."""
        bucket = (shard_id or 0) % self._identify_buckets
        lock = self._identify_locks.setdefault(bucket, asyncio.Lock())
        async with lock:
            wait = (
                self._identified.get(bucket, float("-inf")) + IDENTIFY_INTERVAL - time.monotonic()
            )
            if wait > 0:
                await asyncio.sleep(wait)
            self._identified[bucket] = time.monotonic()

    async def serve_shard(self, shard_id: int) -> None:
        """Connect a shard this process has just taken over."""
        token = current_shard.set(shard_id)
        try:
            info = self.get_shard(shard_id)
            if info is not None:
                await info.connect()
                return
            ids = list(self.shard_ids or [])
            if shard_id not in ids:
                ids.append(shard_id)
            self.shard_ids = ids
            self._connection.shard_ids = ids
            await self.launch_shard(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY, shard_id)
        finally:
            current_shard.reset(token)

    async def stop_serving(self, shard_id: int) -> None:
        """Disconnect a shard whose lease this process lost: another serves it now."""
        info = self.get_shard(shard_id)
        if info is not None:
            with contextlib.suppress(Exception):
                await info.disconnect()

    async def on_shard_ready(self, shard_id: int) -> None:
        token = current_shard.set(shard_id)
        try:
            guild_ids = {g.id for g in self.guilds if g.shard_id == shard_id}
            log.info("shard %s ready with %d guild(s); catching up", shard_id, len(guild_ids))
            await self.catch_up(guild_ids)
        finally:
            current_shard.reset(token)

    async def close(self) -> None:
        if self.leases is not None:
            await self.leases.stop()
        await super().close()


class LeaseKeeper:
    """Claim, renew and give back one process's shard leases in PostgreSQL."""

    def __init__(self, bot: ShardedTablehand, store: PostgresStore, ttl: float) -> None:
        self.bot = bot
        self.store = store
        self.ttl = ttl
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self.serving: set[int] = set()
        self._task: asyncio.Task[None] | None = None
        self._connecting: set[asyncio.Task[None]] = set()
        self._renewed_at = time.monotonic()

    @property
    def interval(self) -> float:
        return self.ttl / 3

    async def first_shards(self) -> list[int]:
        """Wait until this process holds at least one shard; return the ones it holds."""
        waiting = False
        while True:
            held = await self._claim()
            if held:
                self.serving = set(held)
                self._renewed_at = time.monotonic()
                log.info("leased shards %s as %s (lease %.0f s)", held, self.owner, self.ttl)
                return held
            if not waiting:
                waiting = True
                log.info("standing by: every shard is leased to another process")
            await asyncio.sleep(self.interval)

    def start(self) -> None:
        self._task = asyncio.create_task(self._keep(), name="shard-leases")

    async def stop(self) -> None:
        """Stop renewing and give the leases back, so a successor takes them at once."""
        for task in [self._task, *self._connecting]:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        self._task = None
        if self.serving:
            with contextlib.suppress(Exception):
                await self.store.release_shards(self.owner, sorted(self.serving))
            log.info("gave back shards %s", sorted(self.serving))
            self.serving = set()

    async def _claim(self) -> list[int]:
        """Take the wanted shards that are free, and any shard a dead process left behind."""
        candidates = set(self.bot.wanted_shards) | set(await self.store.lapsed_shards())
        count = self.bot.shard_count or 1
        candidates = {s for s in candidates if s < count}
        return await self.store.claim_shards(self.owner, sorted(candidates), self.ttl)

    async def _keep(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                await self._renew()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("renewing the shard leases failed")
                if time.monotonic() - self._renewed_at > self.ttl:
                    await self._lose(set(self.serving))  # they have lapsed by now

    async def _renew(self) -> None:
        held = set(await self.store.renew_shards(self.owner, self.ttl))
        self._renewed_at = time.monotonic()
        await self._lose(self.serving - held)
        taken = set(await self._claim()) - self.serving
        for shard_id in sorted(taken):
            log.warning("took over shard %s", shard_id)
            self.serving.add(shard_id)
            # Connecting may wait for Discord's identify limit; renewing must not.
            task = asyncio.create_task(self.bot.serve_shard(shard_id), name=f"serve-{shard_id}")
            self._connecting.add(task)
            task.add_done_callback(self._connecting.discard)

    async def _lose(self, shards: set[int]) -> None:
        for shard_id in sorted(shards):
            log.warning("the lease of shard %s lapsed; no longer serving it", shard_id)
            self.serving.discard(shard_id)
            await self.bot.stop_serving(shard_id)
