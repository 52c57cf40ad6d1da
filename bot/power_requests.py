"""A player's power over its curve, sent to the GM to allow or refuse [SRD §10.3, GAME.md §9].

The SRD lets only the GM allow a power over its curve. A player's `/character power build
… over_curve:true` therefore posts the priced power in the channel with **Allow** and
**Refuse**; only a GM's press counts. The request is the message itself (its embed
carries the power as JSON), so its buttons keep working after a restart. It is the
channel's to read: `request_message` words it in the server's language, and the answer
that replaces it is worded so too, whoever pressed.
"""

import json
import re
from typing import TYPE_CHECKING, Self

import discord

from bot.errors import BadInput
from bot.i18n import N_, _, speaking
from bot.permissions import require_gm_here
from bot.render.known_powers import power_line
from bot.render.text import name_text
from bot.rules.models import KnownPower
from bot.rules.powers import learn
from bot.rules.results import Result
from bot.table import channel_language
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
    mention = f"<@{request.owner_id}>"
    asks = _(
        "{player} asks to add this power, {over} PP over its curve (more than 5 PP over is "
        "over curve; only the GM may allow it [SRD §10.3]):",
        player=mention,
        over=format(over, "g"),
    )
    return discord.Embed(
        title=_(
            "Over its curve: {power} for {character}",
            power=name_text(power.name),
            character=name_text(request.character),
        ),
        description=(
            # Not "GM-allowed" yet: the line reads as the sheet will once a GM allows it.
            f"{asks}\n{power_line(power.model_copy(update={'over_curve': False}))}\n\n"
            f"```json\n{request.model_dump_json(exclude_none=True)}\n```"
        ),
        colour=REQUEST_COLOUR,
    )


async def request_message(
    interaction: discord.Interaction, request: PowerRequest
) -> dict[str, object]:
    """Return the request's embed and buttons, worded in the language its channel speaks."""
    with speaking(await channel_language(interaction)):
        return {"embed": request_embed(request), "view": request_view()}


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
                label=_("Allow") if self.allow else _("Refuse"),
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
        await require_gm_here(interaction, N_("allow a power over its curve"))
        request = read_request(interaction.message)
        who = name_text(interaction.user.display_name)
        language = await channel_language(interaction)  # the channel reads it, whoever pressed
        if not self.allow:
            with speaking(language):
                text = _(
                    "Refused by {gm}: {character} does not get it.",
                    gm=who,
                    character=name_text(request.character),
                )
            await interaction.response.edit_message(content=text, view=None)
            return
        async with bot.store.sheet(request.character_id) as sheet:
            held = sheet.character
            if held.owner_id != request.owner_id:
                raise BadInput("That character has changed hands; ask for the power again.")
            learned = learn(bot.catalogue, held.powers, request.power, held.mastery_rank)
            held.powers = list(held.powers)  # a new list: the sheet writes what changed
        with speaking(language):
            text = _(
                "Allowed by {gm}: **{character}** has a new power:\n{power}",
                gm=who,
                character=name_text(held.name),
                power=power_line(learned),
            )
        await interaction.response.edit_message(content=text, view=None)
