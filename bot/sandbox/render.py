"""Messages as plain text: content, embeds, and buttons numbered for `:click N`.

Shared by the terminal sandbox and by test failure messages, so what a test reports
is what a person at the terminal would have seen.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timedelta, tzinfo
from typing import Any

from bot.sandbox.records import (
    ACTION_ROW,
    BUTTON,
    CHANNEL_PINNED_MESSAGE,
    CONTAINER,
    SECTION,
    SELECT_TYPES,
    SEPARATOR,
    TEXT_DISPLAY,
    StoredMessage,
)

# names(kind, id) -> display name; kind is "user", "role" or "channel".
Names = Callable[[str, int], str | None]

BUTTON_STYLES = {1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link", 6: "premium"}
EMBED_BAR = "  | "


STRIKE = "\u0336"  # a combining long stroke: struck-through text in any terminal


def _struck(match: re.Match[str]) -> str:
    return "".join(ch + STRIKE if not ch.isspace() else ch for ch in match.group(1))


_MARKDOWN: list[tuple[re.Pattern[str], Any]] = [
    (re.compile(r"\*\*(.+?)\*\*", re.S), r"\1"),  # **bold**
    (re.compile(r"__(.+?)__", re.S), r"\1"),  # __underline__
    (re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])"), r"\1"),  # *italic*
    (re.compile(r"(?<!\w)_(?!\s)(.+?)(?<!\s)_(?!\w)"), r"\1"),  # _italic_
    (re.compile(r"~~(.+?)~~", re.S), _struck),  # ~~strike~~: d20's dropped dice
    (re.compile(r"\|\|(.+?)\|\|", re.S), r"[spoiler: \1]"),
    (re.compile(r"```(?:\w+\n)?(.*?)```", re.S), r"\1"),  # code blocks
    (re.compile(r"`([^`]+)`"), r"\1"),  # `code`
    (re.compile(r"</([\w -]+):\d+>"), r"/\1"),  # a command mention shows as its name
]
TIMESTAMP = re.compile(r"<t:(-?\d+)(?::([tTdDfFsSR]))?>")
_UNITS = (("year", 365 * 86400), ("month", 30 * 86400), ("day", 86400), ("hour", 3600))


def relative_time(seconds: float) -> str:
    """Say how far away a moment is, as Discord's `R` style does: `in 5 minutes`, `2 days ago`."""
    span = abs(seconds)
    for unit, length in (*_UNITS, ("minute", 60), ("second", 1)):
        if span >= length or unit == "second":
            count = int(span // length)
            amount = f"{count} {unit}{'' if count == 1 else 's'}"
            return f"in {amount}" if seconds > 0 else f"{amount} ago"
    raise AssertionError("unreachable")


def discord_time(stamp: int, style: str | None, now: datetime, tz: tzinfo | None = None) -> str:
    """Render `<t:stamp:style>` as Discord shows it (24-hour English, the viewer's time zone)."""
    when = datetime.fromtimestamp(stamp, tz=now.tzinfo if tz is None else tz)
    formats = {
        "t": "%H:%M",
        "T": "%H:%M:%S",
        "d": "%d/%m/%Y",
        "D": f"{when.day} %B %Y",
        "f": f"{when.day} %B %Y %H:%M",
        "F": f"%A, {when.day} %B %Y %H:%M",
        "s": "%d/%m/%Y %H:%M",
        "S": "%d/%m/%Y %H:%M:%S",
    }
    if style == "R":
        return relative_time((when - now) / timedelta(seconds=1))
    return when.strftime(formats[style or "f"])


def plain(text: str, now: datetime | None = None) -> str:
    """Drop Discord markdown a terminal cannot show; strike dropped dice; show timestamps."""
    for pattern, replacement in _MARKDOWN:
        text = pattern.sub(replacement, text)
    moment = now or datetime.now().astimezone()
    return TIMESTAMP.sub(lambda m: discord_time(int(m.group(1)), m.group(2), moment), text)


def resolve_mentions(text: str, names: Names | None) -> str:
    """Replace <@id>, <@&id> and <#id> with @name / #name when known, and drop markdown."""
    text = plain(text or "")
    if not names or not text:
        return text

    def sub(kind: str, prefix: str) -> Callable[[re.Match[str]], str]:
        def replace(m: re.Match[str]) -> str:
            name = names(kind, int(m.group(1)))
            return f"{prefix}{name}" if name else m.group(0)

        return replace

    text = re.sub(r"<@!?(\d+)>", sub("user", "@"), text)
    text = re.sub(r"<@&(\d+)>", sub("role", "@"), text)
    return re.sub(r"<#(\d+)>", sub("channel", "#"), text)


def _indent(text: str, prefix: str) -> list[str]:
    return [prefix + line for line in text.splitlines()] or [prefix.rstrip()]


def render_embed(
    embed: dict[str, Any], names: Names | None = None, prefix: str = EMBED_BAR
) -> list[str]:
    """Render one embed as lines behind a bar."""
    lines: list[str] = []
    author = (embed.get("author") or {}).get("name")
    if author:
        lines.append(prefix + resolve_mentions(author, names))
    if embed.get("title"):
        lines.append(prefix + f"** {resolve_mentions(embed['title'], names)} **")
    if embed.get("description"):
        lines += _indent(resolve_mentions(embed["description"], names), prefix)
    for f in embed.get("fields") or []:
        name = resolve_mentions(str(f.get("name", "")), names)
        value = resolve_mentions(str(f.get("value", "")), names)
        if "\n" in value:
            lines.append(prefix + f"{name}:")
            lines += _indent(value, prefix + "  ")
        else:
            lines.append(prefix + f"{name}: {value}")
    image = (embed.get("image") or {}).get("url")
    if image:
        lines.append(prefix + f"[image {image}]")
    footer = (embed.get("footer") or {}).get("text")
    if footer:
        lines.append(prefix + f"-- {resolve_mentions(footer, names)}")
    return lines or [prefix + "(empty embed)"]


class _Numbering:
    def __init__(self) -> None:
        self.n = 0

    def next(self) -> int:
        self.n += 1
        return self.n


def render_button(button: dict[str, Any], number: int | None) -> str:
    """Render a button as `[2 Next]` (`(off)` when disabled, the URL for link buttons)."""
    emoji = (button.get("emoji") or {}).get("name")
    label = " ".join(x for x in (emoji, button.get("label")) if x) or button.get("custom_id") or "?"
    parts = [str(number)] if number is not None else []
    parts.append(label)
    if button.get("style") == 5 and button.get("url"):
        parts.append(f"-> {button['url']}")
    if button.get("disabled"):
        parts.append("(off)")
    return "[" + " ".join(parts) + "]"


def render_select(select: dict[str, Any]) -> str:
    """Render a select menu with its options."""
    placeholder = select.get("placeholder") or select.get("custom_id") or "select"
    options = " | ".join(o.get("label", o.get("value", "?")) for o in select.get("options") or [])
    return f"[menu: {placeholder}]" + (f" options: {options}" if options else "")


def render_components(
    components: list[dict[str, Any]],
    names: Names | None = None,
    numbering: _Numbering | None = None,
    prefix: str = "  ",
) -> list[str]:
    """Render components; buttons are numbered in reading order across the message."""
    numbering = numbering or _Numbering()
    lines: list[str] = []
    for c in components or []:
        kind = c.get("type")
        if kind == ACTION_ROW:
            parts = []
            for child in c.get("components") or []:
                if child.get("type") == BUTTON:
                    parts.append(render_button(child, numbering.next()))
                elif child.get("type") in SELECT_TYPES:
                    parts.append(render_select(child))
            if parts:
                lines.append(prefix + " ".join(parts))
        elif kind == TEXT_DISPLAY:
            lines += _indent(resolve_mentions(c.get("content", ""), names), prefix)
        elif kind == SECTION:
            for child in c.get("components") or []:
                lines += _indent(resolve_mentions(child.get("content", ""), names), prefix)
            accessory = c.get("accessory") or {}
            if accessory.get("type") == BUTTON:
                lines.append(prefix + render_button(accessory, numbering.next()))
        elif kind == CONTAINER:
            lines += render_components(c.get("components") or [], names, numbering, prefix + "| ")
        elif kind == SEPARATOR:
            lines.append(prefix + "-" * 20)
        elif kind == BUTTON:
            lines.append(prefix + render_button(c, numbering.next()))
        elif kind in SELECT_TYPES:
            lines.append(prefix + render_select(c))
    return lines


def message_header(msg: StoredMessage, names: Names | None = None) -> str:
    """Return `Author` plus what a reader must know: only-you, edited, pinned."""
    author = msg.author.global_name or msg.author.username
    if msg.author.bot:
        author = msg.author.username
    tags = []
    if msg.interaction_user is not None and msg.interaction_name:
        who = names("user", msg.interaction_user.id) if names else None
        tags.append(f"to {who or msg.interaction_user.username}'s /{msg.interaction_name}")
    if msg.ephemeral:
        tags.append("only you can see this")
    if msg.pinned:
        tags.append("pinned")
    if msg.edited:
        tags.append("edited")
    if msg.deleted:
        tags.append("deleted")
    return author + (f" ({', '.join(tags)})" if tags else "")


def render_message(msg: StoredMessage, *, names: Names | None = None, header: bool = True) -> str:
    """Render a message as a person would read it; buttons are numbered from 1."""
    if msg.type == CHANNEL_PINNED_MESSAGE:
        return f"* {msg.author.username} pinned a message to this channel."
    lines = [message_header(msg, names)] if header else []
    if msg.loading:
        lines.append(f"  {msg.author.username} is thinking...")
    if msg.content:
        lines += _indent(resolve_mentions(msg.content, names), "  ")
    for embed in msg.embeds:
        lines += render_embed(embed, names)
    lines += render_components(msg.components, names)
    for attachment in msg.attachments:
        size = attachment.get("size", 0)
        lines.append(f"  [file {attachment.get('filename')}, {size} bytes: :file shows it]")
    if header and len(lines) == 1:
        lines.append("  (empty message)")
    return "\n".join(lines)
