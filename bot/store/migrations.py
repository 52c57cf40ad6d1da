"""Numbered schema migrations; each runs in one transaction that also records its version.

Append new steps at the end; never edit a released one. A database whose recorded
version is newer than the last step here is refused at start-up.
"""

from __future__ import annotations

MIGRATIONS: list[tuple[int, str, list[str]]] = [
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
]

LATEST_VERSION = MIGRATIONS[-1][0]
