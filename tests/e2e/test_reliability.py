"""Promises of the standards, tried end to end: damaged rows, bugs, the token."""

from __future__ import annotations

import logging
import random

import pytest

from bot.replies import APOLOGY
from bot.sandbox.client import SandboxTable
from bot.sandbox.harness import SANDBOX_TOKEN

pytestmark = pytest.mark.e2e


async def test_a_damaged_encounter_breaks_only_its_own_channel(table: SandboxTable) -> None:
    """A corrupt encounter row broke another channel, or could not be cleared."""
    gm, admin = table.user("gm"), table.user("admin")
    await gm.run("/init start", channel="table-1")
    await gm.run("/init start", channel="table-2")
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
    table.bot.rng = random.Random(7)  # type: ignore[attr-defined]
    rng = random.Random(7)
    total = sum(rng.randrange(1000) + 1 for _ in range(1000))
    reply = await table.user("alice").run("/roll expression:1000d1000")
    assert not reply.ephemeral
    assert (
        reply.content == f"🎲 **Alice** rolls 1000d1000 = `{total}` (1000 dice, too many to list)"
    )


async def test_damage_of_a_thousand_dice_is_applied_and_reported(table: SandboxTable) -> None:
    """`/grit damage 500d2` changed Grit but its reply overflowed, so the user got the apology."""
    gm = table.user("gm")
    await gm.run("/init start")
    await gm.run("/init add name:Titan grit:999 max_grit:999")
    table.bot.rng = random.Random(11)  # type: ignore[attr-defined]
    rng = random.Random(11)
    total = sum(rng.randrange(2) + 1 for _ in range(500))
    reply = await gm.run("/grit damage combatant:Titan amount:500d2")
    assert not reply.ephemeral
    assert reply.content.splitlines() == [
        f"🎲 500d2 = `{total}` (500 dice, too many to list)",
        f"Titan takes {total} damage (Grit 999 → {999 - total}).",
    ]
