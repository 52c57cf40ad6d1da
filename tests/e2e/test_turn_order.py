"""/init move mid-round: nobody loses this round's turn, nobody gets a second one."""

from __future__ import annotations

import pytest

from bot.sandbox.client import SandboxTable
from tests.e2e.helpers import acting, order_in, tracker

pytestmark = pytest.mark.e2e


async def miras_turn(table: SandboxTable) -> None:
    """Goblin (9), Mira (5), Brom (3), Orc (1) in finesse mode; the Goblin had its turn."""
    gm = table.user("gm")
    await gm.run("/init start mode:finesse")
    await gm.run("/init add name:Goblin finesse:9")
    await table.user("alice").run("/init join character:Mira finesse:5")
    await table.user("bob").run("/init join character:Brom finesse:3")
    await gm.run("/init add name:Orc finesse:1")
    await gm.run("/init next")
    await gm.run("/init next")
    assert acting(await tracker(table)) == "Mira"


async def turns_to_the_round_end(table: SandboxTable) -> list[str]:
    """End turns until the round ends; return who had them."""
    had = []
    while (name := acting(await tracker(table))) is not None:
        had.append(name)
        await table.user("gm").run("/init next")
    return had


async def test_moving_one_still_to_act_to_a_passed_place_keeps_its_turn(fast) -> None:
    """/init move of Orc to place 1 (already passed) silently took Orc's turn this round."""
    table = fast
    await miras_turn(table)
    moved = await table.user("gm").run("/init move combatant:Orc position:1")
    assert not moved.ephemeral
    assert "Orc has not acted this round" in moved.content and "acts next" in moved.content
    assert order_in(await tracker(table)) == ["Goblin", "Mira", "Orc", "Brom"]
    assert await turns_to_the_round_end(table) == ["Mira", "Orc", "Brom"]


async def test_moving_one_that_acted_to_a_place_to_come_is_refused(fast) -> None:
    """/init move of the Goblin (its turn over) to place 4 gave it a second turn this round."""
    table = fast
    await miras_turn(table)
    refused = await table.user("gm").run("/init move combatant:Goblin position:4")
    assert refused.ephemeral and "has had its turn this round" in refused.content
    assert await turns_to_the_round_end(table) == ["Mira", "Brom", "Orc"]


async def test_the_actor_is_not_moved_out_of_its_own_turn(fast) -> None:
    """/init move of Mira while she acted skipped Brom and Orc (or gave a turn twice)."""
    table = fast
    await miras_turn(table)
    refused = await table.user("gm").run("/init move combatant:Mira position:4")
    assert refused.ephemeral and "/wait" in refused.content
    assert await turns_to_the_round_end(table) == ["Mira", "Brom", "Orc"]


async def test_moving_among_those_to_come_reorders_them(fast) -> None:
    """/init move of Orc before Brom (both still to act) did not reorder them."""
    table = fast
    await miras_turn(table)
    moved = await table.user("gm").run("/init move combatant:Orc position:3")
    assert moved.content == "Orc now acts at place 3."
    assert await turns_to_the_round_end(table) == ["Mira", "Orc", "Brom"]
