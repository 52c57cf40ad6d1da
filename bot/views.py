"""Buttons that keep working after a restart: everything they need is in their custom_id.

Each button is a discord.py DynamicItem defined beside the code that handles its click;
its cog registers the class, and any click whose custom_id matches its template is
routed to it, whether or not the message was sent by this process. Every error goes
through the bot's one error handler.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator, Sequence
from typing import Any, ClassVar, Self

import discord

from bot.errors import NotAllowed
from bot.i18n import N_, _, speaking
from bot.i18n.commands import speak_for, user_language
from bot.replies import NETWORK_ERRORS, describe, report_error

log = logging.getLogger(__name__)


class PersistentButton(discord.ui.DynamicItem[discord.ui.Button], template=r"th:(?!)"):
    """A button that survives restarts: its state is in its custom_id, its handler is `pressed`.

    Subclass it beside the code that handles the click (discord.py's DynamicItem idiom):
    give it a `template` and `from_custom_id`, and override `pressed`. The owning cog
    registers the class in `cog_load` (`bot.add_dynamic_items`). Every error goes through
    the bot's one error handler.
    """

    # Said when a click comes for a button its message no longer shows (the message changed
    # after the user's screen drew it): discord.py would drop that click without an answer.
    gone: ClassVar[str] = N_(
        "That button is gone: its message has changed since; look at it again."
    )

    async def callback(self, interaction: discord.Interaction) -> None:
        speak_for(interaction)  # the click's task speaks its user's language
        try:
            await self.pressed(interaction)
        except Exception as error:
            await report_error(interaction, error)

    async def pressed(self, interaction: discord.Interaction) -> None:
        """Handle the click."""
        raise NotImplementedError(f"{type(self).__name__} does not handle its click")


def custom_ids(components: Sequence[Any]) -> Iterator[str]:
    """Yield the custom_id of every component of a message, rows and containers included."""
    for component in components:
        custom_id = getattr(component, "custom_id", None)
        if custom_id:
            yield custom_id
        yield from custom_ids(getattr(component, "children", None) or [])


def _persistent(cls: type[PersistentButton] = PersistentButton) -> Iterator[type[PersistentButton]]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _persistent(sub)


async def answer_vanished_click(interaction: discord.Interaction) -> None:
    """Answer a click on a persistent button its message no longer shows.

    discord.py hands a DynamicItem only clicks whose custom_id the message still has; a
    click sent from a screen drawn before the message changed (a double click, a tracker
    that moved on) would get no answer at all, and the user "This interaction failed".
    """
    data: dict[str, Any] = interaction.data or {}  # type: ignore[assignment]
    custom_id = data.get("custom_id")
    message = interaction.message
    if interaction.type is not discord.InteractionType.component or message is None:
        return
    if not isinstance(custom_id, str) or custom_id in custom_ids(message.components):
        return  # the button's own handler answers it
    button = next(
        (b for b in _persistent() if b.__discord_ui_compiled_template__.fullmatch(custom_id)),
        None,
    )
    if button is None:
        return
    try:
        with speaking(user_language(interaction)):
            text = _(button.gone)
        await interaction.response.send_message(text, ephemeral=True)
    except (discord.HTTPException, *NETWORK_ERRORS):
        log.warning("could not answer a click on a vanished button: %s", describe(interaction))


CONFIRM_TEMPLATE = r"th:confirm:{what}:(?P<answer>yes|no):(?P<user>\d+):(?P<ref>[\w.-]*)"


def confirm_template(what: str) -> str:
    """Return the custom_id template of one destructive command's Confirm / Cancel."""
    return CONFIRM_TEMPLATE.format(what=re.escape(what))


class ConfirmButton(PersistentButton, template=r"th:confirm:(?!)"):
    """Confirm or Cancel of a destructive command; only the command's author may press it.

    Subclass it beside the command, with `template=confirm_template(what)`, `what` and
    `cancelled`, and carry the command out in `confirmed`.
    """

    what: ClassVar[str]
    cancelled: ClassVar[str] = N_("Cancelled; nothing changed.")

    def __init__(self, answer: str, user: int, ref: str = "") -> None:
        self.accepted = answer == "yes"
        self.author_id = user
        self.ref = ref
        super().__init__(
            discord.ui.Button(
                label=_("Confirm") if self.accepted else _("Cancel"),
                style=discord.ButtonStyle.danger
                if self.accepted
                else discord.ButtonStyle.secondary,
                custom_id=f"th:confirm:{self.what}:{answer}:{user}:{ref}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> Self:
        return cls(match["answer"], int(match["user"]), match["ref"])

    @classmethod
    def view(cls, user_id: int, ref: str = "") -> discord.ui.View:
        """Return Confirm / Cancel for a destructive command by this user."""
        view = discord.ui.View(timeout=None)
        view.add_item(cls("yes", user_id, ref))
        view.add_item(cls("no", user_id, ref))
        return view

    async def pressed(self, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.author_id:
            raise NotAllowed("This is not for you.")
        if not self.accepted:
            await interaction.response.edit_message(content=_(self.cancelled), view=None)
            return
        await self.confirmed(interaction)

    async def confirmed(self, interaction: discord.Interaction) -> None:
        """Carry out the command its author confirmed."""
        raise NotImplementedError(f"{type(self).__name__} carries out nothing")
