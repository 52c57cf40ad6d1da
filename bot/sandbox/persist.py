"""The sandbox's Discord side kept beside its database: channels, messages, pins.

The bot keeps its game in SQLite; the loopback Discord lives in memory. So that the
channel's messages and their buttons (the pinned tracker above all) are still there after
the sandbox restarts, the terminal saves them to a JSON file next to the database and
reads it back before the bot connects. Ephemeral and deleted messages are not kept, as
Discord's own client forgets them. The end-to-end tests never use this: they stay in memory.
"""

from __future__ import annotations

import json
import logging
import os
from datetime import datetime
from pathlib import Path
from typing import Any

from bot.sandbox.records import StoredMessage
from bot.sandbox.server import LoopbackDiscord
from bot.sandbox.snowflake import iso
from bot.sandbox.world import Channel, User

log = logging.getLogger("bot.sandbox.persist")

FORMAT = 1
MESSAGE_FIELDS = (
    "id",
    "channel_id",
    "guild_id",
    "content",
    "embeds",
    "components",
    "flags",
    "attachments",
    "message_reference",
    "type",
    "interaction_id",
    "interaction_type",
    "interaction_name",
    "webhook_id",
    "pinned",
    "mention_roles",
    "mention_everyone",
)
CHANNEL_FIELDS = ("id", "name", "type", "position", "parent_id", "owner_id", "topic")


def world_file(db_path: Path) -> Path:
    """Return where the sandbox keeps its Discord side for this database."""
    return db_path.with_name(db_path.stem + ".discord.json")


def _time(value: datetime | None) -> str | None:
    return iso(value) if value else None


def _message(msg: StoredMessage) -> dict[str, Any]:
    data = {key: getattr(msg, key) for key in MESSAGE_FIELDS}
    return data | {
        "author": msg.author.id,
        "interaction_user": msg.interaction_user.id if msg.interaction_user else None,
        "pinned_at": _time(msg.pinned_at),
        "edited_at": _time(msg.edited_at),
        "mentioned": [user.id for user in msg.mentioned],
        "reactions": {emoji: sorted(users) for emoji, users in msg.reactions.items()},
    }


def _channel(channel: Channel) -> dict[str, Any]:
    data = {key: getattr(channel, key) for key in CHANNEL_FIELDS}
    return data | {
        "last_pin_at": _time(channel.last_pin_at),
        "recipient": channel.recipient.id if channel.recipient else None,
    }


def save_world(server: LoopbackDiscord, path: Path) -> None:
    """Write the channels, kept messages and pins to `path` (whole, or not at all)."""
    kept = [m for m in server.messages.values() if not (m.deleted or m.ephemeral)]
    data = {
        "format": FORMAT,
        "guild": server.guild.id,
        "channels": [
            _channel(c) for c in [*server.guild.channels.values(), *server.dm_channels.values()]
        ],
        "messages": [_message(m) for m in sorted(kept, key=lambda m: m.id)],
        "pins": {str(c): ids for c, ids in server.pins.items() if ids},
    }
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    os.replace(partial, path)


def _user(server: LoopbackDiscord, user_id: int | None) -> User | None:
    member = server.guild.members.get(user_id or 0)
    return member.user if member else None


def _restore_channel(server: LoopbackDiscord, data: dict[str, Any]) -> None:
    known = server.guild.channels.get(data["id"]) or server.dm_channels.get(data["id"])
    if known is None:
        fields = {key: data[key] for key in CHANNEL_FIELDS}
        known = Channel(**fields, recipient=_user(server, data["recipient"]))
        if known.is_dm:
            server.dm_channels[known.id] = known
            server.ids.skip_past(known.id)
        else:
            server.guild.channels[known.id] = known
    if data["last_pin_at"]:
        known.last_pin_at = datetime.fromisoformat(data["last_pin_at"])


def _restore_message(server: LoopbackDiscord, data: dict[str, Any]) -> StoredMessage | None:
    author = _user(server, data["author"])
    if author is None:
        return None
    msg = StoredMessage(**{key: data[key] for key in MESSAGE_FIELDS}, author=author)
    msg.interaction_user = _user(server, data["interaction_user"])
    msg.pinned_at = datetime.fromisoformat(data["pinned_at"]) if data["pinned_at"] else None
    msg.edited_at = datetime.fromisoformat(data["edited_at"]) if data["edited_at"] else None
    msg.mentioned = [u for u in (_user(server, i) for i in data["mentioned"]) if u]
    msg.reactions = {emoji: set(users) for emoji, users in data["reactions"].items()}
    return msg


def load_world(server: LoopbackDiscord, path: Path) -> int:
    """Restore what `save_world` wrote into a server no bot has joined yet; return the messages."""
    if not path.exists():
        return 0
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        log.warning("cannot read %s (%s); the sandbox starts with empty channels", path, error)
        return 0
    if data.get("format") != FORMAT or data.get("guild") != server.guild.id:
        log.warning("%s is from another sandbox world; the channels start empty", path)
        return 0
    for channel in data["channels"]:
        _restore_channel(server, channel)
    restored = 0
    for item in data["messages"]:
        msg = _restore_message(server, item)
        if msg is None or not (
            msg.channel_id in server.guild.channels or msg.channel_id in server.dm_channels
        ):
            continue
        server.messages[msg.id] = msg
        server.channel_messages.setdefault(msg.channel_id, []).append(msg.id)
        server.ids.skip_past(msg.id)
        restored += 1
    for channel_id, ids in data["pins"].items():
        server.pins[int(channel_id)] = [i for i in ids if i in server.messages]
    return restored
