"""Per-channel state: the store contract and its SQLite and in-memory backends."""

from bot.store.base import ChannelState, GuildSettings, Store
from bot.store.memory import MemoryStore
from bot.store.sqlite import SQLiteStore

__all__ = ["ChannelState", "GuildSettings", "MemoryStore", "SQLiteStore", "Store"]
