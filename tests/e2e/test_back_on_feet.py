"""A Broken combatant brought back before its turn takes that turn with its actions [002].

"Broken … cannot act until Grit is restored above 0" [002; GAME.md §2]: restored before
its turn is over, it acts with this round's actions — whatever restored it: /grit heal,
/grit set, or Regeneration ticking at its own turn start (GAME.md §7).
"""

from __future__ import annotations

import pytest

from bot.rules import encounter as flow
from bot.sandbox.client import SandboxTable
from tests.e2e.helpers import rows, tracker

pytestmark = pytest.mark.e2e


async def broken_mira(table: SandboxTable) -> None:
    """Round 1, finesse order: the Goblin acts first; alice's Mira is Broken (0 Grit)."""
    table.bot.trackers.interval = 0  # type: ignore[attr-defined]
    gm = table.user("gm")
    await gm.run("/init start mode:finesse")
    await gm.run("/init add name:Goblin finesse:5")
    await table.user("alice").run("/init join character:Mira finesse:1 grit:0")
    await gm.run("/init next")  # the Goblin's turn; Mira has no actions this round so far


async def actions_of(table: SandboxTable, name: str) -> int:
    encounter = await table.bot.store.peek(table.channel().id)  # type: ignore[attr-defined]
    assert encounter is not None
    return flow.by_name(encounter, name).actions_left


@pytest.mark.parametrize(
    ("source", "command"),
    [
        ("heal", "/grit heal combatant:Mira amount:5"),
        ("set", "/grit set combatant:Mira value:5"),
        ("regeneration", "/effect apply combatant:Mira special:Regeneration x:5"),
    ],
)
async def test_a_broken_combatant_restored_before_its_turn_acts_with_its_actions(
    table: SandboxTable, source: str, command: str
) -> None:
    """Mira, Broken when the round opened and restored before her turn, got a turn with 0 actions."""
    await broken_mira(table)
    assert await actions_of(table, "Mira") == 0
    await table.user("gm").run(command)
    turn = await table.user("gm").run("/init next")  # Mira's turn (Regeneration ticks now)
    assert "**Mira**'s turn — rolls d10, 2 actions" in turn.content
    if source == "regeneration":
        assert "Regeneration 5: Mira heals 5 (Grit 0 → 5)." in turn.content
    assert await actions_of(table, "Mira") == 2
    mira = next(r for r in rows(await tracker(table)) if "Mira" in r)
    assert "●●" in mira
    attack = await table.user("alice").run("/attack target:Goblin")
    assert not attack.ephemeral, attack.text
    assert await actions_of(table, "Mira") == 1
