"""An /act inside someone's turn, and what happens to that turn meanwhile [GAME.md §5, 003].

A waiting combatant may act inside another's turn; `/init next` ends its act and the
interrupted turn goes on. If the turn's owner leaves (`/init remove`) or waits during
the act, there is no turn to go back to: the act's end starts the next turn.
"""

from __future__ import annotations

import pytest

from bot.sandbox.client import SandboxTable
from tests.e2e.helpers import acting, order_in, tracker

pytestmark = pytest.mark.e2e


async def brom_acts_in_miras_turn(table: SandboxTable, order: list[tuple[str, str, int]]) -> None:
    """Start a finesse fight in `order` (name, who plays it, Finesse); Brom acts in Mira's turn."""
    gm = table.user("gm")
    await gm.run("/init start mode:finesse")
    for name, who, finesse in order:
        if who == "gm":
            await gm.run(f"/init add name:{name} finesse:{finesse}")
        else:
            await table.user(who).run(f"/init join character:{name} finesse:{finesse}")
    await table.user("bob").run("/wait")  # Brom waits before his turn comes
    while acting(await tracker(table)) != "Mira":
        await gm.run("/init next")
    acted = await table.user("bob").run("/act")
    assert "**Brom** acts now, out of turn" in acted.content
    assert acting(await tracker(table)) == "Brom"


async def test_removing_the_interrupted_actor_gives_nobody_a_second_turn(fast) -> None:
    """/init remove of the interrupted Mira sent the turn back to the Goblin, who had acted."""
    table = fast
    order = [("Goblin", "gm", 9), ("Mira", "alice", 5), ("Brom", "bob", 3), ("Orc", "gm", 1)]
    await brom_acts_in_miras_turn(table, order)
    await table.user("gm").run("/init remove combatant:Mira")
    ended = await table.user("bob").run("/init next")
    assert "**Orc**'s turn" in ended.content and "Goblin" not in ended.content
    assert acting(await tracker(table)) == "Orc"


async def test_removing_the_first_actor_mid_act_gives_no_phantom_turn(fast) -> None:
    """With the first in order removed mid-act, the last combatant got a phantom turn (pinged)."""
    table = fast
    order = [("Mira", "alice", 9), ("Goblin", "gm", 5), ("Orc", "gm", 3), ("Brom", "bob", 1)]
    await brom_acts_in_miras_turn(table, order)
    await table.user("gm").run("/init remove combatant:Mira")
    ended = await table.user("bob").run("/init next")
    assert "**Goblin**'s turn" in ended.content and "Back to" not in ended.content
    assert ended.message is not None and ended.message.mentions == []  # Bob's Brom is not up
    assert acting(await tracker(table)) == "Goblin"
    await table.user("gm").run("/init next")
    ended = await table.user("gm").run("/init next")
    assert "Round 1 ends" in ended.content  # Brom acted already (/act): no turn of his own


async def test_the_interrupted_actor_waiting_mid_act_passes_its_turn(fast) -> None:
    """Mira's /wait during Brom's /act gave her turn back to her after the act (and a Hold)."""
    table = fast
    order = [("Mira", "alice", 9), ("Brom", "bob", 3), ("Orc", "gm", 1)]
    await brom_acts_in_miras_turn(table, order)
    waited = await table.user("alice").run("/wait")
    assert not waited.ephemeral
    ended = await table.user("bob").run("/init next")
    assert "**Orc**'s turn" in ended.content and "Mira" not in ended.content
    text = await tracker(table)
    assert acting(text) == "Orc" and "Waiting — may /act at any moment" in text
    assert order_in(text)[-1] == "Mira"  # listed under Waiting: she may still /act this round
    acted = await table.user("alice").run("/act")
    assert "**Mira** acts now, out of turn" in acted.content
