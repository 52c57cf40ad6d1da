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


# The README's "first fight to try", as a newcomer types it.
FIGHT: list[tuple[str, str]] = [
    ("/init start mode:fortune", "Encounter started"),
    ("/init add name:Goblin count:3 finesse:2", "Added Goblin 1, Goblin 2, Goblin 3."),
    (":as alice", "You are now alice."),
    ("/init join character:Mira finesse:5", "Mira joins the fight."),
    (":as gm", "You are now gm."),
    ("/init next", "Initiative:"),
    (":click Next", "'s turn"),
    ("/init list", "only you can see this"),
]


def _prompt_after(line: str, user: str) -> str:
    match = re.match(r":as (\w+)$", line)
    return match.group(1) if match else user


def _spawn(tmp_path: Path, *extra: str) -> pexpect.spawn:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TABLEHAND_"))}
    env |= {"TERM": "dumb", "PYTHONUNBUFFERED": "1", "COLUMNS": "200"}
    return pexpect.spawn(
        sys.executable,
        ["-m", "bot", "sandbox", "--db", str(tmp_path / "sandbox.db"), *extra],
        cwd=str(ROOT),
        env=env,
        encoding="utf-8",
        timeout=20,
        dimensions=(50, 200),
    )


@pytest.fixture
def sandbox(tmp_path: Path) -> pexpect.spawn:
    """`python -m bot sandbox` in a terminal, with a temp database and the probe cog."""
    child = _spawn(tmp_path, "--extension", "tests.e2e.probe_cog")
    yield child
    if child.isalive():
        child.terminate(force=True)


def _play(child: pexpect.spawn, steps: list[tuple[str, str]]) -> None:
    """Type each step, wait for its text and the next prompt; then quit."""
    user = "gm"
    child.expect_exact("You are gm in #table-1.")
    child.expect_exact(f"{user}@table-1> ")
    for line, shown in steps:
        child.sendline(line)
        child.expect_exact(shown)
        user = _prompt_after(line, user)
        child.expect_exact(f"{user}@table-1> ")
    child.sendline(":quit")
    child.expect_exact("Bye.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_a_newcomer_runs_a_command_switches_user_clicks_and_quits(sandbox: pexpect.spawn) -> None:
    """The sandbox starts, answers commands and clicks for whoever you are, and quits cleanly."""
    _play(sandbox, WALKTHROUGH)


def test_the_readmes_first_fight_plays_in_the_terminal(tmp_path: Path) -> None:
    """The README's first fight could not be typed into the sandbox as written."""
    child = _spawn(tmp_path)
    try:
        _play(child, FIGHT)
    finally:
        if child.isalive():
            child.terminate(force=True)


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
