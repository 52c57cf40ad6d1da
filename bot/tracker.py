"""Keep each channel's pinned tracker message in step with the stored encounter.

Edits are coalesced per channel: a burst of changes produces at most one edit per
`interval` seconds, and every edit renders the state stored at that moment, so the
last state always wins. A tracker that was deleted or unpinned is posted and pinned
anew on the next update.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import discord

from bot.i18n import speaking
from bot.i18n.commands import server_language
from bot.replies import NETWORK_ERRORS
from bot.rules.models import Encounter
from bot.store import Store
from bot.views import custom_ids

log = logging.getLogger(__name__)

RETRY_LIMIT = 5  # failed edits are retried with doubling waits, then left for the next change
RECONCILE_WINDOW = 24 * 3600  # after a restart, trackers of encounters changed this recently
RECONCILE_PACE = 0.1  # seconds between those trackers: ten channels a second
PIN_REASON = "Tablehand initiative tracker"
TRACKER_BUTTONS = "th:tracker:"  # the custom_id of every tracker button starts so


class TrackerContent:
    """What the tracker message shows: an embed and its buttons.

    The buttons may be given as what they show (a JSON-able description) and how to build
    them: most refreshes find the tracker already showing this content, and building a
    view of buttons cost more than the rest of the comparison.
    """

    def __init__(
        self,
        embed: discord.Embed,
        view: discord.ui.View | None = None,
        *,
        buttons: tuple[object, Callable[[], discord.ui.View]] | None = None,
    ) -> None:
        self.embed = embed
        self._view = view
        self._buttons = buttons

    @property
    def view(self) -> discord.ui.View | None:
        """Return the buttons, built on first use."""
        if self._buttons is not None and self._view is None:
            self._view = self._buttons[1]()
        return self._view

    def fingerprint(self) -> str:
        """Return a digest of the content, to tell whether an edit would change anything."""
        if self._buttons is not None:
            buttons: object = self._buttons[0]  # built or not: one content, one digest
        else:
            view = self._view
            buttons = [] if view is None else [item.to_component_dict() for item in view.children]
        shown = self.embed.to_dict()
        description = shown.pop("description", "")
        # Kept per channel until the next edit: a digest, not the 1.6 KB of text. The rest
        # as its repr (a list's repr ends where it ends), then the description as it is:
        # dumping the whole embed to JSON first cost more than the digest.
        digest = hashlib.blake2b(repr([shown, buttons]).encode(), digest_size=16)
        digest.update(description.encode())
        return digest.hexdigest()


# The encounter, and each combatant's part of its stored text when known (`render_tracker`).
Render = Callable[[Encounter, Sequence[str] | None], TrackerContent]


@dataclass(slots=True)
class _Channel:
    # Kept for every channel that ever had a tracker (1,000 fights: 1,000 of these), so
    # slots, and no idle Event or finished task: its running task, if any, is the edit.
    dirty: bool = False
    check_pins: bool = False
    last_edit: float = float("-inf")
    task: asyncio.Task[None] | None = None  # the running edit loop; None when idle
    edits: int = 0
    failures: int = 0
    unpinned: int | None = None  # our tracker whose pin Discord failed: the next update pins it
    shown: tuple[int, str] | None = None  # (message id, what it shows) as last sent


class Trackers:
    """The pinned tracker of every channel with an encounter."""

    def __init__(self, client: discord.Client, store: Store, render: Render, interval: float = 1.0):
        self.client = client
        self.store = store
        self.render = render
        self.interval = interval
        self.pace = RECONCILE_PACE
        self._channels: dict[int, _Channel] = {}

    async def language(self, encounter: Encounter) -> str:
        """Return what the encounter's channel speaks: its server's /settings language or locale."""
        settings = await self.store.settings(encounter.guild_id)
        guild = self.client.get_guild(encounter.guild_id) if encounter.guild_id else None
        return server_language(settings.language, guild.preferred_locale if guild else None)

    def _channel(self, channel_id: int) -> _Channel:
        channel = self._channels.get(channel_id)
        if channel is None:
            channel = self._channels[channel_id] = _Channel()
        return channel

    def touch(self, channel_id: int) -> None:
        """Schedule an edit of the channel's tracker to the stored state."""
        channel = self._channel(channel_id)
        channel.dirty = True
        if channel.task is None or channel.task.done():  # done: cancelled before it ran
            channel.task = asyncio.create_task(
                self._run(channel_id, channel), name=f"tracker-{channel_id}"
            )

    def pins_changed(self, channel_id: int) -> None:
        """Note that the channel's pins changed: the next update checks ours is still there."""
        self._channel(channel_id).check_pins = True

    def edits(self, channel_id: int) -> int:
        """Return how many tracker edits this channel has had since start-up."""
        return self._channel(channel_id).edits

    async def settled(self, channel_id: int | None = None) -> None:
        """Wait until pending tracker edits (of one channel, or all) are done."""
        channels = (
            [self._channel(channel_id)] if channel_id is not None else list(self._channels.values())
        )
        for channel in channels:
            if channel.task is not None:
                await asyncio.wait([channel.task])

    async def close(self) -> None:
        """Cancel pending edits (on shutdown; the next start reconciles)."""
        for channel in self._channels.values():
            task = channel.task
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    async def reconcile(self, since: float, guild_ids: set[int] | None = None) -> int:
        """Bring the trackers of encounters changed since `since` back to the stored state.

        Run after a restart, in the background: a crash may have left a tracker behind its
        encounter, and someone may have unpinned it while the bot was away (an unpin it did
        not hear of), so its pin is checked too. Channels are paced so thousands of them
        never burst the API. `guild_ids`: only those guilds' (the ones this process serves).
        """
        channels = await self.store.recent_encounter_channels(since, guild_ids=guild_ids)
        for channel_id in channels:
            self.pins_changed(channel_id)
            self.touch(channel_id)
            await asyncio.sleep(self.pace)
        return len(channels)

    async def retire(self, channel_id: int, message_id: int, embed: discord.Embed) -> None:
        """Show the final state on a tracker without buttons and unpin it."""
        message = self.client.get_partial_messageable(channel_id).get_partial_message(message_id)
        with contextlib.suppress(discord.HTTPException):
            await message.edit(embed=embed, view=None)
        with contextlib.suppress(discord.HTTPException):
            await message.unpin()

    async def _run(self, channel_id: int, channel: _Channel) -> None:
        try:
            while channel.dirty:
                wait = channel.last_edit + self.interval - time.monotonic()
                if channel.failures:
                    wait = max(wait, self.interval * 2 ** min(channel.failures, RETRY_LIMIT))
                if wait > 0:
                    await asyncio.sleep(wait)
                channel.dirty = False
                try:
                    await self._update(channel_id, channel)
                    channel.failures = 0
                except (discord.HTTPException, *NETWORK_ERRORS) as error:
                    channel.failures += 1
                    log.warning(
                        "tracker update in channel %s failed (%s), attempt %d",
                        channel_id,
                        _why(error),
                        channel.failures,
                    )
                    if channel.failures < RETRY_LIMIT:
                        channel.dirty = True
                    else:
                        channel.failures = 0
                finally:
                    channel.last_edit = time.monotonic()
        except Exception:
            log.exception("tracker task for channel %s stopped", channel_id)
        finally:
            channel.task = None  # idle: the next touch starts a new loop

    async def _update(self, channel_id: int, channel: _Channel) -> None:
        # The committed state, read without the channel's lock: commands never queue behind
        # the tracker, and what it shows is always something that was committed.
        encounter = await self.store.glimpse(channel_id)
        if encounter is None:
            return
        parts = self.store.glimpsed_parts(channel_id, encounter)
        with speaking(await self.language(encounter)):  # the channel reads the server's language
            content = self.render(encounter, parts)
        message_id = encounter.tracker_message_id
        if message_id is not None and channel.check_pins:
            channel.check_pins = False
            if not await self._is_pinned(channel_id, message_id):
                await self._replace(channel_id, encounter, content, old_id=message_id)
                return
        if message_id is None:
            await self._replace(channel_id, encounter, content, old_id=None)
            return
        message = self.client.get_partial_messageable(channel_id).get_partial_message(message_id)
        if channel.unpinned == message_id:
            with contextlib.suppress(discord.NotFound):  # deleted meanwhile: the edit re-posts it
                await self._pin(message)
            channel.unpinned = None
        shown = (message_id, content.fingerprint())
        if channel.shown == shown:
            return  # it already shows this: players see an NPC's level, not every point of Grit
        try:
            await message.edit(embed=content.embed, view=content.view)
            channel.edits += 1
            channel.shown = shown
        except discord.NotFound:
            await self._replace(channel_id, encounter, content, old_id=message_id)

    async def _is_pinned(self, channel_id: int, message_id: int) -> bool:
        messageable = self.client.get_partial_messageable(channel_id)
        async for pinned in messageable.pins(limit=50):
            if pinned.id == message_id:
                return True
        return False

    async def _replace(
        self, channel_id: int, encounter: Encounter, content: TrackerContent, old_id: int | None
    ) -> None:
        """Post and pin a new tracker, and record it if the encounter still uses the old one.

        A first tracker may already be there: posted and pinned by a process killed before it
        could record it. That one is taken, not a second pinned beside it.
        """
        messageable = self.client.get_partial_messageable(channel_id)
        found = await self._unrecorded(channel_id) if old_id is None else None
        if found is not None:
            await found.edit(embed=content.embed, view=content.view)
            message = found
        else:
            message = await messageable.send(embed=content.embed, view=content.view)
        self._channel(channel_id).edits += 1
        self._channel(channel_id).shown = (message.id, content.fingerprint())
        pin_failed: discord.HTTPException | None = None
        try:
            if found is None:
                await self._pin(message)
        except discord.HTTPException as error:
            pin_failed = error  # adopted all the same, so a retry pins this one, not another
        async with self.store.channel(channel_id) as state:
            current = None if state.damaged else state.encounter
            adopted = current is not None and current.tracker_message_id == old_id
            if adopted:
                current.tracker_message_id = message.id
        if not adopted:
            # The encounter ended or got another tracker meanwhile: ours is an orphan.
            with contextlib.suppress(discord.HTTPException):
                await message.delete()
            return
        log.info("tracker of channel %s posted as %s", channel_id, message.id)
        if old_id is not None:
            with contextlib.suppress(discord.HTTPException):
                await messageable.get_partial_message(old_id).delete()
        if pin_failed is not None:
            self._channel(channel_id).unpinned = message.id
            raise pin_failed

    async def _unrecorded(self, channel_id: int) -> discord.Message | None:
        """Return a live tracker of ours pinned in the channel, though no encounter recorded it."""
        me = self.client.user
        async for pinned in self.client.get_partial_messageable(channel_id).pins(limit=50):
            if me is not None and pinned.author.id == me.id and _has_tracker_buttons(pinned):
                return pinned
        return None

    async def _pin(self, message: discord.Message | discord.PartialMessage) -> None:
        """Pin a tracker; a missing permission is only logged, other failures raise."""
        try:
            await message.pin(reason=PIN_REASON)
        except discord.Forbidden:
            log.warning(
                "cannot pin the tracker in channel %s: the bot lacks Manage Messages",
                message.channel.id,
            )


def _has_tracker_buttons(message: discord.Message) -> bool:
    """Return whether a message carries a tracker's Next / Wait / Hold."""
    return any(cid.startswith(TRACKER_BUTTONS) for cid in custom_ids(message.components))


def _why(error: BaseException) -> str:
    """Say in a few words why a request failed: Discord's status and text, or the connection."""
    if isinstance(error, discord.HTTPException):
        return f"{error.status} {error.text or error.__class__.__name__}"
    return f"connection: {error.__class__.__name__}"
