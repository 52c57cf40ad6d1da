"""The store's contract: per-channel state under a lock, committed as one transaction.

A command's whole load → change → save happens inside `async with store.channel(id)`:
one database transaction holding the channel's lock. Leaving the block normally commits
every change at once; an exception rolls all of them back. Each stored encounter carries
a version, checked when it is written: an update that another writer overtook raises
`StoreConflict` instead of silently undoing the other write.

Backends (SQLite, PostgreSQL, in-memory) implement `_load` and `_commit`; one that can
serve several processes overrides `_channel_transaction` to take the channel's lock in
the database.
"""

from __future__ import annotations

import asyncio
import logging
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Collection
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from pydantic import Field, ValidationError

from bot.errors import NoEncounter, StoreError
from bot.rules.models import Character, Encounter, LogEntry, Model
from bot.rules.names import name_key

log = logging.getLogger(__name__)

DEFAULT_DEFENSE_TIMEOUT = 60  # seconds [COMMANDS.md /settings]

GuildFilter = Collection[int] | None  # the guilds a process serves; None: all of them


class StoreConflict(StoreError):
    """Another writer changed the channel between this block's load and its commit."""

    def __init__(self) -> None:
        super().__init__(
            "Someone else changed this channel at the same moment, so nothing was saved. Try again."
        )


def character_key(name: str) -> str:
    """Return the form two character names share when they count as the same name."""
    # One rule for every backend, the game's own (bot/rules/names.py): NFKC, nothing
    # invisible, case folded. SQLite's NOCASE folds only ASCII, so "ärger" and "Ärger"
    # used to be two sheets there and one in the in-memory store.
    return name_key(name)


class GuildSettings(Model):
    """A server's settings (/settings)."""

    guild_id: int
    gm_role_id: int | None = None
    defense_timeout: int = Field(default=DEFAULT_DEFENSE_TIMEOUT, ge=5, le=3600)


@dataclass(frozen=True)
class LoadedChannel:
    """What a backend hands back for one channel: the encounter as stored, untouched."""

    encounter_json: str | None
    version: int = 0  # the stored row's version; 0: no row


@dataclass(frozen=True)
class GritWriteBack:
    """A fight's Grit, written back to the character's sheet."""

    character_id: int
    grit: int
    max_grit: int
    injuries: int


@dataclass
class ChannelChanges:
    """Everything one channel block wants written, in one transaction."""

    channel_id: int
    guild_id: int | None
    encounter_json: str | None  # None: delete the encounter (and its log)
    write_encounter: bool
    log: list[LogEntry] = field(default_factory=list)
    character_grit: list[GritWriteBack] = field(default_factory=list)
    version: int = 0  # the version loaded: the write must find the row still at it
    pending_attacks: bool = False  # what the scans look for, for backends that index it
    character_ids: list[int] = field(default_factory=list)


class KeyedLocks:
    """One asyncio.Lock per key, dropped again when nobody holds or waits for it."""

    def __init__(self) -> None:
        self._locks: dict[object, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def hold(self, key: object) -> AsyncIterator[None]:
        lock, users = self._locks.get(key, (None, 0))
        if lock is None:
            lock = asyncio.Lock()
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users <= 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)

    def __len__(self) -> int:
        return len(self._locks)


class ChannelState:
    """One channel's state inside a `store.channel()` block."""

    def __init__(self, store: Store, channel_id: int, loaded: LoadedChannel) -> None:
        self._store = store
        self.channel_id = channel_id
        self._loaded_json = loaded.encounter_json
        self._version = loaded.version
        self._encounter: Encounter | None = None
        self._damage: str | None = None
        if loaded.encounter_json is not None:
            try:
                self._encounter = Encounter.model_validate_json(loaded.encounter_json)
            except ValidationError:
                self._damage = loaded.encounter_json
        self._log: list[LogEntry] = []
        self._character_grit: list[GritWriteBack] = []
        self.encounter_written = False  # set once the block committed a changed encounter

    @property
    def encounter(self) -> Encounter | None:
        """Return this channel's encounter, or None; a damaged stored one raises StoreError."""
        if self._damage is not None:
            raise StoreError(
                "This channel's stored encounter is damaged and cannot be read. "
                "A GM can clear it with /init end."
            )
        return self._encounter

    @encounter.setter
    def encounter(self, value: Encounter | None) -> None:
        self._damage = None
        self._encounter = value

    @property
    def damaged(self) -> bool:
        return self._damage is not None

    def require_encounter(self) -> Encounter:
        """Return the encounter or raise NoEncounter."""
        encounter = self.encounter
        if encounter is None:
            raise NoEncounter()
        return encounter

    def log(self, round: int, text: str) -> None:
        """Append a line to the encounter's action log (written on commit)."""
        self._log.append(LogEntry(round=round, text=text))

    async def round_log(self, round: int) -> list[LogEntry]:
        """Return the log of one round: what is stored, then what this block added."""
        stored = await self._store._round_log(self.channel_id, round)
        return stored + [entry for entry in self._log if entry.round == round]

    def write_back(self, character_id: int, grit: int, max_grit: int, injuries: int) -> None:
        """Write a fight's Grit back to the character's sheet on commit."""
        self._character_grit.append(GritWriteBack(character_id, grit, max_grit, injuries))

    def _changes(self) -> ChannelChanges:
        encounter_json = None if self._encounter is None else self._encounter.model_dump_json()
        damaged_untouched = self._damage is not None
        write = not damaged_untouched and encounter_json != self._loaded_json
        encounter = self._encounter
        return ChannelChanges(
            channel_id=self.channel_id,
            guild_id=None if encounter is None else encounter.guild_id,
            encounter_json=encounter_json,
            write_encounter=write,
            log=self._log if encounter is not None else [],
            character_grit=self._character_grit,
            version=self._version,
            pending_attacks=bool(encounter and encounter.pending_attacks),
            character_ids=[]
            if encounter is None
            else [c.character_id for c in encounter.combatants if c.character_id is not None],
        )


class Store(ABC):
    """Per-channel encounters, characters and server settings."""

    # Whether several processes may share this backend's database (PostgreSQL). The bot
    # refuses shard leases and a second process on a backend that cannot.
    multi_process = False

    def __init__(self) -> None:
        self._channel_locks = KeyedLocks()
        self._settings_cache: dict[int, GuildSettings] = {}
        self._damaged_settings: set[int] = set()

    async def open(self) -> None:  # noqa: B027 - optional for backends without resources
        """Open the backend (connect, migrate)."""

    async def close(self) -> None:  # noqa: B027
        """Release the backend's resources."""

    async def __aenter__(self) -> Store:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @asynccontextmanager
    async def channel(self, channel_id: int) -> AsyncIterator[ChannelState]:
        """Hold the channel's lock; commit everything on a clean exit, nothing on an error."""
        # The in-process lock first: commands of one process queue here, cheaply, and
        # only one of them at a time waits for the database's lock (if it has one).
        async with (
            self._channel_locks.hold(channel_id),
            self._channel_transaction(channel_id) as transaction,
        ):
            loaded = await self._load(channel_id, transaction=transaction)
            state = ChannelState(self, channel_id, loaded)
            yield state
            changes = state._changes()
            if changes.write_encounter or changes.log or changes.character_grit:
                await self._commit(changes, transaction=transaction)
            state.encounter_written = changes.write_encounter

    @asynccontextmanager
    async def _channel_transaction(self, channel_id: int) -> AsyncIterator[object]:
        """Hold the channel's lock in the database for a block; yield what load and commit use."""
        yield None  # one process per database: the in-process lock is the whole lock

    async def peek(self, channel_id: int) -> Encounter | None:
        """Return the channel's committed encounter without taking its lock (autocomplete)."""
        loaded = await self._load(channel_id, locked=False)
        if loaded.encounter_json is None:
            return None
        try:
            return Encounter.model_validate_json(loaded.encounter_json)
        except ValidationError:
            return None

    async def settings(self, guild_id: int | None) -> GuildSettings:
        """Return a server's settings, cached (a backend shared by processes keeps it current)."""
        if guild_id is None:
            return GuildSettings(guild_id=0)
        cached = self._settings_cache.get(guild_id)
        if cached is None:
            cached = self._settings_cache[guild_id] = await self.get_settings(guild_id)
        return cached

    def _stored_settings(self, guild_id: int, data: str | None) -> GuildSettings:
        """Read a stored settings row; a damaged one gives the defaults, logged once."""
        if data is None:
            return GuildSettings(guild_id=guild_id)
        try:
            return GuildSettings.model_validate_json(data)
        except ValidationError:
            # Every command reads the settings: a damaged row must not take the server's
            # whole bot down, /settings included, which is how it gets overwritten.
            if guild_id not in self._damaged_settings:
                self._damaged_settings.add(guild_id)
                log.warning(
                    "the stored settings of guild %s are damaged; using the defaults until "
                    "/settings saves new ones",
                    guild_id,
                )
            return GuildSettings(guild_id=guild_id)

    async def update_settings(self, settings: GuildSettings) -> None:
        """Save a server's settings and refresh the cache."""
        await self.save_settings(settings)
        self._settings_cache[settings.guild_id] = settings

    def held_channel_locks(self) -> int:
        """Return how many channel locks exist now (they are dropped when unused)."""
        return len(self._channel_locks)

    @abstractmethod
    async def _load(
        self, channel_id: int, *, locked: bool = True, transaction: object = None
    ) -> LoadedChannel:
        """Read the channel's committed encounter; `locked`: the caller holds its lock."""

    @abstractmethod
    async def _commit(self, changes: ChannelChanges, *, transaction: object = None) -> None:
        """Write a block's changes; raise StoreConflict if the row is no longer at its version."""

    @abstractmethod
    async def _round_log(self, channel_id: int, round: int) -> list[LogEntry]: ...

    @abstractmethod
    async def encounter_channels(self, guild_ids: GuildFilter = None) -> list[int]:
        """Return the channels that have a stored encounter (in these guilds)."""

    @abstractmethod
    async def pending_attack_channels(self, guild_ids: GuildFilter = None) -> list[int]:
        """Return the channels (in these guilds) whose encounter has attacks waiting."""

    @abstractmethod
    async def character_fight(self, character_id: int) -> int | None:
        """Return the channel whose stored encounter plays this character, if any."""

    @abstractmethod
    async def recent_encounter_channels(
        self, since: float, guild_ids: GuildFilter = None
    ) -> list[int]:
        """Return the channels (in these guilds) whose encounter changed at or after `since`."""

    # Characters: one player's sheets on one server.
    @abstractmethod
    async def save_character(self, character: Character) -> Character:
        """Insert or replace a character; return it with its id."""

    @abstractmethod
    async def get_character(self, guild_id: int, owner_id: int, name: str) -> Character | None:
        """Return the owner's character of that name (compared by `character_key`)."""

    @abstractmethod
    async def character_by_id(self, character_id: int) -> Character | None: ...

    @abstractmethod
    async def list_characters(self, guild_id: int, owner_id: int) -> list[Character]: ...

    @abstractmethod
    async def delete_character(self, guild_id: int, owner_id: int, name: str) -> bool: ...

    @abstractmethod
    async def set_active_character(
        self, guild_id: int, owner_id: int, character_id: int
    ) -> None: ...

    @abstractmethod
    async def active_character(self, guild_id: int, owner_id: int) -> Character | None: ...

    # Server settings.
    @abstractmethod
    async def get_settings(self, guild_id: int) -> GuildSettings:
        """Return the server's settings (defaults when none are stored)."""

    @abstractmethod
    async def save_settings(self, settings: GuildSettings) -> None: ...
