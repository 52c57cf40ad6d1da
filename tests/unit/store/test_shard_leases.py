"""Shard leases and migrations in PostgreSQL: what lets several bot processes share one database."""

from __future__ import annotations

import asyncio

from bot.shards import shard_of
from bot.store.postgres import LATEST_VERSION, PostgresStore


async def test_a_live_lease_is_exclusive_and_a_lapsed_one_is_taken_over(postgres_url: str) -> None:
    """A second process took a shard another still renewed, or could not take a dead one's."""
    async with PostgresStore(postgres_url) as first, PostgresStore(postgres_url) as second:
        assert await first.claim_shards("first", [0, 1], ttl=30) == [0, 1]
        assert await second.claim_shards("second", [0, 1, 2], ttl=30) == [2]
        assert await first.renew_shards("first", ttl=30) == [0, 1]
        assert await second.lapsed_shards() == []
        # The first process dies: it stops renewing, and its leases run out.
        assert await first.claim_shards("first", [0, 1], ttl=0.2) == [0, 1]
        await asyncio.sleep(0.4)
        assert await second.lapsed_shards() == [0, 1]
        assert await second.claim_shards("second", [0, 1], ttl=30) == [0, 1]
        assert await first.renew_shards("first", ttl=30) == []  # it lost them: it must stop
        owners = {lease.shard_id: lease.owner for lease in await first.shard_leases()}
        assert owners == {0: "second", 1: "second", 2: "second"}


async def test_leases_given_back_are_free_at_once(postgres_url: str) -> None:
    """Shards given back on a clean stop were not free for the next process at once."""
    async with PostgresStore(postgres_url) as old, PostgresStore(postgres_url) as new:
        assert await old.claim_shards("old", [0, 1], ttl=30) == [0, 1]
        assert await new.claim_shards("new", [0, 1], ttl=30) == []  # a rolling restart waits
        await old.release_shards("old")
        assert await new.claim_shards("new", [0, 1], ttl=30) == [0, 1]


async def test_processes_starting_together_migrate_once(postgres_url: str) -> None:
    """Four processes opening a new database at once applied a migration twice or failed."""
    stores = [PostgresStore(postgres_url) for _ in range(4)]
    await asyncio.gather(*(store.open() for store in stores))
    try:
        rows = await stores[0].pool.fetch("SELECT version FROM schema_version ORDER BY version")
        assert [r[0] for r in rows] == list(range(1, LATEST_VERSION + 1))
    finally:
        await asyncio.gather(*(store.close() for store in stores))


async def test_a_settings_change_reaches_another_process(postgres_url: str) -> None:
    """A process kept serving the old server settings after another process changed them."""
    from bot.store import GuildSettings
    from bot.store.postgres import SETTINGS_CHANNEL

    async with PostgresStore(postgres_url) as first, PostgresStore(postgres_url) as second:
        assert (await second.settings(77)).defense_timeout == 60  # cached now
        heard = asyncio.Event()
        await second._listener.add_listener(SETTINGS_CHANNEL, lambda *_: heard.set())
        await first.update_settings(GuildSettings(guild_id=77, defense_timeout=30))
        await asyncio.wait_for(heard.wait(), 5)
        assert (await second.settings(77)).defense_timeout == 30


def test_guilds_are_on_the_shard_discord_routes_them_to() -> None:
    """The shard of a guild was not Discord's `(guild_id >> 22) % shard_count`."""
    assert shard_of(81384788765712384, 1) == 0
    assert shard_of(81384788765712384, 4) == (81384788765712384 >> 22) % 4
    assert [shard_of((ms << 22) | 5, 3) for ms in range(6)] == [0, 1, 2, 0, 1, 2]
