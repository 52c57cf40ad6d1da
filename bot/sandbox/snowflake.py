"""Discord snowflakes: 64-bit ids whose top bits are milliseconds since the Discord epoch."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime

DISCORD_EPOCH_MS = 1420070400000
# The sandbox's world (guild, channels, roles, users) is made at this instant, so its ids
# are the same in every run and a sandbox database stays valid across restarts.
WORLD_EPOCH_MS = 1704067200000  # 2024-01-01T00:00:00Z


def make_snowflake(ms: int, increment: int = 0, *, worker: int = 1, process: int = 0) -> int:
    """Build a snowflake from a Unix time in milliseconds and the low fields."""
    if ms < DISCORD_EPOCH_MS:
        raise ValueError(f"{ms} ms is before the Discord epoch")
    return (
        ((ms - DISCORD_EPOCH_MS) << 22)
        | (worker & 31) << 17
        | (process & 31) << 12
        | (increment & 4095)
    )


def snowflake_ms(snowflake: int) -> int:
    """Return the Unix time in milliseconds encoded in a snowflake."""
    return (snowflake >> 22) + DISCORD_EPOCH_MS


def snowflake_time(snowflake: int) -> datetime:
    """Return the aware UTC datetime encoded in a snowflake."""
    return datetime.fromtimestamp(snowflake_ms(snowflake) / 1000, UTC)


class SnowflakeGenerator:
    """Hand out unique, strictly increasing snowflakes from a clock."""

    def __init__(self, clock: Callable[[], float] = time.time, *, worker: int = 1) -> None:
        self._clock = clock
        self._worker = worker
        self._last_ms = 0
        self._increment = 0

    def skip_past(self, snowflake: int) -> None:
        """Hand out only snowflakes greater than this one (ids restored from an earlier run)."""
        ms = snowflake_ms(snowflake)
        if ms >= self._last_ms:
            self._last_ms, self._increment = ms, snowflake & 4095

    def next(self) -> int:
        """Return a snowflake greater than every one returned before."""
        ms = max(int(self._clock() * 1000), DISCORD_EPOCH_MS)
        if ms <= self._last_ms:
            ms = self._last_ms
            self._increment += 1
            if self._increment > 4095:  # more than 4096 ids in one millisecond: borrow the next one
                ms += 1
                self._increment = 0
        else:
            self._increment = 0
        self._last_ms = ms
        return make_snowflake(ms, self._increment, worker=self._worker)


def world_ids() -> SnowflakeGenerator:
    """Return a generator of stable ids for the sandbox's guild, channels, roles and users."""
    ticks = iter(range(1 << 62))
    return SnowflakeGenerator(lambda: (WORLD_EPOCH_MS + next(ticks)) / 1000, worker=2)


def iso(dt: datetime) -> str:
    """Format a datetime the way Discord does in payloads."""
    return dt.astimezone(UTC).isoformat(timespec="microseconds")
