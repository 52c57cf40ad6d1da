"""TABLEHAND_TRACEMALLOC: the opt-in heap diagnosis of `python -m bot run`."""

from __future__ import annotations

import asyncio
import tracemalloc
from pathlib import Path

import pytest

from bot import memprobe


async def test_without_the_variable_nothing_is_traced(monkeypatch: pytest.MonkeyPatch) -> None:
    """The probe traced allocations though nobody asked for it."""
    monkeypatch.delenv(memprobe.ENV, raising=False)
    with memprobe.watching():
        assert not tracemalloc.is_tracing()


async def test_the_largest_heap_is_dumped_with_its_allocation_sites(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The dump missed the moment the heap was largest, or the report could not read it."""
    target = tmp_path / "heap"
    monkeypatch.setenv(memprobe.ENV, str(target))
    with memprobe.watching():
        held = [bytearray(1024) for _ in range(4 * 1024)]  # 4 MiB: past the snapshot step
        await asyncio.sleep(0.6)
        del held
    assert not tracemalloc.is_tracing()
    report = memprobe.report(str(target), top=5)
    peak_mb = float(report.split(": ", 1)[1].split(" MB")[0])
    assert peak_mb >= 4.0
    assert "test_memprobe.py" in report
    assert (tmp_path / "heap.final").exists()
