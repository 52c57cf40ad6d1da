"""The benchmark harness runs: a short, slow load against the bare bot produces a report.

Timings are not checked here (benchmarks are not tests); only that the harness works.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.sandbox.harness import REPO_ROOT

pytestmark = pytest.mark.e2e


def test_the_bench_harness_reports_a_quick_load_against_the_bare_bot(tmp_path: Path) -> None:
    """`python -m tests.bench --quick --parts bare` did not write a report of answered interactions."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tests.bench",
            "--quick",
            "--parts",
            "bare",
            "--duration",
            "2",
            "--warmup",
            "0.5",
            "--rate",
            "20",
            "--channels",
            "3",
            "--out",
            str(tmp_path),
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    results = json.loads((tmp_path / "latest.json").read_text())
    bare = results["bare"]
    assert bare["interactions"] > 0
    assert bare["answered"] > 0
    assert bare["latency"]["n"] > 0
    assert bare["by_kind"], "no interaction kinds were sent"
    assert "## Load: bare" in (tmp_path / "latest.md").read_text()


def test_the_bench_reports_the_worst_stall_under_the_dice_bombs(tmp_path: Path) -> None:
    """`python -m tests.bench --parts stall` did not report a stall for every dice bomb case."""
    from tests.e2e.bombs import bomb_cases

    done = subprocess.run(
        [sys.executable, "-m", "tests.bench", "--parts", "stall", "--out", str(tmp_path)],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    stall = json.loads((tmp_path / "latest.json").read_text())["stall"]
    assert stall["cases"] == len(bomb_cases())
    assert stall["unanswered"] <= stall["cases"]  # how many were answered is a measurement
    assert stall["worst_stall_ms"] >= 0 and stall["worst_busy_ms"] >= 0
    assert "## Event-loop stalls" in (tmp_path / "latest.md").read_text()
