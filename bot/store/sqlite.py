"""The SQLite store: one connection, its own thread, WAL, migrations at open.

Statements run on the database thread, one call at a time, a round trip from the event
loop each; a small write finding that thread idle runs on the loop at once instead (see
`SQLiteStore._write`), the connection still used by one thread at a time. `_db`
serialises whole statements and whole write transactions (each a few hundred
microseconds); a channel's long work between load and commit happens under its own
channel lock only, so channels never wait for each other's commands, only for each
other's commits. The WAL is checkpointed on the database thread, never in a commit.

SQLite serves one process: the store takes an exclusive lock on the database file when
it opens, and a second process is refused at once. Several processes share a
PostgreSQL database instead (bot/store/postgres.py).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import queue
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

from pydantic import ValidationError

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
from bot.store.migrations import LATEST_VERSION, MIGRATIONS

try:
    import fcntl
except ImportError:  # Windows: no advisory file locks; one process is then the host's promise
    fcntl = None  # type: ignore[assignment]

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5000
# Channels whose committed encounter text is kept in memory (about 15 KB each for 10
# combatants with a weapon and a power): the channels in play now; one played less recently
# is read from the file again, one thread round trip.
ENCOUNTER_CACHE_SIZE = 256
CHARACTER_NAMES_KEPT = 1024  # players whose character names are kept (a few hundred bytes each)
# Channel blocks open at once (PostgreSQL's block pool bounds its own the same way). Each
# holds its encounter parsed (~40 KiB for 10 combatants) and its text; past this, commands
# of other channels wait in line before they load anything, so a burst costs queue, not
# memory. An attack's prompt holds its block across a REST call (~40 a second at 200/s,
# a few hundred ms each on Discord): room for those with a margin.
OPEN_BLOCKS = 32
# A write of at most this much text runs on the event loop when the database thread is idle
# (a 10-combatant fight's commit is some 15 KB: about 0.1 ms there, while the round trip to
# the thread and back cost some 0.17 ms more). Larger ones go to the thread: the loop never
# waits on a big write.
AT_ONCE_BYTES = 64 * 1024
# The WAL is checkpointed (on the thread, PASSIVE) after about this much text is written:
# SQLite's own automatic checkpoint, after 1,000 pages, would run inside whichever commit
# crossed the mark, on the event loop for a write made there.
CHECKPOINT_BYTES = 4 * 1024 * 1024
T = TypeVar("T")
Statement = tuple[str, tuple]


class DatabaseInUse(StoreError):
    """Another process has the SQLite database open."""


class SQLiteStore(Store):
    """Encounters, characters and settings in one SQLite file."""

    def __init__(self, path: str | Path, *, lock_file: bool = True) -> None:
        super().__init__()
        self.path = str(path)
        self.lock_file = lock_file  # False only for tests of what the lock prevents
        self._conn: sqlite3.Connection | None = None
        self._thread: DatabaseThread | None = None
        self._lock_fd: int | None = None
        self._db = asyncio.Lock()
        # The committed encounter text and version of recently used channels. This process
        # is the database's only writer (the file lock), so the cache is exact: written
        # after each commit, dropped whenever anything else writes. It saves a thread round
        # trip per load; the version check on commit would still catch a stale entry.
        self._committed: OrderedDict[int, tuple[str | None, int]] = OrderedDict()
        self._open_blocks = asyncio.Semaphore(OPEN_BLOCKS)
        # Writes begun so far, and those not finished: a read with no write begun while it
        # ran and none unfinished at its end read what is committed now, lock or no lock.
        self._writes = 0
        self._writing = 0
        self._unchecked = 0  # bytes of text written since the last checkpoint began
        # Small writes run on the loop only once no worker thread competes for the
        # interpreter lock: each statement hands it over, and getting it back from a busy
        # thread can take the switch interval (5 ms). At start the bot's warm-up builds
        # models in a thread: writes on the loop then stalled it 23-30 ms, not 7-15.
        self._at_once = False
        self._checkpoint: asyncio.Future[None] | None = None
        # The names of someone's characters on a server, as autocomplete lists them on
        # every keystroke; dropped whenever a write could change any of them.
        self._character_names: OrderedDict[tuple[int, int], tuple[str, ...]] = OrderedDict()

    @property
    def conn(self) -> sqlite3.Connection:
        if self._conn is None:
            raise RuntimeError("the store is not open")
        return self._conn

    async def open(self) -> None:
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            if self.lock_file:
                self._lock_database()
        self._thread = DatabaseThread()
        try:
            self._conn = await self._call(_connect, self.path)
            await self._migrate()
        except BaseException:
            await self.close()
            raise

    def _lock_database(self) -> None:
        """Hold an exclusive lock on the database file while open; refuse if another has it."""
        if fcntl is None:
            return
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            # flock, not SQLite's own fcntl byte-range locks: the two never interfere on
            # Linux, and the lock goes when the process does, however it ends.
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise DatabaseInUse(
                f"The database {self.path} is in use by another Tablehand process; "
                "run one process per SQLite file (several processes need TABLEHAND_DATABASE_URL "
                "to point at PostgreSQL)."
            ) from None
        self._lock_fd = fd

    async def close(self) -> None:
        if self._conn is not None:
            conn, self._conn = self._conn, None
            await self._call(conn.close)
        if self._thread is not None:
            self._thread.stop()
            self._thread = None
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # closing the descriptor releases the flock
            self._lock_fd = None

    async def _call(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a function on the database thread; one round trip from the event loop."""
        if self._thread is None:
            raise RuntimeError("the store is not open")
        return await self._thread.call(fn, *args)

    async def schema_version(self) -> int:
        """Return the version recorded in the database (0 for a new file)."""
        return await self._call(_schema_version, self.conn)

    async def _migrate(self) -> None:
        applied = await self._call(_migrate, self.conn, self.path)
        for version, description in applied:
            log.info("migrated the database to schema version %d: %s", version, description)

    # Reads and writes, each one call on the database thread.
    async def _fetchone(self, sql: str, params: tuple = ()) -> tuple | None:
        rows = await self._fetchall(sql, params)
        return rows[0] if rows else None

    async def _fetchall(self, sql: str, params: tuple = ()) -> list[tuple]:
        async with self._db:
            return await self._call(_fetchall, self.conn, sql, params)

    async def _transaction(self, statements: list[Statement]) -> list[int | None]:
        """Run statements in one transaction (anything may change: the caches are dropped)."""
        self._committed.clear()
        self._character_names.clear()
        return await self._write(statements)

    async def _write(
        self, statements: list[Statement], guards: list[Statement] | None = None
    ) -> list[int | None]:
        """Run statements in one transaction; return the last inserted row id after each.

        `guards`, run first, must each change exactly one row (the channel's versioned
        write, a sheet's conditional claim); if one changes none, another writer got there
        first and nothing is written.
        """
        self._writes += 1
        self._writing += 1
        guards = guards or []
        size = _text_size(guards) + _text_size(statements)
        try:
            async with self._db:
                done = None
                if (
                    self._at_once
                    and size <= AT_ONCE_BYTES
                    and self._thread is not None
                    and self._thread.idle
                ):
                    # Nothing else is using the connection (`_db` is held and the thread
                    # has no call): run here and save the round trip, unless the file is
                    # locked by someone else (then wait on the thread, as ever).
                    done = _run_transaction_at_once(self.conn, guards, statements)
                if done is None:
                    done = await self._call(_run_transaction, self.conn, guards, statements)
        finally:
            self._writing -= 1
        self._written(size)
        return done

    def warmed_up(self) -> None:
        self._at_once = True

    def _written(self, size: int) -> None:
        """Count text written; past CHECKPOINT_BYTES, checkpoint the WAL on the thread."""
        self._unchecked += size
        if self._unchecked < CHECKPOINT_BYTES or self._thread is None:
            return
        if self._checkpoint is not None and not self._checkpoint.done():
            return  # the last one is still running
        self._unchecked = 0
        self._checkpoint = asyncio.ensure_future(self._call(_checkpoint, self.conn))
        self._checkpoint.add_done_callback(_checkpointed)

    def _unwritten_since(self, writes: int) -> bool:
        """Say whether no write began since `writes` was read and none is unfinished."""
        # Calls run one at a time on the database thread: a read overlapping no write
        # ran wholly before or after each, so what it read is still what is stored.
        return self._writes == writes and self._writing == 0

    # Channels
    @asynccontextmanager
    async def _channel_transaction(
        self, channel_id: int, give_up_at: float | None = None
    ) -> AsyncIterator[object]:
        if self._open_blocks.locked():
            await waited(self._open_blocks.acquire(), give_up_at)
        else:
            await self._open_blocks.acquire()  # room now: taken at once, no clock to arm
        try:
            yield None  # the in-process channel lock is the whole lock: one process per file
        finally:
            self._open_blocks.release()

    async def _load(
        self, channel_id: int, *, locked: bool = True, transaction: object = None
    ) -> LoadedChannel:
        cached = self._committed.get(channel_id)
        if cached is not None:
            self._committed.move_to_end(channel_id)
            return LoadedChannel(encounter_json=cached[0], version=cached[1])
        writes = self._writes
        row = await self._fetchone(
            "SELECT data, version FROM encounters WHERE channel_id = ?", (channel_id,)
        )
        loaded = (None, 0) if row is None else (row[0], row[1])
        if locked or self._unwritten_since(writes):
            # A lock-free read that overlapped a write could finish after a commit and put
            # back the text that commit replaced; one that overlapped none is current.
            self._remember(channel_id, *loaded)
        return LoadedChannel(encounter_json=loaded[0], version=loaded[1])

    def _remember(self, channel_id: int, encounter_json: str | None, version: int) -> None:
        self._committed[channel_id] = (encounter_json, version)
        self._committed.move_to_end(channel_id)
        while len(self._committed) > ENCOUNTER_CACHE_SIZE:
            self._committed.popitem(last=False)

    async def _commit(self, changes: ChannelChanges, *, transaction: object = None) -> None:
        guards = [_encounter_write(changes)] if changes.write_encounter else []
        guards += _claims(changes)
        statements: list[Statement] = [
            (
                "INSERT INTO encounter_log (channel_id, round, text) VALUES (?, ?, ?)",
                (changes.channel_id, entry.round, entry.text),
            )
            for entry in changes.log
        ]
        statements += _sheet_writes(changes)
        try:
            await self._write(statements, guards)
        except StoreConflict:
            self._committed.pop(changes.channel_id, None)  # stale: read it again next time
            raise
        if changes.write_encounter:
            version = 0 if changes.encounter_json is None else changes.version + 1
            self._remember(changes.channel_id, changes.encounter_json, version)

    async def _round_log(self, channel_id: int, round: int) -> list[LogEntry]:
        rows = await self._fetchall(
            "SELECT round, text FROM encounter_log WHERE channel_id = ? AND round = ? ORDER BY id",
            (channel_id, round),
        )
        return [LogEntry(round=r[0], text=r[1]) for r in rows]

    async def encounter_channels(self, guild_ids: GuildFilter = None) -> list[int]:
        rows = await self._fetchall(
            "SELECT channel_id, guild_id FROM encounters ORDER BY channel_id"
        )
        return _of_guilds(rows, guild_ids)

    async def pending_attack_channels(self, guild_ids: GuildFilter = None) -> list[int]:
        # The flag each commit writes (migration 5): an index look-up, not every row's JSON.
        rows = await self._fetchall(
            "SELECT channel_id, guild_id FROM encounters WHERE pending ORDER BY channel_id"
        )
        return _of_guilds(rows, guild_ids)

    async def character_fight(self, character_id: int) -> int | None:
        row = await self._fetchone(
            "SELECT fight_channel FROM characters WHERE id = ?", (character_id,)
        )
        return None if row is None else row[0]

    async def recent_encounter_channels(
        self, since: float, guild_ids: GuildFilter = None
    ) -> list[int]:
        rows = await self._fetchall(
            "SELECT channel_id, guild_id FROM encounters WHERE updated_at >= ?"
            " ORDER BY updated_at DESC",
            (since,),
        )
        return _of_guilds(rows, guild_ids)

    # Characters
    @staticmethod
    def _character(row: tuple) -> Character:
        try:
            return Character.model_validate_json(row[1]).model_copy(update={"id": row[0]})
        except ValidationError:
            raise StoreError(
                "A stored character sheet is damaged and cannot be read; ask the bot's host."
            ) from None

    async def create_character(self, character: Character) -> Character:
        if character.id is not None:
            raise ValueError("a new character has no id yet")
        data = character.model_dump_json(exclude={"id"})
        key = character_key(character.name)
        insert = (
            "INSERT INTO characters (guild_id, owner_id, name, name_key, data)"
            " VALUES (?, ?, ?, ?, ?)",
            (character.guild_id, character.owner_id, character.name, key, data),
        )
        self._character_names.clear()
        try:
            (new_id,) = await self._write([insert])
        except sqlite3.IntegrityError:
            raise character_taken(character.name) from None
        return character.model_copy(update={"id": new_id})

    async def _load_sheet(
        self, character_id: int, *, transaction: object = None
    ) -> LoadedSheet | None:
        row = await self._fetchone(
            "SELECT id, data, fight_channel FROM characters WHERE id = ?", (character_id,)
        )
        return None if row is None else LoadedSheet(self._character(row), row[2])

    async def _write_sheet(
        self, character_id: int, changed: dict[str, Any], *, transaction: object = None
    ) -> None:
        # json_set of each changed key: what anyone wrote to another field meanwhile stays.
        paths = ", ?, json(?)" * len(changed)
        values: list[object] = []
        for key, value in changed.items():
            values += [f"$.{key}", json.dumps(value)]
        columns = ""
        if "name" in changed:
            columns = ", name = ?, name_key = ?"
            values += [changed["name"], character_key(changed["name"])]
        free = " AND fight_channel IS NULL" if changed.keys() & FIGHT_FIELDS else ""
        update = (
            f"UPDATE characters SET data = json_set(data{paths}){columns} WHERE id = ?{free}",
            (*values, character_id),
        )
        self._character_names.clear()  # a name, an owner: whatever changed, list again
        try:
            await self._write([], [update])
        except sqlite3.IntegrityError:
            raise character_taken(changed["name"]) from None

    async def _delete_sheet(self, character_id: int, *, transaction: object = None) -> None:
        self._character_names.clear()
        await self._write(
            [], [("DELETE FROM characters WHERE id = ? AND fight_channel IS NULL", (character_id,))]
        )

    async def get_character(self, guild_id: int, owner_id: int, name: str) -> Character | None:
        row = await self._fetchone(
            "SELECT id, data FROM characters WHERE guild_id = ? AND owner_id = ? AND name_key = ?",
            (guild_id, owner_id, character_key(name)),
        )
        return None if row is None else self._character(row)

    async def character_by_id(self, character_id: int) -> Character | None:
        row = await self._fetchone("SELECT id, data FROM characters WHERE id = ?", (character_id,))
        return None if row is None else self._character(row)

    async def list_characters(self, guild_id: int, owner_id: int) -> list[Character]:
        rows = await self._fetchall(
            "SELECT id, data FROM characters WHERE guild_id = ? AND owner_id = ? ORDER BY name_key",
            (guild_id, owner_id),
        )
        return [self._character(row) for row in rows]

    async def character_names(self, guild_id: int, owner_id: int) -> list[str]:
        key = (guild_id, owner_id)
        names = self._character_names.get(key)
        if names is None:
            writes = self._writes
            names = tuple(c.name for c in await self.list_characters(guild_id, owner_id))
            if self._unwritten_since(writes):
                self._character_names[key] = names
                while len(self._character_names) > CHARACTER_NAMES_KEPT:
                    self._character_names.popitem(last=False)
        else:
            self._character_names.move_to_end(key)
        return list(names)

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
    # NPC templates
    @staticmethod
    def _npc(row: tuple) -> NpcTemplate:
        try:
            return NpcTemplate.model_validate_json(row[1]).model_copy(update={"id": row[0]})
        except ValidationError:
            raise StoreError(
                "A stored NPC template is damaged and cannot be read; ask the bot's host."
            ) from None

    async def create_npc(self, template: NpcTemplate) -> NpcTemplate:
        if template.id is not None:
            raise ValueError("a new template has no id yet")
        insert = (
            "INSERT INTO npc_templates (guild_id, name, name_key, data) VALUES (?, ?, ?, ?)",
            (
                template.guild_id,
                template.name,
                character_key(template.name),
                template.model_dump_json(exclude={"id"}),
            ),
        )
        try:
            (new_id,) = await self._write([insert])
        except sqlite3.IntegrityError:
            raise npc_taken(template.name) from None
        return template.model_copy(update={"id": new_id})

    async def get_npc(self, guild_id: int, name: str) -> NpcTemplate | None:
        row = await self._fetchone(
            "SELECT id, data FROM npc_templates WHERE guild_id = ? AND name_key = ?",
            (guild_id, character_key(name)),
        )
        return None if row is None else self._npc(row)

    async def list_npcs(self, guild_id: int) -> list[NpcTemplate]:
        rows = await self._fetchall(
            "SELECT id, data FROM npc_templates WHERE guild_id = ? ORDER BY name_key", (guild_id,)
        )
        return [self._npc(row) for row in rows]

    async def _load_npc(self, npc_id: int, *, transaction: object = None) -> NpcTemplate | None:
        row = await self._fetchone("SELECT id, data FROM npc_templates WHERE id = ?", (npc_id,))
        return None if row is None else self._npc(row)

    async def _write_npc(self, template: NpcTemplate, *, transaction: object = None) -> None:
        update = (
            "UPDATE npc_templates SET name = ?, name_key = ?, data = ? WHERE id = ?",
            (
                template.name,
                character_key(template.name),
                template.model_dump_json(exclude={"id"}),
                template.id,
            ),
        )
        try:
            await self._write([], [update])
        except sqlite3.IntegrityError:
            raise npc_taken(template.name) from None

    async def _delete_npc(self, npc_id: int, *, transaction: object = None) -> None:
        await self._write([("DELETE FROM npc_templates WHERE id = ?", (npc_id,))])

    async def get_settings(self, guild_id: int) -> GuildSettings:
        row = await self._fetchone(
            "SELECT data FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return self._stored_settings(guild_id, None if row is None else row[0])

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


class DatabaseThread:
    """The thread that runs the connection's calls handed to it, in order.

    A call is one future and one queue entry: `run_in_executor` cost about three times
    the work per call (a pool's bookkeeping, and two futures chained across threads), and
    every command block makes at least one. As with the pool, a call cancelled before the
    thread reaches it is not run; one already running finishes, its result unheard.
    `idle` says the thread has nothing to run and is not running anything: the event
    loop, which alone hands calls over, may then use the connection itself.
    """

    def __init__(self) -> None:
        self._calls: queue.SimpleQueue[Call | None] = queue.SimpleQueue()
        # Each counter is written by one thread only (the loop hands over, this thread
        # finishes), so neither update can be lost between them.
        self._handed = 0
        self._finished = 0
        self._thread = threading.Thread(target=self._serve, name="tablehand-sqlite", daemon=True)
        self._thread.start()

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """Run `fn(*args)` on the thread; return its result or raise what it raised."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._handed += 1
        self._calls.put((fn, args, loop, future))
        return await future

    @property
    def idle(self) -> bool:
        """Say whether every call handed over is finished (or skipped): none runs now."""
        return self._finished == self._handed

    def stop(self) -> None:
        """Run the calls already handed over, then end the thread (waits for it)."""
        self._calls.put(None)
        self._thread.join()

    def _serve(self) -> None:
        while (call := self._calls.get()) is not None:
            fn, args, loop, future = call
            if future.cancelled():
                self._finished += 1
                continue  # given up before it ran: not run, as a pool's cancelled call
            try:
                result = fn(*args)
            except BaseException as error:
                self._finished += 1  # done with the connection: the loop may use it now
                _settle_soon(loop, future, None, error)
            else:
                self._finished += 1
                _settle_soon(loop, future, result, None)


Call = tuple[Callable[..., Any], tuple, asyncio.AbstractEventLoop, "asyncio.Future[Any]"]


def _settle_soon(
    loop: asyncio.AbstractEventLoop,
    future: asyncio.Future[Any],
    result: object,
    error: BaseException | None,
) -> None:
    """Hand a call's outcome to its event loop (from the database thread)."""
    try:
        loop.call_soon_threadsafe(_settle, future, result, error)
    except RuntimeError:
        pass  # the loop is closed: nobody is waiting any more


def _settle(future: asyncio.Future[Any], result: object, error: BaseException | None) -> None:
    """Give a call's future its outcome, unless its caller gave up on it (on the loop)."""
    if future.cancelled():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


def _of_guilds(rows: list[tuple], guild_ids: GuildFilter) -> list[int]:
    """Keep the channels (first column) whose guild (second column) is one of these."""
    if guild_ids is None:
        return [row[0] for row in rows]
    wanted = set(guild_ids)
    return [row[0] for row in rows if row[1] in wanted]


def _claims(changes: ChannelChanges) -> list[Statement]:
    """Return the claims of the sheets a fight takes: each must find its sheet free."""
    return [
        (
            "UPDATE characters SET fight_channel = ? WHERE id = ? AND fight_channel IS NULL",
            (changes.channel_id, character_id),
        )
        for character_id in changes.claims
    ]


def _sheet_writes(changes: ChannelChanges) -> list[Statement]:
    """Return a fight's Grit written back to the sheets it holds, then the claims it lets go."""
    channel_id = changes.channel_id
    # A sheet no fight holds takes the write-back too: a fight stored before claims
    # existed, or joined by an older process during a rolling restart, never claimed it.
    writes: list[Statement] = [
        (
            "UPDATE characters SET data = json_set(data, '$.grit', ?, '$.max_grit', ?,"
            " '$.injuries', ?) WHERE id = ? AND (fight_channel = ? OR fight_channel IS NULL)",
            (w.grit, w.max_grit, w.injuries, w.character_id, channel_id),
        )
        for w in changes.character_grit
    ]
    if changes.release_all:
        writes.append(
            ("UPDATE characters SET fight_channel = NULL WHERE fight_channel = ?", (channel_id,))
        )
    else:
        writes += [
            (
                "UPDATE characters SET fight_channel = NULL WHERE id = ? AND fight_channel = ?",
                (character_id, channel_id),
            )
            for character_id in changes.released
        ]
    return writes


def _encounter_write(changes: ChannelChanges) -> Statement:
    """Return the statement that writes the encounter, only if it is still at its version."""
    if changes.encounter_json is None:
        return (
            "DELETE FROM encounters WHERE channel_id = ? AND version = ?",
            (changes.channel_id, changes.version),
        )
    if changes.version == 0:
        return (
            "INSERT INTO encounters (channel_id, guild_id, data, updated_at, pending, version)"
            " VALUES (?, ?, ?, ?, ?, 1) ON CONFLICT (channel_id) DO NOTHING",
            (
                changes.channel_id,
                changes.guild_id,
                changes.encounter_json,
                time.time(),
                changes.pending_attacks,
            ),
        )
    return (
        "UPDATE encounters SET guild_id = ?, data = ?, updated_at = ?, pending = ?,"
        " version = version + 1 WHERE channel_id = ? AND version = ?",
        (
            changes.guild_id,
            changes.encounter_json,
            time.time(),
            changes.pending_attacks,
            changes.channel_id,
            changes.version,
        ),
    )


# On the database thread -------------------------------------------------------------


def _connect(path: str) -> sqlite3.Connection:
    # Autocommit mode: every transaction is an explicit BEGIN IMMEDIATE ... COMMIT.
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    for pragma in (
        "PRAGMA journal_mode=WAL",
        "PRAGMA synchronous=NORMAL",
        "PRAGMA foreign_keys=ON",
        f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}",
        "PRAGMA wal_autocheckpoint=0",  # the store checkpoints on its thread (_checkpoint)
    ):
        conn.execute(pragma)
    return conn


def _fetchall(conn: sqlite3.Connection, sql: str, params: tuple) -> list[tuple]:
    return conn.execute(sql, params).fetchall()


def _schema_version(conn: sqlite3.Connection) -> int:
    found = conn.execute(
        "SELECT name FROM sqlite_master WHERE type='table' AND name='schema_version'"
    ).fetchone()
    if found is None:
        return 0
    return int(conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0] or 0)


def _migrate(conn: sqlite3.Connection, path: str) -> list[tuple[int, str]]:
    """Apply pending migrations; the version is read inside the write lock, so two starts
    racing on one file cannot both apply a step."""
    applied: list[tuple[int, str]] = []
    conn.execute("BEGIN IMMEDIATE")
    try:
        current = _schema_version(conn)
        if current > LATEST_VERSION:
            raise StoreError(
                "The database {path} has schema version {current}, newer than this "
                "Tablehand knows ({latest}). Upgrade Tablehand or use another TABLEHAND_DB.",
                path=path,
                current=current,
                latest=LATEST_VERSION,
            )
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_version ("
            " version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at REAL NOT NULL)"
        )
        for version, description, steps in MIGRATIONS:
            if version <= current:
                continue
            for step in steps:
                if callable(step):
                    step(conn)
                else:
                    conn.execute(step)
            conn.execute(
                "INSERT INTO schema_version (version, description, applied_at) VALUES (?, ?, ?)",
                (version, description, time.time()),
            )
            applied.append((version, description))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return applied


def _run_transaction(
    conn: sqlite3.Connection, guards: list[Statement], statements: list[Statement]
) -> list[int | None]:
    """Run guarded writes and statements as one transaction; return each last row id."""
    conn.execute("BEGIN IMMEDIATE")
    return _run_begun(conn, guards, statements)


def _run_transaction_at_once(
    conn: sqlite3.Connection, guards: list[Statement], statements: list[Statement]
) -> list[int | None] | None:
    """Run a transaction as `_run_transaction` does, or None at once if the file is locked.

    For the event loop: only another program writing the file could hold its lock (the
    store's own writes are one at a time), and the loop must not wait out busy_timeout.
    """
    conn.execute("PRAGMA busy_timeout=0")
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError:
        return None  # locked: nothing begun, the caller runs it on the thread
    finally:
        conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    return _run_begun(conn, guards, statements)


def _run_begun(
    conn: sqlite3.Connection, guards: list[Statement], statements: list[Statement]
) -> list[int | None]:
    ids: list[int | None] = []
    try:
        for guard in guards:
            if conn.execute(*guard).rowcount != 1:
                raise StoreConflict()
        for sql, params in _runs(statements):
            if len(params) == 1:
                ids.append(conn.execute(sql, params[0]).lastrowid)
            else:
                conn.executemany(sql, params)
                ids.extend([None] * len(params))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return ids


def _checkpoint(conn: sqlite3.Connection) -> None:
    # PASSIVE: copies what no reader needs, never waits for one (the readers are this
    # store's own calls, which the thread runs one at a time anyway).
    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()


def _checkpointed(done: asyncio.Future[None]) -> None:
    if not done.cancelled() and done.exception() is not None:
        log.error("checkpointing the database failed", exc_info=done.exception())


def _text_size(statements: list[Statement]) -> int:
    """Return the characters and bytes of text a statement list writes (about its size)."""
    return sum(
        len(value) for _, params in statements for value in params if isinstance(value, str | bytes)
    )


def _runs(statements: list[Statement]) -> list[tuple[str, list[tuple]]]:
    """Group consecutive uses of the same statement: [(sql, [params, …]), …]."""
    runs: list[tuple[str, list[tuple]]] = []
    for sql, params in statements:
        if runs and runs[-1][0] == sql:
            runs[-1][1].append(params)
        else:
            runs.append((sql, [params]))
    return runs
