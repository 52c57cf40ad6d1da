"""Lost updates: many commands at once in one channel (or several) through the loopback Discord.

Every command is dispatched before any answer is awaited, so they all race for the
channel's lock. Each must still be applied exactly once, in its own channel, and the
tracker must end showing the stored state.
"""

from __future__ import annotations

import asyncio
import logging
import re

import pytest

from bot.rules import encounter as flow
from bot.rules.encounter import MAX_COMBATANTS
from bot.sandbox.client import SandboxTable
from tests.e2e.helpers import settle
from tests.e2e.invariants import pinned_tracker, stored, tracker_shows

pytestmark = pytest.mark.e2e

N = 100


async def answered(replies) -> None:
    """Wait for every reply (concurrently: they answer in whatever order the bot gets to them)."""
    await asyncio.gather(*(reply.responded(timeout=30) for reply in replies))


@pytest.mark.parametrize(("max_grit", "expected"), [(150, 50), (60, 0)])
async def test_a_hundred_concurrent_damages_all_land(
    table: SandboxTable, max_grit: int, expected: int
) -> None:
    """100 concurrent `/grit damage 1` lost an update, or Grit went below 0."""
    gm, alice = table.user("gm"), table.user("alice")
    await gm.run("/init start")
    await gm.run(f"/init add name:Mira controller:alice max_grit:{max_grit}")
    # Half from the GM, half from the combatant's own player: both may change it.
    replies = [
        (gm if n % 2 else alice).send_command("/grit damage combatant:Mira amount:1")
        for n in range(N)
    ]
    await answered(replies)
    assert all(not r.ephemeral for r in replies), [r.text for r in replies if r.ephemeral][:3]
    # Each reply reports one step down, and together they are every step from max to the end.
    steps = sorted(
        int(re.search(r"Grit (\d+) →", r.content).group(1))  # type: ignore[union-attr]
        for r in replies
    )
    assert steps == sorted([max(max_grit - n, 0) for n in range(N)])
    encounter = await stored(table.bot.store, table.channel().id)  # type: ignore[attr-defined]
    assert encounter is not None
    assert flow.by_name(encounter, "Mira").grit == expected
    await settle(table)
    assert tracker_shows(pinned_tracker(table, "table-1"), encounter)
    assert f"Grit {expected}/{max_grit}" in table.render(pinned_tracker(table, "table-1"))


async def test_a_hundred_concurrent_adds_make_a_hundred_combatants(table: SandboxTable) -> None:
    """100 concurrent `/init add` with distinct names did not end with exactly those 100."""
    gm = table.user("gm")
    await gm.run("/init start")
    replies = [gm.send_command(f"/init add name:Wolf{n:03d}") for n in range(MAX_COMBATANTS)]
    await answered(replies)
    assert all(not r.ephemeral for r in replies), [r.text for r in replies if r.ephemeral][:3]
    encounter = await stored(table.bot.store, table.channel().id)  # type: ignore[attr-defined]
    assert encounter is not None
    assert sorted(c.name for c in encounter.combatants) == [
        f"Wolf{n:03d}" for n in range(MAX_COMBATANTS)
    ]
    assert sorted(c.id for c in encounter.combatants) == list(range(1, MAX_COMBATANTS + 1))
    # The 101st finds the encounter full: the cap holds under the same race.
    refused = await gm.run("/init add name:Straggler")
    assert refused.ephemeral and "at most 100 combatants" in refused.content
    await settle(table)
    assert tracker_shows(pinned_tracker(table, "table-1"), encounter)


async def test_concurrent_adds_past_the_cap_stop_at_exactly_the_cap(table: SandboxTable) -> None:
    """Racing adds beyond 100 let the encounter grow past its cap, or refused some that fit."""
    gm = table.user("gm")
    await gm.run("/init start")
    await gm.run("/init add name:Orc count:90")
    replies = [gm.send_command(f"/init add name:Bat{n}") for n in range(20)]
    await answered(replies)
    accepted = [r for r in replies if not r.ephemeral]
    refused = [r for r in replies if r.ephemeral]
    assert (len(accepted), len(refused)) == (10, 10)
    assert all("at most 100 combatants" in r.content for r in refused)
    encounter = await stored(table.bot.store, table.channel().id)  # type: ignore[attr-defined]
    assert encounter is not None and len(encounter.combatants) == MAX_COMBATANTS
    added = {r.content.removeprefix("Added ").removesuffix(".") for r in accepted}
    assert added == {c.name for c in encounter.combatants if c.name.startswith("Bat")}


GRIT_LINE = re.compile(r"Mira takes (\d+) damage \(Grit (\d+) → (\d+)\)")
CHANNELS = ("table-1", "table-2", "table-3", "table-1-side")


def _is_prompt_sent(reply) -> bool:
    """Return whether an /attack was answered with a defense prompt (rather than a result)."""
    first = reply.message
    return bool(first and first.embeds and "choose a defense" in first.embeds[0]["description"])


def _grit_lost(embed: dict) -> int:
    """Return the damage a resolution embed says Mira took (0 for a miss)."""
    fields = {f["name"]: f["value"] for f in embed.get("fields", [])}
    found = GRIT_LINE.search(fields.get("Grit", ""))
    return int(found.group(1)) if found else 0


async def test_attacks_on_the_same_defender_in_several_channels_never_cross(
    table: SandboxTable,
) -> None:
    """An attack, defense or Grit change in one channel's fight reached another channel's fight."""
    gm, alice = table.user("gm"), table.user("alice")
    table.bot.trackers.interval = 0  # type: ignore[attr-defined]
    for channel in CHANNELS:
        await gm.run("/init start", channel=channel)
        await gm.run("/init add name:Goblin physical:3", channel=channel)
        # The same player's same-named defender in every fight.
        await alice.run("/init join character:Mira physical:2 finesse:1", channel=channel)
    ids = {ch: table.channel(ch).id for ch in CHANNELS}
    store = table.bot.store  # type: ignore[attr-defined]

    # Two attacks on Mira in every channel at once, each with its own weapon die; the GM
    # forces them, before the turns begin.
    prompts = {
        ch: [
            gm.send_command(
                f"/attack target:Mira attacker:Goblin damage:1d{4 + 2 * i}+{i} force:true",
                channel=ch,
            )
            for i in range(2)
        ]
        for ch in CHANNELS
    }
    await answered([p for ps in prompts.values() for p in ps])
    # Counted now: an answered prompt becomes its result, and no longer asks for a defense.
    opened = {ch: sum(1 for p in ps if _is_prompt_sent(p)) for ch, ps in prompts.items()}
    for ch, ps in prompts.items():
        encounter = await stored(store, ids[ch])
        assert encounter is not None
        assert sorted(p.id for p in encounter.pending_attacks) == sorted(
            str(p.record.id) for p in ps if _is_prompt_sent(p)
        ), ch
        for p in ps:
            assert p.message is not None and p.message.channel_id == ids[ch]

    # alice answers every channel's first attack with /defend at once, and the second by button.
    defends = {
        ch: alice.send_command("/defend strategy:dodge", channel=ch)
        for ch in CHANNELS
        if opened[ch]
    }
    await answered(defends.values())
    # Each /defend is answered privately; its prompt becomes the result.
    assert all(
        d.ephemeral and d.content.endswith("The attack above now shows the result.")
        for d in defends.values()
    ), [d.text for d in defends.values()]
    clicks = []
    for ch in CHANNELS:
        encounter = await stored(store, ids[ch])
        assert encounter is not None
        # /defend took exactly one of this channel's attacks; the other waits for its button.
        assert len(encounter.pending_attacks) == max(opened[ch] - 1, 0), ch
        for pending in encounter.pending_attacks:
            prompt = table.server.messages[pending.prompt_message_id or 0]
            assert prompt.channel_id == ids[ch]
            clicks.append(alice.click(prompt, "Block"))
    clicked = await asyncio.gather(*clicks)
    assert all(not c.ephemeral for c in clicked), [c.text for c in clicked if c.ephemeral]

    for ch in CHANNELS:
        encounter = await stored(store, ids[ch])
        assert encounter is not None
        assert encounter.pending_attacks == [], ch
        # Mira's Grit here is 30 less exactly what this channel's resolutions say she lost.
        results = [
            m
            for m in table.channel(ch).public_messages
            if m.embeds
            and (m.embeds[0].get("title") or "").startswith("Goblin attacks Mira")
            and "choose a defense" not in (m.embeds[0].get("description") or "")
        ]
        assert len(results) == 2, (ch, [m.embeds[0].get("title") for m in results])
        lost = sum(_grit_lost(m.embeds[0]) for m in results)
        assert flow.by_name(encounter, "Mira").grit == max(30 - lost, 0), ch
        # Every resolution this channel's log holds is one of this channel's.
        async with store.channel(ids[ch]) as state:
            log = [e.line for e in await state.round_log(1)]
        assert sum(1 for line in log if line.startswith("Goblin attacks Mira")) == 2, (ch, log)
        await settle(table)
        assert tracker_shows(pinned_tracker(table, ch), encounter), ch


async def test_a_command_kept_waiting_past_the_bots_patience_changes_nothing(
    table: SandboxTable, caplog: pytest.LogCaptureFixture
) -> None:
    """A command stuck behind a busy channel past the bot's patience changed it, or said nothing.

    Discord drops an answer later than 3 s: a change applied then is one its user never
    hears of and sends again. The bot gives up first (`Tablehand.patience`, 2.5 s; here
    0.2 s) and says so privately while it can still be heard.
    """
    gm = table.user("gm")
    await gm.run("/init start")
    await gm.run("/init add name:Mira max_grit:30")
    bot = table.bot  # type: ignore[attr-defined]
    bot.patience = 0.2
    channel_id = table.channel().id
    async with bot.store.channel(channel_id):  # another command holds the channel meanwhile
        reply = gm.send_command("/grit damage combatant:Mira amount:5")
        await reply.responded(timeout=5)
    assert reply.ephemeral, reply.content
    assert reply.content == (
        "The table was busy with other commands for too long: yours changed nothing. Send it again."
    )
    encounter = await stored(bot.store, channel_id)
    assert encounter is not None and flow.by_name(encounter, "Mira").grit == 30
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    again = await gm.run("/grit damage combatant:Mira amount:5")  # sent again, it is applied
    assert not again.ephemeral and again.content.startswith("Mira takes 5 damage")
    encounter = await stored(bot.store, channel_id)
    assert encounter is not None and flow.by_name(encounter, "Mira").grit == 25
