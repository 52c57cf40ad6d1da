"""What the standards promise, as checks the reliability tests share.

Each check reads what really happened — the stored encounter, the messages the
loopback Discord kept, the log records — and fails with what broke the promise.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from typing import Any

from bot.rules.models import Encounter
from bot.sandbox.client import InteractionResult, SandboxTable
from bot.sandbox.records import RestCall, StoredMessage
from bot.store import Store
from bot.turns import render_tracker

# What a user must never see: Python's and discord.py's internals.
INTERNALS = re.compile(
    r"Traceback|File \"|line \d+, in|\b\w+(Error|Exception)\b:|CommandInvokeError|"
    r"TransformerError|pydantic|ValidationError|sqlite|aiosqlite|discord\.errors|"
    r"NoneType|object has no attribute|Ignoring exception",
)


async def stored(store: Store, channel_id: int) -> Encounter | None:
    """Return the channel's committed encounter (taken under its lock, so after any command)."""
    async with store.channel(channel_id) as state:
        encounter = state.encounter
        return None if encounter is None else encounter.model_copy(deep=True)


def tracker_shows(message: StoredMessage, encounter: Encounter) -> bool:
    """Return whether a tracker message shows exactly what the encounter renders to."""
    want = render_tracker(encounter).embed.to_dict()
    if not message.embeds:
        return False
    got = message.embeds[0]
    keys = ("title", "description", "fields", "footer")
    return all(got.get(k) == want.get(k) for k in keys)


def pinned_tracker(table: SandboxTable, channel: str) -> StoredMessage:
    """Return the channel's one pinned message (the tracker), or fail."""
    pinned = table.channel(channel).pinned_messages
    assert len(pinned) == 1, f"#{channel} has {len(pinned)} pinned messages, not one tracker"
    return pinned[0]


def assert_error_reply(reply: InteractionResult) -> None:
    """Fail unless a reply is one ephemeral line that shows no internals."""
    assert reply.ephemeral, f"{reply.record.label}: an error was answered in public: {reply.text}"
    assert reply.content and "\n" not in reply.content, (
        f"{reply.record.label}: not one line: {reply.content!r}"
    )
    assert not reply.embeds, f"{reply.record.label}: an error came with embeds"
    assert_no_internals(reply.text, reply.record.label)


def assert_no_internals(text: str, where: str) -> None:
    """Fail if text shows a traceback, an exception's name or a library's internals."""
    found = INTERNALS.search(text)
    assert found is None, f"{where}: internals reached a user ({found.group(0)!r}): {text[:300]}"


def message_text(message: StoredMessage) -> str:
    """Return everything a message shows: content, embeds, button labels."""
    parts = [message.content]
    for embed in message.embeds:
        parts += [embed.get("title") or "", embed.get("description") or ""]
        parts += [f"{f.get('name')}\n{f.get('value')}" for f in embed.get("fields") or []]
        parts.append((embed.get("footer") or {}).get("text") or "")
    parts += [str(b.get("label") or "") for b in message.buttons]
    return "\n".join(parts)


def mention_problems(
    messages: Iterable[StoredMessage], may_ping: set[int], bot_id: int
) -> list[str]:
    """Return every message the bot sent that allowed or made a ping it should not.

    A bot message must carry allowed mentions that never allow @everyone or roles,
    never parse users from its text, and name only users in `may_ping` (the players
    and GM a turn or a defense prompt is for); and nobody outside that set, no role
    and not @everyone may actually have been pinged.
    """
    problems = []
    for message in messages:
        if message.author.id != bot_id or message.system:
            continue
        where = f"message {message.id} {message.content[:60]!r}"
        allowed = message.allowed_mentions
        if allowed is None:
            problems.append(f"{where}: sent without allowed_mentions")
            continue
        parse = set(allowed.get("parse") or [])
        if parse:
            problems.append(f"{where}: allowed_mentions parses {sorted(parse)}")
        if allowed.get("roles"):
            problems.append(f"{where}: allows role pings {allowed['roles']}")
        users = {int(u) for u in allowed.get("users") or []}
        if not users <= may_ping:
            problems.append(f"{where}: allows pinging {sorted(users - may_ping)}")
        if message.mention_everyone:
            problems.append(f"{where}: pinged @everyone")
        if message.mention_roles:
            problems.append(f"{where}: pinged roles {message.mention_roles}")
        if not set(message.mentions) <= may_ping:
            problems.append(f"{where}: pinged {sorted(set(message.mentions) - may_ping)}")
    return problems


MESSAGE_ROUTES = (
    "/channels/{channel_id}/messages",
    "/channels/{channel_id}/messages/{message_id}",
    "/interactions/{interaction_id}/{interaction_token}/callback",
    "/webhooks/{webhook_id}/{webhook_token}",
    "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
)


def payload_problems(calls: Iterable[RestCall], may_ping: set[int]) -> list[str]:
    """Return every message payload the bot sent with text but without safe allowed mentions.

    This reads the requests themselves (sends, edits, interaction callbacks, followups),
    so an edit that changed what a message may ping is caught even if it was replaced later.
    """
    problems = []
    for call in calls:
        if call.method not in ("POST", "PATCH") or call.route not in MESSAGE_ROUTES:
            continue
        body = call.body if isinstance(call.body, dict) else {}
        if call.route.startswith("/interactions/"):
            body = body.get("data") or {} if body.get("type") in (4, 7) else {}
        if not body.get("content"):
            continue  # nothing that could ping
        allowed = body.get("allowed_mentions")
        where = f"{call.method} {call.path} {body['content'][:60]!r}"
        if allowed is None:
            problems.append(f"{where}: text sent without allowed_mentions")
            continue
        if allowed.get("parse") or allowed.get("roles"):
            problems.append(f"{where}: allowed_mentions {allowed}")
        users = {int(u) for u in allowed.get("users") or []}
        if not users <= may_ping:
            problems.append(f"{where}: allows pinging {sorted(users - may_ping)}")
    return problems


def refused_calls(calls: Iterable[RestCall]) -> list[str]:
    """Return every request Discord refused as malformed (400): too long, too many, empty."""
    return [
        f"{call.method} {call.path}: {str(call.body)[:200]}" for call in calls if call.status == 400
    ]


def unhandled(records: Iterable[logging.LogRecord]) -> list[str]:
    """Return log records that mean something went unhandled: errors, lost tasks, dispatch bugs."""
    found = []
    for record in records:
        text = record.getMessage()
        if (
            record.levelno >= logging.ERROR
            or "Task exception was never retrieved" in text
            or "Ignoring exception" in text
            or "was never awaited" in text
        ):
            found.append(f"{record.name} {record.levelname}: {text}")
    return found


def _texts(content: str, embeds: list[dict[str, Any]]) -> list[str]:
    """Return every piece of text a message version shows: content and embed parts."""
    texts = [content]
    for embed in embeds:
        texts += [embed.get("title") or "", embed.get("description") or ""]
        texts += [(embed.get("footer") or {}).get("text") or ""]
        for item in embed.get("fields") or []:
            texts += [item.get("name") or "", item.get("value") or ""]
    return [t for t in texts if t]


def _versions(message: StoredMessage) -> list[list[str]]:
    """Return the texts of every version a message had: its edits, then what it shows now."""
    old = [_texts(e.content, e.embeds) for e in message.edits]
    return [*old, _texts(message.content, message.embeds)]


def _exact_grit(name: str) -> re.Pattern[str]:
    """Match a line that gives this combatant's Grit as numbers, not as level and die."""
    named = re.escape(name) + r"(?![\w])"
    return re.compile(
        named + r"[^\n,]*?(?:\(Grit \d+ → \d+|Grit \d+/\d+|\(\d+/\d+\))", re.IGNORECASE
    )


def secret_problems(
    messages: Iterable[StoredMessage],
    *,
    hidden: Iterable[str],
    npcs: Iterable[str],
    gm_ids: set[int],
) -> list[str]:
    """Return what players could read that they must not: a hidden NPC's name, an NPC's Grit.

    Every version of every message counts (edits included): public ones, and ephemeral
    ones shown to anyone but the GM.
    """
    hidden_names = [re.compile(re.escape(n) + r"(?![\w])", re.IGNORECASE) for n in hidden]
    exact = [_exact_grit(n) for n in npcs]
    problems = []
    for message in messages:
        if message.visible_to is not None and message.visible_to in gm_ids:
            continue
        for version in _versions(message):
            for text in version:
                for pattern in hidden_names:
                    if pattern.search(text):
                        problems.append(f"hidden {pattern.pattern!r} in {text[:120]!r}")
                for pattern in exact:
                    found = pattern.search(text)
                    if found:
                        problems.append(f"an NPC's exact Grit in {found.group(0)[:120]!r}")
    return problems
