"""/help: what each command does and who may use it, with clickable mentions [COMMANDS.md]."""

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import help as guide
from bot.i18n import _
from bot.table import AUTOCOMPLETE_LIMIT

if TYPE_CHECKING:
    from bot.app import Tablehand

HELP_COLOUR = discord.Colour.blurple()


class Help(commands.Cog):
    """The command guide, read from the command tree and the rights table."""

    def __init__(self, bot: "Tablehand") -> None:
        self.bot = bot

    @app_commands.command(name="help", description="What each command does and who may use it")
    @app_commands.describe(command="A group or command, e.g. init or init next (default: all)")
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def help(
        self,
        interaction: discord.Interaction,
        command: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        every = guide.commands_of(self.bot.tree)
        in_dm = interaction.guild_id is None

        def mention(name: str) -> str:
            return self.bot.help.mention(name, interaction.guild_id)

        if command is None:
            title, text = _("Tablehand's commands"), guide.overview(every, mention, in_dm=in_dm)
        else:
            found = guide.find(every, command)
            if len(found) == 1 and found[0].name == " ".join(command.lstrip("/").split()).lower():
                title, text = f"/{found[0].name}", guide.command_page(found[0], mention)
            else:
                title, text = f"/{found[0].group}", guide.group_page(found, mention)
        embeds = [
            discord.Embed(title=title if n == 0 else None, description=page, colour=HELP_COLOUR)
            for n, page in enumerate(guide.pages(text)[:10])
        ]
        await interaction.response.send_message(embeds=embeds, ephemeral=True)

    @help.autocomplete("command")
    async def _command_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        every = guide.commands_of(self.bot.tree)
        names = sorted({c.group for c in every} | {c.name for c in every})
        typed = " ".join(current.lstrip("/").casefold().split())
        starts = [n for n in names if n.startswith(typed)]
        contains = [n for n in names if typed in n and n not in starts]
        return [
            app_commands.Choice(name=f"/{n}", value=n)
            for n in [*starts, *contains][:AUTOCOMPLETE_LIMIT]
        ]


async def setup(bot: "Tablehand") -> None:
    await bot.add_cog(Help(bot))
