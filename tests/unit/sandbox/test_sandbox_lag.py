"""The loop-lag monitor: a call that holds the event loop shows up as a stall that long."""

from __future__ import annotations

import time

from bot.sandbox.lag import LoopLag


async def test_a_blocking_call_is_measured_as_a_stall_at_least_as_long() -> None:
    """A 30 ms blocking sleep on the loop was not recorded as a stall of at least 30 ms."""
    reported: list[float] = []
    async with LoopLag(on_stall=lambda _at, late: reported.append(late), report_over=0.02) as lag:
        await lag.take()
        time.sleep(0.03)  # noqa: ASYNC251 — holds the loop on purpose, as a slow roll did
        stalled = await lag.take()
    assert stalled >= 0.03
    assert reported and max(reported) >= 0.03
    assert lag.worst_ever >= 0.03
