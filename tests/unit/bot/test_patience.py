"""A command still waiting for its channel gives up in time for Discord to hear it [bot].

Discord waits 3 s for an interaction's first answer; the bot gives up 2.5 s after the
interaction arrived (`COMMAND_PATIENCE`), counted from the moment its gateway event was
parsed, so a wait in the event loop's queue counts as much as one for the channel's lock.
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from bot.app import COMMAND_PATIENCE, Tablehand
from bot.config import Settings
from bot.store import MemoryStore
from bot.table import ARRIVED, _give_up_at


def interaction(extras: dict[str, Any], *, answered: bool = False) -> Any:
    """Return what the pipeline reads of an interaction: its extras and whether it answered."""
    return SimpleNamespace(extras=extras, response=SimpleNamespace(is_done=lambda: answered))


async def test_an_interaction_is_stamped_with_the_loops_clock_as_it_is_dispatched() -> None:
    """The interaction event left no arrival time, or another event got one."""
    loop = asyncio.get_running_loop()
    async with Tablehand(Settings(), store=MemoryStore()) as bot:
        arriving = interaction({})
        before = loop.time()
        bot.dispatch("interaction", arriving)
        assert before <= arriving.extras[ARRIVED] <= loop.time()
        other = interaction({})
        bot.dispatch("guild_available", other)
        assert other.extras == {}


async def test_a_command_gives_up_two_and_a_half_seconds_after_it_arrived() -> None:
    """The give-up time did not count from the arrival, or an answered command got one."""
    bot = Tablehand(Settings(), store=MemoryStore())
    assert COMMAND_PATIENCE == 2.5 and bot.patience == 2.5
    assert _give_up_at(bot, interaction({ARRIVED: 100.0})) == 102.5
    assert _give_up_at(bot, interaction({ARRIVED: 100.0}, answered=True)) is None
    loop = asyncio.get_running_loop()
    before = loop.time()
    unstamped = _give_up_at(bot, interaction({}))  # made by hand, not by the gateway: now
    assert unstamped is not None and before + 2.5 <= unstamped <= loop.time() + 2.5
