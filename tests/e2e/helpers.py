"""Helpers the end-to-end tests share: scripted dice, the pinned tracker and what it shows."""

from __future__ import annotations

import re

from bot.sandbox.client import SandboxTable
from bot.sandbox.records import StoredMessage
from tests.scripted import Face, ScriptedRandom

COMMAND_MENTION = re.compile(r"</([\w -]+):\d+>")


def unmentioned(text: str) -> str:
    """Return text with each clickable command mention (`</init next:ID>`) as its name."""
    return COMMAND_MENTION.sub(r"/\1", text)


def script(table: SandboxTable, *faces: Face | int) -> ScriptedRandom:
    """Make the listed faces the bot's next draws; the script before must be used up."""
    before = table.bot.rng  # type: ignore[attr-defined]
    if isinstance(before, ScriptedRandom):
        before.done()
    table.bot.rng = dice = ScriptedRandom(faces)  # type: ignore[attr-defined]
    return dice


async def settle(table: SandboxTable) -> None:
    """Wait until every pending tracker edit is done."""
    await table.bot.trackers.settled()  # type: ignore[attr-defined]


async def tracker(table: SandboxTable, channel: str = "table-1") -> str:
    """Return the pinned tracker as players see it, once its edits have settled."""
    await settle(table)
    pinned = table.channel(channel).pinned_messages
    assert len(pinned) == 1, f"expected one pinned tracker, got {len(pinned)}"
    return table.render(pinned[0])


POINTERS = ("▶", "✓", "▫", "⏸", "⏩", "✖", "⊘", "◆")  # where each combatant stands this round
SIDES = ("🟦 ", "🟥 ")


def _combatant_lines(text: str) -> list[tuple[str, str, list[str]]]:
    """Return (pointer and initiative, name, the rest) of each combatant line of a tracker."""
    found = []
    for line in text.splitlines():
        line = line.strip(" |")
        head, *rest = line.split(" · ")
        parts = head.split(maxsplit=2)
        if len(parts) < 3 or parts[0] not in POINTERS:
            continue
        pointer, initiative, name = parts
        if not (initiative == "—" or initiative.lstrip("-").isdigit()):
            continue  # the legend, not a combatant
        for side in SIDES:
            name = name.removeprefix(side)
        found.append((f"{pointer} {initiative}", name.strip(), rest))
    return found


def order_in(text: str) -> list[str]:
    """Return the combatant names of a rendered tracker, top to bottom."""
    return [name for _head, name, _rest in _combatant_lines(text)]


def acting(text: str) -> str | None:
    """Return the name marked ▶ (acting now) in a rendered tracker, if any."""
    return next((name for head, name, _ in _combatant_lines(text) if head[0] == "▶"), None)


def rows(text: str) -> list[str]:
    """Return each combatant line of a rendered tracker without side and Grit: "▶ 16 Mira · ●○"."""
    return [
        " · ".join([f"{head} {name}", *rest[1:]]) for head, name, rest in _combatant_lines(text)
    ]


DEFENSES = frozenset(("Block", "Dodge", "Break Away", "Take Cover"))


def offers_defense(message: StoredMessage) -> bool:
    """Return whether an attack's prompt still offers its defenses.

    Once answered, the prompt is the result: with no buttons, or Counter after a natural 1
    (a bot process rolls its own dice, so a test cannot rule that out).
    """
    return any(b.get("label") in DEFENSES for b in message.buttons)
