"""The README's sandbox walk-through, typed into a real terminal (pexpect)."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pexpect
import pytest

ROOT = Path(__file__).resolve().parents[2]

# (what you type, what must appear before the next prompt). Extend it into a whole fight
# as the cogs land: each step waits for its text, then for the prompt of whoever is typing.
WALKTHROUGH: list[tuple[str, str]] = [
    ("/probe ping", "pong"),
    (":as alice", "You are now alice."),
    ("/probe counter", "[1 Add] [2 Done]"),
    (":click 1", "Count: 1 (last: alice)"),
    (":as gm", "You are now gm."),
    (":click Add", "Count: 2 (last: gm)"),
    ('/probe tracker text:"Round 1"', "== pinned in #table-1 =="),
    ("/probe fail", "The probe failed on purpose."),
]


def _prompt_after(line: str, user: str) -> str:
    match = re.match(r":as (\w+)$", line)
    return match.group(1) if match else user


@pytest.fixture
def sandbox(tmp_path: Path) -> pexpect.spawn:
    """`python -m bot sandbox` in a terminal, with a temp database and the probe cog."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TABLEHAND_"))}
    env |= {"TERM": "dumb", "PYTHONUNBUFFERED": "1", "COLUMNS": "200"}
    child = pexpect.spawn(
        sys.executable,
        [
            "-m",
            "bot",
            "sandbox",
            "--db",
            str(tmp_path / "sandbox.db"),
            "--extension",
            "tests.e2e.probe_cog",
        ],
        cwd=str(ROOT),
        env=env,
        encoding="utf-8",
        timeout=20,
        dimensions=(50, 200),
    )
    yield child
    if child.isalive():
        child.terminate(force=True)


def test_a_newcomer_runs_a_command_switches_user_clicks_and_quits(sandbox: pexpect.spawn) -> None:
    """The sandbox starts, answers commands and clicks for whoever you are, and quits cleanly."""
    user = "gm"
    sandbox.expect_exact("You are gm in #table-1.")
    sandbox.expect_exact(f"{user}@table-1> ")
    for line, shown in WALKTHROUGH:
        sandbox.sendline(line)
        sandbox.expect_exact(shown)
        user = _prompt_after(line, user)
        sandbox.expect_exact(f"{user}@table-1> ")
    sandbox.sendline(":quit")
    sandbox.expect_exact("Bye.")
    sandbox.expect(pexpect.EOF)
    sandbox.close()
    assert sandbox.exitstatus == 0


def test_ctrl_c_stops_the_sandbox_cleanly(sandbox: pexpect.spawn) -> None:
    """Ctrl-C at the prompt stops the bot and exits without a traceback."""
    sandbox.expect_exact("gm@table-1> ")
    sandbox.sendintr()
    sandbox.expect_exact("Bye.")
    sandbox.expect(pexpect.EOF)
    assert "Traceback" not in (sandbox.before or "")
    sandbox.close()
    assert sandbox.exitstatus == 0


def test_without_a_token_tablehand_starts_the_sandbox(tmp_path: Path) -> None:
    """`python -m bot` with no DISCORD_TOKEN (and no .env) opens the terminal sandbox."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TABLEHAND_"))}
    env |= {"TERM": "dumb", "PYTHONPATH": str(ROOT), "TABLEHAND_DB": str(tmp_path / "t.db")}
    child = pexpect.spawn(
        sys.executable, ["-m", "bot"], cwd=str(tmp_path), env=env, encoding="utf-8", timeout=20
    )
    try:
        child.expect_exact("You are gm in #table-1.")
        child.expect_exact("gm@table-1> ")
        child.sendline(":quit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    assert (tmp_path / "t.db").exists()
