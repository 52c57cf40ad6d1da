"""/npc end to end: a server's NPC templates, their loadouts, and /init add from them [GAME.md §9].

Dice are scripted (tests/scripted.py): `d20(10)` is a d20 showing 10.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.rules import encounter as flow
from bot.rules.models import Armor, Combatant, NpcTemplate, Weapon
from bot.sandbox.client import InteractionResult, SandboxTable
from tests.e2e.helpers import script, unmentioned
from tests.e2e.invariants import assert_error_reply
from tests.scripted import d8, d12, d20

pytestmark = pytest.mark.e2e

NOT_GM = "Only the GM can manage NPC templates (a GM by /init start here, Manage Channels or the GM role)."
SPEAR = Weapon(name="Spear", damage="1d8", reach=2, braced=True)
HIDE = Armor(name="Hide", absorb=1)


async def template(table: SandboxTable, name: str) -> NpcTemplate | None:
    """Read a template of the sandbox server as stored now."""
    return await table.bot.store.get_npc(table.server.guild.id, name)  # type: ignore[attr-defined]


async def fighter(table: SandboxTable, name: str) -> Combatant:
    """Read a combatant of table-1's encounter as stored now."""
    encounter = await table.bot.store.peek(table.channel().id)  # type: ignore[attr-defined]
    assert encounter is not None
    return flow.by_name(encounter, name)


def fields(embed: dict[str, Any] | None) -> dict[str, str]:
    """Return an embed's fields by name."""
    assert embed is not None, "no embed"
    return {f["name"]: f["value"] for f in embed.get("fields", [])}


async def refused(table: SandboxTable, user: str, line: str, message: str) -> InteractionResult:
    """Run a command that must be refused with this one private line, changing no template."""
    store = table.bot.store  # type: ignore[attr-defined]
    guild = table.server.guild.id
    before = [t.model_dump() for t in await store.list_npcs(guild)]
    reply = await table.user(user).run(line)
    assert_error_reply(reply)
    assert unmentioned(reply.content) == message, reply.content
    assert [t.model_dump() for t in await store.list_npcs(guild)] == before, line
    return reply


@pytest.fixture
async def goblin(fast) -> SandboxTable:
    """The GM's fight in table-1, and a Goblin template: Physical 3, Finesse 2, Grit 12, a Spear, Hide."""
    table = fast
    gm = table.user("gm")
    await gm.run("/init start mode:finesse")
    created = await gm.run(
        "/npc create name:Goblin physical:3 finesse:2 max_grit:12 tags:Goblinoid"
    )
    assert created.ephemeral
    assert (
        created.content == "Created the NPC template **Goblin**: `/init add name:Goblin` brings it."
    )
    spear = await gm.run("/npc weapon add npc:Goblin name:Spear damage:1d8 reach:2 braced:true")
    assert (
        spear.content == "**Goblin** carries **Spear** — melee 1d8, base Risk 1, reach 2, braced."
    )
    hide = await gm.run("/npc armor npc:Goblin name:Hide absorb:1")
    assert hide.content == "**Goblin** carries **Hide** — armor: absorbs 1, crit guard 0."
    return table


async def test_a_template_is_created_shown_edited_listed_and_deleted(goblin) -> None:
    """A template lost a stat or an item, or showed other numbers than it keeps."""
    table = goblin
    gm = table.user("gm")
    shown = await gm.run("/npc show name:goblin")
    assert shown.ephemeral
    assert shown.embed["title"] == "Goblin (NPC template)"
    assert fields(shown.embed) == {
        "Grit": "12/12",
        "Physical": "+3",
        "Finesse": "+2",
        "Risk": "0",
        "Initiative bonus": "0",
        "Mastery Rank": "1",
        "Crit range": "1",
        "Default defense": "auto",
        "Tags": "Goblinoid",
        "Loadout": (
            "**Spear** — melee 1d8, base Risk 1, reach 2, braced\n"
            "**Hide** — armor: absorbs 1, crit guard 0"
        ),
    }
    edited = await gm.run("/npc edit name:Goblin finesse:4 rename:Goblin Scout")
    assert edited.content == "**Goblin Scout**: finesse 4, name Goblin Scout."
    await gm.run("/npc create name:Bandit")
    listed = await gm.run("/npc list")
    assert listed.embed["description"].splitlines() == [
        "**Bandit** · Grit 30 · Physical 0 · Finesse 0 · 0 items",
        "**Goblin Scout** · Grit 12 · Physical +3 · Finesse +4 · 2 items",
    ]
    removed = await gm.run("/npc weapon remove npc:Goblin Scout name:spear")
    assert removed.content == "**Goblin Scout** no longer carries **Spear**."
    stored = await template(table, "Goblin Scout")
    assert stored is not None and (stored.finesse, stored.items) == (4, [HIDE])
    deleted = await gm.run("/npc delete name:Bandit")
    assert deleted.content == "The NPC template **Bandit** is deleted."
    assert await template(table, "Bandit") is None


async def test_init_add_brings_the_templates_stats_and_loadout_to_each_copy(goblin) -> None:
    """/init add name:Goblin count:3 did not give each copy the template's stats and items."""
    table = goblin
    added = await table.user("gm").run("/init add name:Goblin count:3 physical:5")
    assert not added.ephemeral
    assert added.content == "Added Goblin 1, Goblin 2, Goblin 3."
    assert [m.content for m in await added.wait_followups(1)] == [
        "From the NPC template Goblin: its stats (those typed here win) and its 2 items."
    ]
    for n in (1, 2, 3):
        copy = await fighter(table, f"Goblin {n}")
        assert (copy.physical, copy.finesse, copy.grit, copy.max_grit, copy.tags) == (
            5,  # typed here: it wins over the template's 3
            2,
            12,
            12,
            ["Goblinoid"],
        )
        assert (copy.items, copy.reach) == ([SPEAR, HIDE], 2)  # the spear held ready
    plain = await table.user("gm").run("/init add name:Orc")
    assert plain.followups == []
    assert (await fighter(table, "Orc")).items == []


async def test_an_npc_attacks_with_its_templates_weapon(goblin) -> None:
    """A Goblin's Spear from its template did not give its attack 1d8, or the Goblin reach 2."""
    table = goblin
    gm = table.user("gm")
    await gm.run("/init add name:Goblin")
    await table.user("alice").run("/init join character:Mira physical:4 finesse:3")
    await gm.run("/init next")  # Mira (Finesse 3) first
    script(table, d12(11), d20(4), d8(5))  # the Goblin (Grit 12: d12), Mira's block, the spear
    prompt = await gm.run("/attack target:Mira attacker:Goblin weapon:Spear force:true")
    resolved = await prompt.click("Block", as_user="alice")
    assert resolved.embed["description"].startswith("Melee with Spear · Block")
    assert fields(resolved.embed)["Damage"] == "Weapon 5 (1d8: 5) → **5**"
    assert (await fighter(table, "Mira")).grit == 30 - 5
    # Hide absorbs 1 of each hit [002]; and the spear held ready gives the Goblin reach 2.
    assert (await fighter(table, "Goblin")).items == [SPEAR, HIDE]
    back = await table.user("alice").run("/attack target:Goblin damage:1d8")
    assert_error_reply(back)
    assert unmentioned(back.content) == (
        "Goblin's reach (2) is longer than Mira's (1): close in first (/engage target:Goblin)."
    )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("/npc create name:goblin", "This server already has an NPC template named goblin."),
        ("/npc create name:Orc grit:40 max_grit:20", "Grit 40 is above max_grit 20."),
        ("/npc show name:Orc", "This server has no NPC template named 'Orc'."),
        ("/npc edit name:Goblin", "Give at least one thing to change (rename, a stat, tags …)."),
        ("/npc edit name:Goblin grit:20", "Grit 20 is above max_grit 12."),
        (
            "/npc weapon add npc:Goblin name:Sling damage:1d4 style:thrown",
            "A thrown attack needs the weapon's weight (its range is Physical ÷ weight).",
        ),
        (
            "/npc weapon remove npc:Goblin name:Club",
            "There is no 'Club' here; the loadout: Spear, Hide.",
        ),
        (
            "/npc shield npc:Goblin name:Spear block:1",
            "Spear is already a weapon here; give the shield another name.",
        ),
    ],
)
async def test_a_bad_template_change_is_one_private_line(goblin, line: str, message: str) -> None:
    """A bad /npc command changed a template, or was not told in one private line."""
    await refused(goblin, "gm", line, message)


async def test_players_neither_see_nor_change_templates(goblin) -> None:
    """A player read a template (a hidden NPC's secret) or its names in autocomplete."""
    table = goblin
    for line in ("/npc list", "/npc show name:Goblin", "/npc weapon list npc:Goblin"):
        await refused(table, "alice", line, NOT_GM)
    assert await table.user("alice").autocomplete("npc show", "name", "") == []
    offered = await table.user("gm").autocomplete("npc show", "name", "gob")
    assert [c["value"] for c in offered] == ["Goblin"]


async def test_without_a_fight_the_server_gm_keeps_templates(fast) -> None:
    """Manage Channels gave no template rights outside a fight, or a member with none got them."""
    table = fast
    made = await table.user("admin").run("/npc create name:Wolf", channel="table-2")
    assert made.ephemeral and made.content.startswith("Created the NPC template **Wolf**")
    await refused(table, "gm", "/npc create name:Bear", NOT_GM)  # no fight here: not yet a GM


async def test_a_template_keeps_powers_and_each_copy_brings_them(goblin) -> None:
    """/npc power did not exist: a Goblin's Damage buff (L3: +6d8, 90 PP [001]) had to be typed per fight."""
    table = goblin
    gm = table.user("gm")
    await gm.run("/npc edit name:Goblin mastery_rank:3")  # level 3 needs MR 3 (Power Level Cap)
    added = await gm.run("/npc power add npc:Goblin name:active_buff:damage level:3")
    assert added.ephemeral
    assert "**Damage** — Active Buff L3 · 90 PP (curve 100)" in added.content
    # The GM's say: over its curve (Active L3 targets 90 PP; this is 102) is allowed for a GM.
    built = await gm.run(
        "/npc power build npc:Goblin name:Hellfire type:active level:3 "
        'components:"damage:2d8 range:16 radius:3 ruin:2" over_curve:true'
    )
    assert "**Hellfire** — Active L3 · 102 PP (curve 90)" in built.content, built.content
    stored = await template(table, "Goblin")
    assert stored is not None
    assert [(p.name, p.kind, p.level) for p in stored.powers] == [
        ("Damage", "active_buff", 3),
        ("Hellfire", "active", 3),
    ]
    listed = await gm.run("/npc power list npc:Goblin")
    assert listed.ephemeral and "Hellfire" in listed.text and "Damage" in listed.text
    assert "Hellfire" in fields((await gm.run("/npc show name:Goblin")).embed)["Powers"]
    await gm.run("/init add name:Goblin count:2")
    for n in (1, 2):
        copy = await fighter(table, f"Goblin {n}")
        assert [p.name for p in copy.powers] == ["Damage", "Hellfire"]
    removed = await gm.run("/npc power remove npc:Goblin name:Damage")
    assert removed.content == "**Goblin** no longer has Damage."
    stored = await template(table, "Goblin")
    assert stored is not None and [p.name for p in stored.powers] == ["Hellfire"]
    # The copies in the fight keep what they came with.
    assert [p.name for p in (await fighter(table, "Goblin 1")).powers] == ["Damage", "Hellfire"]


async def test_npc_powers_refuse_players_and_bad_input(goblin) -> None:
    """A player could put powers on a template, or a bad power changed it."""
    table = goblin
    await refused(table, "alice", "/npc power add npc:Goblin name:active_buff:damage", NOT_GM)
    await refused(table, "alice", "/npc power list npc:Goblin", NOT_GM)
    await refused(
        table,
        "gm",
        "/npc power add npc:Goblin name:active_buff:damage level:5",
        "Level 5 is above what Mastery Rank 1 allows: at most level 4 (SRD Power Level Cap: "
        "MR 1-2 → 4, MR 3 → 8, MR 4 → 12, MR 5+ → 16).",
    )
    await refused(
        table,
        "gm",
        "/npc power remove npc:Goblin name:Fireball",
        "Goblin has no power named 'Fireball'.",
    )
