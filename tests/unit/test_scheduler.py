"""The scheduler: named background jobs, closed cleanly whenever they are stopped."""

from __future__ import annotations

import asyncio
import gc
import logging
import warnings

import pytest

from bot.scheduler import Scheduler


async def test_a_job_stopped_before_it_began_is_closed_not_left_unawaited() -> None:
    """A job cancelled before its task started warned "coroutine … was never awaited"."""
    ran: list[str] = []

    async def job() -> None:
        ran.append("job")

    scheduler = Scheduler()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scheduler.schedule("now", job())
        scheduler.schedule_at("later", scheduler.clock() + 60, job())
        await scheduler.close()  # before either task had a turn of the loop
        gc.collect()
    assert ran == []
    assert len(scheduler) == 0
    assert [str(w.message) for w in caught if w.category is RuntimeWarning] == []


async def test_a_job_waits_for_its_time_and_a_second_of_one_name_is_not_run() -> None:
    """A job ran before its due time, or a second job under a busy name ran too."""
    ran: list[str] = []
    done = asyncio.Event()

    async def job(what: str) -> None:
        ran.append(what)
        done.set()

    scheduler = Scheduler()
    scheduler.schedule_at("turn", scheduler.clock() + 0.05, job("first"))
    scheduler.schedule_at("turn", scheduler.clock(), job("second"))  # the name is taken
    await asyncio.sleep(0)
    assert ran == [] and "turn" in scheduler
    await asyncio.wait_for(done.wait(), 5)
    await asyncio.sleep(0)
    assert ran == ["first"]
    assert "turn" not in scheduler


async def test_a_failing_job_is_logged_with_its_name(caplog: pytest.LogCaptureFixture) -> None:
    """A job's failure was lost in a task nobody awaited."""

    async def job() -> None:
        raise ValueError("broken")

    scheduler = Scheduler()
    with caplog.at_level(logging.ERROR, logger="bot.scheduler"):
        scheduler.schedule("broken-job", job())
        for _ in range(3):
            await asyncio.sleep(0)
    assert [r.getMessage() for r in caplog.records] == ["scheduled task broken-job failed"]
    assert len(scheduler) == 0
