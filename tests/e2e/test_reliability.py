"""Promises of the standards, tried end to end: damaged rows, bugs, the token."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.replies import APOLOGY
from bot.sandbox.client import SandboxTable
from bot.sandbox.harness import SANDBOX_TOKEN, BotProcess, running_bot
from bot.sandbox.server import LoopbackDiscord, SandboxError
from tests.e2e.conftest import tablehand_bot
from tests.e2e.helpers import script
from tests.e2e.invariants import unhandled
from tests.scripted import ScriptedRandom, d2, d20, d1000

pytestmark = pytest.mark.e2e


async def test_a_damaged_encounter_breaks_only_its_own_channel(table: SandboxTable) -> None:
    """A corrupt encounter row broke another channel, or could not be cleared."""
    gm, admin = table.user("gm"), table.user("admin")
    await gm.run("/init start", channel="table-1")
    await gm.run("/init start", channel="table-2")
    # The raw write below bypasses the channel's lock: the trackers' own writes come first.
    await table.bot.trackers.settled()  # type: ignore[attr-defined]
    damaged = table.channel("table-1").id
    await table.bot.store._transaction(  # type: ignore[attr-defined]
        [("UPDATE encounters SET data = '{\"round\": [' WHERE channel_id = ?", (damaged,))]
    )
    reply = await gm.run("/init next", channel="table-1")
    assert reply.ephemeral and "damaged" in reply.text
    assert not (await gm.run("/init add name:Orc", channel="table-2")).ephemeral
    # Its starter is unreadable now: someone with Manage Channels clears it.
    end = await admin.run("/init end", channel="table-1")
    cleared = await end.click("Confirm")
    assert "cleared" in cleared.text
    assert not (await gm.run("/init start", channel="table-1")).ephemeral


async def test_a_bug_is_logged_with_its_context_and_the_user_gets_an_apology(
    table: SandboxTable, caplog: pytest.LogCaptureFixture
) -> None:
    """An unexpected exception reached the user as a traceback, or was logged without context."""
    caplog.set_level(logging.ERROR, logger="tablehand")
    alice = table.user("alice")
    reply = await alice.run("/probe bug")
    assert reply.ephemeral and reply.content == APOLOGY
    assert "Traceback" not in reply.text and "RuntimeError" not in reply.text
    record = next(r for r in caplog.records if "unexpected error" in r.getMessage())
    message = record.getMessage()
    assert "/probe bug" in message
    assert f"channel {table.channel().id}" in message and f"user {alice.id}" in message
    assert record.exc_info is not None


async def test_the_token_appears_in_no_log_line_and_no_message(
    table: SandboxTable, caplog: pytest.LogCaptureFixture
) -> None:
    """The bot's token showed up in a log record or in something the bot sent."""
    caplog.set_level(logging.DEBUG)
    gm, alice = table.user("gm"), table.user("alice")
    await gm.run("/init start")
    await gm.run("/init add name:Goblin count:2")
    await alice.run("/init join character:Mira")
    await gm.run("/init next")
    await alice.run("/probe bug")
    logged = "\n".join(r.getMessage() + str(r.exc_info or "") for r in caplog.records)
    assert SANDBOX_TOKEN not in logged
    for channel in ("table-1", "table-2"):
        for message in table.channel(channel).all_messages:
            assert SANDBOX_TOKEN not in table.render(message)


# Found by the fuzz (tests/e2e/test_fuzz.py): replies that outgrew Discord's 2,000 characters.


async def test_an_error_quoting_a_very_long_input_still_reaches_the_user(
    table: SandboxTable, caplog: pytest.LogCaptureFixture
) -> None:
    """An error echoing a 1,990-character name was too long for Discord, so nobody was answered."""
    caplog.set_level(logging.WARNING)
    gm = table.user("gm")
    await gm.run("/init start")
    name = "Ж" * 1990  # a combatant option has no length limit of its own: Discord's is 6,000
    reply = await gm.command("grit damage", options={"combatant": name, "amount": "1"})
    assert reply.ephemeral and "\n" not in reply.content
    assert reply.content.startswith("No combatant named 'ЖЖЖ")
    assert len(reply.content) == 2000 and reply.content.endswith("…")
    assert not [r for r in caplog.records if "could not deliver" in r.getMessage()]


async def test_a_roll_of_a_thousand_dice_gives_its_total(table: SandboxTable) -> None:
    """`/roll 1000d1000` listed every die, overflowed the message and got the apology instead."""
    script(table, *[d1000(1000)] * 1000)  # the longest total there is
    reply = await table.user("alice").run("/roll expression:1000d1000")
    assert not reply.ephemeral
    assert reply.content == "🎲 **Alice** rolls 1000d1000 = `1000000` (1000 dice, too many to list)"


async def test_damage_of_a_thousand_dice_is_applied_and_reported(table: SandboxTable) -> None:
    """`/grit damage 500d2` changed Grit but its reply overflowed, so the user got the apology."""
    gm = table.user("gm")
    await gm.run("/init start")
    await gm.run("/init add name:Titan grit:999 max_grit:999")
    script(table, *[d2(1), d2(2)] * 250)  # 750
    reply = await gm.run("/grit damage combatant:Titan amount:500d2")
    assert not reply.ephemeral
    assert reply.content.splitlines() == [
        "🎲 500d2 = `750` (500 dice, too many to list)",
        "Titan takes 750 damage (Prime d20).",
    ]
    assert (await table.bot.store.peek(table.channel("table-1").id)).combatants[0].grit == 249  # type: ignore[attr-defined,union-attr]


# The token, in the bot's own process log, at DEBUG, through errors, faults and reconnects.

SECRET = "tablehand-test-token-7Qx9.Zr4-uniquely-findable"


async def test_the_token_is_in_no_line_the_bot_process_logs_even_at_debug(
    tmp_path: Path,
) -> None:
    """The token appeared in the bot process's log (DEBUG, errors, faults, RESUME, IDENTIFY)."""
    async with LoopbackDiscord(token=SECRET) as server:
        table = SandboxTable(server, timeout=10)
        gm, alice = table.user("gm"), table.user("alice")
        env = {"DISCORD_TOKEN": SECRET, "TABLEHAND_LOG_LEVEL": "DEBUG"}
        db, log = tmp_path / "bot.db", tmp_path / "bot.log"
        proc = await BotProcess.start(server, db_path=db, env=env, log_path=log)
        try:
            await gm.run("/init start")
            server.inject_fault("/channels/*/messages/*", status=503, method="PATCH")
            await gm.run("/init add name:Goblin")
            await alice.run("/grit damage combatant:Goblin amount:1")  # refused: not hers
            await alice.run("/roll expression:1d")  # a dice error
            resumes = server.stats.resumes
            await server.drop_gateway(abrupt=True)  # the RESUME carries the token
            await server.wait_resumed(after=resumes)
            await gm.run("/init next")
        finally:
            await proc.stop()
        proc = await BotProcess.start(server, db_path=db, env=env, log_path=log)  # IDENTIFY
        try:
            await gm.run("/init next")
        finally:
            await proc.stop()
        # A token Discord refuses stops start-up with one line that does not repeat it.
        wrong = SECRET.replace("7Qx9", "0000")
        with pytest.raises(SandboxError):
            await BotProcess.start(
                server, db_path=db, env=env | {"DISCORD_TOKEN": wrong}, log_path=log, timeout=10
            )
    text = log.read_text(errors="replace")
    assert "DEBUG" in text and "RESUME" in text.upper()  # the log did cover all of that
    assert "Discord refused DISCORD_TOKEN" in text
    assert SECRET not in text and wrong not in text
    for channel in ("table-1", "table-2"):
        for message in table.channel(channel).all_messages:
            assert SECRET not in table.render(message)


async def test_a_damaged_row_survives_a_restart_and_harms_no_other_channel(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """After a restart, a damaged encounter row broke another channel's fight, its pending
    defense or its tracker, or start-up logged an error."""
    caplog.set_level(logging.WARNING)
    async with LoopbackDiscord() as server:
        table = SandboxTable(server)
        gm, alice = table.user("gm"), table.user("alice")
        before = ScriptedRandom([d20(10)])  # the Goblin's attack: a plain one, Mira must defend
        async with running_bot(server, tablehand_bot(server, tmp_path, rng=before)) as bot:
            table.bot = bot  # type: ignore[attr-defined]
            for channel in ("table-1", "table-2"):
                await gm.run("/init start", channel=channel)
                await gm.run("/init add name:Goblin", channel=channel)
                await alice.run("/init join character:Mira", channel=channel)
            prompt = await gm.run(
                "/attack target:Mira attacker:Goblin force:true", channel="table-2"
            )
            assert prompt.buttons, prompt.text
            await bot.store._transaction(
                [
                    (
                        "UPDATE encounters SET data = '{\"round\": [' WHERE channel_id = ?",
                        (table.channel("table-1").id,),
                    )
                ]
            )
        before.done()
        # Mira's dodge; then table-2's initiative, the Goblin's and Mira's
        after = ScriptedRandom([d20(20), d20(9), d20(12)])
        async with running_bot(server, tablehand_bot(server, tmp_path, rng=after)) as bot:
            table.bot = bot  # type: ignore[attr-defined]
            bot.trackers.interval = 0
            damaged = await gm.run("/init next", channel="table-1")
            assert damaged.ephemeral and "damaged" in damaged.content
            resolved = await prompt.click("Dodge", as_user="alice")
            assert not resolved.ephemeral and resolved.embed is not None
            assert not (await gm.run("/init next", channel="table-2")).ephemeral
            await bot.trackers.settled()
            assert (await bot.trackers.reconcile(0)) == 2  # both rows are looked at, quietly
            await bot.trackers.settled()
        after.done()
    assert unhandled(caplog.records) == []
