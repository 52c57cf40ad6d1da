"""What a command says, gathered while it runs and sent once its changes are committed.

The table's pipeline (`bot.table`) fills an Outbox: lines and embeds for everyone, lines
for the GM alone, a private reply for the caller, and who to ping. Sending splits
whatever is too long for Discord into several messages, so nothing is cut or refused.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import discord

CONTENT_LIMIT = 2000  # characters of a message's content [Discord]
DESCRIPTION_LIMIT = 4096  # characters of an embed's description [Discord]
FIELD_LIMIT = 1024  # characters of an embed field's value [Discord]
EMBEDS_PER_MESSAGE = 10  # [Discord]
EMBED_TOTAL_LIMIT = 6000  # characters of all embeds of one message [Discord]
FILES_PER_MESSAGE = 10  # [Discord]

Shown = Callable[[int | None], None] | None  # hears the id of the first message sent


def _cut(line: str, limit: int) -> int:
    """Return where to cut an overlong line: after a list's comma, else at a space."""
    comma = line.rfind(", ", 0, limit)
    if comma > limit // 2:
        return comma + 1  # a name in a list ("Goblin 1, Goblin 2, …") stays whole
    space = line.rfind(" ", 0, limit)
    return space if space > 0 else limit


def split_text(text: str, limit: int = CONTENT_LIMIT) -> list[str]:
    """Split text into pieces of at most `limit` characters: at line breaks, list commas, spaces."""
    pieces: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            cut = _cut(line, limit)
            pieces.extend([current] if current else [])
            current = ""
            pieces.append(line[:cut])
            line = line[cut:].lstrip(" ")
        joined = f"{current}\n{line}" if current else line
        if len(joined) > limit:
            pieces.append(current)
            joined = line
        current = joined
    if current:
        pieces.append(current)
    return [p for p in pieces if p.strip()]


def embed_groups(embeds: list[discord.Embed]) -> Iterator[list[discord.Embed]]:
    """Group embeds into messages: at most 10, and 6,000 characters, each."""
    group: list[discord.Embed] = []
    size = 0
    for embed in embeds:
        length = len(embed)
        if group and (len(group) == EMBEDS_PER_MESSAGE or size + length > EMBED_TOTAL_LIMIT):
            yield group
            group, size = [], 0
        group.append(embed)
        size += length
    if group:
        yield group


@dataclass
class Outbox:
    """Everything one command says, by audience."""

    public: list[str] = field(default_factory=list)
    embeds: list[discord.Embed] = field(default_factory=list)
    view: discord.ui.View | None = None  # buttons on the public message
    files: list[discord.File] = field(default_factory=list)  # attached to the last public one
    gm: list[str] = field(default_factory=list)  # about hidden NPCs: the GM's alone
    gm_embeds: list[discord.Embed] = field(default_factory=list)
    private: list[str] = field(default_factory=list)  # the caller's alone
    private_embeds: list[discord.Embed] = field(default_factory=list)
    private_view: discord.ui.View | None = None  # buttons on the caller's private reply
    pings: list[int] = field(default_factory=list)
    summary_round: int | None = None

    @property
    def empty(self) -> bool:
        return not (
            self.public
            or self.embeds
            or self.gm
            or self.gm_embeds
            or self.private
            or self.private_embeds
        )

    def link(self, linked: Callable[[str], str]) -> None:
        """Make the commands the lines name clickable (embeds are left as they are)."""
        self.public = [linked(line) for line in self.public]
        self.gm = [linked(line) for line in self.gm]
        self.private = [linked(line) for line in self.private]

    def public_messages(self) -> list[dict[str, Any]]:
        """Return the public part as messages within Discord's limits; pings on the first."""
        text = "\n".join(self.public)
        if self.pings and text:
            text += " " + " ".join(f"<@{uid}>" for uid in self.pings)
        messages: list[dict[str, Any]] = [{"content": piece} for piece in split_text(text)]
        groups = list(embed_groups(self.embeds))
        if groups and messages:
            messages[-1]["embeds"] = groups.pop(0)
        messages.extend({"embeds": group} for group in groups)
        if messages and self.view is not None:
            messages[-1]["view"] = self.view
        for start in range(0, len(self.files), FILES_PER_MESSAGE):
            batch = self.files[start : start + FILES_PER_MESSAGE]
            if start == 0 and messages:
                messages[-1]["files"] = batch
            else:
                messages.append({"files": batch})
        users = [discord.Object(id=uid) for uid in self.pings]
        for message in messages:
            message["allowed_mentions"] = discord.AllowedMentions(
                everyone=False, roles=False, users=users, replied_user=False
            )
        return messages

    def private_messages(self, *, gm: bool) -> list[dict[str, Any]]:
        """Return the caller's private part (with the GM's lines if the caller is the GM)."""
        lines = self.private + (self.gm if gm else [])
        embeds = self.private_embeds + (self.gm_embeds if gm else [])
        messages: list[dict[str, Any]] = [
            {"content": piece} for piece in split_text("\n".join(lines))
        ]
        groups = list(embed_groups(embeds))
        if groups and messages:
            messages[-1]["embeds"] = groups.pop(0)
        messages.extend({"embeds": group} for group in groups)
        if messages and self.private_view is not None:
            messages[-1]["view"] = self.private_view
        return messages

    async def answer(
        self, interaction: discord.Interaction, *, gm: bool, shown: Shown = None
    ) -> None:
        """Answer an interaction: public messages first, then the private ones.

        `shown` hears the first message's id (None if Discord did not say) once it is sent.
        """
        outgoing = [(m, False) for m in self.public_messages()]
        outgoing += [(m, True) for m in self.private_messages(gm=gm)]
        for n, (message, ephemeral) in enumerate(outgoing):
            if not interaction.response.is_done():
                sent = await interaction.response.send_message(**message, ephemeral=ephemeral)
                message_id = sent.message_id
            else:
                message_id = (await interaction.followup.send(**message, ephemeral=ephemeral)).id
            if n == 0 and shown is not None:
                shown(message_id)

    async def post(self, channel: discord.abc.Messageable, *, shown: Shown = None) -> None:
        """Post the public part in a channel (the bot's own work: nobody to tell privately)."""
        for n, message in enumerate(self.public_messages()):
            sent = await channel.send(**message)
            if n == 0 and shown is not None:
                shown(sent.id)
