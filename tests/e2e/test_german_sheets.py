"""Deutsch for sheets: /character, its loadout and files, /npc and the Grit card [issue 23].

alice's Discord client is German, bob's English, both at one (English) server. Everything
/character and /npc answer is private, so it follows the caller's language: alice reads
German — replies, refusals, embeds, buttons — and bob English, on the same server.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.sandbox.client import InteractionResult, SandboxTable
from bot.sandbox.validate import COMMAND_SIZE_LIMIT, command_size
from tests.e2e.helpers import unmentioned
from tests.e2e.invariants import assert_error_reply

pytestmark = pytest.mark.e2e

PRIME_ROW_DE = "Bedrohung 20 m · Mobilität 8 m · Tatkraft 10 m · Wahrnehmung 10 m"
PRIME_ROW_EN = "Threat 20 m · Mobility 8 m · Vigor 10 m · Perception 10 m"
NOT_GM_DE = (
    "Nur die SL kann NSC-Vorlagen verwalten (SL durch /init start hier, "
    "„Kanäle verwalten“ oder die SL-Rolle)."
)


def fields(reply: InteractionResult) -> dict[str, str]:
    """Return the reply's embed fields as name → value."""
    assert reply.embed is not None, reply.text
    return {f["name"]: f["value"] for f in reply.embed.get("fields", [])}


def sheet_file(**sheet: Any) -> bytes:
    """Return a sheet file with these sheet fields."""
    return json.dumps(
        {"format": "tablehand-sheet", "version": 1, "sheet": {"name": "Vex", **sheet}}
    ).encode()


@pytest.fixture
async def mira(fast: SandboxTable) -> SandboxTable:
    """alice (German client) has created Mira, Physical 4, Finesse 3."""
    created = await fast.user("alice", locale="de").run(
        "/charakter erstellen name:Mira physis:4 finesse:3"
    )
    assert created.ephemeral
    assert unmentioned(created.content) == (
        "**Mira** ist erstellt und jetzt dein aktiver Charakter; mit /init join trittst du "
        "damit dem Kampf bei."
    )
    return fast


async def test_character_and_npc_carry_german_names_within_discords_size(
    table: SandboxTable,
) -> None:
    """/character or /npc had no German names, or their German made a command too large."""
    synced = {c["name"]: c for c in table.server.synced_commands()}
    character, npc = synced["character"], synced["npc"]
    assert character["name_localizations"]["de"] == "charakter"
    assert npc["name_localizations"]["de"] == "nsc"
    sub = {o["name"]: o for o in character["options"]}
    assert sub["create"]["name_localizations"]["de"] == "erstellen"
    assert sub["edit"]["name_localizations"]["de"] == "bearbeiten"
    weapon = {o["name"]: o for o in sub["weapon"]["options"]}
    assert weapon["add"]["name_localizations"]["de"] == "hinzufügen"
    assert sub["create"]["description_localizations"]["de"] == (
        "Charakter erstellen (ohne Optionen: Formular)"
    )
    # Discord counts only the longest localization of each field: 4,000 at most [Discord].
    for root in (character, npc):
        assert command_size(root) <= COMMAND_SIZE_LIMIT, (root["name"], command_size(root))


async def test_a_german_player_creates_and_reads_her_sheet_in_german(mira) -> None:
    """alice's sheet card, list or Grit card was not German."""
    alice = mira.user("alice")
    shown = await alice.run("/charakter anzeigen")
    assert shown.ephemeral
    assert shown.embed["title"] == "Mira"
    assert shown.embed["description"] == "Dein aktiver Charakter (`/init join` nutzt ihn)."
    assert fields(shown) == {
        "Grit": "`██████████` 30/30\n**Prime** — würfelt d20",
        "Grit-Tabelle (Prime)": PRIME_ROW_DE,
        "Physis": "+4",
        "Finesse": "+3",
        "Risiko": "0",
        "Initiativebonus": "0",
        "Mastery Rank": "1",
        "Kritbereich": "1",
        "Standardverteidigung": "automatisch",
    }
    listed = await alice.run("/charakter liste")
    assert listed.embed["title"] == "Deine Charaktere auf diesem Server"
    assert listed.embed["description"] == "▶ **Mira** · Grit 30/30 Prime d20 · aktiv"
    card = await alice.run("/grit anzeigen")
    assert card.embed["title"] == "Mira — Grit"
    assert card.embed["description"] == "`██████████` 30/30\n**Prime** — würfelt d20"
    assert fields(card) == {"Grit-Tabelle (Prime)": PRIME_ROW_DE}


async def test_a_german_player_without_a_character_is_told_in_german(fast) -> None:
    """The refusal for a player with no character was not one German sentence."""
    reply = await fast.user("alice", locale="de").run("/charakter anzeigen")
    assert_error_reply(reply)
    assert unmentioned(reply.content) == (
        "Du hast keinen Charakter auf diesem Server: /character create erstellt einen."
    )


async def test_edits_and_their_refusals_are_german(mira) -> None:
    """/charakter bearbeiten's change line or its refusals were not German."""
    alice = mira.user("alice")
    changed = await alice.run("/charakter bearbeiten feld:risk wert:2")
    assert changed.ephemeral and changed.content == "**Mira**: Risiko 0 → 2."
    cleared = await alice.run("/charakter bearbeiten feld:perception_m wert:12")
    assert cleared.content == "**Mira**: Wahrnehmung (m) keine → 12."
    refused = await alice.run("/charakter bearbeiten feld:physical wert:abc")
    assert_error_reply(refused)
    assert refused.content == "Physis nimmt eine ganze Zahl von -50 bis 100, nicht 'abc'."
    half = await alice.run("/charakter bearbeiten feld:risk")
    assert half.content == (
        "Gib feld und wert an, oder lass beide weg, um im Formular zu bearbeiten."
    )


async def test_a_weapon_is_added_and_listed_in_german(mira) -> None:
    """A weapon's line, the loadout list or a bad weapon's refusal was not German."""
    alice = mira.user("alice")
    added = await alice.run(
        "/charakter waffe hinzufügen name:Axt schaden:1d12 grundrisiko:3 reichweite:2"
    )
    assert added.ephemeral
    assert added.content == "**Mira** trägt **Axt** — Nahkampf 1d12, Grundrisiko 3, Reichweite 2."
    knife = await alice.run(
        "/charakter waffe hinzufügen name:Messer schaden:1d4 stil:thrown gewicht:0.5 distanz:short"
    )
    assert knife.content == (
        "**Mira** trägt **Messer** — Wurf 1d4, Grundrisiko 1, Gewicht 0.5, Distanz kurz."
    )
    shield = await alice.run("/charakter schild name:Buckler block:2 abwehr:1")
    assert shield.content == "**Mira** trägt **Buckler** — Schild: Block +2, Abwehr +1."
    listed = await alice.run("/charakter waffe liste")
    assert listed.content == (
        "Ausrüstung von **Mira**:\n"
        "**Axt** — Nahkampf 1d12, Grundrisiko 3, Reichweite 2\n"
        "**Messer** — Wurf 1d4, Grundrisiko 1, Gewicht 0.5, Distanz kurz\n"
        "**Buckler** — Schild: Block +2, Abwehr +1"
    )
    braced = await alice.run(
        "/charakter waffe hinzufügen name:Speer schaden:1d6 stil:thrown gestemmt:true"
    )
    assert_error_reply(braced)
    assert braced.content == (
        "Nur eine Nahkampfwaffe kann gegen einen Ansturm gestemmt werden, keine Wurfwaffe."
    )
    gone = await alice.run("/charakter waffe entfernen name:Keule")
    assert gone.content == "Hier gibt es kein 'Keule'; die Ausrüstung: Axt, Messer, Buckler."
    removed = await alice.run("/charakter waffe entfernen name:Messer")
    assert removed.content == "**Mira** trägt **Messer** nicht mehr."


async def test_export_and_import_refusals_are_german(mira) -> None:
    """/charakter export's reply or a refused sheet file was not German; a refusal changed a sheet."""
    alice = mira.user("alice")
    exported = await alice.run("/charakter export")
    assert unmentioned(exported.content) == (
        "Der Charakterbogen von **Mira**: /character import liest ihn wieder ein."
    )
    assert exported.message.attachments[0]["filename"] == "Mira.tablehand.json"
    for content, message in (
        (
            json.dumps({"format": "other", "version": 1, "sheet": {"name": "Vex"}}).encode(),
            # the file's fault, named where it is, in the reader's words (pydantic's type)
            "Diese Datei ist kein Tablehand-Charakterbogen "
            "(format: erwartet wird 'tablehand-sheet').",
        ),
        (
            sheet_file(grit=40, max_grit=20),
            "Das Grit 40 dieses Charakterbogens liegt über seinem max_grit 20.",
        ),
        (
            sheet_file(
                items=[{"kind": "armor", "name": "Kette"}, {"kind": "armor", "name": "Platte"}]
            ),
            "Die Ausrüstung hat eine zweite Rüstung (Platte): immer nur eine.",
        ),
        (sheet_file(name="Mira"), "Du hast schon einen Charakter namens Mira."),
        (
            b" " * (65 * 1024),
            "Diese Datei hat 66560 Bytes; ein Charakterbogen hat höchstens 64 KiB.",
        ),
    ):
        upload = mira.server.host_file("sheet.json", content, "application/json")
        reply = await alice.run("/charakter import", file=upload)
        assert_error_reply(reply)
        assert reply.content == message
    store = mira.bot.store  # type: ignore[attr-defined]
    own = await store.list_characters(mira.server.guild.id, alice.id)
    assert [c.name for c in own] == ["Mira"]


async def test_deleting_asks_and_answers_in_german(mira) -> None:
    """The delete confirmation's question, buttons or answer were not German."""
    alice = mira.user("alice")
    asked = await alice.run("/charakter löschen name:Mira")
    assert asked.content == "**Mira** endgültig löschen?"
    labels = [b["label"] for row in asked.message.components for b in row["components"]]
    assert labels == ["Bestätigen", "Abbrechen"]
    done = await asked.click("Bestätigen")
    assert done.content == "**Mira** ist gelöscht."


async def test_a_german_gm_keeps_npc_templates_in_german(fast) -> None:
    """/nsc erstellen, anzeigen or liste answered a German GM in English, or a player got in."""
    gm = fast.user("admin", locale="de")  # Manage Channels: a GM for templates
    created = await gm.run(
        "/nsc erstellen name:Goblin physis:3 finesse:2 max_grit:12 verteidigung:dodge"
    )
    assert created.ephemeral
    assert created.content == (
        "NSC-Vorlage **Goblin** erstellt: `/init add name:Goblin` bringt sie ins Spiel."
    )
    shown = await gm.run("/nsc anzeigen name:Goblin")
    assert shown.embed["title"] == "Goblin (NSC-Vorlage)"
    assert shown.embed["description"] == (
        "`/init add name:Goblin` bringt sie ins Spiel; dort angegebene Werte gehen vor."
    )
    assert fields(shown) == {
        "Grit": "12/12",
        "Physis": "+3",
        "Finesse": "+2",
        "Risiko": "0",
        "Initiativebonus": "0",
        "Mastery Rank": "1",
        "Kritbereich": "1",
        "Standardverteidigung": "ausweichen",
        "Ausrüstung": "Keine Waffen, keine Rüstung, kein Schild.",
    }
    armed = await gm.run("/nsc waffe hinzufügen nsc:Goblin name:Kurzschwert schaden:1d6")
    assert armed.content == "**Goblin** trägt **Kurzschwert** — Nahkampf 1d6, Grundrisiko 1."
    listed = await gm.run("/nsc liste")
    assert listed.embed["title"] == "NSC-Vorlagen auf diesem Server"
    assert listed.embed["description"] == (
        "**Goblin** · Grit 12 · Physis +3 · Finesse +2 · 1 Gegenstand"
    )
    edited = await gm.run("/nsc bearbeiten name:Goblin risiko:2 umbenennen:Gobbo")
    assert edited.content == "**Gobbo**: Risiko 2, Name Gobbo."
    deleted = await gm.run("/nsc löschen name:Gobbo")
    assert deleted.content == "Die NSC-Vorlage **Gobbo** ist gelöscht."
    player = await fast.user("alice", locale="de").run("/nsc liste")
    assert_error_reply(player)
    assert unmentioned(player.content) == NOT_GM_DE


async def test_an_english_player_on_the_same_server_reads_english(mira) -> None:
    """bob's replies and cards were not English while alice's are German."""
    bob = mira.user("bob")
    created = await bob.run("/character create name:Brom physical:4")
    assert unmentioned(created.content) == (
        "Created **Brom**. It is your active character: /init join plays it."
    )
    assert fields(created)["Grit table (Prime)"] == PRIME_ROW_EN
    assert fields(created)["Default defense"] == "auto"
    added = await bob.run("/character weapon add name:Greataxe damage:1d12 base_risk:3")
    assert added.content == "**Brom** carries **Greataxe** — melee 1d12, base Risk 3."
    listed = await bob.run("/character weapon list")
    assert listed.content == "**Brom**'s loadout:\n**Greataxe** — melee 1d12, base Risk 3"
    card = await bob.run("/grit show")
    assert card.embed["description"] == "`██████████` 30/30\n**Prime** — rolls d20"
    german = await mira.user("alice").run("/charakter bearbeiten feld:risk wert:1")
    assert german.content == "**Mira**: Risiko 0 → 1."


async def test_the_character_form_speaks_german(fast) -> None:
    """/charakter erstellen's form, its refusal or its answer were not German."""
    alice = fast.user("alice", locale="de")
    opened = await alice.run("/charakter erstellen")
    modal = opened.record.modal
    assert modal["title"] == "Neuer Charakter"
    labels = [c["label"] for row in modal["components"] for c in row["components"]]
    assert labels == ["Name", "Physis", "Finesse", "Grit: aktuell/max", "Mehr: je Zeile feld: wert"]
    refused = await alice.submit_modal(opened, {"name": "Torv", "grit": "40/30"})
    assert_error_reply(refused)
    assert refused.content == "Grit 40 liegt über max_grit 30."
    again = await alice.run("/charakter erstellen")
    done = await alice.submit_modal(again, {"name": "Torv", "physical": "3", "more": "risk: 1"})
    assert unmentioned(done.content) == (
        "**Torv** ist erstellt und jetzt dein aktiver Charakter; mit /init join trittst du "
        "damit dem Kampf bei."
    )
    editing = await alice.run("/charakter bearbeiten")
    assert editing.record.modal["title"] == "Torv bearbeiten"
    edited = await alice.submit_modal(editing, {"finesse": "2", "more": "stamina: 5"})
    assert edited.content == "**Torv**: Finesse 0 → 2; Ausdauer keine → 5."


async def test_a_near_name_is_asked_about_in_german(mira) -> None:
    """A character name that nearly fits was not asked about in one German sentence."""
    alice = mira.user("alice")
    await alice.run("/charakter erstellen name:Mara")
    asked = await alice.run("/charakter anzeigen name:Mra")
    assert asked.ephemeral
    assert unmentioned(asked.content) == (
        "Du hast keinen Charakter namens 'Mra'. Meintest du Mara oder Mira?"
    )
