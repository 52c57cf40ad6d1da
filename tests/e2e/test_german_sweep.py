"""Every command of the tree, in German: success paths, refusals, buttons, menus and forms.

`test_german_fight.py` plays one fight; this sweep reaches what a fight does not: each
command and subcommand at a German server, typed by German users under its German name,
once as it should go and on its common refusals (not found, not your turn, not the GM,
bad values), with the buttons, menus and forms they open. Everything anyone read goes
through `tests.e2e.english`. What may stay English is named here: the names typed, the
SRD's keywords (glossary, "Kept in English") and a build's components as typed
(`damage:1d8`); the exported sheet file (data in the import format); and in the look-ups,
the SRD's own text [001 §0.2] — every sentence of the loaded catalogue, an entry's
description, and the power card's table and tooltip [001 §8.2].
"""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any

import pytest
from pydantic import BaseModel

from bot.sandbox.client import InteractionResult, SandboxTable, SandboxUser
from tests.e2e.english import english_in
from tests.e2e.helpers import script
from tests.e2e.test_german_fight import Transcript
from tests.scripted import ScriptedRandom, d8, d12, d20

pytestmark = pytest.mark.e2e

# The names typed in this sweep, and the SRD keywords the glossary keeps English.
TYPED = ("Mira", "Brom", "Goblin", "Späher", "Ork", "Langschwert", "Kettenhemd", "Bolt")
KEYWORDS = ("Active Buff", "Active", "Reaction", "Passive", "Movement", "Spell", "Ruin")
ALLOWED = (*TYPED, *KEYWORDS, "Game Master")  # the GM's display name
# A build's components are typed as the SRD names them (`damage:1d8`): PP terms, kept English.
COMPONENTS = ("damage:", ", damage,", "damage wird je")
APOLOGY = "schiefgegangen"  # the German apology for an unexpected error: no path may reach it


class Sweep(Transcript):
    """A transcript that also keeps the forms a command opened."""

    async def run(self, user: SandboxUser, line: str, **options: Any) -> InteractionResult:
        """Run a command as typed and keep what it showed (and any form it opened)."""
        reply = self.saw(await user.run(line, **options))
        self.form(reply)
        return reply

    async def click(
        self, reply: InteractionResult, button: str | int, user: str
    ) -> InteractionResult:
        """Press a button on a reply's messages as a user; keep what that showed."""
        return self.saw(await reply.click(button, as_user=user))

    def form(self, reply: InteractionResult) -> None:
        """Keep a modal's title, labels and the values it shows filled in."""
        modal = reply.record.modal
        if modal is None:
            return
        self.texts.append(modal.get("title") or "")
        for row in modal.get("components") or []:
            for item in row.get("components") or []:
                self.texts += [item.get(k) or "" for k in ("label", "placeholder", "value")]

    def leaks(self, *allowed: str) -> list[str]:
        """Return the English a German reader met here (nothing: all German)."""
        text = self.text()
        assert APOLOGY not in text, text
        return english_in(text, allowed=(*allowed, *ALLOWED))


async def german_table(make_table: Any) -> SandboxTable:
    """Return a German server; its tracker is edited at once."""
    table = await make_table()
    table.server.set_preferred_locale("de")
    table.bot.trackers.interval = 0  # type: ignore[attr-defined]
    return table


def seeded(table: SandboxTable) -> None:
    """End the scripted dice (each face must have been drawn); a seeded Random rolls the rest.

    The sweep asserts what a reader sees, not a number: where a path needs a face (a
    natural 1, a hit) it is scripted; elsewhere any roll reaches the same texts.
    """
    before = table.bot.rng  # type: ignore[attr-defined]
    if isinstance(before, ScriptedRandom):
        before.done()
    table.bot.rng = random.Random(23)  # type: ignore[attr-defined]


def users(table: SandboxTable, *names: str) -> list[SandboxUser]:
    """Return users whose Discord clients speak German."""
    return [table.user(name, locale="de") for name in names]


@cache
def srd_texts(table_catalogue: Any) -> tuple[str, ...]:
    """Return every text of the loaded SRD catalogue (English by the SRD [001 §0.2]), longest first."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, BaseModel):
            for field in type(value).model_fields:
                walk(getattr(value, field))
        elif isinstance(value, dict):
            for key, item in value.items():
                walk(key)
                walk(item)
        elif isinstance(value, list | tuple | set | frozenset):
            for item in value:
                walk(item)
        elif isinstance(value, str) and " " in value.strip():  # a word alone is no sentence
            found.add(value)

    walk(table_catalogue)
    return tuple(sorted(found, key=len, reverse=True))


async def test_sheets_and_their_loadouts_read_german(make_table, tmp_path) -> None:
    """Some /character command, form, confirmation or refusal reached a German player in English."""
    table = await german_table(make_table)
    seen = Sweep(table)
    alice, bob, _admin = users(table, "alice", "bob", "admin")
    form = await seen.run(alice, "/charakter erstellen")
    seen.saw(await alice.submit_modal(form, {"name": "Mira", "physical": "4", "finesse": "3"}))
    await seen.run(alice, "/charakter erstellen name:Brom physis:3 finesse:2")
    await seen.run(alice, "/charakter erstellen name:Mira")  # taken
    await seen.run(alice, "/charakter anzeigen")
    await seen.run(alice, "/charakter anzeigen name:Nobody")
    which = await seen.run(alice, "/charakter anzeigen name:Mir")  # which one? Mira
    [menu] = [c for row in which.components for c in row["components"]]
    seen.saw(await alice.select(which.message, [menu["options"][0]["value"]]))
    await seen.run(alice, "/charakter bearbeiten name:Mira feld:physical wert:5")
    await seen.run(alice, "/charakter bearbeiten name:Mira feld:physical wert:viel")
    await seen.run(alice, "/charakter bearbeiten name:Mira feld:crit_range wert:30")
    await seen.run(alice, "/charakter bearbeiten name:Mira feld:tags wert:Elf")
    edit = await seen.run(alice, "/charakter bearbeiten name:Mira")
    seen.saw(await alice.submit_modal(edit, {"finesse": "4"}))
    edit = await seen.run(alice, "/charakter bearbeiten name:Mira")
    seen.saw(await alice.submit_modal(edit, {"more": "unsinn: 3"}))
    edit = await seen.run(alice, "/charakter bearbeiten name:Mira")
    seen.saw(await alice.submit_modal(edit, {"grit": "viel"}))
    await seen.run(alice, "/charakter nutzen name:Brom")
    await seen.run(alice, "/charakter nutzen name:Mira")
    await seen.run(alice, "/charakter liste")
    await seen.run(bob, "/charakter liste")  # none yet
    await seen.run(bob, "/charakter anzeigen")
    await seen.run(alice, "/charakter waffe hinzufügen name:Langschwert schaden:1d8+2")
    await seen.run(
        alice, "/charakter waffe hinzufügen name:Bogen schaden:1d6 stil:ranged distanz:bow"
    )
    await seen.run(alice, "/charakter waffe hinzufügen name:Keule schaden:viel")
    await seen.run(alice, "/charakter waffe liste")
    await seen.run(alice, "/charakter waffe entfernen name:Nix")
    await seen.run(alice, "/charakter waffe entfernen name:Bogen")
    await seen.run(alice, "/charakter rüstung name:Kettenhemd dämpfung:2")
    await seen.run(alice, "/charakter schild name:Buckler block:2 haltbarkeit:3")
    await seen.run(alice, "/charakter power hinzufügen name:active_buff:damage stufe:1")
    await seen.run(alice, "/charakter power hinzufügen name:Xyzzyq")
    await seen.run(
        alice,
        '/charakter power bauen name:Bolt typ:active stufe:2 bausteine:"damage:1d8 range:16 ruin:2"',
    )
    await seen.run(
        alice, '/charakter power bauen name:Glut typ:active stufe:1 bausteine:"damage:9d8"'
    )
    await seen.run(
        alice, '/charakter power bauen name:Fluch typ:active stufe:1 bausteine:"quatsch:3"'
    )
    over = (
        '/charakter power bauen name:{} typ:active stufe:1 bausteine:"damage:9d8" über_kurve:true'
    )
    asked = await seen.run(alice, over.format("Glut"))
    await seen.click(asked, "Erlauben", "alice")  # only the GM allows
    await seen.click(asked, "Erlauben", "admin")
    asked = await seen.run(alice, over.format("Lohe"))
    await seen.click(asked, "Ablehnen", "admin")
    await seen.run(alice, "/charakter power liste")
    await seen.run(alice, "/charakter power entfernen name:Nix")
    await seen.run(alice, "/charakter power entfernen name:Bolt")
    await seen.run(alice, "/charakter anzeigen name:Mira")
    exported = await seen.run(alice, "/charakter export")
    body = table.server.attachment_bodies[exported.messages[-1].attachments[0]["id"]]
    sheet = tmp_path / "mira.json"
    sheet.write_bytes(body)
    await seen.run(bob, "/charakter import name:Kopie", file=sheet)
    await seen.run(bob, "/charakter import name:Kopie", file=sheet)  # taken
    broken = tmp_path / "kaputt.json"
    broken.write_text(json.dumps({"name": 3}))
    await seen.run(bob, "/charakter import", file=broken)
    asked = await seen.run(alice, "/charakter löschen name:Brom")
    await seen.click(asked, 2, "alice")  # cancel
    asked = await seen.run(alice, "/charakter löschen name:Brom")
    await seen.click(asked, 1, "alice")
    await seen.run(alice, "/charakter löschen name:Nobody")
    await table.wait_idle()
    # The exported file is data: its keys are the import format's, not words to read.
    names = ("Buckler", "Bogen", "Keule", "Glut", "Lohe", "Fluch", "Kopie", "Nobody", "Nix")
    leaks = seen.leaks(body.decode(), *COMPONENTS, *names)
    assert not leaks, "\n".join(leaks)


async def test_npc_templates_read_german(make_table) -> None:
    """Some /npc command or refusal reached a German GM or player in English."""
    table = await german_table(make_table)
    seen = Sweep(table)
    admin, alice = users(table, "admin", "alice")
    await seen.run(admin, "/nsc erstellen name:Ork physis:3 finesse:1 grit:12 verteidigung:block")
    await seen.run(admin, "/nsc erstellen name:Ork")  # taken
    await seen.run(alice, "/nsc erstellen name:Wolf")  # not the GM
    await seen.run(admin, "/nsc anzeigen name:Ork")
    await seen.run(admin, "/nsc anzeigen name:Nobody")
    await seen.run(admin, "/nsc bearbeiten name:Ork physis:4 tags:Bestie")
    await seen.run(admin, "/nsc bearbeiten name:Ork")  # nothing to change
    await seen.run(admin, "/nsc waffe hinzufügen nsc:Ork name:Axt schaden:1d10")
    await seen.run(admin, "/nsc waffe liste nsc:Ork")
    await seen.run(admin, "/nsc waffe entfernen nsc:Ork name:Nix")
    await seen.run(admin, "/nsc rüstung nsc:Ork name:Fell dämpfung:1")
    await seen.run(admin, "/nsc schild nsc:Ork name:Brett block:1")
    await seen.run(admin, "/nsc power hinzufügen nsc:Ork name:reaction:evade stufe:1")
    await seen.run(
        admin, '/nsc power bauen nsc:Ork name:Biss typ:active stufe:1 bausteine:"damage:1d6"'
    )
    await seen.run(admin, "/nsc power liste nsc:Ork")
    await seen.run(admin, "/nsc power entfernen nsc:Ork name:Biss")
    await seen.run(admin, "/nsc bearbeiten name:Ork umbenennen:Orkhäuptling")
    await seen.run(admin, "/nsc liste")
    await seen.run(admin, "/nsc löschen name:Orkhäuptling")
    await seen.run(admin, "/nsc liste")  # none left
    await table.wait_idle()
    leaks = seen.leaks(
        *COMPONENTS,
        "Orkhäuptling",
        "Bestie",
        "Axt",
        "Fell",
        "Brett",
        "Biss",
        "Wolf",
        "Nobody",
        "Nix",
    )
    assert not leaks, "\n".join(leaks)


async def test_the_initiative_commands_read_german(make_table) -> None:
    """Some /init command, refusal, hidden NPC or tracker button reached a German reader in English."""
    table = await german_table(make_table)
    seen = Sweep(table)
    gm, alice, bob = users(table, "gm", "alice", "bob")
    await seen.run(alice, "/init weiter")  # no encounter
    await seen.run(gm, "/init starten modus:finesse")
    await seen.run(bob, "/init starten")  # one is running
    await seen.run(gm, "/init hinzufügen name:Goblin physis:3 finesse:2")
    await seen.run(gm, "/init hinzufügen name:Späher finesse:1 verborgen:true")
    await seen.run(gm, "/init hinzufügen name:Ork anzahl:2 seite:foes")
    await seen.run(gm, "/init hinzufügen name:Goblin")  # taken
    await seen.run(alice, "/init hinzufügen name:Wolf")  # not the GM
    await seen.run(alice, "/init beitreten charakter:Mira physis:4 finesse:5")
    await seen.run(alice, "/init beitreten charakter:Mira")  # already in
    await seen.run(bob, "/init beitreten charakter:Brom physis:3 finesse:3")
    await seen.run(alice, "/init liste")
    await seen.run(gm, "/init liste")
    await seen.run(gm, "/init bewegen kämpfer:Ork 2 platz:1")  # not before the turns begin
    await seen.run(gm, "/init bearbeiten kämpfer:Goblin liegend:true heimlichkeit:true")
    await seen.run(gm, "/init bearbeiten kämpfer:Goblin")  # nothing to change
    await seen.run(alice, "/init bearbeiten kämpfer:Goblin liegend:false")  # not the GM
    await seen.run(gm, "/init entfernen kämpfer:Nobody")
    await seen.run(gm, "/init entfernen kämpfer:Ork 1")
    await seen.run(alice, "/init aufdecken kämpfer:Späher")  # not the GM; the name is a secret
    await seen.run(gm, "/init weiter")  # Mira
    await seen.run(bob, "/init weiter")  # not Brom's turn
    tracker = table.channel().pinned_messages[0]
    seen.saw(await alice.click(tracker, 1))  # the tracker's Next
    await seen.run(gm, "/init zurück")
    await seen.run(alice, "/init zurück")  # not the GM
    await seen.run(gm, "/init bewegen kämpfer:Ork 2 platz:2")
    await seen.run(gm, "/init bewegen kämpfer:Ork 2 platz:99")
    for _ in range(4):  # Mira, Brom, the Goblin, Ork 2, then the hidden Späher: the GM's turn
        await seen.run(gm, "/init weiter")
    await seen.run(gm, "/init aufdecken kämpfer:Späher")
    await seen.run(gm, "/init aufdecken kämpfer:Späher")  # not hidden any more
    await seen.run(gm, "/init runde")  # the round ends now
    await seen.run(alice, "/init runde")
    await seen.run(gm, "/init protokoll")
    await seen.run(alice, "/init protokoll")
    asked = await seen.run(gm, "/init beenden")
    await seen.click(asked, 1, "gm")
    await table.wait_idle()
    leaks = seen.leaks("Wolf", "Nobody")
    assert not leaks, "\n".join(leaks)


async def fight(table: SandboxTable, seen: Sweep, *, mode: str = "finesse", flow: str = "") -> None:
    """Open a fight: Mira (alice), Brom (bob), a Goblin and an Ork; Mira acts first."""
    gm, alice, bob = users(table, "gm", "alice", "bob")
    await seen.run(gm, f"/init starten modus:{mode} {flow}".strip())
    await seen.run(alice, "/init beitreten charakter:Mira physis:4 finesse:5")
    await seen.run(bob, "/init beitreten charakter:Brom physis:3 finesse:4")
    await seen.run(gm, "/init hinzufügen name:Goblin physis:3 finesse:2")
    await seen.run(gm, "/init hinzufügen name:Ork physis:2 finesse:1")


async def test_attacks_defenses_and_reactions_read_german(make_table) -> None:
    """Some attack, defense button, reaction, Counter or /defend refusal reached a German reader in English."""
    table = await german_table(make_table)
    seen = Sweep(table)
    gm, alice, bob = users(table, "gm", "alice", "bob")
    await fight(table, seen)
    await seen.run(gm, "/init weiter")  # Mira
    await seen.run(bob, "/angriff ziel:Goblin")  # not Brom's turn
    await seen.run(bob, "/angriff ziel:Goblin erzwingen:true")  # only the GM forces
    await seen.run(alice, "/angriff ziel:Nobody")
    await seen.run(alice, "/verteidigen strategie:block")  # nothing to defend
    script(table, d20(1), d20(3))  # Mira fumbles; the Goblin's counter
    prompt = await seen.run(alice, "/angriff ziel:Goblin stil:melee schaden:1d8")
    await seen.click(prompt, "Blocken", "alice")  # not alice's defense
    fumble = await seen.click(prompt, "Blocken", "gm")
    await seen.click(fumble, "Konter", "alice")  # not alice's counter
    await seen.click(fumble, "Konter", "gm")
    script(table, d20(15), d20(4), d8(3))  # the Goblin's attack on Mira; Brom protects and blocks
    prompt = await seen.run(gm, "/angriff ziel:Mira angreifer:Goblin erzwingen:true schaden:1d8")
    await seen.click(prompt, "Schützen", "bob")
    await seen.click(prompt, "Auflösen", "alice")
    script(table, d20(10), d20(11), d20(8))  # the Goblin's attack; the Ork's support; Mira's block
    prompt = await seen.run(gm, "/angriff ziel:Mira angreifer:Goblin erzwingen:true")
    await seen.run(gm, "/unterstützen verbündeter:Goblin kämpfer:Ork")
    await seen.run(alice, "/unterstützen verbündeter:Goblin")  # Mira is no ally of the Goblin
    await seen.click(prompt, "Blocken", "alice")
    await seen.run(gm, "/init runde")  # round 2: everyone has their actions again
    await seen.run(gm, "/init weiter")  # Mira
    script(table, d20(12), d12(9))  # the Goblin's attack; Mira (Reduced) sacrifices and dodges
    prompt = await seen.run(gm, "/angriff ziel:Mira angreifer:Goblin erzwingen:true")
    await seen.click(prompt, "Opfer +3", "alice")
    await seen.run(alice, "/verteidigen strategie:dodge")
    await seen.run(alice, "/verteidigen strategie:dodge opfern:true")  # answered already
    script(table, d20(13), d20(7))  # the Goblin's attack; Brom steps in by /protect
    prompt = await seen.run(gm, "/angriff ziel:Mira angreifer:Goblin erzwingen:true")
    await seen.run(bob, "/schützen verbündeter:Mira")
    await seen.run(bob, "/schützen verbündeter:Goblin")
    await seen.click(prompt, "Auflösen", "alice")
    seeded(table)
    await seen.run(alice, "/angriff ziel:Goblin deckung:2")  # cover needs a ranged attack
    await seen.run(alice, "/angriff ziel:Goblin waffe:Nix")
    await table.wait_idle()
    leaks = seen.leaks("Nobody", "Nix")
    assert not leaks, "\n".join(leaks)


async def test_maneuvers_grit_and_specials_read_german(make_table) -> None:
    """Some maneuver, /grit, /effect, /move, /roll or /check reached a German reader in English."""
    table = await german_table(make_table)
    seen = Sweep(table)
    gm, alice, bob = users(table, "gm", "alice", "bob")
    await fight(table, seen)
    await seen.run(gm, "/init weiter")  # Mira
    await seen.run(bob, "/verbergen")  # not Brom's turn
    await seen.run(alice, "/verbergen")
    await seen.run(alice, "/deckung")
    await seen.run(alice, "/binden ziel:Goblin")
    await seen.run(alice, "/binden ziel:Nobody")
    await seen.run(alice, "/lösen")
    await seen.run(alice, "/schild")
    await seen.run(gm, "/init weiter")  # Brom
    script(table, d20(14), d20(6))  # Brom's grapple; the Goblin's answer
    grabbed = await seen.run(bob, "/packen ziel:Goblin")
    for button in ("Blocken", "Ausweichen", "Lösen"):
        if any(b.get("label") == button for b in grabbed.buttons):
            await seen.click(grabbed, button, "gm")
            break
    seeded(table)
    await seen.run(bob, "/essenz nutzen name:Elixier art:tonic runden:2")
    await seen.run(bob, "/essenz beenden")
    await seen.run(bob, "/essenz beenden")  # none left
    await seen.run(bob, "/bewegen entfernung:4")
    await seen.run(bob, "/bewegen entfernung:40")
    await seen.run(alice, "/bewegen entfernung:2")  # not Mira's turn
    await seen.run(gm, "/grit schaden kämpfer:Goblin menge:2d6")
    await seen.run(gm, "/grit schaden kämpfer:Goblin menge:viel")
    await seen.run(gm, "/grit heilen kämpfer:Goblin menge:3")
    await seen.run(gm, "/grit setzen kämpfer:Goblin wert:5 max:20")
    await seen.run(gm, "/grit modifikator kämpfer:Goblin stufen:1")
    await seen.run(alice, "/grit anzeigen kämpfer:Goblin")
    await seen.run(alice, "/grit anzeigen")
    await seen.run(alice, "/grit schaden kämpfer:Goblin menge:3")  # not the GM
    await seen.run(gm, "/grit schaden kämpfer:Mira menge:40")  # broken
    await seen.run(gm, "/effekt anwenden kämpfer:Goblin special:Ruin x:2 quelle:Mira")
    await seen.run(gm, "/effekt anwenden kämpfer:Goblin special:Stunned")
    await seen.run(gm, "/effekt anwenden kämpfer:Goblin special:Ruin")  # no X
    await seen.run(gm, "/effekt cleanse kämpfer:Goblin special:Ruin x:1")
    await seen.run(alice, "/effekt liste kämpfer:Goblin")
    await seen.run(gm, "/effekt entfernen kämpfer:Goblin special:Stunned")
    await seen.run(gm, "/effekt entfernen kämpfer:Goblin special:Root")  # not on it
    await seen.run(alice, "/würfeln ausdruck:2d6+1")
    await seen.run(alice, "/würfeln ausdruck:zwei")
    await seen.run(alice, "/probe schwierigkeit:9 merkmal:2 zeit:half")
    await seen.run(alice, "/probe schwierigkeit:9 attribut:physical kämpfer:Goblin")  # not hers
    await seen.run(gm, "/init weiter")
    await seen.run(gm, "/init weiter")
    await seen.run(gm, "/init weiter")  # the round ends: its summary
    await table.wait_idle()
    leaks = seen.leaks("Nobody", "Elixier", "Stunned", "Root", *srd_texts(table.bot.catalogue))
    assert not leaks, "\n".join(leaks)


async def test_fortune_and_the_full_flow_read_german(make_table) -> None:
    """Some declaration, Haste, Wait, Hold, Act, Sacrifice or long action reached a German reader in English."""
    table = await german_table(make_table)
    seen = Sweep(table)
    gm, alice, bob = users(table, "gm", "alice", "bob")
    await fight(table, seen, mode="fortune", flow="ablauf:full")
    await seen.run(alice, "/eile")
    await seen.run(alice, "/ansagen aktion:Angriff auf den Goblin art:primary")
    await seen.run(bob, '/ansagen aktion:"ein Ritual" art:long runden:2 lange_art:focused')
    await seen.run(alice, "/zurücknehmen")
    await seen.run(alice, "/zurücknehmen")  # nothing declared
    await seen.run(gm, "/ansagen aktion:Knurren kämpfer:Goblin")
    await seen.run(alice, "/ansagen aktion:Hieb kämpfer:Brom")  # not hers
    await seen.run(gm, "/init weiter")
    await seen.run(gm, "/init weiter")
    await seen.run(gm, "/init weiter")
    await seen.run(alice, "/eile")  # too late
    await seen.run(alice, "/warten")
    await seen.run(bob, "/halten")
    await seen.run(alice, "/handeln")
    await seen.run(alice, "/opfern für:attack")
    await seen.run(alice, "/opfern für:check kämpfer:Goblin")
    for _ in range(6):
        await seen.run(gm, "/init weiter")
    await table.wait_idle()
    leaks = seen.leaks("Angriff auf den Goblin", "ein Ritual", "Knurren", "Hieb")
    assert not leaks, "\n".join(leaks)


async def test_the_lookups_help_and_settings_read_german(make_table) -> None:
    """Some /power, /special, /pp, /help or /settings text reached a German reader in English."""
    table = await german_table(make_table)
    seen = Sweep(table)
    alice, admin = users(table, "alice", "admin")
    srd: list[str] = []  # what an entry says: the SRD's English [001 §0.2]
    paged = await seen.run(alice, '/power name:"Table: Movement Types"')
    srd.append(paged.embed["description"])
    await seen.click(paged, "▶", "alice")
    guess = await seen.run(alice, "/power name:tele stufe:5")
    seen.saw(await alice.select(guess.message, ["movement:teleport_with_ally"]))
    await seen.run(alice, "/power name:Xyzzyq")
    await seen.run(alice, "/special name:Ruin x:2")
    await seen.run(alice, "/special name:ex x:3")
    await seen.run(alice, "/special name:Xyzzyq")
    await seen.run(alice, "/pp zielwert typ:active stufe:2")
    await seen.run(alice, "/pp zielwert typ:movement stufe:3")
    await seen.run(alice, '/pp preis bausteine:"damage:2d8 range:16 ruin:2" typ:active stufe:2')
    await seen.run(alice, '/pp preis bausteine:"quatsch:1"')
    card = await seen.run(
        alice, '/pp entwurf name:Bolt typ:active bausteine:"damage:1d8 range:16" stufe:1'
    )
    tooltip = ("BASELINES", "CALCULATION", "NOTES")  # the SRD's power card [001 §8.2]
    srd += [f["value"] for f in card.embed["fields"] if f["name"] in tooltip]
    srd.append(card.embed["description"].split("\n\n", 1)[1])  # the card's table, its head
    await seen.run(alice, "/hilfe")
    helped = await seen.run(alice, "/hilfe befehl:init")
    for button in helped.buttons:
        if not button.get("disabled") and button.get("style") != 5:
            await seen.click(helped, button["label"], "alice")
            break
    await seen.run(alice, "/hilfe befehl:attack")
    await seen.run(alice, "/hilfe befehl:init weiter")
    await seen.run(alice, "/hilfe befehl:xyzzy")
    await seen.run(admin, "/einstellungen anzeigen")
    await seen.run(admin, "/einstellungen verteidigungsfrist sekunden:30")
    await seen.run(admin, "/einstellungen sl_rolle")
    await seen.run(admin, "/einstellungen sprache sprache:de")
    await seen.run(admin, "/einstellungen anzeigen")
    await table.wait_idle()
    srd += srd_texts(table.bot.catalogue)  # type: ignore[attr-defined]
    leaks = seen.leaks(*sorted(srd, key=len, reverse=True), *COMPONENTS)
    assert not leaks, "\n".join(leaks)


async def test_an_ambush_and_a_power_read_german(make_table) -> None:
    """Round zero of an ambush, or /use's refusals, reached a German reader in English."""
    table = await german_table(make_table)
    seen = Sweep(table)
    gm, alice, bob = users(table, "gm", "alice", "bob")
    await seen.run(gm, "/init starten modus:fortune hinterhalt:foes")
    await seen.run(alice, "/init beitreten charakter:Mira physis:4 finesse:5")
    await seen.run(bob, "/init beitreten charakter:Brom physis:3 finesse:4")
    await seen.run(gm, "/init hinzufügen name:Goblin physis:3 finesse:2")
    await seen.run(gm, "/init weiter")  # round zero: the Goblin's turn
    await seen.run(alice, "/angriff ziel:Goblin erzwingen:true")  # only the GM forces
    await seen.run(gm, "/angriff ziel:Goblin angreifer:Mira erzwingen:true")  # surprised
    await seen.run(gm, "/init weiter")  # round 1
    await seen.run(gm, "/init weiter")  # Mira's turn
    await seen.run(alice, "/nutzen power:Nix")
    await seen.run(alice, "/angriff ziel:Goblin")
    asked = await seen.run(alice, "/init weiter")  # the attack is still open
    await seen.click(asked, "Bestätigen", "alice")
    await table.wait_idle()
    leaks = seen.leaks("Nix")
    assert not leaks, "\n".join(leaks)
