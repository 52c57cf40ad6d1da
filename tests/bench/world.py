"""The benchmarks' world: the real bot's command schema, and encounters seeded before start-up.

Encounters are built with the bot's own rules (`/init add` and the first `/init next`
do the same), written straight into the SQLite file after the store has migrated it,
and each gets a pinned tracker message in the loopback Discord, as if the bot had
been restarted in the middle of many fights.
"""

from __future__ import annotations

import asyncio
import functools
import random
import sqlite3
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from bot.rules import encounter as flow
from bot.rules.encounter import NoHooks
from bot.rules.models import Combatant, Encounter, KnownPower, Weapon
from bot.sandbox.bare import schema_of
from bot.sandbox.server import LoopbackDiscord
from bot.sandbox.world import Channel

FOES, PARTY = "Goblin", "Guard"
# Every seeded combatant's loadout and power, for `/attack weapon:` and `/use power` [GAME.md §9].
WEAPON = Weapon(name="Sword", damage="1d8+1")
POWER, POWER_COMPONENTS = "Bolt", "damage:1d8 range:16"  # 25 PP: an Active of level 1
STORED_AGO = 2 * 24 * 3600  # seeded encounters were last changed two days ago


async def tablehand_schema() -> list[dict[str, Any]]:
    """Return the command payloads Tablehand syncs, built in this process from `cogs/`."""
    from bot.app import Tablehand, cog_extensions
    from bot.config import Settings
    from bot.store import MemoryStore

    # Nothing connects: the cogs are loaded into a tree and the tree is read.
    bot = Tablehand(Settings(discord_token="bench", guild_ids=[1]), store=MemoryStore())
    await bot.store.open()
    try:
        for extension in cog_extensions():
            await bot.load_extension(extension)
        return schema_of(bot.tree)
    finally:
        await bot.close()


def combatant_names(combatants: int) -> list[str]:
    """Return the names a seeded encounter's combatants get: Goblin 1.., then Guard 1.."""
    foes = (combatants + 1) // 2
    names = [f"{FOES} {i}" for i in range(1, foes + 1)]
    return names + [f"{PARTY} {i}" for i in range(1, combatants - foes + 1)]


def build_encounter(
    channel_id: int, guild_id: int, gm_id: int, combatants: int, rng: random.Random
) -> Encounter:
    """Return an encounter as `/init start`, `/init add` and the first `/init next` leave it."""
    encounter = Encounter(channel_id=channel_id, guild_id=guild_id, gm_id=gm_id, mode="fortune")
    power = bolt()
    for name in combatant_names(combatants):
        side = "foes" if name.startswith(FOES) else "party"
        combatant = Combatant(
            id=0,
            name=name,
            side=side,
            finesse=rng.randint(0, 5),
            items=[WEAPON],
            powers=[power],
        )
        flow.add_combatant(encounter, combatant, rng)
    flow.advance(encounter, rng, NoHooks())  # closes Declaration, rolls initiative
    return encounter


@functools.cache
def bolt() -> KnownPower:
    """Return the Active every seeded combatant knows, priced as `/character power build` does."""
    from bot.catalogue import load_catalogue
    from bot.rules.powers import built_power

    return built_power(load_catalogue(), POWER, "active", 1, POWER_COMPONENTS).power


def seed_tracker(server: LoopbackDiscord, channel: Channel, encounter: Encounter) -> None:
    """Post and pin the encounter's tracker in the loopback Discord, as the bot had."""
    from bot.turns import render_tracker

    content = render_tracker(encounter)
    components = content.view.to_components() if content.view is not None else []
    message = server.create_message(
        channel,
        server.bot_user,
        {"embeds": [content.embed.to_dict()], "components": components},
    )
    server.pin_message(message)
    encounter.tracker_message_id = message.id


async def migrate(db_path: Path) -> None:
    """Create the database with the bot's own migrations."""
    from bot.store import SQLiteStore

    store = SQLiteStore(db_path)
    await store.open()
    await store.close()


def write_encounters(db_path: Path, encounters: Iterable[tuple[int, int, str]]) -> int:
    """Insert (channel_id, guild_id, JSON) rows in one transaction; return how many."""
    # The `encounters` table of migration 1; one bulk insert instead of 10,000 store commits.
    # Dated before the window of the start-up tracker reconciliation, which would otherwise
    # re-render every seeded tracker at ten channels a second while the benchmark measures.
    updated_at = time.time() - STORED_AGO
    conn = sqlite3.connect(db_path)
    try:
        with conn:
            cursor = conn.executemany(
                "INSERT INTO encounters (channel_id, guild_id, data, updated_at) VALUES (?, ?, ?, ?)",
                ((cid, gid, data, updated_at) for cid, gid, data in encounters),
            )
            return cursor.rowcount
    finally:
        conn.close()


async def seed_tables(
    server: LoopbackDiscord,
    db_path: Path,
    channels: list[Channel],
    combatants: int,
    *,
    seed: int = 7,
) -> None:
    """Give each channel a running encounter in the database and its pinned tracker."""
    rng = random.Random(seed)
    gm = server.member("gm")
    rows = []
    for channel in channels:
        encounter = build_encounter(channel.id, server.guild.id, gm.id, combatants, rng)
        seed_tracker(server, channel, encounter)
        rows.append((channel.id, server.guild.id, encounter.model_dump_json()))
    await migrate(db_path)
    await asyncio.to_thread(write_encounters, db_path, rows)


async def seed_stored(
    db_path: Path,
    guild_id: int,
    gm_id: int,
    count: int,
    combatants: int,
    *,
    extra_channels: list[int] = (),  # type: ignore[assignment]
    seed: int = 11,
) -> None:
    """Store `count` encounters for channels the bot has never seen (start-up with a big database)."""
    rng = random.Random(seed)
    templates = [build_encounter(0, guild_id, gm_id, combatants, rng) for _ in range(20)]
    channel_ids = list(extra_channels) + [
        10**17 + i for i in range(max(0, count - len(extra_channels)))
    ]
    rows = (  # a generator: 100,000 encounters are 780 MB of JSON, written as they are made
        (
            cid,
            guild_id,
            templates[i % len(templates)].model_copy(update={"channel_id": cid}).model_dump_json(),
        )
        for i, cid in enumerate(channel_ids)
    )
    await migrate(db_path)
    await asyncio.to_thread(write_encounters, db_path, rows)
