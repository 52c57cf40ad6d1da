"""Numbered schema migrations; each runs in one transaction that also records its version.

Append new steps at the end; never edit a released one. A database whose recorded
version is newer than the last step here is refused at start-up. A step is SQL, or a
function of the sqlite3 connection for what SQL alone cannot do. PostgreSQL's steps are
in bot/store/postgres.py.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from bot.store.base import character_key

Step = str | Callable[[sqlite3.Connection], None]


def _key_character_names(conn: sqlite3.Connection) -> None:
    """Give every character its name key; rename the later of two names that now clash."""
    taken: set[tuple[int, int, str]] = set()
    rows = conn.execute("SELECT id, guild_id, owner_id, name FROM characters ORDER BY id")
    for character_id, guild_id, owner_id, name in rows.fetchall():
        new_name, n = name, 1
        while (guild_id, owner_id, character_key(new_name)) in taken:
            n += 1
            new_name = f"{name} ({n})"
        taken.add((guild_id, owner_id, character_key(new_name)))
        conn.execute(
            "UPDATE characters SET name_key = ? WHERE id = ?",
            (character_key(new_name), character_id),
        )
        if new_name != name:  # a damaged sheet keeps its text: only a valid one is renamed
            conn.execute(
                "UPDATE characters SET name = ?, data = json_set(data, '$.name', ?)"
                " WHERE id = ? AND json_valid(data)",
                (new_name, new_name, character_id),
            )


MIGRATIONS: list[tuple[int, str, list[Step]]] = [
    (
        1,
        "encounters, their action log, characters, server settings",
        [
            """
            CREATE TABLE encounters (
                channel_id INTEGER PRIMARY KEY,
                guild_id   INTEGER,
                data       TEXT NOT NULL,
                updated_at REAL NOT NULL
            )
            """,
            """
            CREATE TABLE encounter_log (
                id         INTEGER PRIMARY KEY AUTOINCREMENT,
                channel_id INTEGER NOT NULL REFERENCES encounters(channel_id) ON DELETE CASCADE,
                round      INTEGER NOT NULL,
                text       TEXT NOT NULL
            )
            """,
            "CREATE INDEX encounter_log_by_round ON encounter_log(channel_id, round, id)",
            """
            CREATE TABLE characters (
                id       INTEGER PRIMARY KEY AUTOINCREMENT,
                guild_id INTEGER NOT NULL,
                owner_id INTEGER NOT NULL,
                name     TEXT NOT NULL COLLATE NOCASE,
                data     TEXT NOT NULL,
                UNIQUE (guild_id, owner_id, name)
            )
            """,
            """
            CREATE TABLE active_characters (
                guild_id     INTEGER NOT NULL,
                owner_id     INTEGER NOT NULL,
                character_id INTEGER NOT NULL REFERENCES characters(id) ON DELETE CASCADE,
                PRIMARY KEY (guild_id, owner_id)
            )
            """,
            """
            CREATE TABLE guild_settings (
                guild_id INTEGER PRIMARY KEY,
                data     TEXT NOT NULL
            )
            """,
        ],
    ),
    (
        2,
        "a version on each encounter; character names unique by one rule on every backend",
        [
            "ALTER TABLE encounters ADD COLUMN version INTEGER NOT NULL DEFAULT 1",
            "ALTER TABLE characters ADD COLUMN name_key TEXT",
            _key_character_names,
            "CREATE UNIQUE INDEX characters_by_key ON characters(guild_id, owner_id, name_key)",
        ],
    ),
    (
        3,
        "a character is in one fight: the fight holding each sheet",
        [
            "ALTER TABLE characters ADD COLUMN fight_channel INTEGER",
            "CREATE INDEX characters_by_fight ON characters(fight_channel)"
            " WHERE fight_channel IS NOT NULL",
            # Characters already in stored fights are held by them; one that an older
            # Tablehand let into several is held by the fight changed last.
            """
            UPDATE characters SET fight_channel = (
                SELECT e.channel_id FROM encounters AS e, json_each(e.data, '$.combatants') AS c
                WHERE json_valid(e.data) AND json_extract(c.value, '$.character_id') = characters.id
                ORDER BY e.updated_at DESC, e.channel_id LIMIT 1
            )
            """,
        ],
    ),
    (
        4,
        "a server's NPC templates (/npc), names unique per server by the one name rule",
        [
            """
            CREATE TABLE npc_templates (
                id       INTEGER PRIMARY KEY AUTOINCREMENT,
                guild_id INTEGER NOT NULL,
                name     TEXT NOT NULL,
                name_key TEXT NOT NULL,
                data     TEXT NOT NULL,
                UNIQUE (guild_id, name_key)
            )
            """,
        ],
    ),
    (
        5,
        "encounters found by index: those with attacks waiting, and by their last change",
        [
            # At start-up the bot re-arms waiting attacks and reconciles recent trackers;
            # with 100,000 stored encounters, reading every row's JSON for them took 4.3 s
            # and 0.9 s on the database thread, and every command waited behind it.
            "ALTER TABLE encounters ADD COLUMN pending INTEGER NOT NULL DEFAULT 0",
            "UPDATE encounters SET pending = 1 WHERE json_valid(data)"
            " AND json_array_length(data, '$.pending_attacks') > 0",
            "CREATE INDEX encounters_pending ON encounters(channel_id) WHERE pending",
            "CREATE INDEX encounters_by_update ON encounters(updated_at)",
        ],
    ),
]

LATEST_VERSION = MIGRATIONS[-1][0]
