"""The measuring side's own share, reported beside each latency figure."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from tests.bench.parts import measuring_side


def test_the_measuring_side_counts_send_delays_lag_and_cpu_per_interaction() -> None:
    """A send delay, a lateness or the CPU per interaction was miscounted."""
    records: list[Any] = [
        SimpleNamespace(created=10.0, sent=10.0001),
        SimpleNamespace(created=11.0, sent=11.0003),
        SimpleNamespace(created=12.0, sent=None),  # never written: the bot had gone
        SimpleNamespace(created=13.0, sent=13.0002),
    ]
    side = measuring_side(records, [0.5, 2.0, 1.0, 4.0], cpu_s=0.004)
    send = side["server_send_ms"]
    assert send["n"] == 3
    assert round(send["p50_ms"], 6) == 0.2 and round(send["max_ms"], 6) == 0.3
    lag = side["generator_lag_ms"]
    assert (lag["n"], lag["p50_ms"], lag["p99_ms"], lag["max_ms"]) == (4, 1.0, 4.0, 4.0)
    assert side["cpu_ms_per_interaction"] == 1.0  # 4 ms of CPU over 4 interactions


def test_no_interactions_report_no_cpu_per_interaction() -> None:
    """An empty run divided by zero, or reported a figure it did not measure."""
    side = measuring_side([], [], cpu_s=0.0)
    assert side["cpu_ms_per_interaction"] is None
    assert side["server_send_ms"]["p50_ms"] is None
