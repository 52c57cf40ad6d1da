"""Replies to users: the one place errors become ephemeral one-line answers."""

from __future__ import annotations

import asyncio
import logging

import aiohttp
import discord
from discord import app_commands

from bot.errors import TablehandError
from bot.help import CommandIds
from bot.i18n import N_, _, speaking
from bot.i18n.commands import user_language
from bot.render.text import unlinked

log = logging.getLogger("tablehand")

# What a request can fail with besides Discord's answer: the connection itself.
NETWORK_ERRORS: tuple[type[BaseException], ...] = (aiohttp.ClientError, asyncio.TimeoutError)

APOLOGY = N_(
    "Sorry, something went wrong on my side; it has been logged. "
    "Check the tracker before trying again."
)
MESSAGE_LIMIT = 2000  # Discord refuses longer content: the user would get no answer at all


def describe(interaction: discord.Interaction) -> str:
    """Name the command, channel and user of an interaction, for the log."""
    command = interaction.command.qualified_name if interaction.command else None
    custom_id = (interaction.data or {}).get("custom_id") if interaction.data else None
    what = f"/{command}" if command else f"component {custom_id!r}"
    return f"{what} in channel {interaction.channel_id} by user {interaction.user.id}"


def user_message(error: BaseException) -> str | None:
    """Return the one-line message for an error users may see, or None for a bug."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    # A transformer that raised our error is reported with our message, not discord.py's.
    if isinstance(error, app_commands.TransformerError) and error.__cause__ is not None:
        error = error.__cause__
    if isinstance(error, TablehandError):
        return error.message
    if isinstance(error, app_commands.CommandOnCooldown):
        return _("Slow down: try again in {seconds} s.", seconds=round(error.retry_after))
    if isinstance(error, app_commands.CheckFailure | app_commands.TransformerError):
        return str(error) or _("You cannot use this command here.")
    return None


def clickable(interaction: discord.Interaction, text: str) -> str:
    """Return a reply's text with the commands it names as clickable mentions."""
    commands = getattr(interaction.client, "help", None)
    return commands.linked(text, interaction.guild_id) if isinstance(commands, CommandIds) else text


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Answer the user ephemerally, in their language: the error's line, or an apology for a bug."""
    with speaking(user_language(interaction)):
        message = user_message(error)
        if message is None:
            log.error("unexpected error in %s", describe(interaction), exc_info=error)
            message = _(APOLOGY)
    message = clickable(interaction, unlinked(message))  # names and input: never a link
    if len(message) > MESSAGE_LIMIT:  # an error quoting a very long input
        message = message[: MESSAGE_LIMIT - 1] + "…"
    if interaction.client.is_closed():
        return  # shutting down: there is no session left to answer with
    try:
        if interaction.response.is_done():
            await interaction.followup.send(message, ephemeral=True)
        else:
            await interaction.response.send_message(message, ephemeral=True)
    except (discord.HTTPException, *NETWORK_ERRORS):
        log.warning("could not deliver an error reply for %s", describe(interaction))
