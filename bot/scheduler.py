"""Named background tasks: start one at a time, cancel or replace it by name, stop them all.

Modelled on python-discord's `Scheduler` (pydis_core.utils.scheduling): a cog asks the
scheduler to run something later instead of keeping a dict of tasks itself. A task's
failure is logged with its name, never lost in an unawaited task.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine, Hashable
from typing import Any

log = logging.getLogger(__name__)

Job = Coroutine[Any, Any, None]


class Scheduler:
    """Background tasks by name, with one clock for when they are due."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock  # Unix time: due times outlive a restart
        self.time_scale = 1.0  # real seconds per configured second (tests shrink it)
        self._tasks: dict[Hashable, asyncio.Task[None]] = {}

    def __contains__(self, name: Hashable) -> bool:
        return name in self._tasks

    def __len__(self) -> int:
        return len(self._tasks)

    def schedule(self, name: Hashable, job: Job, *, due: float | None = None) -> None:
        """Run a job in the background under this name; a job already under it is kept."""
        if name in self._tasks:
            job.close()
            return
        task = asyncio.create_task(self._run(name, job, due), name=str(name))
        # A task cancelled before it began never awaited its job: close it, so it is not
        # reported as a coroutine never awaited (closing a finished one does nothing).
        task.add_done_callback(lambda _: job.close())
        self._tasks[name] = task

    def schedule_at(self, name: Hashable, due: float, job: Job) -> None:
        """Run a job when the clock reaches `due` (at once if it has passed)."""
        self.schedule(name, job, due=due)

    def cancel(self, name: Hashable) -> None:
        """Cancel the job of this name, unless it is the one running this call."""
        task = self._tasks.pop(name, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def close(self) -> None:
        """Cancel every job and wait until they are gone."""
        tasks = list(self._tasks.values())
        self._tasks.clear()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _run(self, name: Hashable, job: Job, due: float | None) -> None:
        try:
            if due is not None:
                await asyncio.sleep(max(0.0, due - self.clock()))
            await job
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("scheduled task %s failed", name)
        finally:
            if self._tasks.get(name) is asyncio.current_task():
                del self._tasks[name]
