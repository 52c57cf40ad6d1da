"""Asking "which one?": a menu that runs the caller's command again with the one chosen.

A command that cannot tell which combatant (or character) the caller means — several of
theirs could, or a typed name fits none but nearly fits some — raises `Ambiguous` with
the candidates. Instead of that error's one line, the caller gets it with a select menu;
the command and its options are kept in memory under a short key that the menu's
custom_id carries, and picking one runs the command again with that option filled in,
as if it had been typed. The invocation is kept in memory only, for `LIFETIME` seconds:
after a restart, or later, the menu answers that the choice has expired.
"""

from __future__ import annotations

import contextlib
import logging
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.errors import Ambiguous, NotAllowed
from bot.i18n import N_, _
from bot.i18n.commands import speak_for
from bot.render.text import unlinked
from bot.replies import MESSAGE_LIMIT, NETWORK_ERRORS, clickable, report_error
from bot.rules.names import CLOSE_LIMIT, name_key

log = logging.getLogger(__name__)

LIFETIME = 600.0  # seconds a choice waits; Discord's interaction tokens last 15 minutes
KEPT = 1000  # choices kept at most (the oldest go first)
EXPIRED = N_(
    "That choice has expired (it waits 10 minutes, and not across a restart); "
    "run the command again."
)
PLACEHOLDER = N_("Choose one")

# The value a menu just filled in, while its command runs again: a command that checks a
# typed name against near ones (/init join) takes a chosen one as it is.
CHOSEN: ContextVar[str | None] = ContextVar("chosen", default=None)


def chosen(value: str | None) -> bool:
    """Return whether this value was just picked from a "which one?" menu."""
    picked = CHOSEN.get()
    return picked is not None and value is not None and name_key(picked) == name_key(value)


@dataclass
class Invocation:
    """A command waiting for one option: who ran it, with what, and its menu's message."""

    command: app_commands.Command[Any, ..., Any]
    values: dict[str, Any]  # the callback's keyword arguments, as first given
    option: str  # the callback's parameter the choice fills
    user_id: int
    prompt: discord.Interaction  # whose answer holds the menu (to take the menu off)
    prompt_id: int | None
    question: str
    expires: float


class PendingChoices:
    """The commands waiting for a choice, by key; in memory, each for a limited time."""

    def __init__(self, lifetime: float = LIFETIME, clock: Callable[[], float] = time.monotonic):
        self.lifetime = lifetime
        self._clock = clock
        self._waiting: OrderedDict[str, Invocation] = OrderedDict()

    def remember(self, invocation: Invocation) -> str:
        """Keep an invocation; return its key."""
        now = self._clock()
        for key in [k for k, v in self._waiting.items() if v.expires <= now]:
            del self._waiting[key]
        while len(self._waiting) >= KEPT:
            self._waiting.popitem(last=False)
        key = secrets.token_urlsafe(6)
        invocation.expires = now + self.lifetime
        self._waiting[key] = invocation
        return key

    def take(self, key: str) -> Invocation | None:
        """Return and forget the invocation of a key, or None if it expired or was never here."""
        invocation = self._waiting.pop(key, None)
        if invocation is None or invocation.expires <= self._clock():
            return None
        return invocation

    def put_back(self, key: str, invocation: Invocation) -> None:
        """Keep an invocation taken for someone it was not for."""
        self._waiting[key] = invocation

    def __len__(self) -> int:
        return len(self._waiting)


def _values(command: app_commands.Command[Any, ..., Any], given: dict[str, Any]) -> dict[str, Any]:
    """Return the callback's arguments: the options given (by Discord name), defaults for the rest."""
    values = {}
    for parameter in command.parameters:
        if parameter.display_name in given:
            values[parameter.name] = given[parameter.display_name]
        elif not parameter.required:
            values[parameter.name] = parameter.default
    return values


def _option(command: app_commands.Command[Any, ..., Any], error: Ambiguous, given: dict[str, Any]):
    """Return the callback's parameter the choice fills, or None if the command has none."""
    for parameter in command.parameters:
        if error.option is not None and parameter.display_name == error.option:
            return parameter.name
        typed = given.get(parameter.display_name)
        if error.option is None and isinstance(typed, str) and error.typed is not None:
            if name_key(typed) == name_key(error.typed):
                return parameter.name
    return None


def menu_view(key: str, error: Ambiguous) -> discord.ui.View:
    """Return the "which one?" menu of an Ambiguous error."""
    view = discord.ui.View(timeout=None)
    options = [
        discord.SelectOption(
            label=name[:100], value=name[:100], description=error.notes.get(name, "")[:100] or None
        )
        for name in error.choices[:CLOSE_LIMIT]
    ]
    view.add_item(ChoiceMenu(key, options))
    return view


async def offer(
    interaction: discord.Interaction,
    error: BaseException,
    rerun: Invocation | None = None,
) -> bool:
    """Answer an Ambiguous error with a menu that runs the command again; False if it cannot."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if not isinstance(error, Ambiguous) or not error.choices:
        return False
    if rerun is not None:
        command, given = (
            rerun.command,
            {
                p.display_name: rerun.values[p.name]
                for p in rerun.command.parameters
                if p.name in rerun.values
            },
        )
    else:
        command = interaction.command  # type: ignore[assignment]
        if not isinstance(command, app_commands.Command):
            return False  # a button: there is no command to run again
        given = dict(iter(interaction.namespace))
    option = _option(command, error, given)
    if option is None:
        return False
    pending = Invocation(
        command=command,
        values=_values(command, given),
        option=option,
        user_id=interaction.user.id,
        prompt=interaction,
        prompt_id=None,
        question=error.message,
        expires=0.0,
    )
    bot = interaction.client
    key = bot.choices.remember(pending)  # type: ignore[attr-defined]
    view = menu_view(key, error)
    question = clickable(interaction, unlinked(error.message))
    if len(question) > MESSAGE_LIMIT:  # a question quoting a very long input
        question = question[: MESSAGE_LIMIT - 1] + "…"
    pending.question = question
    if interaction.response.is_done():
        sent = await interaction.followup.send(question, view=view, ephemeral=True, wait=True)
        pending.prompt_id = sent.id
    else:
        answer = await interaction.response.send_message(question, view=view, ephemeral=True)
        pending.prompt_id = answer.message_id
    return True


class ChoiceMenu(discord.ui.DynamicItem[discord.ui.Select], template=r"th:choose:(?P<key>[\w-]+)"):
    """The "which one?" menu: its custom_id holds the key of the command it runs again."""

    def __init__(self, key: str, options: list[discord.SelectOption]) -> None:
        self.key = key
        super().__init__(
            discord.ui.Select(
                custom_id=f"th:choose:{key}",
                placeholder=_(PLACEHOLDER),
                options=options,
                min_values=1,
                max_values=1,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str], /
    ) -> ChoiceMenu:
        return cls(match["key"], list(item.options))

    async def callback(self, interaction: discord.Interaction) -> None:
        speak_for(interaction)  # the pick's task speaks its user's language
        pending = None
        try:
            pending = await self._take(interaction)
            if pending is not None:
                await self._run_again(interaction, pending)
        except Exception as error:
            if not await offer(interaction, error, pending):
                await report_error(interaction, error)

    async def _take(self, interaction: discord.Interaction) -> Invocation | None:
        """Return the waiting command, or answer that it expired (or is someone else's)."""
        choices: PendingChoices = interaction.client.choices  # type: ignore[attr-defined]
        pending = choices.take(self.key)
        if pending is None:
            await interaction.response.edit_message(content=_(EXPIRED), view=None)
            return None
        if pending.user_id != interaction.user.id:
            choices.put_back(self.key, pending)
            raise NotAllowed("This is not for you.")
        return pending

    async def _run_again(self, interaction: discord.Interaction, pending: Invocation) -> None:
        """Run the command again with the choice filled in; then take the menu off its message."""
        picked = self.item.values[0] if self.item.values else ""
        values = {**pending.values, pending.option: picked}
        pending.values = values  # a further question about another option keeps this choice
        command = pending.command
        token = CHOSEN.set(picked)
        try:
            if command.binding is not None:
                await command.callback(command.binding, interaction, **values)  # type: ignore[arg-type]
            else:
                await command.callback(interaction, **values)  # type: ignore[arg-type]
        finally:
            CHOSEN.reset(token)
            await _close_menu(pending, picked)


async def _close_menu(pending: Invocation, picked: str) -> None:
    """Show the menu's question with the answer, without the menu (best effort)."""
    if pending.prompt_id is None:
        return
    answer = f" → **{discord.utils.escape_markdown(picked)}**"
    question = pending.question[: MESSAGE_LIMIT - len(answer)]
    with contextlib.suppress(discord.HTTPException, *NETWORK_ERRORS):
        await pending.prompt.followup.edit_message(
            pending.prompt_id, content=question + answer, view=None
        )
