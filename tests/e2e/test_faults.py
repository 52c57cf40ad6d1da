"""Discord faults injected by the loopback Discord: the game goes on as if nothing happened.

Each case plays the same scripted fight twice on one loopback Discord: once cleanly (in
#table-3, with its own database), once with a fault (in #table-1). Every command must
succeed in both, tell the table the same thing, and leave the same stored encounter;
the faulted channel's tracker must show the stored state after the next update; and
nothing may be logged as unhandled.

Faults: 500 and 429 on tracker edits and pins (a 500 or 429 that discord.py retries
away, and ones it gives up on), a 503 it does not retry, a deleted and an unpinned
tracker, and a gateway connection dropped cleanly or cut, then resumed.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.app import Tablehand
from bot.sandbox.client import InteractionResult, SandboxTable
from bot.sandbox.harness import running_bot
from bot.sandbox.server import LoopbackDiscord
from tests.e2e.conftest import tablehand_bot
from tests.e2e.invariants import pinned_tracker, stored, tracker_shows, unhandled
from tests.scripted import ScriptedRandom, d6, d8, d20

pytestmark = pytest.mark.e2e

CLEAN, FAULTED = "table-3", "table-1"

# (who, command). Every step succeeds.
FIGHT: list[tuple[str, str]] = [
    ("gm", "/init start mode:finesse"),
    ("gm", "/init add name:Goblin physical:3 finesse:2 count:2"),
    ("alice", "/init join character:Mira physical:4 finesse:3"),
    ("bob", "/init join character:Brom physical:2 finesse:1"),
    ("gm", "/init next"),
    ("alice", '/attack target:"Goblin 1" damage:1d8+2'),
    ("gm", '/defend strategy:block combatant:"Goblin 1"'),
    ("gm", "/grit damage combatant:Brom amount:2d6"),
    ("gm", '/effect apply combatant:"Goblin 2" special:Ruin x:2'),
    ("alice", "/init next"),
    ("gm", "/init next"),
    ("bob", "/grit heal combatant:Brom amount:3"),
    ("gm", "/init next"),
    ("gm", "/init next"),
]
# The dice the fight draws, in order.
DICE = (
    *(d20(8), d20(16)),  # the first /init next: the roll-off of the Goblins, tied on Finesse
    *(d20(9), d20(7), d8(7)),  # Mira's attack, Goblin 1's block, her weapon 1d8+2
    *(d6(3), d6(3)),  # 2d6 damage to Brom
)
# The next update after the fault: the tracker must show the stored state after it.
NEXT_UPDATE = ("gm", '/grit damage combatant:"Goblin 2" amount:1')

Fault = Callable[[SandboxTable, int], Awaitable[None]]


@dataclass
class Case:
    """A fault and the step of the fight just before which it strikes."""

    name: str
    before_step: int
    inject: Fault
    faults: int  # how many faults the server must have served (for the report)


def _tracker_id(table: SandboxTable) -> int:
    return pinned_tracker(table, FAULTED).id


def on_tracker_edit(status: int, count: int) -> Fault:
    async def inject(table: SandboxTable, channel_id: int) -> None:
        path = f"/channels/{channel_id}/messages/{_tracker_id(table)}"
        table.server.inject_fault(path, status=status, count=count, method="PATCH")

    return inject


def on_pin(status: int, count: int) -> Fault:
    async def inject(table: SandboxTable, channel_id: int) -> None:
        path = f"/channels/{channel_id}/messages/pins/*"
        table.server.inject_fault(path, status=status, count=count, method="PUT")

    return inject


async def delete_tracker(table: SandboxTable, channel_id: int) -> None:
    await table.bot.trackers.settled()  # type: ignore[attr-defined]
    table.server.delete_message(_tracker_id(table), by=table.server.member("gm"))


async def unpin_tracker(table: SandboxTable, channel_id: int) -> None:
    await table.bot.trackers.settled()  # type: ignore[attr-defined]
    table.server.unpin_message(_tracker_id(table), by=table.server.member("gm"))
    await asyncio.sleep(0.05)  # CHANNEL_PINS_UPDATE reaches the bot


def drop_gateway(abrupt: bool) -> Fault:
    async def inject(table: SandboxTable, channel_id: int) -> None:
        # The next commands are dispatched while the bot is away; RESUME replays them.
        await table.server.drop_gateway(code=4000, abrupt=abrupt)

    return inject


CASES = [
    # discord.py retries a 500 after a second and a 429 after its Retry-After: invisible.
    Case("tracker edit 500 once", 5, on_tracker_edit(500, 1), 1),
    Case("tracker edit 429 three times", 5, on_tracker_edit(429, 3), 3),
    # Five 429s exhaust discord.py's five tries; the tracker retries on its own.
    Case("tracker edit 429 beyond discord.py's retries", 5, on_tracker_edit(429, 5), 5),
    # A 503 is not retried by discord.py; five exhaust the tracker's retries too, and the
    # tracker stays behind until the next update.
    Case("tracker edit 503 beyond every retry", 5, on_tracker_edit(503, 5), 5),
    Case("pin 500 once at /init start", 0, on_pin(500, 1), 1),
    Case("pin 429 beyond discord.py's retries at /init start", 0, on_pin(429, 5), 5),
    Case("pin 503 at /init start", 0, on_pin(503, 1), 1),
    Case("tracker deleted", 7, delete_tracker, 0),
    Case("tracker unpinned", 7, unpin_tracker, 0),
    Case("gateway dropped and resumed", 7, drop_gateway(abrupt=False), 0),
    Case("gateway cut abruptly and resumed", 7, drop_gateway(abrupt=True), 0),
]


def normalised(text: str, table: SandboxTable) -> str:
    """Replace Discord ids by names (people, channels) or `<id>`, and due times by `<time>`."""
    names = {m.id: f"@{m.name}" for m in table.server.guild.members.values()}
    names |= {c.id: "#channel" for c in table.server.guild.channels.values()}
    # Due times as the sandbox renders them (14:30:20, in 58 seconds) or raw (<t:…:R>).
    text = re.sub(
        r"<t:\d+(:\w)?>|\b\d\d:\d\d(:\d\d)?\b|(in )?\b\d+ (second|minute|hour)s?( ago)?",
        "<time>",
        text,
    )
    return re.sub(r"\d{15,}", lambda m: names.get(int(m.group()), "<id>"), text)


async def play(
    table: SandboxTable,
    channel: str,
    steps: list[tuple[str, str]],
    before: Callable[[int], Awaitable[None]],
) -> list[InteractionResult]:
    """Run the steps in a channel, calling `before(i)` ahead of step i; return the replies."""
    replies = []
    for i, (who, line) in enumerate(steps):
        await before(i)
        replies.append(await table.user(who).run(line, channel=channel, timeout=30))
    return replies


def told(replies: list[InteractionResult], table: SandboxTable) -> list[tuple[bool, str]]:
    return [(r.ephemeral, normalised(r.text, table)) for r in replies]


def fresh_bot(server: LoopbackDiscord, tmp_path: Path, name: str) -> Tablehand:
    bot = tablehand_bot(server, tmp_path / name, rng=ScriptedRandom(DICE))
    bot.trackers.interval = 0  # type: ignore[attr-defined]
    return bot  # type: ignore[return-value]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
async def test_a_fault_changes_nothing_and_the_tracker_heals(
    case: Case, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A Discord fault failed a command, changed what the table was told or stored, left the
    tracker behind after the next update, or was logged as unhandled."""
    caplog.set_level(logging.WARNING)
    steps = [*FIGHT, NEXT_UPDATE]
    async with LoopbackDiscord() as server:
        table = SandboxTable(server)

        async def nothing(i: int) -> None:
            return None

        async with running_bot(server, fresh_bot(server, tmp_path, "clean")) as bot:
            table.bot = bot  # type: ignore[attr-defined]
            clean = await play(table, CLEAN, steps, nothing)
            clean_state = await stored(bot.store, table.channel(CLEAN).id)
            bot.rng.done()
        # Nothing was refused: the one private reply is /defend's (its prompt shows the result).
        private = [r for r in clean if r.ephemeral and r.record.label.split()[0] != "/defend"]
        assert private == [], [r.text for r in private]

        async with running_bot(server, fresh_bot(server, tmp_path, "faulted")) as bot:
            table.bot = bot  # type: ignore[attr-defined]
            channel_id = table.channel(FAULTED).id
            faults_before = server.stats.faults

            async def strike(i: int) -> None:
                if i == case.before_step:
                    await case.inject(table, channel_id)

            faulted = await play(table, FAULTED, steps, strike)
            await bot.trackers.settled()
            bot.rng.done()
            faulted_state = await stored(bot.store, channel_id)
            assert server.stats.faults - faults_before == case.faults
            if "gateway" in case.name:  # the command sent while it was away came by RESUME
                assert server.stats.resumes == 1 and server.stats.replayed >= 1, server.stats
            assert faulted_state is not None and clean_state is not None
            # The tracker shows the stored state, and it is the one pinned message.
            tracker = pinned_tracker(table, FAULTED)
            assert tracker.id == faulted_state.tracker_message_id
            assert tracker_shows(tracker, faulted_state), table.render(tracker)

    assert told(faulted, table) == told(clean, table)
    keep = {"tracker_message_id", "channel_id"}
    assert normalised(
        json.dumps(faulted_state.model_dump(exclude=keep), sort_keys=True), table
    ) == normalised(json.dumps(clean_state.model_dump(exclude=keep), sort_keys=True), table)
    assert unhandled(caplog.records) == []


async def test_a_failed_tracker_edit_is_retried_until_it_lands(fast, caplog) -> None:
    """A tracker edit that failed once was not retried, so the pinned tracker stayed stale."""
    caplog.set_level(logging.WARNING)
    table = fast
    gm = table.user("gm")
    await gm.run("/init start")
    await table.bot.trackers.settled()  # type: ignore[attr-defined] # posted after the answer
    tracker = pinned_tracker(table, "table-1")
    table.server.inject_fault(
        f"/channels/{table.channel().id}/messages/{tracker.id}", status=503, method="PATCH"
    )
    reply = await gm.run("/init add name:Orc")
    assert not reply.ephemeral
    await table.bot.trackers.settled()  # type: ignore[attr-defined]
    encounter = await stored(table.bot.store, table.channel().id)  # type: ignore[attr-defined]
    assert encounter is not None and [c.name for c in encounter.combatants] == ["Orc"]
    assert tracker_shows(tracker, encounter)
    assert any("tracker update in channel" in r.getMessage() for r in caplog.records)
    assert unhandled(caplog.records) == []


def test_the_cases_cover_every_fault_the_issue_names() -> None:
    """A fault kind the issue lists has no case."""
    names = " ".join(c.name for c in CASES)
    for kind in ("edit 500", "edit 429", "pin 500", "pin 429", "deleted", "gateway"):
        assert kind in names, kind
