"""How long an event loop was kept from running: the worst overshoot of a 1 ms timer.

    async with LoopLag() as lag:
        await something()
        stall = await lag.take()  # the worst since the last take: .late and .busy, in s

A task sleeps `interval` again and again on the loop it runs in; whatever holds the loop
(a roll, a render, a blocking call) makes that sleep end late by as long as it held it.
`late` is wall-clock time, so on a busy machine it also counts the moments the process
was not scheduled at all; `busy` is the loop thread's own CPU time over the same interval
(what the loop's work cost, whatever else the machine was doing). Timings move with the
machine, so this measures (the fuzz report, `make bench`); tests assert counted work.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType


@dataclass(frozen=True)
class Stall:
    """One interval of the timer: how late it woke and the loop thread's CPU time meanwhile."""

    late: float = 0.0
    busy: float = 0.0

    def worse(self, other: Stall) -> Stall:
        """Return the worst of both, measure by measure."""
        return Stall(max(self.late, other.late), max(self.busy, other.busy))


Stalled = Callable[[float, Stall], None]  # (loop time at the end of a stall, the stall)


class LoopLag:
    """Watch the running loop; keep the worst stall, and report each one over `report_over`."""

    def __init__(
        self, interval: float = 0.001, *, on_stall: Stalled | None = None, report_over: float = 0
    ) -> None:
        self.interval = interval
        self.on_stall = on_stall
        self.report_over = report_over
        self.worst = Stall()  # since the last take
        self.worst_ever = Stall()
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
            before, cpu = loop.time(), time.thread_time()
            await asyncio.sleep(self.interval)
            now = loop.time()
            stall = Stall(
                late=max(0.0, now - before - self.interval),
                busy=time.thread_time() - cpu,
            )
            self.worst = self.worst.worse(stall)
            self.worst_ever = self.worst_ever.worse(stall)
            if self.on_stall is not None and stall.late > self.report_over:
                self.on_stall(now, stall)

    async def take(self) -> Stall:
        """Return the worst stall since the last take, and start counting again."""
        # Two ticks first, so a stall that ended just before this call is counted in it.
        await asyncio.sleep(2 * self.interval)
        worst, self.worst = self.worst, Stall()
        return worst
