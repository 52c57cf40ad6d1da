"""`tablehand` / `python -m bot`: run the bot, sync its commands, or the terminal sandbox."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import logging
import os
import signal
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.app import Tablehand
    from bot.config import Settings

# discord.py, pydantic and the bot are imported inside the functions, after `main` has
# switched the collector off for the start-up (see there).

log = logging.getLogger("tablehand")


def configure_logging(settings: Settings) -> None:
    """Log to stderr at the configured level (discord.py never logs the token)."""
    if not (settings.sharded or settings.postgres):
        logging.basicConfig(
            level=settings.log_level_number,
            format="%(asctime)s %(levelname)-8s %(name)s: %(message)s",
            stream=sys.stderr,
        )
        return
    from bot.shards import ShardFilter

    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(ShardFilter())
    handler.setFormatter(
        logging.Formatter("%(asctime)s %(levelname)-8s [shard %(shard)s] %(name)s: %(message)s")
    )
    logging.basicConfig(level=settings.log_level_number, handlers=[handler])


def make_bot(settings: Settings) -> Tablehand:
    """Return the bot these settings ask for: sharded (and leased, on PostgreSQL) or plain."""
    from bot.app import Tablehand

    if settings.sharded or settings.postgres:
        # On PostgreSQL even one shard is leased: two processes of a rolling restart must
        # not both answer the same interactions.
        from bot.shards import ShardedTablehand

        return ShardedTablehand(settings, freeze_heap=True)
    return Tablehand(settings, freeze_heap=True)


def _token(settings: Settings) -> str:
    from bot.config import DISCORD_API_BASE, SettingsError

    if settings.discord_token is None:
        raise SettingsError("DISCORD_TOKEN is not set; `tablehand sandbox` runs without one.")
    if settings.api_base != DISCORD_API_BASE:
        from bot.app import point_discord_at

        point_discord_at(settings.api_base, settings.gateway_url)
    return settings.discord_token.get_secret_value()


async def sync(settings: Settings) -> str:
    """Register the command tree with Discord once (after an upgrade); return what was done."""
    import discord

    from bot.app import Tablehand
    from bot.config import SettingsError
    from bot.store import MemoryStore

    token = _token(settings)
    # No gateway and no database: the cogs are loaded into the tree, and the tree is sent.
    bot = Tablehand(settings, store=MemoryStore())
    async with bot:
        try:
            await bot.login(token)
        except discord.LoginFailure:
            raise SettingsError("Discord refused DISCORD_TOKEN; check the bot's token.") from None
        synced = await bot.sync_commands()
    where = (
        f"to server(s) {', '.join(map(str, settings.guild_ids))}"
        if settings.guild_ids
        else "globally"
    )
    return f"synced {len(synced)} commands {where}"


async def serve(settings: Settings) -> None:
    """Connect to Discord (or the configured loopback) and run until stopped."""
    import discord

    from bot import memprobe
    from bot.config import SettingsError

    token = _token(settings)
    bot = make_bot(settings)
    # A process manager stops services with SIGTERM: close the bot as cleanly as on Ctrl-C.
    loop = asyncio.get_running_loop()
    with contextlib.suppress(NotImplementedError):  # no signal handlers on Windows
        loop.add_signal_handler(signal.SIGTERM, lambda: asyncio.ensure_future(bot.close()))
    with memprobe.watching():  # TABLEHAND_TRACEMALLOC: where the memory goes, on request
        async with bot:
            try:
                await bot.start(token)
            except discord.LoginFailure:
                raise SettingsError(
                    "Discord refused DISCORD_TOKEN; check the bot's token."
                ) from None


def run(settings: Settings) -> int:
    """Run the bot until interrupted; start-up problems end in one line, not a traceback."""
    from bot.errors import TablehandError

    configure_logging(settings)
    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(serve(settings))
    except TablehandError as error:
        print(f"tablehand: {error}", file=sys.stderr)
        return 2
    return 0


def sync_commands(settings: Settings) -> int:
    """Run `tablehand sync-commands`: one line saying what was synced, or why not."""
    from bot.errors import TablehandError

    configure_logging(settings)
    try:
        done = asyncio.run(sync(settings))
    except TablehandError as error:
        print(f"tablehand: {error}", file=sys.stderr)
        return 2
    print(f"tablehand: {done}")
    return 0


def main(argv: list[str] | None = None) -> int:
    skip_pydantic_plugins()
    # Start-up builds some 150,000 objects that live as long as the process (modules,
    # classes, the catalogue, the command tree) and next to no garbage: collecting while
    # they are built walked them again and again (a tenth of a second and more). The bot
    # freezes them once it is set up and switches the collector back on then
    # (Tablehand.setup_hook); every other command switches it back on here.
    gc.disable()
    try:
        return _main(argv)
    finally:
        gc.enable()


def skip_pydantic_plugins() -> None:
    """Tell pydantic not to look for plugins, unless the environment says otherwise."""
    # Its first validator scanned every installed distribution's entry points for plugins
    # (some 13 million instructions of each start); the bot uses none. The variable is
    # pydantic's own setting: whoever wants a plugin sets it ("" for all, or names to skip).
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")


def _main(argv: list[str] | None) -> int:
    from bot.config import Settings, SettingsError

    parser = argparse.ArgumentParser(
        prog="tablehand",
        description="Tablehand: initiative, Grit and attacks for live table play on Discord.",
    )
    sub = parser.add_subparsers(dest="command", metavar="{run,sync-commands,sandbox}")
    sub.add_parser("run", help="connect to Discord with DISCORD_TOKEN")
    sub.add_parser(
        "sync-commands",
        help="register the slash commands with Discord (once per upgrade, before `run`)",
    )
    sandbox = sub.add_parser(
        "sandbox", help="play in this terminal against a local loopback Discord"
    )
    sandbox.add_argument("--db", help="the sandbox's database (default: tablehand-sandbox.db)")
    sandbox.add_argument(
        "--as", dest="user", default="gm", help="who you are at first (default: gm)"
    )
    sandbox.add_argument("--channel", default="table-1", help="where you start (default: table-1)")
    sandbox.add_argument(
        "--locale",
        help="the server's and everyone's Discord language, e.g. de (default: en-US)",
    )
    sandbox.add_argument(
        "--extension",
        action="append",
        default=[],
        help="load this extension too, e.g. a test cog (repeatable)",
    )
    args = parser.parse_args(argv)
    try:
        settings = Settings.from_env()
    except SettingsError as error:
        print(f"tablehand: {error}", file=sys.stderr)
        return 2
    command = args.command or ("sandbox" if settings.sandbox else "run")
    if command != "run":
        gc.enable()
    if command == "sandbox":
        from bot.sandbox.terminal import run_sandbox

        return run_sandbox(
            settings,
            extensions=getattr(args, "extension", []),
            db_path=getattr(args, "db", None),
            user=getattr(args, "user", "gm"),
            channel=getattr(args, "channel", "table-1"),
            locale=getattr(args, "locale", None),
        )
    if command == "sync-commands":
        return sync_commands(settings)
    return run(settings)


if __name__ == "__main__":
    sys.exit(main())
