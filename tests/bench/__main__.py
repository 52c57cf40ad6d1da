"""`python -m tests.bench` (`make bench`): the whole path under load, and the bot's own costs.

Parts (all by default; `--parts` picks some):
  load     Tablehand in its own process, the mix offered open-loop across the channels
  bare     the bare discord.py bot under the same load: the floor of the stack (with `load`,
           the bots stay up and the load alternates between them in rounds)
  slash    the bare slash bot: Tablehand's command tree, discord.py's dispatch and argument
           conversion, a fixed reply — the floor every slash-command bot pays
  ramp     Tablehand (SQLite) with the offered rate stepped up (`--ramp-rates`) until p99
           passes 50 ms: the highest rate within it
  burst    50 commands at once in one channel, Discord's rate limits on
  memory   1,000 seeded encounters of 10, each touched once: the bot's peak RSS
  startup  spawn → first command answered, with 0, 10,000 and 100,000 stored encounters
  autocomplete  both autocompletes end to end in a fight of 100 combatants, over every
           catalogue entry, against Tablehand and the bare slash bot
  lookup   /power autocomplete (`Lookup.suggest`) in-process over the whole catalogue
  stall    the fuzzer's nastiest dice at /roll, /grit damage and /attack: the bot's worst
           event-loop stall (a loop-lag monitor in the bot's process)
  bigfight the same monitor over the biggest fights: 100 combatants, and 44 long-named ones
  postgres Tablehand on PostgreSQL under the same load, beside SQLite (with `load`, in turns)
  shards   one process serving two shards vs two processes with one each, on PostgreSQL,
           then the lost-update check: /grit damage at the same rate, counted in the store

The report is printed and written to bench-results/ (JSON and Markdown); see
tests/bench/README.md for what each number means.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import time
from pathlib import Path
from typing import Any

from tests.bench import parts, stall
from tests.bench.mix import Catalogue, Mix
from tests.bench.report import markdown, verdicts
from tests.bench.scale import postgres_admin, shards
from tests.bench.world import tablehand_schema

ALL_PARTS = (
    "load",
    "bare",
    "slash",
    "postgres",
    "ramp",
    "burst",
    "memory",
    "startup",
    "autocomplete",
    "lookup",
    "stall",
    "bigfight",
    "shards",
)
LOADED = (("tablehand", "load"), ("bare", "bare"), ("slash", "slash"), ("postgres", "postgres"))


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m tests.bench", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "--quick", action="store_true", help="short, small runs (a few seconds each)"
    )
    parser.add_argument("--rate", type=float, help="interactions offered per second (default 200)")
    parser.add_argument(
        "--shard-rate", type=float, help="offered to one vs two shard processes (default 400)"
    )
    parser.add_argument(
        "--ramp-rates", help="comma-separated rates the ramp steps through (default 50,…,1000)"
    )
    parser.add_argument("--ramp-step", type=float, help="measured seconds per ramp step (8)")
    parser.add_argument(
        "--stored", help="comma-separated stored encounters for start-up (default 10000,100000)"
    )
    parser.add_argument("--channels", type=int, help="channels under load (default 100)")
    parser.add_argument("--combatants", type=int, default=10, help="per encounter (default 10)")
    parser.add_argument("--duration", type=float, help="measured seconds per load run (default 30)")
    parser.add_argument("--warmup", type=float, help="seconds of load before measuring (default 5)")
    parser.add_argument(
        "--rounds", type=int, help="the load alternates between the bots in rounds (default 6)"
    )
    parser.add_argument(
        "--parts", default=",".join(ALL_PARTS), help=f"comma-separated, of: {', '.join(ALL_PARTS)}"
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="sample the bot with py-spy during each load run (bench-results/profile-*.txt)",
    )
    parser.add_argument("--out", type=Path, default=Path("bench-results"), help="report directory")
    args = parser.parse_args(argv)
    unknown = set(args.parts.split(",")) - set(ALL_PARTS)
    if unknown:
        parser.error(f"unknown part(s): {', '.join(sorted(unknown))}")
    return args


def options(args: argparse.Namespace) -> parts.Options:
    opts = parts.Options(
        workdir=args.out / "work", combatants=args.combatants, profile=args.profile
    )
    if args.quick:
        opts.rate, opts.channels, opts.duration, opts.warmup = 50, 10, 3.0, 1.0
        opts.rounds, opts.rewarm = 1, 0.5
        opts.rest_repeats, opts.rss_encounters, opts.stored_encounters = 1, 100, (1000,)
        opts.lookup_rounds = 3
        opts.shard_rate, opts.shard_duration, opts.lost_s = 100, 3.0, 2.0
        opts.ramp_rates, opts.ramp_step, opts.ramp_warmup = (50, 100), 2.0, 0.5
        opts.autocomplete_each = 100
    if args.shard_rate is not None:
        opts.shard_rate = args.shard_rate
    if args.ramp_rates:
        opts.ramp_rates = tuple(float(r) for r in args.ramp_rates.split(","))
    if args.ramp_step is not None:
        opts.ramp_step = args.ramp_step
    if args.stored:
        opts.stored_encounters = tuple(int(n) for n in args.stored.split(","))
    for name in ("rate", "channels", "duration", "warmup", "rounds"):
        if getattr(args, name) is not None:
            setattr(opts, name, getattr(args, name))
    return opts


async def run(args: argparse.Namespace) -> dict[str, Any]:
    chosen = [p for p in ALL_PARTS if p in args.parts.split(",")]
    if {"postgres", "shards"} & set(chosen):
        async with postgres_admin() as admin:
            opts = options(args)
            opts.postgres_admin = admin
            return await run_parts(args, opts, chosen)
    return await run_parts(args, options(args), chosen)


async def run_parts(
    args: argparse.Namespace, opts: parts.Options, chosen: list[str]
) -> dict[str, Any]:
    opts.workdir.mkdir(parents=True, exist_ok=True)
    schema = await tablehand_schema()
    mix = Mix.build(schema, Catalogue.load())
    results: dict[str, Any] = {
        "when": time.strftime("%Y-%m-%d %H:%M:%S"),
        "command": " ".join(["python -m tests.bench", *sys.argv[1:]]),
        "machine": _machine(),
        "options": {k: str(v) for k, v in vars(opts).items()},
        "mix": {k.name: k.share for k, _ in mix.present},
        "missing_from_mix": {k.name: f"/{k.command}" for k in mix.missing},
    }
    loaded = [w for w, part in LOADED if part in chosen]
    if loaded:
        print(f"bench: load on {' and '.join(loaded)} …", file=sys.stderr, flush=True)
        started = time.monotonic()
        summaries = await parts.load(loaded, mix, schema, opts)
        for which, summary in summaries.items():
            summary["took_s"] = round(time.monotonic() - started, 1)
            results[dict(LOADED)[which]] = summary
    steps = {
        "ramp": lambda: parts.ramp(mix, schema, opts),
        "autocomplete": lambda: parts.autocomplete(mix, opts),
        "bigfight": lambda: stall.big_fights(opts.workdir),
        "burst": lambda: parts.burst(mix, opts),
        "memory": lambda: parts.memory(mix, opts),
        "startup": lambda: parts.startup(mix, opts, schema),
        "stall": lambda: stall.stall(opts.workdir),
        "shards": lambda: shards(mix, opts, opts.postgres_admin or ""),
    }
    for name in [p for p in chosen if p not in dict(LOADED).values()]:
        print(f"bench: {name} …", file=sys.stderr, flush=True)
        started = time.monotonic()
        if name == "lookup":
            results[name] = parts.lookup(opts)
        else:
            results[name] = await steps[name]()
        results[name]["took_s"] = round(time.monotonic() - started, 1)
    results["targets"] = verdicts(results)
    return results


def _machine() -> dict[str, Any]:
    import os
    import platform

    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    return {
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "load_average_at_start": load,
    }


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("discord").setLevel(logging.ERROR)  # no voice here: PyNaCl is not needed
    results = asyncio.run(run(args))
    report = markdown(results)
    print(report)
    args.out.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for name in (f"bench-{stamp}", "latest"):
        parts.dump(results, args.out / f"{name}.json")
        (args.out / f"{name}.md").write_text(report)
    print(f"written to {args.out}/latest.md and latest.json", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
