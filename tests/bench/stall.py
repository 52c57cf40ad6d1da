"""Event-loop stalls: the fuzzer's nastiest dice, thrown at the bot in its own process.

`python -m tests.bench.stall` is `python -m bot run` with a loop-lag monitor
(`bot.sandbox.lag.LoopLag`: a 1 ms timer's overshoot) on the bot's loop, appending every
stall over 1 ms to $TABLEHAND_LAG_FILE as "<end, monotonic s> <wall ms> <loop CPU ms>".
The CPU time is the loop thread's own over the stall: on a machine busy with other work
the wall time also counts moments the bot was not scheduled at all. The bench's `stall`
part starts it against the loopback Discord, sets up the fuzz's fight, then throws every
case of `tests/e2e/bombs.py` at /roll, /grit damage and /attack (the defender's click
rolls the damage) and reports the worst stall, the case in flight when it ended, and
the worst stall while the fight was set up with ordinary commands, for comparison.
Both processes read the same monotonic clock, so a stall is put down to the last case
sent before it ended.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import time
from pathlib import Path
from typing import Any, TextIO

LAG_FILE = "TABLEHAND_LAG_FILE"
REPORT_OVER_S = 0.001
SET_UP = "set-up (ordinary commands)"


# In the bot's process --------------------------------------------------------------------


async def _watched(settings: Any, out: TextIO) -> None:
    from bot.__main__ import serve
    from bot.sandbox.lag import LoopLag, Stall

    def write(at: float, stall: Stall) -> None:
        # A line at a time, read once the run is over: end, wall ms, the loop's own CPU ms.
        out.write(f"{at:.6f} {stall.late * 1000:.3f} {stall.busy * 1000:.3f}\n")

    async with LoopLag(on_stall=write, report_over=REPORT_OVER_S):
        await serve(settings)


def main() -> int:
    """Run the bot as `python -m bot run` does, with the loop-lag monitor on its loop."""
    from bot.__main__ import configure_logging
    from bot.config import Settings

    settings = Settings.from_env()
    configure_logging(settings)
    with (
        open(os.environ[LAG_FILE], "a", buffering=1) as out,
        contextlib.suppress(KeyboardInterrupt),
    ):
        asyncio.run(_watched(settings, out))
    return 0


# In the bench's process ------------------------------------------------------------------


async def stall(workdir: Path) -> dict[str, Any]:
    """Throw every dice bomb where dice are rolled; return the worst stalls and their cases."""
    from bot.sandbox.client import SandboxTable
    from bot.sandbox.harness import BotProcess
    from bot.sandbox.server import LoopbackDiscord, SandboxError, SandboxTimeout
    from tests.e2e.bombs import bomb_cases

    lag_file, db = workdir / "stall-lag.txt", workdir / "stall.db"
    for stale in (lag_file, db):
        stale.unlink(missing_ok=True)
    sent: list[tuple[float, str]] = []  # (monotonic time, case) in the order sent
    unanswered = 0
    async with LoopbackDiscord() as server:
        proc = await BotProcess.start(
            server,
            db_path=db,
            args=("-m", "tests.bench.stall"),
            env={LAG_FILE: str(lag_file)},
            log_path=workdir / "stall-tablehand.log",
        )
        try:
            table = SandboxTable(server, timeout=15)
            await server.wait_idle(quiet=0.5, timeout=30)
            sent.append((time.monotonic(), SET_UP))
            await _start_fight(table)
            cases = bomb_cases()
            for who, command, options in cases:
                try:
                    if command == "attack":  # a fresh fight, so the attacker has an action
                        sent.append((time.monotonic(), SET_UP))
                        await _restart_fight(table)
                    sent.append((time.monotonic(), f"/{command} {options!r}"))
                    await _throw(table, who, command, options)
                except (SandboxTimeout, SandboxError):  # a stall past the 3 s deadline (or
                    unanswered += 1  # its fallout: no Confirm to press); still measured
                    await _answers_again(table)
            await server.wait_idle(quiet=1.5, timeout=30)  # the trackers' last edits
        finally:
            await proc.stop()
    return _summary(_stalls(lag_file), sent, len(cases)) | {"unanswered": unanswered}


LONG = "Xyloquendar the Unforgiving"  # tests/e2e/test_big_fights: "… 44" fills the 32 allowed
HERO = "Mirabelle Quintessa Longstride"


def _forty_four() -> list[tuple[str, str, str | None]]:
    """The 44 long-named fortune fight of test_big_fights: (who, line, button to press)."""
    steps: list[tuple[str, str, str | None]] = [
        ("gm", "/init start mode:fortune", None),
        ("gm", f"/init add name:{LONG} count:43 finesse:2 initiative_bonus:3", None),
        ("alice", f"/init join character:{HERO} finesse:4", None),
    ]
    steps += [
        (
            "gm",
            f'/effect apply combatant:"{LONG} {n}" special:Ruin x:2 source:"{LONG} {n + 1}"',
            None,
        )
        for n in range(1, 12)
    ]
    steps += [("gm", "/init next", None)] * 6
    steps += [
        ("gm", f'/attack target:"{LONG} 40" attacker:"{LONG} 41" damage:1d6 force:true', "Block"),
        ("gm", "/init round", None),
        ("gm", "/init list", "▶"),
        ("gm", "/effect list", None),
        ("gm", "/init end", "Confirm"),
    ]
    return steps


def _hundred() -> list[tuple[str, str, str | None]]:
    """A fight of 100 long-named combatants, its round, lists, damage and end."""
    return [
        ("gm", "/init start mode:fortune", None),
        ("gm", f"/init add name:{LONG} count:100", None),
        ("gm", "/init next", None),
        ("gm", f'/grit damage combatant:"{LONG} 57" amount:2', None),
        ("gm", f'/attack target:"{LONG} 99" attacker:"{LONG} 98" damage:1d6 force:true', "Block"),
        ("gm", "/init next", None),
        ("gm", "/init round", None),
        ("gm", "/init list", "▶"),
        ("bob", "/init list", "▶"),
        ("gm", "/init end", "Confirm"),
    ]


async def big_fights(workdir: Path) -> dict[str, Any]:
    """Play the biggest fights under the loop-lag monitor; return the worst stalls by step."""
    from bot.replies import APOLOGY
    from bot.sandbox.client import SandboxTable
    from bot.sandbox.harness import BotProcess
    from bot.sandbox.server import LoopbackDiscord
    from tests.e2e.invariants import refused_calls

    lag_file, db = workdir / "bigfight-lag.txt", workdir / "bigfight.db"
    for stale in (lag_file, db):
        stale.unlink(missing_ok=True)
    sent: list[tuple[float, str]] = []
    problems: list[str] = []
    fights = {"44 long-named": ("table-1", _forty_four()), "100": ("table-2", _hundred())}
    async with LoopbackDiscord(tables=2) as server:
        proc = await BotProcess.start(
            server,
            db_path=db,
            args=("-m", "tests.bench.stall"),
            env={LAG_FILE: str(lag_file)},
            log_path=workdir / "bigfight-tablehand.log",
        )
        try:
            table = SandboxTable(server, timeout=15)
            await server.wait_idle(quiet=0.5, timeout=30)
            for fight, (channel, steps) in fights.items():
                for who, line, button in steps:
                    label = f"{fight}: {line.strip()[:60]}"
                    sent.append((time.monotonic(), label))
                    reply = await table.user(who).run(line.strip(), channel=channel)
                    problems += [
                        f"{label}: apology" for m in reply.messages if m.content == APOLOGY
                    ]
                    await _press(table, who, reply, button, sent, label)
                for typed in ("", "x", "xyloquendar the unforgiving 4", "57"):
                    sent.append((time.monotonic(), f"{fight}: autocomplete {typed!r}"))
                    await table.user("gm").autocomplete(
                        "grit damage", "combatant", typed, channel=channel
                    )
            await server.wait_idle(quiet=1.5, timeout=30)
            problems += refused_calls(server.calls)
        finally:
            await proc.stop()
    worst: dict[str, tuple[float, float]] = {}
    for at, wall, cpu in _stalls(lag_file):
        before = [label for started, label in sent if started <= at]
        if before:
            old = worst.get(before[-1], (0.0, 0.0))
            worst[before[-1]] = (max(old[0], wall), max(old[1], cpu))
    ranked = sorted(worst.items(), key=lambda kv: kv[1][0], reverse=True)
    return {
        "fights": list(fights),
        "steps": len(sent),
        "worst_stall_ms": ranked[0][1][0] if ranked else 0.0,
        "worst_case": ranked[0][0] if ranked else None,
        "worst_busy_ms": max((b for _, b in worst.values()), default=0.0),
        "top": [{"case": c, "ms": w, "busy_ms": b} for c, (w, b) in ranked[:5]],
        "problems": problems,
    }


async def _press(
    table: Any, who: str, reply: Any, button: str | None, sent: list[tuple[float, str]], label: str
) -> None:
    """Press a reply's button if it has it (▶: every page, as a reader would)."""
    from bot.sandbox.server import SandboxError

    if button is None:
        return
    while True:
        try:
            message = reply.find_button_message(button)
        except SandboxError:
            return
        found = message.find_button(button)
        if found.get("disabled"):
            return
        sent.append((time.monotonic(), f"{label} [{button}]"))
        reply = await table.user(who).click(message, button)
        if button != "▶":
            return


async def _start_fight(table: Any) -> None:
    from tests.e2e.bombs import FIGHT

    for who, line in FIGHT:
        await table.user(who).run(line, channel="table-1")


async def _restart_fight(table: Any) -> None:
    end = await table.user("gm").run("/init end", channel="table-1")
    await end.click("Confirm")
    await _start_fight(table)


async def _throw(table: Any, who: str, command: str, options: dict[str, str]) -> None:
    from bot.sandbox.client import UsageError

    try:
        await table.user(who).command(command, channel="table-1", options=options)
    except UsageError:  # longer than Discord's client sends: never reaches the bot
        return
    messages = table.channel("table-1").public_messages
    prompt = messages[-1] if messages else None
    labels = [b.get("label") for b in prompt.buttons] if prompt is not None else []
    if command == "attack" and ("Block" in labels or "Dodge" in labels):
        await table.user("gm").click(prompt, 1)  # the damage is rolled now


async def _answers_again(table: Any, tries: int = 20) -> None:
    """Wait until the bot answers a command again (after a stall longer than the timeout)."""
    from bot.sandbox.server import SandboxTimeout

    for _ in range(tries):
        with contextlib.suppress(SandboxTimeout):
            await table.user("gm").run("/init list", channel="table-1")
            return


def _stalls(path: Path) -> list[tuple[float, float, float]]:
    if not path.exists():
        return []
    rows = (line.split() for line in path.read_text().splitlines() if line.strip())
    return [(float(at), float(late), float(busy)) for at, late, busy in rows]


def _summary(
    stalls: list[tuple[float, float, float]], sent: list[tuple[float, str]], cases: int
) -> dict[str, Any]:
    late: dict[str, float] = {}
    busy: dict[str, float] = {}
    for at, wall, cpu in stalls:
        before = [case for started, case in sent if started <= at]
        if before:  # stalls before the first command are start-up's, measured elsewhere
            late[before[-1]] = max(late.get(before[-1], 0.0), wall)
            busy[before[-1]] = max(busy.get(before[-1], 0.0), cpu)
    bombs = {case: ms for case, ms in late.items() if case != SET_UP}
    worked = {case: ms for case, ms in busy.items() if case != SET_UP}
    by = max(bombs, key=bombs.__getitem__) if bombs else None
    busiest = max(worked, key=worked.__getitem__) if worked else None
    ranked = sorted(bombs.items(), key=lambda kv: kv[1], reverse=True)
    return {
        "cases": cases,
        "stalls_over_1ms": len(stalls),
        "worst_stall_ms": bombs[by] if by else 0.0,
        "worst_case": by,
        "worst_busy_ms": worked[busiest] if busiest else 0.0,
        "worst_busy_case": busiest,
        "worst_set_up_stall_ms": late.get(SET_UP, 0.0),
        "worst_set_up_busy_ms": busy.get(SET_UP, 0.0),
        "top": [{"case": case[:160], "ms": ms, "busy_ms": busy[case]} for case, ms in ranked[:5]],
    }


if __name__ == "__main__":
    sys.exit(main())
