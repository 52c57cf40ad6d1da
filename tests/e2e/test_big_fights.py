"""Big fights within Discord's limits: 44 long-named combatants in fortune mode, and 100.

The loopback Discord refuses what Discord refuses (content over 2,000 characters, an
embed description over 4,096, a field over 1,024, 6,000 per message, 25 fields): a
message built too big would come back 400 and its command end in an apology. Every
message here must arrive whole — split or paged, never cut — and say everything: every
combatant's name in the initiative line, the lists, the summary and the standings.
"""

from __future__ import annotations

import re

import pytest

from bot.replies import APOLOGY
from bot.sandbox.client import InteractionResult, SandboxTable, SandboxUser
from bot.sandbox.records import StoredMessage
from tests.e2e.invariants import message_text, refused_calls

pytestmark = pytest.mark.e2e

LONG = "Xyloquendar the Unforgiving"  # 27 characters: "… 44" is 30, within the 32 allowed
HERO = "Mirabelle Quintessa Longstride"  # 30
LAST_PAGE = r"\((\d+)/\1\)"  # "(2/2)": the last page of a split message


def names(count: int) -> list[str]:
    return [f"{LONG} {n}" for n in range(1, count + 1)]


def everything(messages: list[StoredMessage]) -> str:
    return "\n".join(message_text(m) for m in messages)


async def until(reply: InteractionResult, pattern: str) -> str:
    """Wait until the reply's messages (original and followups) say `pattern`; return them."""

    def said() -> str | None:
        text = everything(reply.messages)
        return text if re.search(pattern, text) else None

    return await reply.server.wait_until(
        said,
        timeout=10,
        describe=lambda: f"{pattern!r} in {everything(reply.messages)[-300:]!r}",
    )


async def pages(user: SandboxUser, first: InteractionResult) -> list[str]:
    """Return each page of a paged embed reply, turning pages with ▶ until the last."""
    message = first.message
    assert message is not None and message.ephemeral
    seen = [message.embeds[0]["description"]]
    while message.buttons and not message.find_button("▶").get("disabled"):
        turned = await user.click(message, "▶")
        assert turned.message is message  # the same message, edited in place
        seen.append(message.embeds[0]["description"])
    assert len(seen) == len(set(seen)), "a page came twice"
    return seen


def no_refusals(table: SandboxTable, *replies: InteractionResult) -> None:
    """Check Discord refused nothing the bot sent, and no reply was the apology for a bug."""
    assert refused_calls(table.server.calls) == []
    for reply in replies:
        assert all(m.content != APOLOGY for m in reply.messages), reply.text


async def test_44_long_named_combatants_in_fortune_mode_fit_every_message(fast) -> None:
    """A 44-combatant fortune fight with long names built a message Discord refused or cut."""
    table = fast
    gm, alice = table.user("gm"), table.user("alice")
    await gm.run("/init start mode:fortune")
    added = await gm.run(f"/init add name:{LONG} count:43 finesse:2 initiative_bonus:3")
    await until(added, rf"{LONG} 43\.")
    joined = await alice.run(f"/init join character:{HERO} finesse:4")
    everyone = [*names(43), HERO]
    for n in range(1, 12):  # Specials from long-named sources lengthen lines, ticks the log
        await gm.run(
            f'/effect apply combatant:"{LONG} {n}" special:Ruin x:2 source:"{LONG} {n + 1}"'
        )
    first = await gm.run("/init next")  # closes Declaration: the 44-entry initiative line
    said = await until(first, r"'s turn — rolls")
    assert len(first.messages) >= 2  # longer than one message: split, not refused
    assert all(name in said for name in everyone)
    steps = [await gm.run("/init next") for _ in range(5)]
    attack = await gm.run(f'/attack target:"{LONG} 40" attacker:"{LONG} 41" damage:1d6 force:true')
    assert not attack.ephemeral, attack.text  # forced by the GM, out of its turn
    if attack.buttons:
        attack = await attack.click("Block")
    round_end = await gm.run("/init round")
    await until(round_end, r"Round 1 summary( \((\d+)/\2\))?\n")
    logged = await gm.run("/init log")  # the details (the initiative line) are in the log
    log = "".join(
        table.server.attachment_bodies[a["id"]].decode() for a in logged.message.attachments
    )
    assert all(name in log for name in everyone)
    listed = await pages(gm, await gm.run("/init list"))
    assert all(any(f"**{name}**" in page for page in listed) for name in everyone)
    effects = await gm.run("/effect list")
    ruined = await until(effects, rf"\*\*{HERO}\*\* —")  # the last to join: the last line
    assert all(f"**{LONG} {n}** — Ruin" in ruined for n in range(1, 12))
    end = await (await gm.run("/init end")).click("Confirm")
    final = await until(end, rf"{HERO} \(Grit \d+/30")  # the standings' last name
    assert "The encounter is over" in final and all(name in final for name in everyone)
    assert "Round 2 summary" not in final  # round 2 had only its opening: the log has that
    no_refusals(table, added, joined, first, *steps, attack, round_end, effects, end)


async def test_100_combatants_fit_every_message(fast) -> None:
    """100 combatants: /init add, initiative, the round summary, /init list or /init end broke."""
    table = fast
    gm, bob = table.user("gm"), table.user("bob")
    await gm.run("/init start mode:fortune")
    added = await gm.run(f"/init add name:{LONG} count:100")
    everyone = names(100)
    said = await until(added, rf"{LONG} 100\.")
    assert all(f"{name}," in said or f"{name}." in said for name in everyone)
    first = await gm.run("/init next")
    await until(first, r"'s turn — rolls")
    for name in everyone:  # each waits; the last wait passes the round, and all hold
        round_end = await gm.run(f'/wait combatant:"{name}"')
    await until(round_end, rf"Round 1 summary {LAST_PAGE}")
    summaries = [e for m in round_end.messages for e in m.embeds if "summary" in e["title"]]
    assert len(summaries) >= 2  # more than 4,096 characters: split in order, nothing cut
    text = "\n".join(e["description"] for e in summaries)
    assert [n for n in everyone if f"⏸ **{n}** waits" not in text] == []
    held = text.split("Everyone left was waiting: round 1 passes, and ")[1]
    assert re.findall(rf"{LONG} \d+", held) == everyone  # all of them, in order
    for who in (gm, bob):  # the GM's view and a player's, page by page
        listed = await pages(who, await who.run("/init list"))
        assert len(listed) >= 2
        assert all(any(f"**{name}**" in page for page in listed) for name in everyone)
    end = await (await gm.run("/init end")).click("Confirm")
    final = await until(end, rf"Round 2 summary|Broken: .*{LONG} 100\b|{LONG} 100 \(")
    assert all(name in final for name in everyone)
    no_refusals(table, added, first, round_end, end)


async def test_a_short_list_is_one_page_without_buttons(fast) -> None:
    """/init list of a small fight failed, or came with page buttons it does not need."""
    table = fast
    gm = table.user("gm")
    await gm.run("/init start")
    await gm.run("/init add name:Goblin count:3")
    listed = await gm.run("/init list")
    assert listed.ephemeral and listed.buttons == []
    assert listed.embed is not None and "page" not in listed.embed["title"]
    assert all(f"Goblin {n}" in listed.embed["description"] for n in (1, 2, 3))
