"""/character power end to end: catalogue and custom powers on sheets, and into the fight."""

from __future__ import annotations

import pytest

from bot.rules.models import Character
from bot.sandbox.client import SandboxTable
from tests.e2e.helpers import unmentioned
from tests.e2e.invariants import assert_error_reply

pytestmark = pytest.mark.e2e


async def sheet(table: SandboxTable, owner: str, name: str) -> Character:
    """Read a player's character as stored now."""
    store = table.bot.store  # type: ignore[attr-defined]
    found = await store.get_character(table.server.guild.id, table.user(owner).id, name)
    assert found is not None
    return found


async def test_a_catalogue_power_is_added_at_its_level_with_its_numbers(table) -> None:
    """Active Buff: Damage at level 3 did not land on the sheet with +6d8 and 90 PP [001]."""
    alice = table.user("alice")
    await alice.run("/character create name:Mira mastery_rank:3")
    reply = await alice.run("/character power add name:active_buff:damage level:3")
    assert reply.ephemeral
    assert "**Damage** — Active Buff L3 · 90 PP (curve 100)" in reply.content
    (power,) = (await sheet(table, "alice", "Mira")).powers
    assert (power.kind, power.level, power.damage, power.pp) == ("active_buff", 3, "6d8", 90.0)


async def test_a_level_above_the_mastery_rank_cap_is_refused(table) -> None:
    """MR 2 allows level 4 at most (SRD Power Level Cap); level 5 was not refused."""
    alice = table.user("alice")
    await alice.run("/character create name:Mira mastery_rank:2")
    reply = await alice.run("/character power add name:active:pure_output level:5")
    assert reply.ephemeral
    assert reply.content == (
        "Level 5 is above what Mastery Rank 2 allows: at most level 4 (SRD Power Level Cap: "
        "MR 1-2 → 4, MR 3 → 8, MR 4 → 12, MR 5+ → 16)."
    )
    assert (await sheet(table, "alice", "Mira")).powers == []


async def test_a_custom_build_is_priced_as_pp_price_prices_it(table) -> None:
    """damage:2d8 range:16 radius:3 ruin:2 is 102 PP, as /pp price says; it fits Active L4 (120)."""
    alice = table.user("alice")
    await alice.run("/character create name:Mira mastery_rank:4")
    priced = await alice.run('/pp price components:"damage:2d8 range:16 radius:3 ruin:2"')
    assert priced.embed["title"] == "Build: 102 PP"
    reply = await alice.run(
        "/character power build name:Hellfire type:active level:4 "
        'components:"damage:2d8 range:16 radius:3 ruin:2" spell:true'
    )
    assert "**Hellfire** — Active L4 · 102 PP (curve 120) · Spell, custom" in reply.content
    (power,) = (await sheet(table, "alice", "Mira")).powers
    assert (power.damage, power.range_m, power.radius_m) == ("2d8", 16, 3)
    assert [(s.name, s.x) for s in power.specials] == [("Ruin", 2)]


async def test_an_over_curve_build_is_refused_with_the_reason(table) -> None:
    """Active L3 targets 90 PP; 102 PP is 12 over, more than §10.3's 5: it was not refused."""
    alice = table.user("alice")
    await alice.run("/character create name:Mira mastery_rank:4")
    reply = await alice.run(
        "/character power build name:Hellfire type:active level:3 "
        'components:"damage:2d8 range:16 radius:3 ruin:2"'
    )
    assert reply.ephemeral
    assert reply.content == (
        "Active level 3 is over its curve: 102 PP against a target of 90 PP, 12 PP over (more "
        "than 5 PP over is over curve [SRD §10.3]); only the GM may allow it "
        "(over_curve:true asks the GM)."
    )
    assert (await sheet(table, "alice", "Mira")).powers == []


async def test_a_player_asks_the_gm_and_only_a_gm_allows_a_power_over_its_curve(table) -> None:
    """The GM could not allow a player's power over its curve: only their own [SRD §10.3]."""
    alice, bob, gm = table.user("alice"), table.user("bob"), table.user("gm")
    await gm.run("/init start")  # the channel's GM
    await alice.run("/character create name:Mira mastery_rank:4")
    hellfire = (
        "/character power build name:Hellfire type:active level:3 "
        'components:"damage:2d8 range:16 radius:3 ruin:2" over_curve:true'
    )
    asked = await alice.run(hellfire)
    assert not asked.ephemeral  # in the channel, for the GM to see
    assert asked.embed["title"] == "Over its curve: Hellfire for Mira"
    assert "12 PP over its curve" in asked.embed["description"]
    # Asking is not allowing: the line shows the price against the curve, not "GM-allowed".
    assert "**Hellfire** — Active L3 · 102 PP (curve 90) · custom\n" in asked.embed["description"]
    assert "GM-allowed" not in asked.embed["description"]
    assert [b["label"] for b in asked.buttons] == ["Allow", "Refuse"]
    assert (await sheet(table, "alice", "Mira")).powers == []  # not before a GM allows it
    for player in (alice, bob):
        refused = await asked.click("Allow", as_user=player.name)
        assert refused.ephemeral
        assert refused.content == "Only the GM can allow a power over its curve."
    assert (await sheet(table, "alice", "Mira")).powers == []
    allowed = await asked.click("Allow", as_user="gm")
    assert allowed.message is not None and allowed.message.buttons == []
    assert unmentioned(allowed.message.content).startswith(
        "Allowed by Game Master: **Mira** has a new power:\n**Hellfire** — Active L3 · 102 PP"
        " (curve 90) · over curve, GM-allowed, custom\n"
    )
    (power,) = (await sheet(table, "alice", "Mira")).powers
    assert (power.name, power.pp, power.target_pp, power.over_curve) == (
        "Hellfire",
        102.0,
        90.0,
        True,
    )
    # Asked again and refused: nothing is added.
    again = await alice.run(hellfire.replace("Hellfire", "Hellfire Two"))
    refused = await again.click("Refuse", as_user="gm")
    assert refused.message is not None and refused.message.content == (
        "Refused by Game Master: Mira does not get it."
    )
    assert [p.name for p in (await sheet(table, "alice", "Mira")).powers] == ["Hellfire"]


async def test_list_and_remove(table) -> None:
    """The list did not show each power's type, level and PP, or remove did not take it off."""
    alice = table.user("alice")
    await alice.run("/character create name:Mira mastery_rank:3")
    await alice.run("/character power add name:movement:flight level:3")
    await alice.run("/character power add name:passive:initiative level:2")
    listed = await alice.run("/character power list")
    assert "**Flight** — Movement L3 · no PP curve" in listed.embed["description"]
    assert "**Initiative** — Passive L2 · 40 PP" in listed.embed["description"]
    shown = await alice.run("/character show")
    assert "Flight" in str(shown.embed)
    removed = await alice.run("/character power remove name:Flight")
    assert removed.content == "**Mira** no longer has Flight."
    assert [p.name for p in (await sheet(table, "alice", "Mira")).powers] == ["Initiative"]


BAD_SHEET_INPUT = [
    (
        "/character power add name:Fireballz",
        "No entry named 'Fireballz'; did you mean",
    ),
    (
        "/character power add name:active_buff:damage trigger:attack",
        "Only a Reaction has a trigger.",
    ),
    (
        "/character power add name:reaction:evade trigger:sneezing",
        "A Reaction's trigger is one of attack, hit, damage",
    ),
    (
        "/character power build name:Zap type:active level:1 components:flamez:3",
        "Unknown component 'flamez'.",
    ),
    (
        '/character power build name:Zap type:active level:2 components:"damage:2d8 charged"',
        "A Charged power is a limited-use power: give its limit (turn, round…).",
    ),
    ("/character power remove name:Nothing", "Mira has no power named 'Nothing'."),
    ("/character power list character:Nobody", "You have no character named 'Nobody'"),
]


@pytest.mark.parametrize(("line", "message"), BAD_SHEET_INPUT, ids=[b[0] for b in BAD_SHEET_INPUT])
async def test_bad_input_is_one_private_line_and_changes_nothing(table, line, message) -> None:
    """A bad /character power input was not refused in one private line, or it changed the sheet."""
    alice = table.user("alice")
    await alice.run("/character create name:Mira")
    before = await sheet(table, "alice", "Mira")
    reply = await alice.run(line)
    assert_error_reply(reply)
    assert message in reply.content, reply.content
    assert await sheet(table, "alice", "Mira") == before


async def test_a_player_cannot_list_another_players_powers(table) -> None:
    """bob saw alice's sheet's powers (sheets are private to their owner)."""
    await table.user("alice").run("/character create name:Mira")
    reply = await table.user("bob").run("/character power list character:Mira")
    assert_error_reply(reply)
    assert reply.content == "You have no character named 'Mira' on this server."


async def test_passive_slots_follow_the_mastery_rank(table) -> None:
    """MR 1 has 1 Passive slot [001 Passive Loadout MR 1/2/3/3/4/4/5/6]; a second was not refused."""
    alice = table.user("alice")
    await alice.run("/character create name:Mira")
    await alice.run("/character power add name:passive:initiative")
    reply = await alice.run("/character power add name:passive:armor")
    assert reply.content == (
        "Mastery Rank 1 has 1 Passive slot, all taken (SRD Passive Loadout: MR 1/2/3/3/4/4/5/6)."
    )


async def test_a_sheets_powers_go_into_the_fight(table) -> None:
    """Joining a fight did not copy the sheet's powers, or the Initiative Passive onto the roll."""
    alice, gm = table.user("alice"), table.user("gm")
    await alice.run("/character create name:Mira finesse:2 mastery_rank:2")
    await alice.run("/character power add name:passive:initiative level:2")
    await gm.run("/init start mode:finesse")
    await alice.run("/init join")
    encounter = await table.bot.store.peek(table.channel().id)  # type: ignore[attr-defined]
    (mira,) = encounter.combatants
    assert [(p.name, p.initiative) for p in mira.powers] == [("Initiative", 4)]  # +2 per level
