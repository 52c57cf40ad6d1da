"""Names people type: kept in one clean form, compared case-insensitively, echoed escaped.

A name is normalised when it is made (NFKC, no zero-width or control characters) and
compared after that, ignoring case: `Gob\u200blin`, `Ｇｏｂｌｉｎ` and `GOBLIN` are Goblin.
Whatever a name holds, everything the bot sends shows it as typed: `[free nitro](…)`
never becomes a link — in the tracker, replies, summaries, prompts, results or errors.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from bot.sandbox.client import InteractionResult, SandboxTable
from tests.e2e.helpers import settle
from tests.e2e.invariants import stored

pytestmark = pytest.mark.e2e

LINK = "[free nitro](https://ev.il)"
NPC_LINK = "[claim](https://ev.il/x)"
# A masked link Discord would render: "[text](url)" whose "[" is not escaped.
MASKED_LINK = re.compile(r"(?<!\\)\[[^\[\]\n]*\]\(\s*<?https?://")


def strings(value: Any) -> Iterator[str]:
    """Yield every string inside a request body (content, embeds, fields, components…)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def has_button(reply: InteractionResult, label: str) -> bool:
    return any(b.get("label") == label for m in reply.messages for b in m.buttons)


def links_sent(table: SandboxTable) -> list[str]:
    """Return every masked link in anything the bot sent: messages, edits, answers, errors."""
    found = []
    for call in table.server.calls:
        if call.method in ("POST", "PATCH") and call.body is not None:
            found += [text for text in strings(call.body) if MASKED_LINK.search(text)]
    return found


@pytest.mark.parametrize(
    "typed", ["Gob\u200blin", "Ｇｏｂｌｉｎ", "GOBLIN", "Goblin\u2060", "go\u00adblin"]
)
async def test_a_combatant_name_is_compared_after_normalising(fast, typed: str) -> None:
    """A name that only looks different (zero-width, full-width, case) sat beside Goblin."""
    table = fast
    gm = table.user("gm")
    await gm.run("/init start")
    await gm.run("/init add name:Goblin")
    refused = await gm.run("/init add", name=typed)
    assert refused.ephemeral and "already a combatant named Goblin" in refused.content
    hurt = await gm.run("/grit damage amount:1", combatant=typed)
    assert not hurt.ephemeral and hurt.content.startswith("Goblin takes 1 damage")


async def test_a_name_is_kept_without_control_or_invisible_characters(fast) -> None:
    """Control and zero-width characters or full-width letters were kept in a new name."""
    table = fast
    gm = table.user("gm")
    await gm.run("/init start")
    added = await gm.run("/init add", name="Ｏｒｃ\u200b\x07 \u202eChief")
    assert added.content == "Added Orc Chief."
    blank = await gm.run("/init add", name="\u200b\u2060")
    assert blank.ephemeral and "needs a name" in blank.content
    encounter = await stored(table.bot.store, table.channel().id)  # type: ignore[attr-defined]
    assert encounter is not None and [c.name for c in encounter.combatants] == ["Orc Chief"]


async def test_a_character_name_is_compared_after_normalising(fast) -> None:
    """A sheet named Ｍｉｒａ sat beside Mira, or mira\u200b did not find her."""
    table = fast
    alice = table.user("alice")
    await alice.run("/character create name:Mira")
    refused = await alice.run("/character create", name="Ｍｉｒａ")
    assert refused.ephemeral and "already have a character named Mira" in refused.content
    shown = await alice.run("/character show", name="mira\u200b")
    assert shown.embed is not None and "Mira" in shown.embed["title"]
    await table.user("gm").run("/init start")
    joined = await alice.run("/init join", character="ＭＩＲＡ")
    assert joined.content == "**Mira** joins the fight."
    encounter = await stored(table.bot.store, table.channel().id)  # type: ignore[attr-defined]
    assert encounter is not None and encounter.combatants[0].character_id is not None


async def test_a_name_holding_a_link_is_never_sent_as_one(fast) -> None:
    """A combatant or character named like a masked link showed as a link somewhere."""
    table = fast
    gm, alice, bob = table.user("gm"), table.user("alice"), table.user("bob")
    await alice.run("/character create", name=LINK, finesse=5)
    await gm.run("/init start mode:finesse")
    await gm.run("/init add finesse:3", name=NPC_LINK)
    await alice.run("/init join")
    await bob.run("/init join character:Brom finesse:1")
    await alice.run("/declare action:Strike")
    await alice.run("/haste")
    await gm.run("/init next")  # the initiative line and her turn
    await alice.run("/move distance:2")
    await alice.run("/check trait:1 difficulty:9")
    await bob.run("/init next")  # refused: it names her turn
    await gm.run("/effect apply special:Ruin x:2", combatant=NPC_LINK, source=LINK)
    await gm.run("/grit damage amount:2", combatant=LINK)
    await alice.run("/sacrifice")
    attack = await alice.run("/attack", target=NPC_LINK)
    if has_button(attack, "Block"):  # a defense prompt (not a Critical or a Risk failure)
        await attack.click("Block", as_user="gm")
    await alice.run("/init next")  # the NPC's turn: Ruin ticks
    struck = await gm.run("/attack", target=LINK, attacker=NPC_LINK)
    if has_button(struck, "Block"):
        await struck.click("Block", as_user="alice")
    elif has_button(struck, "Counter"):  # the NPC's natural 1
        await struck.click("Counter", as_user="alice")
    await gm.run("/wait", combatant=NPC_LINK)
    await gm.run("/hold", combatant=NPC_LINK)
    await gm.run("/effect cleanse special:Ruin x:1", combatant=NPC_LINK)
    await gm.run("/init list")
    await alice.run("/effect list")
    await alice.run("/grit show")
    await gm.run("/init round")  # the round's summary
    await gm.run("/init remove", combatant=NPC_LINK)
    end = await (await gm.run("/init end")).click("Confirm")
    await end.wait_followups(1)
    await settle(table)
    assert links_sent(table) == []
    shown = table.render(table.channel().all_messages[-1])
    assert "free nitro" in shown  # the name itself is still there, as typed
