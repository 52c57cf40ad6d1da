"""Secrets stay secret: a hidden NPC never reaches players, nor an NPC's exact Grit [COMMANDS.md].

Each of the six leaks found in play has its own test; every test reads every version of
every message players could see (public ones, edits included, and ephemeral ones shown
to a player) through `invariants.secret_problems`.
"""

from __future__ import annotations

import random

import pytest

from bot.sandbox.client import SandboxTable
from tests.e2e.helpers import script, settle
from tests.e2e.invariants import secret_problems
from tests.scripted import d8, d12, d20

pytestmark = pytest.mark.e2e

CHANNEL = "table-1"


def problems(table: SandboxTable, *, hidden: list[str], npcs: list[str]) -> list[str]:
    gm_ids = {table.user("gm").id}
    messages = table.channel(CHANNEL).all_messages
    return secret_problems(messages, hidden=hidden, npcs=npcs, gm_ids=gm_ids)


async def fight(table: SandboxTable, *, mode: str = "finesse", start: str = "") -> None:
    """The GM's Goblin and hidden Shade against alice's Mira."""
    table.bot.trackers.interval = 0  # type: ignore[attr-defined]
    gm = table.user("gm")
    await gm.run(f"/init start mode:{mode} {start}".strip())
    await gm.run("/init add name:Goblin physical:3 finesse:2")
    await gm.run("/init add name:Shade finesse:9 hidden:true")
    await table.user("alice").run("/init join character:Mira physical:4 finesse:3")


async def test_removing_a_hidden_npc_is_told_to_the_gm_alone(table: SandboxTable) -> None:
    """/init remove posted "Shade leaves the fight." in public."""
    await fight(table)
    reply = await table.user("gm").run("/init remove combatant:Shade")
    assert reply.ephemeral and reply.content == "Shade leaves the fight."
    await settle(table)
    assert problems(table, hidden=["Shade"], npcs=[]) == []


async def test_moving_a_hidden_npc_is_told_to_the_gm_alone(table: SandboxTable) -> None:
    """/init move posted the hidden NPC's new place in public."""
    await fight(table)
    # Shade acts first; the hidden Wisp, still to act, moves (the actor itself may not).
    await table.user("gm").run("/init add name:Wisp finesse:0 hidden:true")
    await table.user("gm").run("/init next")
    reply = await table.user("gm").run("/init move combatant:Wisp position:3")
    assert reply.ephemeral and reply.content == "Wisp now acts at place 3."
    await settle(table)
    assert problems(table, hidden=["Shade", "Wisp"], npcs=[]) == []


async def test_a_hidden_npc_holding_at_the_round_end_is_the_gms_business(
    table: SandboxTable,
) -> None:
    """The round-end line named a hidden NPC that waited and so holds."""
    await fight(table)
    gm = table.user("gm")
    await gm.run("/init next")  # Shade (Finesse 9) acts first
    await gm.run("/wait combatant:Shade")
    ended = await gm.run("/init round")
    assert "Round 1 ends." in ended.text
    [private] = await ended.wait_followups(1)
    assert private.ephemeral and "Shade holds into the next round." in private.content
    await settle(table)
    assert problems(table, hidden=["Shade"], npcs=[]) == []


async def test_the_ambush_roll_of_a_hidden_ambusher_is_the_gms_business(
    table: SandboxTable,
) -> None:
    """The ambush-roll line listed a hidden ambusher's roll in public."""
    await fight(table, start="ambush:foes ambush_roll:true")
    step = await table.user("gm").run("/init next")
    assert "Ambush against Perception 10: Goblin d10" in step.content
    [private] = await step.wait_followups(1)
    assert private.ephemeral and "Ambush against Perception 10: Shade d10" in private.content
    await settle(table)
    assert problems(table, hidden=["Shade"], npcs=[]) == []


async def test_a_check_for_a_hidden_npc_is_told_to_the_gm_alone(table: SandboxTable) -> None:
    """/check naming a hidden NPC, or a GM's /check in its turn, showed its name in public."""
    await fight(table)
    gm = table.user("gm")
    named = await gm.run("/check trait:3 difficulty:Fair combatant:Shade")
    assert named.ephemeral and named.content.startswith("🎯 **Shade** checks against Fair 9")
    await gm.run("/init next")  # Shade's turn: a GM's /check with no name is Shade's
    unnamed = await gm.run("/check trait:1 difficulty:Trivial")
    assert unnamed.ephemeral and "**Shade** checks" in unnamed.content
    await settle(table)
    assert problems(table, hidden=["Shade"], npcs=[]) == []


async def test_an_npcs_exact_grit_never_reaches_the_players(table: SandboxTable) -> None:
    """/grit damage, an attack's result, the round summary or the final standings gave an
    NPC's Grit as numbers (players see its level and die only)."""
    await fight(table)
    gm, alice = table.user("gm"), table.user("alice")
    damaged = await gm.run("/grit damage combatant:Goblin amount:12")
    assert damaged.content == (
        "Goblin takes 12 damage. Goblin drops to Reduced Grit — now rolls d12."
    )
    await gm.run("/init remove combatant:Shade")
    await gm.run("/init next")  # Mira (Finesse 3) first
    script(table, d20(10), d12(3), d8(1))  # Mira's attack; the Goblin's block (Reduced); 1d8
    prompt = await alice.run("/attack target:Goblin damage:1d8+2")
    result = await prompt.click("Block", as_user="gm")
    grit_field = next(f["value"] for f in result.embed["fields"] if f["name"] == "Grit")
    assert grit_field == "Goblin takes 3 damage (Reduced d12)."
    summary = await gm.run("/init round")
    assert "Round 1 summary" in summary.text
    end = await gm.run("/init end")
    confirmed = await end.click("Confirm", as_user="gm")
    await confirmed.wait_followups(1)
    assert "Standing: Goblin (Reduced d12), Mira (Grit 30/30 Prime d20)" in confirmed.text
    await settle(table)
    assert problems(table, hidden=[], npcs=["Goblin"]) == []
    stored = await table.bot.store.peek(table.channel(CHANNEL).id)  # type: ignore[attr-defined]
    assert stored is None  # the encounter ended: the numbers were kept to the end


# Random fights: every payload of a whole fight, not one command at a time. ---------------

HIDDEN = ["Shade", "Lurker"]
VISIBLE_NPCS = ["Goblin", "Orc"]
PLAYERS = {"alice": "Mira", "bob": "Brom"}


def _gm_action(rng: random.Random, hidden: list[str]) -> str:
    """Return one GM command about NPCs, hidden ones most of all."""
    secret = rng.choice(hidden)
    npc = rng.choice(hidden + VISIBLE_NPCS)
    return rng.choice(
        [
            "/init next",
            "/init next",
            f"/grit damage combatant:{npc} amount:{rng.choice(['3', '1d6', '2d4+1', '9'])}",
            f"/grit heal combatant:{npc} amount:{rng.randint(1, 6)}",
            f"/grit set combatant:{npc} value:{rng.randint(0, 30)}",
            f"/effect apply combatant:{npc} special:{rng.choice(['Ruin', 'Regeneration', 'Slow'])} x:{rng.randint(1, 3)}",
            f"/wait combatant:{secret}",
            f"/hold combatant:{secret}",
            f"/act combatant:{secret}",
            f"/haste combatant:{secret}",
            f"/sacrifice combatant:{secret}",
            f"/declare action:Lurk combatant:{secret}",
            f"/init move combatant:{secret} position:{rng.randint(1, 4)}",
            f"/check trait:2 difficulty:Fair combatant:{secret}",
            "/check trait:1 difficulty:Trivial",
            f"/move distance:2 combatant:{secret}",
            f"/attack attacker:{rng.choice(VISIBLE_NPCS)} target:{rng.choice([*PLAYERS.values(), secret])}",
            f"/attack attacker:{rng.choice(VISIBLE_NPCS)} target:{rng.choice(list(PLAYERS.values()))} force:true",
            f"/attack attacker:Orc target:{rng.choice([*PLAYERS.values(), secret])} weapon:Cleaver force:true",
            f"/protect combatant:{rng.choice(VISIBLE_NPCS)}",
            f"/support combatant:{rng.choice(VISIBLE_NPCS)}",
            f"/hide combatant:{secret} force:true",
            f"/engage target:{rng.choice(list(PLAYERS.values()))} combatant:{rng.choice(VISIBLE_NPCS)} force:true",
            f"/init edit combatant:{secret} perception:{rng.randint(4, 14)}",
            f"/essence use name:Draught kind:elixir combatant:{secret} force:true",
            f"/grit modifier combatant:{secret} levels:{rng.randint(0, 2)}",
            "/init round",
        ]
    )


def _player_action(rng: random.Random, user: str) -> str:
    return rng.choice(
        [
            f"/attack target:{rng.choice(VISIBLE_NPCS)} damage:1d6",
            "/init next",
            "/wait",
            "/hold",
            f"/grit show combatant:{rng.choice(VISIBLE_NPCS)}",
            "/init list",
            "/effect list",
            "/check trait:2 difficulty:Fair",
            "/hide",
            "/cover",
            f"/engage target:{rng.choice(VISIBLE_NPCS)}",
            "/breakaway",
            "/protect",
            "/support",
            "/move distance:4",
        ]
    )


async def _answer_prompts(table: SandboxTable, rng: random.Random) -> None:
    """Answer any open defense prompt as its defender's side would (or leave it to time out)."""
    for message in table.channel(CHANNEL).public_messages:
        labels = [
            b["label"] for b in message.buttons if b.get("custom_id", "").startswith("th:defend")
        ]
        if labels and rng.random() < 0.8:
            who = (
                "gm"
                if "is attacked by" in message.content and "<@" not in message.content
                else None
            )
            for user in [who or "gm", "alice", "bob"]:
                clicked = await table.user(user).click(message, rng.choice(labels))
                if not clicked.ephemeral:
                    break


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
async def test_random_fights_never_show_players_a_secret(make_table, seed: int) -> None:
    """A whole random fight (hidden NPCs, NPC damage, turns, attacks, summaries, the end)
    showed a player a hidden NPC's name or an NPC's exact Grit."""
    table = await make_table()
    rng = random.Random(seed)
    table.bot.rng = random.Random(seed + 100)  # type: ignore[attr-defined]
    table.bot.trackers.interval = 0  # type: ignore[attr-defined]
    gm = table.user("gm")
    ambush = rng.choice(["", "ambush:foes ambush_roll:true", "ambush:party"])
    await gm.run(f"/init start mode:{rng.choice(['fortune', 'finesse', 'sides', 'once'])} {ambush}")
    # The Orc and the hidden Shade come from templates; the Shade's weapon bears its name,
    # so its loadout shown to a player anywhere would show the name.
    for template, weapon in (("Shade", "Shade Blade"), ("Orc", "Cleaver")):
        await gm.run(f"/npc create name:{template}")
        await gm.run(f"/npc weapon add npc:{template} name:{weapon} damage:1d6")
    for name in VISIBLE_NPCS:
        await gm.run(f"/init add name:{name} finesse:{rng.randint(0, 5)} grit:{rng.randint(5, 30)}")
    for name in HIDDEN:
        await gm.run(f"/init add name:{name} finesse:{rng.randint(0, 9)} hidden:true")
    for user, name in PLAYERS.items():
        await table.user(user).run(f"/init join character:{name} finesse:{rng.randint(0, 5)}")
    for _ in range(60):
        if rng.random() < 0.6:
            await gm.run(_gm_action(rng, HIDDEN))
        else:
            user = rng.choice(list(PLAYERS))
            await table.user(user).run(_player_action(rng, user))
        await _answer_prompts(table, rng)
    end = await gm.run("/init end")
    await end.click("Confirm", as_user="gm")
    await table.wait_idle()
    await settle(table)
    npcs = HIDDEN + VISIBLE_NPCS
    assert problems(table, hidden=HIDDEN, npcs=npcs) == []
    said = "\n".join(m.content for m in table.channel(CHANNEL).public_messages)
    assert "Goblin" in said and "The encounter is over" in said  # the fight really was played
