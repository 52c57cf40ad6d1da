"""Where the SQLite store's writes run: on the event loop when small and the thread is idle,
else on the database thread; and the WAL checkpointed on that thread, never in a commit."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

import pytest

import bot.store.sqlite as sqlite_store
from bot.store.sqlite import AT_ONCE_BYTES, DatabaseThread, SQLiteStore
from tests.unit.store.holding import HoldingCall

LOOP_THREAD = threading.main_thread().name


def _recording_threads(store: SQLiteStore, *, warmed_up: bool = True) -> list[str]:
    """Register `here()` on the store's connection: each call notes the thread it ran on.

    The bot says when its warm-up thread is done (`warmed_up`); here, unless told not to.
    """
    threads: list[str] = []
    if warmed_up:
        store.warmed_up()

    def here() -> int:
        threads.append(threading.current_thread().name)
        return len(threads)

    store.conn.create_function("here", 0, here)
    return threads


def _note(text: str = "x") -> tuple[str, tuple]:
    return ("INSERT INTO guild_settings (guild_id, data) VALUES (here(), ?)", (text,))


async def test_the_thread_is_idle_only_when_every_call_handed_over_is_finished() -> None:
    """`idle` said True while a call ran or waited (a cancelled one until it was passed)."""
    thread = DatabaseThread()
    try:
        assert thread.idle
        slow = HoldingCall()
        first = asyncio.create_task(thread.call(slow))
        second = asyncio.create_task(thread.call(len, "ab"))
        await slow.started()
        assert not thread.idle
        second.cancel()
        await asyncio.sleep(0)
        assert not thread.idle  # the cancelled call is still in the queue
        slow.release()
        await first
        assert await thread.call(len, "abc") == 3
        assert thread.idle
    finally:
        thread.stop()


async def test_a_small_write_runs_on_the_loop_when_the_thread_is_idle(tmp_path: Path) -> None:
    """A 10-combatant commit (about 15 KB) still made the round trip to the database thread."""
    async with SQLiteStore(tmp_path / "t.db") as store:
        threads = _recording_threads(store)
        await store._write([_note("x" * 15_000)])
        assert threads == [LOOP_THREAD]
        rows = await store._fetchall("SELECT guild_id, length(data) FROM guild_settings")
        assert rows == [(1, 15_000)]


async def test_writes_run_on_the_thread_until_the_warm_up_is_over(tmp_path: Path) -> None:
    """A write ran on the loop while the warm-up thread competed for the interpreter lock."""
    async with SQLiteStore(tmp_path / "t.db") as store:
        threads = _recording_threads(store, warmed_up=False)
        await store._write([_note()])
        store.warmed_up()
        await store._write([_note()])
        assert threads == ["tablehand-sqlite", LOOP_THREAD]


async def test_a_write_above_the_limit_runs_on_the_thread(tmp_path: Path) -> None:
    """A write of more than AT_ONCE_BYTES (64 KiB) of text ran on the event loop."""
    async with SQLiteStore(tmp_path / "t.db") as store:
        threads = _recording_threads(store)
        await store._write([_note("x" * AT_ONCE_BYTES)])
        await store._write([_note("x" * (AT_ONCE_BYTES + 1))])
        assert threads == [LOOP_THREAD, "tablehand-sqlite"]


async def test_a_write_while_the_thread_is_busy_waits_its_turn_there(tmp_path: Path) -> None:
    """A write ran on the loop beside a call the thread had not finished, or before it."""
    async with SQLiteStore(tmp_path / "t.db") as store:
        threads = _recording_threads(store)
        assert store._thread is not None
        order: list[str] = []
        slow = HoldingCall(order)
        busy = asyncio.create_task(store._thread.call(slow))
        await slow.started()
        write = asyncio.create_task(store._write([_note()]))
        await asyncio.sleep(0.05)
        assert not write.done()
        slow.release()
        await busy
        await write
        order.append("write")
        assert order == ["slow", "write"]
        assert threads == ["tablehand-sqlite"]


async def test_a_file_locked_by_another_program_never_stalls_the_loop(tmp_path: Path) -> None:
    """The loop waited out SQLite's busy timeout for a file another connection held."""
    path = tmp_path / "t.db"
    async with SQLiteStore(path) as store:
        threads = _recording_threads(store)
        other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        other.execute("BEGIN IMMEDIATE")  # another program holds the write lock
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0.01)

        beat = asyncio.create_task(ticker())
        write = asyncio.create_task(store._write([_note()]))
        await asyncio.sleep(0.3)
        assert not write.done()  # waiting on the thread, within the busy timeout
        assert ticks >= 10  # and the loop kept running meanwhile
        other.execute("COMMIT")
        await write
        beat.cancel()
        other.close()
        assert threads == ["tablehand-sqlite"]
        assert await store._fetchall("SELECT guild_id FROM guild_settings") == [(1,)]


async def test_commits_never_checkpoint_the_thread_does_past_its_mark(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A commit checkpointed the WAL itself (on the loop), or none ran after the mark."""
    monkeypatch.setattr(sqlite_store, "CHECKPOINT_BYTES", 10_000)
    checkpoints: list[tuple[str, tuple]] = []

    def checkpoint(conn: sqlite3.Connection) -> None:
        # busy, frames in the WAL, frames checkpointed (SQLite's PRAGMA wal_checkpoint)
        found = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        checkpoints.append((threading.current_thread().name, tuple(found)))

    monkeypatch.setattr(sqlite_store, "_checkpoint", checkpoint)
    async with SQLiteStore(tmp_path / "t.db") as store:
        _recording_threads(store)
        assert await store._fetchall("PRAGMA wal_autocheckpoint") == [(0,)]
        for _ in range(4):
            await store._write([_note("x" * 2_000)])  # 8,000 characters: under the mark
        assert checkpoints == []
        await store._write([_note("x" * 2_000)])  # 10,000: the mark
        assert store._checkpoint is not None
        await store._checkpoint
        assert len(checkpoints) == 1
        name, (busy, frames, copied) = checkpoints[0]
        assert name == "tablehand-sqlite"
        assert busy == 0 and frames > 0 and copied == frames
        await store._write([_note("x" * 2_000)])
        assert len(checkpoints) == 1  # counting starts again from the checkpoint
