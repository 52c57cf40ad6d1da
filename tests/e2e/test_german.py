"""Deutsch end to end: each user's replies in their Discord language, the table in the server's.

alice's Discord client is German, bob's English, both at one server [issue 23]. Replies
only the caller sees follow the caller; what the channel reads (a roll, a check, a
settings change) follows the server: its `/settings language`, else its Discord locale.
"""

from __future__ import annotations

import pytest

from bot.sandbox.client import SandboxTable
from tests.e2e.helpers import script, tracker, unmentioned
from tests.scripted import d20

pytestmark = pytest.mark.e2e

NO_ROLLER_DE = (
    "Eine Probe würfelt deinen Kernwürfel: Tritt dem Kampf in diesem Kanal bei (/init join) "
    "oder wähle einen aktiven Charakter (/character use)."
)
NO_ROLLER_EN = (
    "A check rolls your core die: join this channel's fight (/init join) "
    "or choose an active character (/character use)."
)


@pytest.fixture
async def fight(make_table) -> SandboxTable:
    """An English server; alice (German client) plays Mira, on her turn; bob is English."""
    table = await make_table()
    table.user("alice", locale="de")
    await table.user("gm").run("/init start mode:finesse")
    await table.user("alice").run("/init join character:Mira physical:4 finesse:3")
    await table.user("gm").run("/init next")
    return table


async def test_commands_are_registered_with_german_names(table: SandboxTable) -> None:
    """The synced /roll, /check and /settings did not carry German names Discord accepts."""
    synced = {c["name"]: c for c in table.server.synced_commands()}
    assert synced["roll"]["name_localizations"]["de"] == "würfeln"
    assert synced["roll"]["options"][0]["name_localizations"]["de"] == "ausdruck"
    assert synced["check"]["name_localizations"]["de"] == "probe"
    languages = synced["settings"]["options"]
    sprache = next(o for o in languages if o["name"] == "language")
    assert sprache["name_localizations"]["de"] == "sprache"
    assert synced["roll"]["description_localizations"]["de"] == (
        "Würfeln, z. B. 2d20kh1+3 oder 1d20+5 Angriff; core ist dein Kernwürfel"
    )
    # Untranslated languages carry nothing: Discord shows them the English default.
    assert "fr" not in synced["roll"]["name_localizations"]


async def test_a_german_user_types_german_names_and_reads_german(table: SandboxTable) -> None:
    """alice's /probe with German option names was not taken, or its refusal was not German."""
    alice = table.user("alice", locale="de")
    refused = await alice.run("/probe merkmal:2 schwierigkeit:9")
    assert refused.ephemeral
    assert unmentioned(refused.content) == NO_ROLLER_DE
    assert refused.record.data["name"] == "check"  # Discord sends the registered name


async def test_an_english_user_on_the_same_server_reads_english(table: SandboxTable) -> None:
    """bob's refusal was not English while alice's is German."""
    table.user("alice", locale="de")
    refused = await table.user("bob").run("/check trait:2 difficulty:9")
    assert unmentioned(refused.content) == NO_ROLLER_EN


async def test_help_speaks_the_readers_language(table: SandboxTable) -> None:
    """/hilfe for alice and /help for bob: each in their own language, ephemerally."""
    german = await table.user("alice", locale="de").run("/hilfe befehl:check")
    english = await table.user("bob").run("/help command:check")
    assert german.embeds[0]["title"] == "/check"
    assert "Eine Probe gegen eine Schwierigkeit würfeln" in german.embeds[0]["description"]
    assert "**Wer:** alle" in german.embeds[0]["description"]
    assert "`schwierigkeit` — Eine Schwierigkeit" in german.embeds[0]["description"]
    assert "Roll a check against a challenge level" in english.embeds[0]["description"]
    assert "**Who:** anyone" in english.embeds[0]["description"]


async def test_a_public_check_follows_the_server_not_the_caller(fight) -> None:
    """alice's (German client) check at an English table was not said in English."""
    script(fight, d20(8))
    checked = await fight.user("alice").run("/probe merkmal:3 schwierigkeit:9 zeit:half")
    assert not checked.ephemeral
    assert checked.content == (
        "🎯 **Mira** checks against 12 (Fair 9 +3 half time): d20 **8** · Trait +3 "
        "→ **11** — **failure**"
    )


async def test_settings_language_makes_the_table_german_for_everyone(fight) -> None:
    """After /settings language de, bob's (English) public roll was not German, his errors were."""
    admin = fight.user("admin")
    said = await admin.run("/settings language language:de")
    assert not said.ephemeral
    assert said.content == (
        "Der Tisch spricht jetzt Deutsch: Tracker, Ansagen und Rundenübersichten. "
        "Antworten an jeden von euch folgen eurer eigenen Discord-Sprache."
    )
    script(fight, d20(8), d20(14))
    checked = await fight.user("alice").run("/probe merkmal:3 schwierigkeit:9 zeit:double")
    assert checked.content == (
        "🎯 **Mira** legt eine Probe gegen Normal 9 ab: d20 **8** · Merkmal +3 · Zeit ×2 +3 "
        "→ **14** — **Erfolg**"
    )
    rolled = await fight.user("bob").run("/roll expression:1d20+1")
    assert rolled.content == "🎲 **Bob** würfelt 1d20 (14) + 1 = `15`"
    refused = await fight.user("bob").run("/check trait:2 difficulty:9")
    assert unmentioned(refused.content) == NO_ROLLER_EN  # his own reply stays English


async def test_the_servers_discord_locale_is_the_default(table: SandboxTable) -> None:
    """A server whose Discord locale is German reads the table in German without a setting."""
    table.server.set_preferred_locale("de")
    script(table, d20(3))
    rolled = await table.user("bob").run("/roll expression:1d20")
    assert rolled.content == "🎲 **Bob** würfelt 1d20 (3) = `3`"
    shown = await table.user("admin").run("/settings show")
    assert shown.content.splitlines()[-1] == (
        "Language of the table: Deutsch (the server's language in Discord)."
    )


async def test_english_setting_overrides_a_german_server(table: SandboxTable) -> None:
    """/settings language en keeps a German server's table English."""
    table.server.set_preferred_locale("de")
    await table.user("admin").run("/settings language language:en")
    script(table, d20(3))
    rolled = await table.user("bob").run("/roll expression:1d20")
    assert rolled.content == "🎲 **Bob** rolls 1d20 (3) = `3`"


async def test_an_error_from_deep_in_the_rules_reaches_a_german_user_in_german(fight) -> None:
    """A refusal raised by the pipeline (not your combatant) was not German for alice."""
    await fight.user("gm").run("/init add name:Goblin grit:15")
    refused = await fight.user("alice").run("/probe merkmal:0 schwierigkeit:3 kämpfer:Goblin")
    assert refused.ephemeral
    assert refused.content == "Goblin ist ein Kämpfer der SL; du kannst nicht für ihn handeln."


async def test_grit_lines_follow_the_table_and_go_german_into_the_round_log(
    table: SandboxTable,
) -> None:
    """At a German server the GM's (English client) damage line and its log entry were not German."""
    table.server.set_preferred_locale("de")
    gm = table.user("gm")
    await gm.run("/init start mode:finesse")
    await gm.run("/init add name:Goblin grit:4")
    reply = await gm.run("/grit damage combatant:Goblin amount:50")
    assert reply.content == (
        "Goblin erleidet 50 Schaden. Goblin ist Broken und kann nicht handeln. "
        "Eine Verletzung wird vermerkt."
    )
    state = table.bot.store  # type: ignore[attr-defined]
    async with state.channel(table.channel("table-1").channel.id) as channel:
        entries = await channel.round_log(channel.require_encounter().round)
    assert entries[-1].line == reply.content


async def test_the_pinned_tracker_follows_the_servers_language(fast) -> None:
    """At a German server the pinned tracker was not German (title, marks, legend, footer)."""
    fast.server.set_preferred_locale("de")
    gm = fast.user("gm")
    await gm.run("/init start mode:finesse")
    await gm.run("/init add name:Goblin finesse:2")
    await fast.user("alice").run("/init join character:Mira finesse:3")
    await gm.run("/init next")
    shown = await tracker(fast)
    assert "Runde 1 · Initiative" in shown
    assert "Jetzt: Mira ist am Zug" in shown
    assert "▶ handelt" in shown and "🟥 Gegner" in shown
    assert "Finesse: die Reihenfolge nach Finesse" in shown
    assert "Grit der NSC als Stufe und Würfel" in shown
    assert "Round" not in shown and "to act" not in shown
    assert "[1 ⏭ Weiter] [2 ⏸ Warten] [3 ⏩ Halten]" in shown


async def test_an_english_server_keeps_an_english_tracker_for_german_players(fast) -> None:
    """A German player's command did not leave an English server's tracker English."""
    gm = fast.user("gm")
    await gm.run("/init start mode:finesse")
    await fast.user("alice", locale="de").run("/init join character:Mira finesse:3")
    await gm.run("/init next")
    shown = await tracker(fast)
    assert "Round 1" in shown and "Now: Mira to act" in shown


async def test_turns_and_the_round_summary_follow_the_server(fast) -> None:
    """At a German server the turn announcements and the round's summary were not German."""
    fast.server.set_preferred_locale("de")
    gm = fast.user("gm")
    await gm.run("/init start mode:finesse")
    await gm.run("/init add name:Goblin finesse:2")
    await fast.user("alice").run("/init join character:Mira finesse:3")
    first = await gm.run("/init next")
    assert unmentioned(first.content).splitlines() == [
        "Initiative: Mira (3), Goblin (2)",
        "**Mira** ist am Zug — würfelt d20, 2 Aktionen <@{}>".format(fast.user("alice").id),
    ]
    await gm.run("/init next")
    ended = await gm.run("/init next")
    assert unmentioned(ended.content).splitlines()[0] == "Runde 1 endet."
    assert ended.embeds[0]["title"] == "Übersicht der Runde 1"
    assert ended.embeds[0]["description"].startswith("Außer den Zügen ist nichts geschehen.")


async def test_a_german_player_ending_a_turn_at_an_english_table_reads_english_turns(fast) -> None:
    """A German player's /init next at an English table announced the next turn in German."""
    gm = fast.user("gm")
    await gm.run("/init start mode:finesse")
    await gm.run("/init add name:Goblin finesse:2")
    alice = fast.user("alice", locale="de")
    await alice.run("/init join character:Mira finesse:3")
    await gm.run("/init next")
    passed = await alice.run("/init next")
    assert unmentioned(passed.content) == "**Goblin**'s turn — rolls d20, 2 actions"


async def test_maneuvers_follow_the_server(fast) -> None:
    """At a German server /cover and /essence use (German names) did not answer in German."""
    fast.server.set_preferred_locale("de")
    gm = fast.user("gm")
    await gm.run("/init start mode:finesse")
    await gm.run("/init add name:Goblin finesse:2")
    alice = fast.user("alice", locale="de")
    await alice.run("/init join character:Mira finesse:3")
    await gm.run("/init next")
    covered = await alice.run("/deckung")
    assert covered.content == (
        "🛡 Mira geht in volle Deckung (eine Aktion, 1 übrig): Deckung 4 (+20) gegen "
        "Fernangriffe, bis Mira angreift oder sich bewegt."
    )
    used = await alice.run("/essenz nutzen name:Elixir art:tonic runden:2")
    assert (
        used.content == "🧪 Mira nutzt Elixir (Tonikum): aktiv für 2 Runden — eine Essenz zur Zeit."
    )


async def test_haste_wait_and_hold_in_german(fast) -> None:
    """/eile, /warten and /halten (German names) did not answer in the German table's words."""
    fast.server.set_preferred_locale("de")
    gm = fast.user("gm")
    await gm.run("/init start mode:finesse")
    await gm.run("/init add name:Goblin finesse:2")
    alice = fast.user("alice", locale="de")
    await alice.run("/init join character:Mira finesse:3")
    hasted = await alice.run("/eile")
    assert hasted.content == (
        "⚡ **Mira** eilt: der Finesse-Modus würfelt keine Initiative, also bringt Eile statt +3 "
        "den ersten Platz in der Reihenfolge von Runde 1; nur 1 Aktion in dieser Runde."
    )
    await gm.run("/init next")
    waited = await alice.run("/warten")
    assert unmentioned(waited.content).splitlines()[0] == (
        "⏸ **Mira** wartet: Der Zug wird übergangen; /act geht in dieser Runde jederzeit."
    )
    held = await alice.run("/halten")
    assert held.content.startswith("⏩ **Mira** hält bis in Runde 2: dann zuerst an der Reihe")


async def test_the_end_is_said_in_the_tables_language_whoever_ends_it(fast) -> None:
    """A German GM's /init end at an English table retired the tracker or summed up in German."""
    gm = fast.user("gm", locale="de")
    await gm.run("/init start mode:finesse")
    await gm.run("/init add name:Goblin finesse:2")
    await gm.run("/init next")
    await gm.run("/grit damage combatant:Goblin amount:3")
    pinned = fast.channel().pinned_messages[0]
    asked = await gm.run("/init end")
    assert [b["label"] for b in asked.buttons] == ["Bestätigen", "Abbrechen"]  # the GM's own
    [final] = await (await asked.click("Bestätigen")).wait_followups(1)
    await fast.channel().wait_for(lambda ch: not ch.pins or None, what="the tracker unpinned")
    assert [e["title"] for e in final.embeds] == ["Round 1 summary"]
    assert "Standing: Goblin (Prime d20)" in final.content
    assert "Encounter ended after round 1" in fast.render(pinned)


async def test_grit_show_without_a_character_says_so_in_german(table: SandboxTable) -> None:
    """A German player's /grit anzeigen with no character answered in English (an unmarked part)."""
    refused = await table.user("alice", locale="de").run("/grit anzeigen")
    assert refused.ephemeral
    assert unmentioned(refused.content) == (
        "Du hast keinen Charakter auf diesem Server: /character create erstellt einen, "
        "oder nenne einen Kämpfer (`kämpfer:`)."
    )
