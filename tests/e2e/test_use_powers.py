"""/use end to end: powers from the sheet played by their type, with scripted dice [GAME.md §9].

Dice are scripted in the order the bot draws them: the attack die at /use, each defense
die when its defender answers, then that hit's damage dice.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.rules.models import Combatant
from bot.sandbox.client import SandboxTable
from bot.sandbox.harness import running_bot
from bot.sandbox.server import LoopbackDiscord
from tests.e2e.conftest import tablehand_bot
from tests.e2e.helpers import script, tracker
from tests.e2e.invariants import assert_error_reply, stored
from tests.scripted import ScriptedRandom, d8, d20

pytestmark = pytest.mark.e2e

BOLT = '"damage:1d8 range:16 ruin:2"'  # 15 + 10 + Ruin 2 (4 × 3) = 37 PP: Active L2 (60)
HELLFIRE = '"damage:2d8 range:16 radius:3 ruin:2"'  # 102 PP: Active L4 (120)


async def combatant(table: SandboxTable, name: str) -> Combatant:
    """Read a combatant of table-1's encounter as stored now."""
    encounter = await table.bot.store.peek(table.channel().id)  # type: ignore[attr-defined]
    assert encounter is not None
    return next(c for c in encounter.combatants if c.name == name)


@pytest.fixture
async def fight(make_table) -> SandboxTable:
    """Round 1, Mira's turn (MR 4, Finesse 3) with her powers; the GM's Goblin and Orc."""
    return await set_up(await make_table())


async def set_up(table: SandboxTable) -> SandboxTable:
    """Give alice's Mira her powers and start the fight on her turn."""
    table.bot.trackers.interval = 0  # type: ignore[attr-defined]
    alice, gm = table.user("alice"), table.user("gm")
    await alice.run("/character create name:Mira physical:4 finesse:3 mastery_rank:4")
    await alice.run(f"/character power build name:Bolt type:active level:2 components:{BOLT}")
    await alice.run(
        f"/character power build name:Hellfire type:active level:4 components:{HELLFIRE} spell:true"
    )
    await alice.run(
        f"/character power build name:Jab type:active level:2 components:{BOLT} limit:round"
    )
    await alice.run("/character power add name:active_buff:damage level:1")
    await alice.run("/character power add name:active_buff:healing level:1")
    await alice.run("/character power add name:movement:flight level:4")
    await alice.run("/character power add name:reaction:evade level:1")
    await gm.run("/init start mode:finesse")
    await gm.run("/init add name:Goblin physical:3 finesse:2")
    await gm.run("/init add name:Orc physical:3 finesse:1")
    await alice.run("/init join")
    started = await gm.run("/init next")  # by Finesse: Mira 3, Goblin 2, Orc 1
    assert not started.ephemeral, started.text
    return table


def fields(embed: dict[str, Any] | None) -> dict[str, str]:
    """Return an embed's fields by name."""
    assert embed is not None
    return {f["name"]: f["value"] for f in embed.get("fields", [])}


async def test_an_active_with_ruin_hits_and_the_target_carries_ruin_from_its_user(fight) -> None:
    """Bolt (ruin:2) hit the Goblin but it did not carry Ruin 2 from Mira, or the result did not say."""
    table = fight
    script(table, d20(15), d20(3), d8(5))  # attack 15 + Finesse 3; Goblin blocks 3; 1d8
    prompt = await table.user("alice").run("/use power:Bolt target:Goblin distance:3")
    assert "Mira uses Bolt." in prompt.content
    resolved = await prompt.click("Block", as_user="gm")
    embed = resolved.embed
    assert embed["title"] == "Mira attacks Goblin with Bolt — Hit"
    shown = fields(embed)
    assert shown["Outcome"] == "**18** vs **3** — **hit**"
    assert shown["Damage"].startswith("Weapon 5 (1d8: 5)")
    assert "Goblin now has Ruin 2 (from Mira)." in shown["Notes"]
    goblin = await combatant(table, "Goblin")
    assert [(s.name, s.x, s.source) for s in goblin.specials] == [("Ruin", 2, "Mira")]
    assert goblin.grit == 25
    assert (await combatant(table, "Mira")).actions_left == 1  # the attack action [001 §2]


async def test_a_missed_active_applies_nothing_and_says_so(fight) -> None:
    """A missed Bolt left Ruin on the Goblin, or the result did not say a miss applies nothing."""
    table = fight
    script(table, d20(2), d20(10))  # attack 2 + 3 = 5 against a block of 10
    prompt = await table.user("alice").run("/use power:Bolt target:Goblin distance:3")
    resolved = await prompt.click("Block", as_user="gm")
    shown = fields(resolved.embed)
    assert shown["Outcome"] == "**5** vs **10** — **miss**"
    assert "Not applied (a miss applies nothing): Ruin 2." in shown["Notes"]
    assert (await combatant(table, "Goblin")).specials == []


async def test_an_area_power_resolves_each_target_on_its_own(fight) -> None:
    """Hellfire on Goblin and Orc: one roll (15), each defended alone — the Goblin's 16 holds, the Orc's 4 does not."""
    table = fight
    script(table, d20(12))  # one attack roll for the area: 12 + Finesse 3 = 15 [001 §11.15]
    used = await table.user("alice").run('/use power:Hellfire targets:"Goblin, Orc" distance:3')
    assert (
        "Mira uses Hellfire (a Spell): one roll, against each target's own defense." in used.content
    )
    (second,) = await used.wait_followups(1)
    gm = table.user("gm")
    script(table, d20(16))
    goblin = await gm.click(used.messages[0], "Block")
    assert fields(goblin.embed)["Outcome"] == "**15** vs **16** — **miss**"
    script(table, d20(4), d8(3), d8(4))
    orc = await gm.click(second, "Block")
    assert orc.embed["title"] == "Mira attacks Orc with Hellfire — Hit"
    assert fields(orc.embed)["Outcome"] == "**15** vs **4** — **hit**"
    assert (await combatant(table, "Goblin")).specials == []
    orc_now = await combatant(table, "Orc")
    assert [(s.name, s.x, s.source) for s in orc_now.specials] == [("Ruin", 2, "Mira")]
    assert orc_now.grit == 23  # 2d8: 3 + 4
    assert (await combatant(table, "Mira")).actions_left == 1  # one attack action for the area


async def test_a_buff_lasts_mastery_rank_rounds_and_a_second_replaces_the_first(fight) -> None:
    """Damage buff on an MR-4 Mira did not last 4 rounds, or Healing did not replace it and say so."""
    table = fight
    alice, gm = table.user("alice"), table.user("gm")
    taken = await alice.run("/use power:Damage")
    assert taken.content.startswith("Mira takes up Damage for 4 rounds (Mastery Rank), to round 4:")
    assert "✦ Damage (4 rounds)" in await tracker(table)
    replaced = await alice.run("/use power:Healing")
    assert "It replaces Damage: one maintained buff at a time." in replaced.content
    mira = await combatant(table, "Mira")
    assert mira.buff is not None and mira.buff.name == "Healing" and mira.buff.until_round == 5
    assert mira.actions_left == 0
    texts = []
    for _ in range(4 * 4):  # Goblin, Orc, the round's end, Mira's next turn: to round 5
        texts.append((await gm.run("/init next")).text)
    joined = "\n".join(texts)
    assert "Mira's Healing ends: its Mastery Rank rounds are over." in joined
    assert (await combatant(table, "Mira")).buff is None
    heals = [line for line in joined.splitlines() if line.startswith("  Mira's Healing heals 10.")]
    assert len(heals) == 3  # at her turn starts in rounds 2, 3, 4 (not in the summaries' copies)


async def test_a_once_per_round_power_is_refused_the_second_time(fight) -> None:
    """Jab (once per Round) was not refused the second time in round 1."""
    table = fight
    alice = table.user("alice")
    script(table, d20(2), d20(10))
    first = await alice.run("/use power:Jab target:Goblin distance:3")
    await first.click("Block", as_user="gm")
    again = await alice.run("/use power:Jab target:Goblin distance:3")
    assert again.ephemeral
    assert again.content == "Jab is once per Round, and Mira has used it this round."
    assert (await combatant(table, "Mira")).actions_left == 1


async def test_a_movement_power_is_the_turns_movement(fight) -> None:
    """Flight L4 (6 m) was not recorded as the turn's movement, or a second use was allowed."""
    table = fight
    alice = table.user("alice")
    flown = await alice.run("/use power:Flight")
    assert not flown.ephemeral and flown.content.startswith("Mira uses Flight: ")
    mira = await combatant(table, "Mira")
    assert (mira.moved_m, mira.actions_left) == (6, 1)
    again = await alice.run("/use power:Flight")
    assert again.content == (
        "Mira has moved 6 m this turn: a Movement power replaces the turn's movement, so it "
        "comes first [001]."
    )


async def test_a_reaction_answers_an_attack_once_a_round(fight) -> None:
    """Evade (trigger: being attacked) was not usable on the Goblin's attack, or twice a round."""
    table = fight
    alice, gm = table.user("alice"), table.user("gm")
    early = await alice.run("/use power:Evade")
    assert early.content == "A Reaction is used outside Mira's own turn, on its trigger."
    await alice.run("/init next")  # the Goblin's turn
    script(table, d20(10))
    await gm.run("/attack target:Mira attacker:Goblin")
    reacted = await alice.run("/use power:Evade")
    # Reaction L1: 20 PP at 5 PP per +1 Evade = +4 [001 Reaction curve, Evade axis]
    assert "Mira reacts with Evade against Goblin's attack: Evade +4" in reacted.content
    again = await alice.run("/use power:Evade")
    assert again.content == "Mira has used its Reaction this round (one per round)."


BAD_USE = [
    ("/use power:Nothing", "Mira has no power named 'Nothing'"),
    (
        "/use power:Damage target:Goblin",
        "Damage is an Active Buff: it takes no target or distance.",
    ),
    ("/use power:Bolt", "Name whom Bolt targets (target:, or targets: for an area)."),
    ('/use power:Bolt targets:"Goblin, Orc" distance:3', "Bolt has no area: it takes one target."),
    (
        "/use power:Bolt target:Goblin distance:9",
        "Bolt reaches 16 m; the target is 9 spaces (18 m) away.",
    ),
    ('/use power:Hellfire targets:"Goblin, Goblin" distance:3', "A target is named twice"),
    ("/use power:Bolt target:Nobody distance:3", "Nobody"),
]


@pytest.mark.parametrize(("line", "message"), BAD_USE, ids=[b[0] for b in BAD_USE])
async def test_bad_use_is_one_private_line_and_changes_nothing(fight, line, message) -> None:
    """A bad /use was not refused in one private line, or it changed the encounter."""
    table = fight
    before = await stored(table.bot.store, table.channel().id)  # type: ignore[attr-defined]
    reply = await table.user("alice").run(line)
    assert_error_reply(reply)
    assert message in reply.content, reply.content
    assert await stored(table.bot.store, table.channel().id) == before  # type: ignore[attr-defined]


async def test_a_passive_is_always_on(fight) -> None:
    """/use on a Passive did not say it is always on."""
    table = fight
    alice = table.user("alice")
    # A Passive added after the join plays from the next fight; this one is on Brom's sheet.
    await alice.run("/character create name:Brom mastery_rank:1")
    await alice.run("/character power add name:passive:initiative character:Brom")
    await alice.run("/init join character:Brom")
    reply = await alice.run("/use power:Initiative combatant:Brom")
    assert_error_reply(reply)
    assert reply.content.startswith("Initiative is a Passive: always on")


async def test_a_reaction_is_offered_on_the_defense_prompt(fight) -> None:
    """The prompt of an attack on Mira offered no Evade button, or it could be used twice a round."""
    table = fight
    alice, gm = table.user("alice"), table.user("gm")
    await alice.run("/init next")  # the Goblin's turn
    script(table, d20(10))
    prompt = await gm.run("/attack target:Mira attacker:Goblin")
    labels = [b["label"] for b in prompt.buttons]
    assert "React: Evade" in labels
    assert "Mira may react with Evade (its Reaction this round)." in prompt.embed["description"]
    refused = await prompt.click("React: Evade", as_user="bob")
    assert_error_reply(refused)
    assert (await combatant(table, "Mira")).reacted_round is None
    reacted = await prompt.click("React: Evade", as_user="alice")
    assert (
        "Mira reacts with Evade against Goblin's attack: Evade +4" in reacted.embed["description"]
    )
    assert "React: Evade" not in [b["label"] for b in reacted.buttons]  # one per round
    assert (await combatant(table, "Mira")).reacted_round == 1
    script(table, d20(15))
    settled = await reacted.click("Block", as_user="alice")
    assert settled.embed["title"].startswith("Goblin attacks Mira")


async def test_hex_adds_to_a_spell_power_and_sundered_does_not(fight) -> None:
    """Hex 2 on the Goblin did not add +1d8 to Hellfire (a Spell), or Sundered 2 did [001 Hex]."""
    table = fight
    gm = table.user("gm")
    await gm.run("/effect apply combatant:Goblin special:Hex x:2")
    await gm.run("/effect apply combatant:Goblin special:Sundered x:2")
    script(table, d20(15), d20(3), d8(2), d8(2), d8(6))  # attack, block, 2d8, Hex's +1d8
    prompt = await table.user("alice").run("/use power:Hellfire target:Goblin distance:3")
    resolved = await prompt.click("Block", as_user="gm")
    damage = fields(resolved.embed)["Damage"]
    assert "Hex" in damage and "Sundered" not in damage
    assert (await combatant(table, "Goblin")).grit == 30 - (2 + 2 + 6)


async def test_a_damage_buff_adds_its_dice_to_the_users_hits(fight) -> None:
    """Active Buff: Damage L1 (+2d8: 40 PP ÷ 15 PP per d8 [001]) was not added to Bolt's hit."""
    table = fight
    alice = table.user("alice")
    await alice.run("/use power:Damage")
    script(table, d20(15), d20(3), d8(5), d8(1), d8(2))  # attack, block, Bolt 1d8, buff 2d8
    prompt = await alice.run("/use power:Bolt target:Goblin distance:3")
    resolved = await prompt.click("Block", as_user="gm")
    assert "Extra 3 (2d8: 1, 2)" in fields(resolved.embed)["Damage"]
    assert (await combatant(table, "Goblin")).grit == 30 - 8


async def test_a_power_attack_waiting_across_a_restart_still_applies_its_specials(
    server: LoopbackDiscord, tmp_path: Path
) -> None:
    """After a restart, Bolt's stored attack hit without putting Ruin 2 from Mira on the Goblin."""
    table = SandboxTable(server)
    before = ScriptedRandom([d20(15)])  # Bolt's attack
    async with running_bot(server, tablehand_bot(server, tmp_path, rng=before)) as bot:
        table.bot = bot  # type: ignore[attr-defined]
        await set_up(table)
        prompt = await table.user("alice").run("/use power:Bolt target:Goblin distance:3")
    before.done()
    after = ScriptedRandom([d20(3), d8(4)])  # the Goblin's block, Bolt's 1d8
    async with running_bot(server, tablehand_bot(server, tmp_path, rng=after)) as bot:
        table.bot = bot  # type: ignore[attr-defined]
        resolved = await prompt.click("Block", as_user="gm")
        assert resolved.embed["title"] == "Mira attacks Goblin with Bolt — Hit"
        goblin = await combatant(table, "Goblin")
        assert [(s.name, s.x, s.source) for s in goblin.specials] == [("Ruin", 2, "Mira")]
    after.done()
