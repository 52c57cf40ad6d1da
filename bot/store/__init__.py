"""Per-channel state: the store contract and its SQLite, PostgreSQL and in-memory backends."""

from bot.store.base import (
    ChannelState,
    GuildSettings,
    SheetInFight,
    SheetState,
    Store,
    StoreConflict,
)
from bot.store.memory import MemoryStore
from bot.store.sqlite import SQLiteStore

__all__ = [
    "ChannelState",
    "GuildSettings",
    "MemoryStore",
    "SQLiteStore",
    "SheetInFight",
    "SheetState",
    "Store",
    "StoreConflict",
    "open_store",
]


def open_store(database: str) -> Store:
    """Return the store a database setting names: a postgresql:// URL, else a SQLite file."""
    if database.startswith(("postgres://", "postgresql://")):
        from bot.store.postgres import PostgresStore

        return PostgresStore(database)
    return SQLiteStore(database.removeprefix("sqlite:///").removeprefix("sqlite://"))
