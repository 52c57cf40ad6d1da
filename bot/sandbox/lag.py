"""How long an event loop was kept from running: the worst overshoot of a 1 ms timer.

    async with LoopLag() as lag:
        await something()
        stalled = await lag.take()  # seconds: the worst stall since the last take

A task sleeps `interval` again and again on the loop it runs in; whatever holds the loop
(a roll, a render, a blocking call) makes that sleep end late by as long as it held it.
Timings move with the machine's load, so this measures (the fuzz report, `make bench`);
tests assert work that can be counted instead.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from types import TracebackType

Stalled = Callable[[float, float], None]  # (loop time at the end of a stall, its length in s)


class LoopLag:
    """Watch the running loop; keep the worst stall, and report each one over `report_over`."""

    def __init__(
        self, interval: float = 0.001, *, on_stall: Stalled | None = None, report_over: float = 0
    ) -> None:
        self.interval = interval
        self.on_stall = on_stall
        self.report_over = report_over
        self.worst = 0.0  # since the last take
        self.worst_ever = 0.0
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> LoopLag:
        self._task = asyncio.create_task(self._watch())
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _watch(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(self.interval)
            now = loop.time()
            late = max(0.0, now - before - self.interval)
            self.worst = max(self.worst, late)
            self.worst_ever = max(self.worst_ever, late)
            if self.on_stall is not None and late > self.report_over:
                self.on_stall(now, late)

    async def take(self) -> float:
        """Return the worst stall since the last take, in seconds, and start counting again."""
        # Two ticks first, so a stall that ended just before this call is counted in it.
        await asyncio.sleep(2 * self.interval)
        worst, self.worst = self.worst, 0.0
        return worst
