"""The bare bot: discord.py and nothing else, the floor of the stack for benchmarks.

It registers a command schema (by default one `/ping`; or any list of command
payloads, e.g. what Tablehand synced: `server.synced_commands()`, or a tree's via
`schema_of(tree)`), so it has the same command names and options as the real bot,
and answers every command with one fixed ephemeral reply: no database, no rules.
Autocomplete gets no choices; a button click is acknowledged with a deferred update.

Run as a process against a loopback Discord (the same environment as `python -m bot`):

    DISCORD_TOKEN=sandbox-token DISCORD_API_BASE=… DISCORD_GATEWAY_URL=… \\
    TABLEHAND_GUILD_IDS=… [BARE_SCHEMA=commands.json] python -m bot.sandbox.bare
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sys
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

log = logging.getLogger("bot.sandbox.bare")

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

    reply: str = "ok"

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
        reply: str = "ok",
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


def _strip_ids(command: dict[str, Any]) -> dict[str, Any]:
    """Drop what the server added on sync, so a synced schema can be registered again."""
    drop = {"id", "application_id", "version", "guild_id"}
    return {k: v for k, v in command.items() if k not in drop}


async def _main(schema: list[dict[str, Any]] | None) -> None:
    from bot.sandbox.harness import point_discord_at

    point_discord_at(os.environ["DISCORD_API_BASE"], os.environ["DISCORD_GATEWAY_URL"])
    guild_ids = [int(g) for g in os.environ.get("TABLEHAND_GUILD_IDS", "").split(",") if g.strip()]
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
