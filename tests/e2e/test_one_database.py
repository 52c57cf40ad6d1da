"""The database a bot runs on: one process per SQLite file, and damaged settings (issue 16.6, 16.7)."""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path

import pytest

from bot.replies import APOLOGY
from bot.sandbox.client import SandboxTable
from bot.sandbox.harness import REPO_ROOT, BotProcess, bot_environment
from bot.sandbox.server import LoopbackDiscord

pytestmark = pytest.mark.e2e


async def test_a_second_process_on_one_sqlite_file_exits_at_once_naming_it(
    server: LoopbackDiscord, tmp_path: Path
) -> None:
    """A second bot process opened the SQLite file the first one uses, where two processes
    lost half of 200 `/grit damage 1` updates, or it did not say why it stopped in one line."""
    db = tmp_path / "one.db"
    table = SandboxTable(server, timeout=10)
    gm = table.user("gm")
    first = await BotProcess.start(server, db_path=db)
    try:
        await gm.run("/init start")
        await gm.run("/init add name:Ogre grit:200 max_grit:200")
        second = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            "run",
            env=bot_environment(server, db_path=db),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=str(REPO_ROOT),
        )
        try:
            out, err = await asyncio.wait_for(second.communicate(), 30)
        finally:
            if second.returncode is None:  # it ran on instead of stopping: end it
                second.kill()
                await second.wait()
        assert second.returncode == 2, (out + err).decode()
        last = err.decode().strip().splitlines()[-1]
        assert last.startswith(f"tablehand: The database {db} is in use by another")
        assert "Traceback" not in err.decode()
        assert server.stats.identifies == 1  # it never connected to the gateway
        # The first process is unharmed and still the only writer.
        replies = await asyncio.gather(
            *(gm.run("/grit damage combatant:Ogre amount:1") for _ in range(20))
        )
        assert all(not r.ephemeral for r in replies)
        listed = await gm.run("/init list")
        assert "180/200" in listed.text
    finally:
        assert await first.stop() == 0, first.log_tail()


async def test_damaged_server_settings_fall_back_to_defaults_and_can_be_overwritten(
    table: SandboxTable, caplog: pytest.LogCaptureFixture
) -> None:
    """A damaged guild_settings row broke every command on the server, /settings included,
    was logged for every command, or could not be repaired from Discord."""
    caplog.set_level(logging.WARNING)
    gm, admin = table.user("gm"), table.user("admin")
    await table.bot.store._transaction(  # type: ignore[attr-defined]
        [
            (
                "INSERT INTO guild_settings (guild_id, data) VALUES (?, ?)",
                (table.server.guild.id, '{"guild_id": 1, "defense_timeout": '),
            )
        ]
    )
    started = await gm.run("/init start")
    assert not started.ephemeral and started.content != APOLOGY, started.text
    assert not (await gm.run("/init add name:Goblin")).ephemeral
    shown = await admin.run("/settings show")
    assert shown.ephemeral and "Defense timeout: 60 s (default)" in shown.content
    damaged = [r for r in caplog.records if "settings of guild" in r.getMessage()]
    assert len(damaged) == 1, [r.getMessage() for r in damaged]
    assert str(table.server.guild.id) in damaged[0].getMessage()

    saved = await admin.run("/settings defense_timeout seconds:30")
    assert not saved.ephemeral and "Defense timeout set to 30 s" in saved.content
    assert "Defense timeout: 30 s" in (await admin.run("/settings show")).content
    stored = await table.bot.store._fetchone(  # type: ignore[attr-defined]
        "SELECT data FROM guild_settings WHERE guild_id = ?", (table.server.guild.id,)
    )
    assert '"defense_timeout":30' in stored[0]
