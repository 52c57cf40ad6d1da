"""A character in a fight shows and rolls with the fight's Grit everywhere, not its sheet's.

While Mira fights in #table-1, her sheet's Grit is the Grit she had when she joined; the
fight's is the live one. `/grit show`, `/check` and `/roll core` in a thread or another
channel must read the fight's [GAME.md §1–§2].
"""

from __future__ import annotations

import pytest

from bot.sandbox.client import SandboxTable
from tests.e2e.helpers import script
from tests.scripted import d12

pytestmark = pytest.mark.e2e


async def mira_hurt_in_table_1(table: SandboxTable) -> None:
    """Alice's Mira (30/30) joins #table-1's fight and takes 15 there: Reduced, d12."""
    gm, alice = table.user("gm"), table.user("alice")
    await alice.run("/character create name:Mira finesse:2")
    await gm.run("/init start mode:finesse")
    await alice.run("/init join")
    hurt = await gm.run("/grit damage combatant:Mira amount:15")
    assert "Grit 30 → 15" in hurt.content


@pytest.mark.parametrize("channel", ["table-1-side", "table-2"])
async def test_grit_show_elsewhere_shows_the_fights_grit(fast, channel: str) -> None:
    """/grit show in a thread or another channel showed Mira's sheet (30/30) mid-fight."""
    table = fast
    await mira_hurt_in_table_1(table)
    for line in ("/grit show", "/grit show combatant:Mira"):
        shown = await table.user("alice").run(line, channel=channel)
        assert shown.ephemeral and shown.embed is not None, line
        card = table.render(shown.message)
        assert "15/30" in card and "Reduced" in card and "30/30" not in card, (line, card)


@pytest.mark.parametrize("channel", ["table-1-side", "table-2"])
async def test_check_elsewhere_rolls_the_fights_die(fast, channel: str) -> None:
    """/check in a thread or another channel rolled the sheet's d20, not the fight's d12."""
    table = fast
    await mira_hurt_in_table_1(table)
    script(table, d12(7))
    checked = await table.user("alice").run("/check trait:2 difficulty:9", channel=channel)
    assert not checked.ephemeral and "d12 **7**" in checked.content, checked.content


async def test_roll_core_elsewhere_is_the_fights_die(fast) -> None:
    """/roll core in another channel rolled the sheet's d20 mid-fight."""
    table = fast
    await mira_hurt_in_table_1(table)
    script(table, d12(4))
    rolled = await table.user("alice").run("/roll expression:core+1", channel="table-2")
    assert "1d12" in rolled.content and "`5`" in rolled.content, rolled.content
