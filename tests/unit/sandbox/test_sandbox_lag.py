"""The loop-lag monitor: what holds the event loop shows up as a stall at least that long."""

from __future__ import annotations

import time

from bot.sandbox.lag import LoopLag


async def test_a_blocking_call_is_measured_as_a_stall_at_least_as_long() -> None:
    """A 30 ms blocking sleep on the loop was not recorded as a stall of at least 30 ms."""
    reported: list[float] = []
    async with LoopLag(on_stall=lambda _at, s: reported.append(s.late), report_over=0.02) as lag:
        await lag.take()
        time.sleep(0.03)  # noqa: ASYNC251 — holds the loop on purpose, as a slow roll did
        stalled = await lag.take()
    # The block may start part-way through the monitor's own sleep: up to one interval of
    # it was due anyway, so the lateness is the block less at most one interval.
    at_least = 0.03 - lag.interval
    assert stalled.late >= at_least
    assert reported and max(reported) >= at_least
    assert lag.worst_ever.late >= at_least


async def test_busy_counts_the_loops_own_work() -> None:
    """30 ms of computing on the loop was not counted as busy loop time."""
    async with LoopLag() as lag:
        await lag.take()
        deadline = time.thread_time() + 0.03
        while time.thread_time() < deadline:  # the loop thread's own CPU: 30 ms of work
            pass
        worked = await lag.take()
    assert worked.busy >= 0.03
    assert worked.late >= 0.03 - lag.interval  # as above: one interval may already be due
