"""End-to-end fixtures: a loopback Discord, a bot logged in to it, and the test client.

    async def test_something(table):            # Tablehand (every cog + the probe cog)
        reply = await table.user("alice").run("/probe ping")

    async def test_other(make_table):           # choose the bot and the server options
        table = await make_table(bot="bare", rate_limits=True)

`bot` is "tablehand" (default), "probe" (a plain discord.py bot with the probe cog),
"bare" (`bot.sandbox.bare.BareBot`), or a callable `(server, tmp_path) -> Bot`.
Everything is shut down after the test: bot first, then the server.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.sandbox.bare import BareBot
from bot.sandbox.client import SandboxTable
from bot.sandbox.harness import SANDBOX_TOKEN, running_bot
from bot.sandbox.server import LoopbackDiscord
from tests.e2e.probe_cog import ProbeBot
from tests.scripted import ScriptedRandom

PROBE = "tests.e2e.probe_cog"

BotFactory = Callable[[LoopbackDiscord, Path], discord.Client]


def tablehand_bot(
    server: LoopbackDiscord,
    tmp_path: Path,
    *,
    seed: int = 1234,
    rng: random.Random | None = None,
) -> discord.Client:
    """Build the real bot: a temp database, a seeded (or the given) Random, every cog + probe."""
    from bot.app import Tablehand, cog_extensions
    from bot.config import Settings

    settings = Settings(
        discord_token=SANDBOX_TOKEN,
        db_path=tmp_path / "tablehand.db",
        api_base=server.api_base,
        gateway_url=server.gateway_url,
        guild_ids=[server.guild.id],
    )
    dice = rng if rng is not None else random.Random(seed)
    return Tablehand(
        settings,
        rng=dice,
        extensions=[*cog_extensions(), PROBE],
        sync_on_start=True,  # each test's loopback Discord is new
    )


BOTS: dict[str, BotFactory] = {
    "tablehand": tablehand_bot,
    "probe": lambda server, tmp_path: ProbeBot([server.guild.id]),
    "bare": lambda server, tmp_path: BareBot(guild_ids=[server.guild.id]),
}


@pytest.fixture
async def make_table(tmp_path: Path) -> AsyncIterator[Callable[..., Awaitable[SandboxTable]]]:
    """Return a starter: `await make_table(bot=..., **server_options)` → a ready table."""
    async with AsyncExitStack() as stack:
        clients: list[discord.Client] = []

        async def start(bot: str | BotFactory = "tablehand", **server_options: Any) -> SandboxTable:
            server = await stack.enter_async_context(LoopbackDiscord(**server_options))
            factory = BOTS[bot] if isinstance(bot, str) else bot
            client = factory(server, tmp_path)
            await stack.enter_async_context(running_bot(server, client))
            table = SandboxTable(server)
            table.bot = client  # type: ignore[attr-defined]
            clients.append(client)
            return table

        yield start
        for client in clients:  # a test's scripted dice must all have been drawn, and fitted
            if isinstance(dice := getattr(client, "rng", None), ScriptedRandom):
                dice.done()


@pytest.fixture
async def table(make_table: Callable[..., Awaitable[SandboxTable]]) -> SandboxTable:
    """A ready table with the real bot (every cog plus the probe cog)."""
    return await make_table()


@pytest.fixture
async def fast(make_table: Callable[..., Awaitable[SandboxTable]]) -> SandboxTable:
    """A table whose tracker edits are not delayed (the 1-second coalescing has its own test)."""
    table = await make_table()
    table.bot.trackers.interval = 0  # type: ignore[attr-defined]
    return table


@pytest.fixture
async def server() -> AsyncIterator[LoopbackDiscord]:
    """A bare loopback Discord with no bot."""
    async with LoopbackDiscord() as s:
        yield s


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test in this directory `e2e`."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)
