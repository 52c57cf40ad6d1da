"""/settings: the server's GM role, defense timeout and language (Manage Server) [COMMANDS.md]."""

from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import BadInput, NotAllowed
from bot.i18n import LANGUAGES, _, speaking
from bot.i18n.commands import server_language
from bot.store import GuildSettings
from bot.store.base import DEFAULT_DEFENSE_TIMEOUT

if TYPE_CHECKING:
    from bot.app import Tablehand

MIN_TIMEOUT, MAX_TIMEOUT = 5, 3600  # seconds, as GuildSettings allows
DISCORDS = "discord"  # /settings language's choice for "the server's language in Discord"


def settings_text(settings: GuildSettings, preferred_locale: object = None) -> str:
    """Return the server's settings, a line each."""
    if settings.gm_role_id is None:
        role = _(
            "GM role: none — GMs are whoever starts an encounter, and members with Manage Channels."
        )
    else:
        mention = f"<@&{settings.gm_role_id}>"
        role = _("GM role: {role} — its members have GM rights in every channel.", role=mention)
    if settings.defense_timeout == DEFAULT_DEFENSE_TIMEOUT:
        timeout = _(
            "Defense timeout: {seconds} s (default) — then a defender's default defense is used.",
            seconds=settings.defense_timeout,
        )
    else:
        timeout = _(
            "Defense timeout: {seconds} s — then a defender's default defense is used.",
            seconds=settings.defense_timeout,
        )
    spoken = LANGUAGES[server_language(settings.language, preferred_locale)]
    if settings.language is None:
        language = _(
            "Language of the table: {language} (the server's language in Discord).",
            language=spoken,
        )
    else:
        language = _("Language of the table: {language}.", language=spoken)
    return "\n".join((role, timeout, language))


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class ServerSettings(
    commands.GroupCog, group_name="settings", group_description="This server's Tablehand settings"
):
    """The server's settings; every command needs Manage Server."""

    def __init__(self, bot: "Tablehand") -> None:
        self.bot = bot
        super().__init__()

    async def _current(self, interaction: discord.Interaction, doing: str) -> GuildSettings:
        """Return the server's settings, or refuse a caller without Manage Server."""
        if interaction.guild_id is None:
            raise BadInput("Settings belong to a server: use /settings in a server channel.")
        if not interaction.permissions.manage_guild:
            raise NotAllowed("Only members with Manage Server can {doing}.", doing=doing)
        return await self.bot.store.settings(interaction.guild_id)

    async def _save(self, current: GuildSettings, **changes: object) -> GuildSettings:
        """Save changed settings; return them."""
        changed = GuildSettings.model_validate(current.model_dump() | changes)
        await self.bot.store.update_settings(changed)
        return changed

    def _public(
        self, interaction: discord.Interaction, settings: GuildSettings
    ) -> AbstractContextManager[str]:
        """Speak the table's language: a settings change is said to the whole channel."""
        return speaking(server_language(settings.language, interaction.guild_locale))

    @app_commands.command(name="gm_role", description="Give a role GM rights (no role: clear it)")
    @app_commands.describe(role="Members of this role are GMs in every channel (omit to clear)")
    async def gm_role(
        self, interaction: discord.Interaction, role: discord.Role | None = None
    ) -> None:
        current = await self._current(interaction, _("set the GM role"))
        if role is not None and role.is_default():
            raise BadInput("@everyone cannot be the GM role: pick a role only GMs have.")
        saved = await self._save(current, gm_role_id=role.id if role else None)
        with self._public(interaction, saved):
            if role:
                text = _(
                    "GM role set to {role}: its members have GM rights in every channel.",
                    role=role.mention,
                )
            else:
                text = _(
                    "GM role cleared: GMs are whoever starts an encounter, "
                    "and members with Manage Channels."
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
        current = await self._current(interaction, _("set the defense timeout"))
        if not MIN_TIMEOUT <= seconds <= MAX_TIMEOUT:  # Discord enforces it; an old client may not
            raise BadInput(
                "The defense timeout is {low} to {high} s (got {seconds}).",
                low=MIN_TIMEOUT,
                high=MAX_TIMEOUT,
                seconds=seconds,
            )
        saved = await self._save(current, defense_timeout=seconds)
        with self._public(interaction, saved):
            text = _(
                "Defense timeout set to {seconds} s: then a defender's default defense is used.",
                seconds=seconds,
            )
        await interaction.response.send_message(text)

    @app_commands.command(
        name="language", description="The language of the tracker and the table's messages"
    )
    @app_commands.describe(language="Replies to each user still follow their own Discord language")
    @app_commands.choices(
        language=[
            app_commands.Choice(name="The server's language in Discord", value=DISCORDS),
            *(app_commands.Choice(name=name, value=code) for code, name in LANGUAGES.items()),
        ]
    )
    async def language(self, interaction: discord.Interaction, language: str) -> None:
        current = await self._current(interaction, _("set the language"))
        if language != DISCORDS and language not in LANGUAGES:
            raise BadInput("Tablehand speaks no language {language!r}.", language=language)
        saved = await self._save(current, language=None if language == DISCORDS else language)
        with self._public(interaction, saved) as spoken:
            text = _(
                "The table speaks {language} now: the tracker, announcements and round "
                "summaries. Replies to each of you follow your own Discord language.",
                language=LANGUAGES[spoken],
            )
        await interaction.response.send_message(text)

    @app_commands.command(name="show", description="Show this server's settings (only to you)")
    async def show(self, interaction: discord.Interaction) -> None:
        current = await self._current(interaction, _("see the settings"))
        text = settings_text(current, interaction.guild_locale)
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: "Tablehand") -> None:
    await bot.add_cog(ServerSettings(bot))
