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
        assert await store.character_fight(1) == 1001  # her fight holds her sheet
        settings = await store.get_settings(77)
        assert (settings.gm_role_id, settings.defense_timeout) == (4242, 30)
        goblin = await store.get_npc(77, "Goblin")  # NPC templates came with version 4
        if int(fixture.stem.removeprefix("schema_v")) >= 4:
            assert goblin is not None
            assert (goblin.physical, goblin.max_grit, [i.name for i in goblin.items]) == (
                3,
                12,
                ["Spear", "Hide"],
            )
        else:
            assert goblin is None and await store.list_npcs(77) == []


async def test_a_character_in_several_old_fights_is_held_by_the_latest(tmp_path: Path) -> None:
    """Migrating a database where one sheet played in two fights left it free, or in the older."""
    path = tmp_path / "old.db"
    restore(FIXTURES[1], path)  # schema 2: Mira (character 1) fights in channel 1001
    with sqlite3.connect(path) as connection:
        connection.execute(  # the same sheet in a fight changed later, as issue 16 found
            "INSERT INTO encounters (channel_id, guild_id, data, updated_at, version)"
            " SELECT 1002, guild_id, replace(data, '1001', '1002'), updated_at + 60, 1"
            " FROM encounters WHERE channel_id = 1001"
        )
        connection.execute(  # and a damaged encounter, which names nobody
            "INSERT INTO encounters VALUES (1003, 77, '{\"combatants\": [', 0, 1)"
        )
        connection.execute(
            "INSERT INTO characters (guild_id, owner_id, name, name_key, data)"
            " SELECT guild_id, owner_id, 'Tamsin', 'tamsin', replace(data, 'Mira', 'Tamsin')"
            " FROM characters WHERE id = 1"
        )
    async with SQLiteStore(path) as store:
        assert await store.character_fight(1) == 1002
        assert await store.character_fight(2) is None


async def test_stored_attacks_waiting_for_a_defense_are_flagged_by_the_migration(
    tmp_path: Path,
) -> None:
    """After migrating, a stored fight with an attack waiting was not listed for re-arming."""
    path = tmp_path / "old.db"
    restore(FIXTURES[2], path)  # schema 3: channel 1001's fight, nothing waiting
    waiting = (
        '{"id": "a1", "attacker_id": 1, "defender_id": 2, "spec": {}, "roll": {},'
        ' "created_at": 0.0, "due_at": 60.0}'
    )
    with sqlite3.connect(path) as connection:
        connection.execute(  # the same fight in 1002, with an attack waiting for a defense
            "INSERT INTO encounters (channel_id, guild_id, data, updated_at, version)"
            " SELECT 1002, guild_id, json_set(replace(data, '1001', '1002'),"
            " '$.pending_attacks', json_array(json(?))), updated_at, 1"
            " FROM encounters WHERE channel_id = 1001",
            (waiting,),
        )
        connection.execute(  # and a damaged encounter, which is not read as waiting
            "INSERT INTO encounters VALUES (1003, 77, '{\"pending_attacks\": [', 0, 1)"
        )
    async with SQLiteStore(path) as store:
        assert await store.pending_attack_channels() == [1002]
        async with store.channel(1002) as state:
            assert [a.id for a in state.require_encounter().pending_attacks] == ["a1"]
            state.require_encounter().pending_attacks.clear()
        assert await store.pending_attack_channels() == []
