"""Asking "which one?" with a select menu that runs the command again with the choice."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.sandbox.client import SandboxTable
from bot.sandbox.harness import running_bot
from bot.sandbox.server import LoopbackDiscord
from tests.e2e.conftest import tablehand_bot
from tests.e2e.helpers import rows, tracker

pytestmark = pytest.mark.e2e


async def _two_of_alices(table) -> None:
    gm, alice = table.user("gm"), table.user("alice")
    await gm.run("/init start mode:finesse")
    await alice.run("/init join character:Mira finesse:5")
    await gm.run(f"/init add name:Hawk finesse:3 controller:{alice.id}")
    await gm.run("/init add name:Goblin count:2 finesse:1")


async def test_a_player_with_two_combatants_picks_one_from_a_menu(fast) -> None:
    """/haste with two of alice's combatants refused in one line instead of asking which one."""
    table = fast
    await _two_of_alices(table)
    alice = table.user("alice")
    asked = await alice.run("/haste")
    assert asked.ephemeral
    assert asked.content == "You control several combatants; name one (the `combatant` option)."
    menu = asked.message.components[0]["components"][0]
    assert [o["value"] for o in menu["options"]] == ["Mira", "Hawk"]

    hasted = await alice.select(asked.message, ["Hawk"])
    assert not hasted.ephemeral and "**Hawk** hastes" in hasted.content
    assert "⚡ Haste" in next(r for r in rows(await tracker(table)) if "Hawk" in r)
    answered = await asked.wait_edit(1)  # the question stays, answered, without its menu
    assert answered.components == []
    assert answered.content.endswith("→ **Hawk**")


async def test_a_near_name_asks_did_you_mean_and_runs_with_the_choice(fast) -> None:
    """/grit damage combatant:Gobln was refused as unknown instead of offering Goblin 1 and 2."""
    table = fast
    await _two_of_alices(table)
    gm = table.user("gm")
    asked = await gm.run("/grit damage combatant:Gobln amount:3")
    assert asked.ephemeral
    assert asked.content == "No combatant named 'Gobln' here. Did you mean Goblin 1 or Goblin 2?"
    damaged = await gm.select(asked.message, ["Goblin 2"])
    assert "Goblin 2" in damaged.text and not damaged.ephemeral
    listed = await gm.run("/grit show combatant:Goblin 2")
    assert "27/30" in listed.text


async def test_a_menu_answered_after_a_restart_says_it_expired(tmp_path: Path) -> None:
    """A "which one?" menu ran a command after the bot restarted, or was left unanswered."""
    async with LoopbackDiscord() as server:
        table = SandboxTable(server)
        alice = table.user("alice")
        async with running_bot(server, tablehand_bot(server, tmp_path)) as bot:
            table.bot = bot  # type: ignore[attr-defined]
            await _two_of_alices(table)
            asked = await alice.run("/haste")
        async with running_bot(server, tablehand_bot(server, tmp_path)) as bot:
            table.bot = bot  # type: ignore[attr-defined]
            expired = await alice.select(asked.message, ["Mira"])
            assert expired.message.content.startswith("That choice has expired")
            assert expired.message.components == []
            assert all("Haste" not in row for row in rows(await tracker(table)))


async def test_a_button_that_cannot_tell_which_one_answers_in_one_line(fast) -> None:
    """The tracker's Hold, with two of alice's combatants waiting, offered a menu it cannot run."""
    table = fast
    await _two_of_alices(table)
    gm, alice = table.user("gm"), table.user("alice")
    await gm.run("/init next")
    await alice.run("/wait combatant:Mira")
    await alice.run("/wait combatant:Hawk")
    pinned = table.channel("table-1").pinned_messages[0]
    held = await alice.click(pinned, "Hold")
    assert held.ephemeral and held.message.components == []
    assert held.content == "Several of your combatants could (Mira, Hawk); name one (`combatant`)."
