"""The fight's log as a Markdown file: /init log for the GM, the whole log at /init end."""

from __future__ import annotations

import pytest

from bot.sandbox.client import InteractionResult, SandboxTable

pytestmark = pytest.mark.e2e


def files_of(table: SandboxTable, reply: InteractionResult) -> dict[str, str]:
    """Return the files a reply's messages carry, by name, as text."""
    found = {}
    for message in reply.messages:
        for attachment in message.attachments:
            body = table.server.attachment_bodies[attachment["id"]]
            found[attachment["filename"]] = body.decode()
    return found


async def two_rounds(table: SandboxTable) -> None:
    """Play round 1 of a finesse fight with a hidden Shade, and open round 2."""
    gm, alice = table.user("gm"), table.user("alice")
    await gm.run("/init start mode:finesse")
    await gm.run("/init add name:Goblin finesse:2")
    await gm.run("/init add name:Shade finesse:1 hidden:true")
    await alice.run("/init join character:Mira finesse:5")
    await gm.run("/init next")  # Mira
    await gm.run("/grit damage combatant:Goblin amount:4")
    await gm.run("/grit damage combatant:Shade amount:9")  # the GM's alone
    for _ in range(3):  # Goblin, Shade, then round 2 opens
        await gm.run("/init next")


async def test_the_gm_gets_the_log_so_far_as_a_markdown_file(fast) -> None:
    """/init log did not attach the fight's log so far, round by round, to the GM alone."""
    table = fast
    await two_rounds(table)
    reply = await table.user("gm").run("/init log")
    assert reply.ephemeral and reply.content == "The fight's log so far, up to round 2."
    [(name, text)] = files_of(table, reply).items()
    assert name == "fight-log.md"
    assert text.startswith("# The fight's log so far: rounds 1–2\n")
    round_1 = text.split("## Round 1\n\n")[1].split("\n\n## Round 2")[0].splitlines()
    assert round_1[0] == "- Game Master opens the encounter (finesse, compact)."
    assert "- Initiative: Mira (5, kept), Goblin 2 (1, kept)" not in round_1  # finesse: no roll
    assert "- **Mira**'s turn — rolls d20, 2 actions" in round_1
    assert "- Goblin takes 4 damage (Prime d20)." in round_1
    assert "Shade" not in text  # a hidden NPC's lines are never written down


async def test_only_the_gm_reads_the_log(fast) -> None:
    """A player got the fight's log, or a refusal that was not one private line."""
    table = fast
    await two_rounds(table)
    reply = await table.user("alice").run("/init log")
    assert reply.ephemeral and not reply.message.attachments
    assert reply.content == "Only the GM can read the fight's log."


async def test_the_end_posts_the_whole_fights_log_before_it_is_gone(fast) -> None:
    """/init end deleted the fight's log with the encounter instead of posting it first."""
    table = fast
    await two_rounds(table)
    gm = table.user("gm")
    await gm.run("/init next")  # round 2's turns
    asked = await gm.run("/init end")
    confirmed = await asked.click("Confirm")
    [final] = await confirmed.wait_followups(1)
    assert final.content.startswith(
        "**The encounter is over** after round 2. The whole fight's log is attached."
    )
    [attachment] = final.attachments
    text = table.server.attachment_bodies[attachment["id"]].decode()
    assert text.startswith("# The fight's log, rounds 1–2\n")
    assert "## Round 1" in text and "## Round 2" in text
    assert "Shade" not in text
    store = table.bot.store  # type: ignore[attr-defined]
    assert await store._round_log(table.channel().id, 1) == []  # gone with the encounter


async def test_a_log_larger_than_discord_takes_is_sent_in_parts(fast) -> None:
    """A log over the upload limit was refused by Discord instead of sent in whole-line parts."""
    table = fast
    table.server.attachment_size_limit = 400
    await two_rounds(table)
    reply = await table.user("gm").run("/init log")
    files = files_of(table, reply)
    assert len(files) >= 2
    assert list(files) == [
        f"fight-log-part-{n}-of-{len(files)}.md" for n in range(1, len(files) + 1)
    ]
    assert all(len(text.encode()) <= 400 for text in files.values())
    whole = "".join(files.values())
    assert whole.startswith("# The fight's log so far") and "## Round 2" in whole


async def test_an_ambush_logs_round_zero(fast) -> None:
    """Round zero's lines were left out of the log of an ambush."""
    table = fast
    gm = table.user("gm")
    await gm.run("/init start mode:finesse ambush:foes")
    await gm.run("/init add name:Goblin finesse:2")
    await table.user("alice").run("/init join character:Mira finesse:5")
    await gm.run("/init next")  # the Goblin's turn in round zero
    await gm.run("/init next")  # round 1 opens
    text = "".join(files_of(table, await gm.run("/init log")).values())
    assert text.startswith("# The fight's log so far: rounds 0–1\n")
    zero = text.split("## Round zero (the ambush)\n\n")[1].split("\n\n")[0]
    assert "- **Goblin**'s turn — rolls d20, 2 actions" in zero.splitlines()
