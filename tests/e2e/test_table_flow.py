"""The tracker and the flow as a table reads them: marks at a glance, whose turn, what next."""

from __future__ import annotations

import pytest

from bot.sandbox.client import SandboxTable
from bot.sandbox.render import plain
from tests.e2e.helpers import acting, rows, script, settle, tracker, unmentioned
from tests.scripted import d12, d20

pytestmark = pytest.mark.e2e


async def finesse_fight(table: SandboxTable, *, hidden: bool = False) -> None:
    """Mira (alice, Finesse 5), a Goblin (3) and an Orc (1); with `hidden`, a Shade (2) too."""
    gm, alice = table.user("gm"), table.user("alice")
    await gm.run("/init start mode:finesse")
    await alice.run("/init join character:Mira finesse:5")
    await gm.run("/init add name:Goblin finesse:3 grit:12")
    await gm.run("/init add name:Orc finesse:1")
    if hidden:
        await gm.run("/init add name:Shade finesse:2 hidden:true")


async def test_the_tracker_shows_at_a_glance_who_acted_and_who_is_on_which_side(fast) -> None:
    """The tracker marked everyone ▫ alike, mixed up the sides, or had no legend or clear footer."""
    table = fast
    await finesse_fight(table)
    gm = table.user("gm")
    await gm.run("/init next")  # Mira
    await gm.run("/init next")  # the Goblin
    await gm.run("/grit set combatant:Orc value:0")
    text = await tracker(table)
    assert rows(text) == ["✓ 5 Mira · ●●", "▶ 3 Goblin · ●●", "✖ 1 Orc · ●●"]
    lines = [line.strip(" |") for line in text.splitlines()]
    assert "✓   5 🟦 Mira · Grit 30/30 Prime d20 · ●●" in lines
    assert "▶   3 🟥 Goblin · Reduced d12 · ●●" in lines
    assert "✖   1 🟥 Orc · Broken · ●●" in lines  # Broken once, by its mark and its level
    assert "▶ acting · ✓ acted · ✖ Broken · 🟦 party · 🟥 foes" in lines  # only marks shown
    assert (
        "-- Finesse: the order by Finesse · compact flow · NPCs' Grit shown as level and die"
        in (text)
    )


async def test_an_ended_tracker_shows_that_it_ended(fast) -> None:
    """The retired tracker still pointed ▶ at an actor or said whose turn it was."""
    table = fast
    await finesse_fight(table)
    gm = table.user("gm")
    await gm.run("/init next")
    pinned = table.channel().pinned_messages[0]
    await (await (await gm.run("/init end")).click("Confirm")).wait_followups(1)
    await table.channel().wait_for(lambda ch: not ch.pins or None, what="the tracker unpinned")
    text = table.render(pinned)
    assert "Encounter ended after round 1" in text
    assert "▶" not in text and "Now" not in text and "to act" not in text
    assert "◆   5 🟦 Mira · Grit 30/30 Prime d20\n" in text  # no actions: the round is over
    # The legend names the mark, and no "· ·" where a dot-mark met the legend's separator.
    assert "◆ standing" in text and "· ·" not in text
    assert "This encounter is over; /init start opens a new one." in text


async def test_the_end_sums_up_its_last_round_only_when_something_happened_in_it(fast) -> None:
    """/init end right after a round opened posted "Round 2 summary: Nothing happened"."""
    table = fast
    await finesse_fight(table)
    gm = table.user("gm")
    for _ in range(4):  # Mira, the Goblin, the Orc, then round 2 opens
        await gm.run("/init next")
    [final] = await (await (await gm.run("/init end")).click("Confirm")).wait_followups(1)
    assert "The encounter is over" in final.content
    assert final.embeds == []  # the log file has round 2's opening; no summary to read
    # Something happened in the last round: its summary comes with the end.
    await finesse_fight(table)
    await gm.run("/init next")
    await gm.run("/grit damage combatant:Goblin amount:3")
    [final] = await (await (await gm.run("/init end")).click("Confirm")).wait_followups(1)
    assert [e["title"] for e in final.embeds] == ["Round 1 summary"]
    assert "Goblin takes 3 damage" in final.embeds[0]["description"]


async def test_a_player_handing_the_turn_to_a_hidden_npc_pings_the_gm_without_its_name(
    fast,
) -> None:
    """A player's /init next gave the turn to a hidden NPC and nobody was told to play it."""
    table = fast
    gm, alice = table.user("gm"), table.user("alice")
    await gm.run("/init start mode:finesse")
    await alice.run("/init join character:Mira finesse:5")
    await gm.run("/init add name:Shade finesse:3 hidden:true")
    await gm.run("/init add name:Orc finesse:1")
    await gm.run("/init next")  # Mira's turn
    handed = await alice.run("/init next")
    assert not handed.ephemeral
    assert unmentioned(handed.content) == (
        f"⏳ Over to the GM: a combatant only the GM sees takes its turn (/init next ends it). "
        f"<@{gm.id}>"
    )
    assert [int(u) for u in handed.message.allowed_mentions["users"]] == [gm.id]
    text = await tracker(table)
    assert "Shade" not in text and "Now: The GM's turn" in text


async def test_next_over_an_open_defense_asks_first(fast) -> None:
    """/init next ended the turn while an attack still waited for its defense, without asking."""
    table = fast
    await finesse_fight(table)
    gm, alice = table.user("gm"), table.user("alice")
    await gm.run("/init next")  # Mira
    script(table, d20(15))
    attack = await alice.run("/attack target:Goblin")
    assert attack.buttons  # the Goblin's defense is open
    asked = await alice.run("/init next")
    assert asked.ephemeral and [b["label"] for b in asked.buttons] == ["Confirm", "Cancel"]
    assert asked.content == (
        "Goblin still has an attack to answer. End the turn anyway? An open attack stays open: "
        "its defender may still answer, or its default defense is used when its time runs out."
    )
    assert acting(await tracker(table)) == "Mira"
    kept = await asked.click("Cancel")
    assert kept.content == "The turn goes on." and acting(await tracker(table)) == "Mira"
    asked = await alice.run("/init next")
    confirmed = await asked.click("Confirm")
    [announced] = await confirmed.wait_followups(1)
    assert not announced.ephemeral and "**Goblin**'s turn" in announced.content
    assert acting(await tracker(table)) == "Goblin"
    await confirmed.wait_edit(1)
    assert asked.message.components == []
    script(table, d12(3))
    defended = await attack.click("Block", as_user=gm)  # the open attack still takes its answer
    assert "Block" in defended.text


async def test_a_confirm_for_a_turn_already_over_ends_nothing(fast) -> None:
    """A Confirm pressed after the turn had moved on ended the next turn too."""
    table = fast
    await finesse_fight(table)
    gm, alice = table.user("gm"), table.user("alice")
    await gm.run("/init next")
    script(table, d20(15))
    await alice.run("/attack target:Goblin")
    asked = await alice.run("/init next")
    first = await gm.run("/init next")
    await (await first.click("Confirm")).wait_followups(1)
    assert acting(await tracker(table)) == "Goblin"
    late = await asked.click("Confirm")
    [refused] = await late.wait_followups(1)
    assert refused.ephemeral and refused.content.startswith("That turn is already over")
    assert acting(await tracker(table)) == "Goblin"


async def test_the_full_flow_says_what_each_phase_is_for_and_what_to_do(fast) -> None:
    """A full-flow phase message named the phase only, or the round's opening the wrong step."""
    table = fast
    gm = table.user("gm")
    started = await gm.run("/init start mode:finesse flow:full")
    assert started.text.endswith(
        "Round 1 opens. Start — the GM describes the scene; /init next opens Question."
    )
    await gm.run("/init add name:Goblin finesse:3")
    said = [plain((await gm.run("/init next")).content) for _ in range(2)]
    assert said == [
        "Question — players ask the GM about the scene before anyone commits; /init next "
        "opens Declaration.",
        "Declaration — declare what you will do (/declare) or Haste (/haste); the GM's "
        "/init next sets the order and starts the turns.",
    ]
    await gm.run("/init next")  # the Goblin's turn
    said = [plain((await gm.run("/init next")).text) for _ in range(5)]
    assert (
        "Reaction — those who waited may respond to what happened (/act); /init next " in (said[0])
    )
    assert "Resolution — what was declared this round is settled" in said[1]
    assert "Counter — anyone still waiting may act now (/act)" in said[2]
    assert (
        "Cleanup — long actions and holds are settled; /init next posts the round's summary."
        in (said[3])
    )
    assert "Summary — the round's summary is below; /init next opens round 2." in said[4]
    opened = plain((await gm.run("/init next")).content)
    assert opened == "Round 2 opens. Start — the GM describes the scene; /init next opens Question."


async def test_a_newcomer_mid_round_is_told_when_it_first_acts(fast) -> None:
    """/init add during the turns did not say whether the newcomer acts this round or next."""
    table = fast
    await finesse_fight(table)
    gm = table.user("gm")
    await gm.run("/init next")  # Mira (5)
    await gm.run("/init next")  # the Goblin (3)
    later = await gm.run("/init add name:Rat finesse:2")
    assert later.content == "Added Rat. Rat acts later this round (initiative 2)."
    passed = await gm.run("/init add name:Hawk finesse:4")
    assert passed.content == (
        "Added Hawk. Hawk first acts in round 2: its place (initiative 4) has passed."
    )
    assert rows(await tracker(table))[:3] == ["✓ 5 Mira · ●●", "▫ 4 Hawk · ●●", "▶ 3 Goblin · ●●"]


async def test_prev_steps_back_into_the_last_round_and_nothing_ticks_twice(fast) -> None:
    """/init prev at a round's start refused, or going forward again ticked Ruin a second time."""
    table = fast
    await finesse_fight(table)
    gm = table.user("gm")
    await gm.run("/effect apply combatant:Mira special:Ruin x:5")
    for _ in range(4):  # round 1's three turns (Ruin ticks 5 at Mira's start), round 2 opens
        await gm.run("/init next")
    await gm.run("/init next")  # round 2: Mira's turn, Ruin ticks 4
    back = await gm.run("/init prev")
    assert back.content == (
        "Back into round 1: it is **Orc**'s turn again. Round 2 opens again when this round ends."
    )
    assert rows(await tracker(table)) == [
        "✓ 5 Mira · ●● · Ruin 3",
        "✓ 3 Goblin · ●●",
        "▶ 1 Orc · ●●",
    ]
    await gm.run("/init next")  # round 2 opens again
    again = await gm.run("/init next")  # Mira's turn again: nothing ticks
    assert "Ruin" not in again.text
    mira = await table.user("alice").run("/grit show")
    assert "21/30" in mira.text  # 30 − 5 − 4: each tick once
    await settle(table)


async def test_a_wait_is_said_once(fast) -> None:
    """A wait declared before its turn was posted again ("Orc waits.") when the order passed it."""
    table = fast
    await finesse_fight(table)
    gm = table.user("gm")
    await gm.run("/init next")  # Mira
    await gm.run("/wait combatant:Orc")  # before its turn: its place will pass it by
    for _ in range(2):  # the Goblin's turn, then the Orc's place: everyone left waits
        await gm.run("/init next")
    said = [plain(m.content) for m in table.channel().messages if m.content]
    assert sum(line.count("Orc waits") for line in said) == 1
    assert any(
        "Everyone left was waiting: round 1 passes, and Orc holds into the next round." in line
        for line in said
    )


async def test_a_hold_loses_its_actions_in_plain_words(fast) -> None:
    """/hold said "its 1 action left this round are lost" or left the count out."""
    table = fast
    await finesse_fight(table)
    gm, alice = table.user("gm"), table.user("alice")
    await gm.run("/init next")  # Mira's turn
    script(table, d20(1))  # a natural 1: a Risk failure, no defense, one action spent
    await alice.run("/attack target:Goblin")
    await alice.run("/wait")
    held = await alice.run("/hold")
    assert held.content == (
        "⏩ **Mira** holds into round 2: it goes first then (finesse mode rolls no initiative); "
        "the 1 action it had left this round is lost."
    )


async def test_a_round_summary_is_grouped_and_leaves_the_details_to_the_log(fast) -> None:
    """The round summary listed joins, initiative and every turn instead of what happened."""
    table = fast
    await finesse_fight(table)
    gm, alice = table.user("gm"), table.user("alice")
    await gm.run("/init next")  # Mira
    script(table, d20(15), d12(3))  # Mira's attack, the Goblin's block
    attack = await alice.run("/attack target:Goblin damage:4")
    await attack.click("Block", as_user=gm)
    for _ in range(3):
        ended = await gm.run("/init next")
    [summary] = [e for e in ended.embeds if e["title"] == "Round 1 summary"]
    assert summary["description"].splitlines() == [
        "**⚔️ Attacks**",
        "• Mira attacks Goblin (melee): 15 vs 3, hit for 4.",
        "**🩸 Grit**",
        "• Goblin takes 4 damage. Goblin drops to Frail Grit — now rolls d10.",
        "",
        "*Every line of the fight: `/init log` (GM), and the file `/init end` posts.*",
    ]
