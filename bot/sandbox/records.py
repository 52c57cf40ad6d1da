"""What the loopback Discord remembers: messages, interactions, REST calls.

Plain data, shared by the server (which fills it in), the test client and the
renderer (which read it). A `StoredMessage` is live: the server edits it in place,
so a test holding one always sees its latest state; `edits` keeps the earlier ones.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot.sandbox.snowflake import iso, snowflake_time
from bot.sandbox.world import Channel, Member, User

EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_NOTIFICATIONS = 1 << 12
COMPONENTS_V2 = 1 << 15

# Message types [Discord API: message types].
DEFAULT, CHANNEL_PINNED_MESSAGE, REPLY, CHAT_INPUT_COMMAND = 0, 6, 19, 20

# Interaction types and callback types [Discord API: interactions].
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
CALLBACK_NAMES = {
    1: "pong",
    4: "message",
    5: "deferred message",
    6: "deferred update",
    7: "update message",
    8: "autocomplete result",
    9: "modal",
}
# Component types.
ACTION_ROW, BUTTON, STRING_SELECT, TEXT_INPUT = 1, 2, 3, 4
SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER, LABEL = (
    9,
    10,
    11,
    12,
    13,
    14,
    17,
    18,
)
SELECT_TYPES = {3, 5, 6, 7, 8}


@dataclass
class Revision:
    """A message as it was before an edit."""

    at: datetime
    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    flags: int


@dataclass
class StoredMessage:
    """One message in a channel, as the server keeps it (ephemeral ones included)."""

    id: int
    channel_id: int
    guild_id: int | None  # None in a direct message
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    allowed_mentions: dict[str, Any] | None = None
    attachments: list[dict[str, Any]] = field(default_factory=list)
    message_reference: dict[str, Any] | None = None
    type: int = DEFAULT
    tts: bool = False
    nonce: str | int | None = None
    # Interaction responses and followups
    interaction_id: int | None = None
    interaction_user: User | None = None
    interaction_type: int | None = None
    interaction_name: str | None = None
    webhook_id: int | None = None
    visible_to: int | None = None  # ephemeral: the one user who sees it
    # Life cycle
    pinned: bool = False
    pinned_at: datetime | None = None
    deleted: bool = False
    deleted_by: int | None = None
    edited_at: datetime | None = None
    edits: list[Revision] = field(default_factory=list)
    reactions: dict[str, set[int]] = field(default_factory=dict)
    mentioned: list[User] = field(default_factory=list)  # the users the message pings
    mention_roles: list[int] = field(default_factory=list)
    mention_everyone: bool = False

    @property
    def created_at(self) -> datetime:
        return snowflake_time(self.id)

    @property
    def mentions(self) -> list[int]:
        """Return the ids of the users this message pings (after allowed_mentions)."""
        return [u.id for u in self.mentioned]

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """Whether this is a deferred response still showing "thinking"."""
        return bool(self.flags & LOADING)

    @property
    def system(self) -> bool:
        """Whether Discord itself made this message (e.g. "… pinned a message")."""
        return self.type not in (DEFAULT, REPLY, CHAT_INPUT_COMMAND)

    @property
    def edited(self) -> bool:
        return bool(self.edits)

    @property
    def buttons(self) -> list[dict[str, Any]]:
        """Return the message's buttons in reading order (the terminal numbers them from 1)."""
        return [c for c in walk_components(self.components) if c.get("type") == BUTTON]

    @property
    def selects(self) -> list[dict[str, Any]]:
        return [c for c in walk_components(self.components) if c.get("type") in SELECT_TYPES]

    @property
    def embed(self) -> dict[str, Any] | None:
        """Return the first embed, or None."""
        return self.embeds[0] if self.embeds else None

    @property
    def text(self) -> str:
        """Return the message rendered as plain text (content, embeds, numbered buttons)."""
        from bot.sandbox.render import render_message

        return render_message(self)

    def visible_to_user(self, user_id: int) -> bool:
        return not self.deleted and (self.visible_to is None or self.visible_to == user_id)

    def find_button(self, which: str | int) -> dict[str, Any]:
        """Return a button by 1-based number, label or custom_id (case-insensitive label)."""
        buttons = self.buttons
        if isinstance(which, int) or (isinstance(which, str) and which.isdigit()):
            n = int(which)
            if 1 <= n <= len(buttons):
                return buttons[n - 1]
        else:
            for b in buttons:
                if b.get("custom_id") == which:
                    return b
            wanted = which.strip().lower()
            for b in buttons:
                if (b.get("label") or "").strip().lower() == wanted:
                    return b
        labels = ", ".join(
            f"{i}:{b.get('label') or b.get('custom_id')}" for i, b in enumerate(buttons, 1)
        )
        raise LookupError(f"no button {which!r} on message {self.id}; buttons: {labels or 'none'}")

    def revise(self, at: datetime) -> None:
        """Remember the current version before an edit replaces it."""
        self.edits.append(
            Revision(
                at=self.edited_at or self.created_at,
                content=self.content,
                embeds=self.embeds,
                components=self.components,
                flags=self.flags,
            )
        )
        self.edited_at = at

    def payload(self) -> dict[str, Any]:
        """Return the message object Discord sends."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": iso(self.created_at),
            "edited_timestamp": iso(self.edited_at) if self.edited_at else None,
            "tts": self.tts,
            "mention_everyone": self.mention_everyone,
            "mentions": [u.payload() for u in self.mentioned],
            "mention_roles": [str(r) for r in self.mention_roles],
            "attachments": self.attachments,
            "embeds": self.embeds,
            "components": self.components,
            "reactions": [
                {"emoji": {"id": None, "name": e}, "count": len(us), "me": True}
                for e, us in self.reactions.items()
            ],
            "pinned": self.pinned,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.nonce is not None:
            data["nonce"] = self.nonce
        if self.message_reference:
            data["message_reference"] = self.message_reference
        if self.webhook_id:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.interaction_id and self.interaction_user:
            data["interaction_metadata"] = {
                "id": str(self.interaction_id),
                "type": self.interaction_type,
                "user": self.interaction_user.payload(),
                "authorizing_integration_owners": {"0": str(self.guild_id or 0)},
            }
            data["interaction"] = {
                "id": str(self.interaction_id),
                "type": self.interaction_type,
                "name": self.interaction_name or "",
                "user": self.interaction_user.payload(),
            }
        return data


def walk_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Flatten action rows, containers and sections into their leaf components, in order."""
    out: list[dict[str, Any]] = []
    for c in components or []:
        out.append(c)
        out.extend(walk_components(c.get("components") or []))
        accessory = c.get("accessory")
        if accessory:
            out.append(accessory)
        if c.get("component"):
            out.extend(walk_components([c["component"]]))
    return out


@dataclass
class Callback:
    """One interaction callback the bot sent (type and data as sent)."""

    type: int
    data: dict[str, Any]
    at: float  # loop time the callback was recorded
    # Loop time its request arrived, before the server read and checked it: the end of
    # "dispatch → first REST response" in the benchmarks, whatever the reply's size.
    received: float | None = None


@dataclass
class InteractionRecord:
    """One interaction the server dispatched and everything the bot answered to it."""

    id: int
    token: str
    type: int
    member: Member
    channel: Channel
    data: dict[str, Any]
    payload: dict[str, Any]
    label: str  # "/init start" or "button Next"
    created: float  # loop time when dispatched
    sent: float | None = None  # loop time its INTERACTION_CREATE frame went to the bot's socket
    source_message_id: int | None = None  # components: the message clicked
    callbacks: list[Callback] = field(default_factory=list)
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None  # autocomplete result
    modal: dict[str, Any] | None = None
    rest_mark: int = 0  # index into the server's call log when it was dispatched
    responded: asyncio.Future[Callback] | None = None

    @property
    def callback(self) -> Callback | None:
        return self.callbacks[0] if self.callbacks else None

    @property
    def response_type(self) -> int | None:
        return self.callbacks[0].type if self.callbacks else None


@dataclass
class RestCall:
    """One REST request the server answered."""

    method: str
    route: str  # the route template, e.g. "/channels/{channel_id}/messages"
    path: str
    status: int
    at: float
    body: Any = None
    params: dict[str, str] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return f"{self.method} {self.route}"

    def __str__(self) -> str:
        # Route templates keep interaction tokens (long, random) out of reports.
        return f"{self.method} {self.route if self.route != '?' else self.path} -> {self.status}"


@dataclass
class GatewayStats:
    """Counters a test can assert on."""

    connections: int = 0
    identifies: int = 0
    resumes: int = 0
    invalid_sessions: int = 0
    heartbeats: int = 0
    dispatches: int = 0
    replayed: int = 0
    drops: int = 0
    rate_limited: int = 0  # 429s served by the limiter
    faults: int = 0  # injected failures served
