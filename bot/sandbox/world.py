"""The sandbox's guild: roles, members, channels and threads, and their Discord payloads.

Ids come from a fixed clock (`world_ids`), so the same world has the same ids in every
run: a sandbox database written yesterday still names the same channels and users.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import discord

from bot.sandbox.snowflake import SnowflakeGenerator, iso, snowflake_time, world_ids

TEXT, DM, CATEGORY, PUBLIC_THREAD = 0, 1, 4, 11

ALL_PERMISSIONS = discord.Permissions.all().value
# What @everyone may do on a fresh Discord server.
EVERYONE_PERMISSIONS = discord.Permissions(
    create_instant_invite=True,
    add_reactions=True,
    view_channel=True,
    send_messages=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    use_external_emojis=True,
    connect=True,
    speak=True,
    change_nickname=True,
    use_application_commands=True,
    create_public_threads=True,
    send_messages_in_threads=True,
).value
MODERATOR_PERMISSIONS = discord.Permissions(manage_guild=True, manage_channels=True).value
# The bot's integration role: enough to post, edit, pin and read its tracker.
BOT_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    manage_messages=True,
    pin_messages=True,
    add_reactions=True,
    use_external_emojis=True,
    use_application_commands=True,
).value


@dataclass
class User:
    """A Discord account: a person at the table or the bot."""

    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    locale: str = "en-US"  # the language of this user's Discord client (interaction.locale)

    def payload(self) -> dict[str, Any]:
        """Return the user object Discord sends."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "username": self.username,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": None,
            "public_flags": 0,
            "flags": 0,
            "bot": self.bot,
        }
        return data


@dataclass
class Role:
    """A guild role with its permission bits."""

    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False
    color: int = 0

    def payload(self) -> dict[str, Any]:
        """Return the role object Discord sends."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "name": self.name,
            "color": self.color,
            "colors": {
                "primary_color": self.color,
                "secondary_color": None,
                "tertiary_color": None,
            },
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }
        return data


@dataclass
class Member:
    """A user's membership in the guild: roles and join date."""

    user: User
    roles: list[int] = field(default_factory=list)
    joined_at: datetime | None = None
    nick: str | None = None

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.username

    def payload(self, *, with_user: bool = True) -> dict[str, Any]:
        """Return the guild member object Discord sends."""
        data: dict[str, Any] = {
            "roles": [str(r) for r in self.roles],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": iso(self.joined_at or snowflake_time(self.user.id)),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        return data


@dataclass
class Channel:
    """A text channel, a category or a thread; threads work as channels for every route."""

    id: int
    name: str
    type: int = TEXT
    position: int = 0
    parent_id: int | None = None
    owner_id: int | None = None  # threads: who started it
    topic: str | None = None
    overwrites: list[dict[str, Any]] = field(default_factory=list)
    last_pin_at: datetime | None = None
    recipient: User | None = None  # a direct message channel: the person the bot talks with

    @property
    def is_thread(self) -> bool:
        return self.type in (10, 11, 12)

    @property
    def is_dm(self) -> bool:
        return self.type == DM

    def payload(self, guild_id: int) -> dict[str, Any]:
        """Return the channel object Discord sends in GUILD_CREATE and GET /channels/{id}."""
        if self.is_dm:
            recipients = [self.recipient.payload()] if self.recipient else []
            return {"id": str(self.id), "type": DM, "last_message_id": None, "flags": 0} | {
                "recipients": recipients
            }
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(guild_id),
            "name": self.name,
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "flags": 0,
            "rate_limit_per_user": 0,
            "last_pin_timestamp": iso(self.last_pin_at) if self.last_pin_at else None,
        }
        if self.is_thread:
            data |= {
                "owner_id": str(self.owner_id),
                "message_count": 0,
                "member_count": 1,
                "total_message_sent": 0,
                "thread_metadata": {
                    "archived": False,
                    "auto_archive_duration": 10080,
                    "archive_timestamp": iso(snowflake_time(self.id)),
                    "locked": False,
                    "create_timestamp": iso(snowflake_time(self.id)),
                },
            }
        else:
            data |= {
                "position": self.position,
                "permission_overwrites": self.overwrites,
                "nsfw": False,
                "topic": self.topic,
                "last_message_id": None,
            }
        return data


class Guild:
    """One guild with its roles, members and channels; answers permission questions."""

    def __init__(
        self,
        *,
        name: str = "Tablehand Sandbox",
        tables: int = 3,
        players: tuple[str, ...] = ("alice", "bob"),
        ids: SnowflakeGenerator | None = None,
        id: int | None = None,
        shared: Guild | None = None,
    ) -> None:
        self._ids = ids or world_ids()
        self.id = id or self._ids.next()
        self.name = name
        self.preferred_locale = "en-US"  # the server's language (Server Settings → Overview)
        self.roles: dict[int, Role] = {}
        self.members: dict[int, Member] = {}
        self.channels: dict[int, Channel] = {}
        # Another guild of the same world: the same people and the same bot are members here.
        self._users = {} if shared is None else {m.name: m.user for m in shared.members.values()}

        self.everyone = self._add_role(Role(self.id, "@everyone", EVERYONE_PERMISSIONS, position=0))
        self.gm_role = self.add_role("GM", 0)
        self.moderator_role = self.add_role("Moderator", MODERATOR_PERMISSIONS)

        self.owner = self.add_member("owner", global_name="Server Owner")
        self.bot_user = self._users.get("Tablehand") or User(
            self._ids.next(), "Tablehand", global_name=None, bot=True
        )
        self.bot_role = self.add_role("Tablehand", BOT_PERMISSIONS, managed=True)
        self.members[self.bot_user.id] = Member(self.bot_user, roles=[self.bot_role.id])
        # gm has no special rights: whoever runs /init start becomes the GM in the bot.
        self.add_member("gm", global_name="Game Master")
        for player in players:
            self.add_member(player, global_name=player.capitalize())
        self.add_member("admin", global_name="Admin", roles=[self.moderator_role.id])

        self.category = self.add_channel("Tables", type=CATEGORY)
        for _ in range(tables):
            self.add_table()
        first = self.text_channels()[0]
        self.add_thread(f"{first.name}-side", parent=first)

    # building

    def _add_role(self, role: Role) -> Role:
        self.roles[role.id] = role
        return role

    def add_role(self, name: str, permissions: int, *, managed: bool = False) -> Role:
        """Create a role below the existing ones."""
        return self._add_role(
            Role(self._ids.next(), name, permissions, position=len(self.roles), managed=managed)
        )

    def add_member(
        self, username: str, *, global_name: str | None = None, roles: list[int] | None = None
    ) -> Member:
        """Create a user and make them a member."""
        if self.member_named(username) is not None:
            raise ValueError(f"a member named {username!r} already exists")
        user = self._users.get(username) or User(
            self._ids.next(), username, global_name=global_name
        )
        member = Member(user, roles=list(roles or []))
        self.members[user.id] = member
        return member

    def add_channel(
        self,
        name: str,
        *,
        type: int = TEXT,
        parent: Channel | None = None,
        topic: str | None = None,
    ) -> Channel:
        """Create a text channel (or category) at the end of the list."""
        if self.channel_named(name) is not None:
            raise ValueError(f"a channel named {name!r} already exists")
        channel = Channel(
            self._ids.next(),
            name,
            type=type,
            position=len(self.channels),
            parent_id=parent.id if parent else None,
            topic=topic,
        )
        self.channels[channel.id] = channel
        return channel

    def add_table(self) -> Channel:
        """Create the next `table-N` text channel."""
        n = 1 + sum(
            1 for c in self.channels.values() if c.name.startswith("table-") and not c.is_thread
        )
        return self.add_channel(f"table-{n}", parent=self.category, topic=f"Play table {n}")

    def add_thread(
        self, name: str, *, parent: Channel, owner_id: int | None = None, id: int | None = None
    ) -> Channel:
        """Create a public thread under a text channel."""
        thread = Channel(
            id or self._ids.next(),
            name,
            type=PUBLIC_THREAD,
            parent_id=parent.id,
            owner_id=owner_id or self.owner.id,
        )
        self.channels[thread.id] = thread
        return thread

    # lookups

    def text_channels(self) -> list[Channel]:
        return [c for c in self.channels.values() if c.type == TEXT]

    def threads(self) -> list[Channel]:
        return [c for c in self.channels.values() if c.is_thread]

    def channel_named(self, name: str) -> Channel | None:
        name = name.lstrip("#").lower()
        return next((c for c in self.channels.values() if c.name.lower() == name), None)

    def member_named(self, name: str) -> Member | None:
        name = name.lstrip("@").lower()
        return next((m for m in self.members.values() if m.name.lower() == name), None)

    def role_named(self, name: str) -> Role | None:
        name = name.lstrip("@").lower()
        return next((r for r in self.roles.values() if r.name.lower() == name), None)

    def people(self) -> list[Member]:
        """Return the members a person can act as (everyone but the bot and the owner)."""
        return [m for m in self.members.values() if not m.user.bot and m is not self.owner]

    # permissions

    def base_permissions(self, member: Member) -> int:
        """Return the member's guild-wide permissions, as Discord computes them."""
        if member.id == self.owner.id:
            return ALL_PERMISSIONS
        perms = self.everyone.permissions
        for role_id in member.roles:
            role = self.roles.get(role_id)
            if role is not None:
                perms |= role.permissions
        if perms & discord.Permissions(administrator=True).value:
            return ALL_PERMISSIONS
        return perms

    def channel_permissions(self, member: Member, channel: Channel) -> int:
        """Return the member's permissions in a channel, applying overwrites (threads use their parent's)."""
        perms = self.base_permissions(member)
        if perms == ALL_PERMISSIONS:
            return perms
        if channel.is_thread and channel.parent_id in self.channels:
            channel = self.channels[channel.parent_id]
        overwrites = {int(o["id"]): o for o in channel.overwrites}
        everyone = overwrites.get(self.id)
        if everyone:
            perms = (perms & ~int(everyone["deny"])) | int(everyone["allow"])
        allow = deny = 0
        for role_id in member.roles:
            o = overwrites.get(role_id)
            if o and o["type"] == 0:
                allow |= int(o["allow"])
                deny |= int(o["deny"])
        perms = (perms & ~deny) | allow
        own = overwrites.get(member.id)
        if own and own["type"] == 1:
            perms = (perms & ~int(own["deny"])) | int(own["allow"])
        return perms

    # payloads

    def payload(self) -> dict[str, Any]:
        """Return the full GUILD_CREATE payload."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner.id),
            "region": None,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": self.preferred_locale,
            "system_channel_id": str(self.text_channels()[0].id),
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "features": [],
            "emojis": [],
            "stickers": [],
            "roles": [r.payload() for r in self.roles.values()],
            "joined_at": iso(snowflake_time(self.bot_user.id)),
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "voice_states": [],
            "members": [m.payload() for m in self.members.values()],
            "channels": [c.payload(self.id) for c in self.channels.values() if not c.is_thread],
            "threads": [c.payload(self.id) for c in self.threads()],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "application_id": None,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "lazy": True,
        }

    def channel_payload_for(self, member: Member, channel: Channel) -> dict[str, Any]:
        """Return the channel as an interaction carries it: with the member's permissions."""
        data = channel.payload(self.id)
        data["permissions"] = str(self.channel_permissions(member, channel))
        return data
