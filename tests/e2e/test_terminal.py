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
    ("/init log", "[file fight-log.md"),
    (":file", "== fight-log.md ==\r\n# The fight's log so far: round 1"),
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


# `--locale de`: the server prefers German and everyone's client speaks it [issue 23].
GERMAN: list[tuple[str, str]] = [
    ("/hilfe befehl:roll", "Würfeln, z. B. 2d20kh1+3"),
    ("/probe merkmal:2 schwierigkeit:9", "Eine Probe würfelt deinen Kernwürfel"),
    (":as admin", "You are now admin."),
    ("/einstellungen anzeigen", "SL-Rolle: keine"),
    ("/würfeln ausdruck:1d1", "würfelt 1d1"),
]


def test_the_sandbox_speaks_german_with_locale_de(tmp_path: Path) -> None:
    """`tablehand sandbox --locale de` did not take German command names or answer in German."""
    child = _spawn(tmp_path, "--locale", "de")
    try:
        _play(child, GERMAN)
    finally:
        if child.isalive():
            child.terminate(force=True)


# A whole (short) fight typed in German: sheet and loadout, the fight, an attack, its
# defense by button, Grit, the end with its confirmation and log [issue 23].
GERMAN_FIGHT: list[tuple[str, str]] = [
    (":as alice", "You are now alice."),
    (
        "/charakter erstellen name:Mira physis:4 finesse:3",
        "ist erstellt und jetzt dein aktiver Charakter",
    ),
    ("/charakter waffe hinzufügen name:Langschwert schaden:1d8+2", "Mira trägt Langschwert"),
    (":as gm", "You are now gm."),
    ("/init starten modus:finesse", "Begegnung eröffnet — Modus Finesse"),
    ("/init hinzufügen name:Goblin physis:3 finesse:2", "Hinzugefügt: Goblin."),
    (":as alice", "You are now alice."),
    ("/init beitreten", "Mira tritt dem Kampf bei."),
    (":as gm", "You are now gm."),
    ("/init weiter", "Mira ist am Zug — würfelt d20, 2 Aktionen"),
    (":as alice", "You are now alice."),
    ("/angriff ziel:Goblin waffe:Langschwert", "Goblin, wähle eine Verteidigung"),
    (":as gm", "You are now gm."),
    (":click Blocken", "Nahkampf mit Langschwert · Blocken, gewählt von Game Master"),
    ("/grit schaden kämpfer:Goblin menge:2", "Goblin erleidet 2 Schaden"),
    ("/init weiter", "Goblin ist am Zug — würfelt d"),  # d20, or d12 after a hard hit
    ("/init beenden", "Diese Begegnung beenden?"),
    (":click Bestätigen", "Die Begegnung ist nach Runde 1 vorbei."),
]


def test_a_whole_fight_plays_in_german_in_the_terminal(tmp_path: Path) -> None:
    """A fight could not be typed with German commands, or did not answer in German."""
    child = _spawn(tmp_path, "--locale", "de")
    try:
        _play(child, GERMAN_FIGHT)
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


# Line editing, Discord's rendering, and a sandbox that remembers its channels ---------------

UP = "\x1b[A"


def _spawn_terminal(db: Path, *extra: str) -> pexpect.spawn:
    """The sandbox in a real terminal (not `dumb`): prompt_toolkit edits the line."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TABLEHAND_"))}
    # No cursor-position request: pexpect is not a terminal that answers one.
    env |= {"TERM": "xterm", "PROMPT_TOOLKIT_NO_CPR": "1", "TZ": "UTC", "PYTHONUNBUFFERED": "1"}
    return pexpect.spawn(
        sys.executable,
        ["-m", "bot", "sandbox", "--db", str(db), *extra],
        cwd=str(ROOT),
        env=env,
        encoding="utf-8",
        timeout=20,
        dimensions=(50, 200),
    )


CONTROL = r"(?:\x1b\[[0-9;?]*[A-Za-z]|[\r\n\x08 ])*"  # a redraw: escapes, moves, blanks


def _tab(child: pexpect.spawn, typed: str, completed: str) -> None:
    """Type, press Tab, and wait until the line shows the completion (redrawn in place)."""
    child.send(typed + "\t")
    child.expect(CONTROL.join(re.escape(ch) for ch in completed))


def _quit(child: pexpect.spawn) -> None:
    child.sendline(":quit")
    child.expect_exact("Bye.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_tab_completes_commands_options_and_names_and_up_recalls(tmp_path: Path) -> None:
    """Tab did not complete a command, a choice, a person or a bot suggestion; Up recalled none."""
    child = _spawn_terminal(tmp_path / "t.db")
    try:
        child.expect_exact("Tab completes commands, options and names")
        child.expect_exact("gm@table-1>")
        _tab(child, "/init st", "/init start")  # the command
        _tab(child, "mode:fi", "mode:finesse")  # a choice
        child.send("\r")
        child.expect_exact("Encounter started — mode finesse")
        child.expect_exact("gm@table-1>")
        child.send("/init add name:Goblin\r")
        child.expect_exact("Added Goblin.")
        child.expect_exact("gm@table-1>")
        _tab(child, ":as al", ":as alice")  # a person
        child.send("\r")
        child.expect_exact("You are now alice.")
        child.expect_exact("alice@table-1>")
        child.send("/init join character:Mira finesse:5\r")
        child.expect_exact("Mira joins the fight.")
        child.expect_exact("alice@table-1>")
        child.send(":as gm\r")
        child.expect_exact("gm@table-1>")
        _tab(child, "/init remove combatant:Gob", "combatant:Goblin")  # the bot's suggestion
        child.send("\r")
        child.expect_exact("Goblin leaves the fight.")
        child.expect_exact("gm@table-1>")
        child.send("/roll expression:1d1+41\r")
        child.expect_exact("= 42")
        child.expect_exact("gm@table-1>")
        child.send(UP + "\r")  # the same roll again, from the history
        child.expect_exact("= 42")
        child.expect_exact("gm@table-1>")
        _quit(child)
    finally:
        child.close(force=True)
    assert "/roll expression:1d1+41" in (tmp_path / "t.history").read_text(encoding="utf-8")


def test_timestamps_dropped_dice_and_direct_messages(tmp_path: Path) -> None:
    """A timestamp showed as its number, a dropped die was not struck, or a DM could not roll."""
    child = _spawn_terminal(tmp_path / "t.db", "--extension", "tests.e2e.probe_cog")
    try:
        child.expect_exact("gm@table-1>")
        child.send('/probe echo text:"until <t:1700000000:T> (<t:1700000000:R>)"\r')
        child.expect(r"until 22:13:20 \(\d+ years? ago\)")
        child.expect_exact("gm@table-1>")
        child.send("/roll expression:4d6kh3\r")
        child.expect(r"rolls 4d6kh3 \([^)]*\d\u0336[^)]*\)")
        child.expect_exact("gm@table-1>")
        child.send(":channel dm\r")  # a direct message with the bot: /roll works there too
        child.expect_exact("You are now in your direct messages with the bot.")
        child.expect_exact("gm@dm>")
        child.send("/roll expression:1d1+1\r")
        child.expect_exact("= 2")
        child.expect_exact("gm@dm>")
        child.send("/init start\r")
        child.expect_exact("/init is not offered in direct messages")
        child.expect_exact("gm@dm>")
        _quit(child)
    finally:
        child.close(force=True)


def test_the_channel_and_its_buttons_survive_a_restart(tmp_path: Path) -> None:
    """After a restart the pinned tracker was gone, or its Next button no longer worked."""
    first = _spawn(tmp_path)  # the same database, and so the same channels file, twice
    try:
        _play(first, [("/init start", "Encounter started"), ("/init add name:Goblin", "Added")])
    finally:
        first.close(force=True)
    assert (tmp_path / "sandbox.discord.json").exists()
    again = _spawn(tmp_path)
    try:
        again.expect_exact("messages are back from last time")
        again.expect_exact("== pinned in #table-1 ==")
        again.expect_exact("Goblin")
        again.expect_exact("gm@table-1> ")
        again.sendline(":click Next")
        again.expect_exact("Goblin's turn")
        again.expect_exact("gm@table-1> ")
        again.sendline(":pins")
        again.expect_exact("Round 1")
        again.expect_exact("gm@table-1> ")
        _quit(again)
    finally:
        again.close(force=True)
