"""A whole fight scripted end to end: start, goblins, two players, three rounds, end."""

from __future__ import annotations

import pytest

from tests.e2e.helpers import acting, order_in, tracker

pytestmark = pytest.mark.e2e


async def test_a_scripted_fight_keeps_one_pinned_tracker_through_three_rounds(fast) -> None:
    """A fight from start to end did not track turns, skips and summaries in one pinned tracker."""
    table = fast
    gm, alice, bob = table.user("gm"), table.user("alice"), table.user("bob")
    channel = table.channel("table-1")

    start = await gm.run("/init start mode:finesse")
    assert not start.ephemeral and "Encounter started" in start.text
    pinned_id = (await channel.wait_for_pin()).id  # posted and pinned just after the answer
    assert "Round 1 · Declaration" in await tracker(table)

    await gm.run("/init add name:Goblin count:3 finesse:2")
    await alice.run("/init join character:Mira finesse:5")
    await bob.run("/init join character:Brom finesse:3 grit:18")
    text = await tracker(table)
    assert "Mira · Grit 30/30 Prime d20" in text
    assert "Brom · Grit 18/18 Reduced d12" in text  # grit alone is the maximum too
    assert "Goblin 1 · Prime d20" in text  # players see an NPC's level and die, not its Grit

    first = await gm.run("/init next")
    assert "Initiative:" in first.text
    assert "Mira's turn — rolls d20, 2 actions" in first.text
    assert [int(u) for u in first.message.allowed_mentions["users"]] == [alice.id]  # the actor only
    text = await tracker(table)
    order = order_in(text)
    assert order[:2] == ["Mira", "Brom"]
    assert sorted(order[2:]) == ["Goblin 1", "Goblin 2", "Goblin 3"]  # d20 roll-off among equals
    goblins = order[2:]
    assert acting(text) == "Mira"

    await alice.run("/init next")  # a player ends their own turn
    assert acting(await tracker(table)) == "Brom"
    await gm.run("/init prev")
    assert acting(await tracker(table)) == "Mira"
    await gm.run("/init next")
    await bob.run("/init next")
    assert acting(await tracker(table)) == goblins[0]

    broken = await gm.run(f'/grit set combatant:"{goblins[2]}" value:0')
    assert "is Broken and cannot act" in broken.text
    broken_line = next(line for line in (await tracker(table)).splitlines() if goblins[2] in line)
    assert broken_line.strip(" |").startswith("✖") and broken_line.count("Broken") == 1
    await gm.run("/init next")
    assert acting(await tracker(table)) == goblins[1]
    ending = await gm.run("/init next")
    assert f"{goblins[2]} is Broken — turn skipped." in ending.text
    assert "Round 1 ends." in ending.text
    summary = ending.embeds[0]
    assert summary["title"] == "Round 1 summary"
    grit, turns = summary["description"].split("\n\n")[0].split("**⏭️ Turns**\n")
    assert grit.startswith("**🩸 Grit**\n• ") and goblins[2] in grit
    assert turns == f"• {goblins[2]} is Broken — turn skipped."
    for detail in ("Initiative:", "**Mira**'s turn", "Round 1 ends."):  # in the log file only
        assert detail not in summary["description"], detail
    text = await tracker(table)
    assert "Round 2 · Declaration" in text and acting(text) is None

    for round_number in (2, 3):
        step = await gm.run("/init next")
        assert "Initiative:" in step.text
        text = await tracker(table)
        assert order_in(text)[-1] == goblins[2]  # the Broken goblin is listed last
        for _ in range(4):  # four who can act; the Broken one is skipped
            step = await gm.run("/init next")
        assert f"Round {round_number} ends." in step.text
        assert step.embeds[0]["title"] == f"Round {round_number} summary"

    end = await gm.run("/init end")
    assert end.ephemeral
    confirmed = await end.click("Confirm")
    assert "Encounter ended" in confirmed.text
    await confirmed.wait_followups(1)
    assert "The encounter is over" in confirmed.followups[0].content
    assert channel.pins == []
    retired = next(m for m in channel.messages if m.id == pinned_id)
    assert retired.components == [] and "Encounter ended after round 4" in table.render(retired)
    # The bot posted one message of its own (the tracker); everything else answered a command.
    assert sum(1 for m in channel.messages if m.author.bot and m.interaction_id is None) == 1
