"""`tablehand` / `python -m bot`: run the bot, or the terminal sandbox when no token is set."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
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
    bot = Tablehand(settings)
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
    sub.add_parser("sandbox", help="play in this terminal against a local loopback Discord")
    args = parser.parse_args(argv)
    try:
        settings = Settings.from_env()
    except SettingsError as error:
        print(f"tablehand: {error}", file=sys.stderr)
        return 2
    command = args.command or ("sandbox" if settings.sandbox else "run")
    if command == "sandbox":
        from bot.sandbox.terminal import run_sandbox

        return run_sandbox(settings)
    return run(settings)


if __name__ == "__main__":
    sys.exit(main())
