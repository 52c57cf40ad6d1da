"""Fixtures every test directory shares: a real PostgreSQL server, a fresh database per test.

The server is `TABLEHAND_TEST_POSTGRES` (an admin URL; `.ci/run` starts one and sets it),
else a throwaway cluster this session starts itself from the machine's PostgreSQL
(`tests/postgres.py`). Tests that need it are skipped, with the reason, only when
neither works.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator

import pytest

from bot.store import Store
from tests import postgres
from tests.postgres import fresh_database


@pytest.fixture(autouse=True, scope="session")
def copies_are_checked() -> None:
    """Check every block's copy of a committed encounter against a parse of its stored text."""
    Store.check_copies = True


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """Return an admin URL of a running PostgreSQL server, or skip saying why there is none."""
    url = os.environ.get(postgres.URL_VARIABLE)
    if url:
        yield url
        return
    try:
        import asyncpg  # noqa: F401 - the `postgres` extra
    except ImportError:
        pytest.skip("asyncpg is not installed (pip install -e '.[postgres]')")
    try:
        cluster = postgres.start()
    except postgres.NoPostgres as error:
        pytest.skip(f"no PostgreSQL server: {error}")
    try:
        yield cluster.url
    finally:
        postgres.stop(cluster.directory)


@pytest.fixture
async def postgres_url(postgres_server: str) -> AsyncIterator[str]:
    """Return the URL of a new, empty database, dropped after the test."""
    async with fresh_database(postgres_server) as url:
        yield url
