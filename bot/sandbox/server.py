"""A loopback Discord: the gateway and REST subset discord.py uses, on 127.0.0.1.

An unmodified discord.py bot logs in to `LoopbackDiscord` once `Route.BASE` and
`DiscordWebSocket.DEFAULT_GATEWAY` point at it (see `harness.point_discord_at`).
The server keeps everything a test wants to look at (messages with their edits,
pins, interaction responses, followups, every REST call) and lets a test act as a
user: invoke a slash command, click a button, delete or unpin a message.

Changes wake waiters registered with `wait_until`; nothing here polls.
Facts about discord.py 2.7 this relies on are noted where they are used (file:line of 2.7.1).
"""

# Waits take a `timeout=`: it is the API tests read (`await ch.wait_for(pred, timeout=2)`).
# ruff: noqa: ASYNC109

from __future__ import annotations

import asyncio
import contextlib
import fnmatch
import hashlib
import json
import logging
import math
import re
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar
from urllib.parse import quote

import aiohttp
import discord
from aiohttp import web

from bot.sandbox.records import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    CHANNEL_PINNED_MESSAGE,
    CHAT_INPUT_COMMAND,
    COMPONENTS_V2,
    DEFAULT,
    EPHEMERAL,
    LOADING,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    REPLY,
    SUPPRESS_NOTIFICATIONS,
    Callback,
    GatewayStats,
    InteractionRecord,
    RestCall,
    StoredMessage,
)
from bot.sandbox.snowflake import DISCORD_EPOCH_MS, SnowflakeGenerator, iso, snowflake_ms
from bot.sandbox.validate import (
    ATTACHMENT_SIZE_LIMIT,
    check_choices,
    check_commands,
    check_files,
    check_message,
    check_modal,
)
from bot.sandbox.world import DM, Channel, Guild, Member, User

log = logging.getLogger("bot.sandbox.server")

T = TypeVar("T")

# Gateway opcodes.
DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE, RESUME, RECONNECT, REQUEST_MEMBERS = (
    0,
    1,
    2,
    3,
    4,
    6,
    7,
    8,
)
INVALID_SESSION, HELLO, HEARTBEAT_ACK = 9, 10, 11
# Intents the server honours when deciding which events to send.
INTENT_GUILDS, INTENT_MEMBERS, INTENT_GUILD_MESSAGES = 1 << 0, 1 << 1, 1 << 9

P = discord.Permissions
SEND = P(send_messages=True).value
SEND_IN_THREADS = P(send_messages_in_threads=True).value
READ_HISTORY = P(read_message_history=True).value
MANAGE_MESSAGES = P(manage_messages=True).value
PIN = P(pin_messages=True).value
VIEW = P(view_channel=True).value
ADMINISTRATOR = P(administrator=True).value
# What an app may do in a direct message with its bot user.
DM_APP_PERMISSIONS = P(
    view_channel=True,
    send_messages=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    add_reactions=True,
    use_external_emojis=True,
).value
PERMISSION_NAMES = {"manage_guild": "Manage Server"}  # where Discord's UI names a flag otherwise


class SandboxError(Exception):
    """The sandbox was used wrongly (unknown user, no bot connected, bad option)."""


class SandboxTimeout(TimeoutError):
    """Something awaited on the sandbox did not happen in time; the message says what did."""


# Errors in Discord's shape.
def _error(message: str, code: int) -> dict[str, Any]:
    return {"message": message, "code": code}


UNKNOWN_CHANNEL = _error("Unknown Channel", 10003)
UNKNOWN_MESSAGE = _error("Unknown Message", 10008)
UNKNOWN_WEBHOOK = _error("Unknown Webhook", 10015)
UNKNOWN_INTERACTION = _error("Unknown interaction", 10062)
UNKNOWN_COMMAND = _error("Unknown application command", 10063)
UNKNOWN_MEMBER = _error("Unknown Member", 10007)
UNKNOWN_USER = _error("Unknown User", 10013)
UNKNOWN_GUILD = _error("Unknown Guild", 10004)
ALREADY_ACKNOWLEDGED = _error("Interaction has already been acknowledged.", 40060)
MISSING_PERMISSIONS = _error("Missing Permissions", 50013)
MISSING_ACCESS = _error("Missing Access", 50001)
CANNOT_EDIT_OTHERS = _error("Cannot edit a message authored by another user", 50005)
NOT_FOUND = _error("404: Not Found", 0)
UNAUTHORIZED = _error("401: Unauthorized", 0)
MAX_PINS = _error("Maximum number of pins reached (50)", 30003)


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """Answer JSON with Content-Type exactly `application/json` (discord.py rejects a charset)."""
    return web.Response(
        status=status,
        body=json.dumps(data, separators=(",", ":")).encode(),
        headers={"Content-Type": "application/json", **(headers or {})},
    )


def no_content() -> web.Response:
    return web.Response(status=204)


@dataclass
class RateLimitConfig:
    """Discord-like buckets as (requests, seconds); None means unlimited."""

    message_create: tuple[int, float] | None = (5, 5.0)  # per channel
    message_edit: tuple[int, float] | None = (5, 5.0)  # per channel
    message_delete: tuple[int, float] | None = (5, 1.0)  # per channel
    pins: tuple[int, float] | None = (5, 5.0)  # per channel
    reactions: tuple[int, float] | None = (1, 0.25)  # per channel
    webhook: tuple[int, float] | None = (5, 2.0)  # per interaction token: followups, @original
    callback: tuple[int, float] | None = None  # interaction callbacks are not limited
    default: tuple[int, float] | None = (50, 1.0)  # per route and major parameter


@dataclass
class _Bucket:
    limit: int
    per: float
    hash: str
    started: float = 0.0
    used: int = 0

    def take(self, now: float) -> float:
        """Use one request; return 0, or the seconds to wait when the bucket is empty."""
        if now >= self.started + self.per:
            self.started, self.used = now, 0
        if self.used >= self.limit:
            return self.started + self.per - now
        self.used += 1
        return 0.0

    def headers(self, now: float) -> dict[str, str]:
        reset_after = max(self.started + self.per - now, 0.0)
        return {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(max(self.limit - self.used, 0)),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": self.hash,
        }


@dataclass
class Fault:
    """The next `remaining` calls matching `route` (and `method`) answer `status`."""

    route: str  # a template ("/channels/{channel_id}/messages") or glob on the path ("/channels/*/pins/*")
    status: int
    remaining: int
    method: str | None = None
    retry_after: float = 0.05
    served: int = 0

    def matches(self, method: str, template: str, path: str) -> bool:
        if self.remaining <= 0 or (self.method and self.method.upper() != method):
            return False
        return self.route == template or fnmatch.fnmatchcase(path, self.route)


@dataclass
class _Request:
    method: str
    path: str
    vars: dict[str, str]
    query: dict[str, str]
    body: Any
    files: list[dict[str, Any]]
    headers: Any
    received: float = 0.0  # loop time the request reached the handler, before its body was read


Handler = Callable[[_Request], Awaitable[web.Response]]


@dataclass(eq=False)
class _Connection:
    """One gateway websocket; frames are written as they are sent, in order."""

    ws: web.WebSocketResponse
    transport: asyncio.BaseTransport | None
    # Frames sent while an earlier write waits for the socket to drain (the bot not
    # reading); they follow it in order. Otherwise nothing waits: no writer task.
    pending: deque[tuple[str, InteractionRecord | None]] = field(default_factory=deque)
    draining: asyncio.Task[None] | None = None
    session: _Session | None = None
    closed: bool = False

    def send(self, frame: dict[str, Any] | str, record: InteractionRecord | None = None) -> None:
        """Write a frame now (stamping an interaction's record `sent`), or after a drain."""
        text = frame if isinstance(frame, str) else json.dumps(frame)
        if self.closed or self.ws.closed:
            return
        if self.draining is not None:
            self.pending.append((text, record))
        else:
            self._write(text, record)

    def _write(self, text: str, record: InteractionRecord | None) -> None:
        # aiohttp writes an uncompressed frame to the transport synchronously and only
        # then may wait for the transport to drain: step its coroutine here rather than
        # in a writer task, which cost the latency a loop iteration (0.1 ms at the median,
        # milliseconds behind other work at p99).
        if record is not None:  # handed to the socket now (the write may wake the bot first)
            record.sent = asyncio.get_running_loop().time()
        step = self.ws.send_str(text)
        try:
            blocked = step.send(None)
        except StopIteration:
            blocked = None
        except (ConnectionError, RuntimeError):
            self.close()
            return
        else:
            self.draining = asyncio.get_running_loop().create_task(self._drain(step, blocked))

    async def _drain(self, step: Coroutine[Any, Any, None], blocked: Any) -> None:
        """Finish a write that waits for the transport, then write what queued behind it."""
        try:
            while True:
                if blocked is None:
                    await asyncio.sleep(0)
                else:
                    await blocked
                try:
                    blocked = step.send(None)
                except StopIteration:
                    break
        except (ConnectionError, RuntimeError, asyncio.CancelledError):
            step.close()
            self.close()
            return
        finally:
            self.draining = None
        while self.pending and self.draining is None and not self.closed:
            self._write(*self.pending.popleft())

    def close(self) -> None:
        """Write nothing more (the websocket closed or failed)."""
        self.closed = True
        self.pending.clear()
        if self.draining is not None and self.draining is not asyncio.current_task():
            self.draining.cancel()


@dataclass(eq=False)
class _Session:
    id: str
    intents: int
    shard: list[int] | None
    seq: int = 0
    log: deque[tuple[int, str]] = field(default_factory=lambda: deque(maxlen=5000))
    conn: _Connection | None = None

    def dispatch(
        self, event: str, data: dict[str, Any], record: InteractionRecord | None = None
    ) -> int:
        """Number and log the event; send it now if connected (else a RESUME replays it)."""
        self.seq += 1
        frame = json.dumps({"op": DISPATCH, "t": event, "s": self.seq, "d": data})
        self.log.append((self.seq, frame))
        if self.conn is not None:
            self.conn.send(frame, record)
        return self.seq


@dataclass
class _Waiter:
    predicate: Callable[[], Any]
    future: asyncio.Future[Any]


def _template_regex(template: str) -> re.Pattern[str]:
    pattern = re.sub(r"\{(\w+)\}", lambda m: f"(?P<{m.group(1)}>[^/]+)", template)
    return re.compile(f"^{pattern}$")


def shard_of(guild_id: int, shard_count: int) -> int:
    """Return the shard Discord sends a guild's events to [Discord: sharding formula]."""
    return (guild_id >> 22) % shard_count


class LoopbackDiscord:
    """A Discord for one bot and one or more guilds, listening on 127.0.0.1.

    Sessions may be sharded: IDENTIFY's `shard: [id, count]` gets READY and GUILD_CREATE
    for that shard's guilds only, and each guild's events go to the newest session of its
    shard, `(guild_id >> 22) % count`, as Discord routes them. Several sessions (one per
    shard, from one process or several) are connected at once.
    """

    def __init__(
        self,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        guild: Guild | None = None,
        tables: int = 3,
        guilds: int = 1,
        token: str | None = None,
        rate_limits: bool | RateLimitConfig = False,
        response_deadline: float | None = 3.0,
        heartbeat_interval: float = 41.25,
        pin_notices: bool = True,
    ) -> None:
        if host not in ("127.0.0.1", "localhost", "::1"):
            raise ValueError("the loopback Discord only listens on the loopback interface")
        self.host, self.port = host, port
        self.guild = guild or Guild(tables=tables)  # the first guild: tests' default
        self.guilds: dict[int, Guild] = {self.guild.id: self.guild}
        for _ in range(guilds - 1):
            self.add_guild(tables=tables)
        self.recommended_shards = 1  # what GET /gateway/bot answers
        # Shards that may IDENTIFY at once (Discord gives large bots 16): tests start fast.
        self.max_concurrency = 16
        self.token = token
        self.rate_limits: RateLimitConfig | None = (
            RateLimitConfig() if rate_limits is True else (rate_limits or None)
        )
        self.response_deadline = response_deadline
        self.heartbeat_interval = heartbeat_interval
        self.pin_notices = pin_notices
        self.ids = SnowflakeGenerator()
        # Files the bot uploaded, by attachment id; larger ones are refused as Discord does.
        self.attachment_size_limit = ATTACHMENT_SIZE_LIMIT
        self.attachment_bodies: dict[str, bytes] = {}

        self.messages: dict[int, StoredMessage] = {}
        self.channel_messages: dict[int, list[int]] = {}
        self.pins: dict[int, list[int]] = {}  # channel id -> message ids, newest pin first
        self.interactions: dict[int, InteractionRecord] = {}
        self._by_token: dict[str, InteractionRecord] = {}
        self.commands: dict[int | None, dict[str, dict[str, Any]]] = {}  # scope (guild id / None)
        self._command_ids: dict[tuple[int | None, str, int], int] = {}
        # Server settings → Integrations: a command turned on or off for a member or role.
        self.command_permissions: dict[str, dict[int, bool]] = {}
        self.dm_channels: dict[int, Channel] = {}  # channel id -> a person's DM with the bot
        self.calls: list[RestCall] = []
        self.unknown_routes: list[RestCall] = []
        self.stats = GatewayStats()
        self.faults: list[Fault] = []
        self._buckets: dict[tuple[str, str, str], _Bucket] = {}

        self.session: _Session | None = None
        self._sessions: dict[str, _Session] = {}
        self._connections: set[_Connection] = set()
        self._waiters: list[_Waiter] = []
        self._activity = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self._routes: list[tuple[str, str, re.Pattern[str], Handler]] = []
        self._install_routes()

    # ------------------------------------------------------------------ lifecycle

    @property
    def bot_user(self) -> User:
        return self.guild.bot_user

    @property
    def application_id(self) -> int:
        return self.guild.bot_user.id

    @property
    def api_base(self) -> str:
        return f"http://{self.host}:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/"

    async def start(self) -> LoopbackDiscord:
        """Listen on the host; with port 0 a free port is chosen and stored in `port`."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/", self._gateway)
        app.router.add_get("/attachments/{id}/{filename}", self._attachment)
        app.router.add_route("*", "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(
            app, access_log=None, shutdown_timeout=1.0, handle_signals=False
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        log.info("loopback Discord on %s (gateway %s)", self.api_base, self.gateway_url)
        return self

    async def stop(self) -> None:
        """Close every gateway connection and stop listening; pending waits fail."""
        for conn in list(self._connections):
            await self._close_connection(conn, code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        for waiter in self._waiters:
            if not waiter.future.done():
                waiter.future.set_exception(SandboxError("the loopback Discord stopped"))
        self._waiters.clear()

    async def __aenter__(self) -> LoopbackDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ------------------------------------------------------------------ waiting

    def changed(self) -> None:
        """Wake the waiters whose condition now holds (called after every state change)."""
        if not self._waiters:
            return
        keep: list[_Waiter] = []
        for waiter in self._waiters:
            if waiter.future.done():
                continue
            try:
                result = waiter.predicate()
            except Exception as error:
                waiter.future.set_exception(error)
                continue
            if result:
                waiter.future.set_result(result)
            else:
                keep.append(waiter)
        self._waiters = keep

    async def wait_until(
        self,
        predicate: Callable[[], T | None],
        *,
        timeout: float = 5.0,
        describe: Callable[[], str] | str = "",
    ) -> T:
        """Return the predicate's first truthy value, re-checked after each change (no polling)."""
        result = predicate()
        if result:
            return result
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._waiters.append(_Waiter(predicate, future))
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            what = describe() if callable(describe) else describe
            raise SandboxTimeout(
                f"waited {timeout:.1f}s: {what or 'condition never held'}"
            ) from None

    async def wait_idle(self, *, quiet: float = 0.15, timeout: float = 5.0) -> None:
        """Return once no REST call has arrived for `quiet` seconds (for the terminal's display)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            self._activity.clear()
            try:
                await asyncio.wait_for(self._activity.wait(), min(quiet, deadline - loop.time()))
            except TimeoutError:
                return

    async def wait_for_bot(self, timeout: float = 10.0) -> None:
        """Return once a bot has identified (or resumed) and holds a live gateway connection."""
        await self.wait_until(
            lambda: self.bot_connected,
            timeout=timeout,
            describe=lambda: f"no bot connected (gateway stats: {self.stats})",
        )

    @property
    def bot_connected(self) -> bool:
        return self.session is not None and self.session.conn is not None

    def live_session(self, shard_id: int) -> str | None:
        """Return the id of the newest connected session serving a shard, if any."""
        for session in reversed(list(self._sessions.values())):
            if session.conn is not None and (session.shard or [0, 1])[0] == shard_id:
                return session.id
        return None

    def connected_shards(self) -> dict[int, int]:
        """Return each shard id with a live session, and how many live sessions it has."""
        live: dict[int, int] = {}
        for session in self._sessions.values():
            if session.conn is not None:
                shard_id = (session.shard or [0, 1])[0]
                live[shard_id] = live.get(shard_id, 0) + 1
        return live

    # ------------------------------------------------------------------ guilds

    def add_guild(self, *, tables: int = 3) -> Guild:
        """Add a guild with the same people and bot; ids spread guilds round-robin over shards.

        The n-th guild's id has `(id >> 22) % 12 == n % 12`, so with 2, 3, 4, 6 or 12
        shards consecutive guilds land on consecutive shards.
        """
        ids = self.guild._ids
        index = len(self.guilds)
        guild_id = ids.next()
        while (snowflake_ms(guild_id) - DISCORD_EPOCH_MS) % 12 != index % 12:
            guild_id = ids.next()
        guild = Guild(
            name=f"Tablehand Sandbox {index + 1}",
            tables=tables,
            ids=ids,
            id=guild_id,
            shared=self.guild,
        )
        self.guilds[guild.id] = guild
        return guild

    def guild_of(self, channel: Channel | int) -> Guild:
        """Return the guild a channel or thread belongs to (a DM: the first guild's people)."""
        channel_id = channel.id if isinstance(channel, Channel) else channel
        for guild in self.guilds.values():
            if channel_id in guild.channels:
                return guild
        if channel_id in self.dm_channels:
            return self.guild
        raise SandboxError(f"no channel {channel_id} in any guild")

    def _channel_by_id(self, channel_id: int) -> Channel | None:
        for guild in self.guilds.values():
            found = guild.channels.get(channel_id)
            if found is not None:
                return found
        return self.dm_channels.get(channel_id)

    def _session_for(self, guild_id: int | None) -> _Session | None:
        """Return the session a guild's events go to: the newest one of its shard."""
        if guild_id is None:
            return self.session
        for session in reversed(list(self._sessions.values())):
            shard_id, count = session.shard or [0, 1]
            if shard_of(guild_id, count) == shard_id:
                return session
        return None

    # ------------------------------------------------------------------ gateway

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        if request.headers.get("Upgrade", "").lower() != "websocket":
            return json_response(NOT_FOUND, 404)
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        conn = _Connection(ws, request.transport)
        self._connections.add(conn)
        self.stats.connections += 1
        conn.send({"op": HELLO, "d": {"heartbeat_interval": int(self.heartbeat_interval * 1000)}})
        try:
            async for msg in ws:
                if msg.type is aiohttp.WSMsgType.TEXT:
                    await self._on_gateway_frame(conn, json.loads(msg.data))
                elif msg.type is aiohttp.WSMsgType.ERROR:
                    break
        finally:
            self._connections.discard(conn)
            if conn.session is not None and conn.session.conn is conn:
                conn.session.conn = None
            conn.close()
            self.changed()  # a session went away: waits on the live shards re-check
        return ws

    async def _on_gateway_frame(self, conn: _Connection, frame: dict[str, Any]) -> None:
        op, data = frame.get("op"), frame.get("d")
        if op == HEARTBEAT:
            self.stats.heartbeats += 1
            conn.send({"op": HEARTBEAT_ACK})
        elif op == IDENTIFY:
            await self._identify(conn, data or {})
        elif op == RESUME:
            await self._resume(conn, data or {})
        elif op == REQUEST_MEMBERS:
            self._chunk_members(conn, data or {})
        elif op in (PRESENCE, VOICE):
            pass
        else:
            log.warning("gateway: unknown opcode %s from the bot", op)

    def _token_ok(self, token: str | None) -> bool:
        return bool(token) and (self.token is None or token == self.token)

    async def _identify(self, conn: _Connection, data: dict[str, Any]) -> None:
        if not self._token_ok(data.get("token")):
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        self.stats.identifies += 1
        session = _Session(secrets.token_hex(16), int(data.get("intents", 0)), data.get("shard"))
        shard_id, count = session.shard or [0, 1]
        if shard_id in self.connected_shards():
            log.warning(
                "gateway: a second session identified for shard %s; its events now go to the newest",
                shard_id,
            )
        self._sessions[session.id] = session
        self.session = session
        session.conn, conn.session = conn, session
        guilds = [g for g in self.guilds.values() if shard_of(g.id, count) == shard_id]
        ready: dict[str, Any] = {
            "v": 10,
            "user": self.bot_user.payload()
            | {"verified": True, "mfa_enabled": False, "email": None},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "auth_session_id_hash": "",
        }
        if session.shard is not None:
            ready["shard"] = session.shard
        session.dispatch("READY", ready)
        for guild in guilds:
            session.dispatch("GUILD_CREATE", guild.payload())
        self.changed()

    async def _resume(self, conn: _Connection, data: dict[str, Any]) -> None:
        session = self._sessions.get(data.get("session_id") or "")
        if session is None or not self._token_ok(data.get("token")):
            self.stats.invalid_sessions += 1
            conn.send({"op": INVALID_SESSION, "d": False})
            return
        self.stats.resumes += 1
        old = session.conn
        session.conn, conn.session = conn, session
        self.session = session
        if old is not None and old is not conn:
            await self._close_connection(old, code=4000)
        last = int(data.get("seq") or 0)
        for seq, frame in session.log:
            if seq > last:
                conn.send(frame)
                self.stats.replayed += 1
        session.dispatch("RESUMED", {})
        self.changed()

    def _chunk_members(self, conn: _Connection, data: dict[str, Any]) -> None:
        if conn.session is None:
            return
        guild = self.guilds.get(int(data.get("guild_id") or self.guild.id), self.guild)
        conn.session.dispatch(
            "GUILD_MEMBERS_CHUNK",
            {
                "guild_id": str(guild.id),
                "members": [m.payload() for m in guild.members.values()],
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": [],
                "presences": [],
                "nonce": data.get("nonce"),
            },
        )

    def dispatch(
        self,
        event: str,
        data: dict[str, Any],
        *,
        intent: int | None = None,
        record: InteractionRecord | None = None,
    ) -> None:
        """Send a gateway event to the session of its guild's shard, if its intents ask for it."""
        guild_id = data.get("guild_id") if isinstance(data, dict) else None
        session = self._session_for(int(guild_id) if guild_id else None)
        if session is None:
            return
        if intent is not None and not session.intents & intent:
            return
        self.stats.dispatches += 1
        session.dispatch(event, data, record)

    async def _close_connection(
        self, conn: _Connection, *, code: int, abrupt: bool = False
    ) -> None:
        if conn.session is not None and conn.session.conn is conn:
            conn.session.conn = None
        if abrupt and conn.transport is not None:
            conn.transport.abort()
        else:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await conn.ws.close(code=code, message=b"loopback: closed")
        conn.close()

    async def drop_gateway(self, *, code: int = 4000, abrupt: bool = False) -> None:
        """Drop the bot's websocket (close code 4000, or abruptly like a network loss: 1006).

        Events dispatched until the bot resumes are kept and replayed on RESUME.
        """
        session = self.session
        if session is None or session.conn is None:
            raise SandboxError("no bot is connected to the gateway")
        self.stats.drops += 1
        await self._close_connection(session.conn, code=code, abrupt=abrupt)

    def request_reconnect(self) -> None:
        """Send op 7 RECONNECT: the bot closes and resumes."""
        if self.session is None or self.session.conn is None:
            raise SandboxError("no bot is connected to the gateway")
        self.session.conn.send({"op": RECONNECT, "d": None})

    def invalidate_session(self) -> None:
        """Forget the bot's session: its next RESUME gets op 9 and it identifies again."""
        if self.session is not None:
            self._sessions.pop(self.session.id, None)

    async def wait_resumed(self, *, after: int, timeout: float = 10.0) -> None:
        """Return once the bot has resumed more than `after` times and is connected again."""
        await self.wait_until(
            lambda: self.stats.resumes > after and self.bot_connected,
            timeout=timeout,
            describe=lambda: f"no RESUME after the drop (gateway stats: {self.stats})",
        )

    # ------------------------------------------------------------------ REST plumbing

    def route(self, method: str, template: str) -> Callable[[Handler], Handler]:
        def register(handler: Handler) -> Handler:
            self._routes.append((method, template, _template_regex(template), handler))
            return handler

        return register

    def _match(self, method: str, path: str) -> tuple[str, dict[str, str], Handler] | None:
        for m, template, regex, handler in self._routes:
            if m != method:
                continue
            found = regex.match(path)
            if found:
                return template, found.groupdict(), handler
        return None

    async def _read_body(self, request: web.Request) -> tuple[Any, list[dict[str, Any]]]:
        if not request.body_exists:
            return None, []
        ctype = request.content_type
        if ctype == "application/json":
            return await request.json(), []
        if ctype.startswith("multipart/"):
            body: Any = None
            files: list[dict[str, Any]] = []
            reader = await request.multipart()
            async for part in reader:
                if not isinstance(part, aiohttp.BodyPartReader):
                    continue
                if part.name == "payload_json":
                    body = json.loads(await part.text())
                else:
                    content = await part.read()
                    content_type = part.headers.get("Content-Type", "application/octet-stream")
                    filename = part.filename or part.name or "file"
                    files.append(self.host_file(filename, bytes(content), content_type))
            return body, files
        text = await request.text()
        return (text or None), []

    def host_file(
        self, filename: str, content: bytes, content_type: str = "application/octet-stream"
    ) -> dict[str, Any]:
        """Keep a file as Discord's CDN does; return its attachment object (served at its url)."""
        attachment_id = str(self.ids.next())
        self.attachment_bodies[attachment_id] = content
        url = f"http://{self.host}:{self.port}/attachments/{attachment_id}/{quote(filename)}"
        return {
            "id": attachment_id,
            "filename": filename,
            "size": len(content),
            "content_type": content_type,
            "url": url,
            "proxy_url": url,
        }

    def file_content(self, attachment: dict[str, Any]) -> bytes:
        """Return the bytes of an attachment the server keeps (a message's or an upload)."""
        return self.attachment_bodies[str(attachment["id"])]

    async def _attachment(self, request: web.Request) -> web.StreamResponse:
        """Serve an attachment's bytes, as the CDN does for its url."""
        content = self.attachment_bodies.get(request.match_info["id"])
        if content is None:
            return web.Response(status=404, text="404: Not Found")
        return web.Response(body=content, content_type="application/octet-stream")

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        received = asyncio.get_running_loop().time()
        self._activity.set()
        found = re.match(r"^/api/v\d+(/.*)$", request.path)
        method = request.method
        path = found.group(1) if found else request.path
        loop = asyncio.get_running_loop()
        matched = self._match(method, path) if found else None
        if matched is None:
            log.warning(
                "unknown route %s %s: answered 404 (the loopback Discord lacks it)",
                method,
                request.path,
            )
            call = RestCall(method, "?", path, 404, loop.time(), params=dict(request.query))
            self.calls.append(call)
            self.unknown_routes.append(call)
            return json_response(NOT_FOUND, 404)
        template, variables, handler = matched
        body, files = await self._read_body(request)
        call = RestCall(
            method, template, path, 0, loop.time(), body=body, params=dict(request.query)
        )
        self.calls.append(call)
        refused = check_files(files, self.attachment_size_limit)
        if refused is not None:  # too large or too many files: Discord refuses the request
            call.status = refused[0]
            return json_response(refused[1], refused[0])

        public = template.startswith(("/interactions/", "/webhooks/{webhook_id}/{webhook_token}"))
        if not public and not self._authorized(request):
            call.status = 401
            return json_response(UNAUTHORIZED, 401)

        refused = self._injected_fault(call)
        if refused is not None:
            return refused
        limit_headers, refused = self._rate_limit(call, variables)
        if refused is not None:
            return refused

        req = _Request(
            method, path, variables, dict(request.query), body, files, request.headers, received
        )
        try:
            response = await handler(req)
        except _Reply as reply:
            response = json_response(reply.body, reply.status)
        response.headers.update(limit_headers)
        call.status = response.status
        self.changed()
        return response

    def _injected_fault(self, call: RestCall) -> web.Response | None:
        """Answer a call with the first matching injected fault, if any is armed."""
        method, path = call.method, call.path
        fault = next((f for f in self.faults if f.matches(method, call.route, path)), None)
        if fault is None:
            return None
        fault.remaining -= 1
        fault.served += 1
        self.stats.faults += 1
        call.status = fault.status
        log.info("injected fault: %s %s -> %s", method, path, fault.status)
        if fault.status == 429:
            return self._too_many(fault.retry_after, None)
        return json_response(_error(f"{fault.status}: Injected failure", 0), fault.status)

    def _rate_limit(
        self, call: RestCall, variables: dict[str, str]
    ) -> tuple[dict[str, str], web.Response | None]:
        """Take the call from its rate-limit bucket: its headers, or the 429 when empty."""
        if self.rate_limits is None:
            return {}, None
        bucket = self._bucket(call.method, call.route, variables)
        if bucket is None:
            return {}, None
        now = asyncio.get_running_loop().time()
        wait = bucket.take(now)
        if wait > 0:
            self.stats.rate_limited += 1
            call.status = 429
            log.info("rate limited: %s %s for %.3fs", call.method, call.path, wait)
            return {}, self._too_many(wait, bucket)
        return bucket.headers(now), None

    def _authorized(self, request: web.Request) -> bool:
        auth = request.headers.get("Authorization", "")
        return auth.startswith("Bot ") and self._token_ok(auth[4:])

    def _too_many(self, retry_after: float, bucket: _Bucket | None) -> web.Response:
        headers = {
            "Retry-After": str(max(1, math.ceil(retry_after))),
            "X-RateLimit-Scope": "user",
            "Via": "1.1 google",
        }
        if bucket is not None:
            headers |= {
                "X-RateLimit-Limit": str(bucket.limit),
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset": f"{time.time() + retry_after:.3f}",
                "X-RateLimit-Reset-After": f"{retry_after:.3f}",
                "X-RateLimit-Bucket": bucket.hash,
            }
        body = {
            "message": "You are being rate limited.",
            "retry_after": round(retry_after, 3),
            "global": False,
        }
        return json_response(body, 429, headers)

    def _bucket(self, method: str, template: str, variables: dict[str, str]) -> _Bucket | None:
        assert self.rate_limits is not None
        kind = "default"
        if template == "/channels/{channel_id}/messages" and method == "POST":
            kind = "message_create"
        elif template == "/channels/{channel_id}/messages/{message_id}" and method == "PATCH":
            kind = "message_edit"
        elif template == "/channels/{channel_id}/messages/{message_id}" and method == "DELETE":
            kind = "message_delete"
        elif template.startswith("/channels/{channel_id}/messages/pins"):
            kind = "pins"
        elif "/reactions/" in template:
            kind = "reactions"
        elif template.startswith("/interactions/"):
            kind = "callback"
        elif template.startswith("/webhooks/"):
            kind = "webhook"
        config = getattr(self.rate_limits, kind)
        if config is None:
            return None
        major = (
            variables.get("channel_id")
            or variables.get("guild_id")
            or variables.get("webhook_token")
            or variables.get("webhook_id")
            or ""
        )
        route_key = template if kind == "default" else kind
        key = (method if kind == "default" else "", route_key, major)
        bucket = self._buckets.get(key)
        if bucket is None:
            digest = hashlib.md5(f"{method} {route_key}".encode()).hexdigest()
            bucket = self._buckets[key] = _Bucket(config[0], config[1], digest)
        return bucket

    def inject_fault(
        self,
        route: str,
        *,
        status: int = 500,
        count: int = 1,
        method: str | None = None,
        retry_after: float = 0.05,
    ) -> Fault:
        """Make the next `count` calls to a route answer `status` (429s carry Retry-After and Via)."""
        fault = Fault(route, status, count, method, retry_after)
        self.faults.append(fault)
        return fault

    def calls_since(self, mark: int) -> list[RestCall]:
        """Return the REST calls made after `len(server.calls)` was `mark`."""
        return self.calls[mark:]

    def count_calls(
        self, method: str | None = None, route: str | None = None, *, since: int = 0
    ) -> int:
        """Count REST calls by method and route template (or glob on the path)."""
        return sum(
            1
            for c in self.calls[since:]
            if (method is None or c.method == method)
            and (route is None or c.route == route or fnmatch.fnmatchcase(c.path, route))
        )

    # ------------------------------------------------------------------ lookups

    def channel(self, key: int | str | Channel) -> Channel:
        """Return a channel or thread by id or name (a direct message channel by id)."""
        if isinstance(key, Channel):
            return key
        if isinstance(key, int) or (isinstance(key, str) and key.isdigit()):
            found = self._channel_by_id(int(key))
        else:
            found = self.guild.channel_named(key)
        if found is None:
            names = ", ".join(c.name for c in self.guild.channels.values() if c.type != 4)
            raise SandboxError(f"no channel {key!r}; channels: {names}")
        return found

    def member(self, key: int | str | Member) -> Member:
        """Return a member by id or user name."""
        if isinstance(key, Member):
            return key
        if isinstance(key, int) or (isinstance(key, str) and key.isdigit()):
            found = next(
                (g.members[int(key)] for g in self.guilds.values() if int(key) in g.members), None
            )
        else:
            found = self.guild.member_named(key)
        if found is None:
            names = ", ".join(m.name for m in self.guild.people())
            raise SandboxError(f"no member {key!r}; members: {names}")
        return found

    def dm_channel(self, member: Member | str) -> Channel:
        """Return a person's direct message channel with the bot, opening it the first time."""
        member = self.member(member)
        for channel in self.dm_channels.values():
            if channel.recipient is not None and channel.recipient.id == member.id:
                return channel
        channel = Channel(self.ids.next(), f"@{member.name}", type=DM, recipient=member.user)
        self.dm_channels[channel.id] = channel
        return channel

    def commands_in(self, channel: Channel) -> list[dict[str, Any]]:
        """Return the commands registered where the channel is: global ones in a DM."""
        if channel.is_dm:
            return list(self.commands.get(None, {}).values())
        return self.synced_commands(self.guild_of(channel).id)

    def set_command_permission(self, command: str, target: Member | str, allowed: bool) -> None:
        """Turn a command on or off for a member or a role, as a server admin can."""
        if isinstance(target, str) and target.lstrip("@").lower() == "everyone":
            target_id = self.guild.id
        else:
            role = self.guild.role_named(target) if isinstance(target, str) else None
            target_id = role.id if role is not None else self.member(target).id
        self.command_permissions.setdefault(command, {})[target_id] = allowed

    def command_refusal(self, root: dict[str, Any], member: Member, channel: Channel) -> str | None:
        """Return why Discord's client would not offer this command here, or None if it would."""
        name = root["name"]
        if channel.is_dm:
            contexts = root.get("contexts")
            if root.get("guild_id") or (contexts is not None and 1 not in contexts):
                return f"/{name} is not offered in direct messages: it works in a server"
            return None
        contexts = root.get("contexts")
        if not root.get("guild_id") and contexts is not None and 0 not in contexts:
            return f"/{name} is not offered in servers"
        guild = self.guild_of(channel)
        member = guild.members.get(member.id, member)  # the same person, as this guild's member
        overrides = self.command_permissions.get(name, {})
        for target in (member.id, *member.roles, guild.id):  # the member, roles, @everyone
            if target in overrides:
                return None if overrides[target] else f"/{name} is turned off for {member.name}"
        needed = root.get("default_member_permissions")
        have = guild.channel_permissions(member, channel)
        if (
            needed is None
            or have & ADMINISTRATOR
            or (int(needed) and have & int(needed) == int(needed))
        ):
            return None
        flags = [flag for flag, on in discord.Permissions(int(needed)) if on] or ["administrator"]
        names = ", ".join(PERMISSION_NAMES.get(f, f.replace("_", " ").title()) for f in flags)
        return f"/{name} is not offered to {member.name}: it needs {names}"

    def channel_log(
        self, channel: int | str | Channel, *, deleted: bool = False
    ) -> list[StoredMessage]:
        """Return a channel's messages oldest first (ephemeral and system ones included)."""
        ch = self.channel(channel)
        msgs = (self.messages[i] for i in self.channel_messages.get(ch.id, []))
        return [m for m in msgs if deleted or not m.deleted]

    def pinned(self, channel: int | str | Channel) -> list[StoredMessage]:
        """Return a channel's pinned messages, most recently pinned first."""
        ch = self.channel(channel)
        return [self.messages[i] for i in self.pins.get(ch.id, [])]

    def synced_commands(self, guild_id: int | None = None) -> list[dict[str, Any]]:
        """Return the commands the bot registered for a guild (with global ones), as stored."""
        scoped = dict(self.commands.get(None, {}))
        scoped.update(self.commands.get(guild_id if guild_id is not None else self.guild.id, {}))
        return list(scoped.values())

    # ------------------------------------------------------------------ messages

    def _channel_or_404(self, channel_id: str) -> Channel:
        channel = self._channel_by_id(int(channel_id)) if channel_id.isdigit() else None
        if channel is None or channel.type == 4:
            raise _Reply(404, UNKNOWN_CHANNEL)
        return channel

    def _message_or_404(self, channel: Channel, message_id: str) -> StoredMessage:
        msg = self.messages.get(int(message_id)) if message_id.isdigit() else None
        # Ephemeral messages do not exist for the channel routes [Discord].
        if msg is None or msg.channel_id != channel.id or msg.deleted or msg.ephemeral:
            raise _Reply(404, UNKNOWN_MESSAGE)
        return msg

    def _require(self, channel: Channel, perms: int) -> None:
        if channel.is_dm:
            return  # the bot may do anything a DM allows; pins and deletes of others' fail below
        guild = self.guild_of(channel)
        have = guild.channel_permissions(guild.members[self.bot_user.id], channel)
        if not have & VIEW:
            raise _Reply(403, MISSING_ACCESS)
        if have & perms != perms:
            raise _Reply(403, MISSING_PERMISSIONS)

    def _mentioned(
        self, content: str, allowed: dict[str, Any] | None, guild: Guild | None = None
    ) -> tuple[list[User], list[int], bool]:
        members = (guild or self.guild).members
        users = [int(u) for u in re.findall(r"<@!?(\d+)>", content or "")]
        roles = [int(r) for r in re.findall(r"<@&(\d+)>", content or "")]
        everyone = "@everyone" in (content or "") or "@here" in (content or "")
        if allowed is not None:
            parse = set(allowed.get("parse") or [])
            allowed_users = {int(u) for u in allowed.get("users") or []}
            allowed_roles = {int(r) for r in allowed.get("roles") or []}
            users = [u for u in users if "users" in parse or u in allowed_users]
            roles = [r for r in roles if "roles" in parse or r in allowed_roles]
            everyone = everyone and "everyone" in parse
        found = [members[u].user for u in dict.fromkeys(users) if u in members]
        return found, list(dict.fromkeys(roles)), everyone

    def create_message(
        self,
        channel: Channel,
        author: User,
        payload: dict[str, Any],
        *,
        files: list[dict[str, Any]] | None = None,
        type: int = DEFAULT,
        interaction: InteractionRecord | None = None,
        extra_flags: int = 0,
    ) -> StoredMessage:
        """Store a new message and tell the bot about it (ephemeral ones stay private)."""
        flags = int(payload.get("flags") or 0) & (
            EPHEMERAL | SUPPRESS_NOTIFICATIONS | COMPONENTS_V2 | 4
        )
        flags |= extra_flags
        if interaction is None:
            flags &= ~EPHEMERAL
        allowed = payload.get("allowed_mentions")
        content = payload.get("content") or ""
        guild = None if channel.is_dm else self.guild_of(channel)
        mentioned, mention_roles, everyone = self._mentioned(content, allowed, guild)
        reference = _reference(payload.get("message_reference"), channel, guild)
        if reference is not None and type == DEFAULT:
            type = REPLY
        attachments = [a for a in payload.get("attachments") or [] if "url" in a] + list(
            files or []
        )
        msg = StoredMessage(
            id=self.ids.next(),
            channel_id=channel.id,
            guild_id=None if guild is None else guild.id,
            author=author,
            content=content,
            embeds=list(payload.get("embeds") or []),
            components=list(payload.get("components") or []),
            flags=flags,
            allowed_mentions=allowed,
            attachments=attachments,
            message_reference=reference,
            type=type,
            tts=bool(payload.get("tts")),
            nonce=payload.get("nonce"),
            mentioned=mentioned,
            mention_roles=mention_roles,
            mention_everyone=everyone,
        )
        if interaction is not None:
            self._answering(msg, interaction)
        self.messages[msg.id] = msg
        self.channel_messages.setdefault(channel.id, []).append(msg.id)
        if not msg.ephemeral:
            self.dispatch("MESSAGE_CREATE", msg.payload(), intent=INTENT_GUILD_MESSAGES)
        self.changed()
        return msg

    def _answering(self, msg: StoredMessage, interaction: InteractionRecord) -> None:
        """Mark a message as an interaction's answer (an ephemeral one only its user sees)."""
        msg.interaction_id = interaction.id
        msg.interaction_user = interaction.member.user
        msg.interaction_type = interaction.type
        msg.interaction_name = (
            interaction.label.lstrip("/") if interaction.type == APPLICATION_COMMAND else None
        )
        msg.webhook_id = self.application_id
        if msg.ephemeral:
            msg.visible_to = interaction.member.id

    def edit_message(
        self, msg: StoredMessage, payload: dict[str, Any], files: list[dict[str, Any]] | None = None
    ) -> None:
        """Apply an edit as Discord does: given fields replace, others stay; keep the old version."""
        msg.revise(datetime.now(UTC))
        if "content" in payload:
            msg.content = payload["content"] or ""
        if "embeds" in payload:
            msg.embeds = list(payload["embeds"] or [])
        if "components" in payload:
            msg.components = list(payload["components"] or [])
        if payload.get("flags") is not None:
            keep = msg.flags & (EPHEMERAL | SUPPRESS_NOTIFICATIONS)
            msg.flags = keep | (int(payload["flags"]) & (COMPONENTS_V2 | 4))
        if "attachments" in payload or files:
            kept = {str(a.get("id")) for a in payload.get("attachments") or []}
            msg.attachments = [a for a in msg.attachments if str(a["id"]) in kept] + list(
                files or []
            )
        if "allowed_mentions" in payload:
            msg.allowed_mentions = payload["allowed_mentions"]
        msg.mentioned, msg.mention_roles, msg.mention_everyone = self._mentioned(
            msg.content, msg.allowed_mentions, self.guilds.get(msg.guild_id)
        )
        msg.flags &= ~LOADING
        if not msg.ephemeral:
            self.dispatch("MESSAGE_UPDATE", msg.payload(), intent=INTENT_GUILD_MESSAGES)
        self.changed()

    def delete_message(self, msg: StoredMessage | int, *, by: Member | None = None) -> None:
        """Delete a message, as the bot or as a user did (the bot gets MESSAGE_DELETE)."""
        msg = self.messages[msg] if isinstance(msg, int) else msg
        if msg.deleted:
            return
        msg.deleted = True
        msg.deleted_by = by.id if by else self.bot_user.id
        if msg.pinned:
            self._set_pinned(msg, False, notify=False)
        if not msg.ephemeral:
            self.dispatch(
                "MESSAGE_DELETE",
                {
                    "id": str(msg.id),
                    "channel_id": str(msg.channel_id),
                    "guild_id": str(msg.guild_id),
                },
                intent=INTENT_GUILD_MESSAGES,
            )
        self.changed()

    def _set_pinned(
        self, msg: StoredMessage, pinned: bool, *, notify: bool = True, by: User | None = None
    ) -> None:
        channel = self._channel_by_id(msg.channel_id)
        assert channel is not None
        pins = self.pins.setdefault(msg.channel_id, [])
        now = datetime.now(UTC)
        if pinned and not msg.pinned:
            msg.pinned, msg.pinned_at = True, now
            pins.insert(0, msg.id)
            channel.last_pin_at = now
            if self.pin_notices:
                self.create_message(
                    channel,
                    by or self.bot_user,
                    {
                        "content": "",
                        "message_reference": {"message_id": msg.id, "channel_id": channel.id},
                    },
                    type=CHANNEL_PINNED_MESSAGE,
                )
        elif not pinned and msg.pinned:
            msg.pinned, msg.pinned_at = False, None
            if msg.id in pins:
                pins.remove(msg.id)
        else:
            return
        if not msg.ephemeral and not msg.deleted:
            self.dispatch("MESSAGE_UPDATE", msg.payload(), intent=INTENT_GUILD_MESSAGES)
        self.dispatch(
            "CHANNEL_PINS_UPDATE",
            {
                "guild_id": str(msg.guild_id),
                "channel_id": str(channel.id),
                "last_pin_timestamp": iso(channel.last_pin_at) if channel.last_pin_at else None,
            },
            intent=INTENT_GUILDS,
        )
        self.changed()

    def pin_message(self, msg: StoredMessage | int, *, by: Member | None = None) -> None:
        """Pin a message as a user would."""
        msg = self.messages[msg] if isinstance(msg, int) else msg
        self._set_pinned(msg, True, by=by.user if by else None)

    def unpin_message(self, msg: StoredMessage | int, *, by: Member | None = None) -> None:
        """Unpin a message as a user would (the bot gets CHANNEL_PINS_UPDATE)."""
        msg = self.messages[msg] if isinstance(msg, int) else msg
        self._set_pinned(msg, False)

    def set_preferred_locale(self, locale: str, guild: Guild | None = None) -> None:
        """Change a server's language as its owner does in Server Settings; the bot gets GUILD_UPDATE."""
        guild = guild or self.guild
        guild.preferred_locale = locale
        session = self._session_for(guild.id)
        if session is not None:  # GUILD_UPDATE carries the guild as `id`, not `guild_id`
            self.stats.dispatches += 1
            session.dispatch("GUILD_UPDATE", guild.payload())

    def speak(self, locale: str) -> None:
        """Make every guild prefer this locale and every person's client use it (`--locale de`)."""
        for guild in self.guilds.values():
            guild.preferred_locale = locale
            for member in guild.members.values():
                if not member.user.bot:
                    member.user.locale = locale

    def post_user_message(
        self, member: Member | str, channel: Channel | str, content: str
    ) -> StoredMessage:
        """Post a plain message as a user."""
        member, channel = self.member(member), self.channel(channel)
        return self.create_message(channel, member.user, {"content": content})

    # ------------------------------------------------------------------ interactions

    def dispatch_interaction(
        self,
        *,
        member: Member,
        channel: Channel,
        type: int,
        data: dict[str, Any],
        label: str,
        message: StoredMessage | None = None,
        locale: str | None = None,
        session_id: str | None = None,
    ) -> InteractionRecord:
        """Send INTERACTION_CREATE for a user's action and return its record.

        `session_id` delivers it to that session instead of the one its shard routes to,
        as when two processes overlap on one shard. `locale` is the user's client language
        (default: the user's own), `guild_locale` the server's preferred one.
        """
        if self.session is None:
            raise SandboxError("no bot has connected to the loopback Discord yet")
        guild = self.guild_of(channel)
        member = guild.members.get(member.id, member)  # the same person, as this guild's member
        interaction_id = self.ids.next()
        token = f"aW50ZXJhY3Rpb246{interaction_id}:{secrets.token_urlsafe(48)}"
        payload = self._interaction_payload(
            interaction_id, token, member, channel, type, data, locale
        )
        if message is not None:
            payload["message"] = message.payload()
        loop = asyncio.get_running_loop()
        record = InteractionRecord(
            id=interaction_id,
            token=token,
            type=type,
            member=member,
            channel=channel,
            data=data,
            payload=payload,
            label=label,
            created=loop.time(),
            source_message_id=message.id if message else None,
            rest_mark=len(self.calls),
            responded=loop.create_future(),
        )
        self.interactions[interaction_id] = record
        self._by_token[token] = record
        if session_id is None:
            self.dispatch("INTERACTION_CREATE", payload, record=record)
        else:
            self.stats.dispatches += 1
            self._sessions[session_id].dispatch("INTERACTION_CREATE", payload, record)
        return record

    def _interaction_payload(
        self,
        interaction_id: int,
        token: str,
        member: Member,
        channel: Channel,
        type: int,
        data: dict[str, Any],
        locale: str | None,
    ) -> dict[str, Any]:
        """Return INTERACTION_CREATE's payload as Discord builds it, in a guild or a DM.

        A DM's payload is built as the first guild's and then made a DM's (`_in_dm`).
        """
        guild = self.guild_of(channel)
        bot_member = guild.members[self.bot_user.id]
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": type,
            "data": data,
            "guild_id": str(guild.id),
            "guild": {"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
            "channel_id": str(channel.id),
            "channel": guild.channel_payload_for(member, channel),
            "member": member.payload()
            | {"permissions": str(guild.channel_permissions(member, channel))},
            "token": token,
            "version": 1,
            "app_permissions": str(guild.channel_permissions(bot_member, channel)),
            "locale": locale or member.user.locale,
            "guild_locale": guild.preferred_locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0,
            "attachment_size_limit": self.attachment_size_limit,
        }
        if channel.is_dm:
            payload = self._in_dm(payload, member, channel)
        return payload

    def _in_dm(self, payload: dict[str, Any], member: Member, channel: Channel) -> dict[str, Any]:
        """Make an interaction one from a DM with the bot: a user, no member, no server."""
        dropped = ("guild_id", "guild", "member", "guild_locale")
        return {k: v for k, v in payload.items() if k not in dropped} | {
            "user": member.user.payload(),
            "channel": channel.payload(self.guild.id),
            "app_permissions": str(DM_APP_PERMISSIONS),
            "authorizing_integration_owners": {"0": "0"},  # the guild install, in the bot's DM
            "context": 1,  # BOT_DM
        }

    def interaction_messages(self, record: InteractionRecord) -> list[StoredMessage]:
        """Return the original response (if any) and the followups, in order."""
        ids = (
            [record.original_message_id] if record.original_message_id else []
        ) + record.followup_ids
        return [self.messages[i] for i in dict.fromkeys(ids)]

    # ------------------------------------------------------------------ routes

    def _install_routes(self) -> None:
        r = self.route
        g = "/guilds/{guild_id}"
        app = "/applications/{application_id}"

        @r("GET", "/gateway")
        @r("GET", "/gateway/bot")
        async def gateway(req: _Request) -> web.Response:
            return json_response(
                {
                    "url": self.gateway_url.rstrip("/"),
                    "shards": self.recommended_shards,
                    "session_start_limit": {
                        "total": 1000,
                        "remaining": 999,
                        "reset_after": 0,
                        "max_concurrency": self.max_concurrency,
                    },
                }
            )

        @r("GET", "/users/@me")
        async def me(req: _Request) -> web.Response:
            return json_response(
                self.bot_user.payload()
                | {"verified": True, "mfa_enabled": False, "email": None, "locale": "en-US"}
            )

        @r("GET", "/oauth2/applications/@me")
        @r("GET", "/applications/@me")
        async def application(req: _Request) -> web.Response:
            return json_response(
                {
                    "id": str(self.application_id),
                    "name": self.bot_user.username,
                    "description": "Tablehand in the loopback Discord",
                    "icon": None,
                    "bot_public": False,
                    "bot_require_code_grant": False,
                    "owner": self.guild.owner.user.payload(),
                    "verify_key": "0" * 64,
                    "team": None,
                    "flags": 0,
                    "summary": "",
                    "rpc_origins": [],
                    "terms_of_service_url": None,
                    "privacy_policy_url": None,
                    "tags": [],
                    "install_params": None,
                    "custom_install_url": None,
                    "guild_id": None,
                    "approximate_guild_count": len(self.guilds),
                    "redirect_uris": [],
                    "interactions_endpoint_url": None,
                    "role_connections_verification_url": None,
                }
            )

        @r("GET", "/users/{user_id}")
        async def get_user(req: _Request) -> web.Response:
            member = (
                next(
                    (g.members[int(k)] for g in self.guilds.values() if int(k) in g.members),
                    None,
                )
                if (k := req.vars["user_id"]).isdigit()
                else None
            )
            if member is None:
                raise _Reply(404, UNKNOWN_USER)
            return json_response(member.user.payload())

        # -- guild

        def guild_or_404(req: _Request) -> Guild:
            guild_id = req.vars["guild_id"]
            guild = self.guilds.get(int(guild_id)) if guild_id.isdigit() else None
            if guild is None:
                raise _Reply(404, UNKNOWN_GUILD)
            return guild

        @r("GET", g)
        async def get_guild(req: _Request) -> web.Response:
            data = guild_or_404(req).payload()
            for key in ("members", "channels", "threads", "presences", "voice_states"):
                data.pop(key, None)
            return json_response(data)

        @r("GET", g + "/channels")
        async def guild_channels(req: _Request) -> web.Response:
            guild = guild_or_404(req)
            return json_response(
                [c.payload(guild.id) for c in guild.channels.values() if not c.is_thread]
            )

        @r("GET", g + "/threads/active")
        async def active_threads(req: _Request) -> web.Response:
            guild = guild_or_404(req)
            return json_response(
                {"threads": [c.payload(guild.id) for c in guild.threads()], "members": []}
            )

        @r("GET", g + "/roles")
        async def guild_roles(req: _Request) -> web.Response:
            return json_response([role.payload() for role in guild_or_404(req).roles.values()])

        @r("GET", g + "/members")
        async def guild_members(req: _Request) -> web.Response:
            members = sorted(guild_or_404(req).members.values(), key=lambda m: m.id)
            after = int(req.query.get("after", 0))
            limit = int(req.query.get("limit", 1))
            return json_response([m.payload() for m in members if m.id > after][:limit])

        @r("GET", g + "/members/{user_id}")
        async def guild_member(req: _Request) -> web.Response:
            guild = guild_or_404(req)
            member = (
                guild.members.get(int(req.vars["user_id"]))
                if req.vars["user_id"].isdigit()
                else None
            )
            if member is None:
                raise _Reply(404, UNKNOWN_MEMBER)
            return json_response(member.payload())

        # -- commands

        def scope_of(req: _Request) -> int | None:
            if req.vars["application_id"] != str(self.application_id):
                raise _Reply(403, MISSING_ACCESS)
            if "guild_id" in req.vars:
                return guild_or_404(req).id
            return None

        def stored_command(scope: int | None, cmd: dict[str, Any]) -> dict[str, Any]:
            kind = int(cmd.get("type", 1))
            key = (scope, cmd["name"], kind)
            command_id = self._command_ids.setdefault(key, self.ids.next())
            data = dict(cmd) | {
                "id": str(command_id),
                "application_id": str(self.application_id),
                "version": str(self.ids.next()),
                "type": kind,
                "default_member_permissions": cmd.get("default_member_permissions"),
                "nsfw": bool(cmd.get("nsfw", False)),
                "contexts": cmd.get("contexts"),
                "integration_types": cmd.get("integration_types") or [0],
                "description": cmd.get("description", ""),
            }
            if scope is not None:
                data["guild_id"] = str(scope)
            return data

        @r("GET", app + "/commands")
        @r("GET", app + g + "/commands")
        async def list_commands(req: _Request) -> web.Response:
            return json_response(list(self.commands.get(scope_of(req), {}).values()))

        @r("PUT", app + "/commands")
        @r("PUT", app + g + "/commands")
        async def overwrite_commands(req: _Request) -> web.Response:
            scope = scope_of(req)
            body = req.body or []
            problem = check_commands(body)
            if problem:
                raise _Reply(400, problem)
            self.commands[scope] = {c["name"]: stored_command(scope, c) for c in body}
            log.info(
                "synced %d command(s) to %s",
                len(body),
                "global" if scope is None else f"guild {scope}",
            )
            return json_response(list(self.commands[scope].values()))

        @r("POST", app + "/commands")
        @r("POST", app + g + "/commands")
        async def upsert_command(req: _Request) -> web.Response:
            scope = scope_of(req)
            problem = check_commands([req.body])
            if problem:
                raise _Reply(400, problem)
            data = stored_command(scope, req.body)
            created = data["name"] not in self.commands.get(scope, {})
            self.commands.setdefault(scope, {})[data["name"]] = data
            return json_response(data, 201 if created else 200)

        def command_or_404(req: _Request) -> tuple[int | None, dict[str, Any]]:
            scope = scope_of(req)
            for cmd in self.commands.get(scope, {}).values():
                if cmd["id"] == req.vars["command_id"]:
                    return scope, cmd
            raise _Reply(404, UNKNOWN_COMMAND)

        @r("GET", app + "/commands/{command_id}")
        @r("GET", app + g + "/commands/{command_id}")
        async def get_command(req: _Request) -> web.Response:
            return json_response(command_or_404(req)[1])

        @r("PATCH", app + "/commands/{command_id}")
        @r("PATCH", app + g + "/commands/{command_id}")
        async def edit_command(req: _Request) -> web.Response:
            _, cmd = command_or_404(req)
            cmd.update(req.body or {})
            return json_response(cmd)

        @r("DELETE", app + "/commands/{command_id}")
        @r("DELETE", app + g + "/commands/{command_id}")
        async def delete_command(req: _Request) -> web.Response:
            scope, cmd = command_or_404(req)
            del self.commands[scope][cmd["name"]]
            return no_content()

        # -- channels and messages

        @r("GET", "/channels/{channel_id}")
        async def get_channel(req: _Request) -> web.Response:
            return json_response(
                (channel := self._channel_or_404(req.vars["channel_id"])).payload(
                    self.guild_of(channel).id
                )
            )

        @r("POST", "/channels/{channel_id}/typing")
        async def typing(req: _Request) -> web.Response:
            self._channel_or_404(req.vars["channel_id"])
            return no_content()

        @r("GET", "/channels/{channel_id}/messages/pins")
        async def list_pins(req: _Request) -> web.Response:
            channel = self._channel_or_404(req.vars["channel_id"])
            self._require(channel, READ_HISTORY)
            pinned = self.pinned(channel)
            before = req.query.get("before")
            if before:
                cutoff = datetime.fromisoformat(before)
                pinned = [m for m in pinned if m.pinned_at and m.pinned_at < cutoff]
            limit = int(req.query.get("limit", 50))
            items = [
                {"pinned_at": iso(m.pinned_at), "message": m.payload()}
                for m in pinned[:limit]
                if m.pinned_at
            ]
            return json_response({"items": items, "has_more": len(pinned) > limit})

        @r("PUT", "/channels/{channel_id}/messages/pins/{message_id}")
        async def pin(req: _Request) -> web.Response:
            channel = self._channel_or_404(req.vars["channel_id"])
            msg = self._message_or_404(channel, req.vars["message_id"])
            self._require(channel, PIN)
            if not msg.pinned and len(self.pins.get(channel.id, [])) >= 50:
                raise _Reply(400, MAX_PINS)
            self._set_pinned(msg, True)
            return no_content()

        @r("DELETE", "/channels/{channel_id}/messages/pins/{message_id}")
        async def unpin(req: _Request) -> web.Response:
            channel = self._channel_or_404(req.vars["channel_id"])
            msg = self._message_or_404(channel, req.vars["message_id"])
            self._require(channel, PIN)
            self._set_pinned(msg, False)
            return no_content()

        # Discord's pre-2025 pin routes, which discord.py 2.7 no longer calls.
        @r("GET", "/channels/{channel_id}/pins")
        async def legacy_pins(req: _Request) -> web.Response:
            channel = self._channel_or_404(req.vars["channel_id"])
            return json_response([m.payload() for m in self.pinned(channel)])

        @r("POST", "/channels/{channel_id}/messages/bulk-delete")
        async def bulk_delete(req: _Request) -> web.Response:
            channel = self._channel_or_404(req.vars["channel_id"])
            self._require(channel, MANAGE_MESSAGES)
            for message_id in (req.body or {}).get("messages", []):
                msg = self.messages.get(int(message_id))
                if msg is not None and msg.channel_id == channel.id:
                    self.delete_message(msg)
            return no_content()

        @r("GET", "/channels/{channel_id}/messages")
        async def history(req: _Request) -> web.Response:
            channel = self._channel_or_404(req.vars["channel_id"])
            self._require(channel, READ_HISTORY)
            msgs = [m for m in self.channel_log(channel) if not m.ephemeral]
            if "before" in req.query:
                msgs = [m for m in msgs if m.id < int(req.query["before"])]
            if "after" in req.query:
                msgs = [m for m in msgs if m.id > int(req.query["after"])]
            limit = min(int(req.query.get("limit", 50)), 100)
            if "after" in req.query:
                msgs = msgs[:limit]
            else:
                msgs = msgs[-limit:]
            return json_response([m.payload() for m in reversed(msgs)])

        @r("POST", "/channels/{channel_id}/messages")
        async def send(req: _Request) -> web.Response:
            channel = self._channel_or_404(req.vars["channel_id"])
            self._require(channel, SEND_IN_THREADS if channel.is_thread else SEND)
            body = dict(req.body or {})
            if req.files:
                body.setdefault("attachments", [])
            problem = check_message(
                body | {"attachments": req.files or body.get("attachments")}, creating=True
            )
            if problem:
                raise _Reply(400, problem)
            reference = body.get("message_reference")
            if reference and int(reference.get("message_id", 0)) not in self.messages:
                if reference.get("fail_if_not_exists", True):
                    raise _Reply(400, _error("Invalid Form Body: Unknown message", 50035))
                body.pop("message_reference")
            msg = self.create_message(channel, self.bot_user, body, files=req.files)
            return json_response(msg.payload())

        @r("GET", "/channels/{channel_id}/messages/{message_id}")
        async def get_message(req: _Request) -> web.Response:
            channel = self._channel_or_404(req.vars["channel_id"])
            self._require(channel, READ_HISTORY)
            return json_response(self._message_or_404(channel, req.vars["message_id"]).payload())

        @r("PATCH", "/channels/{channel_id}/messages/{message_id}")
        async def edit(req: _Request) -> web.Response:
            channel = self._channel_or_404(req.vars["channel_id"])
            msg = self._message_or_404(channel, req.vars["message_id"])
            if msg.author.id != self.bot_user.id:
                raise _Reply(403, CANNOT_EDIT_OTHERS)
            problem = check_message(req.body or {}, creating=False)
            if problem:
                raise _Reply(400, problem)
            self.edit_message(msg, req.body or {}, req.files)
            return json_response(msg.payload())

        @r("DELETE", "/channels/{channel_id}/messages/{message_id}")
        async def delete(req: _Request) -> web.Response:
            channel = self._channel_or_404(req.vars["channel_id"])
            msg = self._message_or_404(channel, req.vars["message_id"])
            if msg.author.id != self.bot_user.id:
                self._require(channel, MANAGE_MESSAGES)
            self.delete_message(msg)
            return no_content()

        @r("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me")
        async def react(req: _Request) -> web.Response:
            channel = self._channel_or_404(req.vars["channel_id"])
            msg = self._message_or_404(channel, req.vars["message_id"])
            msg.reactions.setdefault(req.vars["emoji"], set()).add(self.bot_user.id)
            return no_content()

        @r("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me")
        async def unreact(req: _Request) -> web.Response:
            channel = self._channel_or_404(req.vars["channel_id"])
            msg = self._message_or_404(channel, req.vars["message_id"])
            msg.reactions.get(req.vars["emoji"], set()).discard(self.bot_user.id)
            return no_content()

        async def start_thread(req: _Request, starter: StoredMessage | None) -> web.Response:
            parent = self._channel_or_404(req.vars["channel_id"])
            if parent.is_thread:
                raise _Reply(400, _error("Cannot start a thread in a thread", 50024))
            name = (req.body or {}).get("name") or "thread"
            guild = self.guild_of(parent)
            thread = guild.add_thread(
                name, parent=parent, owner_id=self.bot_user.id, id=starter.id if starter else None
            )
            data = thread.payload(guild.id)
            self.dispatch("THREAD_CREATE", data | {"newly_created": True}, intent=INTENT_GUILDS)
            return json_response(data, 201)

        @r("POST", "/channels/{channel_id}/threads")
        async def thread_without_message(req: _Request) -> web.Response:
            return await start_thread(req, None)

        @r("POST", "/channels/{channel_id}/messages/{message_id}/threads")
        async def thread_from_message(req: _Request) -> web.Response:
            channel = self._channel_or_404(req.vars["channel_id"])
            return await start_thread(req, self._message_or_404(channel, req.vars["message_id"]))

        # -- interactions

        @r("POST", "/interactions/{interaction_id}/{interaction_token}/callback")
        async def callback(req: _Request) -> web.Response:
            return self._callback(req)

        def record_for(req: _Request) -> InteractionRecord:
            record = self._by_token.get(req.vars["webhook_token"])
            if record is None or req.vars["webhook_id"] != str(self.application_id):
                raise _Reply(404, UNKNOWN_WEBHOOK)
            return record

        def webhook_message(record: InteractionRecord, message_id: str) -> StoredMessage:
            target = (
                record.original_message_id
                if message_id == "@original"
                else (int(message_id) if message_id.isdigit() else None)
            )
            allowed = {record.original_message_id, *record.followup_ids}
            msg = self.messages.get(target) if target in allowed and target is not None else None
            if msg is None or msg.deleted:
                raise _Reply(404, UNKNOWN_MESSAGE)
            return msg

        @r("POST", "/webhooks/{webhook_id}/{webhook_token}")
        async def followup(req: _Request) -> web.Response:
            record = record_for(req)
            if not record.callbacks or record.response_type in (8, 9):
                raise _Reply(404, UNKNOWN_WEBHOOK)
            body = dict(req.body or {})
            problem = check_message(
                body | {"attachments": req.files or body.get("attachments")}, creating=True
            )
            if problem:
                raise _Reply(400, problem)
            original = self.messages.get(record.original_message_id or 0)
            if original is not None and original.loading and not record.followup_ids:
                # The first followup after a "thinking" defer replaces the loading message [Discord].
                body.pop("flags", None)
                self.edit_message(original, body, req.files)
                msg = original
            else:
                msg = self.create_message(
                    record.channel, self.bot_user, body, files=req.files, interaction=record
                )
                record.followup_ids.append(msg.id)
            self.changed()
            if req.query.get("wait") in ("1", "true", "True"):
                return json_response(msg.payload())
            return no_content()

        @r("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
        async def get_webhook_message(req: _Request) -> web.Response:
            record = record_for(req)
            return json_response(webhook_message(record, req.vars["message_id"]).payload())

        @r("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
        async def edit_webhook_message(req: _Request) -> web.Response:
            record = record_for(req)
            msg = webhook_message(record, req.vars["message_id"])
            problem = check_message(req.body or {}, creating=False)
            if problem:
                raise _Reply(400, problem)
            self.edit_message(msg, req.body or {}, req.files)
            return json_response(msg.payload())

        @r("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
        async def delete_webhook_message(req: _Request) -> web.Response:
            record = record_for(req)
            self.delete_message(webhook_message(record, req.vars["message_id"]))
            return no_content()

    def _callback(self, req: _Request) -> web.Response:
        interaction_id = req.vars["interaction_id"]
        record = self.interactions.get(int(interaction_id)) if interaction_id.isdigit() else None
        if record is None or record.token != req.vars["interaction_token"]:
            raise _Reply(404, UNKNOWN_INTERACTION)
        loop = asyncio.get_running_loop()
        if (
            self.response_deadline is not None
            and loop.time() - record.created > self.response_deadline
        ):
            log.warning(
                "%s answered after %.2fs: Unknown interaction",
                record.label,
                loop.time() - record.created,
            )
            raise _Reply(404, UNKNOWN_INTERACTION)
        if record.callbacks:
            raise _Reply(400, ALREADY_ACKNOWLEDGED)
        body = req.body or {}
        kind = int(body.get("type", 0))
        data = body.get("data") or {}
        allowed = {
            APPLICATION_COMMAND: {4, 5, 9},
            MESSAGE_COMPONENT: {4, 5, 6, 7, 9},
            AUTOCOMPLETE: {8},
            MODAL_SUBMIT: {4, 5, 6, 7},
        }[record.type]
        if kind not in allowed:
            raise _Reply(
                400,
                _error(f"Interaction callback type {kind} is invalid for this interaction", 50035),
            )

        message = self._take_callback(record, kind, data, req.files)

        cb = Callback(kind, data, loop.time(), received=req.received)
        record.callbacks.append(cb)
        if record.responded is not None and not record.responded.done():
            record.responded.set_result(cb)
        interaction = {
            "id": str(record.id),
            "type": record.type,
            "activity_instance_id": None,
            "response_message_id": str(message.id) if message else None,
            "response_message_loading": bool(message and message.loading),
            "response_message_ephemeral": bool(message and message.ephemeral),
        }
        response: dict[str, Any] = {"interaction": interaction}
        if message is not None:
            response["resource"] = {"type": kind, "message": message.payload()}
        elif kind in (8, 9):
            response["resource"] = {"type": kind}
        return json_response(response)

    def _take_callback(
        self,
        record: InteractionRecord,
        kind: int,
        data: dict[str, Any],
        files: list[dict[str, Any]],
    ) -> StoredMessage | None:
        """Apply an interaction's answer by its kind; return the message it made or edited."""
        message: StoredMessage | None = None
        if kind in (4, 5):
            attached = files if kind == 4 else []  # a response may be a file alone [Discord]
            problem = check_message(
                data | {"attachments": attached} if attached else data, creating=kind == 4
            )
            if problem:
                raise _Reply(400, problem)
            flags = LOADING if kind == 5 else 0
            msg_type = CHAT_INPUT_COMMAND if record.type == APPLICATION_COMMAND else DEFAULT
            message = self.create_message(
                record.channel,
                self.bot_user,
                data if kind == 4 else {"flags": data.get("flags", 0)},
                files=files if kind == 4 else None,
                type=msg_type,
                interaction=record,
                extra_flags=flags,
            )
            record.original_message_id = message.id
        elif kind in (6, 7):
            message = self.messages.get(record.source_message_id or 0)
            if message is None or message.deleted:
                raise _Reply(404, UNKNOWN_MESSAGE)
            record.original_message_id = message.id
            if kind == 7:
                problem = check_message(data, creating=False)
                if problem:
                    raise _Reply(400, problem)
                self.edit_message(message, data, files)
        elif kind == 8:
            choices = data.get("choices") or []
            problem = check_choices(choices)
            if problem:
                raise _Reply(400, problem)
            record.choices = choices
        elif kind == 9:
            problem = check_modal(data)
            if problem:
                raise _Reply(400, problem)
            record.modal = data
        return message

    # ------------------------------------------------------------------ world

    def add_tables(self, count: int) -> list[Channel]:
        """Add `count` more table channels (e.g. 100 for a load test); a running bot gets CHANNEL_CREATE."""
        added = [self.guild.add_table() for _ in range(count)]
        for channel in added:
            self.dispatch("CHANNEL_CREATE", channel.payload(self.guild.id), intent=INTENT_GUILDS)
        return added

    def add_member(self, username: str, *, roles: Iterable[str] = ()) -> Member:
        """Add a person (e.g. a third player) with named roles; a running bot gets GUILD_MEMBER_ADD."""
        role_ids = []
        for name in roles:
            role = self.guild.role_named(name)
            if role is None:
                raise SandboxError(f"no role {name!r}")
            role_ids.append(role.id)
        member = self.guild.add_member(username, global_name=username.capitalize(), roles=role_ids)
        self.dispatch(
            "GUILD_MEMBER_ADD",
            member.payload() | {"guild_id": str(self.guild.id)},
            intent=INTENT_MEMBERS,
        )
        return member

    def give_role(self, member: Member | str, role: str) -> None:
        """Give a member a role (e.g. the GM role); a running bot gets GUILD_MEMBER_UPDATE."""
        member = self.member(member)
        found = self.guild.role_named(role)
        if found is None:
            raise SandboxError(f"no role {role!r}")
        if found.id not in member.roles:
            member.roles.append(found.id)
        self.dispatch(
            "GUILD_MEMBER_UPDATE",
            member.payload() | {"guild_id": str(self.guild.id)},
            intent=INTENT_MEMBERS,
        )


class _Reply(Exception):
    """Answer the current REST call with this status and Discord error body."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(body.get("message"))
        self.status, self.body = status, body


def _reference(
    reference: dict[str, Any] | None, channel: Channel, guild: Guild | None
) -> dict[str, Any] | None:
    """Return a reply's message reference as Discord stores it (None: not a reply)."""
    if not reference:
        return None
    stored = {
        "type": 0,
        "message_id": str(reference.get("message_id")),
        "channel_id": str(reference.get("channel_id") or channel.id),
    }
    if guild is not None:
        stored["guild_id"] = str(guild.id)
    return stored
