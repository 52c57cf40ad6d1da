"""The fight's log as a Markdown file: every line the table was told, round by round.

`/init log` attaches it for the GM, and `/init end` posts the whole fight's before the
encounter is deleted. The log holds what players may read (a hidden NPC's lines never go
into it), so the file may be shown to the table: it speaks the table's language, like the
round summaries (its lines were written in it), whoever asks for it.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from datetime import datetime

import discord

from bot.i18n import _, p_
from bot.rules.models import LogEntry


def rounds_text(first: int, last: int) -> str:
    """Return "round 2" or "rounds 1–3"."""
    if first == last:
        return _("round {round}", round=last)
    return _("rounds {first}–{last}", first=first, last=last)


def fight_log(
    rounds: Mapping[int, list[LogEntry]], *, heading: str, written: datetime | None = None
) -> str:
    """Return the log as Markdown: a heading, then each round's lines in order."""
    lines = [f"# {heading}", ""]
    if written is not None:
        when = written.strftime("%Y-%m-%d %H:%M")
        lines += [_("Written {when} UTC.", when=when), ""]
    for number in sorted(rounds):
        if not rounds[number]:
            continue
        title = _("Round zero (the ambush)") if number == 0 else _("Round {round}", round=number)
        lines += [f"## {title}", "", *(f"- {entry.line}" for entry in rounds[number]), ""]
    if len(lines) <= 4:
        lines.append(_("Nothing has been recorded yet."))
    return "\n".join(lines).rstrip("\n") + "\n"


def log_parts(text: str, limit: int) -> list[bytes]:
    """Split the log into files of at most `limit` bytes each, at line ends (whole lines)."""
    parts: list[bytes] = []
    current = b""
    for line in text.splitlines(keepends=True):
        encoded = line.encode()
        while len(encoded) > limit:  # one line longer than a file: cut it (never happens)
            if current:
                parts.append(current)
                current = b""
            parts.append(encoded[:limit])
            encoded = encoded[limit:]
        if len(current) + len(encoded) > limit:
            parts.append(current)
            current = b""
        current += encoded
    if current or not parts:
        parts.append(current)
    return parts


def log_files(text: str, limit: int) -> list[discord.File]:
    """Return the log as Markdown files within Discord's size limit: one, or numbered parts.

    Named in the language spoken now, like the text (the table's).
    """
    parts = log_parts(text, limit)
    if len(parts) == 1:
        return [discord.File(io.BytesIO(parts[0]), filename=p_("file name", "fight-log.md"))]
    return [
        discord.File(
            io.BytesIO(part),
            filename=p_("file name", "fight-log-part-{n}-of-{total}.md", n=n, total=len(parts)),
        )
        for n, part in enumerate(parts, start=1)
    ]
