"""Several bot processes on one PostgreSQL database, each serving its gateway shards (issue 21).

The loopback Discord has four guilds; with two shards, guilds 1 and 3 are on shard 0 and
guilds 2 and 4 on shard 1 (`(guild_id >> 22) % 2`). Every bot is `python -m bot run` with
TABLEHAND_DATABASE_URL pointing at a fresh database on a real PostgreSQL server, and
leases of two seconds, so a dead process's shards are taken over within seconds.
"""

from __future__ import annotations

import asyncio
import json
import re
import signal
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.rules.models import Encounter
from bot.sandbox.client import InteractionResult, SandboxTable
from bot.sandbox.harness import BotProcess
from bot.sandbox.server import LoopbackDiscord, shard_of
from bot.sandbox.world import Channel
from tests.e2e.helpers import offers_defense
from tests.e2e.invariants import tracker_shows

pytestmark = pytest.mark.e2e

LEASE_SECONDS = 2
RESOLVED = re.compile(r" — (Hit|Miss|Critical hit)$")


@dataclass
class Deployment:
    """A loopback Discord of four guilds, a PostgreSQL database, and the bot processes on it."""

    server: LoopbackDiscord
    database_url: str
    directory: Path
    processes: list[BotProcess] = field(default_factory=list)

    async def start(
        self, name: str, *, shards: str | None = None, count: int = 2, connect: bool = True
    ) -> BotProcess:
        env = {
            "TABLEHAND_DATABASE_URL": self.database_url,
            "TABLEHAND_SHARD_COUNT": str(count),
            "TABLEHAND_SHARD_LEASE_SECONDS": str(LEASE_SECONDS),
        }
        if shards is not None:
            env["TABLEHAND_SHARD_IDS"] = shards
        process = await BotProcess.start(
            self.server, env=env, log_path=self.directory / f"{name}.log", connect=connect
        )
        self.processes.append(process)
        return process

    def table_of(self, shard: int, count: int = 2, nth: int = 0) -> Channel:
        """Return `table-1` of the nth guild on a shard."""
        guilds = [g for g in self.server.guilds.values() if shard_of(g.id, count) == shard]
        return guilds[nth].text_channels()[0]

    async def serving(self, expected: dict[int, int]) -> None:
        """Wait until exactly these shards have live sessions (shard → sessions)."""
        await self.server.wait_until(
            lambda: self.server.connected_shards() == expected,
            timeout=20,
            describe=lambda: f"live shards {self.server.connected_shards()}, wanted {expected}",
        )

    async def stored(self, sql: str, *args: object) -> list[tuple]:
        import asyncpg

        conn = await asyncpg.connect(self.database_url)
        try:
            return [tuple(row) for row in await conn.fetch(sql, *args)]
        finally:
            await conn.close()


@pytest.fixture
async def deployment(postgres_url: str, tmp_path: Path) -> AsyncIterator[Deployment]:
    async with LoopbackDiscord(guilds=4) as server:
        world = Deployment(server, postgres_url, tmp_path)
        try:
            yield world
        finally:
            for process in world.processes:
                await process.stop()


async def test_two_processes_each_serving_half_the_shards_play_concurrent_fights_exactly(
    deployment: Deployment,
) -> None:
    """Two shard processes on one database lost or doubled an update in concurrent fights, or
    100 concurrent `/grit damage 1` delivered to both processes on one combatant lost one."""
    first = await deployment.start("first", shards="0")
    second = await deployment.start("second", shards="1")
    await deployment.serving({0: 1, 1: 1})
    server = deployment.server
    table = SandboxTable(server, timeout=20)
    gm = table.user("gm")
    tables = [g.text_channels()[0] for g in server.guilds.values()]

    async def set_up(channel: Channel) -> None:
        assert not (await gm.run("/init start", channel=channel)).ephemeral
        await gm.run("/init add name:Ogre grit:500 max_grit:999", channel=channel)
        await gm.run("/init add name:Imp count:2", channel=channel)

    await asyncio.gather(*(set_up(channel) for channel in tables))
    # Four fights at once, two on each process: 30 × 1 damage on the Ogre, 10 × 2 on Imp 1.
    fights = [
        gm.send_command(line, channel=channel)
        for channel in tables
        for line in ["/grit damage combatant:Ogre amount:1"] * 30
        + ["/grit damage combatant:Imp 1 amount:2"] * 10
    ]
    answers = await asyncio.gather(*(reply.responded() for reply in fights))
    assert all(not a.ephemeral for a in answers), [a.text for a in answers if a.ephemeral][:3]
    for channel in tables:
        listed = (await gm.run("/init list", channel=channel)).text
        assert "470/999" in listed and "10/30" in listed, listed

    # Both processes on one combatant: half the commands go to the other shard's process,
    # as Discord would deliver them to two sessions overlapping on one shard.
    contested = deployment.table_of(0)
    sessions = [server.live_session(0), server.live_session(1)]
    damages = [
        gm.send_command(
            "/grit damage combatant:Ogre amount:1", channel=contested, session_id=sessions[n % 2]
        )
        for n in range(100)
    ]
    answers = await asyncio.gather(*(reply.responded() for reply in damages))
    assert all(not a.ephemeral for a in answers), [a.text for a in answers if a.ephemeral][:3]
    assert "370/999" in (await gm.run("/init list", channel=contested)).text
    (grit,) = await deployment.stored(
        "SELECT (data::jsonb -> 'combatants' -> 0 ->> 'grit')::int FROM encounters"
        " WHERE channel_id = $1",
        contested.id,
    )
    assert grit == (370,)
    assert "serving shards [0] of 2" in first.log_path.read_text()
    assert "serving shards [1] of 2" in second.log_path.read_text()
    assert "[shard 1]" in second.log_path.read_text()


async def pending_attack(table: SandboxTable, channel: Channel, n: int) -> InteractionResult:
    """Attack the Goblin with a fresh striker: an attack that waits for its defense.

    The turns have not begun, so the GM forces it; and whatever its dice, an attack on a
    defender who may choose waits for the choice [GAME.md §10].
    """
    name = f"Striker{n}"
    await table.user("alice").run(f"/init join character:{name}", channel=channel)
    command = f"/attack target:Goblin attacker:{name} force:true"
    reply = await table.user("gm").run(command, channel=channel)
    assert any(b.get("label") == "Dodge" for b in reply.buttons), reply.text
    return reply


async def resolutions(deployment: Deployment, prompt: InteractionResult) -> tuple[int, int]:
    """Return how often an attack was resolved: result messages shown, attack lines logged."""
    channel = prompt.record.channel
    title = (prompt.embed or {}).get("title", "").split(" — ")[0]
    shown = [
        m
        for m in deployment.server.channel_log(channel)
        if any(
            e.get("title", "").startswith(title) and RESOLVED.search(e.get("title", ""))
            for e in m.embeds
        )
    ]
    logged = await deployment.stored(
        "SELECT text FROM encounter_log WHERE channel_id = $1 AND text LIKE $2",
        channel.id,
        f"%{title} (%",  # after the line's kind (`attack`), the store's one text column
    )
    return len(shown), len(logged)


async def test_a_killed_process_s_shards_are_taken_over_and_its_defenses_resolve_once(
    deployment: Deployment,
) -> None:
    """A SIGKILLed process's shard was not taken over, or a defense it was waiting for was
    lost or resolved twice."""
    doomed = await deployment.start("doomed", shards="0")
    await deployment.start("survivor", shards="1")
    await deployment.serving({0: 1, 1: 1})
    table = SandboxTable(deployment.server, timeout=20)
    gm, admin = table.user("gm"), table.user("admin")
    channel = deployment.table_of(0)
    await admin.run("/settings defense_timeout seconds:5", channel=channel)
    await gm.run("/init start", channel=channel)
    await gm.run("/init add name:Goblin grit:500 max_grit:999", channel=channel)
    by_timer = await pending_attack(table, channel, 1)
    await admin.run("/settings defense_timeout seconds:120", channel=channel)
    by_click = await pending_attack(table, channel, 2)
    # Elsewhere on the shard, a tracker edit is still waiting out its second when the process
    # dies: only the takeover's catch-up can bring that tracker to the stored state.
    quiet = deployment.table_of(0, nth=1)
    await gm.run("/init start", channel=quiet)
    await table.user("alice").run("/init join character:Mira grit:30", channel=quiet)
    await gm.run("/grit damage combatant:Mira amount:1", channel=quiet)
    await gm.run("/grit damage combatant:Mira amount:2", channel=quiet)
    killed_session = deployment.server.live_session(0)

    assert await doomed.kill() != 0
    pinned = deployment.server.pinned(quiet)[0]
    assert "27/30" not in json.dumps(pinned.embeds)  # the dead process never showed it
    await deployment.server.wait_until(
        lambda: deployment.server.live_session(0) not in (None, killed_session),
        timeout=20,
        describe="nobody took over shard 0",
    )
    clicked = await by_click.click("Dodge", as_user="gm")
    assert not clicked.ephemeral and clicked.embed is not None, clicked.text
    prompt = by_timer.message
    assert prompt is not None
    await table.channel(channel).wait_for(
        lambda ch: not offers_defense(prompt), timeout=20, what="the timed-out prompt closed"
    )
    assert await resolutions(deployment, by_timer) == (1, 1)
    assert await resolutions(deployment, by_click) == (1, 1)
    (pending,) = await deployment.stored(
        "SELECT pending FROM encounters WHERE channel_id = $1", channel.id
    )
    assert pending == (False,)
    ((data,),) = await deployment.stored(
        "SELECT data FROM encounters WHERE channel_id = $1", quiet.id
    )
    stored = Encounter.model_validate_json(data)
    assert stored.combatants[0].grit == 27
    await table.channel(quiet).wait_for(
        lambda ch: tracker_shows(pinned, stored), timeout=20, what="the tracker caught up"
    )
    # The answered prompt offers no defense any more (a natural 1 may leave it a Counter: a
    # bot process rolls its own dice).
    assert by_click.message is not None
    assert not offers_defense(by_click.message), by_click.message.buttons


async def test_a_rolling_restart_resolves_every_attack_exactly_once(
    deployment: Deployment,
) -> None:
    """Old and new process overlapping in a rolling restart resolved an attack twice or never."""
    old = await deployment.start("old")  # wants every shard, and gets them
    await deployment.serving({0: 1, 1: 1})
    table = SandboxTable(deployment.server, timeout=20)
    gm, admin = table.user("gm"), table.user("admin")
    prompts: list[tuple[InteractionResult, str]] = []
    for shard in (0, 1):
        channel = deployment.table_of(shard)
        await admin.run("/settings defense_timeout seconds:5", channel=channel)
        await gm.run("/init start", channel=channel)
        await gm.run("/init add name:Goblin grit:500 max_grit:999", channel=channel)
        prompts.append((await pending_attack(table, channel, 1), "timer"))
        await admin.run("/settings defense_timeout seconds:120", channel=channel)
        prompts.append((await pending_attack(table, channel, 2), "click"))
    old_sessions = {deployment.server.live_session(0), deployment.server.live_session(1)}

    new = await deployment.start("new", connect=False)  # stands by: both shards are leased
    await deployment.server.wait_until(
        lambda: "standing by" in new.log_path.read_text(), timeout=20, describe="new never ran"
    )
    assert await old.stop(signal.SIGTERM) == 0, old.log_tail()  # gives its leases back
    await deployment.server.wait_until(
        lambda: {deployment.server.live_session(0), deployment.server.live_session(1)}.isdisjoint(
            old_sessions | {None}
        ),
        timeout=20,
        describe="the new process did not take both shards",
    )
    for prompt, how in prompts:
        if how == "click":
            clicked = await prompt.click("Dodge", as_user="gm")
            assert not clicked.ephemeral and clicked.embed is not None, clicked.text
    for prompt, _ in prompts:
        message = prompt.message
        assert message is not None
        await table.channel(prompt.record.channel).wait_for(
            lambda ch, message=message: not offers_defense(message),
            timeout=20,
            what="prompt closed",
        )
    for prompt, _ in prompts:
        assert await resolutions(deployment, prompt) == (1, 1)


async def test_a_process_whose_lease_lapsed_stops_serving_that_shard(
    deployment: Deployment,
) -> None:
    """A process went on serving a shard after its lease was no longer its own."""
    await deployment.start("holder", shards="0,1")
    await deployment.serving({0: 1, 1: 1})
    # As if the process had been cut off long enough for another to take shard 1 over.
    await deployment.stored(
        "UPDATE shard_leases SET owner = 'another process', expires_at = expires_at + 3600"
        " WHERE shard_id = 1"
    )
    await deployment.serving({0: 1})
    gm = SandboxTable(deployment.server, timeout=10).user("gm")
    assert not (await gm.run("/init start", channel=deployment.table_of(0))).ephemeral


async def test_one_process_on_sqlite_serves_every_shard(tmp_path: Path) -> None:
    """One process with SQLite and TABLEHAND_SHARD_COUNT did not serve both shards' guilds."""
    async with LoopbackDiscord(guilds=2) as server:
        process = await BotProcess.start(
            server, db_path=tmp_path / "one.db", env={"TABLEHAND_SHARD_COUNT": "2"}
        )
        try:
            await server.wait_until(lambda: server.connected_shards() == {0: 1, 1: 1}, timeout=20)
            gm = SandboxTable(server, timeout=10).user("gm")
            for guild in server.guilds.values():
                channel = guild.text_channels()[0]
                assert not (await gm.run("/init start", channel=channel)).ephemeral
                assert "Ogre" in (await gm.run("/init add name:Ogre", channel=channel)).text
        finally:
            assert await process.stop() == 0, process.log_tail()
        assert "serving shards [0, 1] of 2" in process.log_path.read_text()
