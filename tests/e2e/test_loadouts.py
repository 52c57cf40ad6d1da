"""Loadouts end to end: weapons, armor and shields on sheets, and /attack weapon: [GAME.md §9].

Dice are scripted (tests/scripted.py): `d20(10)` is a d20 showing 10.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.rules import encounter as flow
from bot.rules.models import Armor, Character, Combatant, Shield, Weapon
from bot.sandbox.client import InteractionResult, SandboxTable, UsageError
from tests.e2e.helpers import script, unmentioned
from tests.e2e.invariants import assert_error_reply
from tests.scripted import d4, d6, d10, d12, d20

pytestmark = pytest.mark.e2e

GREATAXE = Weapon(name="Greataxe", damage="1d12", base_risk=3)


async def sheet(table: SandboxTable, owner: str, name: str) -> Character:
    """Read a player's character as stored now."""
    store = table.bot.store  # type: ignore[attr-defined]
    found = await store.get_character(table.server.guild.id, table.user(owner).id, name)
    assert found is not None, name
    return found


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
    """Run a command that must be refused with this one private line, changing nothing."""
    store = table.bot.store  # type: ignore[attr-defined]
    guild = table.server.guild.id
    before = [c.model_dump() for c in await store.list_characters(guild, table.user(user).id)]
    reply = await table.user(user).run(line)
    assert_error_reply(reply)
    assert unmentioned(reply.content) == message, reply.content
    after = [c.model_dump() for c in await store.list_characters(guild, table.user(user).id)]
    assert after == before, f"{line} was refused but changed a sheet"
    return reply


@pytest.fixture
async def brom(fast) -> SandboxTable:
    """alice's Brom (Physical 4) with a Greataxe (1d12, base Risk 3) on his sheet."""
    table = fast
    alice = table.user("alice")
    await alice.run("/character create name:Brom physical:4 finesse:3")
    added = await alice.run("/character weapon add name:Greataxe damage:1d12 base_risk:3")
    assert added.ephemeral
    assert added.content == "**Brom** carries **Greataxe** — melee 1d12, base Risk 3."
    return table


async def test_weapons_armor_and_a_shield_are_kept_on_the_sheet(brom) -> None:
    """A weapon, armor or shield was not stored, listed, replaced or removed as told."""
    table = brom
    alice = table.user("alice")
    knife = await alice.run(
        "/character weapon add name:Knife damage:1d4 style:thrown weight:0.5 range:short"
    )
    assert knife.content == (
        "**Brom** carries **Knife** — thrown 1d4, base Risk 1, weight 0.5, range short."
    )
    await alice.run("/character armor name:Chain absorb:3 crit_guard:2")
    plate = await alice.run("/character armor name:Plate absorb:5")
    assert plate.content == (
        "**Brom** carries **Plate** — armor: absorbs 5, crit guard 0. It replaces **Chain**."
    )
    shield = await alice.run("/character shield name:Buckler block:2 guard:4 durability:3")
    assert shield.content == (
        "**Brom** carries **Buckler** — shield: block +2, guard +4, durability 3."
    )
    sharper = await alice.run("/character weapon add name:greataxe damage:1d12+1 base_risk:3")
    assert sharper.content == "**Brom** changes **greataxe** — melee 1d12+1, base Risk 3."
    listed = await alice.run("/character weapon list")
    assert listed.ephemeral
    assert listed.content.splitlines() == [
        "**Brom**'s loadout:",
        "**greataxe** — melee 1d12+1, base Risk 3",
        "**Knife** — thrown 1d4, base Risk 1, weight 0.5, range short",
        "**Plate** — armor: absorbs 5, crit guard 0",
        "**Buckler** — shield: block +2, guard +4, durability 3",
    ]
    removed = await alice.run("/character weapon remove name:KNIFE")
    assert removed.content == "**Brom** no longer carries **Knife**."
    assert (await sheet(table, "alice", "Brom")).items == [
        Weapon(name="greataxe", damage="1d12+1", base_risk=3),
        Armor(name="Plate", absorb=5),
        Shield(name="Buckler", block=2, guard=4, durability=3),
    ]
    shown = await alice.run("/character show")
    assert fields(shown.embed)["Loadout"] == (
        "**greataxe** — melee 1d12+1, base Risk 3\n"
        "**Plate** — armor: absorbs 5, crit guard 0\n"
        "**Buckler** — shield: block +2, guard +4, durability 3"
    )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            "/character weapon add name:Javelin damage:1d6 style:thrown",
            "A thrown attack needs the weapon's weight (its range is Physical ÷ weight).",
        ),
        (
            "/character weapon add name:Club damage:1d6 weight:2",
            "A weapon weight is for thrown attacks.",
        ),
        (
            "/character weapon add name:Mace damage:1d8 penetration:2",
            "Penetration is for ranged and thrown attacks.",
        ),
        (
            "/character weapon add name:Bow damage:1d8 style:ranged braced:true",
            "Only a melee weapon can be braced against a charge, not a ranged one.",
        ),
        (
            "/character weapon add name:Rod damage:2d",
            "That dice expression ends too early; try something like 2d6+3.",
        ),
        (
            "/character weapon add name:Greataxe damage:1d8 character:Nobody",
            "You have no character named 'Nobody' on this server.",
        ),
        (
            "/character weapon remove name:Club",
            "There is no 'Club' here; the loadout: Greataxe.",
        ),
        (
            "/character shield name:Greataxe",
            "Greataxe is already a weapon here; give the shield another name.",
        ),
        ("/character armor name:\u200b", "An item needs a name."),
    ],
)
async def test_a_bad_loadout_change_is_one_private_line(brom, line: str, message: str) -> None:
    """A weapon no attack could use, an unknown item or character changed a sheet or was unclear."""
    await refused(brom, "alice", line, message)


async def test_a_loadout_holds_ten_items(brom) -> None:
    """An eleventh item was stored [bot: 10 per sheet]."""
    table = brom
    for n in range(9):
        await table.user("alice").run(f"/character weapon add name:Knife{n} damage:1d4")
    await refused(
        table,
        "alice",
        "/character weapon add name:Club damage:1d6",
        "A loadout holds at most 10 items; remove one first.",
    )


async def test_without_a_character_there_is_no_loadout(fast) -> None:
    """A player with no character was not told how to get one."""
    await refused(
        fast,
        "bob",
        "/character weapon list",
        "You have no character on this server: /character create makes one.",
    )


async def attack_fight(table: SandboxTable) -> None:
    """Brom joins a fight against a Goblin (Physical 3, Finesse 2); Brom (Finesse 3) acts first."""
    await table.user("gm").run("/init start mode:finesse")
    await table.user("gm").run("/init add name:Goblin physical:3 finesse:2")
    joined = await table.user("alice").run("/init join")
    assert not joined.ephemeral, joined.text
    started = await table.user("gm").run("/init next")
    assert not started.ephemeral, started.text


async def test_an_attack_with_a_saved_weapon_equals_the_attack_typed_out(brom) -> None:
    """/attack weapon:Greataxe did not give the numbers of damage:1d12 base_risk:3 typed out."""
    table = brom
    await attack_fight(table)
    assert (await fighter(table, "Brom")).items == [GREATAXE]  # the sheet's loadout came along
    alice = table.user("alice")
    results = []
    for line in (
        "/attack target:Goblin damage:1d12 base_risk:3",
        "/attack target:Goblin weapon:Greataxe",
    ):
        script(table, d20(12), d20(5), d12(2))  # attack, block, the axe's 1d12
        prompt = await alice.run(line)
        assert not prompt.ephemeral, prompt.text
        results.append(await prompt.click("Block", as_user="gm"))
    typed, saved = results
    assert (
        fields(saved.embed)
        == fields(typed.embed)
        == {
            "Attack": "d20 **12** · Physical +4 → **16**\nRisk 3 · Critical 20",
            "Defense": "Block · d20 **5** · Physical +3 → **8**\nRisk 1 · Critical 20",
            "Outcome": "**16** vs **8** — **hit**",
            "Damage": "Weapon 2 (1d12: 2) → **2**",
            "Grit": "Goblin takes 2 damage (Prime d20).",
        }
    )
    assert typed.embed["description"] == "Melee · Block, chosen by Game Master"
    assert saved.embed["description"] == "Melee with Greataxe · Block, chosen by Game Master"
    assert (await fighter(table, "Goblin")).grit == 30 - 2 - 2


async def test_an_option_typed_with_a_weapon_wins(brom) -> None:
    """damage:1d4 typed beside weapon:Greataxe did not replace the axe's 1d12, or its Risk 3 was lost."""
    table = brom
    await attack_fight(table)
    script(table, d20(12), d20(5), d4(3))
    prompt = await table.user("alice").run("/attack target:Goblin weapon:Greataxe damage:1d4")
    resolved = await prompt.click("Block", as_user="gm")
    assert fields(resolved.embed)["Damage"] == "Weapon 3 (1d4: 3) → **3**"
    assert fields(resolved.embed)["Attack"].endswith("Risk 3 · Critical 20")


async def test_an_unknown_weapon_is_refused_and_the_attack_not_made(brom) -> None:
    """/attack with a weapon the attacker lacks made an attack or spent an action."""
    table = brom
    await attack_fight(table)
    before = await fighter(table, "Brom")
    reply = await table.user("alice").run("/attack target:Goblin weapon:Club")
    assert_error_reply(reply)
    assert reply.content == "Brom has no weapon 'Club' (its weapons: Greataxe)."
    assert await fighter(table, "Brom") == before


async def test_the_weapon_option_offers_the_attackers_weapons(brom) -> None:
    """/attack's weapon autocomplete did not list Brom's Greataxe to alice, or showed it to bob."""
    table = brom
    await attack_fight(table)
    target = {"target": "Goblin"}
    offered = await table.user("alice").autocomplete("attack", "weapon", "gr", options=target)
    assert [c["value"] for c in offered] == ["Greataxe"]
    assert await table.user("bob").autocomplete("attack", "weapon", "", options=target) == []


# Sheets that travel: /character export and /character import ------------------------------


async def exported(table: SandboxTable, user: str, line: str) -> bytes:
    """Run /character export; return the file it attached."""
    reply = await table.user(user).run(line)
    assert reply.ephemeral and reply.message is not None, reply.text
    (attachment,) = reply.message.attachments
    return table.server.file_content(attachment)


def upload(table: SandboxTable, content: bytes, filename: str = "sheet.json") -> dict[str, Any]:
    """Upload a file as a user does into a command's file option."""
    return table.server.host_file(filename, content, "application/json")


async def test_export_then_import_gives_the_same_sheet(brom) -> None:
    """A sheet exported and imported back lost or changed a stat, a tag, an item or a power."""
    table = brom
    alice = table.user("alice")
    await alice.run("/character edit field:tags value:Dwarf, Veteran")
    await alice.run("/character edit field:grit value:21")
    await alice.run("/character armor name:Chain absorb:3 crit_guard:2")
    await alice.run("/character shield name:Buckler block:2 guard:4 durability:3")
    await alice.run("/character power add name:active_buff:damage")
    await alice.run(
        "/character power build name:Zap type:active level:1 components:damage:2d8 limit:round"
    )
    before = await sheet(table, "alice", "Brom")
    assert [p.name for p in before.powers] == ["Damage", "Zap"]  # powers travel too
    content = await exported(table, "alice", "/character export")
    reply = await alice.run("/character export")
    assert unmentioned(reply.content) == "**Brom**'s sheet: /character import reads it back."
    assert reply.message.attachments[0]["filename"] == "Brom.tablehand.json"

    deleting = await alice.run("/character delete name:Brom")
    await deleting.click("Confirm")
    imported = await alice.run("/character import", file=upload(table, content))
    assert imported.ephemeral
    assert imported.content.startswith("Created **Brom**.")
    after = await sheet(table, "alice", "Brom")
    assert after.model_dump(exclude={"id"}) == before.model_dump(exclude={"id"})
    again = await exported(table, "alice", "/character export")
    assert again == content  # the file round-trips byte for byte too

    copy = await alice.run("/character import name:Brom Twin", file=upload(table, content))
    assert copy.content.startswith("Created **Brom Twin**.")
    twin = await sheet(table, "alice", "Brom Twin")
    assert twin.model_dump(exclude={"id", "name"}) == before.model_dump(exclude={"id", "name"})


def sheet_json(**sheet: Any) -> bytes:
    """Return a sheet file with these sheet fields (a valid file without any)."""
    return json.dumps(
        {"format": "tablehand-sheet", "version": 1, "sheet": {"name": "Vex", **sheet}}
    ).encode()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            b"not json",
            "That file is not a Tablehand sheet (Invalid JSON: expected ident at line 1 column 2).",
        ),
        (
            json.dumps({"format": "other", "version": 1, "sheet": {"name": "Vex"}}).encode(),
            "That file is not a Tablehand sheet (format: Input should be 'tablehand-sheet').",
        ),
        (
            sheet_json(physical=500),
            "That file is not a Tablehand sheet (sheet.physical: Input should be less than or equal to 100).",
        ),
        (
            sheet_json(wings=2),
            "That file is not a Tablehand sheet (sheet.wings: Extra inputs are not permitted).",
        ),
        (sheet_json(grit=40, max_grit=20), "That sheet's Grit 40 is above its max_grit 20."),
        (
            sheet_json(
                items=[
                    {"kind": "armor", "name": "Chain"},
                    {"kind": "armor", "name": "Plate"},
                ]
            ),
            "The loadout has a second armor (Plate): one at a time.",
        ),
        (sheet_json(name="Brom"), "You already have a character named Brom."),
        (b" " * (65 * 1024), "That file is 66560 bytes; a sheet is at most 64 KiB."),
    ],
)
async def test_a_bad_sheet_file_is_refused_in_one_line(brom, content: bytes, message: str) -> None:
    """A file that is no valid sheet created a character, or was refused unclearly."""
    table = brom
    store = table.bot.store  # type: ignore[attr-defined]
    guild, alice = table.server.guild.id, table.user("alice").id
    before = [c.model_dump() for c in await store.list_characters(guild, alice)]
    reply = await table.user("alice").run("/character import", file=upload(table, content))
    assert_error_reply(reply)
    assert reply.content == message
    assert [c.model_dump() for c in await store.list_characters(guild, alice)] == before


async def test_the_readmes_fight_with_weapons(fast) -> None:
    """The README's short fight with weapons did not play as the README shows it."""
    table = fast
    alice, gm = table.user("alice"), table.user("gm")
    for who, line in (
        (alice, "/character create name:Brom physical:4 finesse:3"),
        (alice, "/character weapon add name:Greataxe damage:1d12 base_risk:3"),
        (alice, "/character armor name:Chain absorb:3 crit_guard:2"),
        (gm, "/init start mode:finesse"),
        (gm, "/npc create name:Goblin physical:3 finesse:2 max_grit:12"),
        (gm, "/npc weapon add npc:Goblin name:Shortsword damage:1d6"),
        (gm, "/npc armor npc:Goblin name:Hide absorb:1"),
        (gm, "/init add name:Goblin count:2"),
        (alice, "/init join"),
        (gm, "/init next"),
    ):
        reply = await who.run(line)
        private = line.startswith(("/character", "/npc"))  # sheets and templates: privately
        assert reply.ephemeral == private and "Only" not in reply.content, (line, reply.text)
    script(
        table, d20(12), d12(5), d12(9)
    )  # Brom's attack, the Goblin's block (Grit 12: d12), the axe
    prompt = await alice.run("/attack target:Goblin 1 weapon:Greataxe")
    hit = await prompt.click("Block", as_user="gm")
    assert hit.embed["description"] == "Melee with Greataxe · Block, chosen by Game Master"
    assert fields(hit.embed) == {
        "Attack": "d20 **12** · Physical +4 → **16**\nRisk 3 · Critical 20",
        "Defense": "Block · d12 **5** · Physical +3 → **8**\nRisk 1 · Critical 12",
        "Outcome": "**16** vs **8** — **hit**",
        "Damage": "Weapon 9 (1d12: 9) · Armor (Hide) -1 → **8**",
        "Grit": "Goblin 1 takes 8 damage. Goblin 1 drops to Frail Grit — now rolls d10.",
    }
    await alice.run("/init next")
    script(
        table, d10(9), d20(6), d6(4)
    )  # the Goblin's attack (Frail: d10), Brom's block, the sword
    prompt = await gm.run("/attack target:Brom attacker:Goblin 1 weapon:Shortsword")
    back = await prompt.click("Block", as_user="alice")
    assert fields(back.embed) == {
        "Attack": "d10 **9** · Physical +3 → **12**\nRisk 1 · Critical 10",
        "Defense": "Block · d20 **6** · Physical +4 → **10**\nRisk 1 · Critical 20",
        "Outcome": "**12** vs **10** — **hit**",
        "Damage": "Weapon 4 (1d6: 4) · Armor (Chain) -3 → **1**",
        "Grit": "Brom takes 1 damage (Grit 30 → 29).",
    }


async def test_a_file_option_takes_a_path_in_the_sandbox(brom, tmp_path) -> None:
    """`file:path` typed in the sandbox did not upload that file, or a missing one was not said."""
    table = brom
    path = tmp_path / "brom.json"
    path.write_bytes(await exported(table, "alice", "/character export"))
    copy = await table.user("alice").run(f"/character import file:{path} name:Copy")
    assert copy.content.startswith("Created **Copy**.")
    with pytest.raises(UsageError, match="file: cannot read"):
        await table.user("alice").run(f"/character import file:{tmp_path / 'gone.json'}")
