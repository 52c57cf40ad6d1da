"""`tablehand` / `python -m bot`: run the bot, or the terminal sandbox when no token is set."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys

import discord

from bot.config import DISCORD_API_BASE, Settings, SettingsError
from bot.errors import TablehandError

log = logging.getLogger("tablehand")


def configure_logging(settings: Settings) -> None:
    """Log to stderr at the configured level (discord.py never logs the token)."""
    logging.basicConfig(
        level=settings.log_level_number,
        format="%(asctime)s %(levelname)-8s %(name)s: %(message)s",
        stream=sys.stderr,
    )


async def serve(settings: Settings) -> None:
    """Connect to Discord (or the configured loopback) and run until stopped."""
    from bot.app import Tablehand, point_discord_at

    if settings.discord_token is None:
        raise SettingsError("DISCORD_TOKEN is not set; `tablehand sandbox` runs without one.")
    if settings.api_base != DISCORD_API_BASE:
        point_discord_at(settings.api_base, settings.gateway_url)
    bot = Tablehand(settings, freeze_heap=True)
    # A process manager stops services with SIGTERM: close the bot as cleanly as on Ctrl-C.
    loop = asyncio.get_running_loop()
    with contextlib.suppress(NotImplementedError):  # no signal handlers on Windows
        loop.add_signal_handler(signal.SIGTERM, lambda: asyncio.ensure_future(bot.close()))
    async with bot:
        try:
            await bot.start(settings.discord_token.get_secret_value())
        except discord.LoginFailure:
            raise SettingsError("Discord refused DISCORD_TOKEN; check the bot's token.") from None


def run(settings: Settings) -> int:
    """Run the bot until interrupted; start-up problems end in one line, not a traceback."""
    configure_logging(settings)
    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(serve(settings))
    except TablehandError as error:
        print(f"tablehand: {error}", file=sys.stderr)
        return 2
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="tablehand",
        description="Tablehand: initiative, Grit and attacks for live table play on Discord.",
    )
    sub = parser.add_subparsers(dest="command", metavar="{run,sandbox}")
    sub.add_parser("run", help="connect to Discord with DISCORD_TOKEN")
    sandbox = sub.add_parser(
        "sandbox", help="play in this terminal against a local loopback Discord"
    )
    sandbox.add_argument("--db", help="the sandbox's database (default: tablehand-sandbox.db)")
    sandbox.add_argument(
        "--as", dest="user", default="gm", help="who you are at first (default: gm)"
    )
    sandbox.add_argument("--channel", default="table-1", help="where you start (default: table-1)")
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
    if command == "sandbox":
        from bot.sandbox.terminal import run_sandbox

        return run_sandbox(
            settings,
            extensions=getattr(args, "extension", []),
            db_path=getattr(args, "db", None),
            user=getattr(args, "user", "gm"),
            channel=getattr(args, "channel", "table-1"),
        )
    return run(settings)


if __name__ == "__main__":
    sys.exit(main())
