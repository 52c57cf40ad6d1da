"""Racing Next: a turn ends once, however many people press or type at the same moment.

A click carries the custom_id its user saw: a double click, or a Next pressed on a
tracker that has not caught up yet, sends the old one. `press` dispatches such a click
without waiting for the answer, so several can race for the channel as they would on
Discord. A slash command carries only when it was sent: `/init next` sent before the
previous turn change was announced is refused (README, Table rulings).
"""

from __future__ import annotations

import asyncio

import pytest

from bot.sandbox.client import InteractionResult, SandboxTable, SandboxUser
from bot.sandbox.records import BUTTON, MESSAGE_COMPONENT, StoredMessage
from tests.e2e.helpers import acting, settle, tracker

pytestmark = pytest.mark.e2e

STALE = "already over"


async def fight(table: SandboxTable, *, hawk: bool = False) -> StoredMessage:
    """Open a finesse fight (Mira, [Hawk,] Brom, Goblin), start Mira's turn; return the tracker."""
    gm, alice, bob = table.user("gm"), table.user("alice"), table.user("bob")
    await gm.run("/init start mode:finesse")
    await alice.run("/init join character:Mira finesse:5")
    if hawk:  # Mira's hawk: Alice plays both of the first two turns
        await gm.run("/init add name:Hawk finesse:4", controller=table.server.member("alice"))
    await bob.run("/init join character:Brom finesse:3")
    await gm.run("/init add name:Goblin finesse:1")
    await gm.run("/init next")
    assert acting(await tracker(table)) == "Mira"
    return table.channel().pinned_messages[0]


def press(user: SandboxUser, message: StoredMessage, custom_id: str) -> InteractionResult:
    """Click a button by the custom_id the user's screen shows, without waiting for the answer."""
    record = user.table.server.dispatch_interaction(
        member=user.member,
        channel=user.table.server.channel(message.channel_id),
        type=MESSAGE_COMPONENT,
        data={"custom_id": custom_id, "component_type": BUTTON},
        label=f"button {custom_id}",
        message=message,
    )
    return InteractionResult(user.table, user, record)


async def answers(*replies: InteractionResult) -> list[InteractionResult]:
    """Wait until every reply is answered; return them in the order they were sent."""
    await asyncio.gather(*(reply.responded() for reply in replies))
    return list(replies)


def turn_changes(replies: list[InteractionResult]) -> list[InteractionResult]:
    """Return the replies that moved the turn on (public); check the others were refused."""
    public = [r for r in replies if not r.ephemeral]
    for refused in (r for r in replies if r.ephemeral):
        assert STALE in refused.content and "\n" not in refused.content, refused.content
    return public


async def test_the_gm_and_the_actors_player_pressing_next_together_end_one_turn(fast) -> None:
    """The GM's and Mira's player's Next, pressed together, ended two turns (Brom lost his)."""
    table = fast
    shown = await fight(table)
    next_id = shown.find_button("Next")["custom_id"]
    # Mira's player's press first: had it ended her turn, the GM's would have ended Brom's.
    replies = await answers(
        press(table.user("alice"), shown, next_id), press(table.user("gm"), shown, next_id)
    )
    moved = turn_changes(replies)
    assert len(moved) == 1, [r.content for r in replies]
    assert "**Brom**'s turn" in moved[0].content
    assert acting(await tracker(table)) == "Brom"


async def test_a_double_click_50_ms_apart_ends_one_turn(fast) -> None:
    """A GM's double click on Next, 50 ms apart, ended Mira's turn and Brom's."""
    table = fast
    gm = table.user("gm")
    shown = await fight(table)
    next_id = shown.find_button("Next")["custom_id"]
    first = press(gm, shown, next_id)
    await asyncio.sleep(0.05)
    second = press(gm, shown, next_id)
    moved = turn_changes(await answers(first, second))
    assert moved == [first], [r.content for r in (first, second)]
    assert acting(await tracker(table)) == "Brom"


async def test_wait_and_next_pressed_together_pass_one_turn(fast) -> None:
    """Mira's Wait and the GM's Next, pressed together, passed Mira's turn and ended Brom's."""
    table = fast
    shown = await fight(table)
    replies = await answers(
        press(table.user("alice"), shown, shown.find_button("Wait")["custom_id"]),
        press(table.user("gm"), shown, shown.find_button("Next")["custom_id"]),
    )
    assert len(turn_changes(replies)) == 1, [r.content for r in replies]
    assert acting(await tracker(table)) == "Brom"


async def test_init_next_racing_the_gms_button_ends_one_turn(fast) -> None:
    """Mira's player's /init next, sent as the GM pressed Next, also ended her Hawk's turn."""
    table = fast
    shown = await fight(table, hawk=True)
    replies = await answers(
        press(table.user("gm"), shown, shown.find_button("Next")["custom_id"]),
        table.user("alice").send_command("/init next"),
    )
    moved = turn_changes(replies)
    assert len(moved) == 1, [r.content for r in replies]
    assert "**Hawk**'s turn" in moved[0].content
    assert acting(await tracker(table)) == "Hawk"


async def test_init_next_racing_init_next_ends_one_turn(fast) -> None:
    """The GM's and a Manage Channels member's /init next, sent together, ended two turns."""
    table = fast
    await fight(table)
    replies = await answers(
        table.user("gm").send_command("/init next"),
        table.user("admin").send_command("/init next"),
    )
    assert len(turn_changes(replies)) == 1, [r.content for r in replies]
    assert acting(await tracker(table)) == "Brom"


async def test_init_next_sent_after_the_turn_was_announced_ends_it(fast) -> None:
    """A /init next sent once the new turn was announced was refused as if it raced it."""
    table = fast
    gm, alice = table.user("gm"), table.user("alice")
    shown = await fight(table, hawk=True)
    clicked = await gm.click(shown, "Next")
    assert "**Hawk**'s turn" in clicked.content
    ended = await alice.run("/init next")
    assert not ended.ephemeral and "**Brom**'s turn" in ended.content
    await settle(table)
    assert acting(await tracker(table)) == "Brom"


async def test_next_pressed_for_a_removed_actor_leaves_the_next_turn_alone(fast) -> None:
    """Next pressed on Mira's turn after the GM removed Mira ended Brom's turn instead."""
    table = fast
    gm = table.user("gm")
    shown = await fight(table)
    next_id = shown.find_button("Next")["custom_id"]
    removed = await gm.run("/init remove combatant:Mira")
    assert "**Brom**'s turn" in removed.content
    pressed = (await answers(press(gm, shown, next_id)))[0]
    assert pressed.ephemeral and STALE in pressed.content
    assert acting(await tracker(table)) == "Brom"
