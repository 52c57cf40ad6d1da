"""Where a floor interaction's time goes: the latency of the bare slash bot, in parts.

    .venv/bin/python -m tests.bench.breakdown --rate 200 --duration 10
    .venv/bin/python -m tests.bench.breakdown --rate 50 --duration 10 --autocomplete

The same loopback Discord, generator and bare slash bot as `--parts slash`, with time
stamps taken on both sides of the wire (both processes read the same monotonic clock):

  server: dispatched (the latency's start) → the frame written to the socket
  bot:    frame handed to discord.py's gateway → INTERACTION_CREATE parsed → the command
          tree's task runs → the callback request made (aiohttp) → its bytes on the socket
  server: first bytes of the request read → the handler stamps it (the latency's end)

The bot process is the bare slash bot run through this module (`bot` mode), which wraps
those discord.py and aiohttp functions to note the time and then runs `bot.sandbox.bare`
unchanged; the stamps cost the bot a few microseconds. The bench itself never runs this.
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

_ID = re.compile(rb"/interactions/(\d+)/")


# The bot process ---------------------------------------------------------------------


def _bot_mode(out: str) -> int:
    """Run the bare slash bot with stamps on its gateway, dispatch and HTTP client."""
    import aiohttp
    import discord
    from discord import app_commands
    from discord.gateway import DiscordWebSocket
    from discord.state import ConnectionState

    from bot.sandbox import bare

    now = time.monotonic
    stamps: dict[str, dict[str, float]] = {}

    def note(interaction_id: str, what: str) -> None:
        stamps.setdefault(interaction_id, {}).setdefault(what, now())

    received_message = DiscordWebSocket.received_message

    async def on_frame(self: Any, msg: Any, /) -> None:
        at = now()
        if isinstance(msg, str) and '"INTERACTION_CREATE"' in msg:
            found = re.search(r'"d": ?\{"id": ?"(\d+)"', msg)
            if found:
                stamps.setdefault(found.group(1), {})["frame"] = at
        await received_message(self, msg)

    parse = ConnectionState.parse_interaction_create

    def on_parsed(self: Any, data: Any) -> None:
        note(data["id"], "parsed")
        parse(self, data)

    call = app_commands.CommandTree._call

    async def on_call(self: Any, interaction: discord.Interaction) -> None:
        note(str(interaction.id), "task")
        await call(self, interaction)

    request = aiohttp.ClientSession._request

    async def on_request(self: Any, method: str, url: Any, *args: Any, **kwargs: Any) -> Any:
        found = _ID.search(str(url).encode())
        if found:
            note(found.group(1).decode(), "request")
        return await request(self, method, url, *args, **kwargs)

    from asyncio import selector_events

    transport = selector_events._SelectorSocketTransport
    write, writelines = transport.write, transport.writelines

    def on_write(self: Any, data: Any) -> None:
        head = bytes(data[:120]) if data[:5] == b"POST " else b""
        found = _ID.search(head) if head else None
        if found:
            note(found.group(1).decode(), "written")
        write(self, data)

    def on_writelines(self: Any, chunks: Any) -> None:
        chunks = list(chunks)
        first = bytes(chunks[0][:120]) if chunks else b""
        found = _ID.search(first) if first[:5] == b"POST " else None
        if found:
            note(found.group(1).decode(), "written")
        writelines(self, chunks)

    DiscordWebSocket.received_message = on_frame  # type: ignore[method-assign]
    ConnectionState.parse_interaction_create = on_parsed  # type: ignore[method-assign]
    app_commands.CommandTree._call = on_call  # type: ignore[method-assign]
    aiohttp.ClientSession._request = on_request  # type: ignore[method-assign]
    transport.write = on_write  # type: ignore[method-assign]
    transport.writelines = on_writelines  # type: ignore[method-assign]
    atexit.register(lambda: Path(out).write_text(json.dumps(stamps)))
    return bare.main()


# The bench process -------------------------------------------------------------------


def _server_stamps() -> dict[str, dict[str, float]]:
    """Stamp, in this process, when each callback request's first bytes are read."""
    from aiohttp import web_protocol

    stamps: dict[str, dict[str, float]] = {}
    loop = asyncio.get_running_loop()
    data_received = web_protocol.RequestHandler.data_received

    def on_data(self: Any, data: bytes) -> None:
        if data[:5] == b"POST ":
            found = _ID.search(data[:120])
            if found:
                stamps.setdefault(found.group(1).decode(), {}).setdefault("read", loop.time())
        data_received(self, data)

    web_protocol.RequestHandler.data_received = on_data  # type: ignore[method-assign]
    return stamps


STEPS = (
    ("created", "sent", "server: payload built, JSON, the frame written"),
    ("sent", "frame", "wire + the bot's loop wakes, aiohttp reads the frame"),
    ("frame", "parsed", "bot: JSON parse, discord.py's gateway routing"),
    ("parsed", "task", "bot: Interaction built, the tree's task starts"),
    ("task", "request", "bot: command look-up, conversion, the fixed reply built"),
    ("request", "written", "bot: aiohttp client sends the request"),
    ("written", "read", "wire + the server's loop wakes, reads the request"),
    ("read", "received", "server: aiohttp parses it, the handler starts"),
)


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, int(q * len(ordered) / 100 + 0.999) - 1))]


def report(rows: list[dict[str, float]]) -> str:
    """Return each step's p50/p90/p99 and its share of the slowest 1 % of interactions."""
    total = [r["received"] - r["created"] for r in rows]
    cut = _pct(total, 99)
    slow = [r for r, t in zip(rows, total, strict=True) if t >= cut]
    lines = [
        f"{len(rows)} interactions; total p50 {_pct(total, 50) * 1e3:.2f} ms, "
        f"p90 {_pct(total, 90) * 1e3:.2f} ms, p99 {cut * 1e3:.2f} ms",
        f"{'step':<58} {'p50':>7} {'p90':>7} {'p99':>7} {'mean':>7} {'slow 1% mean':>12}",
    ]
    for a, b, label in STEPS:
        values = [(r[b] - r[a]) * 1e3 for r in rows]
        slow_mean = sum((r[b] - r[a]) * 1e3 for r in slow) / max(1, len(slow))
        lines.append(
            f"{label:<58} {_pct(values, 50):7.3f} {_pct(values, 90):7.3f} "
            f"{_pct(values, 99):7.3f} {sum(values) / len(values):7.3f} {slow_mean:12.3f}"
        )
    return "\n".join(lines)


async def _bench(args: argparse.Namespace) -> str:
    from bot.sandbox.harness import BotProcess
    from bot.sandbox.server import LoopbackDiscord
    from tests.bench.load import run_load
    from tests.bench.mix import Catalogue, Mix
    from tests.bench.parts import _scenes
    from tests.bench.world import tablehand_schema

    mix = Mix.build(await tablehand_schema(), Catalogue.load())
    if args.autocomplete:
        mix = Mix([(k, s) for k, s in mix.present if k.name.startswith("auto")], mix.missing)
    out = Path(args.workdir) / "breakdown-bot.json"
    out.unlink(missing_ok=True)
    async with LoopbackDiscord(tables=args.channels + 1) as server:
        scenes = _scenes(server, args.channels, 10)
        stamps = _server_stamps()
        proc = await BotProcess.start(
            server,
            args=("-m", "tests.bench.breakdown", "bot"),
            env={"BARE_TREE": "tablehand", "BREAKDOWN_OUT": str(out)},
            log_path=Path(args.workdir) / "breakdown-bot.log",
        )
        try:
            await server.wait_idle(quiet=0.5, timeout=30)
            run = await run_load(
                server,
                scenes,
                mix.synced(server),
                bot="slash",
                rate=args.rate,
                duration=args.duration,
                warmup=args.warmup,
            )
        finally:
            await proc.stop()
    bot = json.loads(out.read_text())
    rows = []
    for sample in run.measured:
        record = sample.record
        key = str(record.id)
        callback = record.callback
        mine, theirs = stamps.get(key, {}), bot.get(key, {})
        if callback is None or callback.received is None or record.sent is None:
            continue
        row = {"created": record.created, "sent": record.sent, "received": callback.received}
        row |= mine | theirs
        if all(k in row for a, b, _ in STEPS for k in (a, b)):
            rows.append(row)
    if not rows:
        seen = {k for r in [*stamps.values(), *bot.values()] for k in r}
        raise SystemExit(f"no complete rows: stamps seen {sorted(seen)}, bot ids {len(bot)}")
    lag = sorted(run.lag_ms)
    head = (
        f"slash floor at {args.rate:g}/s for {args.duration:g} s "
        f"({'autocompletes' if args.autocomplete else 'the mix'}); generator lag "
        f"p50 {_pct(lag, 50):.2f} ms p99 {_pct(lag, 99):.2f} ms; load average "
        f"{' / '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    return head + "\n" + report(rows)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["bot"]:
        return _bot_mode(os.environ["BREAKDOWN_OUT"])
    parser = argparse.ArgumentParser(prog="python -m tests.bench.breakdown")
    parser.add_argument("--rate", type=float, default=200)
    parser.add_argument("--duration", type=float, default=10)
    parser.add_argument("--warmup", type=float, default=2)
    parser.add_argument("--channels", type=int, default=100)
    parser.add_argument("--autocomplete", action="store_true", help="autocompletes only")
    parser.add_argument("--workdir", default="bench-results/work")
    args = parser.parse_args(argv)
    Path(args.workdir).mkdir(parents=True, exist_ok=True)
    print(asyncio.run(_bench(args)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
