"""Opt-in memory diagnosis: TABLEHAND_TRACEMALLOC=path keeps the heap's biggest moment.

With the variable set, `python -m bot run` traces allocations (tracemalloc: slow, for
diagnosis only), snapshots the traced heap whenever it has grown 2 MB past the last
snapshot, and on stop dumps the largest snapshot to `path` and the final heap to
`path.final`. `python -m bot.memprobe path` prints their biggest allocation sites.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

ENV = "TABLEHAND_TRACEMALLOC"
FRAMES = 10  # enough stack to tell which of our lines made discord.py or pydantic allocate
STEP = 2 * 1024 * 1024


class PeakWatch:
    """The traced heap's largest snapshot, dumped on stop."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.peak: tracemalloc.Snapshot | None = None
        self.peak_size = 0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Begin tracing and watching (inside the running loop)."""
        tracemalloc.start(FRAMES)
        self._task = asyncio.get_running_loop().create_task(self._watch(), name="memprobe")

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(0.25)
            size, _ = tracemalloc.get_traced_memory()
            if size > self.peak_size + STEP:
                self.peak = tracemalloc.take_snapshot()
                self.peak_size = size

    def stop(self) -> None:
        """Dump the peak snapshot and the final heap."""
        if self._task is not None:
            self._task.cancel()
        if self.peak is not None:
            self.peak.dump(str(self.path))
        tracemalloc.take_snapshot().dump(f"{self.path}.final")
        tracemalloc.stop()


@contextlib.contextmanager
def watching() -> Iterator[None]:
    """Trace the heap for the block if TABLEHAND_TRACEMALLOC names a file; else do nothing."""
    target = os.environ.get(ENV)
    if not target:
        yield
        return
    watch = PeakWatch(Path(target))
    watch.start()
    try:
        yield
    finally:
        watch.stop()


def report(path: str, top: int = 30) -> str:
    """Return a dumped snapshot's biggest allocation sites, by file, line and call stack."""
    snap = tracemalloc.Snapshot.load(path)
    total = sum(s.size for s in snap.statistics("filename"))
    lines = [f"{path}: {total / 2**20:.1f} MB traced"]
    for key in ("filename", "lineno"):
        lines.append(f"\n== by {key} ==")
        lines += [str(s) for s in snap.statistics(key)[:top]]
    lines.append("\n== by stack ==")
    for stat in snap.statistics("traceback")[:top]:
        lines.append(f"-- {stat.size / 1024:.0f} KiB in {stat.count} blocks")
        lines += [f"   {line}" for line in stat.traceback.format(most_recent_first=True)]
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 30))
