"""/init end to end: a scripted fight, permissions, restarts, bad input, the pinned tracker."""

from __future__ import annotations

import asyncio
from pathlib import Path

import discord
import pytest

from bot.sandbox.client import SandboxTable, UsageError
from bot.sandbox.harness import running_bot
from bot.sandbox.server import LoopbackDiscord
from tests.e2e.conftest import tablehand_bot
from tests.e2e.helpers import acting, order_in, script, settle, tracker, unmentioned
from tests.e2e.invariants import assert_error_reply
from tests.scripted import d20

pytestmark = pytest.mark.e2e


async def test_players_cannot_do_the_gms_part(fast) -> None:
    """A player could next someone else's turn, remove, reveal, move or end; or the GM could not."""
    table = fast
    gm, alice, bob = table.user("gm"), table.user("alice"), table.user("bob")
    await gm.run("/init start mode:finesse")
    await gm.run("/init add name:Goblin finesse:9")
    await gm.run("/init add name:Lurker hidden:true")
    await alice.run("/init join character:Mira finesse:5")
    await bob.run("/init join character:Brom finesse:1")
    refused = {
        "/init next": "only its player or the GM",
        "/init remove combatant:Goblin": "Only the GM can remove",
        "/init reveal combatant:Goblin": "Only the GM can reveal",
        "/init move combatant:Goblin position:2": "Only the GM can reorder",
        "/init end": "Only the GM can end",
        "/init prev": "Only the GM can step back",
        "/init round": "Only the GM can end the round",
        "/init add name:Orc": "Only the GM can add",
    }
    await gm.run("/init next")  # the Lurker or the Goblin acts first, not a player
    before = await tracker(table)
    for command, reason in refused.items():
        reply = await alice.run(command)
        assert reply.ephemeral, command
        assert reason in reply.text, (command, reply.text)
        assert "\n" not in reply.content, command
    assert await tracker(table) == before  # nothing changed

    assert not (await gm.run("/init move combatant:Brom position:1")).ephemeral
    assert not (await gm.run("/init reveal combatant:Lurker")).ephemeral
    assert not (await gm.run("/init remove combatant:Goblin")).ephemeral
    text = await tracker(table)
    assert order_in(text)[0] == "Brom" and "Lurker" in text and "Goblin" not in text


async def test_manage_channels_makes_a_member_gm(fast) -> None:
    """A member with Manage Channels was not treated as a GM."""
    table = fast
    await table.user("gm").run("/init start")
    reply = await table.user("admin").run("/init add name:Orc")
    assert not reply.ephemeral and "Added Orc" in reply.text


async def test_the_next_button_follows_the_commands_permissions(fast) -> None:
    """The tracker's Next button let another player end a turn, or refused its own player."""
    table = fast
    gm, alice, bob = table.user("gm"), table.user("alice"), table.user("bob")
    await gm.run("/init start mode:finesse")
    await alice.run("/init join character:Mira finesse:5")
    await bob.run("/init join character:Brom finesse:1")
    await gm.run("/init next")
    await settle(table)
    pinned = table.channel().pinned_messages[0]
    refused = await bob.click(pinned, "Next")
    assert refused.ephemeral and "Mira's turn" in refused.text
    done = await alice.click(pinned, "Next")
    assert not done.ephemeral and "Brom" in done.text
    assert acting(await tracker(table)) == "Brom"


async def test_a_hidden_npc_turn_is_told_only_to_the_gm(fast) -> None:
    """A hidden NPC's turn was shown to players, or the GM was not told."""
    table = fast
    gm = table.user("gm")
    await gm.run("/init start mode:finesse")
    await gm.run("/init add name:Assassin hidden:true finesse:9")
    await table.user("alice").run("/init join character:Mira finesse:1")
    step = await gm.run("/init next")
    assert not step.ephemeral and "Initiative: Mira" in step.text
    assert "Assassin" not in step.text
    await step.wait_followups(1)
    note = step.followups[0]
    assert note.ephemeral and "Assassin" in note.content and "hidden" in note.content
    text = await tracker(table)
    assert "Assassin" not in text and acting(text) is None
    for message in table.channel().visible_to("alice"):
        assert "Assassin" not in table.render(message)
    await gm.run("/init next")
    assert acting(await tracker(table)) == "Mira"


async def test_fortune_initiative_is_core_die_plus_finesse_and_bonus(fast) -> None:
    """Fortune initiative was not d20 + Finesse + initiative bonus for a Prime combatant."""
    table = fast
    gm = table.user("gm")
    await gm.run("/init start")
    await gm.run("/init add name:Orc finesse:3 initiative_bonus:2")
    script(table, d20(9))
    step = await gm.run("/init next")
    assert "Orc 14 (d20 9 · Finesse +3 · Initiative bonus +2)" in step.text


async def test_a_restart_resumes_the_same_turn_tracker_and_buttons(tmp_path: Path) -> None:
    """After a restart the turn, the pinned tracker or an old button was lost."""
    async with LoopbackDiscord() as server:
        table = SandboxTable(server)
        gm = table.user("gm")
        async with running_bot(server, tablehand_bot(server, tmp_path)) as bot:
            table.bot = bot  # type: ignore[attr-defined]
            bot.trackers.interval = 0
            await gm.run("/init start mode:finesse")
            for name, finesse in (("Ash", 3), ("Birch", 2), ("Cedar", 1)):
                await gm.run(f"/init add name:{name} finesse:{finesse}")
            await gm.run("/init next")
            await gm.run("/init next")
            assert acting(await tracker(table)) == "Birch"
        pinned_id = table.channel().pins[0]
        async with running_bot(server, tablehand_bot(server, tmp_path)) as bot:
            table.bot = bot  # type: ignore[attr-defined]
            bot.trackers.interval = 0
            step = await gm.run("/init next")
            assert "Cedar" in step.text
            await settle(table)  # the tracker from before the restart now shows Cedar's turn
            old = next(m for m in table.channel().messages if m.id == pinned_id)
            clicked = await gm.click(old, "Next")
            assert "Round 1 ends." in clicked.text
            await settle(table)
            assert table.channel().pins == [pinned_id]
            assert "Round 2 · Declaration" in table.render(table.channel().pinned_messages[0])


@pytest.mark.parametrize(
    ("command", "error"),
    [
        ("/init remove combatant:Nobody", "No combatant named 'Nobody'"),
        ("/init add name:goblin", "already a combatant named Goblin"),
        ("/init start", "already has an encounter"),
        ("/init add name:Wolf count:100", "room for 99 more"),
        ("/init move combatant:Goblin position:1", "turn order is set when"),
        ("/init reveal combatant:Goblin", "is not hidden"),
        ("/init start ambush_roll:true", "ambush_roll needs an ambush side"),
    ],
)
async def test_bad_input_gets_one_ephemeral_line_and_changes_nothing(
    fast, command: str, error: str
) -> None:
    """Bad input was not refused in one ephemeral line, or it changed the encounter."""
    table = fast
    gm = table.user("gm")
    await gm.run("/init start")
    await gm.run("/init add name:Goblin")
    before = await tracker(table)
    reply = await gm.run(command)
    assert reply.ephemeral
    assert error in reply.text
    assert "\n" not in reply.content
    assert await tracker(table) == before


async def test_commands_without_an_encounter_say_so(fast) -> None:
    """A command in a channel without an encounter did not say how to start one."""
    for command in ("/init next", "/init add name:Orc", "/init list", "/init end"):
        reply = await fast.user("gm").run(command)
        assert reply.ephemeral and "/init start" in reply.text, command


@pytest.mark.parametrize("count", [0, 500])
async def test_counts_outside_the_limits_are_refused_by_discord(fast, count: int) -> None:
    """A count of 0 or 500 reached the bot instead of being refused by Discord's own limits."""
    await fast.user("gm").run("/init start")
    with pytest.raises(UsageError):
        await fast.user("gm").run(f"/init add name:Orc count:{count}")


async def test_a_burst_of_changes_edits_the_tracker_at_most_once_a_second(make_table) -> None:
    """Twenty quick changes produced more than one tracker edit per second, or a stale tracker."""
    table = await make_table()
    gm = table.user("gm")
    await gm.run("/init start")
    await settle(table)  # the tracker is posted and pinned just after the answer
    pinned_id = table.channel().pins[0]
    path = "/channels/{channel_id}/messages/{message_id}"
    edits_before = table.server.count_calls("PATCH", path)
    loop = asyncio.get_running_loop()
    began = loop.time()
    replies = [gm.send_command(f"/init add name:Wolf{n}") for n in range(20)]
    for reply in replies:
        await reply.responded()
    await settle(table)
    elapsed = loop.time() - began
    edits = table.server.count_calls("PATCH", path) - edits_before
    assert 1 <= edits <= 1 + int(elapsed), (edits, elapsed)
    text = table.render(next(m for m in table.channel().messages if m.id == pinned_id))
    assert all(f"Wolf{n}" in text for n in range(20))


async def test_a_deleted_tracker_is_posted_and_pinned_again(fast) -> None:
    """After the tracker was deleted, the next change did not post and pin a new one."""
    table = fast
    gm = table.user("gm")
    await gm.run("/init start")
    await settle(table)
    old_id = table.channel().pins[0]
    table.server.delete_message(old_id)
    await gm.run("/init add name:Orc")
    text = await tracker(table)
    assert "Orc" in text
    assert table.channel().pins != [old_id]


async def test_an_unpinned_tracker_is_replaced_by_a_pinned_one(fast) -> None:
    """After a member unpinned the tracker, the next change left it unpinned."""
    table = fast
    gm = table.user("gm")
    await gm.run("/init start")
    await settle(table)
    old_id = table.channel().pins[0]
    table.server.unpin_message(old_id)
    await table.channel().wait_for(lambda ch: not ch.pins or None)
    await asyncio.sleep(0.05)  # let the CHANNEL_PINS_UPDATE event reach the bot
    await gm.run("/init add name:Orc")
    text = await tracker(table)
    assert "Orc" in text and table.channel().pins[0] != old_id


async def test_a_button_on_a_finished_encounter_is_removed_with_a_reason(fast) -> None:
    """Clicking Next on a tracker left over from an ended encounter did not explain itself."""
    table = fast
    gm = table.user("gm")
    await gm.run("/init start")
    await settle(table)
    old = table.channel().pinned_messages[0]
    # The tracker's last edit fails, so it keeps its buttons after the encounter ends.
    table.server.inject_fault("/channels/*/messages/*", status=403, method="PATCH")
    end = await gm.run("/init end")
    await end.click("Confirm")
    assert old.components
    clicked = await gm.click(old, "Next")
    await clicked.wait_followups(1)
    assert "This encounter is over" in clicked.followups[0].content
    assert old.components == []


async def test_threads_hold_their_own_encounter(fast) -> None:
    """A thread did not get an encounter of its own, separate from its parent channel."""
    table = fast
    gm = table.user("gm")
    await gm.run("/init start", channel="table-1")
    reply = await gm.run("/init start", channel="table-1-side")
    assert not reply.ephemeral
    await gm.run("/init add name:Imp", channel="table-1-side")
    assert "Imp" in await tracker(table, "table-1-side")
    assert "Imp" not in await tracker(table, "table-1")


async def test_a_tracker_left_behind_is_reconciled_after_a_restart(tmp_path: Path) -> None:
    """A tracker that missed its last edit before the bot stopped stayed stale after restart."""
    async with LoopbackDiscord() as server:
        table = SandboxTable(server)
        gm = table.user("gm")
        async with running_bot(server, tablehand_bot(server, tmp_path)) as bot:
            table.bot = bot  # type: ignore[attr-defined]
            await gm.run("/init start")
            await bot.trackers.settled()
            bot.trackers.interval = 3600  # the next edit waits, and the bot stops first
            await gm.run("/init add name:Straggler")
        pinned = table.channel().pinned_messages[0]
        assert "Straggler" not in table.render(pinned)
        async with running_bot(server, tablehand_bot(server, tmp_path)) as bot:
            table.bot = bot  # type: ignore[attr-defined]
            await table.channel().wait_for(
                lambda ch: "Straggler" in table.render(ch.pinned_messages[0]) or None,
                what="the reconciled tracker",
            )
        assert table.channel().pins == [pinned.id]


async def test_cancelling_the_end_leaves_the_encounter_alone(fast) -> None:
    """Cancel on /init end's confirmation ended the encounter or said nothing."""
    table = fast
    gm = table.user("gm")
    await gm.run("/init start")
    end = await gm.run("/init end")
    assert end.ephemeral  # only its author sees (and can press) the buttons
    cancelled = await end.click("Cancel")
    assert "The encounter goes on." in cancelled.text
    assert not (await gm.run("/init add name:Orc")).ephemeral


async def test_autocomplete_hides_hidden_npcs_from_players(fast) -> None:
    """A player's autocomplete offered a hidden NPC, or one of its Specials."""
    table = fast
    gm, alice = table.user("gm"), table.user("alice")
    await gm.run("/init start")
    await gm.run("/init add name:Lurker hidden:true")
    await gm.run("/init add name:Lout")
    await gm.run("/effect apply combatant:Lurker special:Ruin x:2")
    names = [c["name"] for c in await alice.autocomplete("init remove", "combatant", "L")]
    assert names == ["Lout"]
    assert [c["name"] for c in await gm.autocomplete("init remove", "combatant", "L")] == [
        "Lurker",
        "Lout",
    ]
    offered = await alice.autocomplete(
        "effect cleanse", "special", "", options={"combatant": "Lurker"}
    )
    assert all("Ruin 2" not in c["name"] for c in offered)


async def test_start_explains_a_missing_permission_to_post(fast) -> None:
    """/init start in a channel where the bot may not post did not say what permission to give."""
    table = fast
    # The channel denies the bot Send Messages; Discord says so in every interaction.
    denied = discord.Permissions(send_messages=True).value
    bot_id = str(table.server.bot_user.id)
    table.server.channel("table-1").overwrites.append(
        {"id": bot_id, "type": 1, "allow": "0", "deny": str(denied)}
    )
    reply = await table.user("gm").run("/init start")
    assert reply.ephemeral and "Send Messages" in reply.text
    assert (await table.user("gm").run("/init next")).ephemeral  # no encounter was opened


async def test_start_survives_a_failed_tracker_post(fast) -> None:
    """/init start failed because Discord failed the tracker's post, or no tracker came later."""
    table = fast
    gm = table.user("gm")
    table.server.inject_fault("/channels/*/messages", status=400, method="POST")
    start = await gm.run("/init start")
    assert not start.ephemeral and "Encounter started" in start.text
    await gm.run("/init add name:Orc")
    assert "Orc" in await tracker(table)


async def test_the_tracker_is_edited_only_when_what_it_shows_changes(fast) -> None:
    """An NPC's hidden Grit change edited the tracker, or a level change did not."""
    table = fast
    gm = table.user("gm")
    await gm.run("/init start")
    await gm.run("/init add name:Goblin grit:25")
    await settle(table)
    tracker_id = table.channel().pins[0]
    path = f"/channels/{table.channel().id}/messages/{tracker_id}"

    def edits() -> int:
        return sum(1 for c in table.server.calls if c.method == "PATCH" and c.path.endswith(path))

    before = edits()
    await gm.run("/grit damage combatant:Goblin amount:2")  # 25 → 23: still Prime, d20
    await settle(table)
    assert edits() == before
    await gm.run("/grit damage combatant:Goblin amount:5")  # 23 → 18: Reduced, d12
    await settle(table)
    assert edits() == before + 1
    assert "Goblin · Reduced d12" in await tracker(table)


async def test_ending_works_after_the_tracker_was_posted_again(fast) -> None:
    """Confirm of /init end said "already over" because the tracker had been re-posted since."""
    table = fast
    gm = table.user("gm")
    await gm.run("/init start")
    await settle(table)
    end = await gm.run("/init end")
    table.server.delete_message(table.channel().pins[0])
    await gm.run("/init add name:Orc")  # the tracker is posted and pinned anew
    await settle(table)
    confirmed = await end.click("Confirm")
    assert confirmed.content == "Encounter ended."
    assert "/init start" in (await gm.run("/init next")).content  # no encounter left


async def test_a_confirm_for_an_encounter_already_ended_ends_no_other(fast) -> None:
    """An old /init end Confirm, pressed after a new encounter started, ended the new one."""
    table = fast
    gm = table.user("gm")
    await gm.run("/init start")
    first, second = await gm.run("/init end"), await gm.run("/init end")
    assert (await second.click("Confirm")).content == "Encounter ended."
    await gm.run("/init start")
    stale = await first.click("Confirm")
    assert stale.ephemeral and "already over" in stale.content
    assert not (await gm.run("/init add name:Orc")).ephemeral  # the new one goes on


async def test_start_in_a_thread_needs_send_messages_in_threads(fast) -> None:
    """/init start in a thread where the bot may not post opened an encounter it cannot track."""
    table = fast
    denied = discord.Permissions(send_messages_in_threads=True).value
    bot_id = str(table.server.bot_user.id)
    table.server.channel("table-1").overwrites.append(
        {"id": bot_id, "type": 1, "allow": "0", "deny": str(denied)}
    )
    refused = await table.user("gm").run("/init start", channel="table-1-side")
    assert refused.ephemeral and "Send Messages" in refused.content
    assert not (await table.user("gm").run("/init start", channel="table-1")).ephemeral


async def test_a_player_ending_a_turn_before_a_hidden_npc_is_still_answered(fast) -> None:
    """A player's /init next before a hidden NPC's turn got no answer, or one naming the NPC."""
    table = fast
    gm, alice = table.user("gm"), table.user("alice")
    await gm.run("/init start mode:finesse")
    await alice.run("/init join character:Mira finesse:9")
    await gm.run("/init add name:Assassin hidden:true finesse:5")
    await gm.run("/init next")  # Mira's turn; the Assassin's comes next
    ended = await alice.run("/init next")
    # Answered in public, pinging the GM (who plays it) without naming it.
    assert not ended.ephemeral and unmentioned(ended.content).startswith("⏳ Over to the GM: ")
    for message in table.channel().visible_to("alice"):
        assert "Assassin" not in table.render(message)


async def test_grit_above_the_maximum_is_refused_in_a_fight(fast) -> None:
    """A template's or a sheet's maximum let typed Grit above it into a fight [GAME.md §1, bot].

    Grit is at most its maximum: `/init add` of a template with max_grit 12 and `grit:20`,
    and `/init join` of a sheet with max_grit 30 and `grit:40`, are refused and add no one.
    """
    table = fast
    gm, alice = table.user("gm"), table.user("alice")
    await gm.run("/init start")  # makes the GM one here, who may then make templates
    await gm.run("/npc create name:Goblin grit:12 max_grit:12")
    await alice.run("/character create name:Mira grit:25 max_grit:30")
    before = await tracker(table)

    added = await gm.run("/init add name:Goblin grit:20")
    assert_error_reply(added)
    assert unmentioned(added.content) == "Grit 20 is above max_grit 12."
    joined = await alice.run("/init join character:Mira grit:40")
    assert_error_reply(joined)
    assert unmentioned(joined.content) == "Grit 40 is above max_grit 30."
    assert await tracker(table) == before  # no one added
