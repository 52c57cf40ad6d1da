"""`python -m bot.sandbox`: run the loopback Discord alone, e.g. for a bot in another process.

It prints the environment that points a bot at it:

    $ python -m bot.sandbox --port 8765 --tables 100 --rate-limits
    DISCORD_TOKEN=sandbox-token DISCORD_API_BASE=http://127.0.0.1:8765/api/v10 ...
    $ env $(that line) python -m bot sync-commands && env $(that line) python -m bot run

With `--guilds 4` it has four guilds, spread over shards: run shard processes against it
(`TABLEHAND_SHARD_COUNT`, `TABLEHAND_SHARD_IDS`, `TABLEHAND_DATABASE_URL`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys

from bot.sandbox.harness import SANDBOX_TOKEN
from bot.sandbox.server import LoopbackDiscord


async def serve(port: int, tables: int, rate_limits: bool, guilds: int = 1) -> None:
    """Run the server until SIGINT or SIGTERM."""
    async with LoopbackDiscord(
        port=port, tables=tables, rate_limits=rate_limits, guilds=guilds
    ) as server:
        env = {
            "DISCORD_TOKEN": SANDBOX_TOKEN,
            "DISCORD_API_BASE": server.api_base,
            "DISCORD_GATEWAY_URL": server.gateway_url,
            "TABLEHAND_GUILD_IDS": ",".join(str(g) for g in server.guilds),
        }
        print(" ".join(f"{k}={v}" for k, v in env.items()), flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, stop.set)
        await stop.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.sandbox", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "--port", type=int, default=0, help="port on 127.0.0.1 (default: any free one)"
    )
    parser.add_argument(
        "--tables", type=int, default=3, help="how many table-N channels (default 3)"
    )
    parser.add_argument(
        "--guilds", type=int, default=1, help="how many guilds, spread over shards (default 1)"
    )
    parser.add_argument(
        "--rate-limits", action="store_true", help="send Discord-like rate-limit headers"
    )
    parser.add_argument("--log-level", default="INFO")
    args = parser.parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(), stream=sys.stderr)
    asyncio.run(serve(args.port, args.tables, args.rate_limits, args.guilds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
