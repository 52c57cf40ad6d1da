"""Deutsch end to end for attacks: the prompt, its buttons, /defend, the result and the log.

The server prefers German; alice's Discord client and the GM's are German, bob's is
English [issue 23]. What the channel reads (the prompt, its buttons, the result, the round
log) speaks the server's language whoever attacked or answered; a reply only its caller
sees (/defend's answer, a refusal) speaks the caller's. The dice are scripted: the
numbers are those of tests/e2e/test_attacks.py's blocked melee hit, said in German.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.sandbox.client import SandboxTable
from bot.sandbox.records import StoredMessage
from bot.sandbox.validate import COMMAND_SIZE_LIMIT, command_size
from tests.e2e.helpers import script
from tests.scripted import d8, d20

pytestmark = pytest.mark.e2e

CHANNEL = "table-1"
BLIND_DE = "Die Würfel fallen und erscheinen mit dem Ergebnis."


@pytest.fixture
async def german(make_table) -> SandboxTable:
    """A German server, round 1, Mira's turn: the GM's Goblin (Physical 3, Finesse 2), Mira (4, 3)."""
    table = await make_table()
    table.server.set_preferred_locale("de")
    table.bot.trackers.interval = 0  # type: ignore[attr-defined]
    gm = table.user("gm", locale="de")
    await gm.run("/init start mode:finesse")
    await gm.run("/init add name:Goblin physical:3 finesse:2")
    await table.user("alice", locale="de").run("/init join character:Mira physical:4 finesse:3")
    started = await gm.run("/init next")  # by Finesse: Mira 3, then Goblin 2
    assert not started.ephemeral, started.text
    return table


def fields(embed: dict[str, Any] | None) -> dict[str, str]:
    """Return an embed's fields by name."""
    assert embed is not None, "no embed"
    return {f["name"]: f["value"] for f in embed.get("fields", [])}


async def prompt_closed(table: SandboxTable, prompt: StoredMessage) -> StoredMessage:
    """Wait until an answered prompt has lost its buttons (it is the result now)."""
    return await table.channel(CHANNEL).wait_for(
        lambda ch: prompt if not prompt.buttons else None, what="the prompt to close"
    )


async def round_log(table: SandboxTable, number: int) -> list[str]:
    """Return a round's log lines as stored (in the server's language)."""
    channel_id = table.channel(CHANNEL).id
    async with table.bot.store.channel(channel_id) as state:  # type: ignore[attr-defined]
        return [entry.line for entry in await state.round_log(number)]


async def test_the_fight_commands_carry_german_names_within_discords_size(table) -> None:
    """/attack, /defend and their options and choices were not registered with German names,
    or /attack's definition with its longest localizations exceeded Discord's 4,000 characters."""
    synced = {c["name"]: c for c in table.server.synced_commands()}
    attack, defend = synced["attack"], synced["defend"]
    assert attack["name_localizations"]["de"] == "angriff"
    assert attack["description_localizations"]["de"] == (
        "Einen Kämpfer angreifen; der Verteidiger wählt"
    )
    options = {o["name"]: o for o in attack["options"]}
    german = {name: o.get("name_localizations", {}).get("de", name) for name, o in options.items()}
    assert german == {  # Discord's most, 25 options; an unchanged name carries none
        "target": "ziel",
        "style": "stil",
        "attacker": "angreifer",
        "area": "bereich",
        "damage": "schaden",
        "modifier": "modifikator",
        "risk": "risiko",
        "bonus": "bonus",
        "advantage": "vorteil",
        "cover": "deckung",
        "distance": "entfernung",
        "stealth": "heimlichkeit",
        "explode": "explodieren",
        "altitude": "höhe",
        "charge": "ansturm",
        "penetration": "durchschlag",
        "weight": "gewicht",
        "spell": "spell",  # an SRD keyword [001 §0.2]
        "targeting": "zielen",
        "range": "distanz",
        "base_risk": "grundrisiko",
        "cover_durability": "deckung_haltbarkeit",
        "counter": "konter",
        "force": "erzwingen",
        "weapon": "waffe",
    }
    style_choices = {c["value"]: c["name_localizations"]["de"] for c in options["style"]["choices"]}
    assert style_choices == {
        "melee": "Nahkampf",
        "targeted": "Gezielter Nahkampf",
        "ranged": "Fernkampf",
        "thrown": "Wurf",
        "unarmed": "Waffenlos",
    }
    assert command_size(attack) <= COMMAND_SIZE_LIMIT
    assert defend["name_localizations"]["de"] == "verteidigen"
    strategy = next(o for o in defend["options"] if o["name"] == "strategy")
    assert strategy["name_localizations"]["de"] == "strategie"
    assert [c["name_localizations"]["de"] for c in strategy["choices"]] == [
        "Blocken",
        "Ausweichen",
        "Lösen",
        "In Deckung gehen",
    ]
    for name in ("grapple", "protect", "support"):
        assert command_size(synced[name]) <= COMMAND_SIZE_LIMIT
    assert synced["grapple"]["name_localizations"]["de"] == "packen"


async def test_a_german_table_sees_the_prompt_buttons_and_result_in_german(german) -> None:
    """A blocked melee hit at a German table was not prompted, answered and shown in German."""
    table = german
    script(table, d20(10), d20(3), d8(1))  # attack, block, weapon 1d8+2
    prompt = await table.user("alice").run("/angriff ziel:Goblin stil:melee schaden:1d8+2")
    assert not prompt.ephemeral
    assert prompt.record.data["name"] == "attack"  # Discord sends the registered name
    assert prompt.content.endswith("**Goblin** wird von **Mira** angegriffen!")
    embed = prompt.embed
    assert embed["title"] == "Mira greift Goblin an — Nahkampf"
    assert embed.get("fields", []) == []  # blind: no number of the attack [GAME.md §10]
    lines = embed["description"].splitlines()
    assert lines[:3] == [
        "Nahkampf. " + BLIND_DE,
        "Goblin, wähle eine Verteidigung: Blocken, Ausweichen oder Lösen.",
        "Opfere zuerst eine Aktion für +3 Verteidigung in dieser Runde.",
    ]
    assert lines[3].startswith("Ohne Antwort bis <t:")
    assert lines[3].endswith(" nutzt Goblin **Blocken**.")
    assert [b["label"] for b in prompt.buttons] == ["Blocken", "Ausweichen", "Lösen", "Opfer +3"]

    resolved = await prompt.click("Blocken", as_user="gm")
    assert resolved.message.id == prompt.message.id  # the prompt became the result
    assert resolved.embed["title"] == "Mira greift Goblin an — Treffer"
    assert resolved.embed["description"] == "Nahkampf · Blocken, gewählt von Game Master"
    assert fields(resolved.embed) == {
        "Angriff": "d20 **10** · Physis +4 → **14**\nRisiko 1 · Kritisch 20",
        "Verteidigung": "Blocken · d20 **3** · Physis +3 → **6**\nRisiko 1 · Kritisch 20",
        "Ergebnis": "**14** gegen **6** — **Treffer**",
        "Schaden": "Waffe 3 (1d8+2: 1) → **3**",
        "Grit": "Goblin erleidet 3 Schaden (Prime d20).",
    }
    assert (await round_log(table, 1))[-2:] == [
        "Mira greift Goblin an (Nahkampf): 14 gegen 6, Treffer, 3 Schaden.",
        "Goblin erleidet 3 Schaden (Prime d20).",
    ]


async def test_defend_answers_in_the_callers_language_and_the_result_in_the_tables(
    german,
) -> None:
    """/verteidigen did not answer alice in German and turn the prompt into a German result;
    bob (English) on the same server did not read his refusal in English."""
    table = german
    await table.user("alice").run("/init next")  # the Goblin's turn
    script(table, d20(10), d20(3))  # the Goblin's attack, Mira's dodge
    prompt = await table.user("gm").run("/angriff ziel:Mira angreifer:Goblin")
    assert [b["label"] for b in prompt.buttons] == ["Blocken", "Ausweichen", "Lösen", "Opfer +3"]
    refused = await table.user("bob").run("/defend strategy:block")
    assert refused.ephemeral
    assert refused.content == "No attack is waiting for your defense."

    answered = await table.user("alice").run("/verteidigen strategie:dodge")
    assert answered.ephemeral
    assert answered.content == (
        "**Mira** verteidigt sich: Ausweichen. Der Angriff oben zeigt jetzt das Ergebnis."
    )
    result = await prompt_closed(table, prompt.message)
    assert result.embeds[0]["title"] == "Goblin greift Mira an — Treffer"
    assert result.embeds[0]["description"] == "Nahkampf · Ausweichen, gewählt von Alice"
    shown = fields(result.embeds[0])
    assert shown["Verteidigung"] == (
        "Ausweichen · d20 **3** · Finesse +3 → **6**\nRisiko 1 · Kritisch 20"
    )
    assert shown["Ergebnis"] == "**13** gegen **6** — **Treffer**"
    again = await table.user("alice").run("/verteidigen strategie:block")
    assert again.ephemeral and again.content == "Kein Angriff wartet auf deine Verteidigung."


async def test_a_rules_refusal_reaches_each_caller_in_their_language(german) -> None:
    """The rules' refusals were not German for German callers, English for an English GM."""
    table = german
    refused = await table.user("alice").run("/angriff ziel:Goblin stil:melee deckung:2")
    assert refused.ephemeral
    assert refused.content == "Deckung zählt nur gegen Fern- und Wurfangriffe."
    gm_refused = await table.user("gm").run("/angriff ziel:Goblin angreifer:Goblin erzwingen:true")
    assert gm_refused.ephemeral
    assert gm_refused.content == "Goblin kann sich nicht selbst angreifen."
    english_gm = table.user("gm", locale="en-US")
    english = await english_gm.run("/attack target:Goblin attacker:Goblin force:true")
    assert english.ephemeral
    assert english.content == "Goblin cannot attack themself."


async def test_an_english_server_shows_a_german_callers_attack_in_english(make_table) -> None:
    """alice's (German client) attack at an English table was prompted in German."""
    table = await make_table()
    table.bot.trackers.interval = 0  # type: ignore[attr-defined]
    await table.user("gm").run("/init start mode:finesse")
    await table.user("gm").run("/init add name:Goblin physical:3 finesse:2")
    alice = table.user("alice", locale="de")
    await alice.run("/init join character:Mira physical:4 finesse:3")
    await table.user("gm").run("/init next")
    script(table, d20(10), d20(3), d8(1))
    prompt = await alice.run("/angriff ziel:Goblin schaden:1d8+2")
    assert prompt.embed["title"] == "Mira attacks Goblin — melee"
    assert [b["label"] for b in prompt.buttons] == ["Block", "Dodge", "Break Away", "Sacrifice +3"]
    resolved = await prompt.click("Block", as_user="gm")
    assert resolved.embed["description"] == "Melee · Block, chosen by Game Master"
    assert fields(resolved.embed)["Outcome"] == "**14** vs **6** — **hit**"


async def test_the_defense_timeout_settles_in_the_tables_language(german) -> None:
    """An unanswered attack at a German table was not settled by its default in German."""
    table = german
    set_to = await table.user("admin").run("/settings defense_timeout seconds:5")
    assert not set_to.ephemeral, set_to.text
    table.bot.scheduler.time_scale = 0.01  # type: ignore[attr-defined] # 5 s → 0.05 s
    script(table, d20(7), d20(3))  # attack, the default block
    prompt = await table.user("alice").run("/angriff ziel:Goblin")
    resolved = await prompt_closed(table, prompt.message)  # the prompt became the result
    assert resolved.embeds[0]["description"] == (
        "Nahkampf · Blocken, als Standard nach 5 s ohne Antwort"
    )
    assert fields(resolved.embeds[0])["Ergebnis"] == "**11** gegen **6** — **Treffer**"


async def test_the_helpers_buttons_say_what_they_do_and_the_result_names_the_help(
    german,
) -> None:
    """A German prompt labelled its Support button with the noun ("Unterstützung") beside the
    verb "Schützen" [issue 23]; the result's field is the noun."""
    table = german
    gm = table.user("gm", locale="de")
    await gm.run("/init hinzufügen name:Ork physis:2")
    script(
        table, d20(10), d20(10), d20(3)
    )  # the Goblin's attack; the Ork's matching support; the block
    prompt = await gm.run("/angriff ziel:Mira angreifer:Goblin erzwingen:true")
    assert [b["label"] for b in prompt.buttons] == [
        "Blocken",
        "Ausweichen",
        "Lösen",
        "Opfer +3",
        "Unterstützen",
    ]
    supported = await gm.run("/unterstützen verbündeter:Goblin kämpfer:Ork")
    assert not supported.ephemeral, supported.text
    resolved = await prompt.click("Blocken", as_user="alice")
    assert "Unterstützung" in fields(resolved.embed), resolved.embed
