"""Snowflakes: time round trip, uniqueness, stable world ids."""

from datetime import UTC, datetime

from bot.sandbox.snowflake import (
    DISCORD_EPOCH_MS,
    SnowflakeGenerator,
    make_snowflake,
    snowflake_ms,
    snowflake_time,
)
from bot.sandbox.world import Guild


def test_a_snowflake_encodes_its_millisecond() -> None:
    """The time in a snowflake is the time it was made from."""
    ms = 1_700_000_000_123
    assert snowflake_ms(make_snowflake(ms, 7)) == ms
    assert snowflake_time(make_snowflake(ms)) == datetime.fromtimestamp(ms / 1000, UTC)


def test_the_discord_epoch_is_snowflake_zero_time() -> None:
    """A snowflake made at the Discord epoch has no time bits."""
    assert make_snowflake(DISCORD_EPOCH_MS) >> 22 == 0


def test_ids_from_a_frozen_clock_still_increase() -> None:
    """Many ids in one millisecond (past the 4096 increments) stay unique and increasing."""
    gen = SnowflakeGenerator(lambda: 1_700_000_000.0)
    ids = [gen.next() for _ in range(10_000)]
    assert ids == sorted(set(ids))


def test_a_clock_going_backwards_does_not_repeat_ids() -> None:
    """If the clock steps back, ids keep increasing."""
    times = iter([1_700_000_001.0, 1_700_000_000.0, 1_700_000_000.5])
    gen = SnowflakeGenerator(lambda: next(times))
    a, b, c = gen.next(), gen.next(), gen.next()
    assert a < b < c


def test_the_world_has_the_same_ids_in_every_run() -> None:
    """Two fresh guilds have identical guild, channel and member ids (a sandbox DB stays valid)."""
    one, two = Guild(), Guild()
    assert one.id == two.id
    assert list(one.channels) == list(two.channels)
    assert [m.id for m in one.people()] == [m.id for m in two.people()]
