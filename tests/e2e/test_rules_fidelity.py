"""The game as written, end to end (issue 17): blind defense, turns, reactions, melee range,
stealth and cover, movement, checks, minor acts, long actions, essences, /init edit.

Dice are scripted (tests/scripted.py): each test lists the faces the bot draws, in order.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.rules import encounter as flow
from bot.rules.models import Combatant, Encounter, Shield
from bot.sandbox.client import SandboxTable
from tests.e2e.helpers import script, unmentioned
from tests.scripted import d12, d20

pytestmark = pytest.mark.e2e

CHANNEL = "table-1"


def fields(embed: dict[str, Any] | None) -> dict[str, str]:
    """Return an embed's fields by name."""
    assert embed is not None, "no embed"
    return {f["name"]: f["value"] for f in embed.get("fields", [])}


def labels(reply: Any) -> list[str]:
    return [b["label"] for b in reply.buttons]


async def encounter(table: SandboxTable) -> Encounter:
    """Return the channel's committed encounter."""
    async with table.bot.store.channel(table.channel(CHANNEL).id) as state:  # type: ignore[attr-defined]
        return state.require_encounter().model_copy(deep=True)


async def combatant(table: SandboxTable, name: str) -> Combatant:
    return flow.by_name(await encounter(table), name)


async def party(make_table) -> SandboxTable:
    """Round 1 by Finesse, Mira's turn: alice's Mira (4, 5), bob's Brom (6, 3) vs the Goblin (3, 1)."""
    table = await make_table()
    table.bot.trackers.interval = 0  # type: ignore[attr-defined]
    gm = table.user("gm")
    await gm.run("/init start mode:finesse")
    await table.user("alice").run("/init join character:Mira physical:4 finesse:5")
    await table.user("bob").run("/init join character:Brom physical:6 finesse:3")
    await gm.run("/init add name:Goblin physical:3 finesse:1")
    started = await gm.run("/init next")
    assert not started.ephemeral, started.text
    return table


@pytest.fixture
async def fight(make_table) -> SandboxTable:
    return await party(make_table)


# Out of turn [GAME.md §10].


async def test_out_of_turn_actions_are_refused_with_the_way_to_act(fight) -> None:
    """An out-of-turn attack or move was allowed, or refused without saying how to act."""
    table = fight
    for command in ("/attack target:Goblin", "/move distance:4"):
        refused = await table.user("bob").run(command)
        assert refused.ephemeral
        said = unmentioned(refused.content)  # the commands are clickable mentions
        assert said.startswith("It is not Brom's turn: ")
        assert "or /wait and then /act" in said and "force:true" in said
    assert (await combatant(table, "Brom")).actions_left == 2


async def test_only_the_gm_forces_an_out_of_turn_action_and_the_result_says_so(fight) -> None:
    """A player forced an action out of turn, or the GM's forced attack did not say so."""
    table = fight
    refused = await table.user("bob").run("/attack target:Goblin force:true")
    assert refused.ephemeral and refused.content == "Only the GM can force an out-of-turn action."
    script(table, d20(14), d20(2))  # the Goblin's attack, Brom's block
    prompt = await table.user("gm").run("/attack target:Brom attacker:Goblin force:true")
    assert "Out of turn: forced by the GM." in prompt.embed["description"]
    resolved = await prompt.click("Block", as_user="bob")
    assert fields(resolved.embed)["Notes"] == "Out of turn: forced by the GM."
    assert fields(resolved.embed)["Outcome"] == "**17** vs **8** — **hit**"


# Protect and Support [000, 002].


async def test_an_ally_protects_from_the_prompt_and_takes_the_attack(fight) -> None:
    """Brom's Protect on the prompt did not make him block in Mira's place and take the hit."""
    table = fight
    script(table, d20(15), d20(4))  # the Goblin's attack (15 + 3), Brom's block (4 + 6)
    prompt = await table.user("gm").run("/attack target:Mira attacker:Goblin force:true")
    assert labels(prompt) == ["Block", "Dodge", "Break Away", "Sacrifice +3", "Protect"]
    assert "Allies may **Protect** Mira" in prompt.embed["description"]
    protected = await prompt.click("Protect", as_user="bob")
    assert protected.type == 7  # the prompt itself is updated
    assert labels(prompt) == ["Resolve"]
    assert "Brom protects Mira: blocking in its place." in prompt.embed["description"]
    assert (await combatant(table, "Brom")).actions_left == 1  # a reaction costs an action
    resolved = await prompt.click("Resolve", as_user="alice")
    assert resolved.embed["title"] == "Goblin attacks Mira — Hit"
    assert resolved.embed["description"] == "Melee · protected by Brom, who must block"
    assert fields(resolved.embed)["Defense"] == (
        "Brom protects — Block · d20 **4** · Physical +6 → **10**\nRisk 1 · Critical 20"
    )
    assert fields(resolved.embed)["Outcome"] == "**18** vs **10** — **hit**"
    assert (
        fields(resolved.embed)["Grit"]
        == "Brom takes 15 damage (Grit 30 → 15). Brom drops to Reduced Grit — now rolls d12."
    )
    assert (await combatant(table, "Mira")).grit == 30


async def test_a_supporting_roll_that_matches_adds_three(make_table) -> None:
    """The Orc's /support matching the Goblin's roll did not add +3 to the attack [002, bot]."""
    table = await party(make_table)
    gm = table.user("gm")
    await gm.run("/init add name:Orc physical:2")
    script(table, d20(10))  # the Goblin's attack: 10 + 3 = 13
    prompt = await gm.run("/attack target:Mira attacker:Goblin force:true")
    assert "Support" in labels(prompt)
    supported = await gm.run("/support ally:Goblin combatant:Orc")
    assert not supported.ephemeral
    assert (
        supported.content
        == "Orc supports Goblin's attack: its dice are rolled when the attack settles."
    )
    await table.channel(CHANNEL).wait_for(
        lambda ch: "Orc supports Goblin's attack." in prompt.embed["description"],
        what="the prompt to show the support",
    )
    script(table, d20(11), d20(8))  # the Orc's support (11 + 2 = 13), Mira's block (8 + 4)
    resolved = await prompt.click("Block", as_user="alice")
    assert fields(resolved.embed)["Support"] == (
        "Orc: d20 **11** · Physical +2 → **13**\n"
        "Highest: Orc — matches or beats Goblin's roll 13: **+3**"
    )
    assert fields(resolved.embed)["Attack"] == (
        "d20 **10** · Physical +3 · Support +3 → **16**\nRisk 1 · Critical 20"
    )
    assert fields(resolved.embed)["Outcome"] == "**16** vs **12** — **hit**"


async def test_a_stunned_defender_alone_is_hit_at_once_with_no_defense(make_table) -> None:
    """A Stunned defender with no ally to protect it was asked for a defense [GAME.md §7]."""
    table = await make_table()
    table.bot.trackers.interval = 0  # type: ignore[attr-defined]
    gm = table.user("gm")
    await gm.run("/init start mode:finesse")
    await table.user("alice").run("/init join character:Mira physical:4 finesse:5")
    await gm.run("/init add name:Goblin physical:3 finesse:1")
    await gm.run("/effect apply combatant:Goblin special:Stunned")
    await gm.run("/init next")
    script(table, d20(9))  # Mira's attack
    resolved = await table.user("alice").run("/attack target:Goblin")
    assert resolved.buttons == []
    assert resolved.embed["description"] == "Melee · Stunned: it cannot react, no defense"
    assert fields(resolved.embed)["Defense"] == "No defense (Stunned) → **0**"


# Stealth and cover [000, 002].


async def test_hiding_then_attacking_meets_perception_and_reveals(fight) -> None:
    """/hide did not roll against the best Perception, or the attack after it was not +4
    against the Goblin's passive Perception with double melee damage [000, 002]."""
    table = fight
    alice = table.user("alice")
    script(table, d20(5))  # Mira's Hide: 5 + Finesse 5 = 10 reaches the Goblin's Perception 10
    hid = await alice.run("/hide")
    assert hid.content == (
        "🫥 Mira tries to hide (one action): d20 **5** · Finesse +5 → **10** vs Goblin's "
        "Perception 10 — **Mira is hidden**: +4 to its actions until it attacks or is spotted."
    )
    script(table, d20(6))  # the attack; no defense roll; damage is its face
    resolved = await alice.run("/attack target:Goblin")
    assert fields(resolved.embed)["Attack"] == (
        "d20 **6** · Physical +4 · Stealth +4 → **14**\nRisk 1 · Critical 20"
    )
    assert fields(resolved.embed)["Defense"] == "Perception (passive) · base 10 → **10**"
    assert fields(resolved.embed)["Damage"] == "Attack roll 6 · ×2 melee from stealth → **12**"
    assert not (await combatant(table, "Mira")).stealth  # attacking gives her away [000]


async def test_full_cover_is_cover_four_until_its_holder_attacks(fight) -> None:
    """/cover did not cost an action and count as cover 4 against a ranged attack [002]."""
    table = fight
    took = await table.user("alice").run("/cover")
    assert took.content == (
        "🛡 Mira takes full cover (one action, 1 left): cover 4 (+20) against ranged attacks "
        "until it attacks or moves."
    )
    script(table, d20(12))  # the Goblin's shot at 3 spaces
    prompt = await table.user("gm").run(
        "/attack target:Mira attacker:Goblin style:ranged distance:3 force:true"
    )
    assert labels(prompt) == ["Block", "Dodge", "Take Cover", "Sacrifice +3", "Protect"]
    resolved = await prompt.click("Take Cover", as_user="alice")
    assert fields(resolved.embed)["Defense"] == "Take Cover · Cover ×2 +40 → **40**"


async def test_point_blank_ranged_is_melee_and_long_range_counts_from_six(fight) -> None:
    """A shot at distance 0 offered Take Cover or allowed cover; 6 spaces was not +1, 5 not 0 [000, 003]."""
    table = fight
    refused = await table.user("alice").run("/attack target:Goblin style:ranged cover:2")
    assert refused.ephemeral and "point-blank and resolves as melee" in refused.content
    script(table, d20(9))
    close = await table.user("alice").run("/attack target:Goblin style:ranged")
    assert labels(close) == ["Block", "Dodge", "Break Away", "Sacrifice +3", "Support"]
    assert "point-blank (defended as melee)" in close.embed["description"]
    script(table, d20(4), d12(9), d20(6))  # the Goblin's block; Mira's shot at 6 spaces; dodge
    point = await close.click("Block", as_user="gm")
    assert fields(point.embed)["Defense"] == (
        "Block · d20 **4** · Physical +3 → **7**\nRisk 1 · Critical 20"
    )
    far = await table.user("alice").run("/attack target:Goblin style:ranged distance:6")
    far_result = await far.click("Dodge", as_user="gm")
    assert fields(far_result.embed)["Defense"] == (
        "Dodge · d20 **6** · Finesse +1 · Range +1 → **8**\nRisk 1 · Critical 20"
    )


# Melee range [000].


async def test_closing_in_on_a_longer_reach_then_breaking_away(fight) -> None:
    """A shorter reach attacked without closing in, closing in was not a dodge, or break away
    did not free Mira [000 Reach Advantage, Closing In, Break Away]."""
    table = fight
    gm, alice = table.user("gm"), table.user("alice")
    edited = await gm.run("/init edit combatant:Goblin reach:2")
    assert edited.content == "✎ Goblin: reach 1 → 2."
    refused = await alice.run("/attack target:Goblin")
    assert refused.ephemeral and unmentioned(refused.content) == (
        "Goblin's reach (2) is longer than Mira's (1): close in first (/engage target:Goblin)."
    )
    script(table, d20(9), d20(11))  # Mira's dodge (9 + 5), the Goblin's threat (11 + 3)
    engaged = await alice.run("/engage target:Goblin")
    assert engaged.content == (
        "⚔ Mira closes in on Goblin's longer reach — dodge d20 **9** · Finesse +5 → **14** vs "
        "Goblin's d20 **11** · Physical +3 → **14**: **in** — engaged, no reach advantage "
        "between them."
    )
    locked = await alice.run("/move distance:4")
    assert locked.ephemeral and "engaged with Goblin and locked onto its space" in locked.content
    script(table, d20(12), d20(3))  # Mira's break away (12 + 5), the Goblin's hold (3 + 3)
    broke = await alice.run("/breakaway")
    assert broke.content == (
        "↩ Mira breaks away (one action): d20 **12** · Finesse +5 → **17** vs Goblin's d20 **3** "
        "· Physical +3 → **6** — **free** of Goblin."
    )
    assert (await combatant(table, "Mira")).engaged_with == []


async def test_a_grapple_holds_both_until_one_breaks_away(fight) -> None:
    """/grapple did not use Finesse without damage, lock both out of actions, or leave Break Away."""
    table = fight
    alice = table.user("alice")
    script(table, d20(11), d20(5))  # Mira's grapple (11 + Finesse 5), the Goblin's block (5 + 3)
    prompt = await alice.run("/grapple target:Goblin item:Club")
    assert "a grapple for Club" in prompt.embed["description"]
    held = await prompt.click("Block", as_user="gm")
    assert held.embed["title"] == "Mira grapples Goblin — Grappled"
    assert "Damage" not in fields(held.embed)
    assert fields(held.embed)["Notes"] == (
        "Mira and Goblin are locked in a grapple — Club is held and cannot be used: neither "
        "acts; Break Away is the only way out (/breakaway)."
    )
    mira, goblin = await combatant(table, "Mira"), await combatant(table, "Goblin")
    assert (mira.actions_left, goblin.actions_left) == (0, 0)
    refused = await table.user("gm").run("/attack target:Mira attacker:Goblin force:true")
    assert refused.ephemeral and "locked in a grapple with Mira" in refused.content
    script(table, d20(4), d20(10))  # Mira's break away (4 + 5), the Goblin's hold (10 + 3)
    held_on = await alice.run("/breakaway")
    assert "— **held** (ties go to the holder)." in held_on.content
    again = await alice.run("/breakaway")
    assert again.ephemeral and again.content == "Mira has tried to break away this round already."


# Movement and standing [003].


async def test_moving_and_standing_spend_actions(fight) -> None:
    """A move beyond one space or standing up cost nothing, or prone moved more than a space [003]."""
    table = fight
    gm, alice = table.user("gm"), table.user("alice")
    free = await alice.run("/move distance:2")
    assert "(2 m this turn; Mobility 8 m; the free space: no action)" in free.content
    paid = await alice.run("/move distance:6")
    assert "(8 m this turn; Mobility 8 m; 1 action spent, 1 left)" in paid.content
    await gm.run("/effect apply combatant:Mira special:Prone")
    crawl = await alice.run("/move distance:2")
    assert crawl.ephemeral and crawl.content.startswith("Mira is prone: it moves one space")
    stood = await alice.run("/effect remove combatant:Mira special:Prone")
    assert stood.content == "Mira stands up (Prone removed; one action, 0 left)."
    await gm.run("/effect apply combatant:Mira special:Prone")
    tired = await alice.run("/effect remove combatant:Mira special:Prone")
    assert tired.ephemeral
    assert tired.content == "Mira has no action left this round to stand up (it takes one)."
    fixed = await gm.run("/init edit combatant:Mira prone:false")  # the GM's correction: no action
    assert fixed.content == "✎ Mira: prone yes → no."


# Checks [003, GAME.md §6].


async def test_a_check_takes_any_number_and_the_core_roll_options(fight) -> None:
    """/check refused a numeric level or the core-roll options, or its Critical passed 40 [§6]."""
    table = fight
    alice = table.user("alice")
    script(table, d20(20), d20(3), 4)  # advantage keeps 20; bonus 1d4 → 4
    checked = await alice.run(
        '/check difficulty:40 attribute:finesse advantage:advantage bonus:"+1d4"'
    )
    assert checked.content == (
        "🎯 **Mira** checks against 40: d20 **20** (advantage: 20, 3) · Bonus 1d4 +4 (4) · "
        "Finesse +5 → **29** — Critical (natural 20), but the total falls short — **failure**"
    )
    script(table, d20(4))
    risky = await alice.run("/check difficulty:Trivial trait:9 risk:3")
    assert risky.content.endswith("Risk failure (natural 4 ≤ Risk 4) — **failure**")


async def test_injuries_cost_finesse_checks_and_legs_stop_jumps(fight) -> None:
    """An Injury did not cost a Finesse check 1, or a leg injury allowed a jump [000]."""
    table = fight
    gm, alice = table.user("gm"), table.user("alice")
    edited = await gm.run("/init edit combatant:Mira injuries:2 leg_injury:true")
    assert edited.content == "✎ Mira: Injuries 0 → 2, leg injury no → yes."
    script(table, d20(7))
    checked = await alice.run("/check difficulty:Fair attribute:finesse")
    assert checked.content == (
        "🎯 **Mira** checks against Fair 9: d20 **7** · Finesse +5 · Injuries ×2 -2 → **10** — "
        "**success**"
    )
    refused = await alice.run("/check difficulty:Mild trait:2 jump:true")
    assert refused.ephemeral and refused.content == (
        "Mira has an injury to the legs: it cannot jump at all until it is treated."
    )


# /init edit: NPC stats [GAME.md §1].


async def test_the_gm_sets_an_npcs_perception_durability_and_stamina(fight) -> None:
    """An NPC's Perception, durability and stamina could not be set, or a player could set them."""
    table = fight
    refused = await table.user("alice").run("/init edit combatant:Goblin perception:4")
    assert refused.ephemeral and refused.content == "Only the GM can edit combatants."
    edited = await table.user("gm").run(
        "/init edit combatant:Goblin perception:4 durability:2 stamina:1 blocked:2"
    )
    assert edited.ephemeral  # an NPC's numbers are the GM's, as its Grit is
    assert edited.content == (
        "✎ Goblin: Perception (m) none → 4, durability none → 2, stamina none → 1, "
        "directions blocked 0 → 2."
    )
    goblin = await combatant(table, "Goblin")
    assert (goblin.perception_m, goblin.durability, goblin.stamina, goblin.directions_blocked) == (
        4,
        2,
        1,
        2,
    )
    script(table, d20(8), d20(9))  # Mira's attack; the Goblin breaks away: 9 + 3 − 2 blocked
    prompt = await table.user("alice").run("/attack target:Goblin")
    resolved = await prompt.click("Break Away", as_user="gm")
    assert fields(resolved.embed)["Defense"] == (
        "Break Away · d20 **9** · Physical +3 · Directions blocked -2 → **10**\nRisk 1 · Critical 20"
    )


# Minor acts, long actions [003, 000].


async def test_a_minor_act_before_the_turn_costs_two_initiative(make_table) -> None:
    """A minor act declared before the roll was not −2 in it [003 "-2 or so per minor act"]."""
    table = await make_table()
    gm = table.user("gm")
    await gm.run("/init start")
    await table.user("alice").run("/init join character:Mira finesse:2")
    await gm.run("/init add name:Goblin finesse:1")
    declared = await table.user("alice").run('/declare action:"Draw my sword" kind:minor')
    assert declared.content == (
        "📝 **Mira**: Draw my sword — a minor act before its turn, −2 initiative (-2 this round)."
    )
    script(table, d20(10), d20(9))  # initiative: Mira 10 + 2 − 2 = 10, the Goblin 9 + 1 = 10
    started = await gm.run("/init next")
    assert not started.ephemeral
    mira, goblin = await combatant(table, "Mira"), await combatant(table, "Goblin")
    assert (mira.initiative, goblin.initiative) == (10, 10)


async def test_a_long_action_planned_out_of_turn_is_worked_on_its_turn(make_table) -> None:
    """A long action declared before Mira's turn spent actions, or was not busy with it [000, §10]."""
    table = await make_table()
    gm, alice = table.user("gm"), table.user("alice")
    await gm.run("/init start mode:finesse")
    await alice.run("/init join character:Mira finesse:5")
    await gm.run("/init add name:Goblin finesse:1")
    await alice.run("/declare action:Dig kind:long rounds:3 long_type:cumulative")
    await gm.run("/init round")  # round 2: nothing declared yet
    planned = await alice.run("/declare action:Dig kind:long")
    assert planned.content == (
        "⏳ **Mira** will work on Dig this round (0/3): it is busy with it from now on, and adds "
        "to it by declaring it again on its turn."
    )
    assert (await combatant(table, "Mira")).actions_left == 2
    await gm.run("/init next")  # Mira's turn
    worked = await alice.run("/declare action:Dig kind:long")
    assert worked.content == "⏳ **Mira** works on Dig: 1/3 (1 action spent)."


# Essences [002].


async def test_one_essence_at_a_time(fight) -> None:
    """A second essence was used while one was active [002 "Only one active essence at a time"]."""
    table = fight
    alice = table.user("alice")
    used = await alice.run('/essence use name:"Elixir of Iron" kind:elixir rounds:2')
    assert used.content == (
        "🧪 Mira uses Elixir of Iron (elixir): active for 2 rounds — one essence at a time."
    )
    second = await alice.run("/essence use name:Tonic kind:tonic")
    assert second.ephemeral and unmentioned(second.content) == (
        "Mira already has Elixir of Iron active: one essence at a time (/essence end first)."
    )
    ended = await alice.run("/essence end")
    assert ended.content == "🧪 Mira's Elixir of Iron ends."
    listed = await alice.run("/effect list combatant:Mira")
    assert "essence" not in listed.content


# Round zero [002, 003].


async def test_a_melee_surprise_attack_doubles_and_hits_at_six(make_table) -> None:
    """A melee attack on a surprised target in round zero was not doubled, or missed at 6 [002, 003]."""
    table = await make_table()
    gm = table.user("gm")
    await gm.run("/init start mode:finesse ambush:party")
    await table.user("alice").run("/init join character:Mira physical:3 finesse:2")
    await gm.run("/init add name:Goblin")
    await gm.run("/init next")
    script(table, d20(3))  # 3 + Physical 3 = 6 reaches the surprised 6
    resolved = await table.user("alice").run("/attack target:Goblin damage:5")
    assert fields(resolved.embed)["Outcome"] == (
        "**6** vs **6** — **hit** (a challenge level is hit when reached)"
    )
    assert fields(resolved.embed)["Damage"] == "Weapon 5 · ×2 melee surprise attack → **10**"


async def test_a_raised_shield_guards_every_defense_until_the_next_turn(fight) -> None:
    """/guard did not spend an action and add the held shield's guard to the next defense [002]."""
    table = fight
    async with table.bot.store.channel(table.channel(CHANNEL).id) as state:  # type: ignore[attr-defined]
        mira = flow.by_name(state.require_encounter(), "Mira")
        mira.items = [Shield(name="Buckler", block=1, guard=3)]  # a loadout's item [GAME.md §9]
    raised = await table.user("alice").run("/guard")
    assert raised.content == (
        "🛡 Mira raises Buckler (one action, 1 left): +3 to every defense until its next turn."
    )
    script(table, d20(12), d20(5))  # the Goblin's attack, Mira's block
    prompt = await table.user("gm").run("/attack target:Mira attacker:Goblin force:true")
    resolved = await prompt.click("Block", as_user="alice")
    assert fields(resolved.embed)["Defense"] == (
        "Block · d20 **5** · Physical +4 · Shield (Buckler) +1 · Guard (Buckler) +3 → **13**\n"
        "Risk 1 · Critical 20"
    )
    bare = await table.user("bob").run("/guard force:true")
    assert bare.ephemeral and bare.content == "Only the GM can force an out-of-turn action."


async def test_a_hidden_npc_is_never_offered_as_a_reactor(fight) -> None:
    """A hidden NPC's Support button showed on a prompt players see, betraying it."""
    table = fight
    await table.user("gm").run("/init add name:Shade hidden:true")
    script(table, d20(9))
    prompt = await table.user("gm").run("/attack target:Mira attacker:Goblin force:true")
    assert "Support" not in labels(prompt) and "Shade" not in prompt.text
    assert labels(prompt) == ["Block", "Dodge", "Break Away", "Sacrifice +3", "Protect"]


async def test_an_essence_runs_out_with_the_round(fight) -> None:
    """An essence of 1 round was not told to run out as the round ended."""
    table = fight
    await table.user("alice").run("/essence use name:Salve kind:salve rounds:1")
    ended = await table.user("gm").run("/init round")
    assert "🧪 Mira's Salve runs out." in ended.content
    assert (await combatant(table, "Mira")).essence is None
