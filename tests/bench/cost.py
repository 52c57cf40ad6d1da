"""CPU work per interaction in the bot's process: each kind alone, one at a time, vs the floors.

`python -m tests.bench.cost` (also the bench's `cost` part) starts each bot against its
own loopback Discord (Tablehand with an encounter in every channel, as the load has),
then sends each kind of the mix N times in a row, one at a time, round the channels,
and counts the bot process's own work for them — until it has been quiet again, so a
command's tracker edit counts too:

- **CPU time** (default): the bot's threads' time on a CPU (/proc schedstat, in ns).
  It counts only time the bot ran, so a busy machine inflates it far less than latency
  (a little: caches and clock speed are shared).
- **Instructions** (`--callgrind`): the bot runs under `valgrind --tool=callgrind`,
  instrumented only while measuring (`callgrind_control -i on`, zeroed before each
  kind, dumped after). Instruction counts do not move with the machine's load at all;
  valgrind slows the bot some fifty times, so use small N.

The mix's figure weighs each kind by its share of interactions. Targets are ratios of
Tablehand's work to the bare slash bot's (the same command tree, a fixed reply).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import shutil
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.sandbox.commandline import CommandSpec
from bot.sandbox.harness import BotProcess
from bot.sandbox.server import LoopbackDiscord
from tests.bench.load import cpu_seconds, start_bot
from tests.bench.mix import Catalogue, Kind, Mix, Scene, defense_click, dispatch, problem
from tests.bench.world import combatant_names, seed_tables, tablehand_schema

BOTS = ("tablehand", "slash", "bare")
# Under callgrind the bot's dice are seeded and its hashes fixed: the same paths each run.
BOT_MODULES = {
    "tablehand": ("-m", "tests.bench.seeded_bot", "run"),
    "slash": ("-m", "bot.sandbox.bare"),
}
VALGRIND = "valgrind"
CALLGRIND_TOTALS = re.compile(r"^(?:totals|summary):\s+(\d+)", re.MULTILINE)


@dataclass
class CostOptions:
    """What to measure, and how much."""

    bots: tuple[str, ...] = BOTS
    channels: int = 20
    combatants: int = 10
    repeats: int = 200  # interactions of each kind (an attack and its click are two)
    warmup: int = 20  # of each kind, before measuring
    callgrind: bool = False
    kinds: tuple[str, ...] = ()  # only these kinds of the mix (all when empty)
    profile: bool = False  # py-spy the bot while it measures (bench-results/profile-cost-*.txt)
    workdir: Path = Path("bench-results/work")


class Meter:
    """The bot process's work so far: CPU seconds, or instructions under callgrind."""

    def __init__(self, pid: int, callgrind: bool, workdir: Path) -> None:
        self.pid = pid
        self.callgrind = callgrind
        self.workdir = workdir
        self._dumps = 0
        self._counted = 0.0  # instructions in every dump so far

    @property
    def unit(self) -> str:
        return "instructions" if self.callgrind else "cpu_s"

    async def start(self) -> None:
        """Begin counting from zero."""
        if self.callgrind:
            await _callgrind_control("--instr=on", self.pid)
            await _callgrind_control("--zero", self.pid)

    async def read(self) -> float:
        """Return the work since `start` (CPU: since the process began; take differences).

        A callgrind dump holds what was counted since the previous one (each dump zeroes
        the counters), so the dumps are added up.
        """
        if not self.callgrind:
            return cpu_seconds(self.pid) or 0.0
        self._dumps += 1
        before = set(self.workdir.glob(f"callgrind.{self.pid}.out*"))
        await _callgrind_control(f"--dump=m{self._dumps}", self.pid)
        for _ in range(200):  # the dump is written by the bot's own thread: wait for it
            new = set(self.workdir.glob(f"callgrind.{self.pid}.out*")) - before
            if new:
                text = max(new, key=lambda p: p.stat().st_mtime).read_text(errors="replace")
                found = CALLGRIND_TOTALS.search(text)
                if found:
                    self._counted += float(found.group(1))
                    return self._counted
            await asyncio.sleep(0.1)
        raise RuntimeError("callgrind wrote no dump")


async def _profiler(pid: int, opts: CostOptions, which: str) -> asyncio.subprocess.Process:
    from tests.bench.parts import _py_spy

    return await asyncio.create_subprocess_exec(
        _py_spy(),
        "record",
        "--pid",
        str(pid),
        "--format",
        "raw",
        "--rate",
        "1000",
        "--output",
        str(opts.workdir.parent / f"profile-cost-{which}.txt"),
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )


async def _callgrind_control(flag: str, pid: int) -> None:
    process = await asyncio.create_subprocess_exec(
        "callgrind_control",
        flag,
        str(pid),
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    await process.wait()


@contextlib.asynccontextmanager
async def bot_at_tables(
    which: str, opts: CostOptions, schema: list[dict[str, Any]]
) -> AsyncIterator[tuple[LoopbackDiscord, BotProcess, list[Scene], Meter]]:
    """Start one bot (under callgrind if asked) with an encounter in every channel."""
    from tests.bench.parts import remove_db, wait_settled

    # Under valgrind the bot runs some fifty times slower: Discord's 3 s deadline for an
    # answer would turn a busy machine's slow first command into a refusal, not a count.
    deadline = None if opts.callgrind else 3.0
    async with LoopbackDiscord(tables=opts.channels, response_deadline=deadline) as server:
        scenes = [
            Scene(c, combatant_names(opts.combatants))
            for c in server.guild.text_channels()[: opts.channels]
        ]
        db = opts.workdir / f"cost-{which}.db"
        remove_db(db)
        if which == "tablehand":
            await seed_tables(server, db, [s.channel for s in scenes], opts.combatants)
        if opts.callgrind:
            proc = await _start_under_callgrind(server, which, opts, db)
        else:
            proc = await start_bot(
                server, which, opts.workdir, db_path=db, schema=schema, part="cost"
            )
        try:
            if which == "tablehand":
                await wait_settled(server, proc, within=120 if opts.callgrind else 5)
            else:
                await server.wait_idle(quiet=0.5, timeout=60)
            yield server, proc, scenes, Meter(proc.pid, opts.callgrind, opts.workdir)
        finally:
            await proc.stop(timeout=60 if opts.callgrind else 10)
            remove_db(db)


async def _start_under_callgrind(
    server: LoopbackDiscord, which: str, opts: CostOptions, db: Path
) -> BotProcess:
    if shutil.which(VALGRIND) is None:
        raise SystemExit("--callgrind needs valgrind (apt-get install valgrind)")
    args = ("-m", "tests.bench.cost", "--exec-under-callgrind", str(opts.workdir.resolve()))
    env = {"PYTHONHASHSEED": "0"} | ({"BARE_TREE": "tablehand"} if which == "slash" else {})
    if which == "bare":
        raise SystemExit("--callgrind measures tablehand and slash (the bare bot needs a schema)")
    return await BotProcess.start(
        server,
        db_path=db,
        args=(*args, *BOT_MODULES[which]),
        env=env,
        log_path=opts.workdir / f"cost-{which}-callgrind.log",
        timeout=600,
    )


def exec_under_callgrind(workdir: str, args: list[str]) -> None:
    """Replace this process by the bot under callgrind (same pid), not instrumenting yet."""
    os.execvp(
        VALGRIND,
        [
            VALGRIND,
            "--tool=callgrind",
            "--instr-atstart=no",
            f"--callgrind-out-file={workdir}/callgrind.%p.out",
            sys.executable,
            *args,
        ],
    )


async def measure_bot(
    which: str, mix: Mix, schema: list[dict[str, Any]], opts: CostOptions
) -> dict[str, Any]:
    """Return each kind's work per interaction in one bot's process."""
    out: dict[str, Any] = {}
    async with bot_at_tables(which, opts, schema) as (server, proc, scenes, meter):
        quiet = 0.3 if which != "tablehand" else 1.2
        await meter.start()
        spy = await _profiler(proc.pid, opts, which) if opts.profile else None
        for kind, spec in mix.synced(server).present:
            if opts.kinds and kind.name not in opts.kinds:
                continue
            sender = Sender(server, kind, spec, scenes, bare=which != "tablehand")
            for _ in range(opts.warmup):
                await sender.one()
            await server.wait_idle(quiet=quiet, timeout=120)
            before = await meter.read()
            started = time.monotonic()
            count = 0
            while count < opts.repeats:
                count += await sender.one()
            await server.wait_idle(quiet=quiet, timeout=120)
            work = await meter.read() - before
            out[kind.name] = {
                "interactions": count,
                "per_interaction": work / count,
                "wall_s": time.monotonic() - started,
            }
        if spy is not None:
            spy.send_signal(2)  # py-spy writes what it sampled when interrupted
            await spy.wait()
    shares = {kind.name: kind.share for kind, _ in mix.present if kind.name in out}
    weighted = sum(shares[k] * v["per_interaction"] for k, v in out.items())
    return {"unit": meter.unit, "kinds": out, "mix": weighted / sum(shares[k] for k in out)}


@dataclass
class Sender:
    """Sends one kind's interactions one at a time, round the channels."""

    server: LoopbackDiscord
    kind: Kind
    spec: CommandSpec
    scenes: list[Scene]
    bare: bool
    turn: int = 0

    def __post_init__(self) -> None:
        self.rng = random.Random(7)

    async def one(self) -> int:
        """Send one (an attack: and its click) and wait for the answers; return how many."""
        scene = self.scenes[self.turn % len(self.scenes)]
        self.turn += 1
        record = dispatch(self.server, self.kind.make(self.spec, scene, self.rng), scene.channel)
        records = [record]
        await asyncio.wait_for(asyncio.shield(record.responded), 30)
        if self.kind.prompts:
            click = defense_click(self.server, record, bare=self.bare)
            if click is not None:
                records.append(click)
                await asyncio.wait_for(asyncio.shield(click.responded), 30)
        for r in records:
            found = problem(self.server, r, None)
            if found is not None:
                raise RuntimeError(f"{self.kind.name}: {found}")
        return len(records)


async def cost(opts: CostOptions, mix: Mix | None = None) -> dict[str, Any]:
    """Measure every bot of `opts.bots`; return their work per interaction and the ratios."""
    opts.workdir.mkdir(parents=True, exist_ok=True)
    schema = await tablehand_schema()
    mix = mix or Mix.build(schema, Catalogue.load())
    bots = {}
    for which in opts.bots:
        bots[which] = await measure_bot(which, mix, schema, opts)
    result: dict[str, Any] = {
        "unit": "instructions" if opts.callgrind else "cpu_s",
        "repeats": opts.repeats,
        "channels": opts.channels,
        "bots": bots,
    }
    if "tablehand" in bots:
        for floor in ("slash", "bare"):
            if floor in bots:
                result[f"ratio_{floor}"] = bots["tablehand"]["mix"] / bots[floor]["mix"]
    return result


def table(result: dict[str, Any]) -> str:
    """Return the result as a Markdown table (µs of CPU, or thousands of instructions)."""
    bots = result["bots"]
    callgrind = result["unit"] == "instructions"
    scale, unit = (1e-3, "k instructions") if callgrind else (1e6, "µs CPU")
    names = list(bots)
    kinds = sorted(set().union(*(b["kinds"] for b in bots.values())))
    lines = [
        f"| kind ({unit} per interaction) | " + " | ".join(names) + " |",
        "|---|" + "---|" * len(names),
    ]
    for kind in kinds:
        cells = [
            f"{b['kinds'][kind]['per_interaction'] * scale:,.0f}" if kind in b["kinds"] else "—"
            for b in bots.values()
        ]
        lines.append(f"| {kind} | " + " | ".join(cells) + " |")
    lines.append(
        "| **the mix** | "
        + " | ".join(f"**{b['mix'] * scale:,.0f}**" for b in bots.values())
        + " |"
    )
    ratios = [f"{k.removeprefix('ratio_')} {v:.2f}×" for k, v in result.items() if "ratio_" in k]
    if ratios:
        lines += ["", "Tablehand's work over the floor's, the mix: " + ", ".join(ratios) + "."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--exec-under-callgrind"]:
        exec_under_callgrind(argv[1], argv[2:])
    parser = argparse.ArgumentParser(prog="python -m tests.bench.cost", description=__doc__)
    parser.add_argument("--bots", default=",".join(BOTS))
    parser.add_argument("--repeats", type=int, default=CostOptions.repeats)
    parser.add_argument("--warmup", type=int, default=CostOptions.warmup)
    parser.add_argument("--channels", type=int, default=CostOptions.channels)
    parser.add_argument("--callgrind", action="store_true", help="count instructions (valgrind)")
    parser.add_argument("--kinds", default="", help="comma-separated kinds of the mix (all)")
    parser.add_argument("--profile", action="store_true", help="py-spy the bots while measuring")
    parser.add_argument("--out", type=Path, default=Path("bench-results"))
    args = parser.parse_args(argv)
    opts = CostOptions(
        bots=tuple(args.bots.split(",")),
        channels=args.channels,
        repeats=args.repeats,
        warmup=args.warmup,
        callgrind=args.callgrind,
        kinds=tuple(k for k in args.kinds.split(",") if k),
        profile=args.profile,
        workdir=args.out / "work",
    )
    result = asyncio.run(cost(opts))
    print(table(result))
    return 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())
