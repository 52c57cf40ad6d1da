"""Character sheets keep their Grit: one fight at a time, no stale copy, no stale save (issue 16.5).

A character is in at most one fight: the fight holds its sheet from `/init join` until
the character leaves or the fight ends, and writes the fight's Grit back then. Nothing
said to a player as done may be lost: damage to a sheet acknowledged while it joins a
fight, or Grit a fight wrote back while a form of the sheet was open.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

from bot.rules.models import Character, Combatant
from bot.sandbox.client import InteractionResult, SandboxTable, SandboxUser
from bot.store import Store
from bot.store.base import KeyedLocks

pytestmark = pytest.mark.e2e

TABLES = ("table-1", "table-2", "table-3")


async def sheet(table: SandboxTable, name: str = "Mira") -> Character:
    """Read alice's character as stored now."""
    store: Store = table.bot.store  # type: ignore[attr-defined]
    found = await store.get_character(table.server.guild.id, table.user("alice").id, name)
    assert found is not None
    return found


async def fighter(table: SandboxTable, channel: str, name: str = "Mira") -> Combatant | None:
    """Read a combatant of a channel's encounter as stored now (None: not in that fight)."""
    store: Store = table.bot.store  # type: ignore[attr-defined]
    encounter = await store.peek(table.channel(channel).id)
    assert encounter is not None
    return next((c for c in encounter.combatants if c.name == name), None)


async def end_fight(gm: SandboxUser, channel: str) -> None:
    """End a channel's fight: /init end, then Confirm."""
    asked = await gm.run("/init end", channel=channel)
    ended = await asked.click("Confirm")
    assert ended.content == "Encounter ended.", ended.text


def assert_refused(reply: InteractionResult, message: str) -> None:
    """The reply is the one-line private error `message`."""
    assert reply.ephemeral, reply.text
    assert reply.content == message
    assert "\n" not in reply.content


def in_another_fight(channel_id: int) -> str:
    return (
        f"Mira is already in the fight in <#{channel_id}>; a character is in one fight "
        "at a time, so they can join here once they have left it."
    )


class Arrivals(KeyedLocks):
    """The store's channel locks, unchanged, telling the test when a command comes for one."""

    def __init__(self, channel_id: int) -> None:
        super().__init__()
        self.channel_id = channel_id
        self.arrived = asyncio.Event()

    @asynccontextmanager
    async def hold(self, key: object, give_up_at: float | None = None) -> AsyncIterator[None]:
        if key == self.channel_id:
            self.arrived.set()  # before it waits: whatever it read before, it has read
        async with super().hold(key, give_up_at):
            yield


async def test_a_character_is_in_one_fight_at_a_time(table: SandboxTable) -> None:
    """Mira joined fights in two channels at once; damage 10 and 5 ended her at 25/30, not 15."""
    alice, gm = table.user("alice"), table.user("gm")
    await alice.run("/character create name:Mira")
    for channel in ("table-1", "table-2"):
        await gm.run("/init start", channel=channel)
    joined = await alice.run("/init join", channel="table-1")
    assert joined.content == "**Mira** joins the fight."
    refused = await alice.run("/init join", channel="table-2")
    assert_refused(refused, in_another_fight(table.channel("table-1").id))
    assert await fighter(table, "table-2") is None

    await gm.run("/grit damage combatant:Mira amount:10", channel="table-1")
    await end_fight(gm, "table-1")
    assert (await sheet(table)).grit == 20
    # Once she has left that fight, she may join another, with the Grit it left her.
    await alice.run("/init join", channel="table-2")
    assert (await fighter(table, "table-2")).grit == 20  # type: ignore[union-attr]
    await gm.run("/grit damage combatant:Mira amount:5", channel="table-2")
    await end_fight(gm, "table-2")
    mira = await sheet(table)
    assert (mira.grit, mira.max_grit) == (15, 30)


async def test_joins_in_three_channels_at_once_let_one_in(table: SandboxTable) -> None:
    """Three /init join of one sheet sent at once let it into more than one fight."""
    alice, gm = table.user("alice"), table.user("gm")
    await alice.run("/character create name:Mira")
    for channel in TABLES:
        await gm.run("/init start", channel=channel)
    sent = [alice.send_command("/init join", channel=channel) for channel in TABLES]
    replies = [await reply.responded() for reply in sent]
    joined = [ch for ch, reply in zip(TABLES, replies, strict=True) if not reply.ephemeral]
    assert len(joined) == 1, [reply.text for reply in replies]
    (winner,) = joined
    for channel, reply in zip(TABLES, replies, strict=True):
        if channel != winner:
            assert_refused(reply, in_another_fight(table.channel(winner).id))
    fighting = [ch for ch in TABLES if await fighter(table, ch) is not None]
    assert fighting == [winner]
    store: Store = table.bot.store  # type: ignore[attr-defined]
    assert await store.character_fight((await sheet(table)).id) == table.channel(winner).id  # type: ignore[arg-type]


async def test_damage_to_a_sheet_while_it_joins_a_fight_is_kept(table: SandboxTable) -> None:
    """/grit damage on Mira's sheet, said as done while /init join took her, was lost by the fight."""
    alice, gm = table.user("alice"), table.user("gm")
    await alice.run("/character create name:Mira")
    await gm.run("/init start")
    store: Store = table.bot.store  # type: ignore[attr-defined]
    here = table.channel("table-1").id
    store._channel_locks = arrivals = Arrivals(here)  # nothing holds a channel now
    # Another command holds table-1 for a moment: the join waits for it, and meanwhile
    # Mira's sheet takes damage in table-2 (no fight there: the sheet's own Grit).
    async with store.channel(here):
        arrivals.arrived.clear()
        joining = alice.send_command("/init join")
        await arrivals.arrived.wait()
        hit = await alice.run("/grit damage combatant:Mira amount:5", channel="table-2")
        assert hit.content == "Mira takes 5 damage (Grit 30 → 25)."
        assert not hit.ephemeral
    joined = await joining.responded()
    assert joined.content == "**Mira** joins the fight."
    assert (await fighter(table, "table-1")).grit == 25  # type: ignore[union-attr]
    await gm.run("/grit damage combatant:Mira amount:3")
    await end_fight(gm, "table-1")
    assert (await sheet(table)).grit == 22


async def test_grit_damage_to_a_sheet_in_a_fight_elsewhere_is_refused(table: SandboxTable) -> None:
    """/grit damage on a sheet held by a fight changed the sheet, to be overwritten at the end."""
    alice, gm = table.user("alice"), table.user("gm")
    await alice.run("/character create name:Mira")
    await gm.run("/init start")
    await alice.run("/init join")
    refused = await alice.run("/grit damage combatant:Mira amount:5", channel="table-2")
    assert_refused(
        refused,
        f"Mira is in the fight in <#{table.channel('table-1').id}>: change their Grit there "
        "with /grit; the fight writes it back when they leave or it ends.",
    )
    assert (await sheet(table)).grit == 30


async def test_a_form_opened_before_the_fight_ended_keeps_the_fights_grit(
    table: SandboxTable,
) -> None:
    """A sheet's form, saved after the fight wrote Grit 12 back, put the form's stale 30 over it."""
    alice, gm = table.user("alice"), table.user("gm")
    await alice.run("/character create name:Mira")
    await gm.run("/init start")
    await alice.run("/init join")
    form = await alice.run("/character edit name:Mira")  # filled in with Grit 30/30
    await gm.run("/grit damage combatant:Mira amount:18")
    await end_fight(gm, "table-1")
    assert (await sheet(table)).grit == 12
    saved = await alice.submit_modal(form, {"physical": "3"})
    assert saved.content == "**Mira**: physical 0 → 3."
    mira = await sheet(table)
    assert (mira.grit, mira.physical) == (12, 3)


async def test_an_edit_of_another_field_while_in_a_fight_keeps_the_write_back(
    table: SandboxTable,
) -> None:
    """Editing Mira's tags mid-fight, then the fight's end: the sheet lost the tags or the Grit."""
    alice, gm = table.user("alice"), table.user("gm")
    await alice.run("/character create name:Mira")
    await gm.run("/init start")
    await alice.run("/init join")
    await gm.run("/grit damage combatant:Mira amount:7")
    edits = [
        alice.send_command(f"/character edit name:Mira field:tags value:Tag{n}", channel="table-2")
        for n in range(5)
    ]
    asked = await gm.run("/init end")
    ending = asked.click("Confirm")
    await asyncio.gather(ending, *(edit.responded() for edit in edits))
    mira = await sheet(table)
    assert mira.grit == 23
    assert len(mira.tags) == 1 and mira.tags[0].startswith("Tag")
