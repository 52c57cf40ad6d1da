"""The PostgreSQL store: several bot processes on one database (asyncpg, the `postgres` extra).

A channel block is one transaction that takes the channel's lock in the database
(`pg_advisory_xact_lock(channel_id)`) before it reads, so blocks of every process on one
channel queue behind each other and the lock goes with the transaction, however it ends.
A sheet block, and a join's claim of a sheet, take the sheet's lock the same way, in a
key space of their own (`pg_advisory_xact_lock(SHEET_LOCKS, id)`: the two-key form never
meets the one-key form of the channels).
Each encounter row carries a version checked on write, so a write that was overtaken
raises instead of undoing the other one.

A block costs two round trips when its channel's row is the one this process last read
or wrote: BEGIN, the lock and a check that the row still has that version and text (its
SHA-256), in one; its writes and the COMMIT in the other. Each round trip under the lock
is a turn of a busy event loop that the channel's next command, and the next block
waiting for a pooled connection, wait through.

Server settings are cached per process and a change is announced to the others
(LISTEN/NOTIFY). Shard leases live here too: which process serves which of the bot's
gateway shards, until when (bot/shards.py).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import time
from collections import OrderedDict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from bot.errors import StoreError
from bot.rules.models import Character, LogEntry, NpcTemplate
from bot.store.base import (
    FIGHT_FIELDS,
    ChannelChanges,
    GuildFilter,
    GuildSettings,
    LoadedChannel,
    LoadedSheet,
    Store,
    StoreConflict,
    character_key,
    character_taken,
    npc_taken,
    waited,
)

try:
    import asyncpg
except ImportError:  # the optional `postgres` extra
    asyncpg = None  # type: ignore[assignment]

log = logging.getLogger(__name__)

BLOCK_POOL_SIZE = 10  # connections for channel blocks (each holds one for its length)
POOL_SIZE = 5  # connections for everything else: scans, settings, leases, sheet look-ups
SHEET_POOL_SIZE = 3  # connections for sheet blocks (each holds one for its length)
MIGRATION_LOCK = 0x7461626C  # "tabl": far below any channel id, which are snowflakes
SHEET_LOCKS = 0x73686565  # "shee": the first key of every sheet's lock
NPC_LOCKS = 0x6E706373  # "npcs": the first key of every NPC template's lock
SETTINGS_CHANNEL = "tablehand_settings"
NOW = "extract(epoch from clock_timestamp())"  # the database's clock: one for every process
KNOWN_ROWS = 1024  # channels whose encounter row (version, text) a process remembers
STALE_WRITE = "TH409"  # the SQLSTATE of tablehand_written(): the row left the version read

MIGRATIONS: list[tuple[int, str, list[str]]] = [
    (
        1,
        "encounters with versions, their action log, characters, server settings, shard leases",
        [
            """
            CREATE TABLE encounters (
                channel_id    BIGINT PRIMARY KEY,
                guild_id      BIGINT,
                data          TEXT NOT NULL,
                updated_at    DOUBLE PRECISION NOT NULL,
                version       BIGINT NOT NULL,
                pending       BOOLEAN NOT NULL DEFAULT FALSE,
                character_ids BIGINT[] NOT NULL DEFAULT '{}'
            )
            """,
            "CREATE INDEX encounters_by_guild ON encounters(guild_id)",
            "CREATE INDEX encounters_by_update ON encounters(updated_at)",
            "CREATE INDEX encounters_pending ON encounters(channel_id) WHERE pending",
            "CREATE INDEX encounters_by_character ON encounters USING GIN (character_ids)",
            """
            CREATE TABLE encounter_log (
                id         BIGSERIAL PRIMARY KEY,
                channel_id BIGINT NOT NULL REFERENCES encounters(channel_id) ON DELETE CASCADE,
                round      INTEGER NOT NULL,
                text       TEXT NOT NULL
            )
            """,
            "CREATE INDEX encounter_log_by_round ON encounter_log(channel_id, round, id)",
            """
            CREATE TABLE characters (
                id       BIGSERIAL PRIMARY KEY,
                guild_id BIGINT NOT NULL,
                owner_id BIGINT NOT NULL,
                name     TEXT NOT NULL,
                name_key TEXT NOT NULL,
                data     TEXT NOT NULL,
                UNIQUE (guild_id, owner_id, name_key)
            )
            """,
            """
            CREATE TABLE active_characters (
                guild_id     BIGINT NOT NULL,
                owner_id     BIGINT NOT NULL,
                character_id BIGINT NOT NULL REFERENCES characters(id) ON DELETE CASCADE,
                PRIMARY KEY (guild_id, owner_id)
            )
            """,
            "CREATE TABLE guild_settings (guild_id BIGINT PRIMARY KEY, data TEXT NOT NULL)",
            """
            CREATE TABLE shard_leases (
                shard_id     INTEGER PRIMARY KEY,
                owner        TEXT NOT NULL,
                expires_at   DOUBLE PRECISION NOT NULL,
                heartbeat_at DOUBLE PRECISION NOT NULL
            )
            """,
        ],
    ),
    (
        2,
        "a character is in one fight: the fight holding each sheet",
        [
            "ALTER TABLE characters ADD COLUMN fight_channel BIGINT",
            "CREATE INDEX characters_by_fight ON characters(fight_channel)"
            " WHERE fight_channel IS NOT NULL",
            # Characters already in stored fights are held by them; one that an older
            # Tablehand let into several is held by the fight changed last.
            """
            UPDATE characters AS c SET fight_channel = f.channel_id FROM (
                SELECT DISTINCT ON (playing) playing, channel_id
                FROM encounters, unnest(character_ids) AS playing
                ORDER BY playing, updated_at DESC, channel_id
            ) AS f WHERE c.id = f.playing
            """,
        ],
    ),
    (
        3,
        "a server's NPC templates (/npc), names unique per server by the one name rule",
        [
            """
            CREATE TABLE npc_templates (
                id       BIGSERIAL PRIMARY KEY,
                guild_id BIGINT NOT NULL,
                name     TEXT NOT NULL,
                name_key TEXT NOT NULL,
                data     TEXT NOT NULL,
                UNIQUE (guild_id, name_key)
            )
            """,
        ],
    ),
    (
        4,
        "a check that refuses a stale encounter write inside the commit's one round trip",
        [
            f"""
            CREATE FUNCTION tablehand_written(written BIGINT) RETURNS VOID
            LANGUAGE plpgsql AS $fn$
            BEGIN
                IF written <> 1 THEN
                    RAISE EXCEPTION 'the encounter is no longer at the version the block read'
                        USING ERRCODE = '{STALE_WRITE}';
                END IF;
            END
            $fn$
            """,
        ],
    ),
    (
        5,
        "encounter texts compressed with lz4 where the server has it (pglz otherwise)",
        [
            # Every command that changes a fight rewrites its ~15 KB text, and every block
            # checks the stored one: lz4 costs the server about a fifth less CPU per such
            # command than the default pglz (54 µs of some 320 µs, measured on PostgreSQL
            # 15). Rows take it as they are next written; a server built without lz4
            # keeps pglz.
            """
            DO $do$
            BEGIN
                IF 'lz4' = ANY (
                    SELECT unnest(enumvals) FROM pg_settings
                    WHERE name = 'default_toast_compression'
                ) THEN
                    ALTER TABLE encounters ALTER COLUMN data SET COMPRESSION lz4;
                END IF;
            END
            $do$
            """,
        ],
    ),
]
LATEST_VERSION = MIGRATIONS[-1][0]


@dataclass(frozen=True, slots=True)
class _Row:
    """A channel's encounter row as this process last read or wrote it under the lock."""

    version: int  # 0: no row
    text: str | None
    digest: str = ""  # the text's SHA-256 in hex, as PostgreSQL computes it of the stored text

    @classmethod
    def of(cls, version: int, text: str | None) -> _Row:
        """Return the row of this version and text (None: there is no row)."""
        if text is None:
            return cls(0, None)
        return cls(version, text, hashlib.sha256(text.encode()).hexdigest())


@dataclass(frozen=True)
class ShardLease:
    """Who serves a shard, until when (epoch seconds on the database's clock)."""

    shard_id: int
    owner: str
    expires_at: float
    heartbeat_at: float


class PostgresStore(Store):
    """Encounters, characters, settings and shard leases in PostgreSQL."""

    multi_process = True

    def __init__(
        self, url: str, *, pool_size: int = POOL_SIZE, block_pool_size: int = BLOCK_POOL_SIZE
    ) -> None:
        super().__init__()
        if asyncpg is None:
            raise StoreError(
                "TABLEHAND_DATABASE_URL names PostgreSQL, but asyncpg is not installed: "
                "pip install 'tablehand[postgres]'."
            )
        self.url = url
        self.pool_size = pool_size
        self.block_pool_size = block_pool_size
        self._pool: Any = None
        # Channel blocks draw from a pool of their own: a block that reads the settings or
        # the round log meanwhile takes a second connection, and if blocks could hold every
        # connection of one pool, they would wait for each other for ever.
        self._block_pool: Any = None
        # Sheet blocks too: a block holding a sheet's lock must never wait for a connection
        # that a channel block, waiting for that lock, holds.
        self._sheet_pool: Any = None
        self._listener: Any = None
        # Each channel's row as last read or written under its lock: a block whose row is
        # still at that version and text (checked with the lock) reads nothing.
        self._known: OrderedDict[int, _Row] = OrderedDict()
        self._checked: dict[int, LoadedChannel] = {}  # what a block's check found current
        self._blocks: dict[int, Any] = {}  # each open channel block's connection

    @property
    def pool(self) -> Any:
        if self._pool is None:
            raise RuntimeError("the store is not open")
        return self._pool

    async def open(self) -> None:
        try:
            options = {"min_size": 1, "command_timeout": 60, "reset": _nothing_to_reset}
            self._pool = await asyncpg.create_pool(self.url, max_size=self.pool_size, **options)
            self._block_pool = await asyncpg.create_pool(
                self.url, max_size=self.block_pool_size, **options
            )
            self._sheet_pool = await asyncpg.create_pool(
                self.url, max_size=SHEET_POOL_SIZE, **options
            )
        except (OSError, asyncpg.PostgresError) as error:
            await self.close()
            raise StoreError(
                "Cannot connect to the PostgreSQL database in TABLEHAND_DATABASE_URL: {error}",
                error=error,
            ) from None
        try:
            await self._migrate()
            self._listener = await asyncpg.connect(self.url)
            await self._listener.add_listener(SETTINGS_CHANNEL, self._settings_changed)
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        if self._listener is not None:
            listener, self._listener = self._listener, None
            with contextlib.suppress(Exception):
                await listener.close()
        for name in ("_sheet_pool", "_block_pool", "_pool"):
            pool = getattr(self, name)
            if pool is not None:
                setattr(self, name, None)
                await pool.close()

    def _settings_changed(self, connection: object, pid: int, channel: str, payload: str) -> None:
        """Another process (or this one) saved a server's settings: read them anew."""
        with contextlib.suppress(ValueError):
            self._settings_cache.pop(int(payload), None)

    async def schema_version(self) -> int:
        """Return the version recorded in the database (0 for a new one)."""
        async with self.pool.acquire() as conn:
            return await _schema_version(conn)

    async def _migrate(self) -> None:
        async with self.pool.acquire() as conn, conn.transaction():
            # Processes starting together queue here; each reads the version only once
            # it holds the lock, so no step runs twice.
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            current = await _schema_version(conn)
            if current > LATEST_VERSION:
                raise StoreError(
                    "The PostgreSQL database has schema version {current}, newer than this "
                    "Tablehand knows ({latest}). Upgrade Tablehand.",
                    current=current,
                    latest=LATEST_VERSION,
                )
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY,"
                " description TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)"
            )
            for version, description, statements in MIGRATIONS:
                if version <= current:
                    continue
                for statement in statements:
                    await conn.execute(statement)
                await conn.execute(
                    "INSERT INTO schema_version VALUES ($1, $2, $3)",
                    version,
                    description,
                    time.time(),
                )
                log.info("migrated PostgreSQL to schema version %d: %s", version, description)

    # Channels
    @asynccontextmanager
    async def _channel_transaction(
        self, channel_id: int, give_up_at: float | None = None
    ) -> AsyncIterator[object]:
        if self._block_pool is None:
            raise RuntimeError("the store is not open")
        pool = self._block_pool
        conn = await waited(pool.acquire(), give_up_at)
        try:
            try:
                await self._begin_block(conn, channel_id)
                self._blocks[channel_id] = conn
                yield conn
            except BaseException:
                self._known.pop(channel_id, None)  # read it afresh after any failure
                if not conn.is_closed() and conn.is_in_transaction():
                    await conn.execute("ROLLBACK")
                raise
            finally:
                self._blocks.pop(channel_id, None)
                self._checked.pop(channel_id, None)
            if conn.is_in_transaction():  # a block that wrote committed with its writes
                await conn.execute("COMMIT")
        finally:
            await pool.release(conn)

    async def _begin_block(self, conn: Any, channel_id: int) -> None:
        """Begin, take the channel's lock and check the remembered row: one round trip.

        One simple query of several statements, each with a snapshot of its own, so the
        check sees what was committed before the lock was granted. Its status says whether
        the row is still the one remembered ("SELECT 1"); `_load` then reads nothing.
        Only ints and a hex digest are put into the text, never anything typed.
        """
        begin = f"BEGIN; SELECT pg_advisory_xact_lock({int(channel_id)})"
        known = self._known.get(channel_id)
        if known is None:
            await conn.execute(begin)
            return
        if await conn.execute(f"{begin}; {_still_at(channel_id, known)}") == "SELECT 1":
            self._checked[channel_id] = LoadedChannel(known.text, known.version)

    async def _load(
        self, channel_id: int, *, locked: bool = True, transaction: object = None
    ) -> LoadedChannel:
        if transaction is None:
            row = await self.pool.fetchrow(
                "SELECT data, version FROM encounters WHERE channel_id = $1", channel_id
            )
            return LoadedChannel(None) if row is None else LoadedChannel(row[0], row[1])
        checked = self._checked.pop(channel_id, None)
        if checked is not None:
            return checked
        row = await transaction.fetchrow(  # type: ignore[attr-defined]
            "SELECT data, version FROM encounters WHERE channel_id = $1", channel_id
        )
        self._remember(channel_id, _Row.of(0, None) if row is None else _Row.of(row[1], row[0]))
        return LoadedChannel(None) if row is None else LoadedChannel(row[0], row[1])

    def _remember(self, channel_id: int, row: _Row) -> None:
        self._known[channel_id] = row
        self._known.move_to_end(channel_id)
        while len(self._known) > KNOWN_ROWS:
            self._known.popitem(last=False)

    async def _commit(self, changes: ChannelChanges, *, transaction: object = None) -> None:
        now = time.time()
        if transaction is None:
            async with self.pool.acquire() as conn, conn.transaction():
                await self._write(conn, changes, now)
            self._known.pop(changes.channel_id, None)
            return
        statement = _writes_and_commit(changes, now)
        if statement is None:
            await self._write(transaction, changes, now)
        else:
            try:
                await transaction.execute(statement)  # type: ignore[attr-defined]
            except asyncpg.PostgresError as error:
                if error.sqlstate == STALE_WRITE:
                    raise StoreConflict() from None
                raise
        if changes.write_encounter:
            # What the row is once this commits (if it does not, the check finds it is not).
            self._remember(changes.channel_id, _written_row(changes))

    async def _write(self, conn: Any, changes: ChannelChanges, now: float) -> None:
        if changes.write_encounter:
            status = await conn.execute(*_encounter_write(changes, now))
            if not status.endswith(" 1"):  # "UPDATE 1", "INSERT 0 1", "DELETE 1"
                raise StoreConflict()
        channel_id = changes.channel_id
        for character_id in changes.claims:
            status = await conn.execute(
                "UPDATE characters SET fight_channel = $1 WHERE id = $2 AND fight_channel IS NULL",
                channel_id,
                character_id,
            )
            if status != "UPDATE 1":
                raise StoreConflict()
        if changes.log:
            await conn.executemany(
                "INSERT INTO encounter_log (channel_id, round, text) VALUES ($1, $2, $3)",
                [(channel_id, e.round, e.text) for e in changes.log],
            )
        await self._write_sheets_back(conn, changes)

    async def _write_sheets_back(self, conn: Any, changes: ChannelChanges) -> None:
        """Write a fight's Grit back to the sheets it holds, then let go of those that left."""
        channel_id = changes.channel_id
        if changes.character_grit:
            # A sheet no fight holds takes it too: a fight stored before claims existed, or
            # joined by an older process during a rolling restart, never claimed it.
            await conn.executemany(
                "UPDATE characters SET data = (data::jsonb || jsonb_build_object("
                "'grit', $1::int, 'max_grit', $2::int, 'injuries', $3::int))::text"
                " WHERE id = $4 AND (fight_channel = $5 OR fight_channel IS NULL)",
                [
                    (w.grit, w.max_grit, w.injuries, w.character_id, channel_id)
                    for w in changes.character_grit
                ],
            )
        if changes.release_all:
            await conn.execute(
                "UPDATE characters SET fight_channel = NULL WHERE fight_channel = $1", channel_id
            )
        elif changes.released:
            await conn.execute(
                "UPDATE characters SET fight_channel = NULL"
                " WHERE id = ANY($1::bigint[]) AND fight_channel = $2",
                changes.released,
                channel_id,
            )

    async def _round_log(self, channel_id: int, round: int) -> list[LogEntry]:
        # Read on the block's own connection (a block reads it): no wait for the shared pool.
        conn = self._blocks.get(channel_id, self.pool)
        rows = await conn.fetch(
            "SELECT round, text FROM encounter_log WHERE channel_id = $1 AND round = $2"
            " ORDER BY id",
            channel_id,
            round,
        )
        return [LogEntry(round=r[0], text=r[1]) for r in rows]

    async def encounter_channels(self, guild_ids: GuildFilter = None) -> list[int]:
        rows = await self.pool.fetch(
            "SELECT channel_id FROM encounters WHERE ($1::bigint[] IS NULL"
            " OR guild_id = ANY($1)) ORDER BY channel_id",
            _guild_list(guild_ids),
        )
        return [r[0] for r in rows]

    async def pending_attack_channels(self, guild_ids: GuildFilter = None) -> list[int]:
        rows = await self.pool.fetch(
            "SELECT channel_id FROM encounters WHERE pending AND ($1::bigint[] IS NULL"
            " OR guild_id = ANY($1)) ORDER BY channel_id",
            _guild_list(guild_ids),
        )
        return [r[0] for r in rows]

    async def character_fight(self, character_id: int) -> int | None:
        return await self.pool.fetchval(
            "SELECT fight_channel FROM characters WHERE id = $1", character_id
        )

    async def recent_encounter_channels(
        self, since: float, guild_ids: GuildFilter = None
    ) -> list[int]:
        rows = await self.pool.fetch(
            "SELECT channel_id FROM encounters WHERE updated_at >= $1 AND ($2::bigint[] IS NULL"
            " OR guild_id = ANY($2)) ORDER BY updated_at DESC",
            since,
            _guild_list(guild_ids),
        )
        return [r[0] for r in rows]

    # Characters
    @staticmethod
    def _character(row: Any) -> Character:
        try:
            return Character.model_validate_json(row[1]).model_copy(update={"id": row[0]})
        except ValueError:
            raise StoreError(
                "A stored character sheet is damaged and cannot be read; ask the bot's host."
            ) from None

    async def create_character(self, character: Character) -> Character:
        if character.id is not None:
            raise ValueError("a new character has no id yet")
        try:
            new_id = await self.pool.fetchval(
                "INSERT INTO characters (guild_id, owner_id, name, name_key, data)"
                " VALUES ($1, $2, $3, $4, $5) RETURNING id",
                character.guild_id,
                character.owner_id,
                character.name,
                character_key(character.name),
                character.model_dump_json(exclude={"id"}),
            )
        except asyncpg.UniqueViolationError:
            raise character_taken(character.name) from None
        return character.model_copy(update={"id": new_id})

    @asynccontextmanager
    async def _sheet_transaction(self, character_id: int) -> AsyncIterator[object]:
        if self._sheet_pool is None:
            raise RuntimeError("the store is not open")
        async with self._sheet_pool.acquire() as conn, conn.transaction():
            await self._lock_sheet_in_database(character_id, conn)
            yield conn

    async def _lock_sheet_in_database(self, character_id: int, transaction: object) -> None:
        await transaction.execute(  # type: ignore[attr-defined]
            "SELECT pg_advisory_xact_lock($1, $2)", SHEET_LOCKS, _int32(character_id)
        )

    async def _load_sheet(
        self, character_id: int, *, transaction: object = None
    ) -> LoadedSheet | None:
        conn: Any = transaction if transaction is not None else self.pool
        row = await conn.fetchrow(
            "SELECT id, data, fight_channel FROM characters WHERE id = $1", character_id
        )
        return None if row is None else LoadedSheet(self._character(row), row[2])

    async def _write_sheet(
        self, character_id: int, changed: dict[str, Any], *, transaction: object = None
    ) -> None:
        conn: Any = transaction if transaction is not None else self.pool
        # The changed keys merged into the stored JSON: another field's change stays.
        values: list[object] = [character_id, json.dumps(changed)]
        columns = ""
        if "name" in changed:
            columns = ", name = $3, name_key = $4"
            values += [changed["name"], character_key(changed["name"])]
        free = " AND fight_channel IS NULL" if changed.keys() & FIGHT_FIELDS else ""
        try:
            status = await conn.execute(
                f"UPDATE characters SET data = (data::jsonb || $2::jsonb)::text{columns}"
                f" WHERE id = $1{free}",
                *values,
            )
        except asyncpg.UniqueViolationError:
            raise character_taken(changed["name"]) from None
        if status != "UPDATE 1":
            raise StoreConflict()

    async def _delete_sheet(self, character_id: int, *, transaction: object = None) -> None:
        conn: Any = transaction if transaction is not None else self.pool
        status = await conn.execute(
            "DELETE FROM characters WHERE id = $1 AND fight_channel IS NULL", character_id
        )
        if status != "DELETE 1":
            raise StoreConflict()

    async def get_character(self, guild_id: int, owner_id: int, name: str) -> Character | None:
        row = await self.pool.fetchrow(
            "SELECT id, data FROM characters WHERE guild_id = $1 AND owner_id = $2"
            " AND name_key = $3",
            guild_id,
            owner_id,
            character_key(name),
        )
        return None if row is None else self._character(row)

    async def character_by_id(self, character_id: int) -> Character | None:
        row = await self.pool.fetchrow(
            "SELECT id, data FROM characters WHERE id = $1", character_id
        )
        return None if row is None else self._character(row)

    async def list_characters(self, guild_id: int, owner_id: int) -> list[Character]:
        rows = await self.pool.fetch(
            "SELECT id, data FROM characters WHERE guild_id = $1 AND owner_id = $2"
            " ORDER BY name_key",
            guild_id,
            owner_id,
        )
        return [self._character(row) for row in rows]

    async def set_active_character(self, guild_id: int, owner_id: int, character_id: int) -> None:
        await self.pool.execute(
            "INSERT INTO active_characters (guild_id, owner_id, character_id)"
            " VALUES ($1, $2, $3) ON CONFLICT (guild_id, owner_id)"
            " DO UPDATE SET character_id = excluded.character_id",
            guild_id,
            owner_id,
            character_id,
        )

    async def active_character(self, guild_id: int, owner_id: int) -> Character | None:
        row = await self.pool.fetchrow(
            "SELECT c.id, c.data FROM active_characters a JOIN characters c"
            " ON c.id = a.character_id WHERE a.guild_id = $1 AND a.owner_id = $2",
            guild_id,
            owner_id,
        )
        return None if row is None else self._character(row)

    # Settings
    # NPC templates
    @staticmethod
    def _npc(row: Any) -> NpcTemplate:
        try:
            return NpcTemplate.model_validate_json(row[1]).model_copy(update={"id": row[0]})
        except ValueError:
            raise StoreError(
                "A stored NPC template is damaged and cannot be read; ask the bot's host."
            ) from None

    async def create_npc(self, template: NpcTemplate) -> NpcTemplate:
        if template.id is not None:
            raise ValueError("a new template has no id yet")
        try:
            new_id = await self.pool.fetchval(
                "INSERT INTO npc_templates (guild_id, name, name_key, data)"
                " VALUES ($1, $2, $3, $4) RETURNING id",
                template.guild_id,
                template.name,
                character_key(template.name),
                template.model_dump_json(exclude={"id"}),
            )
        except asyncpg.UniqueViolationError:
            raise npc_taken(template.name) from None
        return template.model_copy(update={"id": new_id})

    async def get_npc(self, guild_id: int, name: str) -> NpcTemplate | None:
        row = await self.pool.fetchrow(
            "SELECT id, data FROM npc_templates WHERE guild_id = $1 AND name_key = $2",
            guild_id,
            character_key(name),
        )
        return None if row is None else self._npc(row)

    async def list_npcs(self, guild_id: int) -> list[NpcTemplate]:
        rows = await self.pool.fetch(
            "SELECT id, data FROM npc_templates WHERE guild_id = $1 ORDER BY name_key", guild_id
        )
        return [self._npc(row) for row in rows]

    @asynccontextmanager
    async def _npc_transaction(self, npc_id: int) -> AsyncIterator[object]:
        if self._sheet_pool is None:
            raise RuntimeError("the store is not open")
        async with self._sheet_pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1, $2)", NPC_LOCKS, _int32(npc_id))
            yield conn

    async def _load_npc(self, npc_id: int, *, transaction: object = None) -> NpcTemplate | None:
        conn: Any = transaction if transaction is not None else self.pool
        row = await conn.fetchrow("SELECT id, data FROM npc_templates WHERE id = $1", npc_id)
        return None if row is None else self._npc(row)

    async def _write_npc(self, template: NpcTemplate, *, transaction: object = None) -> None:
        conn: Any = transaction if transaction is not None else self.pool
        try:
            status = await conn.execute(
                "UPDATE npc_templates SET name = $2, name_key = $3, data = $4 WHERE id = $1",
                template.id,
                template.name,
                character_key(template.name),
                template.model_dump_json(exclude={"id"}),
            )
        except asyncpg.UniqueViolationError:
            raise npc_taken(template.name) from None
        if status != "UPDATE 1":
            raise StoreConflict()

    async def _delete_npc(self, npc_id: int, *, transaction: object = None) -> None:
        conn: Any = transaction if transaction is not None else self.pool
        await conn.execute("DELETE FROM npc_templates WHERE id = $1", npc_id)

    async def get_settings(self, guild_id: int) -> GuildSettings:
        data = await self.pool.fetchval(
            "SELECT data FROM guild_settings WHERE guild_id = $1", guild_id
        )
        return self._stored_settings(guild_id, data)

    async def save_settings(self, settings: GuildSettings) -> None:
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, data) VALUES ($1, $2)"
                " ON CONFLICT (guild_id) DO UPDATE SET data = excluded.data",
                settings.guild_id,
                settings.model_dump_json(),
            )
            # Delivered on commit, to every process listening (this one too).
            await conn.execute("SELECT pg_notify($1, $2)", SETTINGS_CHANNEL, str(settings.guild_id))

    # Shard leases
    async def claim_shards(self, owner: str, shard_ids: list[int], ttl: float) -> list[int]:
        """Take these shards where free, lapsed or already ours; return the ones now held."""
        rows = await self.pool.fetch(
            "INSERT INTO shard_leases (shard_id, owner, expires_at, heartbeat_at)"
            f" SELECT s, $1, {NOW} + $3, {NOW} FROM unnest($2::int[]) AS s"
            " ON CONFLICT (shard_id) DO UPDATE SET owner = excluded.owner,"
            " expires_at = excluded.expires_at, heartbeat_at = excluded.heartbeat_at"
            " WHERE shard_leases.owner = excluded.owner"
            " OR shard_leases.expires_at < excluded.heartbeat_at"
            " RETURNING shard_id",
            owner,
            shard_ids,
            ttl,
        )
        return sorted(r[0] for r in rows)

    async def renew_shards(self, owner: str, ttl: float) -> list[int]:
        """Extend this owner's unexpired leases; return the shards still held."""
        rows = await self.pool.fetch(
            f"UPDATE shard_leases SET expires_at = {NOW} + $2, heartbeat_at = {NOW}"
            f" WHERE owner = $1 AND expires_at >= {NOW} RETURNING shard_id",
            owner,
            ttl,
        )
        return sorted(r[0] for r in rows)

    async def lapsed_shards(self) -> list[int]:
        """Return the shards whose holder stopped renewing (a process died)."""
        rows = await self.pool.fetch(
            f"SELECT shard_id FROM shard_leases WHERE expires_at < {NOW} ORDER BY shard_id"
        )
        return [r[0] for r in rows]

    async def release_shards(self, owner: str, shard_ids: list[int] | None = None) -> None:
        """Give up this owner's leases (all, or these), so another process takes them at once."""
        await self.pool.execute(
            "DELETE FROM shard_leases WHERE owner = $1 AND ($2::int[] IS NULL"
            " OR shard_id = ANY($2))",
            owner,
            shard_ids,
        )

    async def shard_leases(self) -> list[ShardLease]:
        """Return every lease, for the logs and the tests."""
        rows = await self.pool.fetch(
            "SELECT shard_id, owner, expires_at, heartbeat_at FROM shard_leases ORDER BY shard_id"
        )
        return [ShardLease(*row) for row in rows]


async def _nothing_to_reset(connection: Any) -> None:
    """Hand a connection back to its pool as it is.

    The store never changes a session's state (its locks end with their transactions, and
    it listens on a connection of its own), so asyncpg's default reset query would only
    cost every block one more round trip.
    """


def _int32(number: int) -> int:
    """Return a number as a signed 32-bit lock key (ids beyond 2³¹ wrap and may share one)."""
    return (number + 2**31) % 2**32 - 2**31


def _guild_list(guild_ids: GuildFilter) -> list[int] | None:
    return None if guild_ids is None else list(guild_ids)


def _still_at(channel_id: int, known: _Row) -> str:
    """Return the query whose status is "SELECT 1" while the channel's row is `known`."""
    channel = int(channel_id)
    if known.version == 0:
        return f"SELECT 1 WHERE NOT EXISTS (SELECT FROM encounters WHERE channel_id = {channel})"
    # The text too, not the version alone: a row deleted and inserted again starts at
    # version 1 anew, and a row mended by hand keeps its version.
    return (
        f"SELECT 1 FROM encounters WHERE channel_id = {channel} AND version = {int(known.version)}"
        f" AND sha256(convert_to(data, 'UTF8')) = decode('{known.digest}', 'hex')"
    )


def _written_row(changes: ChannelChanges) -> _Row:
    """Return the encounter row a block's commit leaves."""
    if changes.encounter_json is None:
        return _Row.of(0, None)
    return _Row.of(changes.version + 1 if changes.version else 1, changes.encounter_json)


def _writes_and_commit(changes: ChannelChanges, now: float) -> str | None:
    """Return a block's writes and its COMMIT as one simple query (None: write them one by one).

    For the blocks of play: an encounter updated in place, and round log lines. The texts
    go in dollar-quoted (taken verbatim, with a tag they do not contain), numbers through
    int() and float(); the update must hit its row at the version read, or
    `tablehand_written` raises and nothing of the query is kept.
    """
    if changes.claims or changes.character_grit or changes.released or changes.release_all:
        return None
    texts = [entry.text for entry in changes.log]
    statements = []
    channel = int(changes.channel_id)
    if changes.write_encounter:
        if changes.encounter_json is None or changes.version == 0:
            return None
        texts.append(changes.encounter_json)
        guild = "NULL" if changes.guild_id is None else str(int(changes.guild_id))
        playing = ",".join(str(int(c)) for c in changes.character_ids)
        statements.append(
            f"WITH w AS (UPDATE encounters SET guild_id = {guild},"
            f" data = {_quoted(changes.encounter_json)}, updated_at = '{float(now)!r}'::float8,"
            f" pending = {'TRUE' if changes.pending_attacks else 'FALSE'},"
            f" character_ids = '{{{playing}}}'::bigint[], version = version + 1"
            f" WHERE channel_id = {channel} AND version = {int(changes.version)} RETURNING 1)"
            " SELECT tablehand_written(count(*)) FROM w"
        )
    if any("\x00" in text for text in texts):
        return None  # a text PostgreSQL refuses: refused as a parameter, with its own error
    if changes.log:
        lines = ", ".join(
            f"({channel}, {int(entry.round)}, {_quoted(entry.text)})" for entry in changes.log
        )
        statements.append(f"INSERT INTO encounter_log (channel_id, round, text) VALUES {lines}")
    statements.append("COMMIT")
    return "; ".join(statements)


def _quoted(text: str) -> str:
    """Return a text as a dollar-quoted literal, with a tag that first ends where it ends."""
    n = 0
    tag = "$q$"
    while (text + tag).find(tag) != len(text):
        n += 1
        tag = f"$q{n}$"
    return f"{tag}{text}{tag}"


def _encounter_write(changes: ChannelChanges, now: float) -> tuple[Any, ...]:
    """Return the statement that writes the encounter, only if it is still at its version."""
    if changes.encounter_json is None:
        return (
            "DELETE FROM encounters WHERE channel_id = $1 AND version = $2",
            changes.channel_id,
            changes.version,
        )
    values = (
        changes.channel_id,
        changes.guild_id,
        changes.encounter_json,
        now,
        changes.pending_attacks,
        changes.character_ids,
    )
    if changes.version == 0:
        return (
            "INSERT INTO encounters (channel_id, guild_id, data, updated_at, pending,"
            " character_ids, version) VALUES ($1, $2, $3, $4, $5, $6, 1)"
            " ON CONFLICT (channel_id) DO NOTHING",
            *values,
        )
    return (
        "UPDATE encounters SET guild_id = $2, data = $3, updated_at = $4, pending = $5,"
        " character_ids = $6, version = version + 1 WHERE channel_id = $1 AND version = $7",
        *values,
        changes.version,
    )


async def _schema_version(conn: Any) -> int:
    exists = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
    if not exists:
        return 0
    return int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))
