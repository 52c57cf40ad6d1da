"""/settings: the server's GM role and defense timeout (Manage Server) [COMMANDS.md /settings]."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import BadInput, NotAllowed
from bot.store import GuildSettings
from bot.store.base import DEFAULT_DEFENSE_TIMEOUT

if TYPE_CHECKING:
    from bot.app import Tablehand

MIN_TIMEOUT, MAX_TIMEOUT = 5, 3600  # seconds, as GuildSettings allows


def settings_text(settings: GuildSettings) -> str:
    """Return the server's settings in two lines."""
    role = (
        "none — GMs are whoever starts an encounter, and members with Manage Channels"
        if settings.gm_role_id is None
        else f"<@&{settings.gm_role_id}> — its members have GM rights in every channel"
    )
    default = " (default)" if settings.defense_timeout == DEFAULT_DEFENSE_TIMEOUT else ""
    return (
        f"GM role: {role}.\n"
        f"Defense timeout: {settings.defense_timeout} s{default} — then a defender's "
        "default defense is used."
    )


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class ServerSettings(
    commands.GroupCog, group_name="settings", group_description="This server's Tablehand settings"
):
    """The server's settings; every command needs Manage Server."""

    def __init__(self, bot: Tablehand) -> None:
        self.bot = bot
        super().__init__()

    async def _current(self, interaction: discord.Interaction, doing: str) -> GuildSettings:
        """Return the server's settings, or refuse a caller without Manage Server."""
        if interaction.guild_id is None:
            raise BadInput("Settings belong to a server: use /settings in a server channel.")
        if not interaction.permissions.manage_guild:
            raise NotAllowed(f"Only members with Manage Server can {doing}.")
        return await self.bot.store.settings(interaction.guild_id)

    @app_commands.command(name="gm_role", description="Give a role GM rights (no role: clear it)")
    @app_commands.describe(role="Members of this role are GMs in every channel (omit to clear)")
    async def gm_role(
        self, interaction: discord.Interaction, role: discord.Role | None = None
    ) -> None:
        current = await self._current(interaction, "set the GM role")
        if role is not None and role.is_default():
            raise BadInput("@everyone cannot be the GM role: pick a role only GMs have.")
        await self.bot.store.update_settings(
            GuildSettings.model_validate(
                current.model_dump() | {"gm_role_id": role.id if role else None}
            )
        )
        text = (
            f"GM role set to {role.mention}: its members have GM rights in every channel."
            if role
            else "GM role cleared: GMs are whoever starts an encounter, and members with Manage Channels."
        )
        await interaction.response.send_message(text)

    @app_commands.command(
        name="defense_timeout", description="Seconds a defender has to choose a defense"
    )
    @app_commands.describe(seconds=f"{MIN_TIMEOUT} to {MAX_TIMEOUT}")
    async def defense_timeout(
        self,
        interaction: discord.Interaction,
        seconds: app_commands.Range[int, MIN_TIMEOUT, MAX_TIMEOUT],
    ) -> None:
        current = await self._current(interaction, "set the defense timeout")
        if not MIN_TIMEOUT <= seconds <= MAX_TIMEOUT:  # Discord enforces it; an old client may not
            raise BadInput(
                f"The defense timeout is {MIN_TIMEOUT} to {MAX_TIMEOUT} s (got {seconds})."
            )
        await self.bot.store.update_settings(
            GuildSettings.model_validate(current.model_dump() | {"defense_timeout": seconds})
        )
        await interaction.response.send_message(
            f"Defense timeout set to {seconds} s: then a defender's default defense is used."
        )

    @app_commands.command(name="show", description="Show this server's settings (only to you)")
    async def show(self, interaction: discord.Interaction) -> None:
        current = await self._current(interaction, "see the settings")
        await interaction.response.send_message(settings_text(current), ephemeral=True)


async def setup(bot: Tablehand) -> None:
    await bot.add_cog(ServerSettings(bot))
