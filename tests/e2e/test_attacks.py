"""/attack and /defend end to end: prompts, buttons, timeouts, restarts, every number shown.

The dice are scripted: just before the command each test lists the faces the bot draws,
in order (attack die, then defense die, then damage dice), each with its die: `d20(10)`
is a d20 showing 10. A face drawn by another die, a face too many or too few fails the
test (tests/scripted.py).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.attacks import resolve_by_default
from bot.rules import encounter as flow
from bot.rules.models import Combatant, Encounter
from bot.sandbox.client import SandboxTable
from bot.sandbox.harness import running_bot
from bot.sandbox.records import StoredMessage
from bot.sandbox.server import LoopbackDiscord
from bot.store import SQLiteStore
from tests.e2e.conftest import tablehand_bot
from tests.e2e.helpers import script
from tests.scripted import ScriptedRandom, d4, d6, d8, d10, d12, d20

pytestmark = pytest.mark.e2e

CHANNEL = "table-1"


async def _set_up(table: SandboxTable) -> SandboxTable:
    table.bot.trackers.interval = 0  # type: ignore[attr-defined]
    await table.user("gm").run("/init start mode:finesse")
    await table.user("gm").run("/init add name:Goblin physical:3 finesse:2")
    await table.user("alice").run("/init join character:Mira physical:4 finesse:3")
    started = await table.user("gm").run("/init next")  # by Finesse: Mira 3, then Goblin 2
    assert not started.ephemeral, started.text
    return table


@pytest.fixture
async def fight(make_table) -> SandboxTable:
    """Round 1 in #table-1, Mira's turn: the GM's Goblin (Physical 3, Finesse 2), alice's Mira (4, 3)."""
    return await _set_up(await make_table())


async def goblins_turn(table: SandboxTable) -> None:
    """End Mira's turn: the Goblin acts."""
    ended = await table.user("alice").run("/init next")
    assert not ended.ephemeral, ended.text


BLIND = "Its dice are rolled and shown with the result."


def blind(prompt: Any) -> str:
    """Return a defense prompt's description, checking it shows no number of the attack."""
    embed = prompt.embed
    assert embed is not None, "no embed"
    assert embed.get("fields", []) == [], "the prompt shows the attack's numbers"
    assert BLIND in embed["description"]
    return embed["description"]


def fields(embed: dict[str, Any] | None) -> dict[str, str]:
    """Return an embed's fields by name."""
    assert embed is not None, "no embed"
    return {f["name"]: f["value"] for f in embed.get("fields", [])}


def channel_id(table: SandboxTable) -> int:
    return table.channel(CHANNEL).id


async def encounter(table: SandboxTable) -> Encounter:
    """Return the channel's committed encounter (under its lock: after any command in flight)."""
    async with table.bot.store.channel(channel_id(table)) as state:  # type: ignore[attr-defined]
        return state.require_encounter().model_copy(deep=True)


async def combatant(table: SandboxTable, name: str) -> Combatant:
    return flow.by_name(await encounter(table), name)


async def change(table: SandboxTable, name: str, **values: Any) -> None:
    """Set a combatant's fields in the stored encounter (what other cogs would do)."""
    async with table.bot.store.channel(channel_id(table)) as state:  # type: ignore[attr-defined]
        target = flow.by_name(state.require_encounter(), name)
        for key, value in values.items():
            setattr(target, key, value)


async def prompt_closed(table: SandboxTable, prompt: StoredMessage) -> StoredMessage:
    """Wait until an answered prompt has lost its buttons."""
    return await table.channel(CHANNEL).wait_for(
        lambda ch: prompt if not prompt.buttons else None, what="the prompt to close"
    )


# One test per style and per defense strategy.


async def test_a_melee_attack_blocked_shows_every_number_and_lowers_grit(fight) -> None:
    """A blocked melee hit did not show d20 10 + Physical 4 = 14 vs d20 3 + 3 = 6 and 3 damage."""
    table = fight
    script(table, d20(10), d20(3), d8(1))  # attack, block, weapon 1d8+2
    prompt = await table.user("alice").run("/attack target:Goblin style:melee damage:1d8+2")
    assert not prompt.ephemeral
    description = blind(prompt)  # the defender chooses without the numbers [GAME.md §10]
    # Neither the die, nor the value 14, nor any total (the deadline's clock may hold a 14).
    assert "d20" not in description and "**14**" not in description and "→" not in description
    assert description.splitlines()[:3] == [
        "Melee. " + BLIND,
        "Goblin, choose a defense: Block, Dodge or Break Away.",
        "Sacrifice an action first for +3 defense this round.",
    ]
    assert "Goblin uses **Block**." in description.splitlines()[3]
    assert [b["label"] for b in prompt.buttons] == ["Block", "Dodge", "Break Away", "Sacrifice +3"]

    resolved = await prompt.click("Block", as_user="gm")
    assert not resolved.ephemeral
    assert resolved.embed["title"] == "Mira attacks Goblin — Hit"
    assert resolved.embed["description"] == "Melee · Block, chosen by Game Master"
    assert fields(resolved.embed) == {
        "Attack": "d20 **10** · Physical +4 → **14**\nRisk 1 · Critical 20",
        "Defense": "Block · d20 **3** · Physical +3 → **6**\nRisk 1 · Critical 20",
        "Outcome": "**14** vs **6** — **hit**",
        "Damage": "Weapon 3 (1d8+2: 1) → **3**",
        "Grit": "Goblin takes 3 damage (Prime d20).",
    }
    assert (await combatant(table, "Goblin")).grit == 27
    # The button's answer turned the prompt itself into the result: one message per attack.
    assert resolved.message.id == prompt.message.id
    closed = await prompt_closed(table, prompt.message)
    assert closed.content == ""  # the result says who chose what, once, under its title


async def test_a_targeted_melee_attack_dodged_subtracts_the_area(fight) -> None:
    """A targeted limbs attack did not use Finesse − 5 against a dodge, with the core face as damage."""
    table = fight
    script(table, d20(12), d20(3))  # attack, dodge; no weapon: the attack face is the damage
    prompt = await table.user("alice").run("/attack target:Goblin style:targeted area:limbs")
    resolved = await prompt.click("Dodge", as_user="gm")
    assert fields(resolved.embed) == {
        "Attack": "d20 **12** · Finesse +3 · Target Limbs -5 → **10**\nRisk 1 · Critical 20",
        "Defense": "Dodge · d20 **3** · Finesse +2 → **5**\nRisk 1 · Critical 20",
        "Outcome": "**10** vs **5** — **hit**",
        "Damage": "Attack roll 12 → **12**",
        "Grit": "Goblin takes 12 damage. Goblin drops to Reduced Grit — now rolls d12.",
    }
    assert (await combatant(table, "Goblin")).grit == 18


async def test_an_unarmed_attack_against_break_away_deals_physical(fight) -> None:
    """An unarmed hit against break away did not deal the attacker's Physical (4)."""
    table = fight
    script(table, d20(10), d20(10))  # attack; break away + the higher of Physical 3 / Finesse 2
    prompt = await table.user("alice").run("/attack target:Goblin style:unarmed")
    resolved = await prompt.click("Break Away", as_user="gm")
    assert fields(resolved.embed) == {
        "Attack": "d20 **10** · Physical +4 → **14**\nRisk 1 · Critical 20",
        "Defense": "Break Away · d20 **10** · Physical +3 → **13**\nRisk 1 · Critical 20",
        "Outcome": "**14** vs **13** — **hit**",
        "Damage": "Physical 4 → **4**",
        "Grit": "Goblin takes 4 damage (Prime d20).",
    }


async def test_a_ranged_attack_against_take_cover_weighs_penetration(fight) -> None:
    """Take cover was not 2 × cover + range with no roll, or penetration 3 > durability 1 took nothing."""
    table = fight
    # 10 spaces = 20 m, beyond Mira's Perception (10 m): she rolls a d12 [002].
    script(table, d12(10), d6(2), d6(5))  # attack; no defense roll; weapon 2d6
    prompt = await table.user("alice").run(
        "/attack target:Goblin style:ranged cover:2 distance:10 penetration:3 "
        "cover_durability:1 modifier:10 damage:2d6"
    )
    assert [b["label"] for b in prompt.buttons] == ["Block", "Dodge", "Take Cover", "Sacrifice +3"]
    resolved = await prompt.click("Take Cover", as_user="gm")
    assert fields(resolved.embed) == {
        "Attack": "d12 **10** · Finesse +3 · Modifier +10 → **23**\n"
        "Risk 1 · Critical 12 · beyond Perception: one die lower",
        "Defense": "Take Cover · Cover ×2 +20 · Range +1 → **21**",
        "Outcome": "**23** vs **21** — **hit**",
        "Damage": "Weapon 7 (2d6: 2, 5) · Durability -1 (penetration 3 > 1) → **6**",
        "Grit": "Goblin takes 6 damage (Prime d20).",
    }


async def test_a_thrown_attack_blocked_by_a_shield_wears_it(fight) -> None:
    """A thrown hit on a shield did not lose 3 to penetration, 2 to durability, and wear the shield."""
    table = fight
    await change(table, "Goblin", durability=2)
    script(table, d20(19), d20(7), d6(5))  # attack, block, weapon 1d6
    prompt = await table.user("alice").run(
        "/attack target:Goblin style:thrown weight:2 distance:2 penetration:3 damage:1d6"
    )
    resolved = await prompt.click("Block", as_user="gm")
    assert fields(resolved.embed) == {
        "Attack": "d20 **19** · Finesse +3 · Penetration -3 → **19**\nRisk 1 · Critical 20",
        "Defense": "Block · d20 **7** · Range +2 → **9**\nRisk 1 · Critical 20",
        "Outcome": "**19** vs **9** — **hit**",
        "Damage": "Weapon 5 (1d6: 5) · Durability -2 (penetration 3 > 2) → **3**",
        "Grit": "Goblin takes 3 damage (Prime d20).",
        "Notes": "Goblin's blocking item loses 1 durability (now 1).",
    }
    assert (await combatant(table, "Goblin")).durability == 1


async def test_a_ranged_attack_dodged_with_advantage_and_extra_dice(fight) -> None:
    """Advantage, bonus and penalty dice and the range against a dodge were not all shown."""
    table = fight
    # attack with advantage (keeps 17), bonus 1d10, penalty 1d4; dodge
    script(table, d20(17), d20(8), d10(4), d4(4), d20(3))
    prompt = await table.user("alice").run(
        '/attack target:Goblin style:ranged distance:5 advantage:advantage bonus:"+1d10 -1d4"'
    )
    resolved = await prompt.click("Dodge", as_user="gm")
    assert fields(resolved.embed) == {
        "Attack": "d20 **17** (advantage: 17, 8) · Bonus 1d10 +4 (4) · Penalty 1d4 -4 (4) "
        "· Finesse +3 → **20**\nRisk 1 · Critical 20",
        "Defense": "Dodge · d20 **3** · Finesse +2 → **5**\nRisk 1 · Critical 20",
        "Outcome": "**20** vs **5** — **hit**",
        "Damage": "Attack roll 17 → **17**",
        "Grit": "Goblin takes 17 damage. Goblin drops to Reduced Grit — now rolls d12.",
    }


async def test_stealth_charge_and_altitude_add_their_damage(fight) -> None:
    """A stealthy charge from altitude 1 did not add +4, 1d10, momentum 2 and double the damage,
    against the Goblin's Perception 10 as a passive defense [002]."""
    table = fight
    script(table, d20(19), d6(2), d10(8))  # attack, weapon 1d6, altitude 1d10; no defense roll
    resolved = await table.user("alice").run(
        "/attack target:Goblin stealth:true charge:6 altitude:1 damage:1d6"
    )
    assert resolved.buttons == []  # nobody chooses against an attack from stealth
    assert resolved.embed["description"] == (
        "Melee · from stealth: the target's Perception is its defense"
    )
    assert fields(resolved.embed) == {
        "Attack": "d20 **19** · Physical +4 · Stealth +4 → **27**\nRisk 1 · Critical 20",
        "Defense": "Perception (passive) · base 10 → **10**",
        "Outcome": "**27** vs **10** — **hit**",
        "Damage": "Weapon 2 (1d6: 2) · Altitude 1 8 (1d10: 8) · Momentum +2 · ×2 melee from stealth "
        "→ **24**",
        "Grit": "Goblin takes 24 damage. Goblin drops to Frail Grit — now rolls d10.",
    }


# Automatic outcomes.


async def test_a_critical_is_asked_blind_then_hits_with_an_extra_die(fight) -> None:
    """A natural 20 settled before the defender chose, or did not add the explosion and a d20."""
    table = fight
    # attack (explodes), its explosion, weapon 1d8, Critical d20
    script(table, d20(20), d20(9), d8(6), d20(17))
    prompt = await table.user("alice").run("/attack target:Goblin damage:1d8 explode:true")
    blind(prompt)  # a Critical looks like any attack until the defense is chosen
    assert [b["label"] for b in prompt.buttons] == ["Block", "Dodge", "Break Away", "Sacrifice +3"]
    resolved = await prompt.click("Dodge", as_user="gm")
    assert resolved.embed["description"] == (
        "Melee · Dodge, chosen by Game Master — no defense roll: a Critical hits automatically"
    )
    assert resolved.embed["title"] == "Mira attacks Goblin — Critical hit"
    assert fields(resolved.embed) == {
        "Attack": "d20 **20** · explodes +9 · Physical +4 → **33**\nRisk 1 · Critical 20",
        "Outcome": "Critical (natural 20) — **automatic hit**",
        "Damage": "Weapon 6 (1d8: 6) · Critical 17 (1d20: 17) → **23**",
        "Grit": "Goblin takes 23 damage. Goblin drops to Frail Grit — now rolls d10.",
    }


async def test_a_risk_failure_misses_after_the_blind_choice_without_a_counter(fight) -> None:
    """A natural 4 against Risk 4 was told before the defense, hit, or offered a counter-attack."""
    table = fight
    script(table, d20(4))  # attack
    prompt = await table.user("alice").run("/attack target:Goblin risk:3")
    blind(prompt)
    resolved = await prompt.click("Block", as_user="gm")
    assert resolved.buttons == []
    assert fields(resolved.embed) == {
        "Attack": "d20 **4** · Physical +4 → **8**\nRisk 4 · Critical 20",
        "Outcome": "Risk failure (natural 4 ≤ Risk 4) — **automatic miss**",
    }
    goblin = await combatant(table, "Goblin")
    assert goblin.grit == 30
    assert (await encounter(table)).counter_offers == []


async def test_a_natural_one_offers_a_free_counter_against_no_defense(fight) -> None:
    """A natural 1 did not offer the GM a Counter that hits Mira's defense of 0 without an action."""
    table = fight
    script(table, d20(1), d20(3))  # Mira's attack, the Goblin's counter
    prompt = await table.user("alice").run("/attack target:Goblin")
    blind(prompt)
    fumble = await prompt.click("Block", as_user="gm")
    assert fields(fumble.embed)["Outcome"] == (
        "Risk failure (natural 1 ≤ Risk 1) — **automatic miss**\n"
        "Natural 1: Goblin may counter-attack now (no action; Mira gets no defense)."
    )
    assert [b["label"] for b in fumble.buttons] == ["Counter"]
    refused = await fumble.click("Counter", as_user="alice")
    assert refused.ephemeral and refused.content == "This is not your counter-attack."

    counter = await fumble.click("Counter", as_user="gm")
    assert counter.embed["title"] == "Goblin counter-attacks Mira — Hit"
    assert fields(counter.embed) == {
        "Attack": "d20 **3** · Physical +3 → **6**\nRisk 1 · Critical 20",
        "Defense": "No defense (counter-attacked) → **0**",
        "Outcome": "**6** vs **0** — **hit**",
        "Damage": "Attack roll 3 → **3**",
        "Grit": "Mira takes 3 damage (Grit 30 → 27).",
    }
    assert (await combatant(table, "Goblin")).actions_left == 2  # a counter costs no action
    await table.channel(CHANNEL).wait_for(lambda ch: not fumble.buttons, what="Counter removed")
    again = await table.user("gm").click(fumble.message, "Counter") if fumble.buttons else None
    assert again is None
    assert (await encounter(table)).counter_offers == []


async def test_a_counter_can_be_made_with_attack_options(fight) -> None:
    """/attack counter:true did not use the open counter with the weapon given, free of actions."""
    table = fight
    script(table, d20(1), d20(3), d6(3))  # Mira's attack, the Goblin's counter, its weapon 1d6
    prompt = await table.user("alice").run("/attack target:Goblin")
    await prompt.click("Block", as_user="gm")
    counter = await table.user("gm").run(  # out of the Goblin's turn: a counter may be
        "/attack target:Mira attacker:Goblin counter:true damage:1d6"
    )
    assert fields(counter.embed)["Damage"] == "Weapon 3 (1d6: 3) → **3**"
    assert (await combatant(table, "Goblin")).actions_left == 2
    second = await table.user("gm").run("/attack target:Mira attacker:Goblin counter:true")
    assert second.ephemeral
    assert second.content == (
        "Goblin has no counter-attack against Mira this round (only a natural 1 opens one)."
    )


async def ambush(make_table) -> SandboxTable:
    """Round zero, Mira's turn: alice's Mira (4, 3) ambushes the GM's Goblin (3, 2)."""
    table = await make_table()
    table.bot.trackers.interval = 0  # type: ignore[attr-defined]
    gm, alice = table.user("gm"), table.user("alice")
    await gm.run("/init start ambush:party mode:finesse")
    await gm.run("/init add name:Goblin physical:3 finesse:2")
    await alice.run("/init join character:Mira physical:4 finesse:3")
    await gm.run("/init next")  # round zero's turns: only the ambushers act
    return table


async def test_an_ambush_hits_a_surprised_defender_at_six_plus_range(make_table) -> None:
    """In round zero a surprised defender was asked, or defended with more than 6 + range."""
    table = await ambush(make_table)
    gm, alice = table.user("gm"), table.user("alice")
    script(table, d12(10))  # attack: 7 spaces (14 m) is beyond Mira's Perception, a d12
    resolved = await alice.run("/attack target:Goblin style:ranged distance:7")
    assert resolved.buttons == []
    assert resolved.embed["description"] == "Ranged · surprised in round zero: defense 6 + range"
    assert fields(resolved.embed) == {
        "Attack": "d12 **10** · Finesse +3 → **13**\n"
        "Risk 1 · Critical 12 · beyond Perception: one die lower",
        "Defense": "Surprised (round zero) · base 6 · Range +1 → **7**",
        "Outcome": "**13** vs **7** — **hit**",
        "Damage": "Attack roll 10 → **10**",
        "Grit": "Goblin takes 10 damage. Goblin drops to Reduced Grit — now rolls d12.",
    }
    refused = await gm.run("/attack target:Mira attacker:Goblin")
    assert refused.ephemeral
    assert refused.content == "Goblin is surprised: in round zero only the ambushers act."


async def test_a_prone_defender_gives_melee_attackers_three(fight) -> None:
    """A melee attack on a prone defender did not get +3."""
    table = fight
    await change(table, "Goblin", prone=True)
    script(table, d20(8), d20(14))  # attack, block
    prompt = await table.user("alice").run("/attack target:Goblin")
    resolved = await prompt.click("Block", as_user="gm")
    assert fields(resolved.embed)["Attack"] == (
        "d20 **8** · Physical +4 · Target prone +3 → **15**\nRisk 1 · Critical 20"
    )
    assert fields(resolved.embed)["Outcome"] == "**15** vs **17** — **miss**"


async def test_a_focused_long_action_gets_no_defense_and_loses_its_progress(fight) -> None:
    """An attack on a focused long action asked for a defense or left its progress."""
    table = fight
    ritual = {"name": "Ritual", "kind": "focused", "rounds": 3, "progress": 2}
    performing = {"text": "Ritual", "kind": "long"}  # declared this round: it performs it [000]
    await change(table, "Goblin", long_action=ritual, declaration=performing)
    script(table, d20(10))  # attack
    resolved = await table.user("alice").run("/attack target:Goblin")
    assert resolved.buttons == []
    assert fields(resolved.embed)["Defense"] == "No defense (focused on a long action) → **0**"
    assert fields(resolved.embed)["Notes"] == (
        "Goblin's focused long action Ritual goes back to 0 (was 2)."
    )
    assert (await combatant(table, "Goblin")).long_action.progress == 0


async def test_sundered_adds_its_dice_to_a_hit(fight) -> None:
    """A hit on a Sundered 3 defender did not add 2d8."""
    table = fight
    applied = await table.user("gm").run("/effect apply combatant:Goblin special:Sundered x:3")
    assert not applied.ephemeral, applied.text
    script(table, d20(3), d20(2), d6(4), d8(4), d8(1))  # attack, block, weapon 1d6, Sundered 2d8
    prompt = await table.user("alice").run("/attack target:Goblin damage:1d6")
    resolved = await prompt.click("Block", as_user="gm")
    assert fields(resolved.embed)["Damage"] == (
        "Weapon 4 (1d6: 4) · Sundered 3 5 (2d8: 4, 1) → **9**"
    )
    assert (await combatant(table, "Goblin")).grit == 21


async def test_hex_adds_only_to_a_spell(fight) -> None:
    """A non-Spell hit on a Hexed defender got Hex's dice, or a Spell hit did not."""
    table = fight
    applied = await table.user("gm").run("/effect apply combatant:Goblin special:Hex x:2")
    assert not applied.ephemeral, applied.text
    script(table, d20(10), d20(3), d8(1), d8(5))  # attack, block, weapon 1d8+2, Hex 2 → 1d8
    prompt = await table.user("alice").run("/attack target:Goblin damage:1d8+2 spell:true")
    resolved = await prompt.click("Block", as_user="gm")
    assert fields(resolved.embed)["Damage"] == "Weapon 3 (1d8+2: 1) · Hex 2 5 (1d8: 5) → **8**"
    script(table, d20(10), d20(3), d8(1))  # the same without Hex's die
    plain = await table.user("alice").run("/attack target:Goblin damage:1d8+2")
    plain_resolved = await plain.click("Block", as_user="gm")
    assert fields(plain_resolved.embed)["Damage"] == "Weapon 3 (1d8+2: 1) → **3**"


# The defender's choice.


async def test_sacrifice_spends_an_action_for_three_defense(fight) -> None:
    """Sacrifice +3 did not spend the Goblin's action, leave the prompt open, or add +3."""
    table = fight
    script(table, d20(14), d20(13))  # attack, block
    prompt = await table.user("alice").run("/attack target:Goblin")
    sacrificed = await prompt.click("Sacrifice +3", as_user="gm")
    assert sacrificed.type == 7  # the prompt is updated in place
    assert [b["label"] for b in prompt.buttons] == ["Block", "Dodge", "Break Away"]
    assert "Goblin sacrifices an action: +3 defense." in prompt.embed["description"]
    assert (await combatant(table, "Goblin")).actions_left == 1
    resolved = await prompt.click("Block", as_user="gm")
    assert resolved.embed["description"] == (
        "Melee · Block, chosen by Game Master, with a sacrificed action (+3)"
    )
    assert fields(resolved.embed)["Defense"] == (
        "Block · d20 **13** · Physical +3 · Sacrifice +3 → **19**\nRisk 1 · Critical 20"
    )
    assert fields(resolved.embed)["Outcome"] == "**18** vs **19** — **miss**"


async def test_defend_answers_the_waiting_attack_without_buttons(fight) -> None:
    """/defend did not resolve the attack waiting on Mira and close its prompt."""
    table = fight
    await goblins_turn(table)
    script(table, d20(10), d20(3))  # the Goblin's attack, Mira's dodge
    prompt = await table.user("gm").run("/attack target:Mira attacker:Goblin")
    assert prompt.message.mentions == [table.user("alice").id]  # only the defender's player
    answered = await table.user("alice").run("/defend strategy:dodge")
    assert answered.ephemeral
    assert answered.content == "**Mira** defends: Dodge. The attack above now shows the result."
    result = await prompt_closed(table, prompt.message)  # the prompt became the result
    assert result.content == ""
    assert result.embeds[0]["description"] == "Melee · Dodge, chosen by Alice"
    assert fields(result.embeds[0])["Outcome"] == "**13** vs **6** — **hit**"
    assert (
        fields(result.embeds[0])["Grit"]
        == "Mira takes 10 damage (Grit 30 → 20). Mira drops to Reduced Grit — now rolls d12."
    )
    nothing = await table.user("alice").run("/defend strategy:block")
    assert nothing.ephemeral and nothing.content == "No attack is waiting for your defense."


async def test_defend_for_someone_elses_combatant_is_refused(fight) -> None:
    """bob could answer the attack on alice's Mira with /defend."""
    table = fight
    await goblins_turn(table)
    script(table, d20(10))  # the Goblin's attack, a plain one that waits for a defense
    await table.user("gm").run("/attack target:Mira attacker:Goblin")
    refused = await table.user("bob").run("/defend strategy:block combatant:Mira")
    assert refused.ephemeral and refused.content == "This is not your defense."
    assert len((await encounter(table)).pending_attacks) == 1


async def test_an_attack_on_someone_who_left_is_called_off(fight) -> None:
    """An attack whose defender left the fight could not be cleared, or still dealt damage."""
    table = fight
    script(table, d20(10))  # attack
    prompt = await table.user("alice").run("/attack target:Goblin")
    await table.user("gm").run("/init remove combatant:Goblin")
    called_off = await prompt.click("Block", as_user="gm")
    assert called_off.ephemeral
    assert called_off.content == "That attack was called off: a combatant in it left the fight."
    assert (await encounter(table)).pending_attacks == []
    closed = await prompt_closed(table, prompt.message)
    assert closed.content == "That attack was called off: a combatant in it left the fight."


async def test_a_defense_timeout_falls_back_to_the_default(fight) -> None:
    """An unanswered attack was not resolved with the Goblin's default (block) at the timeout."""
    table = fight
    set_to = await table.user("admin").run("/settings defense_timeout seconds:5")
    assert not set_to.ephemeral, set_to.text
    table.bot.scheduler.time_scale = 0.01  # type: ignore[attr-defined] # 5 s → 0.05 s
    script(table, d20(7), d20(3))  # attack, the default block
    prompt = await table.user("alice").run("/attack target:Goblin")
    resolved = await prompt_closed(table, prompt.message)  # the prompt became the result
    assert resolved.content == ""
    assert resolved.embeds[0]["description"] == (
        "Melee · Block, the default after 5 s without an answer"
    )
    assert fields(resolved.embeds[0])["Defense"] == (
        "Block · d20 **3** · Physical +3 → **6**\nRisk 1 · Critical 20"
    )
    assert fields(resolved.embeds[0])["Grit"] == "Goblin takes 7 damage (Prime d20)."
    await prompt_closed(table, prompt.message)
    late = await prompt.click("Dodge", as_user="gm") if prompt.buttons else None
    assert late is None
    assert (await encounter(table)).pending_attacks == []


async def test_a_button_and_the_timeout_racing_resolve_once(fight) -> None:
    """A click and the timeout together resolved one attack twice."""
    table = fight
    script(table, d20(10), d20(3), d8(1))  # attack, block (once), weapon 1d8+2
    prompt = await table.user("alice").run("/attack target:Goblin damage:1d8+2")
    attack_id = (await encounter(table)).pending_attacks[0].id
    click, _ = await asyncio.gather(
        prompt.click("Block", as_user="gm"),
        resolve_by_default(table.bot, channel_id(table), attack_id),  # type: ignore[arg-type]
    )
    await table.wait_idle()
    results = [
        m
        for m in table.channel(CHANNEL).public_messages
        if m.embeds and m.embeds[0].get("title") == "Mira attacks Goblin — Hit"
    ]
    assert len(results) == 1
    assert (await combatant(table, "Goblin")).grit == 27
    # Whichever came second found nothing to do; a click that lost is told so privately.
    assert click.ephemeral == (results[0] is not click.message)
    if click.ephemeral:
        assert click.content == "That attack has already been resolved."


async def test_a_non_defender_pressing_a_defense_button_is_refused(fight) -> None:
    """A player pressing the GM's defense got anything but a private refusal, or changed something."""
    table = fight
    script(table, d20(10))  # attack
    prompt = await table.user("alice").run("/attack target:Goblin")
    before = (await encounter(table)).model_dump()
    for user in ("alice", "bob"):
        refused = await prompt.click("Block", as_user=user)
        assert refused.ephemeral and refused.content == "This is not your defense."
    assert (await encounter(table)).model_dump() == before
    assert len(prompt.buttons) == 4  # still open


async def test_the_attack_spends_an_action_and_the_tracker_shows_it(fight) -> None:
    """An attack did not spend one of Mira's actions, or the tracker did not show it."""
    table = fight
    script(table, d20(10))  # attack
    await table.user("alice").run("/attack target:Goblin")
    assert (await combatant(table, "Mira")).actions_left == 1
    await table.bot.trackers.settled()  # type: ignore[attr-defined]
    tracker = table.channel(CHANNEL).pinned_messages[0].embeds[0]["description"]
    mira_line = next(line for line in tracker.splitlines() if "Mira" in line)
    assert "●○" in mira_line


async def test_the_round_log_holds_the_attack_and_its_damage(fight) -> None:
    """The round's log did not list the attack's outcome and the Grit it cost."""
    table = fight
    script(table, d20(10), d20(3), d8(1))  # attack, block, weapon 1d8+2
    prompt = await table.user("alice").run("/attack target:Goblin damage:1d8+2")
    await prompt.click("Block", as_user="gm")
    async with table.bot.store.channel(channel_id(table)) as state:  # type: ignore[attr-defined]
        lines = [e.line for e in await state.round_log(1)]
    assert lines[-2:] == [
        "Mira attacks Goblin (melee): 14 vs 6, hit for 3.",
        "Goblin takes 3 damage (Prime d20).",
    ]


async def test_a_hidden_npc_that_attacks_is_revealed(fight) -> None:
    """A hidden NPC attacked unseen, without its stealth bonus against Perception, or stayed hidden."""
    table = fight
    await table.user("gm").run("/init add name:Shade physical:2 hidden:true")
    script(table, d20(10))  # attack; Mira's Perception 10 is a passive defense [002]
    resolved = await table.user("gm").run("/attack target:Mira attacker:Shade force:true")
    assert resolved.buttons == []
    assert fields(resolved.embed)["Attack"] == (
        "d20 **10** · Physical +2 · Stealth +4 → **16**\nRisk 1 · Critical 20"
    )
    assert fields(resolved.embed)["Defense"] == "Perception (passive) · base 10 → **10**"
    assert fields(resolved.embed)["Notes"] == (
        "Shade attacks from hiding and is revealed.\nOut of turn: forced by the GM."
    )
    assert not (await combatant(table, "Shade")).hidden


# Bad input: a clear private refusal that changes nothing.


@pytest.mark.parametrize(
    ("user", "command", "message"),
    [
        ("alice", "/attack target:Mira", "Mira cannot attack themself."),
        ("alice", "/attack target:Orc", "No combatant named 'Orc' in this encounter."),
        (
            "gm",
            "/attack target:Mira attacker:Wreck",
            "Wreck is Broken and cannot act until Grit is restored.",
        ),
        (
            "alice",
            "/attack target:Goblin damage:1d8+",
            "That dice expression ends too early; try something like 2d6+3.",
        ),
        (
            "alice",
            "/attack target:Goblin damage:1001d6",
            "A roll can use at most 1000 dice (this one asks for 1001).",
        ),
        (
            "alice",
            "/attack target:Goblin style:thrown",
            "A thrown attack needs the weapon's weight (its range is Physical ÷ weight).",
        ),
        (
            "alice",
            "/attack target:Goblin style:melee area:head",
            "A target size is for targeted melee; use special targeting for ranged.",
        ),
        (
            "alice",
            "/attack target:Goblin cover:2",
            "Cover counts against ranged and thrown attacks only.",
        ),
        (
            "bob",
            "/attack target:Goblin attacker:Mira",
            "Mira is another player's combatant; you cannot act for it.",
        ),
    ],
)
async def test_a_refused_attack_changes_nothing(
    fight, user: str, command: str, message: str
) -> None:
    """A bad /attack was not refused privately with its reason, or it changed the encounter."""
    table = fight
    await table.user("gm").run("/init add name:Wreck grit:0")
    await table.user("gm").run("/init start", channel="table-2")
    await table.user("gm").run("/init add name:Orc", channel="table-2")
    before = (await encounter(table)).model_dump()
    public = len(table.channel(CHANNEL).public_messages)
    refused = await table.user(user).run(command)
    assert refused.ephemeral
    assert refused.content == message
    assert (await encounter(table)).model_dump() == before
    assert len(table.channel(CHANNEL).public_messages) == public


async def test_an_attacker_without_actions_is_refused(fight) -> None:
    """A third attack in a round was allowed, or its refusal changed something."""
    table = fight
    script(table, d20(10), d20(3))  # two attacks, each waiting for a defense
    for _ in range(2):
        await table.user("alice").run("/attack target:Goblin")
    before = (await encounter(table)).model_dump()
    refused = await table.user("alice").run("/attack target:Goblin")
    assert refused.ephemeral
    assert refused.content == "Mira has no actions left this round."
    assert (await encounter(table)).model_dump() == before
    assert len(before["pending_attacks"]) == 2


# Restarts.


async def test_a_restart_between_attack_and_defense_keeps_the_buttons_working(
    server: LoopbackDiscord, tmp_path: Path
) -> None:
    """After a restart the old prompt's Block button did not resolve the stored attack."""
    table = SandboxTable(server)
    before = ScriptedRandom([d20(19)])  # attack
    async with running_bot(server, tablehand_bot(server, tmp_path, rng=before)) as bot:
        table.bot = bot  # type: ignore[attr-defined]
        await _set_up(table)
        prompt = await table.user("alice").run("/attack target:Goblin damage:1d10")
        assert len((await encounter(table)).pending_attacks) == 1  # committed before the stop
    before.done()
    after = ScriptedRandom([d20(11), d10(3)])  # dodge, weapon 1d10
    async with running_bot(server, tablehand_bot(server, tmp_path, rng=after)) as bot:
        table.bot = bot  # type: ignore[attr-defined]
        resolved = await prompt.click("Dodge", as_user="gm")
        assert fields(resolved.embed) == {
            "Attack": "d20 **19** · Physical +4 → **23**\nRisk 1 · Critical 20",
            "Defense": "Dodge · d20 **11** · Finesse +2 → **13**\nRisk 1 · Critical 20",
            "Outcome": "**23** vs **13** — **hit**",
            "Damage": "Weapon 3 (1d10: 3) → **3**",
            "Grit": "Goblin takes 3 damage (Prime d20).",
        }
        await prompt_closed(table, prompt.message)
    after.done()


async def test_an_attack_overdue_after_a_restart_resolves_at_once(
    server: LoopbackDiscord, tmp_path: Path
) -> None:
    """An attack whose timeout passed while the bot was down was not resolved after start-up."""
    table = SandboxTable(server)
    before = ScriptedRandom([d20(19)])  # attack
    async with running_bot(server, tablehand_bot(server, tmp_path, rng=before)) as bot:
        table.bot = bot  # type: ignore[attr-defined]
        await _set_up(table)
        prompt = await table.user("alice").run("/attack target:Goblin")
        assert len((await encounter(table)).pending_attacks) == 1  # committed before the stop
    before.done()
    async with (
        SQLiteStore(tmp_path / "tablehand.db") as store,
        store.channel(table.channel(CHANNEL).id) as state,
    ):
        state.require_encounter().pending_attacks[0].due_at = 0.0  # overdue
    after = ScriptedRandom([d20(15)])  # the default block, at start-up
    async with running_bot(server, tablehand_bot(server, tmp_path, rng=after)) as bot:
        table.bot = bot  # type: ignore[attr-defined]
        # Resolved at start-up with the default block; no weapon: the damage is the face 19.
        resolved = await prompt_closed(table, prompt.message)  # the prompt became the result
        assert "default" in resolved.embeds[0]["description"]
        assert fields(resolved.embeds[0]) == {
            "Attack": "d20 **19** · Physical +4 → **23**\nRisk 1 · Critical 20",
            "Defense": "Block · d20 **15** · Physical +3 → **18**\nRisk 1 · Critical 20",
            "Outcome": "**23** vs **18** — **hit**",
            "Damage": "Attack roll 19 → **19**",
            "Grit": "Goblin takes 19 damage. Goblin drops to Reduced Grit — now rolls d12.",
        }
        await prompt_closed(table, prompt.message)
    after.done()


async def test_an_attack_prompt_costs_one_rest_call(fast) -> None:
    """Posting a defense prompt asked Discord again for the message its callback had named."""
    table = fast
    gm, alice = table.user("gm"), table.user("alice")
    await gm.run("/init start mode:finesse")
    await gm.run("/init add name:Goblin")
    await alice.run("/init join character:Mira finesse:1")
    await gm.run("/init next")
    script(table, d20(8))  # attack: a prompt
    prompt = await alice.run("/attack target:Goblin")
    assert prompt.buttons, prompt.text  # the defender must choose: a prompt, not a result
    calls = [
        c.route for c in prompt.rest_calls if c.route.startswith(("/interactions", "/webhooks"))
    ]
    assert calls == ["/interactions/{interaction_id}/{interaction_token}/callback"], calls


async def test_a_defense_button_answers_through_its_click_not_a_channel_edit(fight) -> None:
    """Answering a prompt's button spent a channel message edit, which the tracker needs."""
    table = fight
    script(table, d20(10), d20(3), d8(1))  # attack, block, weapon 1d8+2
    prompt = await table.user("alice").run("/attack target:Goblin style:melee damage:1d8+2")
    mark = len(table.server.calls)
    resolved = await prompt.click("Block", as_user="gm")
    await table.bot.trackers.settled()  # type: ignore[attr-defined]
    prompt_edits = [
        c
        for c in table.server.calls[mark:]
        if c.method == "PATCH" and c.path.endswith(f"/messages/{prompt.message.id}")
    ]
    assert prompt_edits == []
    assert resolved.type == 7  # the click's answer updated the prompt in place
    assert resolved.embed["title"] == "Mira attacks Goblin — Hit"


async def test_a_defense_result_looks_the_same_however_it_was_chosen(fight) -> None:
    """A result read differently by button, /defend or timeout, or said "chosen by" twice."""
    table = fight
    gm, alice = table.user("gm"), table.user("alice")
    await table.user("admin").run("/settings defense_timeout seconds:5")
    await gm.run("/init add name:Orc physical:2 count:3")
    results = []
    for n, how in enumerate(("button", "command", "timeout"), start=1):
        script(table, d20(10), d20(3))  # the Orc's attack, Mira's block
        if how == "timeout":
            table.bot.scheduler.time_scale = 0.01  # type: ignore[attr-defined] # 5 s → 0.05 s
        prompt = await gm.run(f'/attack target:Mira attacker:"Orc {n}" damage:1 force:true')
        if how == "button":
            await prompt.click("Block", as_user=alice)
        elif how == "command":
            await alice.run("/defend strategy:block")
        results.append(await prompt_closed(table, prompt.message))
    said = {
        "button": "Melee · Block, chosen by Alice",
        "command": "Melee · Block, chosen by Alice",
        "timeout": "Melee · Block, the default after 5 s without an answer",
    }
    for n, (result, how) in enumerate(zip(results, said, strict=True), start=1):
        assert result.content == "" and result.buttons == [], how
        assert result.embeds[0]["title"] == f"Orc {n} attacks Mira — Hit", how
        assert result.embeds[0]["description"] == said[how], how
        assert table.render(result).count("chosen by") == (0 if how == "timeout" else 1), how
        assert fields(result.embeds[0])["Outcome"] == "**12** vs **7** — **hit**", how
    # The prompt became the result each time: no result was posted as a message of its own.
    hits = [
        m for m in table.channel(CHANNEL).messages if m.embeds and "Hit" in m.embeds[0]["title"]
    ]
    assert [m.id for m in hits] == [m.id for m in results]
