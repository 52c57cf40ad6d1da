"""/roll and /check end to end: free dice with the limits, `core`, challenge levels, time.

The dice are exact: each test scripts the faces the bot draws (`script(table, d20(8))`).
"""

from __future__ import annotations

import pytest

from bot.rules.models import Character
from bot.sandbox.client import SandboxTable
from tests.e2e.helpers import script, unmentioned
from tests.scripted import d6, d10, d12, d20, d1000

pytestmark = pytest.mark.e2e


@pytest.fixture
async def fight(make_table) -> SandboxTable:
    """#table-1 with the GM's Goblin and alice's Mira (Grit 30: d20), on Mira's turn."""
    table = await make_table()
    await table.user("gm").run("/init start mode:finesse")
    await table.user("gm").run("/init add name:Goblin grit:15")
    await table.user("alice").run("/init join character:Mira physical:4 finesse:3")
    await table.user("gm").run("/init next")  # by Finesse: Mira acts
    return table


# /roll


async def test_roll_shows_every_die_and_the_total(fight) -> None:
    """/roll 2d6+3 did not show both faces and the total, publicly."""
    script(fight, d6(2), d6(5))
    rolled = await fight.user("bob").run("/roll expression:2d6+3")
    assert not rolled.ephemeral
    assert rolled.content == "🎲 **Bob** rolls 2d6 (2, 5) + 3 = `10`"


async def test_roll_takes_a_label_after_the_dice(fight) -> None:
    """/roll 1d20+5 attack was refused as bad dice instead of rolled with its label."""
    script(fight, d20(13), d20(4), d20(9))
    rolled = await fight.user("bob").run("/roll", expression="1d20+5 attack")
    assert rolled.content == "🎲 **Bob** rolls for attack: 1d20 (13) + 5 = `18`"
    spaced = await fight.user("bob").run("/roll", expression="1d20 + 2 to hit the *goblin*")
    assert spaced.content == "🎲 **Bob** rolls for to hit the \\*goblin\\*: 1d20 (4) + 2 = `6`"
    core = await fight.user("alice").run("/roll", expression="core+1 sneak past")
    assert core.content == "🎲 **Alice** rolls for sneak past: 1d20 (9) + 1 = `10` (core = d20)"


async def test_roll_keeps_the_highest_dice(fight) -> None:
    """/roll 4d6kh3 did not strike the dropped die."""
    script(fight, d6(2), d6(5), d6(5), d6(2))
    rolled = await fight.user("bob").run("/roll expression:4d6kh3")
    assert rolled.content == "🎲 **Bob** rolls 4d6kh3 (2, 5, 5, ~~2~~) = `12`"


async def test_core_is_the_callers_combatant_die(fight) -> None:
    """`core` was not the caller's combatant's die (Mira: d20)."""
    script(fight, d20(10))
    rolled = await fight.user("alice").run("/roll expression:core+2")
    assert rolled.content == "🎲 **Alice** rolls 1d20 (10) + 2 = `12` (core = d20)"


async def test_core_follows_grit_down(fight) -> None:
    """`core` did not become a d12 once Mira's Grit fell to Reduced."""
    async with fight.bot.store.channel(fight.channel("table-1").id) as state:  # type: ignore[attr-defined]
        state.require_encounter().combatants[1].grit = 15
    script(fight, d12(12))
    rolled = await fight.user("alice").run("/roll expression:core")
    assert (
        rolled.content == "🎲 **Alice** rolls 1d12 (**12**) = `12` (core = d12)"
    )  # d20 marks a top face


async def test_core_outside_a_fight_is_the_active_characters_die(fight) -> None:
    """Outside a fight, `core` did not use bob's active character's die (Frail: d10)."""
    store = fight.bot.store  # type: ignore[attr-defined]
    guild, bob = fight.server.guild.id, fight.user("bob")
    brom = await store.create_character(
        Character(guild_id=guild, owner_id=bob.id, name="Brom", grit=7)
    )
    await store.set_active_character(guild, bob.id, brom.id)
    script(fight, d10(4))
    rolled = await bob.run("/roll expression:core", channel="table-2")
    assert rolled.content == "🎲 **Bob** rolls 1d10 (4) = `4` (core = d10)"


async def test_core_without_a_combatant_or_character_is_refused(fight) -> None:
    """`core` for someone with no combatant and no character was not refused clearly."""
    rolled = await fight.user("bob").run("/roll expression:core+1")
    assert rolled.ephemeral
    assert unmentioned(rolled.content) == (
        "`core` is your core die: join this channel's fight (/init join) "
        "or choose an active character (/character use)."
    )


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("1001d6", "A roll can use at most 1000 dice (this one asks for 1001)."),
        ("1d1001", "A die can have at most 1000 sides (got d1001)."),
        ("2d6+", "That dice expression ends too early; try something like 2d6+3."),
        ("hello", "That dice expression can't be read at column 1 (near 'h')."),
    ],
)
async def test_a_bad_expression_is_refused_privately(fight, expression: str, message: str) -> None:
    """A malformed or oversized expression was rolled, or refused without its reason."""
    public = len(fight.channel("table-1").public_messages)
    rolled = await fight.user("bob").run(f"/roll expression:{expression}")
    assert rolled.ephemeral
    assert rolled.content == message
    assert len(fight.channel("table-1").public_messages) == public


# /check


async def test_a_check_taking_twice_as_long_adds_three(fight) -> None:
    """A Fair check taking double time did not add +3 to d20 8 + trait 3."""
    script(fight, d20(8))
    checked = await fight.user("alice").run("/check trait:3 difficulty:9 time:double")
    assert not checked.ephemeral
    assert checked.content == (
        "🎯 **Mira** checks against Fair 9: d20 **8** · Trait +3 · Time ×2 +3 → **14** — **success**"
    )


async def test_a_rushed_check_raises_the_level(fight) -> None:
    """A Fair check in half the time did not have to reach 12."""
    script(fight, d20(8))
    checked = await fight.user("alice").run("/check trait:3 difficulty:9 time:half")
    assert checked.content == (
        "🎯 **Mira** checks against 12 (Fair 9 +3 half time): d20 **8** · Trait +3 "
        "→ **11** — **failure**"
    )


async def test_a_natural_one_fails_a_check(fight) -> None:
    """A natural 1 on a Trivial check with a big trait did not fail on Risk."""
    script(fight, d20(1))
    checked = await fight.user("alice").run("/check trait:20 difficulty:3 modifier:2")
    assert checked.content == (
        "🎯 **Mira** checks against Trivial 3: d20 **1** · Trait +20 · Modifier +2 → **23** — "
        "Risk failure (natural 1 ≤ Risk 1) — **failure**"
    )


async def test_the_gm_checks_for_an_npc_with_its_die(fight) -> None:
    """The GM's check for the Goblin (Grit 15) did not roll a d12, or its Critical passed a level
    its total of 12 cannot reach [GAME.md §6, bot]."""
    script(fight, d12(12))
    checked = await fight.user("gm").run("/check trait:0 difficulty:21 combatant:Goblin")
    assert checked.content == (
        "🎯 **Goblin** checks against Inconceivable 21: d12 **12** · Trait +0 → **12** — "
        "Critical (natural 12), but the total falls short — **failure**"
    )


async def test_a_player_cannot_check_for_another(fight) -> None:
    """bob could roll a check for the GM's Goblin."""
    checked = await fight.user("bob").run("/check trait:0 difficulty:3 combatant:Goblin")
    assert checked.ephemeral
    assert checked.content == "Goblin is the GM's combatant; you cannot act for it."


async def test_a_check_needs_someone_to_roll(fight) -> None:
    """A check by someone with no combatant and no character was not refused clearly."""
    checked = await fight.user("bob").run("/check trait:2 difficulty:9")
    assert checked.ephemeral
    assert unmentioned(checked.content) == (
        "A check rolls your core die: join this channel's fight (/init join) "
        "or choose an active character (/character use)."
    )


# The work a roll may cost [bot]: one roll must not stall every table.

SELECTOR_BOMB = "1000d1000" + "k>0" * 63  # 198 characters: 63 conditions × 1000 dice
BOMB_REFUSAL = (
    "A roll's conditions (keep, drop, reroll, explode, min, max) can check at most 10,000 "
    "dice in all; this one could check 63,000. Use fewer dice or fewer conditions."
)


async def test_a_roll_of_too_much_work_is_refused_before_rolling(fight) -> None:
    """/roll 1000d1000 with 63 × k>0 (198 characters) was rolled (it froze the bot ~20 s)."""
    public = len(fight.channel("table-1").public_messages)
    rolled = await fight.user("bob").run(f"/roll expression:{SELECTOR_BOMB}")
    assert rolled.ephemeral
    assert rolled.content == BOMB_REFUSAL
    assert len(fight.channel("table-1").public_messages) == public


async def test_a_big_keep_within_the_work_bound_still_rolls(fight) -> None:
    """/roll 1000d6kh3 (each of 1,000 dice checked once) was refused."""
    script(fight, *[d6(1)] * 997, d6(6), d6(5), d6(6))  # the best three: 6 + 5 + 6
    rolled = await fight.user("bob").run("/roll expression:1000d6kh3")
    assert not rolled.ephemeral
    assert rolled.content == "🎲 **Bob** rolls 1000d6kh3 = `17` (1000 dice, too many to list)"


async def test_grit_damage_of_too_much_work_is_refused_and_changes_nothing(fight) -> None:
    """/grit damage with the selector bomb as amount was rolled, or changed the Goblin's Grit."""
    before = await goblin_grit(fight)
    reply = await fight.user("gm").run(f"/grit damage combatant:Goblin amount:{SELECTOR_BOMB}")
    assert reply.ephemeral
    assert reply.content == BOMB_REFUSAL
    assert await goblin_grit(fight) == before


async def test_attack_damage_of_too_much_work_is_refused_when_declared(fight) -> None:
    """/attack with the selector bomb as damage was accepted (it froze the bot on the click)."""
    public = len(fight.channel("table-1").public_messages)
    reply = await fight.user("alice").run(f"/attack target:Goblin damage:{SELECTOR_BOMB}")
    assert reply.ephemeral
    assert reply.content == BOMB_REFUSAL
    assert len(fight.channel("table-1").public_messages) == public


async def goblin_grit(table: SandboxTable) -> int:
    """Return the Goblin's committed Grit."""
    async with table.bot.store.channel(table.channel("table-1").id) as state:  # type: ignore[attr-defined]
        return next(c.grit for c in state.require_encounter().combatants if c.name == "Goblin")


async def test_an_attack_with_a_thousand_bonus_dice_shows_their_total(fight) -> None:
    """/attack bonus:+1000d1000 was answered with the apology: its faces overflowed a field."""
    # Mira's attack; a thousand bonus dice; the Goblin's block (Grit 15: a d12)
    script(fight, d20(10), *[d1000(2)] * 1000, d12(3))
    prompt = await fight.user("alice").run("/attack target:Goblin bonus:+1000d1000")
    assert not prompt.ephemeral, prompt.content
    resolved = await prompt.click("Block", as_user="gm")  # the numbers come with the result
    attack = next(f["value"] for f in resolved.embed["fields"] if f["name"] == "Attack")
    assert len(attack) <= 1024
    assert " · Bonus 1000d1000 +2000 · Physical +4" in attack, attack


async def test_bonus_and_penalty_dice_are_one_rolls_thousand_dice_at_most(fight) -> None:
    """/attack with ten bonus terms of 1000 dice rolled 10,000 dice (GAME.md §3: 1000)."""
    public = len(fight.channel("table-1").public_messages)
    reply = await fight.user("alice").run("/attack target:Goblin bonus:" + "+1000d1000" * 10)
    assert reply.ephemeral
    assert (
        reply.content == "Bonus and penalty dice can be at most 1000 in all (these ask for 10000)."
    )
    assert len(fight.channel("table-1").public_messages) == public
