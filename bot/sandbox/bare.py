"""The bare bots: discord.py and nothing else, the floors of the stack for benchmarks.

The **bare bot** registers a command schema (by default one `/ping`; or any list of
command payloads, e.g. what Tablehand synced: `server.synced_commands()`, or a tree's
via `schema_of(tree)`), so it has the same command names and options as the real bot,
and answers every command with one fixed ephemeral reply: no database, no rules, and
no command lookup either (its tree answers before discord.py finds the command).

The **bare slash bot** (`BARE_TREE=tablehand`) is the floor every slash-command bot
pays: Tablehand's own command tree — its cogs' command definitions, loaded into a bot
that never connects and moved over — with every callback replaced by the same fixed
reply. discord.py looks the command up, checks it and converts its arguments exactly
as for Tablehand; autocomplete is answered with no choices after the same look-up, and
the defense click goes through a `DynamicItem` as Tablehand's buttons do.

In both, a button click is acknowledged with a deferred update.

Run as a process against a loopback Discord (the same environment as `python -m bot`):

    DISCORD_TOKEN=sandbox-token DISCORD_API_BASE=… DISCORD_GATEWAY_URL=… \\
    TABLEHAND_GUILD_IDS=… [BARE_SCHEMA=commands.json | BARE_TREE=tablehand] \\
    python -m bot.sandbox.bare
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import os
import sys
from pathlib import Path
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands

log = logging.getLogger("bot.sandbox.bare")

FIXED_REPLY = "ok"
SLASH_CLICK = "bench:defense"  # the custom_id the benchmark's defender clicks on a floor's reply
WITH_BUTTON = frozenset({"attack", "use"})  # the slash floor's replies that carry that button
PING_SCHEMA: list[dict[str, Any]] = [
    {"name": "ping", "description": "Answer with a fixed reply.", "type": 1, "options": []}
]


def schema_of(
    tree: app_commands.CommandTree, guild: discord.abc.Snowflake | None = None
) -> list[dict[str, Any]]:
    """Return the command payloads a tree would sync (global ones when no guild is given)."""
    return [command.to_dict(tree) for command in tree.get_commands(guild=guild)]


class BareTree(app_commands.CommandTree):
    """A tree that skips command lookup and answers every interaction the same way."""

    reply: str = FIXED_REPLY

    async def _call(self, interaction: discord.Interaction) -> None:
        try:
            if interaction.type is discord.InteractionType.autocomplete:
                await interaction.response.autocomplete([])
            else:
                await interaction.response.send_message(self.reply, ephemeral=True)
        except discord.HTTPException as error:
            log.warning("bare bot could not answer interaction %s: %s", interaction.id, error)


class BareBot(commands.Bot):
    """Register a schema, answer every command with one fixed ephemeral reply."""

    def __init__(
        self,
        schema: list[dict[str, Any]] | None = None,
        *,
        guild_ids: list[int] | None = None,
        reply: str = FIXED_REPLY,
        **options: Any,
    ) -> None:
        options.setdefault("intents", discord.Intents(guilds=True))
        options.setdefault("chunk_guilds_at_startup", False)
        super().__init__(
            command_prefix=commands.when_mentioned, tree_cls=BareTree, help_command=None, **options
        )
        self.tree.reply = reply  # type: ignore[attr-defined]
        self.schema = [_strip_ids(c) for c in (schema or PING_SCHEMA)]
        self.guild_ids = list(guild_ids or [])
        self.clicks = 0

    async def setup_hook(self) -> None:
        assert self.application_id is not None
        if not self.guild_ids:
            await self.http.bulk_upsert_global_commands(self.application_id, payload=self.schema)
        for guild_id in self.guild_ids:
            await self.http.bulk_upsert_guild_commands(
                self.application_id, guild_id, payload=self.schema
            )

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is discord.InteractionType.component:
            self.clicks += 1
            await interaction.response.defer()


async def tablehand_commands() -> list[app_commands.Command | app_commands.Group]:
    """Return Tablehand's top-level commands, loaded from `cogs/` into a bot that never connects."""
    from bot.app import Tablehand, cog_extensions
    from bot.config import Settings
    from bot.store import MemoryStore

    donor = Tablehand(Settings(discord_token="floor", guild_ids=[1]), store=MemoryStore())
    await donor.store.open()
    try:
        for extension in cog_extensions():
            await donor.load_extension(extension)
        return donor.tree.get_commands()
    finally:
        await donor.close()


async def _fixed_reply(*args: Any, **options: Any) -> None:
    """Answer any command with the fixed reply (the interaction is the last positional).

    An attack's (and /use's) reply carries one button, as Tablehand's prompt does: its
    defender clicks it.
    """
    interaction: discord.Interaction = args[-1]
    command = interaction.command
    if command is not None and command.qualified_name in WITH_BUTTON:
        view = discord.ui.View(timeout=None)
        view.add_item(FloorClick())
        await interaction.response.send_message(FIXED_REPLY, view=view)
    else:
        await interaction.response.send_message(FIXED_REPLY, ephemeral=True)


async def _no_choices(interaction: discord.Interaction, current: Any) -> list[Any]:
    return []


def with_fixed_replies(
    commands_: list[app_commands.Command | app_commands.Group],
) -> list[app_commands.Command | app_commands.Group]:
    """Replace every command's body by the fixed reply, keeping its parameters' conversion."""
    for command in commands_:
        leaves = command.walk_commands() if isinstance(command, app_commands.Group) else [command]
        for leaf in leaves:
            if not isinstance(leaf, app_commands.Command):
                continue
            leaf._callback = _fixed_reply  # type: ignore[assignment]
            leaf.binding = None  # no cog: the cog's own checks are the bot's work, not the floor's
            leaf.checks = []
            for param in leaf._params.values():
                if param.autocomplete is not None:
                    param.autocomplete = _no_choices
    return commands_


class FloorClick(discord.ui.DynamicItem[discord.ui.Button], template=SLASH_CLICK):
    """The benchmark's defense click on the slash floor: found as Tablehand's buttons are."""

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="Defend", custom_id=SLASH_CLICK))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any, /
    ) -> FloorClick:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()


class SlashBot(commands.Bot):
    """Tablehand's command tree with fixed replies: discord.py's dispatch and conversion only."""

    def __init__(
        self,
        tree_commands: list[app_commands.Command | app_commands.Group],
        *,
        guild_ids: list[int] | None = None,
        **options: Any,
    ) -> None:
        options.setdefault("intents", discord.Intents(guilds=True))
        options.setdefault("chunk_guilds_at_startup", False)
        super().__init__(command_prefix=commands.when_mentioned, help_command=None, **options)
        self.guild_ids = list(guild_ids or [])
        for command in with_fixed_replies(tree_commands):
            self.tree.add_command(command)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(FloorClick)
        # Tablehand freezes its start-up heap; so does the floor, whose heap also holds
        # the cogs its commands came from.
        gc.collect()
        gc.freeze()
        if not self.guild_ids:
            await self.tree.sync()
        for guild_id in self.guild_ids:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)


def _strip_ids(command: dict[str, Any]) -> dict[str, Any]:
    """Drop what the server added on sync, so a synced schema can be registered again."""
    drop = {"id", "application_id", "version", "guild_id"}
    return {k: v for k, v in command.items() if k not in drop}


def point_at(api_base: str, gateway_url: str) -> None:
    """Send discord.py's REST calls and gateway connection to these addresses."""
    # As bot.app.point_discord_at does, without importing Tablehand: the floor's start-up
    # is Python, discord.py and the gateway (importing bot.app took ~0.9 s of its 1.8 s).
    discord.http.Route.BASE = api_base.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


async def _main(schema: list[dict[str, Any]] | None) -> None:
    point_at(os.environ["DISCORD_API_BASE"], os.environ["DISCORD_GATEWAY_URL"])
    guild_ids = [int(g) for g in os.environ.get("TABLEHAND_GUILD_IDS", "").split(",") if g.strip()]
    if os.environ.get("BARE_TREE") == "tablehand":
        bot: commands.Bot = SlashBot(await tablehand_commands(), guild_ids=guild_ids)
    else:
        bot = BareBot(schema, guild_ids=guild_ids)
    async with bot:
        await bot.start(os.environ.get("DISCORD_TOKEN", "sandbox-token"))


def main() -> int:
    logging.basicConfig(level=logging.INFO, stream=sys.stderr)
    schema_path = os.environ.get("BARE_SCHEMA")
    schema = json.loads(Path(schema_path).read_text()) if schema_path else None
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_main(schema))
    return 0


if __name__ == "__main__":
    sys.exit(main())
