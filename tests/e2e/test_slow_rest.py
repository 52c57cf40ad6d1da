"""Answers come before slow REST calls: Discord's server errors never make a command "fail".

Discord gives a bot 3 seconds to answer an interaction (the loopback Discord enforces it:
a later answer is refused as an unknown interaction). discord.py retries a 500 after 1 s,
then after 3 more: two server errors on a call the bot waited for before answering push
the answer past the deadline, and the user sees "This interaction failed" though it worked.
"""

from __future__ import annotations

import pytest

from bot.sandbox.client import SandboxTable
from tests.e2e.helpers import tracker

pytestmark = pytest.mark.e2e

PINS = "/channels/*/messages/pins/*"


async def test_init_start_answers_before_discord_pins_the_tracker(fast: SandboxTable) -> None:
    """/init start waited for a pin Discord failed twice, and answered after the deadline."""
    table = fast
    table.server.inject_fault(PINS, status=500, count=2, method="PUT")
    started = await table.user("gm").run("/init start")
    assert not started.ephemeral and "Encounter started" in started.content
    await table.channel().wait_for(
        lambda ch: ch.pins or None, timeout=15, what="the pinned tracker"
    )
    assert "Round 1 · Declaration" in await tracker(table)
    assert (await table.user("gm").run("/init add name:Orc")).content == "Added Orc."


async def test_init_start_answers_before_discord_posts_the_tracker(fast: SandboxTable) -> None:
    """/init start waited for a tracker post Discord failed twice, and answered too late."""
    table = fast
    table.server.inject_fault("/channels/*/messages", status=500, count=2, method="POST")
    started = await table.user("gm").run("/init start")
    assert not started.ephemeral and "Encounter started" in started.content
    await table.channel().wait_for(
        lambda ch: ch.pins or None, timeout=15, what="the pinned tracker"
    )
    assert "Round 1 · Declaration" in await tracker(table)


async def test_ending_answers_before_discord_retires_the_tracker(fast: SandboxTable) -> None:
    """The /init end Confirm waited for a tracker edit Discord failed twice."""
    table = fast
    gm = table.user("gm")
    await gm.run("/init start")
    await gm.run("/init add name:Orc")
    old = await table.channel().wait_for_pin()
    table.server.inject_fault(f"/channels/*/messages/{old.id}", status=500, count=2, method="PATCH")
    ended = await (await gm.run("/init end")).click("Confirm")
    assert ended.content == "Encounter ended."
    [final] = await ended.wait_followups(1, timeout=15)
    assert "The encounter is over" in final.content
    assert not old.pinned and old.components == []
