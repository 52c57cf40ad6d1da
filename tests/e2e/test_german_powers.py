"""Deutsch for powers: /use, the SRD look-ups, /pp, the over-curve request and the rules' refusals.

The server prefers German; alice's Discord client is German, bob's and the GM's English
[issue 23]. What the table reads (/use's lines, a power request and its answer) is German
for everyone; a refusal, and a look-up's answer, speak the language of whoever asked.
SRD keywords stay English in German text: power types, Spell, Charged, Specials, PP [001
§0.2]. The fixture sets Mira up in English, so it does not depend on how /character is
named in German.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.sandbox.client import SandboxTable
from tests.e2e.helpers import script, tracker, unmentioned
from tests.scripted import d20

pytestmark = pytest.mark.e2e

BOLT = '"damage:1d8 range:16 ruin:2"'  # 37 PP: Active L2 (60)
HELLFIRE = '"damage:2d8 range:16 radius:3 ruin:2"'  # 102 PP: over Active L3's 90 by 12


def fields(embed: dict[str, Any] | None) -> dict[str, str]:
    """Return an embed's fields by name."""
    assert embed is not None
    return {f["name"]: f["value"] for f in embed.get("fields", [])}


@pytest.fixture
async def fight(make_table) -> SandboxTable:
    """A German server; round 1, Mira's turn (MR 4, Finesse 3): Bolt, Damage, Flight, Evade."""
    table = await make_table()
    table.bot.trackers.interval = 0  # type: ignore[attr-defined]
    table.server.set_preferred_locale("de")
    alice, gm = table.user("alice"), table.user("gm")
    await alice.run("/character create name:Mira physical:4 finesse:3 mastery_rank:4")
    await alice.run(f"/character power build name:Bolt type:active level:2 components:{BOLT}")
    await alice.run("/character power add name:active_buff:damage level:1")
    await alice.run("/character power add name:movement:flight level:4")
    await alice.run("/character power add name:reaction:evade level:1")
    await gm.run("/init start mode:finesse")
    await gm.run("/init add name:Goblin physical:3 finesse:2")
    await alice.run("/init join")
    await gm.run("/init next")  # by Finesse: Mira 3, Goblin 2
    table.user("alice", locale="de")
    return table


async def test_use_is_registered_with_german_names(table: SandboxTable) -> None:
    """/use did not carry a German name, description and option names Discord accepts."""
    synced = {c["name"]: c for c in table.server.synced_commands()}
    use = synced["use"]
    assert use["name_localizations"]["de"] == "nutzen"
    assert use["description_localizations"]["de"] == (
        "Eine Power von deinem Bogen nach ihrem Typ einsetzen"
    )
    # A name the same in German carries no localization: Discord shows the registered one.
    german = {o["name"]: o.get("name_localizations", {}).get("de") for o in use["options"]}
    assert german == {
        "power": None,  # an SRD keyword: "power" in German too [001 §0.2]
        "target": "ziel",
        "targets": "ziele",
        "combatant": "kämpfer",
        "distance": "entfernung",
        "force": "erzwingen",
    }


async def test_an_active_is_announced_in_german(fight: SandboxTable) -> None:
    """alice's /nutzen of Bolt was not announced at the German table in German."""
    script(fight, d20(15))  # the attack roll, drawn at /use; the Goblin has yet to defend
    used = await fight.user("alice").run("/nutzen power:Bolt ziel:Goblin entfernung:3")
    assert not used.ephemeral
    assert used.record.data["name"] == "use"  # Discord sends the registered name
    assert unmentioned(used.content).splitlines()[-1] == "Mira setzt Bolt ein."


async def test_a_buff_is_taken_up_in_german_and_marked_on_the_tracker(fight: SandboxTable) -> None:
    """Damage (Active Buff L1: +2d8) on an MR-4 Mira was not said, and marked, in German."""
    taken = await fight.user("alice").run("/nutzen power:Damage")
    assert not taken.ephemeral
    assert taken.content == (
        "Mira aktiviert Damage für 4 Runden (Mastery Rank), bis Runde 4: "
        "+2d8 Schaden auf eigene Treffer (angewendet)."
    )
    assert "✦ Damage (4 Runden)" in await tracker(fight)


async def test_the_power_rules_refuse_in_the_askers_language(fight: SandboxTable) -> None:
    """A refusal from bot.rules.powers was not German for alice, or not English for the GM."""
    alice, gm = fight.user("alice"), fight.user("gm")
    missing = await alice.run("/nutzen power:Nichts")
    assert missing.ephemeral
    assert missing.content == (
        "Mira hat keine Power namens 'Nichts' (hat: Bolt, Damage, Flight, Evade)."
    )
    flown = await alice.run("/nutzen power:Flight")
    assert unmentioned(flown.content).startswith("Mira setzt Flight ein: ")
    again = await alice.run("/nutzen power:Flight")
    assert again.ephemeral
    assert again.content == (
        "Mira hat sich in diesem Zug schon 6 m bewegt: Eine Movement-Power ersetzt die "
        "Bewegung des Zugs, also kommt sie zuerst [001]."
    )
    targeted = await alice.run("/nutzen power:Damage ziel:Goblin")
    assert (
        targeted.content == "Damage ist ein Active Buff und nimmt kein Ziel und keine Entfernung."
    )
    no_essence = await alice.run("/essenz beenden")
    assert no_essence.ephemeral
    assert no_essence.content == "Mira hat keine Essenz aktiv."  # bot.rules.essences
    english = await gm.run("/use power:Bolt combatant:Goblin")
    assert english.ephemeral
    assert english.content == "Goblin has no power named 'Bolt' (has: none)."


async def test_look_ups_label_in_german_and_keep_the_srds_words(fight: SandboxTable) -> None:
    """/power and /special had English labels for alice, or German ones for bob.

    The SRD has no German text for its entries: their descriptions stay its English.
    """
    alice, bob = fight.user("alice"), fight.user("bob")
    flight = await alice.run("/power name:Flight stufe:4")
    assert flight.embed["title"] == "Movement: Flight"
    shown = fields(flight.embed)
    assert shown["Typ"] == "Movement"
    assert shown["Obergrenze"] == "24 m"
    assert "Preisbildung" in shown and "Weg" in shown
    assert shown["Stufe 4"].splitlines()[1:3] == ["Stufe  Distance", "4      6 m"]
    assert flight.embed["description"] == "Move through the air in three dimensions along a path."
    ruin = await alice.run("/special name:Ruin x:2")
    assert ruin.embed["title"] == "Ruin(2)"
    shown = fields(ruin.embed)
    assert shown["Gruppe"] == "Diminishing"
    assert shown["Dauer"] == "until X reaches 0"
    assert shown["Reinigen/Bannen"] == "Ja"
    assert shown["Kosten bei X = 2"] == "Ruin(2) = Start PP 4 × T(2) = 4 × 3 = **12 PP**"
    english = fields((await bob.run("/special name:Ruin x:2")).embed)
    assert english["Cleanse/Dispel"] == "Yes"
    assert english["Cost at X = 2"] == shown["Kosten bei X = 2"]
    rule = await alice.run('/power name:"Power Card"')
    assert rule.embed["title"] == "Regel: Power Card"
    assert fields(rule.embed)["Typ"] == "Regel"
    assert (await bob.run('/power name:"Power Card"')).embed["title"] == "Rule: Power Card"
    guessed = await alice.run("/power name:Fligt")
    assert guessed.content == (
        "Kein genauer Treffer für 'Fligt': Gezeigt wird **Movement: Flight**, geraten. "
        "Wähle unten einen von 3 anderen, falls du etwas anderes meintest."
    )
    assert guessed.components[0]["components"][0]["placeholder"] == "Meintest du …"
    unknown = await alice.run("/special name:Nothingness")
    assert unknown.ephemeral
    assert unknown.content.startswith("Kein Special heißt 'Nothingness'")


async def test_pp_price_judges_a_build_in_german(fight: SandboxTable) -> None:
    """/pp preis did not itemise and judge the build in German (2d8 + range 16 = 40 PP)."""
    priced = await fight.user("alice").run(
        '/pp preis bausteine:"damage:2d8 range:16" typ:active stufe:2'
    )
    assert priced.embed["title"] == "Bau: 40 PP"
    assert priced.embed["description"].splitlines() == [
        "**Unter der Kurve** für Active Stufe 2: 40 PP von 60 PP, 20 PP ungenutzt (−33.3 %).",
        "Auch außerhalb der Design-Spanne von ±10 %.",
    ]
    shown = fields(priced.embed)
    assert shown["Bausteine"].splitlines() == [
        "`damage:2d8` **30 PP** — 15 PP × 2",
        "`range:16` **10 PP** — 16 m = 10 PP (Range)",
    ]
    assert (shown["Summe"], shown["Zielwert"]) == ("**40 PP**", "60 PP")
    twice = await fight.user("alice").run('/pp preis bausteine:"damage:2d8 damage:1d8"')
    assert twice.ephemeral
    assert twice.content == "Der Baustein 'damage' ist doppelt angegeben."
    target = await fight.user("bob").run("/pp target type:active level:2")
    assert target.embed["title"] == "Active · Level 2"
    assert fields(target.embed)["On curve"] == "55–65 PP"


async def test_the_over_curve_request_is_german_at_a_german_table(fight: SandboxTable) -> None:
    """Mira's Hellfire over its curve was not asked, allowed and refused in the table's German.

    alice asks from an English client and the GM answers from one: the request and its
    answer are the channel's, so they follow the server [SRD §10.3].
    """
    alice, gm = fight.user("alice", locale="en-US"), fight.user("gm")
    build = (
        f"/character power build name:Hellfire type:active level:3 components:{HELLFIRE} "
        "over_curve:true"
    )
    asked = await alice.run(build)
    assert not asked.ephemeral
    assert asked.embed["title"] == "Über der Kurve: Hellfire für Mira"
    assert (
        "bittet darum, diese Power hinzuzufügen, 12 PP über ihrer Kurve"
        in (asked.embed["description"])
    )
    assert [b["label"] for b in asked.buttons] == ["Erlauben", "Ablehnen"]
    refused = await asked.click("Erlauben", as_user="alice")
    assert refused.ephemeral  # alice's own reply: English, her client's
    assert refused.content == "Only the GM can allow a power over its curve."
    allowed = await asked.click("Erlauben", as_user="gm")
    assert allowed.message is not None
    assert unmentioned(allowed.message.content) == (
        "Erlaubt von Game Master: **Mira** hat eine neue Power:\n"
        "**Hellfire** — Active Stufe 3 · 102 PP (Kurve 90) · über der Kurve, von der SL erlaubt, eigener Bau\n"
        "Schaden 2d8; Reichweite 16 m; Radius 3 m; Ruin 2"
    )
    again = await alice.run(build.replace("Hellfire", "Hellfire Two"))
    no = await again.click("Ablehnen", as_user=gm.name)
    assert no.message is not None
    assert no.message.content == "Abgelehnt von Game Master: Mira bekommt sie nicht."


async def test_a_design_card_keeps_the_srds_english_under_german_labels(
    fight: SandboxTable,
) -> None:
    """/pp entwurf's verdict was not German, or its card's tooltip was not the SRD's English."""
    card = await fight.user("alice").run(
        '/pp entwurf name:Bolt typ:active bausteine:"damage:1d8 range:16 ruin:2" stufe:2 '
        'flavour:"A crackling dart."'
    )
    shown = fields(card.embed)
    assert shown["SRD-Prüfung"] == "Entspricht dem SRD."
    assert "BASELINES" in shown and "CALCULATION" in shown  # the SRD's tooltip [001 §0.2]
    assert card.embed["description"].startswith("*A crackling dart.*")


async def test_a_reaction_answers_the_goblins_attack_in_german(fight: SandboxTable) -> None:
    """Evade on the Goblin's attack was not said in German, or its refusals were not."""
    alice, gm = fight.user("alice"), fight.user("gm")
    early = await alice.run("/nutzen power:Evade")
    assert early.ephemeral
    assert early.content == (
        "Eine Reaction wird außerhalb des eigenen Zugs von Mira eingesetzt, bei ihrem Auslöser."
    )
    await alice.run("/init next")  # the Goblin's turn
    script(fight, d20(10))
    await gm.run("/attack target:Mira attacker:Goblin")
    reacted = await alice.run("/nutzen power:Evade")
    assert not reacted.ephemeral
    # Reaction L1: 20 PP at 5 PP per +1 Evade = +4 [001 Reaction curve, Evade axis]
    assert reacted.content == (
        "Mira reagiert mit Evade gegen den Angriff von Goblin: Evade +4 (die Reaction dieser "
        "Runde; die SL wendet an, was der Bot nicht verfolgt)."
    )
    again = await alice.run("/nutzen power:Evade")
    assert again.content == "Mira hat die Reaction dieser Runde schon genutzt (eine pro Runde)."
