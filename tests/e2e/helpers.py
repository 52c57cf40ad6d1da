"""Helpers the end-to-end tests share: scripted dice, the pinned tracker and what it shows."""

from __future__ import annotations

import re

from bot.sandbox.client import SandboxTable
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


def order_in(text: str) -> list[str]:
    """Return the combatant names of a rendered tracker, top to bottom."""
    names = []
    for line in text.splitlines():
        line = line.strip(" |")
        if line.startswith(("▶", "▫")):
            names.append(line.split(" · ")[0].split(maxsplit=2)[-1].strip())
    return names


def acting(text: str) -> str | None:
    """Return the name marked ▶ (acting now) in a rendered tracker, if any."""
    for line in text.splitlines():
        line = line.strip(" |")
        if line.startswith("▶"):
            return line.split(" · ")[0].split(maxsplit=2)[-1].strip()
    return None


def rows(text: str) -> list[str]:
    """Return each combatant line of a rendered tracker without its Grit: "▶ 16 Mira · ●○"."""
    found = []
    for line in text.splitlines():
        line = line.strip(" |")
        if line.startswith(("▶", "▫")):
            head, _grit, *rest = line.split(" · ")
            found.append(" · ".join([" ".join(head.split()), *rest]))
    return found
