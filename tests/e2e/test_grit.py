"""/grit end to end: level boundaries, dice amounts, who may change what, bad input."""

from __future__ import annotations

import pytest

from bot.rules.models import Character, Combatant
from bot.sandbox.client import InteractionResult, SandboxTable, SandboxUser
from tests.e2e.helpers import script, unmentioned
from tests.scripted import d4, d6, d12, d1000

pytestmark = pytest.mark.e2e


# Helpers ----------------------------------------------------------------------------------


async def fight(table: SandboxTable, goblin_grit: int = 30, *, goblin_hidden: bool = False) -> None:
    """Open a finesse-mode fight in table-1: Orc (Finesse 2) acts before Goblin (Finesse 1)."""
    gm = table.user("gm")
    await gm.run("/init start mode:finesse")
    await gm.run("/init add name:Orc finesse:2")
    hidden = " hidden:true" if goblin_hidden else ""
    await gm.run(f"/init add name:Goblin finesse:1 grit:{goblin_grit} max_grit:30{hidden}")


async def combatant(table: SandboxTable, name: str, channel: str = "table-1") -> Combatant:
    """Read a combatant as stored now."""
    encounter = await table.bot.store.peek(table.channel(channel).id)  # type: ignore[attr-defined]
    assert encounter is not None
    return next(c for c in encounter.combatants if c.name == name)


async def sheet(table: SandboxTable, owner: str, name: str) -> Character:
    """Read a character's sheet as stored now."""
    guild_id = table.server.guild.id
    found = await table.bot.store.get_character(guild_id, table.user(owner).id, name)  # type: ignore[attr-defined]
    assert found is not None
    return found


async def round_log(table: SandboxTable, round_number: int) -> list[str]:
    """Return the stored action log of one round in table-1."""
    store = table.bot.store  # type: ignore[attr-defined]
    async with store.channel(table.channel().id) as state:
        return [entry.line for entry in await state.round_log(round_number)]


async def goblin_turn(gm: SandboxUser) -> str:
    """Advance with /init next until Goblin's turn starts or is skipped; return that line."""
    for _ in range(6):
        reply = await gm.run("/init next")
        for line in reply.content.splitlines():
            if line.startswith(("**Goblin**'s turn", "Goblin is Broken")):
                return line
    raise AssertionError("Goblin's turn never came")


def public_count(table: SandboxTable, text: str) -> int:
    """Count how often a line appears in the public messages' text (not embeds) of table-1."""
    return sum(m.content.count(text) for m in table.channel().public_messages)


def assert_refused(reply: InteractionResult, message: str) -> None:
    """The reply is the one-line ephemeral error `message` (its commands shown by name)."""
    assert reply.ephemeral
    assert unmentioned(reply.content) == message
    assert "\n" not in reply.content


# Level boundaries ---------------------------------------------------------------------------

BOUNDARIES = [
    pytest.param(
        21,
        "damage",
        "1",
        "Goblin takes 1 damage. Goblin drops to Reduced Grit — now rolls d12.",
        "Goblin drops to Reduced Grit — now rolls d12.",
        "**Goblin**'s turn — rolls d20, 2 actions",
        "**Goblin**'s turn — rolls d12, 2 actions",
        id="21-to-20",
    ),
    pytest.param(
        11,
        "damage",
        "1",
        "Goblin takes 1 damage. Goblin drops to Frail Grit — now rolls d10.",
        "Goblin drops to Frail Grit — now rolls d10.",
        "**Goblin**'s turn — rolls d12, 2 actions",
        "**Goblin**'s turn — rolls d10, 2 actions",
        id="11-to-10",
    ),
    pytest.param(
        1,
        "damage",
        "1",
        "Goblin takes 1 damage. Goblin is Broken and cannot act. An Injury is recorded.",
        "Goblin is Broken and cannot act.",
        "**Goblin**'s turn — rolls d10, 2 actions",
        "Goblin is Broken — turn skipped.",
        id="1-to-0",
    ),
    pytest.param(
        0,
        "heal",
        "5",
        "Goblin heals 5. Goblin is back on their feet at Frail — rolls d10.",
        "Goblin is back on their feet at Frail — rolls d10.",
        "Goblin is Broken — turn skipped.",
        "**Goblin**'s turn — rolls d10, 2 actions",
        id="0-to-5",
    ),
]


@pytest.mark.parametrize(
    ("start", "command", "amount", "reply_text", "level_line", "turn_before", "turn_after"),
    BOUNDARIES,
)
async def test_crossing_a_boundary_announces_once_and_changes_the_next_die(
    table: SandboxTable,
    start: int,
    command: str,
    amount: str,
    reply_text: str,
    level_line: str,
    turn_before: str,
    turn_after: str,
) -> None:
    """Crossing a Grit boundary is announced once, publicly, and the next turn rolls the new die."""
    gm = table.user("gm")
    await fight(table, goblin_grit=start)
    assert await goblin_turn(gm) == turn_before
    reply = await gm.run(f"/grit {command} combatant:Goblin amount:{amount}")
    assert not reply.ephemeral
    assert reply.content == reply_text
    assert await goblin_turn(gm) == turn_after
    assert public_count(table, level_line) == 1


async def test_roll_core_rolls_the_die_of_the_new_level(table: SandboxTable) -> None:
    """After the active character drops from 21 to 20, /roll core rolls a d12 instead of a d20."""
    alice = table.user("alice")
    await alice.run("/character create name:Mira grit:21")
    before = await alice.run("/roll core")
    assert before.content.endswith("(core = d20)")
    await alice.run("/grit damage combatant:Mira amount:1")
    script(table, d12(8))
    after = await alice.run("/roll core")
    assert after.content == "🎲 **Alice** rolls 1d12 (8) = `8` (core = d12)"


async def test_healed_before_its_turn_a_broken_combatant_acts_this_round(
    table: SandboxTable,
) -> None:
    """Broken when the round opened and healed before its turn, it takes the turn with 2 actions."""
    gm = table.user("gm")
    await fight(table, goblin_grit=0)
    await gm.run("/grit heal combatant:Goblin amount:3")
    assert await goblin_turn(gm) == "**Goblin**'s turn — rolls d10, 2 actions"


async def test_damage_within_a_level_announces_no_level_change(table: SandboxTable) -> None:
    """Damage that stays within Prime says only the numbers."""
    await fight(table)
    reply = await table.user("gm").run("/grit damage combatant:Goblin amount:9")
    assert reply.content == "Goblin takes 9 damage (Prime d20)."


async def test_a_dice_amount_is_rolled_with_the_bots_random(table: SandboxTable) -> None:
    """`2d6+1` is rolled from the bot's Random; the reply shows the dice and the change."""
    await fight(table)
    script(table, d6(3), d6(2))
    reply = await table.user("gm").run("/grit damage combatant:Goblin amount:2d6+1")
    assert reply.content == "🎲 2d6 (3, 2) + 1 = `6`\nGoblin takes 6 damage (Prime d20)."
    assert (await combatant(table, "Goblin")).grit == 24


async def test_damage_stops_at_zero_and_records_one_injury(table: SandboxTable) -> None:
    """Damage beyond the Grit left leaves 0 and records one Injury."""
    await fight(table, goblin_grit=4)
    reply = await table.user("gm").run("/grit damage combatant:Goblin amount:50")
    assert reply.content == (
        "Goblin takes 50 damage. Goblin is Broken and cannot act. An Injury is recorded."
    )
    goblin = await combatant(table, "Goblin")
    assert (goblin.grit, goblin.injuries) == (0, 1)


async def test_healing_stops_at_the_maximum(table: SandboxTable) -> None:
    """Healing beyond the maximum leaves Grit at the maximum."""
    await fight(table, goblin_grit=25)
    reply = await table.user("gm").run("/grit heal combatant:Goblin amount:10")
    assert reply.content == "Goblin heals 10 (Prime d20)."
    assert (await combatant(table, "Goblin")).grit == 30


async def test_a_grit_change_goes_into_the_rounds_log(table: SandboxTable) -> None:
    """The change's line, level change included, is written to the round's log."""
    await fight(table, goblin_grit=21)
    await table.user("gm").run("/grit damage combatant:Goblin amount:3")
    assert (await round_log(table, 1))[-1] == (
        "Goblin takes 3 damage. Goblin drops to Reduced Grit — now rolls d12."
    )


async def test_set_changes_grit_and_maximum_at_once(table: SandboxTable) -> None:
    """/grit set with max sets both and announces the level crossed."""
    await fight(table)
    reply = await table.user("gm").run("/grit set combatant:Goblin value:12 max:40")
    assert reply.content == ("Goblin's Grit is set. Goblin drops to Reduced Grit — now rolls d12.")
    goblin = await combatant(table, "Goblin")
    assert (goblin.grit, goblin.max_grit) == (12, 40)


async def test_the_modifier_shifts_the_next_turns_die(table: SandboxTable) -> None:
    """/grit modifier levels:1 makes a Prime combatant's next turn roll d12."""
    gm = table.user("gm")
    await fight(table)
    reply = await gm.run("/grit modifier combatant:Goblin levels:1")
    assert reply.content == "Goblin's die shifts one level down — now rolls d12 (from d20)."
    assert await goblin_turn(gm) == "**Goblin**'s turn — rolls d12, 2 actions"


async def test_the_modifier_is_cleared_with_zero_levels(table: SandboxTable) -> None:
    """/grit modifier levels:0 restores the die its Grit gives."""
    gm = table.user("gm")
    await fight(table)
    await gm.run("/grit modifier combatant:Goblin levels:2")
    reply = await gm.run("/grit modifier combatant:Goblin levels:0")
    assert reply.content == "Goblin's die modifier is cleared — rolls d20."
    assert (await combatant(table, "Goblin")).die_shift == 0


async def test_a_hidden_npcs_change_is_told_to_the_gm_alone(table: SandboxTable) -> None:
    """Damage to a hidden NPC is an ephemeral reply and stays out of the log."""
    await fight(table, goblin_hidden=True)
    reply = await table.user("gm").run("/grit damage combatant:Goblin amount:5")
    assert reply.ephemeral
    assert reply.content == "Goblin takes 5 damage (Grit 30 → 25)."
    assert not any("Goblin takes" in line for line in await round_log(table, 1))


# /grit show ---------------------------------------------------------------------------------


async def test_show_gives_the_gm_an_npcs_exact_grit_and_table_row(table: SandboxTable) -> None:
    """The GM's /grit show of an NPC has the bar, exact Grit, level, die and Grit-table row."""
    await fight(table, goblin_grit=15)
    reply = await table.user("gm").run("/grit show combatant:Goblin")
    assert reply.ephemeral
    assert reply.embed["title"] == "Goblin — Grit"
    assert reply.embed["description"] == "`█████░░░░░` 15/30\n**Reduced** — rolls d12"
    assert reply.embed["fields"][0] == {
        "name": "Grit table (Reduced)",
        "value": "Threat 10 m · Mobility 4 m · Vigor 8 m · Perception 8 m",
        "inline": False,
    }


async def test_show_gives_players_an_npcs_level_and_die_only(table: SandboxTable) -> None:
    """A player's /grit show of an NPC has its level and die, not its numbers."""
    await fight(table, goblin_grit=8)
    reply = await table.user("alice").run("/grit show combatant:Goblin")
    assert reply.embed["description"] == "**Frail** — rolls d10"
    assert reply.embed["fields"][0]["value"] == (
        "Threat — · Mobility 2 m · Vigor 6 m · Perception 6 m"
    )


async def test_show_defaults_to_the_callers_combatant(table: SandboxTable) -> None:
    """/grit show with no name shows the caller's own combatant in this fight."""
    alice = table.user("alice")
    await alice.run("/character create name:Mira grit:25 max_grit:30")
    await fight(table)
    await alice.run("/init join")
    await table.user("gm").run("/grit damage combatant:Mira amount:2")
    reply = await alice.run("/grit show")
    assert reply.embed["description"] == "`████████░░` 23/30\n**Prime** — rolls d20"


async def test_show_outside_a_fight_uses_the_active_character(table: SandboxTable) -> None:
    """Outside a fight /grit show shows the caller's active character."""
    alice = table.user("alice")
    await alice.run("/character create name:Mira grit:0")
    reply = await alice.run("/grit show")
    assert reply.embed["title"] == "Mira — Grit"
    assert reply.embed["description"] == "`░░░░░░░░░░` 0/30\n**Broken** — cannot act"
    assert reply.embed["fields"][0]["value"] == (
        "Threat — · Mobility 0 m · Vigor 6 m · Perception 6 m"
    )


async def test_show_with_nothing_to_show_says_so(table: SandboxTable) -> None:
    """A player with no combatant and no character is told how to get one."""
    reply = await table.user("bob").run("/grit show")
    assert_refused(
        reply,
        "You have no character on this server: /character create makes one, or name a "
        "combatant (`combatant:`).",
    )


# Characters outside combat ------------------------------------------------------------------


async def test_grit_outside_a_fight_changes_and_keeps_the_sheet(table: SandboxTable) -> None:
    """Damage to your own character outside a fight is announced and saved on the sheet."""
    alice = table.user("alice")
    await alice.run("/character create name:Mira grit:22")
    reply = await alice.run("/grit damage combatant:mira amount:4")
    assert not reply.ephemeral
    assert reply.content == (
        "Mira takes 4 damage (Grit 22 → 18). Mira drops to Reduced Grit — now rolls d12."
    )
    assert (await sheet(table, "alice", "Mira")).grit == 18


async def test_a_sheet_in_a_fight_refuses_grit_changes_elsewhere(table: SandboxTable) -> None:
    """While a fight plays the character, its sheet's Grit cannot change from another channel."""
    alice = table.user("alice")
    await alice.run("/character create name:Mira")
    await fight(table)
    await alice.run("/init join")
    reply = await alice.run("/grit damage combatant:Mira amount:3", channel="table-2")
    channel_id = table.channel("table-1").id
    assert_refused(
        reply,
        f"Mira is in the fight in <#{channel_id}>: change their Grit there with /grit; "
        "the fight writes it back when they leave or it ends.",
    )
    assert (await sheet(table, "alice", "Mira")).grit == 30


# Who may change what ------------------------------------------------------------------------


async def test_a_player_changes_their_own_combatant(table: SandboxTable) -> None:
    """A player may damage and heal the combatant they control."""
    alice = table.user("alice")
    await alice.run("/character create name:Mira")
    await fight(table)
    await alice.run("/init join")
    reply = await alice.run("/grit damage combatant:Mira amount:5")
    assert reply.content == "Mira takes 5 damage (Grit 30 → 25)."


async def test_a_player_cannot_change_another_players_combatant(table: SandboxTable) -> None:
    """Bob cannot damage Alice's combatant; its Grit stays."""
    alice = table.user("alice")
    await alice.run("/character create name:Mira")
    await fight(table)
    await alice.run("/init join")
    reply = await table.user("bob").run("/grit damage combatant:Mira amount:5")
    assert_refused(reply, "Mira is another player's combatant; you cannot act for it.")
    assert (await combatant(table, "Mira")).grit == 30


async def test_a_player_cannot_change_an_npc(table: SandboxTable) -> None:
    """A player cannot set an NPC's Grit; only the GM can."""
    await fight(table)
    reply = await table.user("alice").run("/grit set combatant:Goblin value:1")
    assert_refused(reply, "Goblin is the GM's combatant; you cannot act for it.")
    assert (await combatant(table, "Goblin")).grit == 30


async def test_a_player_cannot_name_a_hidden_npc(table: SandboxTable) -> None:
    """A hidden NPC is unknown to players: the refusal does not reveal it."""
    await fight(table, goblin_hidden=True)
    reply = await table.user("alice").run("/grit heal combatant:Goblin amount:1")
    assert_refused(
        reply, "No combatant named 'Goblin' here, and you have no character by that name."
    )


async def test_a_player_cannot_change_another_players_sheet(table: SandboxTable) -> None:
    """Outside a fight Bob cannot reach Alice's character by its name."""
    await table.user("alice").run("/character create name:Mira")
    reply = await table.user("bob").run("/grit damage combatant:Mira amount:5")
    assert_refused(reply, "You have no character named 'Mira' on this server.")
    assert (await sheet(table, "alice", "Mira")).grit == 30


# Bad input: each a one-line ephemeral error, nothing changed -------------------------------

BAD_AMOUNTS = [
    pytest.param(
        "-3",
        "An amount cannot be negative (got -3): /grit damage lowers Grit and /grit heal "
        "restores it.",
        id="negative",
    ),
    pytest.param("20000", "One Grit change is at most 10000 (got 20000).", id="too-large"),
    pytest.param(
        "1001d6", "A roll can use at most 1000 dice (this one asks for 1001).", id="too-many-dice"
    ),
    pytest.param(
        "lots", "An amount is a whole number or dice such as 2d6, not 'lots'.", id="not-a-number"
    ),
    pytest.param(
        "core+2", "An amount is a number or dice such as 2d6; `core` belongs to /roll.", id="core"
    ),
    pytest.param(
        "2d6+", "That dice expression ends too early; try something like 2d6+3.", id="malformed"
    ),
]


@pytest.mark.parametrize(("amount", "message"), BAD_AMOUNTS)
async def test_a_bad_amount_is_refused_and_changes_nothing(
    table: SandboxTable, amount: str, message: str
) -> None:
    """A malformed, negative or absurd amount is refused; Grit, log and dice are untouched."""
    await fight(table)
    dice = script(table)  # no faces: any roll fails
    log_before = await round_log(table, 1)
    reply = await table.user("gm").run("/grit damage combatant:Goblin", amount=amount)
    assert_refused(reply, message)
    assert (await combatant(table, "Goblin")).grit == 30
    assert await round_log(table, 1) == log_before
    assert dice.used == 0 and dice.error is None


async def test_dice_that_roll_below_zero_are_refused(table: SandboxTable) -> None:
    """`1d4-10` rolls a negative amount: refused, Grit unchanged."""
    await fight(table)
    script(table, d4(3))
    reply = await table.user("gm").run("/grit heal combatant:Goblin amount:1d4-10")
    assert_refused(
        reply,
        "An amount cannot be negative (1d4-10 rolled -7): /grit damage lowers Grit "
        "and /grit heal restores it.",
    )
    assert (await combatant(table, "Goblin")).grit == 30


async def test_dice_that_roll_beyond_the_cap_are_refused(table: SandboxTable) -> None:
    """`1000d1000` rolls far beyond one change's cap: refused, Grit unchanged."""
    await fight(table)
    script(table, *[d1000(11)] * 1000)  # 11,000: just beyond the cap
    reply = await table.user("gm").run("/grit damage combatant:Goblin amount:1000d1000")
    assert_refused(reply, "One Grit change is at most 10000 (1000d1000 rolled 11000).")
    assert (await combatant(table, "Goblin")).grit == 30


async def test_an_unknown_combatant_is_refused(table: SandboxTable) -> None:
    """Naming nobody in the fight and none of your characters is a clear error."""
    await fight(table)
    reply = await table.user("gm").run("/grit damage combatant:Dragon amount:3")
    assert_refused(
        reply, "No combatant named 'Dragon' here, and you have no character by that name."
    )


async def test_set_above_the_maximum_is_refused(table: SandboxTable) -> None:
    """/grit set beyond the maximum (without a larger max) is refused; Grit unchanged."""
    await fight(table, goblin_grit=20)
    reply = await table.user("gm").run("/grit set combatant:Goblin value:31")
    assert_refused(reply, "Grit 31 is above Goblin's maximum 30; give a larger max as well.")
    assert (await combatant(table, "Goblin")).grit == 20


async def test_the_modifier_needs_a_fight(table: SandboxTable) -> None:
    """/grit modifier outside an encounter says there is none."""
    await table.user("alice").run("/character create name:Mira")
    reply = await table.user("alice").run("/grit modifier combatant:Mira levels:1")
    assert_refused(reply, "This channel has no encounter. Start one with /init start.")


async def test_autocomplete_offers_combatants_then_own_characters(table: SandboxTable) -> None:
    """The combatant option lists this fight's combatants, then the caller's other characters."""
    alice = table.user("alice")
    await alice.run("/character create name:Gorm")
    await table.user("bob").run("/character create name:Gobbo")
    await fight(table)
    choices = await alice.autocomplete("grit damage", "combatant", "go")
    assert [c["value"] for c in choices] == ["Goblin", "Gorm"]


async def test_autocomplete_follows_characters_made_renamed_and_deleted(
    table: SandboxTable,
) -> None:
    """A character made, renamed or deleted was offered as it was before, or a hidden NPC."""
    alice = table.user("alice")
    await fight(table, goblin_hidden=True)

    async def offered(typed: str = "") -> list[str]:
        return [c["value"] for c in await alice.autocomplete("grit damage", "combatant", typed)]

    assert await offered() == ["Orc"]  # the hidden Goblin is the GM's alone
    assert await offered() == ["Orc"]
    await alice.run("/character create name:Mira")
    assert await offered() == ["Orc", "Mira"]
    reply = await alice.run("/character edit name:Mira field:name value:Gobline")
    assert reply.content == "**Gobline**: name Mira → Gobline."
    assert await offered() == ["Orc", "Gobline"]
    assert await offered("gob") == ["Gobline"]
    asked = await alice.run("/character delete name:Gobline")
    await asked.click("Confirm")
    assert await offered() == ["Orc"]
    gm_sees = await table.user("gm").autocomplete("grit damage", "combatant", "")
    assert [c["value"] for c in gm_sees] == ["Orc", "Goblin"]
