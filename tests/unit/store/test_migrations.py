"""Databases written by every earlier schema version open without loss.

tests/fixtures/db/schema_vN.sql is a dump of a database as version N of Tablehand wrote
it. When a migration is added, keep the old fixtures and add one for the new version:
each must migrate to the latest schema with its data intact.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.store import SQLiteStore
from bot.store.migrations import LATEST_VERSION

FIXTURES = sorted((Path(__file__).resolve().parents[2] / "fixtures" / "db").glob("schema_v*.sql"))


def test_there_is_a_fixture_for_the_latest_schema() -> None:
    """The latest schema version has no fixture database to migrate from later."""
    assert f"schema_v{LATEST_VERSION}.sql" in [path.name for path in FIXTURES]


def restore(fixture: Path, path: Path) -> None:
    """Write the dumped database to a file."""
    with sqlite3.connect(path) as connection:
        connection.executescript(fixture.read_text(encoding="utf-8"))


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: p.stem)
async def test_an_old_database_migrates_with_its_data_intact(fixture: Path, tmp_path: Path) -> None:
    """A database from an earlier version lost an encounter, a log line, a character or a setting."""
    path = tmp_path / "old.db"
    restore(fixture, path)
    async with SQLiteStore(path) as store:
        assert await store.schema_version() == LATEST_VERSION
        async with store.channel(1001) as state:
            encounter = state.require_encounter()
            assert (encounter.round, encounter.turn, encounter.tracker_message_id) == (2, 0, 555)
            mira, goblin = encounter.combatants
            assert (mira.name, mira.grit, mira.initiative, mira.controller_id) == (
                "Mira",
                24,
                17,
                5,
            )
            assert [(s.name, s.x, s.source) for s in goblin.specials] == [("Ruin", 2, "Mira")]
            assert [e.text for e in await state.round_log(2)] == ["Mira hits Goblin 1 for 6."]
        character = await store.active_character(77, 5)
        assert character is not None
        assert (character.name, character.grit, character.finesse) == ("Mira", 24, 5)
        settings = await store.get_settings(77)
        assert (settings.gm_role_id, settings.defense_timeout) == (4242, 30)
