"""The tracker service retries what the network drops, and shows the last state."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

import aiohttp
import discord
import pytest

from bot.rules.models import Encounter
from bot.store import MemoryStore
from bot.tracker import TrackerContent, Trackers

CHANNEL = 7


@dataclass
class StandInDiscord:
    """Just enough of a discord.py client for the tracker: edits, whose first one drops."""

    drops: int = 1
    edits: list[str] = field(default_factory=list)

    def get_partial_messageable(self, channel_id: int) -> StandInDiscord:
        return self

    def get_partial_message(self, message_id: int) -> StandInDiscord:
        return self

    async def edit(self, *, embed: discord.Embed, view: object) -> None:
        if self.drops:
            self.drops -= 1
            raise aiohttp.ServerDisconnectedError()
        self.edits.append(embed.title or "")


def render(encounter: Encounter, parts: object = None) -> TrackerContent:
    return TrackerContent(embed=discord.Embed(title=f"round {encounter.round}"), view=None)


async def test_a_dropped_connection_is_retried_and_the_last_state_lands(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A tracker edit lost to the network stopped the tracker or logged an error."""
    caplog.set_level(logging.WARNING)
    store = MemoryStore()
    async with store.channel(CHANNEL) as state:
        state.encounter = Encounter(channel_id=CHANNEL, gm_id=1, tracker_message_id=99)
    discord_ = StandInDiscord()
    trackers = Trackers(discord_, store, render, interval=0.01)  # type: ignore[arg-type]
    trackers.touch(CHANNEL)
    async with store.channel(CHANNEL) as state:
        state.require_encounter().round = 4
    await trackers.settled(CHANNEL)
    assert discord_.edits == ["round 4"]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert any("connection: ServerDisconnectedError" in r.getMessage() for r in caplog.records)


async def test_an_idle_channel_keeps_no_task_and_a_new_change_starts_one() -> None:
    """A channel whose tracker was up to date still held its finished edit task (1,000 fights)."""
    store = MemoryStore()
    channels = range(CHANNEL, CHANNEL + 3)
    for channel_id in channels:
        async with store.channel(channel_id) as state:
            state.encounter = Encounter(channel_id=channel_id, gm_id=1, tracker_message_id=99)
    discord_ = StandInDiscord(drops=0)
    trackers = Trackers(discord_, store, render, interval=0.01)  # type: ignore[arg-type]
    for channel_id in channels:
        trackers.touch(channel_id)
    await trackers.settled()
    assert [trackers._channel(c).task for c in channels] == [None, None, None]
    assert discord_.edits == ["round 1"] * 3
    async with store.channel(CHANNEL) as state:
        state.require_encounter().round = 2
    trackers.touch(CHANNEL)
    assert trackers._channel(CHANNEL).task is not None
    await trackers.settled(CHANNEL)
    assert discord_.edits == ["round 1"] * 3 + ["round 2"]
    assert trackers._channel(CHANNEL).task is None


def shown(description: str = "▶ Goblin", **changes: str) -> TrackerContent:
    embed = discord.Embed(title=changes.get("title", "Round 1"), description=description)
    embed.add_field(name="Now", value=changes.get("now", "**Goblin** to act"), inline=False)
    embed.set_footer(text=changes.get("footer", "GM view"))
    buttons = ["tracker buttons", changes.get("language", "en"), "1.ini.1.0"]
    return TrackerContent(embed, buttons=(buttons, lambda: discord.ui.View()))


def test_the_fingerprint_tells_every_shown_change_apart() -> None:
    """The tracker skipped an edit that changed what it shows, or edited to the same content."""
    assert shown().fingerprint() == shown().fingerprint()  # built apart: the same content
    changed = [
        shown("▶ Goblin\n✓ Orc"),
        shown(title="Round 2"),
        shown(now="**Orc** to act"),
        shown(footer="NPCs' Grit shown as level and die"),
        shown(language="de"),
        # What the description holds cannot pass for the rest, nor the other way round.
        shown("▶ Goblin", title="Round 1']"),
        shown("']▶ Goblin"),
    ]
    prints = {content.fingerprint() for content in changed}
    assert len(prints) == len(changed) and shown().fingerprint() not in prints
