"""Buttons that keep working after a restart: everything they need is in their custom_id.

Each button is a discord.py DynamicItem: the bot registers the classes once, and any
click whose custom_id matches a template is routed here, whether or not the message
was sent by this process. Clicks are handed to the owning cog, and every error goes
through the bot's one error handler.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import discord

from bot.errors import NotAllowed
from bot.replies import report_error

# Every CogButton subclass, wherever it is defined; the bot registers them all at start-up.
REGISTRY: list[type[CogButton]] = []


class PersistentButton(discord.ui.DynamicItem[discord.ui.Button], template=r"th:(?!)"):
    """A button that survives restarts: its state is in its custom_id, its handler is `pressed`.

    Subclass it beside the code that handles the click (discord.py's DynamicItem idiom):
    give it a `template` and `from_custom_id`, and override `pressed`. The owning cog
    registers the class in `cog_load` (`bot.add_dynamic_items`). Every error goes through
    the bot's one error handler.
    """

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self.pressed(interaction)
        except Exception as error:
            await report_error(interaction, error)

    async def pressed(self, interaction: discord.Interaction) -> None:
        """Handle the click."""
        raise NotImplementedError(f"{type(self).__name__} does not handle its click")


class CogButton(discord.ui.DynamicItem[discord.ui.Button], template=r"th:(?!)"):
    """A persistent button whose click is handled by a cog method.

    Subclass it with a `template` whose named groups fill the handler's keyword
    arguments (via `from_custom_id`); set `cog` and `handler` to the method to call.
    """

    cog: str
    handler: str

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        REGISTRY.append(cls)

    def __init__(self, item: discord.ui.Button, **fields: Any) -> None:
        super().__init__(item)
        self.fields = fields

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            cog = interaction.client.get_cog(self.cog)  # type: ignore[attr-defined]
            if cog is None:
                raise RuntimeError(f"cog {self.cog} is not loaded")
            await getattr(cog, self.handler)(interaction, **self.fields)
        except Exception as error:
            await report_error(interaction, error)


TRACKER_ACTIONS = {
    "next": ("Next", discord.ButtonStyle.primary, "⏭"),
    "wait": ("Wait", discord.ButtonStyle.secondary, "⏸"),
    "hold": ("Hold", discord.ButtonStyle.secondary, "⏩"),
}


class TrackerButton(CogButton, template=r"th:tracker:(?P<action>next|wait|hold)"):
    """Next / Wait / Hold on the pinned tracker."""

    cog = "Initiative"
    handler = "tracker_button"

    def __init__(self, action: str) -> None:
        label, style, emoji = TRACKER_ACTIONS[action]
        super().__init__(
            discord.ui.Button(
                label=label, style=style, emoji=emoji, custom_id=f"th:tracker:{action}"
            ),
            action=action,
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> TrackerButton:
        return cls(match["action"])


def tracker_view() -> discord.ui.View:
    """Return the tracker's buttons."""
    view = discord.ui.View(timeout=None)
    for action in TRACKER_ACTIONS:
        view.add_item(TrackerButton(action))
    return view


@dataclass(frozen=True)
class Confirmation:
    """What a Confirm button carries out, and what Cancel says."""

    cog: str
    handler: str  # called as handler(interaction, ref) once the author confirmed
    cancelled: str


CONFIRMATIONS: dict[str, Confirmation] = {}


def register_confirmation(
    what: str, cog: str, handler: str, cancelled: str = "Cancelled; nothing changed."
) -> None:
    """Route the Confirm click of `confirm_view(what, …)` to `cog.handler(interaction, ref)`."""
    CONFIRMATIONS[what] = Confirmation(cog, handler, cancelled)


register_confirmation("end", "Initiative", "confirm_end", "The encounter goes on.")


class ConfirmButton(
    CogButton,
    template=r"th:confirm:(?P<what>[a-z_]+):(?P<answer>yes|no):(?P<user>\d+):(?P<ref>[\w.-]*)",
):
    """Confirm or cancel a destructive command; only the command's author may press it."""

    cog = ""
    handler = ""

    def __init__(self, what: str, answer: str, user: int, ref: str = "") -> None:
        self.confirmed = answer == "yes"
        self.author_id = user
        super().__init__(
            discord.ui.Button(
                label="Confirm" if self.confirmed else "Cancel",
                style=discord.ButtonStyle.danger
                if self.confirmed
                else discord.ButtonStyle.secondary,
                custom_id=f"th:confirm:{what}:{answer}:{user}:{ref}",
            ),
            ref=ref,
        )
        self.confirmation = CONFIRMATIONS.get(what, Confirmation("", "", "Cancelled."))
        self.cog, self.handler = self.confirmation.cog, self.confirmation.handler

    async def callback(self, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.author_id:
            await report_error(interaction, NotAllowed("This is not for you."))
        elif not self.confirmed:
            await interaction.response.edit_message(content=self.confirmation.cancelled, view=None)
        else:
            await super().callback(interaction)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> ConfirmButton:
        return cls(match["what"], match["answer"], int(match["user"]), match["ref"])


def confirm_view(what: str, user_id: int, ref: str = "") -> discord.ui.View:
    """Return Confirm / Cancel buttons for a destructive command by this user."""
    view = discord.ui.View(timeout=None)
    view.add_item(ConfirmButton(what, "yes", user_id, ref))
    view.add_item(ConfirmButton(what, "no", user_id, ref))
    return view
