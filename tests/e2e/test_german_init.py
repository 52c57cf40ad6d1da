"""Deutsch for the fight itself: /init, /effect, /move, the Specials' ticks and the fight's log.

A German server (its Discord locale): the GM and alice have German clients, bob an English
one [issue 23]. What the channel reads (the opening, joins, moves, Specials, the end and
the log file the table receives) follows the server; each private reply (a refusal,
/effect list, the end's question) follows its reader. No dice are rolled: the mode is
finesse, and an empty script fails loudly on any draw.
"""

from __future__ import annotations

import pytest

from bot.sandbox.client import InteractionResult, SandboxTable
from tests.e2e.helpers import script, unmentioned

pytestmark = pytest.mark.e2e

OPENING = (
    "Begegnung eröffnet — Modus **Finesse**, Ablauf **Kompakt**; der Tracker ist in diesem "
    "Kanal angeheftet. Die SL fügt Gegner mit /init add hinzu, Spieler treten mit /init join "
    "bei. **Runde 1** beginnt."
)
TICK = "Specials von Goblin — Ruin 3: Goblin erleidet 3 Schaden (Prime d20). Ruin 3 → 2."
ROUND_1_LOG = [
    "## Runde 1",
    "",
    "- Game Master eröffnet die Begegnung (Finesse, Kompakt).",
    "- Goblin tritt dem Kampf bei.",
    "- **Mira** tritt dem Kampf bei.",
    "- **Bram** tritt dem Kampf bei.",
    "- Goblin hat jetzt Ruin 3 (von Mira).",
    "- Initiative: Mira (5), Goblin (2), Bram (1)",
    "- **Mira** ist am Zug — würfelt d20, 2 Aktionen",
    "- Mira bewegt sich 4 m.",
    f"- {TICK}",
    "- **Goblin** ist am Zug — würfelt d20, 2 Aktionen",
]


def files_of(table: SandboxTable, reply: InteractionResult) -> dict[str, str]:
    """Return the files a reply's messages carry, by name, as text."""
    bodies = table.server.attachment_bodies
    return {
        attachment["filename"]: bodies[attachment["id"]].decode()
        for message in reply.messages
        for attachment in message.attachments
    }


@pytest.fixture
async def german(fast) -> SandboxTable:
    """A German server; the GM and alice have German clients, bob an English one."""
    fast.server.set_preferred_locale("de")
    fast.user("gm", locale="de")
    fast.user("alice", locale="de")
    script(fast)  # no dice in this fight: any draw fails the test
    return fast


async def opened(table: SandboxTable) -> None:
    """Open a finesse fight: a Goblin with Ruin 3, alice's Mira, bob's Bram; Mira's turn."""
    gm = table.user("gm")
    await gm.run("/init starten modus:finesse")
    await gm.run("/init hinzufügen name:Goblin finesse:2")
    await table.user("alice").run("/init beitreten charakter:Mira finesse:5")
    await table.user("bob").run("/init join character:Bram finesse:1")
    await gm.run("/effekt anwenden kämpfer:Goblin special:Ruin x:3 quelle:Mira")
    await gm.run("/init weiter")


async def test_the_fight_commands_are_registered_with_german_names(german) -> None:
    """/init, /effect and /move did not carry German names, options and descriptions."""
    synced = {c["name"]: c for c in german.server.synced_commands()}
    init = synced["init"]
    assert "de" not in init["name_localizations"]  # /init keeps its name in German
    assert init["description_localizations"]["de"] == "Die Begegnung und ihr Tracker"
    subcommands = {o["name"]: o["name_localizations"]["de"] for o in init["options"]}
    assert subcommands["start"] == "starten"
    assert subcommands["join"] == "beitreten"
    assert subcommands["add"] == "hinzufügen"
    assert subcommands["next"] == "weiter"
    assert subcommands["end"] == "beenden"
    assert subcommands["log"] == "protokoll"
    apply = next(o for o in synced["effect"]["options"] if o["name"] == "apply")
    assert synced["effect"]["name_localizations"]["de"] == "effekt"
    assert apply["name_localizations"]["de"] == "anwenden"
    options = {o["name"]: o.get("name_localizations", {}) for o in apply["options"]}
    assert options["combatant"]["de"] == "kämpfer"
    assert "de" not in options["special"]  # Special is an SRD keyword: the same in German
    assert options["source"]["de"] == "quelle"
    move = synced["move"]
    assert move["name_localizations"]["de"] == "bewegen"
    assert move["options"][0]["name_localizations"]["de"] == "entfernung"


async def test_a_german_table_reads_the_fight_in_german(german) -> None:
    """Opening, adding, joining, a Special, a move or a Special's tick was not German."""
    table = german
    gm, alice, bob = table.user("gm"), table.user("alice"), table.user("bob")
    started = await gm.run("/init starten modus:finesse")
    assert not started.ephemeral
    assert unmentioned(started.content).startswith(OPENING)
    added = await gm.run("/init hinzufügen name:Goblin finesse:2")
    assert added.content == "Hinzugefügt: Goblin."
    joined = await alice.run("/init beitreten charakter:Mira finesse:5")
    assert joined.content == "**Mira** tritt dem Kampf bei."
    english = await bob.run("/init join character:Bram finesse:1")
    assert english.content == "**Bram** tritt dem Kampf bei."  # the table's language, not bob's
    applied = await gm.run("/effekt anwenden kämpfer:Goblin special:Ruin x:3 quelle:Mira")
    assert applied.content == "Goblin hat jetzt Ruin 3 (von Mira)."
    await gm.run("/init weiter")  # Mira's turn
    moved = await alice.run("/bewegen entfernung:4")
    assert moved.content == (
        "Mira bewegt sich 4 m (4 m in diesem Zug; Mobilität 8 m; 1 Aktion ausgegeben, noch 1)."
    )
    ticked = await alice.run("/init weiter")  # the Goblin's turn starts: Ruin ticks
    assert ticked.content.splitlines() == [TICK, "**Goblin** ist am Zug — würfelt d20, 2 Aktionen"]


async def test_rules_refusals_and_private_replies_follow_the_reader(german) -> None:
    """alice's refusals or /effect list were not German, or bob's not English, on one server."""
    table = german
    await opened(table)
    alice, bob = table.user("alice"), table.user("bob")
    refused = await alice.run("/effekt entfernen kämpfer:Mira special:Prone")
    assert refused.ephemeral and refused.content == "Mira liegt nicht am Boden."
    refused = await bob.run("/effect remove combatant:Bram special:Prone")
    assert refused.ephemeral and refused.content == "Bram is not prone."
    unknown = await alice.run("/effekt anwenden kämpfer:Mira special:Xyzzy x:2")
    assert unknown.ephemeral and unknown.content == "Kein Special heißt 'Xyzzy'."
    unknown = await bob.run("/effect apply combatant:Bram special:Xyzzy x:2")
    assert unknown.ephemeral and unknown.content == "No Special named 'Xyzzy'."
    early = await bob.run("/move distance:2")  # Mira's turn, not Bram's
    assert early.ephemeral and unmentioned(early.content) == (
        "It is not Bram's turn: move when it comes, or /wait and then /act to move sooner; "
        "the GM may force it (force:true)."
    )
    await alice.run("/init weiter")  # the Goblin's turn
    early = await alice.run("/bewegen entfernung:2")
    assert unmentioned(early.content) == (
        "Mira ist nicht am Zug und war in dieser Runde schon dran; "
        "die SL kann es erzwingen (erzwingen:true)."
    )
    listed = await alice.run("/effekt liste")
    assert listed.ephemeral and listed.content.splitlines()[0] == (
        "**Goblin** — Ruin 2 (von Mira) · Mobilität 8 m · in diesem Zug 0 m bewegt"
    )
    listed = await bob.run("/effect list")
    assert listed.ephemeral and listed.content.splitlines()[0] == (
        "**Goblin** — Ruin 2 (from Mira) · Mobility 8 m · moved 0 m this turn"
    )


async def test_the_gm_reads_the_log_so_far_in_the_tables_language(german) -> None:
    """/init log's reply or its file was not German at a German table."""
    table = german
    await opened(table)
    alice = table.user("alice")
    await alice.run("/bewegen entfernung:4")
    await alice.run("/init weiter")
    reply = await table.user("gm").run("/init protokoll")
    assert reply.ephemeral and reply.content == "Das Kampfprotokoll bis jetzt, bis Runde 1."
    [(name, text)] = files_of(table, reply).items()
    assert name == "kampfprotokoll.md"  # named in the table's language too
    lines = text.splitlines()
    assert lines[0] == "# Das Kampfprotokoll bis jetzt: Runde 1"
    assert lines[2].startswith("Geschrieben ") and lines[2].endswith(" UTC.")
    assert lines[4:] == ROUND_1_LOG


async def test_the_end_asks_in_german_and_posts_a_german_log(german) -> None:
    """/init end's question, buttons, answer, closing line or log file was not German."""
    table = german
    await opened(table)
    alice = table.user("alice")
    await alice.run("/bewegen entfernung:4")
    await alice.run("/init weiter")
    asked = await table.user("gm").run("/init beenden")
    assert asked.ephemeral and asked.content == (
        "Diese Begegnung beenden? Der Tracker wird nicht mehr angeheftet und das Grit des "
        "Kampfes auf die Charaktere zurückgeschrieben."
    )
    assert [b["label"] for b in asked.buttons] == ["Bestätigen", "Abbrechen"]
    confirmed = await asked.click("Bestätigen")
    assert confirmed.content == "Begegnung beendet."
    [final] = await confirmed.wait_followups(1)
    assert final.content.startswith(
        "**Die Begegnung ist nach Runde 1 vorbei.** Das Protokoll des ganzen Kampfes hängt an."
    )
    [attachment] = final.attachments
    text = table.server.attachment_bodies[attachment["id"]].decode()
    assert text.splitlines() == ["# Das Kampfprotokoll, Runde 1", "", *ROUND_1_LOG]


async def test_cancelling_the_end_answers_the_gm_in_german(german) -> None:
    """Cancel on /init end did not say in German that the encounter goes on."""
    table = german
    await opened(table)
    asked = await table.user("gm").run("/init beenden")
    cancelled = await asked.click("Abbrechen")
    assert cancelled.content == "Die Begegnung geht weiter."


async def test_an_english_gm_gets_the_german_tables_log(german) -> None:
    """An English GM's /init log reply was not English, or the file not in the table's German."""
    table = german
    await opened(table)
    table.user("gm", locale="en-US")
    reply = await table.user("gm").run("/init log")
    assert reply.content == "The fight's log so far, up to round 1."  # the GM's own reply
    [text] = files_of(table, reply).values()
    assert text.splitlines()[0] == "# Das Kampfprotokoll bis jetzt: Runde 1"  # the table's record
    assert "- Goblin hat jetzt Ruin 3 (von Mira)." in text.splitlines()
