"""The store's keyed locks and its database thread: what each block waits for, and how."""

from __future__ import annotations

import asyncio
import threading

import pytest

from bot.errors import TableBusy
from bot.store.base import KeyedLocks
from bot.store.sqlite import DatabaseThread
from tests.unit.store.holding import HoldingCall


async def test_a_free_lock_is_taken_at_once_even_past_its_give_up_time() -> None:
    """A lock nobody held or waited for was refused for a give-up time already past."""
    # As before: `waited` never timed out an acquire that did not wait. The block's own
    # check after its locks (Store.channel) is what refuses a late block.
    locks = KeyedLocks()
    loop = asyncio.get_running_loop()
    async with locks.hold("channel", loop.time() - 1):
        assert len(locks) == 1
    assert len(locks) == 0


async def test_a_held_lock_is_waited_for_until_the_give_up_time() -> None:
    """A second holder did not give up at its time, or left its key behind."""
    locks = KeyedLocks()
    loop = asyncio.get_running_loop()
    async with locks.hold("channel"):
        with pytest.raises(TableBusy):
            async with locks.hold("channel", loop.time() + 0.02):
                raise AssertionError("taken while held")
        assert len(locks) == 1
    assert len(locks) == 0


async def test_holders_of_one_key_take_turns_in_arrival_order() -> None:
    """Holders of one key overlapped, or were served out of the order they came in."""
    locks = KeyedLocks()
    inside: list[int] = []
    order: list[int] = []

    async def holder(n: int) -> None:
        async with locks.hold("channel", asyncio.get_running_loop().time() + 5):
            inside.append(n)
            assert inside == [n]
            order.append(n)
            await asyncio.sleep(0)
            inside.remove(n)

    await asyncio.gather(*(holder(n) for n in range(20)))
    assert order == list(range(20))
    assert len(locks) == 0


async def test_a_holder_whose_block_raises_releases_the_lock() -> None:
    """A block that raised kept its lock or its key."""
    locks = KeyedLocks()
    with pytest.raises(ValueError):
        async with locks.hold("channel"):
            raise ValueError("the command refused")
    async with asyncio.timeout(1), locks.hold("channel"):
        pass
    assert len(locks) == 0


async def test_the_database_thread_runs_calls_in_order_off_the_loop() -> None:
    """A call ran on the event loop's thread, out of order, or lost its result or error."""
    thread = DatabaseThread()
    try:
        ran: list[tuple[int, str]] = []

        def call(n: int) -> int:
            ran.append((n, threading.current_thread().name))
            return n * 2

        results = await asyncio.gather(*(thread.call(call, n) for n in range(10)))
        assert results == [n * 2 for n in range(10)]
        assert [n for n, _ in ran] == list(range(10))
        assert {name for _, name in ran} == {"tablehand-sqlite"}

        def fails() -> None:
            raise KeyError("no such row")

        with pytest.raises(KeyError, match="no such row"):
            await thread.call(fails)
    finally:
        thread.stop()


async def test_a_call_given_up_before_it_ran_is_not_run() -> None:
    """A call whose caller was cancelled while it waited its turn still ran."""
    thread = DatabaseThread()
    try:
        ran: list[str] = []
        slow = HoldingCall(ran)
        first = asyncio.create_task(thread.call(slow))
        second = asyncio.create_task(thread.call(ran.append, "second"))
        await slow.started()
        second.cancel()
        await asyncio.sleep(0)
        slow.release()
        await first
        assert await thread.call(ran.append, "third") is None
        assert ran == ["slow", "third"]
        assert second.cancelled()
    finally:
        thread.stop()


async def test_stopping_the_database_thread_runs_what_it_was_given_first() -> None:
    """Stopping the thread dropped a call handed over before the stop."""
    thread = DatabaseThread()
    ran: list[int] = []
    pending = asyncio.ensure_future(thread.call(ran.append, 1))
    await asyncio.sleep(0)
    thread.stop()
    assert ran == [1]
    assert await pending is None
