"""A player's power over its curve, sent to the GM to allow or refuse [SRD §10.3, GAME.md §9].

The SRD lets only the GM allow a power over its curve. A player's `/character power build
… over_curve:true` therefore posts the priced power in the channel with **Allow** and
**Refuse**; only a GM's press counts. The request is the message itself (its embed
carries the power as JSON), so its buttons keep working after a restart.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Self

import discord

from bot.errors import BadInput
from bot.permissions import require_gm_here
from bot.render.known_powers import power_line
from bot.render.text import name_text
from bot.rules.models import KnownPower
from bot.rules.powers import learn
from bot.rules.results import Result
from bot.views import PersistentButton

if TYPE_CHECKING:
    from bot.app import Tablehand

REQUEST_COLOUR = discord.Colour.orange()
JSON_BLOCK = re.compile(r"```json\n(.*)\n```", re.S)


class PowerRequest(Result):
    """What a GM's Allow adds: this power, to this player's sheet."""

    character_id: int
    owner_id: int
    character: str
    power: KnownPower


def request_embed(request: PowerRequest) -> discord.Embed:
    """Show a request: the power as priced, and the data its Allow adds, word for word."""
    power = request.power
    over = (power.pp or 0) - (power.target_pp or 0)
    return discord.Embed(
        title=f"Over its curve: {name_text(power.name)} for {name_text(request.character)}",
        description=(
            f"<@{request.owner_id}> asks to add this power, {over:g} PP over its curve (more "
            "than 5 PP over is over curve; only the GM may allow it [SRD §10.3]):\n"
            f"{power_line(power)}\n\n"
            f"```json\n{request.model_dump_json(exclude_none=True)}\n```"
        ),
        colour=REQUEST_COLOUR,
    )


def request_view() -> discord.ui.View:
    """Return Allow / Refuse for a GM."""
    view = discord.ui.View(timeout=None)
    view.add_item(PowerRequestButton("allow"))
    view.add_item(PowerRequestButton("refuse"))
    return view


def read_request(message: discord.Message | None) -> PowerRequest:
    """Read the request a message shows (its embed's JSON block)."""
    embeds = message.embeds if message is not None else []
    found = JSON_BLOCK.search(embeds[0].description or "") if embeds else None
    if found is None:
        raise BadInput("This request can no longer be read; ask for the power again.")
    return PowerRequest.model_validate(json.loads(found.group(1)))


class PowerRequestButton(PersistentButton, template=r"th:overcurve:(?P<answer>allow|refuse)"):
    """Allow or Refuse of a power over its curve: a GM's press only."""

    def __init__(self, answer: str) -> None:
        self.allow = answer == "allow"
        super().__init__(
            discord.ui.Button(
                label="Allow" if self.allow else "Refuse",
                style=discord.ButtonStyle.success if self.allow else discord.ButtonStyle.secondary,
                custom_id=f"th:overcurve:{answer}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> Self:
        return cls(match["answer"])

    async def pressed(self, interaction: discord.Interaction) -> None:
        bot: Tablehand = interaction.client  # type: ignore[assignment]
        await require_gm_here(interaction, "allow a power over its curve")
        request = read_request(interaction.message)
        who = name_text(interaction.user.display_name)
        if not self.allow:
            text = f"Refused by {who}: {name_text(request.character)} does not get it."
            await interaction.response.edit_message(content=text, view=None)
            return
        async with bot.store.sheet(request.character_id) as sheet:
            held = sheet.character
            if held.owner_id != request.owner_id:
                raise BadInput("That character has changed hands; ask for the power again.")
            learned = learn(bot.catalogue, held.powers, request.power, held.mastery_rank)
            held.powers = list(held.powers)  # a new list: the sheet writes what changed
        text = (
            f"Allowed by {who}: **{name_text(held.name)}** has a new power:\n{power_line(learned)}"
        )
        await interaction.response.edit_message(content=text, view=None)
