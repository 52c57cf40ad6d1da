"""/effect and /move end to end: Specials tick at turn starts, stack, cleanse, survive restarts."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.sandbox.client import SandboxTable
from bot.sandbox.harness import running_bot
from bot.sandbox.server import LoopbackDiscord
from tests.e2e.conftest import tablehand_bot
from tests.e2e.helpers import tracker

pytestmark = pytest.mark.e2e


def line_of(text: str, name: str) -> str:
    """Return the tracker line of one combatant."""
    for line in text.splitlines():
        if f" {name} · " in line:
            return line
    raise AssertionError(f"{name} is not on the tracker:\n{text}")


async def goblin_alone(table: SandboxTable, **stats: object) -> None:
    """Start a finesse encounter with one Goblin (its turn is every round's only turn)."""
    gm = table.user("gm")
    await gm.run("/init start mode:finesse")
    extra = " ".join(f"{key}:{value}" for key, value in stats.items())
    await gm.run(f"/init add name:Goblin {extra}".strip())


async def next_round(table: SandboxTable) -> str:
    """End the Goblin's turn (closing the round), then start the next; return the start's text."""
    gm = table.user("gm")
    await gm.run("/init next")
    return (await gm.run("/init next")).text


async def test_ruin_deals_three_two_one_and_ends(fast) -> None:
    """Ruin(3) on a goblin did not deal 3, 2, 1 on its next three turn starts and then end."""
    table = fast
    gm = table.user("gm")
    await goblin_alone(table)
    applied = await gm.run("/effect apply combatant:Goblin special:Ruin x:3 source:Mira")
    assert not applied.ephemeral and "Goblin now has Ruin 3 (from Mira)." in applied.text
    assert "Ruin 3" in line_of(await tracker(table), "Goblin")

    first = await gm.run("/init next")
    assert "Goblin's Specials — Ruin 3: Goblin takes 3 damage (Prime d20). Ruin 3 → 2." in (
        first.text
    )
    assert "Ruin 2" in line_of(await tracker(table), "Goblin")
    second = await next_round(table)
    assert "Ruin 2: Goblin takes 2 damage (Prime d20). Ruin 2 → 1." in second
    third = await next_round(table)
    assert "Ruin 1: Goblin takes 1 damage (Prime d20). Ruin 1 → 0 (ends)." in third
    assert "Ruin" not in line_of(await tracker(table), "Goblin")
    fourth = await next_round(table)
    assert "Specials" not in fourth
    listed = await gm.run("/init list")
    assert "Grit 24/30" in listed.text


async def test_reapplying_ruin_mid_way_adds(fast) -> None:
    """Ruin(2) applied onto Ruin 2 did not stack to 4 and deal 4 at the next turn start."""
    table = fast
    gm = table.user("gm")
    await goblin_alone(table)
    await gm.run("/effect apply combatant:Goblin special:Ruin x:3")
    await gm.run("/init next")  # 3 damage, Ruin 2 left
    stacked = await gm.run("/effect apply combatant:Goblin special:ruin x:2")
    assert "Ruin on Goblin stacks: 2 + 2 → 4." in stacked.text
    assert "Ruin 4" in line_of(await tracker(table), "Goblin")
    second = await next_round(table)
    assert "Ruin 4: Goblin takes 4 damage (Prime d20). Ruin 4 → 3." in second


async def test_regeneration_heals(fast) -> None:
    """Regeneration(3) did not heal 3 at the turn start."""
    table = fast
    gm = table.user("gm")
    await goblin_alone(table, grit=12)
    await gm.run("/effect apply combatant:Goblin special:Regeneration x:3")
    step = await gm.run("/init next")
    assert "Regeneration 3: Goblin heals 3 (Reduced d12). Regeneration 3 → 2." in step.text


async def test_root_on_a_mastery_rank_two_combatant_ends_after_two_turns(fast) -> None:
    """Root(4) on an MR-2 combatant did not go 4 → 2 → 0 over two turn starts, or let it move."""
    table = fast
    gm = table.user("gm")
    await goblin_alone(table, mastery_rank=2)
    await gm.run("/effect apply combatant:Goblin special:Root x:4")
    first = await gm.run("/init next")
    assert "Root 4 → 2." in first.text
    stuck = await gm.run("/move distance:2 combatant:Goblin")
    assert stuck.ephemeral and "Root 2 sets its Speed to 0 m" in stuck.text
    second = await next_round(table)
    assert "Root 2 → 0 (ends)." in second
    assert "Root" not in line_of(await tracker(table), "Goblin")
    moved = await gm.run("/move distance:2 combatant:Goblin")
    assert not moved.ephemeral and "Goblin moves 2 m" in moved.text


async def test_stunned_costs_exactly_one_attack_action(fast) -> None:
    """Stunned did not cost exactly one action at the next turn start, once."""
    table = fast
    gm = table.user("gm")
    await goblin_alone(table)
    await gm.run("/effect apply combatant:Goblin special:Stunned")
    again = await gm.run("/effect apply combatant:Goblin special:Stunned")
    assert "already Stunned: it does not stack" in again.text
    step = await gm.run("/init next")
    assert "Stunned: Goblin loses an action (1 left)" in step.text
    assert "Goblin's turn — rolls d20, 1 action" in step.text
    line = line_of(await tracker(table), "Goblin")
    assert "●○" in line and "Stunned" not in line
    step = await next_round(table)
    assert "Stunned" not in step and "2 actions" in step
    assert "●●" in line_of(await tracker(table), "Goblin")


async def test_cleanse_two_lowers_one_special_by_two(fast) -> None:
    """Cleanse(2) did not lower Ruin 5 to 3 and leave the other Specials alone."""
    table = fast
    gm = table.user("gm")
    await goblin_alone(table)
    await gm.run("/effect apply combatant:Goblin special:Ruin x:5")
    await gm.run("/effect apply combatant:Goblin special:Slow x:2")
    cleansed = await gm.run("/effect cleanse combatant:Goblin special:Ruin x:2")
    assert not cleansed.ephemeral and "Cleanse 2 on Goblin: Ruin 5 → 3." in cleansed.text
    line = line_of(await tracker(table), "Goblin")
    assert "Ruin 3" in line and "Slow 2" in line


async def test_a_restart_between_two_turns_neither_loses_nor_repeats_a_tick(
    tmp_path: Path,
) -> None:
    """After a restart between two turns a tick was lost or dealt again."""
    async with LoopbackDiscord() as server:
        table = SandboxTable(server)
        gm = table.user("gm")
        async with running_bot(server, tablehand_bot(server, tmp_path)) as bot:
            table.bot = bot  # type: ignore[attr-defined]
            bot.trackers.interval = 0
            await gm.run("/init start mode:finesse")
            await gm.run("/init add name:Goblin finesse:3")
            await gm.run("/init add name:Orc finesse:1")
            await gm.run("/effect apply combatant:Goblin special:Ruin x:3")
            await gm.run("/effect apply combatant:Orc special:Ruin x:2")
            first = await gm.run("/init next")  # the Goblin's turn: its tick only
            assert "Goblin takes 3 damage (Prime d20)" in first.text
            assert "Orc takes" not in first.text
        async with running_bot(server, tablehand_bot(server, tmp_path)) as bot:
            table.bot = bot  # type: ignore[attr-defined]
            bot.trackers.interval = 0
            second = await gm.run("/init next")  # the Orc's turn: its first tick, once
            assert "Orc takes 2 damage (Prime d20). Ruin 2 → 1." in second.text
            assert "Goblin takes" not in second.text
            await gm.run("/init prev")
            again = await gm.run("/init next")
            assert "takes" not in again.text
            closing = await gm.run("/init next")
            assert "Round 1 ends." in closing.text
            summary = closing.embeds[0]["description"]
            assert "Goblin takes 3 damage" in summary and "Orc takes 2 damage" in summary
            round_two = await gm.run("/init next")
            assert "Goblin takes 2 damage (Prime d20)" in round_two.text
            text = await tracker(table)
            assert "Ruin 1" in line_of(text, "Goblin") and "Ruin 1" in line_of(text, "Orc")


@pytest.mark.parametrize(
    ("command", "error"),
    [
        ("/effect apply combatant:Goblin special:Frostbite x:2", "No Special named 'Frostbite'"),
        ("/effect apply combatant:Goblin special:Ruin x:0", "X must be at least 1 (got 0)"),
        ("/effect apply combatant:Goblin special:Ruin x:-2", "X must be at least 1 (got -2)"),
        ("/effect apply combatant:Goblin special:Ruin", "Ruin needs an X"),
        ("/effect apply combatant:Goblin special:Stunned x:1", "Stunned takes no X"),
        ("/effect apply combatant:Goblin special:Root x:1", "at least at Root(2)"),
        ("/effect cleanse combatant:Goblin special:Ruin x:2", "Goblin has no Ruin to cleanse"),
        ("/effect cleanse combatant:Goblin special:Slow x:0", "Cleanse X must be at least 1"),
        ("/effect cleanse combatant:Goblin special:Regeneration x:1", "Cleanse cannot touch"),
        ("/effect remove combatant:Goblin special:Hex", "Goblin has no Hex"),
        ("/effect apply combatant:Nobody special:Ruin x:1", "No combatant named 'Nobody'"),
        ("/effect apply combatant:Goblin special:Push x:2", "Instant effect"),
        ("/move distance:0 combatant:Goblin", "Move at least 1 m"),
        ("/move distance:2 combatant:Goblin", "It is not Goblin's turn"),
    ],
)
async def test_bad_input_gets_one_ephemeral_line_and_changes_nothing(
    fast, command: str, error: str
) -> None:
    """Bad /effect or /move input was not refused in one ephemeral line, or it changed something."""
    table = fast
    gm = table.user("gm")
    await goblin_alone(table)
    await gm.run("/effect apply combatant:Goblin special:Slow x:2")
    before = await tracker(table)
    reply = await gm.run(command)
    assert reply.ephemeral, reply.text
    assert error in reply.text
    assert "\n" not in reply.content
    assert await tracker(table) == before


async def test_players_apply_only_to_their_own_combatants(fast) -> None:
    """A player put a Special on an NPC, or could not Brace their own combatant."""
    table = fast
    gm, alice = table.user("gm"), table.user("alice")
    await goblin_alone(table)
    await alice.run("/init join character:Mira")
    refused = await alice.run("/effect apply combatant:Goblin special:Ruin x:3")
    assert refused.ephemeral and "cannot act for it" in refused.text
    own = await alice.run("/effect apply combatant:Mira special:Brace x:2")
    assert not own.ephemeral and "Mira now has Brace 2." in own.text
    listed = await alice.run("/effect list combatant:Mira")
    assert listed.ephemeral and "Brace 2" in listed.text and "Speed 0 m (Brace 2)" in listed.text
    assert not (await gm.run("/effect remove combatant:Mira special:Brace")).ephemeral


async def test_a_hidden_npcs_ticks_are_told_only_to_the_gm(fast) -> None:
    """A hidden NPC's Ruin tick was shown to players, or not told to the GM."""
    table = fast
    gm = table.user("gm")
    await gm.run("/init start mode:finesse")
    await gm.run("/init add name:Lurker hidden:true finesse:5")
    await table.user("alice").run("/init join character:Mira")
    applied = await gm.run("/effect apply combatant:Lurker special:Ruin x:2")
    assert applied.ephemeral
    step = await gm.run("/init next")
    assert "Lurker" not in step.content
    await step.wait_followups(1)
    assert "Lurker takes 2 damage (Grit 30 → 28)" in step.followups[0].content
    for message in table.channel().visible_to("alice"):
        assert "Lurker" not in table.render(message)


async def test_slow_deals_x_at_turn_end_unless_the_combatant_moved(fast) -> None:
    """Slow(3) did not deal 3 at the end of a turn without /move, or dealt it after a move."""
    table = fast
    gm = table.user("gm")
    await goblin_alone(table)
    await gm.run("/effect apply combatant:Goblin special:Slow x:4")
    await gm.run("/init next")  # Slow 4 → 3 at the turn start
    ended = await gm.run("/init next")
    assert "Goblin's Specials at turn end — Slow 3: it did not move 1 m this turn; " in ended.text
    assert "Goblin takes 3 damage (Prime d20)." in ended.text
    await gm.run("/init next")  # Slow 3 → 2
    moved = await gm.run("/move distance:2 combatant:Goblin")
    assert "(2 m this turn; Mobility 8 m − Slow 2 = 6 m; the free space: no action)" in moved.text
    assert "Slow is satisfied" in moved.text
    ended = await gm.run("/init next")
    assert "turn end" not in ended.text


async def test_lacerate_deals_x_per_tier_of_movement(fast) -> None:
    """Lacerate(2) did not deal 2 for the first move, +2 beyond half and +2 beyond full Mobility."""
    table = fast
    gm = table.user("gm")
    await goblin_alone(table)
    await gm.run("/effect apply combatant:Goblin special:Lacerate x:3")
    await gm.run("/init next")  # Lacerate 3 → 2
    first = await gm.run("/move distance:3 combatant:Goblin")
    assert "(3 m this turn; Mobility 8 m; 1 action spent, 1 left)" in first.text  # 2 m free [003]
    assert "Lacerate 2 (first move): Goblin takes 2 damage (Prime d20)." in first.text
    second = await gm.run("/move distance:7 combatant:Goblin")
    assert "(10 m this turn; Mobility 8 m; no further action)" in second.text  # 2 + 8 m
    assert (
        "Lacerate 2 (beyond half Mobility, beyond full Mobility): "
        "Goblin takes 4 damage (Prime d20)." in second.text
    )


async def test_effect_list_shows_specials_with_x_and_source(fast) -> None:
    """/effect list did not show each combatant's Specials with X and source, privately."""
    table = fast
    gm = table.user("gm")
    await goblin_alone(table)
    await gm.run("/effect apply combatant:Goblin special:Challenge x:2 source:Mira")
    await gm.run("/effect apply combatant:Goblin special:Prone")
    listed = await table.user("alice").run("/effect list")
    assert listed.ephemeral
    assert "Goblin — Prone, Challenge 2 (from Mira)" in listed.text
    line = line_of(await tracker(table), "Goblin")
    assert "Prone" in line and "Challenge 2" in line


async def test_special_autocomplete_offers_the_catalogues_specials(fast) -> None:
    """The special option's autocomplete offered more than 25 or missed the tracked Specials."""
    table = fast
    gm = table.user("gm")
    await goblin_alone(table)
    everything = await gm.autocomplete("effect apply", "special", "")
    names = [choice["name"] for choice in everything]
    assert len(names) <= 25 and "Ruin(X)" in names and "Stunned" in names and "Push(X)" not in names
    typed = await gm.autocomplete("effect apply", "special", "reg")
    assert typed[0] == {"name": "Regeneration(X)", "value": "special:regeneration"}
    await gm.run("/effect apply combatant:Goblin special:Ruin x:2")
    await gm.run("/effect apply combatant:Goblin special:Stunned")
    own = await gm.autocomplete("effect cleanse", "special", "", options={"combatant": "Goblin"})
    assert own == [{"name": "Ruin 2", "value": "special:ruin"}]


async def test_a_turns_end_is_told_before_the_next_turns_start(fast) -> None:
    """The ending turn's Slow damage came after the next turn's ticks, or reached players when hidden."""
    table = fast
    gm = table.user("gm")
    await gm.run("/init start mode:finesse")
    await gm.run("/init add name:Lurker hidden:true finesse:5")
    await gm.run("/init add name:Goblin finesse:3")
    await gm.run("/init add name:Orc finesse:1")
    await gm.run("/effect apply combatant:Lurker special:Slow x:3")
    await gm.run("/effect apply combatant:Goblin special:Slow x:3")
    await gm.run("/effect apply combatant:Orc special:Ruin x:2")
    await gm.run("/init next")  # the Lurker's turn
    goblin = await gm.run("/init next")  # the Lurker's turn ends: Slow 2, told to the GM only
    assert "Lurker" not in goblin.content
    await goblin.wait_followups(1)
    assert "Lurker takes 2 damage (Grit 30 → 28)" in goblin.followups[0].content
    orc = await gm.run("/init next")
    slow = orc.text.index("Goblin takes 2 damage (Prime d20)")
    ruin = orc.text.index("Orc takes 2 damage (Prime d20)")
    assert slow < ruin
