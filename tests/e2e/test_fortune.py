"""Fortune options and declarations end to end: Haste, Wait, /act, Hold, Sacrifice, /declare."""

from __future__ import annotations

import re

import pytest

from bot.sandbox.client import SandboxTable
from bot.sandbox.render import plain
from tests.e2e.helpers import acting, order_in, rows, script, settle, tracker
from tests.scripted import d20

pytestmark = pytest.mark.e2e


async def four(table: SandboxTable, mode: str = "fortune", flow: str = "compact") -> None:
    """Start an encounter with Mira (alice, Finesse 2), Brom (bob, 1), Goblin (1) and Orc (0)."""
    gm = table.user("gm")
    await gm.run(f"/init start mode:{mode} flow:{flow}")
    await table.user("alice").run("/init join character:Mira finesse:2")
    await table.user("bob").run("/init join character:Brom finesse:1")
    await gm.run("/init add name:Goblin finesse:1")
    await gm.run("/init add name:Orc")


def titled(text: str) -> str:
    """Return the tracker's title: "Round 1 · Declaration"."""
    match = re.search(r"Round [^\n*]+ · \w+", text)
    assert match, text
    return match.group(0)


async def test_a_fortune_round_with_haste_wait_act_and_hold(fast) -> None:
    """A fortune round did not show Haste, Wait, /act and Hold on the tracker step by step."""
    table = fast
    gm, alice, bob = table.user("gm"), table.user("alice"), table.user("bob")
    await four(table)

    hasted = await alice.run("/haste")
    assert "Mira hastes: +3 initiative when round 1's initiative is rolled" in hasted.text
    assert "only 1 action this round" in hasted.text
    assert rows(await tracker(table)) == [
        "▫ — Mira · ●○ · ⚡ Haste",
        "▫ — Brom",
        "▫ — Goblin",
        "▫ — Orc",
    ]

    script(table, d20(11), d20(5), d20(13), d20(2))  # initiative: Mira, Brom, Goblin, Orc
    rolled = await gm.run("/init next")
    assert "Mira 16 (d20 11 · Finesse +2 · Haste +3)" in rolled.text
    assert "Goblin 14 (d20 13 · Finesse +1)" in rolled.text
    assert "Brom 6 (d20 5 · Finesse +1), Orc 2 (d20 2)" in rolled.text
    assert "Mira's turn — rolls d20, 1 action" in rolled.text
    assert rows(await tracker(table)) == [
        "▶ 16 Mira · ●○ · ⚡ Haste",  # 11 + 2 + 3: ahead of the Goblin's 14 only by Haste
        "▫ 14 Goblin · ●●",
        "▫ 6 Brom · ●●",
        "▫ 2 Orc · ●●",
    ]

    waited = await bob.run("/wait")
    assert not waited.ephemeral and "Brom waits: its turn is passed over" in waited.text
    assert rows(await tracker(table)) == [
        "▶ 16 Mira · ●○ · ⚡ Haste",
        "▫ 14 Goblin · ●●",
        "▫ 2 Orc · ●●",
        "⏸ 6 Brom · ●●",  # listed under Waiting
    ]

    await alice.run("/init next")
    assert acting(await tracker(table)) == "Goblin"
    acted = await bob.run("/act")
    assert "Brom acts now, out of turn" in acted.text
    assert [str(user) for user in acted.message.allowed_mentions["users"]] == [str(bob.id)]
    text = await tracker(table)
    assert rows(text) == [
        "✓ 16 Mira · ●○ · ⚡ Haste",  # her turn is over
        "▫ 14 Goblin · ●●",  # its turn waits for Brom's act
        "▶ 6 Brom · ●●",
        "▫ 2 Orc · ●●",
    ]
    assert "Now: Brom acting out of turn" in text

    resumed = await bob.run("/init next")
    assert "Back to Goblin's turn" in resumed.text
    assert rows(await tracker(table)) == [
        "✓ 16 Mira · ●○ · ⚡ Haste",
        "▶ 14 Goblin · ●●",
        "✓ 6 Brom · ●● · ↪ acted out of turn",
        "▫ 2 Orc · ●●",
    ]

    await gm.run("/wait combatant:Orc")
    held = await gm.run("/hold combatant:Orc")
    assert "Orc holds into round 2: +10 initiative then" in held.text
    assert rows(await tracker(table)) == [
        "✓ 16 Mira · ●○ · ⚡ Haste",
        "▶ 14 Goblin · ●●",
        "✓ 6 Brom · ●● · ↪ acted out of turn",
        "⏩ 2 Orc · ○○",
    ]

    ended = await gm.run("/init next")
    assert "Brom already acted this round (/act) — turn passed." in ended.text
    assert "Orc is holding — turn passed." in ended.text
    summary = plain(ended.embeds[0]["description"])
    for choice in ("Mira hastes", "Brom waits", "Brom acts now", "Orc waits", "Orc holds"):
        assert choice in summary, choice
    assert rows(await tracker(table)) == [
        "▫ — Mira",
        "▫ — Goblin",
        "▫ — Brom",
        "⏩ — Orc",  # holding: +10 when round 2's initiative is rolled
    ]

    script(table, d20(20), d20(9), d20(12), d20(17))  # initiative: Mira, Brom, Goblin, Orc
    second = await gm.run("/init next")
    assert "Orc 27 (d20 17 · Hold +10)" in second.text
    assert rows(await tracker(table)) == [
        "▶ 27 Orc · ●●",  # 17 + 10: the Hold bonus puts it ahead of Mira's 22
        "▫ 22 Mira · ●●",
        "▫ 13 Goblin · ●●",
        "▫ 10 Brom · ●●",
    ]


async def test_when_everyone_left_waits_the_round_passes_and_they_hold(fast) -> None:
    """With only waiting combatants left the round did not pass, or they missed +10 next round."""
    table = fast
    gm, alice, bob = table.user("gm"), table.user("alice"), table.user("bob")
    await gm.run("/init start")
    await alice.run("/init join character:Mira finesse:2")
    await bob.run("/init join character:Brom finesse:1")
    await gm.run("/init add name:Goblin finesse:1")
    script(table, d20(11), d20(5), d20(13))  # initiative: Mira, Brom, Goblin
    await gm.run("/init next")
    assert order_in(await tracker(table)) == ["Goblin", "Mira", "Brom"]  # 14, 13, 6
    await gm.run("/init next")
    await alice.run("/wait")
    assert acting(await tracker(table)) == "Brom"

    passed = await bob.run("/wait")
    assert (
        "Everyone left was waiting: round 1 passes, and Mira and Brom hold into the next round."
        in passed.text
    )
    assert passed.embeds[0]["title"] == "Round 1 summary"
    assert rows(await tracker(table)) == [
        "▫ — Goblin",
        "⏩ — Mira",
        "⏩ — Brom",
    ]

    script(table, d20(11), d20(5), d20(13))  # the same faces as round 1
    rolled = await gm.run("/init next")
    assert "Mira 23 (d20 11 · Finesse +2 · Hold +10)" in rolled.text
    assert "Brom 16 (d20 5 · Finesse +1 · Hold +10)" in rolled.text
    # Without the bonus the Goblin's 14 would have beaten both (13 and 6).
    assert order_in(await tracker(table)) == ["Mira", "Brom", "Goblin"]


async def test_the_trackers_wait_and_hold_buttons_act_for_the_clicker(fast) -> None:
    """The tracker's Wait / Hold buttons did not wait and hold for the clicker's combatant."""
    table = fast
    gm, alice = table.user("gm"), table.user("alice")
    await gm.run("/init start mode:finesse")
    await alice.run("/init join character:Mira finesse:5")
    await gm.run("/init add name:Goblin finesse:3")
    await gm.run("/init add name:Orc finesse:1")
    await gm.run("/init next")
    await settle(table)
    pinned = table.channel().pinned_messages[0]

    waited = await alice.click(pinned, "Wait")
    assert "⏸ Mira waits: its turn is passed over" in waited.text
    assert "Goblin's turn" in waited.text
    held = await alice.click(pinned, "Hold")
    assert "Mira holds into round 2: it goes first then" in held.text
    await gm.click(pinned, "Wait")  # the GM's click is for the NPC whose turn it is
    await gm.click(pinned, "Hold")
    assert rows(await tracker(table)) == [
        "⏩ 5 Mira · ○○",
        "⏩ 3 Goblin · ○○",
        "▶ 1 Orc · ●●",
    ]


async def test_haste_outside_fortune_says_it_puts_the_combatant_first(fast) -> None:
    """Haste in finesse mode did not explain that it is a place at the front, or did not give it."""
    table = fast
    await four(table, mode="finesse")
    reply = await table.user("gm").run("/haste combatant:Orc")
    assert (
        "finesse mode rolls no initiative, so Haste puts it at the front of round 1's order "
        "instead of +3; only 1 action this round." in reply.text
    )
    await table.user("gm").run("/init next")
    assert order_in(await tracker(table))[0] == "Orc"


async def test_a_full_flow_round_steps_through_every_phase_with_declarations(fast) -> None:
    """The full flow skipped a phase, or the declarations were not shown during Declaration."""
    table = fast
    gm, alice = table.user("gm"), table.user("alice")
    await gm.run("/init start mode:finesse flow:full")
    await alice.run("/init join character:Mira finesse:5")
    await gm.run("/init add name:Goblin finesse:1")
    phases = [titled(await tracker(table))]
    await gm.run("/init next")
    phases.append(titled(await tracker(table)))
    await gm.run("/init next")
    phases.append(titled(await tracker(table)))

    declared = await alice.run('/declare action:"Attack the goblin"')
    assert "Mira declares: Attack the goblin (primary)." in declared.text
    await gm.run('/declare combatant:Goblin action:"Run for the door" kind:movement')
    assert rows(await tracker(table)) == [
        "▫ — Mira · 📝 primary: Attack the goblin",
        "▫ — Goblin · 📝 movement: Run for the door",
    ]

    summary = None
    while len(phases) < 10:
        step = await gm.run("/init next")
        phases.append(titled(await tracker(table)))
        if step.embeds:
            summary = plain(step.embeds[0]["description"])
        if len(phases) == 4:  # the first turn: declarations are no longer shown
            assert rows(await tracker(table)) == ["▶ 5 Mira · ●●", "▫ 1 Goblin · ●●"]
    assert phases == [
        f"Round {n} · {phase}"
        for n, phase in [
            (1, "Start"),
            (1, "Question"),
            (1, "Declaration"),
            (1, "Initiative"),
            (1, "Initiative"),  # the Goblin's turn
            (1, "Reaction"),
            (1, "Resolution"),
            (1, "Counter"),
            (1, "Cleanup"),
            (1, "Summary"),
        ]
    ]
    assert summary is not None
    assert "Mira declares: Attack the goblin (primary)." in summary
    assert "Goblin declares: Run for the door (movement)." in summary
    await gm.run("/init next")
    assert titled(await tracker(table)) == "Round 2 · Start"


async def test_a_cumulative_long_action_completes_after_its_count_of_main_actions(fast) -> None:
    """A cumulative long action did not gain 1 per main action across rounds and complete."""
    table = fast
    gm, alice = table.user("gm"), table.user("alice")
    await gm.run("/init start mode:finesse")
    await alice.run("/init join character:Mira finesse:5")
    await gm.run("/init add name:Goblin finesse:1")
    started = await alice.run(
        '/declare action:"Pick the lock" kind:long rounds:3 long_type:cumulative'
    )
    assert "Mira starts a long action: Pick the lock (cumulative, 0/3" in started.text
    assert rows(await tracker(table))[0] == "▫ — Mira · ⏳ Pick the lock 0/3"
    await gm.run("/init next")

    first = await alice.run('/declare action:"Pick the lock" kind:long')
    assert "Mira works on Pick the lock: 1/3 (1 action spent)." in first.text
    await alice.run('/declare action:"Pick the lock" kind:long')
    assert rows(await tracker(table))[0] == "▶ 5 Mira · ○○ · ⏳ Pick the lock 2/3"
    refused = await alice.run('/declare action:"Pick the lock" kind:long')
    assert refused.ephemeral
    assert "Mira has no actions left this round to work on Pick the lock." in refused.text

    await gm.run("/init round")
    assert rows(await tracker(table))[0] == "▫ — Mira · ⏳ Pick the lock 2/3"  # kept across rounds
    await gm.run("/init next")
    done = await alice.run('/declare action:"Pick the lock" kind:long')
    assert "Mira completes Pick the lock (3/3, 1 action spent)" in done.text
    assert "may use its remaining 1 action" in done.text
    assert rows(await tracker(table))[0] == "▶ 5 Mira · ●○"


async def test_a_focused_long_action_goes_back_to_zero_when_attacked(fast) -> None:
    """An attack on a combatant busy with a focused long action left its progress standing."""
    table = fast
    if not any(spec.path == ("attack",) for spec in table.commands):
        pytest.skip("/attack is not in this tree yet; tests/unit/rules covers the rule")
    gm, alice = table.user("gm"), table.user("alice")
    await gm.run("/init start mode:finesse")
    await alice.run("/init join character:Mira finesse:5")
    await gm.run("/init add name:Goblin finesse:1")
    await alice.run("/declare action:Ritual kind:long rounds:3")
    await gm.run("/init next")
    await alice.run("/declare action:Ritual kind:long")  # a round of full attention: 1/3
    await gm.run("/init round")
    await gm.run("/init next")
    worked = await alice.run("/declare action:Ritual kind:long")
    assert "Mira works on Ritual: 2/3 (2 actions spent)." in worked.text
    await alice.run("/init next")
    script(table, d20(15))  # the Goblin's attack: neither Critical nor a Risk failure
    attacked = await gm.run("/attack target:Mira")
    assert "no defense" in attacked.text.lower()
    assert rows(await tracker(table))[0] == "✓ 5 Mira · ○○ · ⏳ Ritual 0/3"


async def test_undeclare_abandons_a_long_action(fast) -> None:
    """/undeclare of a long action kept it on the tracker."""
    table = fast
    await table.user("gm").run("/init start")
    await table.user("alice").run("/init join character:Mira")
    await table.user("alice").run("/declare action:Ritual kind:long rounds:2")
    reply = await table.user("alice").run("/undeclare")
    assert "Mira abandons Ritual: its progress (0/2) is lost." in reply.text
    assert "⏳" not in await tracker(table)


async def test_a_sacrifice_for_defense_answers_an_attack_out_of_turn(fast) -> None:
    """Out of its turn a sacrifice was allowed with no attack to answer, or against one it did not
    spend an action, mark +3 defense on the tracker and on the attack's prompt [003]."""
    table = fast
    gm, bob = table.user("gm"), table.user("bob")
    await four(table, mode="finesse")
    await gm.run("/init next")  # Mira's turn
    early = await bob.run("/sacrifice for:defense")
    assert early.ephemeral
    assert early.content == (
        "It is not Brom's turn: out of its turn it sacrifices only against an attack waiting "
        "for its defense; the GM may force it (force:true)."
    )
    script(table, d20(10))  # the Goblin's attack, forced out of its turn by the GM
    prompt = await gm.run("/attack target:Brom attacker:Goblin force:true")
    reply = await bob.run("/sacrifice for:defense")
    assert "Brom sacrifices an action: +3 to defense for the rest of round 1 (1 action left)." in (
        reply.text
    )
    assert "▫ 1 Brom · ●○ · ✚ +3 defense" in rows(await tracker(table))
    await table.channel().wait_for(
        lambda ch: "Brom sacrifices an action: +3 defense." in prompt.embed["description"],
        what="the prompt to show the sacrifice",
    )
    # Mira may still protect Brom, and the Orc support the Goblin's attack.
    assert [b["label"] for b in prompt.buttons] == [
        "Block",
        "Dodge",
        "Break Away",
        "Protect",
        "Support",
    ]


async def test_a_hidden_npcs_choices_are_told_only_to_the_gm(fast) -> None:
    """A hidden NPC's Haste was shown to players or written into the public round log."""
    table = fast
    gm = table.user("gm")
    await gm.run("/init start mode:finesse")
    await gm.run("/init add name:Lurker hidden:true")
    await table.user("alice").run("/init join character:Mira finesse:1")
    reply = await gm.run("/haste combatant:Lurker")
    assert reply.ephemeral and "Lurker hastes" in reply.text
    await gm.run("/init next")
    ended = await gm.run("/init round")
    assert "Lurker" not in plain(ended.embeds[0]["description"])
    for message in table.channel().visible_to("alice"):
        assert "Lurker" not in table.render(message)


async def test_a_player_cannot_choose_for_another_players_combatant(fast) -> None:
    """A player hasted another player's combatant."""
    table = fast
    await four(table)
    before = await tracker(table)
    reply = await table.user("bob").run("/haste combatant:Mira")
    assert reply.ephemeral
    assert "Mira is another player's combatant; you cannot act for it." in reply.text
    assert await tracker(table) == before


REFUSALS = [
    pytest.param(
        [("gm", "/init next")],
        "alice",
        "/haste",
        "Haste is declared before initiative is rolled, and round 1's turns have begun.",
        id="haste-after-initiative",
    ),
    pytest.param(
        [("gm", "/init next")],
        "alice",
        "/act",
        "Mira is not waiting; only a waiting combatant can /act.",
        id="act-without-waiting",
    ),
    pytest.param(
        [("gm", "/init next")],
        "alice",
        "/hold",
        "Mira must be waiting to hold (/wait first).",
        id="hold-without-waiting",
    ),
    pytest.param(
        [("alice", "/haste"), ("gm", "/init next"), ("alice", "/sacrifice for:attack")],
        "alice",
        "/sacrifice for:attack",
        "Mira has no actions left this round to sacrifice.",
        id="sacrifice-without-actions",
    ),
]


@pytest.mark.parametrize(("setup", "who", "command", "error"), REFUSALS)
async def test_a_refused_choice_is_one_ephemeral_line_and_changes_nothing(
    fast, setup: list[tuple[str, str]], who: str, command: str, error: str
) -> None:
    """A Fortune choice out of time or without its condition was not refused cleanly."""
    table = fast
    await four(table)
    for user, line in setup:
        assert not (await table.user(user).run(line)).ephemeral, line
    before = await tracker(table)
    reply = await table.user(who).run(command)
    assert reply.ephemeral
    assert error in reply.text
    assert "\n" not in reply.content
    assert await tracker(table) == before
