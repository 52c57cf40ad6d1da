"""A test-only extension: `/probe …` commands that exercise each sandbox route.

Loaded next to the real cogs (`Tablehand(extensions=[*cog_extensions(), "tests.e2e.probe_cog"])`)
or into `ProbeBot`, a plain discord.py bot with the same error contract.
"""

from __future__ import annotations

import contextlib
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import TablehandError

WORDS = ["telekinesis", "telepathy", "teleport", "fireball", "frost", "shield"]


class CounterView(discord.ui.View):
    """`Add` edits the message in its response (type 7); `Done` defers (type 6) then edits."""

    def __init__(self, owner_id: int) -> None:
        super().__init__(timeout=60)
        self.owner_id = owner_id
        self.count = 0

    @discord.ui.button(label="Add", style=discord.ButtonStyle.primary, custom_id="probe:add")
    async def add(
        self, interaction: discord.Interaction, button: discord.ui.Button[CounterView]
    ) -> None:
        self.count += 1
        await interaction.response.edit_message(
            content=f"Count: {self.count} (last: {interaction.user.name})", view=self
        )

    @discord.ui.button(label="Done", style=discord.ButtonStyle.secondary, custom_id="probe:done")
    async def done(
        self, interaction: discord.Interaction, button: discord.ui.Button[CounterView]
    ) -> None:
        if interaction.user.id != self.owner_id:
            await interaction.response.send_message("This is not for you.", ephemeral=True)
            return
        await interaction.response.defer()
        for item in self.children:
            if isinstance(item, discord.ui.Button):
                item.disabled = True
        await interaction.edit_original_response(content=f"Final count: {self.count}", view=self)
        self.stop()


class NoteModal(discord.ui.Modal, title="Leave a note"):
    """A one-field form; submitting it answers with what was typed."""

    note: discord.ui.TextInput[NoteModal] = discord.ui.TextInput(
        label="Note", custom_id="probe:note"
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"noted {self.note.value}")


class Probe(commands.GroupCog, group_name="probe", group_description="Sandbox probes (tests only)"):
    """Commands that each exercise one kind of Discord traffic."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.trackers: dict[int, discord.Message] = {}

    @app_commands.command(name="ping", description="Answer pong in the channel.")
    async def ping(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong")

    @app_commands.command(name="fail", description="Raise a TablehandError.")
    async def fail(self, interaction: discord.Interaction) -> None:
        raise TablehandError("The probe failed on purpose.")

    @app_commands.command(name="bug", description="Fail like a bug would (a plain exception).")
    async def bug(self, interaction: discord.Interaction) -> None:
        raise RuntimeError("an unexpected failure inside a command")

    @app_commands.command(name="counter", description="Post a counter with buttons.")
    async def counter(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Count: 0", view=CounterView(interaction.user.id))

    @app_commands.command(name="slow", description="Defer, then answer with a followup.")
    async def slow(self, interaction: discord.Interaction, private: bool = False) -> None:
        await interaction.response.defer(thinking=True, ephemeral=private)
        await interaction.followup.send("done after thinking", ephemeral=private)

    @app_commands.command(
        name="tracker", description="Post and pin a tracker, or edit the pinned one."
    )
    async def tracker(self, interaction: discord.Interaction, text: str = "Round 1") -> None:
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel | discord.Thread)
        embed = discord.Embed(title="Tracker", description=text)
        old = self.trackers.get(channel.id)
        if old is not None:
            try:
                self.trackers[channel.id] = await old.edit(embed=embed)
            except discord.NotFound:
                old = None
        if old is None:
            message = await channel.send(embed=embed)
            await message.pin()
            self.trackers[channel.id] = message
        pins = [m async for m in channel.pins()]
        await interaction.response.send_message(f"{len(pins)} pinned", ephemeral=True)

    @app_commands.command(name="echo", description="Echo typed options back.")
    @app_commands.describe(text="What to say", who="Someone to name", times="How often")
    async def echo(
        self,
        interaction: discord.Interaction,
        text: str,
        who: discord.Member | None = None,
        role: discord.Role | None = None,
        where: discord.TextChannel | discord.Thread | None = None,
        times: app_commands.Range[int, 1, 5] = 1,
        scale: float = 1.0,
        loud: bool = False,
        mode: Literal["fortune", "finesse"] = "fortune",
    ) -> None:
        parts = [" ".join([text] * times), f"scale={scale}", f"loud={loud}", f"mode={mode}"]
        if who is not None:
            parts.append(f"who={who.name}")
        if role is not None:
            parts.append(f"role={role.name}")
        if where is not None:
            parts.append(f"where={where.name}")
        await interaction.response.send_message(" ".join(parts))

    @app_commands.command(name="edits", description="Post a message and edit it several times.")
    async def edits(
        self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 20]
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel | discord.Thread)
        message = await channel.send("edit 0")
        for n in range(1, count + 1):
            message = await message.edit(content=f"edit {n}")
        await interaction.followup.send(f"edited {count} times", ephemeral=True)

    @app_commands.command(name="pick", description="Pick a word, with suggestions.")
    async def pick(self, interaction: discord.Interaction, name: str) -> None:
        await interaction.response.send_message(f"picked {name}")

    @pick.autocomplete("name")
    async def pick_name(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [
            app_commands.Choice(name=w, value=w) for w in WORDS if w.startswith(current.lower())
        ]

    @app_commands.command(name="unknown", description="Call a route the sandbox lacks.")
    async def unknown(self, interaction: discord.Interaction) -> None:
        try:
            await self.bot.http.request(discord.http.Route("GET", "/probe/no-such-route"))
        except discord.HTTPException as error:
            await interaction.response.send_message(
                f"{error.status} {error.code} {error.text}", ephemeral=True
            )

    @app_commands.command(name="form", description="Open a form.")
    async def form(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NoteModal())

    @app_commands.command(name="whoami", description="Describe the invoker's rights here.")
    async def whoami(self, interaction: discord.Interaction) -> None:
        member = interaction.user
        assert isinstance(member, discord.Member)
        perms, app = interaction.permissions, interaction.app_permissions
        roles = ",".join(r.name for r in member.roles if not r.is_default()) or "-"
        await interaction.response.send_message(
            f"{member.name} roles={roles} manage_channels={perms.manage_channels} "
            f"manage_guild={perms.manage_guild} bot_can_pin={app.pin_messages} "
            f"channel={interaction.channel.name} locale={interaction.locale.value}",
            ephemeral=True,
        )

    @app_commands.command(name="mention", description="Echo text with a mention, pinging no one.")
    async def mention(self, interaction: discord.Interaction, who: discord.Member) -> None:
        await interaction.response.send_message(
            f"{who.mention} was named", allowed_mentions=discord.AllowedMentions.none()
        )


class ProbeTree(app_commands.CommandTree):
    """The error contract of the real bot: project errors become ephemeral one-liners."""

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        message = (
            original.message
            if isinstance(original, TablehandError)
            else "Sorry, something went wrong."
        )
        with contextlib.suppress(discord.HTTPException):  # the reply itself may be refused
            if interaction.response.is_done():
                await interaction.followup.send(message, ephemeral=True)
            else:
                await interaction.response.send_message(message, ephemeral=True)


class ProbeBot(commands.Bot):
    """A plain discord.py bot with only the probe cog, synced to the given guilds."""

    def __init__(self, guild_ids: list[int]) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents(guilds=True, guild_messages=True),
            tree_cls=ProbeTree,
            help_command=None,
            chunk_guilds_at_startup=False,
        )
        self.guild_ids = guild_ids

    async def setup_hook(self) -> None:
        await self.load_extension(__name__)
        for guild_id in self.guild_ids:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Probe(bot))
