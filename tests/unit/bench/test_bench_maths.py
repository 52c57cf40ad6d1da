"""The benchmark's own arithmetic: percentiles, the ramp's verdict, the lost-update count."""

from __future__ import annotations

import time

from tests.bench.load import LoadRun, machine_busy_s, others_cores
from tests.bench.parts import highest_within, percentile
from tests.bench.report import _late_answers, _others
from tests.bench.scale import cores_used, damage_plan, each_stored_once, lost_and_unreported


def test_percentile_is_the_nearest_rank() -> None:
    """A percentile was interpolated or off by one rank."""
    values = [float(v) for v in range(1, 101)]
    assert (percentile(values, 50), percentile(values, 99), percentile(values, 100)) == (
        50.0,
        99.0,
        100.0,
    )
    assert percentile([7.0], 99) == 7.0
    assert percentile([], 50) is None


def test_the_ramp_keeps_the_highest_rate_before_the_first_miss() -> None:
    """A step after a miss counted, or the first miss was passed over."""
    steps = [
        {"rate": 50, "within": True},
        {"rate": 100, "within": True},
        {"rate": 150, "within": False},
        {"rate": 200, "within": True},
    ]
    assert highest_within(steps) == 100
    assert highest_within([{"rate": 50, "within": False}]) is None


def test_the_damage_plan_never_takes_a_grit_below_zero() -> None:
    """A planned hit would have met a Grit of 0 (and looked like a lost update), or the plan ran short."""
    grit = {(1, "Goblin 1"): 2, (1, "Goblin 2"): 0, (2, "Guard 1"): 1}
    plan = damage_plan(grit, 10)
    assert sorted(plan) == [(1, "Goblin 1"), (1, "Goblin 1"), (2, "Guard 1")]
    assert damage_plan(grit, 2) == [(1, "Goblin 1"), (2, "Guard 1")]  # round the channels


def test_lost_updates_are_told_apart_from_changes_answered_too_late() -> None:
    """An answered change missing from the store was not counted lost, or a late one was."""
    before = {(1, "A"): 10, (1, "B"): 10, (2, "C"): 10}
    after = {(1, "A"): 7, (1, "B"): 9, (2, "C"): 8}
    applied = {(1, "A"): 3, (1, "B"): 2, (2, "C"): 1}  # B: one told but not stored; C: one late
    assert lost_and_unreported(before, after, applied) == (1, 1)


def test_each_command_sent_is_stored_once_whether_answered_or_not() -> None:
    """Late answers made the lost-update check inexact even when every sent change was stored
    exactly once; or a lost or doubled change passed as stored once."""
    before = {(1, "A"): 10, (1, "B"): 10}
    offered = {(1, "A"): 3, (1, "B"): 2}
    assert each_stored_once(before, {(1, "A"): 7, (1, "B"): 8}, offered)
    assert not each_stored_once(before, {(1, "A"): 7, (1, "B"): 9}, offered)  # one lost
    assert not each_stored_once(before, {(1, "A"): 6, (1, "B"): 8}, offered)  # one twice


def test_cores_used_are_cpu_seconds_over_the_wall_clock() -> None:
    """A side's CPU was not divided by the run's wall time, or two sides were mixed up."""
    before = (100.0, 5.0, 2.0)  # (monotonic s, bench process CPU s, PostgreSQL CPU s)
    after = (120.0, 9.0, 12.0)
    assert cores_used(30.0, before, after) == {
        "bots": 1.5,
        "postgres": 0.5,
        "generator_and_loopback": 0.2,
    }


def test_commands_given_up_on_are_reported_apart_from_late_ones() -> None:
    """A command the bot gave up on (busy: changed nothing) went unmentioned, or as late."""
    lost = {"sent": 10, "unanswered": 1, "gave_up": 2, "each_sent_stored_once": True}
    assert _late_answers(lost) == (
        " (1 answered late, 2 given up on as busy; every one of the 10 sent and not given up "
        "on is in the store exactly once, none given up on is)"
    )
    assert _late_answers({"sent": 10, "unanswered": 0, "gave_up": 0}) == ""


def test_other_work_is_the_machine_less_the_bench_bots_and_postgres() -> None:
    """Other processes' cores were not the machine's busy time less the bench's, the bots'
    and PostgreSQL's, over the wall clock; or a run without the bots' CPU time got a figure."""
    run = LoadRun("tablehand", 200.0, 100, 30.0, 5.0)
    run.cpu_s, run.cpu_interactions = 40.0, 7000
    run.bench_cpu_s, run.postgres_s, run.machine_s, run.wall_s = 20.0, 5.0, 71.0, 40.0
    assert others_cores(run) == 0.15  # 6 s of 71 over 40 s
    run.machine_s = 60.0  # ticks are coarser than schedstat: never below zero
    assert others_cores(run) == 0.0
    assert others_cores(LoadRun("slash", 200.0, 100, 30.0, 5.0)) is None
    assert _others(None) == ""
    assert _others(0.15) == "Other processes kept 0.15 cores busy meanwhile. "
    assert "a disturbed run" in _others(0.16)


def test_the_machine_busy_time_counts_up() -> None:
    """/proc/stat's busy time was not read (it only grows while the machine runs)."""
    first = machine_busy_s()
    deadline = time.monotonic() + 5.0
    while machine_busy_s() == first and time.monotonic() < deadline:
        sum(i * i for i in range(100_000))  # keep a CPU busy past a clock tick
    assert machine_busy_s() > first > 0


def test_the_bots_take_turns_in_alternating_order() -> None:
    """A bot went first in every round, where the first slot measured slower (0.08 ms p50)."""
    from tests.bench.parts import turn_order

    rounds = [turn_order(["tablehand", "bare", "slash"], r) for r in range(4)]
    assert rounds == [
        ["tablehand", "bare", "slash"],
        ["slash", "bare", "tablehand"],
        ["tablehand", "bare", "slash"],
        ["slash", "bare", "tablehand"],
    ]
