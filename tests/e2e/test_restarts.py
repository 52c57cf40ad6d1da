"""What a restart must mend: trackers and prompts left by a SIGKILL or changed while down.

The bot runs as its own process (`python -m bot run`) where a kill matters; the loopback
Discord stays in this process, so it can kill the bot at an exact REST call.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.rules.models import Encounter
from bot.sandbox.client import InteractionResult, SandboxTable
from bot.sandbox.harness import BotProcess, running_bot
from bot.sandbox.records import StoredMessage
from bot.sandbox.server import LoopbackDiscord
from tests.e2e.conftest import tablehand_bot
from tests.e2e.helpers import offers_defense
from tests.e2e.invariants import tracker_shows

pytestmark = pytest.mark.e2e


def stored(db: Path, channel_id: int) -> Encounter | None:
    """Read a channel's encounter straight from the database file (read-only)."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        row = conn.execute("SELECT data FROM encounters WHERE channel_id = ?", (channel_id,))
        found = row.fetchone()
    return None if found is None else Encounter.model_validate_json(found[0])


def trackers(table: SandboxTable) -> list[StoredMessage]:
    """Return the channel's messages that carry tracker buttons."""
    return [
        m
        for m in table.channel().messages
        if any(str(b.get("custom_id")).startswith("th:tracker:") for b in m.buttons)
    ]


async def recorded_tracker(db: Path, channel_id: int) -> Encounter:
    """Wait until the channel's stored encounter records a tracker; return it."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 15
    while (encounter := stored(db, channel_id)) is None or encounter.tracker_message_id is None:
        assert loop.time() < deadline, "no tracker was recorded after the restart"
        await asyncio.sleep(0.1)  # another process's database: nothing to wait on but time
    return encounter


async def kill_at(server: LoopbackDiscord, proc: BotProcess, method: str, part: str) -> None:
    """SIGKILL the bot as Discord answers its first `method` call on a path containing `part`."""

    def reached() -> bool:
        done = [c for c in server.calls if c.method == method and part in c.path and c.status]
        if done and proc.process.returncode is None:
            proc.process.kill()
        return bool(done)

    await server.wait_until(reached, timeout=15, describe=f"a {method} …{part}… call")
    await proc.process.wait()


async def test_a_tracker_pinned_just_before_a_kill_is_the_one_kept(
    server: LoopbackDiscord, tmp_path: Path
) -> None:
    """Killed between pinning a new tracker and recording it, the bot pinned a second one."""
    db = tmp_path / "kill.db"
    table = SandboxTable(server, timeout=10)
    proc = await BotProcess.start(server, db_path=db)
    try:
        started = table.user("gm").send_command("/init start")
        await kill_at(server, proc, "PUT", "/pins/")
        assert started.record.callbacks, "/init start was not answered before its tracker"
        encounter = stored(db, table.channel().id)
        assert encounter is not None and encounter.tracker_message_id is None
        proc = await BotProcess.start(server, db_path=db)
        encounter = await recorded_tracker(db, table.channel().id)
        assert table.channel().pins == [encounter.tracker_message_id]
        assert [m.id for m in trackers(table)] == [encounter.tracker_message_id]
    finally:
        await proc.stop()


async def test_a_tracker_unpinned_while_the_bot_was_down_is_pinned_again(tmp_path: Path) -> None:
    """A tracker unpinned while the bot was stopped stayed unpinned after it came back."""
    async with LoopbackDiscord() as server:
        table = SandboxTable(server)
        gm = table.user("gm")
        async with running_bot(server, tablehand_bot(server, tmp_path)) as bot:
            table.bot = bot  # type: ignore[attr-defined]
            await gm.run("/init start")
            await gm.run("/init add name:Orc")
            await bot.trackers.settled()
            old = table.channel().pinned_messages[0]
        server.unpin_message(old.id, by=server.member("gm"))
        async with running_bot(server, tablehand_bot(server, tmp_path)) as bot:
            table.bot = bot  # type: ignore[attr-defined]
            pinned = await table.channel().wait_for(
                lambda ch: ch.pinned_messages or None, what="a pinned tracker again"
            )
            await bot.trackers.settled()
            encounter = await bot.store.peek(table.channel().id)
            assert encounter is not None and len(pinned) == 1
            assert pinned[0].id == encounter.tracker_message_id
            assert tracker_shows(pinned[0], encounter)


async def prompt_seen_then_killed(
    server: LoopbackDiscord, table: SandboxTable, db: Path, *, defense_seconds: int
) -> tuple[BotProcess, InteractionResult]:
    """Kill the bot the moment Discord has an attack's defense prompt; return it (stopped)."""
    gm, alice = table.user("gm"), table.user("alice")
    proc = await BotProcess.start(server, db_path=db)
    await table.user("admin").run(f"/settings defense_timeout seconds:{defense_seconds}")
    await gm.run("/init start mode:finesse")
    await gm.run("/init add name:Goblin")
    await alice.run("/init join character:Striker finesse:1")
    await gm.run("/init next")  # the Striker's turn
    # Whatever the bot's own dice, an attack on a defender who may choose waits for it: the
    # defender chooses blind [GAME.md §10].
    attack = alice.send_command("/attack target:Goblin attacker:Striker")
    await kill_at(server, proc, "POST", f"/interactions/{attack.record.id}/")
    assert any(b.get("label") == "Block" for b in attack.buttons), attack.text
    return proc, attack


async def test_a_prompt_shown_before_a_kill_closes_when_defended_by_command(
    server: LoopbackDiscord, tmp_path: Path
) -> None:
    """After a SIGKILL right after its prompt was shown, /defend left the prompt's buttons live."""
    db = tmp_path / "prompt.db"
    table = SandboxTable(server, timeout=10)
    # A timeout the restart cannot outlast on a busy machine: /defend must be what answers.
    proc, attack = await prompt_seen_then_killed(server, table, db, defense_seconds=120)
    prompt = attack.message
    assert prompt is not None and prompt.buttons
    proc = await BotProcess.start(server, db_path=db)
    try:
        defended = await table.user("gm").run("/defend strategy:block combatant:Goblin")
        assert defended.ephemeral and "now shows the result" in defended.content
        await table.channel().wait_for(
            lambda ch: not offers_defense(prompt), what="the prompt closed"
        )
        assert "Block, chosen by" in prompt.embeds[0]["description"]  # the prompt is the result
    finally:
        await proc.stop()


async def test_a_prompt_shown_before_a_kill_closes_when_its_time_runs_out(
    server: LoopbackDiscord, tmp_path: Path
) -> None:
    """After a SIGKILL right after its prompt was shown, the timeout left its buttons live."""
    db = tmp_path / "prompt.db"
    table = SandboxTable(server, timeout=10)
    proc, attack = await prompt_seen_then_killed(server, table, db, defense_seconds=5)
    prompt = attack.message
    assert prompt is not None and prompt.buttons
    proc = await BotProcess.start(server, db_path=db)
    try:
        await table.channel().wait_for(
            lambda ch: not offers_defense(prompt), timeout=15, what="the prompt closed by its timer"
        )
        assert "the default" in prompt.embeds[0]["description"]  # the prompt is the result
    finally:
        await proc.stop()
