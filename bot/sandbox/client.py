"""Act at the table: be a user in a channel, run slash commands, click buttons, read the channel.

    table = SandboxTable(server)
    alice = table.user("alice")
    reply = await alice.run("/init start", channel="table-1", mode="fortune")
    assert not reply.ephemeral
    turn = await reply.click("Next")                  # acting as alice
    pinned = await table.channel("table-1").wait_for(lambda ch: ch.pinned_messages)

Every wait is on a future the server resolves when something changes; a timeout
raises `SandboxTimeout` showing what did arrive (rendered as the terminal shows it).
"""

# Waits take a `timeout=`: it is the API tests read (`await ch.wait_for(pred, timeout=2)`).
# ruff: noqa: ASYNC109

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from bot.sandbox.commandline import (
    ATTACHMENT,
    CommandSpec,
    UsageError,
    build_command_data,
    command_specs,
    find_command,
    parse_line,
)
from bot.sandbox.records import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    BUTTON,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    SELECT_TYPES,
    InteractionRecord,
    StoredMessage,
    walk_components,
)
from bot.sandbox.render import Names, render_message
from bot.sandbox.server import LoopbackDiscord, SandboxError, SandboxTimeout
from bot.sandbox.world import Channel, Member

T = TypeVar("T")

__all__ = [
    "ChannelView",
    "InteractionResult",
    "SandboxTable",
    "SandboxTimeout",
    "SandboxUser",
    "UsageError",
]


class SandboxTable:
    """The test client over a running `LoopbackDiscord`: users, channels, commands."""

    def __init__(
        self, server: LoopbackDiscord, *, channel: str = "table-1", timeout: float = 5.0
    ) -> None:
        self.server = server
        self.default_channel = channel
        self.timeout = timeout

    # people and places

    def user(self, name: str, *, locale: str | None = None) -> SandboxUser:
        """Return an actor for a member (`gm`, `alice`, `bob`, `admin`, or any added one).

        `locale` sets the language of their Discord client from now on (`de`, `en-US`):
        their interactions carry it, and they type the command names of that language.
        """
        member = self.server.member(name)
        if locale is not None:
            member.user.locale = locale
        return SandboxUser(self, member)

    def channel(self, name: str | int | Channel | None = None) -> ChannelView:
        """Return a live view of a channel or thread (`table-1`, `#table-2`, an id)."""
        return ChannelView(self, self.server.channel(name or self.default_channel))

    def dm(self, user: str | SandboxUser) -> ChannelView:
        """Return a live view of a person's direct messages with the bot."""
        member = user.member if isinstance(user, SandboxUser) else self.server.member(user)
        return ChannelView(self, self.server.dm_channel(member))

    def names(self) -> Names:
        """Return the mention resolver for rendering (`<@id>` → `@alice`)."""
        guild = self.server.guild

        def name(kind: str, id: int) -> str | None:
            if kind == "user":
                member = guild.members.get(id)
                return member.name if member else None
            if kind == "role":
                role = guild.roles.get(id)
                return role.name if role else None
            channel = guild.channels.get(id)
            return channel.name if channel else None

        return name

    def render(self, message: StoredMessage) -> str:
        """Render a message as the terminal shows it, with names for mentions."""
        return render_message(message, names=self.names())

    # commands

    @property
    def commands(self) -> list[CommandSpec]:
        """Return every invocable slash command the bot synced for the guild (leaves: `init start`)."""
        return command_specs(self.server.synced_commands())

    def commands_in(self, channel: Channel, member: Member | None = None) -> list[CommandSpec]:
        """Return the commands Discord's client offers here (to this member, if given)."""
        roots = self.server.commands_in(channel)
        if member is not None:
            roots = [r for r in roots if self.server.command_refusal(r, member, channel) is None]
        return command_specs(roots)

    def command(self, name: str, channel: Channel | None = None) -> CommandSpec:
        """Return a synced command by its full name (`init start`, `/roll`)."""
        words = name.strip().lstrip("/").split()
        commands = self.commands if channel is None else self.commands_in(channel)
        spec, rest = find_command(commands, words)
        if rest:
            raise UsageError(f"no command /{' '.join(words)}")
        return spec

    async def wait_idle(self, quiet: float = 0.15, timeout: float | None = None) -> None:
        """Wait until the bot has made no REST call for `quiet` seconds."""
        await self.server.wait_idle(quiet=quiet, timeout=timeout or self.timeout)

    def describe_recent(self, channel: Channel | None = None, limit: int = 6) -> str:
        """Render the last messages of a channel (for timeout reports)."""
        channel = channel or self.server.channel(self.default_channel)
        msgs = self.server.channel_log(channel)[-limit:]
        if not msgs:
            return f"#{channel.name} has no messages"
        body = "\n".join(self.render(m) for m in msgs)
        return f"last messages in #{channel.name}:\n{body}"


class SandboxUser:
    """A member acting at the table: runs commands, clicks, types messages."""

    def __init__(self, table: SandboxTable, member: Member) -> None:
        self.table = table
        self.member = member

    @property
    def name(self) -> str:
        return self.member.name

    @property
    def id(self) -> int:
        return self.member.id

    @property
    def mention(self) -> str:
        return f"<@{self.member.id}>"

    def __repr__(self) -> str:
        return f"<SandboxUser {self.name}>"

    def _channel(self, channel: str | int | Channel | ChannelView | None) -> Channel:
        if isinstance(channel, ChannelView):
            return channel.channel
        return self.table.server.channel(channel or self.table.default_channel)

    async def run(
        self,
        line: str,
        *,
        channel: str | int | Channel | ChannelView | None = None,
        timeout: float | None = None,
        **options: Any,
    ) -> InteractionResult:
        """Invoke a slash command typed as text (`/init add name:"Cave Troll" count:3`) plus keyword options.

        Option names that are Python keywords take a trailing underscore (`for_="attack"`).
        """
        parsed = parse_line(line)
        spec, positional = self._find(parsed.words, channel)
        values: dict[str, Any] = dict(parsed.options)
        values.update(options)
        return await self._invoke(spec, values, positional, channel, timeout)

    def _find(
        self, words: list[str], channel: str | int | Channel | ChannelView | None
    ) -> tuple[CommandSpec, list[str]]:
        """Pick the typed command among those registered where the channel is; is it offered?"""
        ch = self._channel(channel)
        spec, rest = find_command(self.table.commands_in(ch), words, self.member.user.locale)
        self._offered(spec, ch)
        return spec, rest

    def _offered(self, spec: CommandSpec, channel: Channel) -> None:
        """Refuse as Discord's client does: a command not offered to this member here."""
        refusal = self.table.server.command_refusal(spec.root, self.member, channel)
        if refusal:
            raise UsageError(refusal)

    async def command(
        self,
        name: str,
        *,
        channel: str | int | Channel | ChannelView | None = None,
        options: dict[str, Any] | None = None,
        timeout: float | None = None,
    ) -> InteractionResult:
        """Invoke a slash command by name (`"init start"`) with an options dict."""
        spec, rest = self._find(name.strip().lstrip("/").split(), channel)
        if rest:
            raise UsageError(f"no command /{name.strip().lstrip('/')}")
        return await self._invoke(spec, dict(options or {}), [], channel, timeout)

    def send_command(
        self,
        line: str,
        *,
        channel: str | int | Channel | ChannelView | None = None,
        session_id: str | None = None,
        **options: Any,
    ) -> InteractionResult:
        """Dispatch a slash command without waiting for the answer (for concurrency tests).

        `session_id`: deliver it to that gateway session rather than its shard's newest.
        """
        parsed = parse_line(line)
        spec, positional = self._find(parsed.words, channel)
        values: dict[str, Any] = dict(parsed.options) | options
        ch = self._channel(channel)
        data = build_command_data(
            spec,
            self._uploads(spec, values),
            guild=self.table.server.guild_of(ch),
            invoker=self.member,
            positional=positional,
        )
        record = self.table.server.dispatch_interaction(
            member=self.member,
            channel=ch,
            type=APPLICATION_COMMAND,
            data=data,
            label=f"/{spec.name}",
            session_id=session_id,
        )
        return InteractionResult(self.table, self, record)

    async def _invoke(
        self,
        spec: CommandSpec,
        values: dict[str, Any],
        positional: list[str],
        channel: str | int | Channel | ChannelView | None,
        timeout: float | None,
    ) -> InteractionResult:
        ch = self._channel(channel)
        data = build_command_data(
            spec,
            self._uploads(spec, values),
            guild=self.table.server.guild_of(ch),
            invoker=self.member,
            positional=positional,
        )
        record = self.table.server.dispatch_interaction(
            member=self.member,
            channel=ch,
            type=APPLICATION_COMMAND,
            data=data,
            label=f"/{spec.name}",
        )
        result = InteractionResult(self.table, self, record)
        await result.responded(timeout)
        return result

    def _uploads(self, spec: CommandSpec, values: dict[str, Any]) -> dict[str, Any]:
        """Upload the files a file option names by path (`file:brom.json`), as a user attaches one."""
        uploaded = dict(values)
        for option in spec.options:
            path = uploaded.get(option["name"])
            if option["type"] != ATTACHMENT or not isinstance(path, str | Path):
                continue
            try:
                content = Path(path).expanduser().read_bytes()
            except OSError as error:
                raise UsageError(
                    f"{option['name']}: cannot read {path}: {error.strerror}"
                ) from None
            uploaded[option["name"]] = self.table.server.host_file(Path(path).name, content)
        return uploaded

    async def autocomplete(
        self,
        command: str,
        option: str,
        typed: str,
        *,
        channel: str | int | Channel | ChannelView | None = None,
        options: dict[str, Any] | None = None,
        timeout: float | None = None,
    ) -> list[dict[str, Any]]:
        """Type into an autocomplete option; return the choices the bot offers (name/value dicts)."""
        spec, rest = self._find(command.strip().lstrip("/").split(), channel)
        if rest:
            raise UsageError(f"no command /{command.strip().lstrip('/')}")
        values = dict(options or {}) | {option: typed}
        ch = self._channel(channel)
        data = build_command_data(
            spec,
            values,
            guild=self.table.server.guild_of(ch),
            invoker=self.member,
            focused=option.lower(),
        )
        record = self.table.server.dispatch_interaction(
            member=self.member,
            channel=ch,
            type=AUTOCOMPLETE,
            data=data,
            label=f"/{spec.name} {option}:{typed}…",
        )
        result = InteractionResult(self.table, self, record)
        await result.responded(timeout)
        return record.choices or []

    async def click(
        self,
        message: StoredMessage | InteractionResult,
        button: str | int,
        *,
        timeout: float | None = None,
    ) -> InteractionResult:
        """Click a button (by number from 1, label or custom_id) on a message."""
        if isinstance(message, InteractionResult):
            return await message.click(button, as_user=self, timeout=timeout)
        if not message.visible_to_user(self.id):
            raise SandboxError(f"{self.name} cannot see message {message.id}")
        found = message.find_button(button)
        if found.get("disabled"):
            raise SandboxError(
                f"button {found.get('label') or found.get('custom_id')!r} is disabled"
            )
        if found.get("style") == 5:
            raise SandboxError("that is a link button; it opens a URL and sends nothing to the bot")
        data = {"custom_id": found["custom_id"], "component_type": BUTTON}
        return await self._component(
            message, data, f"button {found.get('label') or found['custom_id']}", timeout
        )

    async def select(
        self,
        message: StoredMessage,
        values: list[str],
        *,
        menu: str | int = 1,
        timeout: float | None = None,
    ) -> InteractionResult:
        """Choose values in a select menu (by number from 1, custom_id or placeholder)."""
        selects = [c for c in walk_components(message.components) if c.get("type") in SELECT_TYPES]
        chosen = None
        if isinstance(menu, int) and 1 <= menu <= len(selects):
            chosen = selects[menu - 1]
        else:
            chosen = next(
                (s for s in selects if menu in (s.get("custom_id"), s.get("placeholder"))), None
            )
        if chosen is None:
            raise SandboxError(f"no select menu {menu!r} on message {message.id}")
        data: dict[str, Any] = {
            "custom_id": chosen["custom_id"],
            "component_type": chosen["type"],
            "values": list(values),
        }
        return await self._component(message, data, f"menu {chosen['custom_id']}={values}", timeout)

    async def submit_modal(
        self,
        result: InteractionResult,
        values: dict[str, str],
        *,
        timeout: float | None = None,
    ) -> InteractionResult:
        """Fill in and submit the modal a result opened (text inputs by custom_id).

        A field not given keeps what the bot filled in (its `value`), as Discord's form does.
        """
        modal = result.record.modal
        if modal is None:
            raise SandboxError(f"{result.record.label} opened no modal")
        rows = []
        for c in walk_components(modal.get("components") or []):
            if c.get("type") == 4:
                rows.append(
                    {
                        "type": 1,
                        "components": [
                            {
                                "type": 4,
                                "custom_id": c["custom_id"],
                                "value": values.get(c["custom_id"], c.get("value") or ""),
                            }
                        ],
                    }
                )
        data = {"custom_id": modal["custom_id"], "components": rows}
        source = self.table.server.messages.get(result.record.source_message_id or 0)
        record = self.table.server.dispatch_interaction(
            member=self.member,
            channel=result.record.channel,
            type=MODAL_SUBMIT,
            data=data,
            label=f"modal {modal['custom_id']}",
            message=source,
        )
        if source is not None:
            record.source_message_id = source.id
        out = InteractionResult(self.table, self, record)
        await out.responded(timeout)
        return out

    async def _component(
        self, message: StoredMessage, data: dict[str, Any], label: str, timeout: float | None
    ) -> InteractionResult:
        record = self.table.server.dispatch_interaction(
            member=self.member,
            channel=self.table.server.channel(message.channel_id),
            type=MESSAGE_COMPONENT,
            data=data,
            label=label,
            message=message,
        )
        result = InteractionResult(self.table, self, record)
        await result.responded(timeout)
        return result

    def say(
        self, content: str, *, channel: str | int | Channel | ChannelView | None = None
    ) -> StoredMessage:
        """Post a plain chat message."""
        return self.table.server.post_user_message(self.member, self._channel(channel), content)

    def delete(self, message: StoredMessage) -> None:
        """Delete a message as this user (the bot gets MESSAGE_DELETE)."""
        self.table.server.delete_message(message, by=self.member)

    def unpin(self, message: StoredMessage) -> None:
        """Unpin a message as this user."""
        self.table.server.unpin_message(message, by=self.member)


class InteractionResult:
    """What the bot answered to one interaction; attributes read the live state."""

    def __init__(self, table: SandboxTable, user: SandboxUser, record: InteractionRecord) -> None:
        self.table = table
        self.user = user
        self.record = record

    def __repr__(self) -> str:
        return (
            f"<InteractionResult {self.record.label} type={self.type} ephemeral={self.ephemeral}>"
        )

    @property
    def server(self) -> LoopbackDiscord:
        return self.table.server

    # first response

    @property
    def type(self) -> int | None:
        """The callback type: 4 message, 5 deferred, 6 deferred update, 7 update, 8 choices, 9 modal."""
        return self.record.response_type

    @property
    def deferred(self) -> bool:
        return self.type in (5, 6)

    @property
    def message(self) -> StoredMessage | None:
        """The original response (for 6/7: the message whose component was used)."""
        mid = self.record.original_message_id
        return self.server.messages.get(mid) if mid else None

    @property
    def ephemeral(self) -> bool:
        return bool(self.message and self.message.ephemeral)

    @property
    def content(self) -> str:
        return self.message.content if self.message else ""

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.message.embeds if self.message else []

    @property
    def embed(self) -> dict[str, Any] | None:
        return self.embeds[0] if self.embeds else None

    @property
    def components(self) -> list[dict[str, Any]]:
        return self.message.components if self.message else []

    @property
    def buttons(self) -> list[dict[str, Any]]:
        return self.message.buttons if self.message else []

    @property
    def choices(self) -> list[dict[str, Any]]:
        return self.record.choices or []

    @property
    def followups(self) -> list[StoredMessage]:
        return [self.server.messages[i] for i in self.record.followup_ids]

    @property
    def messages(self) -> list[StoredMessage]:
        """The original response and the followups, in order."""
        return self.server.interaction_messages(self.record)

    @property
    def text(self) -> str:
        """Everything the interaction produced, rendered (original, then followups)."""
        msgs = self.messages
        if not msgs:
            kind = self.type
            return f"({self.record.label}: no message; response type {kind})"
        return "\n".join(self.table.render(m) for m in msgs)

    @property
    def rest_calls(self) -> list[Any]:
        """REST calls made since this interaction was dispatched."""
        return self.server.calls_since(self.record.rest_mark)

    def _describe(self) -> str:
        lines = [f"{self.record.label} by {self.user.name} in #{self.record.channel.name}:"]
        if self.record.callbacks:
            lines.append(f"the bot answered with callback type {self.type}")
            lines.append(self.text)
        else:
            lines.append("the bot sent no interaction callback")
        calls = self.rest_calls
        lines.append(
            "REST calls since: " + (", ".join(str(c) for c in calls[-8:]) if calls else "none")
        )
        lines.append(self.table.describe_recent(self.record.channel))
        return "\n".join(lines)

    async def responded(self, timeout: float | None = None) -> InteractionResult:
        """Wait for the first callback (respond, defer, update, choices or modal)."""
        assert self.record.responded is not None
        timeout = timeout or self.table.timeout
        try:
            await asyncio.wait_for(asyncio.shield(self.record.responded), timeout)
        except TimeoutError:
            raise SandboxTimeout(
                f"waited {timeout:.1f}s for an answer. {self._describe()}"
            ) from None
        return self

    async def final(self, timeout: float | None = None) -> InteractionResult:
        """Wait until a deferred response has been filled in (edited, or a followup sent)."""
        await self.responded(timeout)
        if not self.deferred:
            return self
        start_edits = len(self.message.edits) if self.message and self.type == 6 else 0

        def done() -> bool:
            msg = self.message
            if self.record.followup_ids:
                return True
            if self.type == 5:
                return msg is not None and not msg.loading
            return msg is not None and len(msg.edits) > start_edits

        await self.server.wait_until(
            done, timeout=timeout or self.table.timeout, describe=self._describe
        )
        return self

    async def wait_followups(
        self, count: int = 1, timeout: float | None = None
    ) -> list[StoredMessage]:
        """Wait until the interaction has at least `count` followups; return them."""
        await self.server.wait_until(
            lambda: len(self.record.followup_ids) >= count,
            timeout=timeout or self.table.timeout,
            describe=self._describe,
        )
        return self.followups

    async def wait_edit(self, count: int = 1, timeout: float | None = None) -> StoredMessage:
        """Wait until the original response has been edited `count` times; return it."""
        await self.responded(timeout)

        def edited() -> StoredMessage | None:
            msg = self.message
            return msg if msg is not None and len(msg.edits) >= count else None

        return await self.server.wait_until(
            edited, timeout=timeout or self.table.timeout, describe=self._describe
        )

    def find_button_message(self, button: str | int) -> StoredMessage:
        """Return the newest of this result's messages that has the button."""
        errors = []
        for msg in reversed(self.messages):
            try:
                msg.find_button(button)
            except LookupError as error:
                errors.append(str(error))
            else:
                return msg
        raise SandboxError(
            f"no button {button!r} on {self.record.label}'s messages: " + "; ".join(errors)
        )

    async def click(
        self,
        button: str | int,
        *,
        as_user: SandboxUser | str | None = None,
        timeout: float | None = None,
    ) -> InteractionResult:
        """Click a button on this result's messages (as its user unless `as_user`)."""
        await self.responded(timeout)
        user = (
            as_user
            if isinstance(as_user, SandboxUser)
            else (self.table.user(as_user) if as_user else self.user)
        )
        return await user.click(self.find_button_message(button), button, timeout=timeout)


class ChannelView:
    """A live view of one channel: its messages, pins, and waits on them."""

    def __init__(self, table: SandboxTable, channel: Channel) -> None:
        self.table = table
        self.channel = channel

    def __repr__(self) -> str:
        return f"<ChannelView #{self.channel.name} messages={len(self.messages)}>"

    @property
    def server(self) -> LoopbackDiscord:
        return self.table.server

    @property
    def id(self) -> int:
        return self.channel.id

    @property
    def name(self) -> str:
        return self.channel.name

    @property
    def messages(self) -> list[StoredMessage]:
        """Messages oldest first, ephemeral ones included, without deleted and system notices."""
        return [m for m in self.server.channel_log(self.channel) if not m.system]

    @property
    def all_messages(self) -> list[StoredMessage]:
        """Every message ever posted here, deleted ones and system notices included."""
        return self.server.channel_log(self.channel, deleted=True)

    @property
    def public_messages(self) -> list[StoredMessage]:
        """Messages everyone sees (no ephemeral, no system notices)."""
        return [m for m in self.messages if not m.ephemeral]

    def visible_to(self, user: SandboxUser | Member | str) -> list[StoredMessage]:
        """Messages a given user sees, oldest first (system notices included)."""
        member = user.member if isinstance(user, SandboxUser) else self.server.member(user)
        return [m for m in self.server.channel_log(self.channel) if m.visible_to_user(member.id)]

    @property
    def last_message(self) -> StoredMessage | None:
        msgs = self.messages
        return msgs[-1] if msgs else None

    @property
    def pins(self) -> list[int]:
        """Pinned message ids, most recently pinned first."""
        return list(self.server.pins.get(self.channel.id, []))

    @property
    def pinned_messages(self) -> list[StoredMessage]:
        return self.server.pinned(self.channel)

    @property
    def text(self) -> str:
        """The channel rendered: pinned messages first, then every message."""
        pinned = "\n".join(self.table.render(m) for m in self.pinned_messages) or "(nothing pinned)"
        body = "\n".join(self.table.render(m) for m in self.messages) or "(no messages)"
        return f"#{self.name} pinned:\n{pinned}\n#{self.name} messages:\n{body}"

    async def wait_for(
        self,
        predicate: Callable[[ChannelView], T | None],
        *,
        timeout: float | None = None,
        what: str = "",
    ) -> T:
        """Return `predicate(channel)`'s first truthy value, re-checked on each server change."""
        return await self.server.wait_until(
            lambda: predicate(self),
            timeout=timeout or self.table.timeout,
            describe=lambda: f"{what or 'condition on #' + self.name} never held; {self.text}",
        )

    async def wait_for_message(
        self,
        predicate: Callable[[StoredMessage], bool] = lambda m: True,
        *,
        after: StoredMessage | int | None = None,
        timeout: float | None = None,
        what: str = "",
    ) -> StoredMessage:
        """Return the first message (newer than `after`) matching the predicate, waiting for it."""
        floor = after.id if isinstance(after, StoredMessage) else (after or 0)

        def find(channel: ChannelView) -> StoredMessage | None:
            return next((m for m in channel.messages if m.id > floor and predicate(m)), None)

        return await self.wait_for(find, timeout=timeout, what=what or "a matching message")

    async def wait_for_pin(self, *, timeout: float | None = None) -> StoredMessage:
        """Return the most recently pinned message, waiting until something is pinned."""
        return await self.wait_for(
            lambda ch: ch.pinned_messages[0] if ch.pinned_messages else None,
            timeout=timeout,
            what="a pinned message",
        )
