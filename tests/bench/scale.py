"""Scale-out parts: Tablehand on PostgreSQL beside SQLite, and one vs two shard processes.

PostgreSQL is `TABLEHAND_TEST_POSTGRES` (an admin URL) or a throwaway cluster started
from the machine's PostgreSQL (tests/postgres.py); each run gets a fresh database.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from bot.sandbox.harness import BotProcess
from bot.sandbox.server import LoopbackDiscord
from bot.sandbox.world import Channel
from tests import postgres
from tests.bench.load import cpu_seconds, postgres_cpu_s, run_load
from tests.bench.mix import Mix, Request, Scene, dispatch, gave_up, problem
from tests.bench.world import STORED_AGO, build_encounter, combatant_names, seed_tracker


@contextlib.asynccontextmanager
async def postgres_admin() -> AsyncIterator[str]:
    """Yield an admin URL of a PostgreSQL server: the configured one, or a throwaway cluster."""
    configured = os.environ.get(postgres.URL_VARIABLE)
    if configured:
        yield configured
        return
    cluster = postgres.start()
    try:
        yield cluster.url
    finally:
        postgres.stop(cluster.directory)


async def seed_postgres(
    url: str, server: LoopbackDiscord, channels: list[Channel], combatants: int, *, seed: int = 7
) -> None:
    """Give each channel a running encounter in PostgreSQL and its pinned tracker."""
    from bot.store.postgres import PostgresStore

    rng = random.Random(seed)
    gm = server.member("gm")
    async with PostgresStore(url) as store:
        for channel in channels:
            guild = server.guild_of(channel)
            encounter = build_encounter(channel.id, guild.id, gm.id, combatants, rng)
            seed_tracker(server, channel, encounter)
            async with store.channel(channel.id) as state:
                state.encounter = encounter
        # Dated before the start-up tracker reconciliation's window, as the SQLite seeding is.
        await store.pool.execute("UPDATE encounters SET updated_at = $1", time.time() - STORED_AGO)


async def start_on_postgres(
    server: LoopbackDiscord, url: str, log_path: Path, **env: str
) -> BotProcess:
    """Start `python -m bot run` on a PostgreSQL database."""
    await asyncio.to_thread(log_path.unlink, missing_ok=True)
    return await BotProcess.start(
        server, env={"TABLEHAND_DATABASE_URL": url, **env}, log_path=log_path
    )


async def shards(mix: Mix, opts: Any, admin_url: str) -> dict[str, Any]:
    """Offer the same load to one process serving two shards, then to two processes with one each."""
    from tests.bench.parts import summarise_load, wait_settled

    out: dict[str, Any] = {"rate": opts.shard_rate, "channels": opts.channels}
    per_guild = max(1, opts.channels // 2)
    for layout, shard_ids in (("one_process", [None]), ("two_processes", ["0", "1"])):
        async with (
            LoopbackDiscord(guilds=2, tables=per_guild) as server,
            postgres.fresh_database(admin_url) as url,
        ):
            channels = [c for g in server.guilds.values() for c in g.text_channels()]
            await seed_postgres(url, server, channels, opts.combatants)
            procs = []
            try:
                for n, ids in enumerate(shard_ids):
                    env = {"TABLEHAND_SHARD_COUNT": "2"} | (
                        {"TABLEHAND_SHARD_IDS": ids} if ids else {}
                    )
                    log = opts.workdir / f"shards-{layout}-{n}.log"
                    procs.append(await start_on_postgres(server, url, log, **env))
                await server.wait_until(
                    lambda: server.connected_shards() == {0: 1, 1: 1}, timeout=30
                )
                for proc in procs:
                    await wait_settled(server, proc)
                scenes = [Scene(c, combatant_names(opts.combatants)) for c in channels]
                others = _cpu_of_others()
                run = await run_load(
                    server,
                    scenes,
                    mix.synced(server),
                    bot="tablehand",
                    rate=opts.shard_rate,
                    duration=opts.shard_duration,
                    warmup=opts.warmup,
                    pids=[proc.pid for proc in procs],
                )
                summary = summarise_load(run, {})
                summary["cores"] = cores_used(run.cpu_s, others, _cpu_of_others())
                if layout == "two_processes":
                    summary["lost_updates"] = await lost_updates(
                        server, url, scenes, mix.synced(server), opts.shard_rate, opts.lost_s
                    )
            finally:
                for proc in procs:
                    await proc.stop()
        summary["answered_per_s"] = summary["answered"] / max(summary["duration_s"], 1e-9)
        out[layout] = summary
    return out


def _cpu_of_others() -> tuple[float, float, float]:
    """Return (now, this process's CPU s, every PostgreSQL server process's CPU s)."""
    return time.monotonic(), cpu_seconds(os.getpid()) or 0.0, postgres_cpu_s()


def cores_used(
    bots_cpu_s: float, before: tuple[float, float, float], after: tuple[float, float, float]
) -> dict[str, float]:
    """Cores each side kept busy over the run: the bots, PostgreSQL, the generator + loopback.

    The machine has two: when the sum nears it, latency is queueing for a core.
    """
    at, bench, pg = before
    now, bench_now, pg_now = after
    wall = max(now - at, 1e-9)
    return {
        "bots": bots_cpu_s / wall,
        "postgres": (pg_now - pg) / wall,
        "generator_and_loopback": (bench_now - bench) / wall,
    }


async def stored_grit(url: str) -> dict[tuple[int, str], int]:
    """Return every stored combatant's Grit by (channel, name)."""
    from bot.rules.models import Encounter
    from bot.store.postgres import PostgresStore

    async with PostgresStore(url) as store:
        rows = await store.pool.fetch("SELECT data FROM encounters")
    out = {}
    for row in rows:
        encounter = Encounter.model_validate_json(row["data"])
        for combatant in encounter.combatants:
            out[(encounter.channel_id, combatant.name)] = combatant.grit
    return out


def damage_plan(grit: dict[tuple[int, str], int], count: int) -> list[tuple[int, str]]:
    """Return `count` (channel, combatant) hits, round the channels, none taking a Grit below 0.

    Grit stops at 0, so a hit on 0 would change nothing and look like a lost update.
    """
    by_channel: dict[int, list[list[Any]]] = {}
    for (channel, name), value in sorted(grit.items()):
        by_channel.setdefault(channel, []).append([name, value])
    plan: list[tuple[int, str]] = []
    turn = 0
    while len(plan) < count and any(v > 0 for fighters in by_channel.values() for _, v in fighters):
        for channel, fighters in by_channel.items():
            able = [f for f in fighters if f[1] > 0]
            if not able or len(plan) >= count:
                continue
            fighter = able[turn % len(able)]
            fighter[1] -= 1
            plan.append((channel, fighter[0]))
        turn += 1
    return plan


async def lost_updates(
    server: LoopbackDiscord,
    url: str,
    scenes: list[Scene],
    mix: Mix,
    rate: float,
    seconds: float,
) -> dict[str, Any]:
    """Send only `/grit damage amount:1` at `rate`; count the answered ones the store lacks.

    Run when nothing else is in flight (no attack prompt waits to time out), so every
    change of Grit in the store is one of these commands.
    """
    await server.wait_idle(quiet=1.5, timeout=30)
    spec = next(s for k, s in mix.present if k.name == "grit damage")
    kind = mix.kind("grit damage")
    where = {s.channel.id: s.channel for s in scenes}
    before = await stored_grit(url)
    plan = damage_plan(before, round(rate * seconds))
    loop = asyncio.get_running_loop()
    start = loop.time() + 0.05
    sent = []
    for n, (channel, name) in enumerate(plan):
        delay = start + n / rate - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        request = Request("grit damage", spec, {"combatant": name, "amount": "1"})
        sent.append((channel, name, dispatch(server, request, where[channel])))
    await asyncio.wait([r.responded for *_, r in sent if r.responded], timeout=10)
    await server.wait_idle(quiet=1.5, timeout=30)
    after = await stored_grit(url)
    applied: dict[tuple[int, str], int] = {}
    kept: dict[tuple[int, str], int] = {}  # sent, less those the bot said it gave up on
    unanswered = given_up = 0
    for channel, name, record in sent:
        if gave_up(server, record):  # answered in time: "changed nothing, send it again"
            given_up += 1
            continue
        kept[(channel, name)] = kept.get((channel, name), 0) + 1
        if problem(server, record, kind) is None:
            applied[(channel, name)] = applied.get((channel, name), 0) + 1
        else:
            unanswered += 1
    lost, unreported = lost_and_unreported(before, after, applied)
    return {
        "sent": len(sent),
        "applied": sum(applied.values()),
        "unanswered": unanswered,
        "gave_up": given_up,
        "lost": lost,
        "unreported": unreported,
        "each_sent_stored_once": each_stored_once(before, after, kept),
        "offered_rate": rate,
        "sent_in_s": loop.time() - start,
    }


def lost_and_unreported(
    before: dict[tuple[int, str], int],
    after: dict[tuple[int, str], int],
    applied: dict[tuple[int, str], int],
) -> tuple[int, int]:
    """Return the answered changes the store lacks, and the store's changes nobody was told of.

    A command answered past Discord's deadline may still have committed: its change is in
    the store but was never reported as applied ("unreported"). Where a combatant has any,
    a lost update of the same combatant could hide behind it: the check is then only exact
    with no unanswered commands.
    """
    lost = unreported = 0
    for key, grit in before.items():
        dropped = grit - after.get(key, grit)
        told = applied.get(key, 0)
        lost += max(0, told - dropped)
        unreported += max(0, dropped - told)
    return lost, unreported


def each_stored_once(
    before: dict[tuple[int, str], int],
    after: dict[tuple[int, str], int],
    offered: dict[tuple[int, str], int],
) -> bool:
    """Return whether every combatant lost exactly one Grit per `/grit damage` sent to it.

    `offered` leaves out the commands the bot answered it gave up on (they changed nothing).
    Then each other command sent, answered in time or not, is in the store exactly once:
    none was lost and none applied twice, and the lost-update check is exact even with late
    answers; and each one given up on is not in the store.
    """
    return all(grit - after.get(key, grit) == offered.get(key, 0) for key, grit in before.items())
