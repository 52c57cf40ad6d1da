"""The bot as its own process against the loopback Discord (restarts, kills, load work)."""

from __future__ import annotations

import signal
from pathlib import Path

from bot.sandbox.client import SandboxTable
from bot.sandbox.harness import BotProcess
from bot.sandbox.server import LoopbackDiscord


async def test_python_m_bot_logs_in_and_stops_on_sigint_and_sync_is_its_own_step(
    server: LoopbackDiscord, tmp_path: Path
) -> None:
    """`python -m bot run` failed to identify or exit 0 on Ctrl-C, or registered the commands
    again on a restart (sync is `python -m bot sync-commands`, once)."""
    guild_commands = "/applications/{application_id}/guilds/{guild_id}/commands"
    proc = await BotProcess.start(server, db_path=tmp_path / "bot.db")  # syncs first: a new server
    try:
        assert server.stats.identifies == 1
        assert server.count_calls("PUT", guild_commands) == 1
        assert (tmp_path / "bot.db").exists()
    finally:
        code = await proc.stop()
    assert code == 0, proc.log_tail()
    assert "tablehand: synced" in proc.log_path.read_text()
    proc = await BotProcess.start(server, db_path=tmp_path / "bot.db")
    try:
        assert server.stats.identifies == 2
        assert server.count_calls("PUT", guild_commands) == 1  # the restart did not sync
        reply = await SandboxTable(server).user("gm").run("/init start")
        assert not reply.ephemeral, reply.text
    finally:
        assert await proc.stop() == 0, proc.log_tail()
    # One log file for both runs: each process's tail is its own lines only (the bench
    # waits for lines like "warmed up"; an earlier run's must not count).
    own, both = proc.log_tail(100_000), proc.log_path.read_text()
    assert own.count("logging in") == 1 and both.count("logging in") == 3, own  # sync, 2 runs
    assert "migrated the database" in both and "migrated the database" not in own, own


async def test_a_killed_bot_process_is_replaced_and_answers(
    server: LoopbackDiscord, tmp_path: Path
) -> None:
    """After SIGKILL a new bot process identifies afresh and answers commands."""
    table = SandboxTable(server)
    args = ("-m", "bot.sandbox.bare")
    first = await BotProcess.start(server, db_path=tmp_path / "bare.db", args=args)
    assert (await table.user("alice").run("/ping")).content == "ok"
    assert await first.kill() != 0
    second = await BotProcess.start(server, db_path=tmp_path / "bare.db", args=args)
    try:
        reply = await table.user("bob").run("/ping")
        assert reply.ephemeral and reply.content == "ok"
        assert server.stats.identifies == 2
    finally:
        await second.stop()


async def test_sigterm_stops_the_bot_cleanly(server: LoopbackDiscord, tmp_path: Path) -> None:
    """`tablehand run` did not exit 0 on SIGTERM, as a process manager's stop sends it."""
    proc = await BotProcess.start(server, db_path=tmp_path / "bot.db")
    code = await proc.stop(signal.SIGTERM)
    assert code == 0, proc.log_tail()
    assert "Traceback" not in proc.log_tail()
