"""The open-loop load generator and the bot processes it measures.

The loopback Discord and this generator share one process and event loop; the bot
runs in another (`BotProcess`). Actions are scheduled at fixed intervals whatever the
bot answers (open loop). An interaction's latency is taken at the server, on its
monotonic loop clock: from INTERACTION_CREATE being dispatched to the bot's first
REST request for it, the interaction callback, arriving (stamped as the request reaches
the server's handler, before its body is read and checked: a bigger reply is not slower
to the server's own bookkeeping).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import random
import re
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.sandbox.harness import BotProcess
from bot.sandbox.records import InteractionRecord, RestCall
from bot.sandbox.server import LoopbackDiscord
from tests.bench.mix import Kind, Mix, Scene, defense_click, dispatch, problem

TRACKER_EDIT = ("PATCH", "/channels/{channel_id}/messages/{message_id}")
FLOORS = ("bare", "slash")  # the floors: a fixed reply, no database, no rules
_READY = re.compile(r"ready as .* after ([0-9.]+) s")


# Processes -----------------------------------------------------------------------------


async def start_bot(
    server: LoopbackDiscord,
    which: str,
    workdir: Path,
    *,
    db_path: Path | None = None,
    schema: list[dict[str, Any]] | None = None,
    part: str = "load",
) -> BotProcess:
    """Start Tablehand (`python -m bot run`), the bare bot or the bare slash bot as a process."""
    log_path = workdir / f"{part}-{which}.log"
    log_path.unlink(missing_ok=True)
    if which == "tablehand":
        return await BotProcess.start(
            server, db_path=db_path or workdir / "tablehand.db", log_path=log_path
        )
    if which == "slash":  # Tablehand's command tree, fixed replies
        return await BotProcess.start(
            server,
            args=("-m", "bot.sandbox.bare"),
            env={"BARE_TREE": "tablehand"},
            log_path=log_path,
        )
    schema_path = workdir / "bare-schema.json"
    schema_path.write_text(json.dumps(schema or []))
    return await BotProcess.start(
        server,
        args=("-m", "bot.sandbox.bare"),
        env={"BARE_SCHEMA": str(schema_path)},
        log_path=log_path,
    )


def peak_rss_mb(pid: int) -> float | None:
    """Return a process's peak resident set size (VmHWM) in MB, or None off Linux."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    found = re.search(r"^VmHWM:\s+(\d+) kB", status, re.MULTILINE)
    return int(found.group(1)) / 1024 if found else None


def cpu_seconds(pid: int) -> float | None:
    """Return the CPU time all of a process's threads have run, in seconds (None off Linux).

    From each thread's schedstat (nanoseconds on the CPU): finer than the 10 ms ticks of
    /proc/<pid>/stat, and counting only time the process ran, however busy the machine is.
    """
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return None
    total = 0
    for task in tasks:
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            continue  # a thread that ended meanwhile: its time is in no file now
    return total / 1e9


def logged_ready_after(proc: BotProcess) -> float | None:
    """Return the seconds the bot logged from construction to on_ready, if it did."""
    found = _READY.search(proc.log_tail(400))
    return float(found.group(1)) if found else None


# Samples -------------------------------------------------------------------------------


@dataclass
class Sample:
    """One dispatched interaction."""

    kind: str
    record: InteractionRecord
    measured: bool  # dispatched after the warm-up

    @property
    def latency_ms(self) -> float | None:
        """Dispatch → the callback request's arrival (before the server reads or checks it)."""
        callback = self.record.callback
        if callback is None:
            return None
        arrived = callback.at if callback.received is None else callback.received
        return (arrived - self.record.created) * 1000


@dataclass
class LoadRun:
    """What one load run dispatched and what came back."""

    bot: str
    rate: float
    channels: int
    duration: float
    warmup: float
    samples: list[Sample] = field(default_factory=list)
    lag_ms: list[float] = field(default_factory=list)  # dispatch after its scheduled time
    windows: list[tuple[float, float]] = field(default_factory=list)  # measured, loop time
    calls: list[RestCall] = field(default_factory=list)
    tracker_ids: dict[int, int] = field(default_factory=dict)  # message id -> channel id
    problems: dict[str, int] = field(default_factory=dict)
    problem_examples: dict[str, str] = field(default_factory=dict)
    peak_rss_mb: float | None = None
    # The bot processes' CPU time over the whole run (warm-up included, until the bot was
    # quiet again: its tracker edits count) and the interactions it was spent on.
    cpu_s: float = 0.0
    cpu_interactions: int = 0
    # The measuring side's own CPU time (this process: the loopback Discord and the
    # generator) over the same span.
    bench_cpu_s: float = 0.0
    # The whole machine's busy CPU time and PostgreSQL's over the same span, and its length:
    # what else ran beside the bench (`others_cores`).
    machine_s: float = 0.0
    postgres_s: float = 0.0
    wall_s: float = 0.0

    @property
    def measured(self) -> list[Sample]:
        return [s for s in self.samples if s.measured]

    def measured_calls(self) -> list[RestCall]:
        """Return the REST calls that arrived while measuring."""
        return [c for c in self.calls if any(a <= c.at < b for a, b in self.windows)]

    def extend(self, other: LoadRun) -> None:
        """Add another round of the same bot's load."""
        self.duration += other.duration
        self.samples += other.samples
        self.lag_ms += other.lag_ms
        self.windows += other.windows
        self.calls += other.calls
        self.cpu_s += other.cpu_s
        self.cpu_interactions += other.cpu_interactions
        self.bench_cpu_s += other.bench_cpu_s
        self.machine_s += other.machine_s
        self.postgres_s += other.postgres_s
        self.wall_s += other.wall_s
        for key, count in other.problems.items():
            self.problems[key] = self.problems.get(key, 0) + count
            self.problem_examples.setdefault(key, other.problem_examples[key])


async def run_load(
    server: LoopbackDiscord,
    scenes: list[Scene],
    mix: Mix,
    *,
    bot: str,
    rate: float,
    duration: float,
    warmup: float,
    answer_within: float = 5.0,
    seed: int = 2024,
    pids: list[int] = (),  # type: ignore[assignment]
) -> LoadRun:
    """Offer `rate` interactions a second across the scenes for warm-up + duration seconds.

    With `pids`, the bot processes' CPU time over the run is counted: from the first
    dispatch until the bot has been quiet for a while after the last answer.
    """
    with paused_gc():
        before, bench_before = _cpu(pids), time.process_time()
        machine_before, pg_before, wall_before = (
            machine_busy_s(),
            postgres_cpu_s(),
            time.monotonic(),
        )
        run = await _run_load(
            server,
            scenes,
            mix,
            bot=bot,
            rate=rate,
            duration=duration,
            warmup=warmup,
            answer_within=answer_within,
            seed=seed,
        )
        if pids:
            quiet = 0.2 if bot in FLOORS else 1.2  # the tracker's edits come a second later
            with contextlib.suppress(Exception):
                await server.wait_idle(quiet=quiet, timeout=10)
            run.cpu_s = _cpu(pids) - before
            run.cpu_interactions = len(run.samples)
        run.bench_cpu_s = time.process_time() - bench_before
        run.machine_s = machine_busy_s() - machine_before
        run.postgres_s = postgres_cpu_s() - pg_before
        run.wall_s = time.monotonic() - wall_before
        return run


def _cpu(pids: list[int]) -> float:
    return sum(cpu_seconds(pid) or 0.0 for pid in pids)


def machine_busy_s() -> float:
    """Return the seconds the machine's CPUs have all been busy since boot (0 off Linux).

    From /proc/stat's first line, in clock ticks: user, nice, system, irq, softirq and
    steal (guest time is inside user); idle and iowait are not busy.
    """
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()
    except OSError:
        return 0.0
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(x) for x in fields[1:9])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def postgres_cpu_s() -> float:
    """Return the CPU seconds of every PostgreSQL server process now running (0 if none)."""
    total = 0.0
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            if (proc / "comm").read_text().strip() == "postgres":
                total += cpu_seconds(int(proc.name)) or 0.0
    return total


def others_cores(run: LoadRun) -> float | None:
    """Return the cores other work kept busy over a run: the whole machine's busy time less
    the bots', the measuring side's and PostgreSQL's (None without the bots' CPU time).

    Near 0 on a quiet machine; a run beside a compiler, a test suite or another benchmark
    shows it here, so its latency is not taken for the code's.
    """
    if not run.cpu_interactions or run.wall_s <= 0:
        return None
    others = run.machine_s - run.cpu_s - run.bench_cpu_s - run.postgres_s
    return max(0.0, others) / run.wall_s


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """Keep the garbage collector out of the generator's timing.

    The server keeps every message, interaction and REST call; with the collector on,
    its full passes over them stalled this process for 100 ms and more mid-run.
    """
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


async def _run_load(
    server: LoopbackDiscord,
    scenes: list[Scene],
    mix: Mix,
    *,
    bot: str,
    rate: float,
    duration: float,
    warmup: float,
    answer_within: float,
    seed: int,
) -> LoadRun:
    loop = asyncio.get_running_loop()
    bare = bot in FLOORS
    pick = mix.picker(random.Random(seed))
    prompting = {kind.name for kind, _ in mix.present if kind.prompts}
    where = random.Random(seed + 1)
    run = LoadRun(bot, rate, len(scenes), duration, warmup)
    start = loop.time() + 0.05
    measure_from = start + warmup
    end = measure_from + duration
    run.windows = [(measure_from, end)]
    first_call = len(server.calls)
    # Attacks whose answer has come: each one's defender clicks in the next free slot, so
    # every slot sends exactly one interaction and the offered rate is exact.
    prompted: deque[Sample] = deque()
    attacks: list[asyncio.Future[Any]] = []

    n = 0
    while (scheduled := start + n / rate) < end:
        delay = scheduled - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        n += 1
        measured = scheduled >= measure_from
        record = None
        while prompted and record is None:
            record = defense_click(server, prompted.popleft().record, bare=bare)
        if record is not None:
            sample = Sample("defense click", record, measured)
        else:
            scene = where.choice(scenes)
            request = pick(scene)
            record = dispatch(server, request, scene.channel)
            sample = Sample(request.kind, record, measured)
            if request.kind in prompting and record.responded is not None:
                attacks.append(record.responded)
                record.responded.add_done_callback(lambda _, s=sample: prompted.append(s))
        run.samples.append(sample)
        run.lag_ms.append((record.created - scheduled) * 1000)

    # The clicks still owed are sent when their attack is answered, then every answer
    # gets `answer_within` seconds after the last dispatch.
    if waiting := [f for f in attacks if not f.done()]:
        await asyncio.wait(waiting, timeout=answer_within)
        await asyncio.sleep(0)  # their done-callbacks queue the clicks
    while prompted:
        attack = prompted.popleft()
        click = defense_click(server, attack.record, bare=bare)
        if click is not None:
            run.samples.append(Sample("defense click", click, attack.measured))
    futures = [s.record.responded for s in run.samples if s.record.responded is not None]
    unanswered = [f for f in futures if not f.done()]
    if unanswered:
        await asyncio.wait(unanswered, timeout=answer_within)
    run.calls = server.calls[first_call:]
    classify(server, run, mix, bare=bare)
    return run


def classify(server: LoopbackDiscord, run: LoadRun, mix: Mix, *, bare: bool) -> None:
    """Count the measured interactions whose answer is missing or wrong."""
    click = Kind("defense click", "attack", 0.0, lambda *_: None)  # type: ignore[arg-type,return-value]
    kinds = {kind.name: kind for kind, _ in mix.present} | {click.name: click}
    for sample in run.measured:
        found = problem(server, sample.record, None if bare else kinds.get(sample.kind))
        if found is None:
            continue
        key = f"{sample.kind}: {found.split(':')[0]}"
        run.problems[key] = run.problems.get(key, 0) + 1
        run.problem_examples.setdefault(key, found)


# Tracker edits -------------------------------------------------------------------------


def edit_times(calls: list[RestCall], tracker_ids: dict[int, int]) -> dict[int, list[float]]:
    """Return each channel's successful tracker edits (loop times), from the server's log."""
    found: dict[int, list[float]] = {}
    for call in calls:
        if (call.method, call.route) != TRACKER_EDIT or call.status != 200:
            continue
        message_id = int(call.path.rsplit("/", 1)[1])
        channel = tracker_ids.get(message_id)
        if channel is not None:
            found.setdefault(channel, []).append(call.at)
    return found


def most_in_a_second(times: list[float], width: float = 1.0) -> int:
    """Return the most events in any half-open window of `width` seconds."""
    times = sorted(times)
    best, lo = 0, 0
    for hi, t in enumerate(times):
        while times[lo] <= t - width:
            lo += 1
        best = max(best, hi - lo + 1)
    return best


# Quiet, sequential: the REST calls one command costs ------------------------------------


async def rest_calls_per_command(
    server: LoopbackDiscord,
    scene: Scene,
    mix: Mix,
    *,
    bot: str,
    repeats: int,
    quiet: float,
    seed: int = 99,
) -> dict[str, dict[str, Any]]:
    """Run each kind alone, wait until the bot is quiet, and count the REST calls it made."""
    rng = random.Random(seed)
    out: dict[str, dict[str, Any]] = {}
    for kind, spec in mix.present:
        counts: dict[str, int] = {}
        total = 0
        for _ in range(repeats):
            await server.wait_idle(quiet=quiet, timeout=10)
            mark = len(server.calls)
            record = dispatch(server, kind.make(spec, scene, rng), scene.channel)
            records = [record]
            if record.responded is not None:
                await asyncio.wait_for(asyncio.shield(record.responded), 5)
            if kind.prompts:
                click = defense_click(server, record, bare=bot in FLOORS)
                if click is not None and click.responded is not None:
                    records.append(click)
                    await asyncio.wait_for(asyncio.shield(click.responded), 5)
            await server.wait_idle(quiet=quiet, timeout=10)
            # Only this channel's calls and these interactions' (not another channel's tracker).
            marks = (
                {str(scene.channel.id)} | {r.token for r in records} | {str(r.id) for r in records}
            )
            for call in server.calls[mark:]:
                if not any(m in call.path.split("/") for m in marks):
                    continue
                counts[call.key] = counts.get(call.key, 0) + 1
                total += 1
        out[kind.name] = {
            "per_command": total / repeats,
            "routes": {k: v / repeats for k, v in sorted(counts.items())},
        }
    return out
