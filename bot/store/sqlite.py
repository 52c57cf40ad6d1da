"""The SQLite store: one aiosqlite connection, WAL, migrations at open.

aiosqlite runs every statement on one connection, so two channels' transactions
would interleave on it. `_db` serialises whole statements and whole write
transactions (each a few hundred microseconds); a channel's long work between
load and commit happens under its own channel lock only, so channels never wait
for each other's commands, only for each other's commits.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections import OrderedDict
from pathlib import Path

import aiosqlite
from pydantic import ValidationError

from bot.errors import BadInput, StoreError
from bot.rules.models import Character, LogEntry
from bot.store.base import ChannelChanges, GuildSettings, LoadedChannel, Store
from bot.store.migrations import LATEST_VERSION, MIGRATIONS

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5000
ENCOUNTER_CACHE_SIZE = 4096  # channels whose committed encounter text is kept in memory


class SQLiteStore(Store):
    """Encounters, characters and settings in one SQLite file."""

    def __init__(self, path: str | Path) -> None:
        super().__init__()
        self.path = str(path)
        self._conn: aiosqlite.Connection | None = None
        self._db = asyncio.Lock()
        # The committed encounter text of recently used channels. This process is the
        # database's only writer, so the cache is exact: written after each commit,
        # dropped whenever anything else writes. It saves a thread round trip per load.
        self._committed: OrderedDict[int, str | None] = OrderedDict()

    @property
    def conn(self) -> aiosqlite.Connection:
        if self._conn is None:
            raise RuntimeError("the store is not open")
        return self._conn

    async def open(self) -> None:
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        # A write opens its transaction itself (BEGIN IMMEDIATE, issued by the sqlite3 module
        # with the first write, in the same thread round trip); commit() or rollback() ends it.
        self._conn = await aiosqlite.connect(self.path, isolation_level="IMMEDIATE")
        for pragma in (
            "PRAGMA journal_mode=WAL",
            "PRAGMA synchronous=NORMAL",
            "PRAGMA foreign_keys=ON",
            f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}",
        ):
            await self._conn.execute(pragma)
        try:
            await self._migrate()
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        if self._conn is not None:
            await self._conn.close()
            self._conn = None

    async def schema_version(self) -> int:
        """Return the version recorded in the database (0 for a new file)."""
        async with self.conn.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND name='schema_version'"
        ) as cursor:
            if await cursor.fetchone() is None:
                return 0
        async with self.conn.execute("SELECT MAX(version) FROM schema_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0] or 0)

    async def _migrate(self) -> None:
        current = await self.schema_version()
        if current > LATEST_VERSION:
            raise StoreError(
                f"The database {self.path} has schema version {current}, newer than this "
                f"Tablehand knows ({LATEST_VERSION}). Upgrade Tablehand or use another TABLEHAND_DB."
            )
        for version, description, statements in MIGRATIONS:
            if version <= current:
                continue
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                await self.conn.execute(
                    "CREATE TABLE IF NOT EXISTS schema_version ("
                    " version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at REAL NOT NULL)"
                )
                for statement in statements:
                    await self.conn.execute(statement)
                await self.conn.execute(
                    "INSERT INTO schema_version (version, description, applied_at) VALUES (?, ?, ?)",
                    (version, description, time.time()),
                )
                await self.conn.execute("COMMIT")
            except BaseException:
                await self.conn.execute("ROLLBACK")
                raise
            log.info("migrated the database to schema version %d: %s", version, description)

    # Each aiosqlite call is a round trip to its thread: a queue, then a wake-up of this
    # event loop. execute_fetchall and execute_insert make one where execute, fetch and
    # close made three; under load those waits were most of a command's time in the store.
    async def _fetchone(self, sql: str, params: tuple = ()) -> aiosqlite.Row | None:
        rows = await self._fetchall(sql, params)
        return rows[0] if rows else None

    async def _fetchall(self, sql: str, params: tuple = ()) -> list[aiosqlite.Row]:
        async with self._db:
            return list(await self.conn.execute_fetchall(sql, params))

    async def _transaction(self, statements: list[tuple[str, tuple]]) -> list[int | None]:
        """Run statements in one transaction (anything may change: the cache is dropped)."""
        self._committed.clear()
        return await self._write(statements)

    async def _write(self, statements: list[tuple[str, tuple]]) -> list[int | None]:
        """Run statements in one transaction; return the last inserted row id after each.

        The whole transaction runs as one call on aiosqlite's database thread: each call
        there is a round trip (a queue, then waking this event loop), and a command's
        commit took one per statement, plus BEGIN and COMMIT. aiosqlite has no public
        "run this function on the database thread"; its internal `_execute` does exactly
        that (it is how its own public methods work), so it is used here, in one place,
        with aiosqlite pinned to the versions tested (tests/unit/store exercise it).
        """
        async with self._db:
            return await self.conn._execute(_run_transaction, self.conn._conn, statements)

    # Channels
    async def _load(self, channel_id: int, *, locked: bool = True) -> LoadedChannel:
        if channel_id in self._committed:
            self._committed.move_to_end(channel_id)
            return LoadedChannel(encounter_json=self._committed[channel_id])
        row = await self._fetchone(
            "SELECT data FROM encounters WHERE channel_id = ?", (channel_id,)
        )
        loaded = None if row is None else row[0]
        if locked:
            # Only under the channel's lock: a lock-free read could finish after a commit
            # and put back the text that commit replaced.
            self._remember(channel_id, loaded)
        return LoadedChannel(encounter_json=loaded)

    def _remember(self, channel_id: int, encounter_json: str | None) -> None:
        self._committed[channel_id] = encounter_json
        self._committed.move_to_end(channel_id)
        while len(self._committed) > ENCOUNTER_CACHE_SIZE:
            self._committed.popitem(last=False)

    async def _commit(self, changes: ChannelChanges) -> None:
        statements: list[tuple[str, tuple]] = []
        if changes.write_encounter:
            if changes.encounter_json is None:
                statements.append(
                    ("DELETE FROM encounters WHERE channel_id = ?", (changes.channel_id,))
                )
            else:
                statements.append(
                    (
                        "INSERT INTO encounters (channel_id, guild_id, data, updated_at)"
                        " VALUES (?, ?, ?, ?) ON CONFLICT (channel_id) DO UPDATE SET"
                        " guild_id = excluded.guild_id, data = excluded.data,"
                        " updated_at = excluded.updated_at",
                        (changes.channel_id, changes.guild_id, changes.encounter_json, time.time()),
                    )
                )
        for entry in changes.log:
            statements.append(
                (
                    "INSERT INTO encounter_log (channel_id, round, text) VALUES (?, ?, ?)",
                    (changes.channel_id, entry.round, entry.text),
                )
            )
        for write in changes.character_grit:
            statements.append(
                (
                    "UPDATE characters SET data = json_set(data, '$.grit', ?, '$.max_grit', ?,"
                    " '$.injuries', ?) WHERE id = ?",
                    (write.grit, write.max_grit, write.injuries, write.character_id),
                )
            )
        await self._write(statements)
        if changes.write_encounter:
            self._remember(changes.channel_id, changes.encounter_json)

    async def _round_log(self, channel_id: int, round: int) -> list[LogEntry]:
        rows = await self._fetchall(
            "SELECT round, text FROM encounter_log WHERE channel_id = ? AND round = ? ORDER BY id",
            (channel_id, round),
        )
        return [LogEntry(round=r[0], text=r[1]) for r in rows]

    async def encounter_channels(self) -> list[int]:
        rows = await self._fetchall("SELECT channel_id FROM encounters ORDER BY channel_id")
        return [row[0] for row in rows]

    async def pending_attack_channels(self) -> list[int]:
        # A damaged row is not valid JSON: json_valid keeps it from failing the whole query.
        rows = await self._fetchall(
            "SELECT channel_id FROM encounters WHERE json_valid(data)"
            " AND json_array_length(data, '$.pending_attacks') > 0 ORDER BY channel_id"
        )
        return [row[0] for row in rows]

    async def character_fight(self, character_id: int) -> int | None:
        row = await self._fetchone(
            "SELECT e.channel_id FROM encounters AS e, json_each(e.data, '$.combatants') AS c"
            " WHERE json_valid(e.data) AND json_extract(c.value, '$.character_id') = ?"
            " LIMIT 1",
            (character_id,),
        )
        return None if row is None else row[0]

    async def recent_encounter_channels(self, since: float) -> list[int]:
        rows = await self._fetchall(
            "SELECT channel_id FROM encounters WHERE updated_at >= ? ORDER BY updated_at DESC",
            (since,),
        )
        return [row[0] for row in rows]

    # Characters
    @staticmethod
    def _character(row: aiosqlite.Row) -> Character:
        try:
            return Character.model_validate_json(row[1]).model_copy(update={"id": row[0]})
        except ValidationError:
            raise StoreError(
                "A stored character sheet is damaged and cannot be read; ask the bot's host."
            ) from None

    async def save_character(self, character: Character) -> Character:
        data = character.model_dump_json(exclude={"id"})
        try:
            return await self._save_character(character, data)
        except sqlite3.IntegrityError:
            raise BadInput(f"You already have a character named {character.name}.") from None

    async def _save_character(self, character: Character, data: str) -> Character:
        if character.id is None:
            (new_id,) = await self._transaction(
                [
                    (
                        "INSERT INTO characters (guild_id, owner_id, name, data) VALUES (?, ?, ?, ?)",
                        (character.guild_id, character.owner_id, character.name, data),
                    )
                ]
            )
            return character.model_copy(update={"id": new_id})
        await self._transaction(
            [
                (
                    "UPDATE characters SET name = ?, data = ? WHERE id = ?",
                    (character.name, data, character.id),
                )
            ]
        )
        return character

    async def get_character(self, guild_id: int, owner_id: int, name: str) -> Character | None:
        row = await self._fetchone(
            "SELECT id, data FROM characters WHERE guild_id = ? AND owner_id = ? AND name = ?",
            (guild_id, owner_id, name),
        )
        return None if row is None else self._character(row)

    async def character_by_id(self, character_id: int) -> Character | None:
        row = await self._fetchone("SELECT id, data FROM characters WHERE id = ?", (character_id,))
        return None if row is None else self._character(row)

    async def list_characters(self, guild_id: int, owner_id: int) -> list[Character]:
        rows = await self._fetchall(
            "SELECT id, data FROM characters WHERE guild_id = ? AND owner_id = ? ORDER BY name",
            (guild_id, owner_id),
        )
        return [self._character(row) for row in rows]

    async def delete_character(self, guild_id: int, owner_id: int, name: str) -> bool:
        row = await self._fetchone(
            "SELECT id FROM characters WHERE guild_id = ? AND owner_id = ? AND name = ?",
            (guild_id, owner_id, name),
        )
        if row is None:
            return False
        await self._transaction([("DELETE FROM characters WHERE id = ?", (row[0],))])
        return True

    async def set_active_character(self, guild_id: int, owner_id: int, character_id: int) -> None:
        await self._transaction(
            [
                (
                    "INSERT INTO active_characters (guild_id, owner_id, character_id)"
                    " VALUES (?, ?, ?) ON CONFLICT (guild_id, owner_id)"
                    " DO UPDATE SET character_id = excluded.character_id",
                    (guild_id, owner_id, character_id),
                )
            ]
        )

    async def active_character(self, guild_id: int, owner_id: int) -> Character | None:
        row = await self._fetchone(
            "SELECT c.id, c.data FROM active_characters a JOIN characters c"
            " ON c.id = a.character_id WHERE a.guild_id = ? AND a.owner_id = ?",
            (guild_id, owner_id),
        )
        return None if row is None else self._character(row)

    # Settings
    async def get_settings(self, guild_id: int) -> GuildSettings:
        row = await self._fetchone(
            "SELECT data FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        if row is None:
            return GuildSettings(guild_id=guild_id)
        return GuildSettings.model_validate_json(row[0])

    async def save_settings(self, settings: GuildSettings) -> None:
        await self._transaction(
            [
                (
                    "INSERT INTO guild_settings (guild_id, data) VALUES (?, ?)"
                    " ON CONFLICT (guild_id) DO UPDATE SET data = excluded.data",
                    (settings.guild_id, settings.model_dump_json()),
                )
            ]
        )


def _run_transaction(
    connection: sqlite3.Connection, statements: list[tuple[str, tuple]]
) -> list[int | None]:
    """Run statements as one transaction on the database thread; return each last row id."""
    ids: list[int | None] = []
    try:
        # The sqlite3 module opens the transaction (BEGIN IMMEDIATE) with the first write.
        for sql, params in _runs(statements):
            if len(params) == 1:
                ids.append(connection.execute(sql, params[0]).lastrowid)
            else:
                connection.executemany(sql, params)
                ids.extend([None] * len(params))
        connection.commit()
    except BaseException:
        connection.rollback()
        raise
    return ids


def _runs(statements: list[tuple[str, tuple]]) -> list[tuple[str, list[tuple]]]:
    """Group consecutive uses of the same statement: [(sql, [params, …]), …]."""
    runs: list[tuple[str, list[tuple]]] = []
    for sql, params in statements:
        if runs and runs[-1][0] == sql:
            runs[-1][1].append(params)
        else:
            runs.append((sql, [params]))
    return runs
