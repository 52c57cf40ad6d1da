"""The store's contract: per-channel state under a lock, committed as one transaction.

A command's whole load → change → save happens inside `async with store.channel(id)`:
one database transaction holding the channel's lock. Leaving the block normally commits
every change at once; an exception rolls all of them back. Each stored encounter carries
a version, checked when it is written: an update that another writer overtook raises
`StoreConflict` instead of silently undoing the other write.

Character sheets belong to the store too. `async with store.sheet(character_id) as
sheet:` holds that sheet's lock (one per sheet; on PostgreSQL an advisory lock, so the
processes queue too), hands over `sheet.character` to change, and on a clean exit
writes back only the fields the block changed — any field, a list like `tags` (or a
sheet's weapons) as a whole — never the whole sheet over someone else's change of
another field. `sheet.delete()` deletes it instead. Never open a channel block inside a
sheet block: channel blocks take sheet locks (below), so that order could deadlock.

A character is in at most one fight. `/init join` takes the sheet inside the joining
channel's block with `state.claim_sheet(id)`: it holds the sheet's lock until that
block ends and returns the sheet as it is now (the copy the fight plays is the sheet
the claim recorded), and the claim is written with the block's commit, conditionally:
a sheet another fight holds is refused (`SheetInFight`, naming that fight's channel).
While claimed, the sheet's Grit (`FIGHT_FIELDS`) is the fight's: a sheet block that
changes it is refused, and the fight writes it back (`state.write_back`) when the
character leaves or the fight ends. The claim follows the encounter: it is released in
the commit that takes the character out of it, or deletes the encounter (a damaged one
too). `character_fight(id)` reads it.

A server's NPC templates (`/npc`) are the store's too: `async with store.npc(guild_id,
name) as npc:` holds that template's lock and writes it back whole on a clean exit (no
fight writes into a template, so there is no other writer's field to keep).

Backends (SQLite, PostgreSQL, in-memory) implement `_load` and `_commit`, and the sheet
primitives (`_load_sheet`, `_write_sheet`, `_delete_sheet`); one that can serve several
processes overrides `_channel_transaction`, `_sheet_transaction` and
`_lock_sheet_in_database` to take the locks in the database.
"""

import asyncio
import logging
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Collection
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, Self, TypeVar

from pydantic import Field, ValidationError

from bot.errors import BadInput, NoEncounter, NotFound, RuleViolation, StoreError, TableBusy
from bot.i18n import N_
from bot.rules.models import Character, Encounter, LogEntry, Model, NpcTemplate
from bot.rules.names import clean_name, name_key
from bot.store.copies import Origins, copy_state, same_state
from bot.store.texts import Parts, encounter_text

log = logging.getLogger(__name__)

DEFAULT_DEFENSE_TIMEOUT = 60  # seconds [COMMANDS.md /settings]
GLIMPSED_CHANNELS = 128  # parsed encounters kept for `Store.glimpse` (about 45 KiB each for 10)

GuildFilter = Collection[int] | None  # the guilds a process serves; None: all of them
T = TypeVar("T")


class StoreConflict(StoreError):
    """Another writer changed the channel between this block's load and its commit."""

    def __init__(self) -> None:
        super().__init__(
            "Someone else changed this channel at the same moment, so nothing was saved. Try again."
        )


# What a fight owns of a sheet it holds: written back when the character leaves it.
FIGHT_FIELDS = frozenset({"grit", "max_grit", "injuries"})
# What a sheet block may not change: whose sheet it is, and where.
FIXED_FIELDS = frozenset({"guild_id", "owner_id"})
SHEET_GONE = N_("That character no longer exists.")
NPC_GONE = N_("That NPC template no longer exists.")


def npc_taken(name: str) -> BadInput:
    """Return the refusal of a second NPC template of one name on a server."""
    return BadInput("This server already has an NPC template named {name}.", name=name)


def character_taken(name: str) -> BadInput:
    """Return the refusal of a second character of one name for one player on a server."""
    return BadInput("You already have a character named {name}.", name=name)


class SheetInFight(RuleViolation):
    """A fight holds this character's sheet: it joins no other, and its Grit is the fight's."""

    def __init__(self, message: str, channel_id: int, **fields: Any) -> None:
        super().__init__(message, channel=channel_id, **fields)
        self.channel_id = channel_id

    @classmethod
    def joining(cls, name: str, channel_id: int, here: int) -> Self:
        if channel_id == here:
            return cls("{name} is already in this fight.", channel_id, name=name)
        return cls(
            "{name} is already in the fight in <#{channel}>; a character is in one fight "
            "at a time, so they can join here once they have left it.",
            channel_id,
            name=name,
        )

    @classmethod
    def grit(cls, name: str, channel_id: int) -> Self:
        return cls(
            "{name} is in the fight in <#{channel}>: change their Grit there with /grit; "
            "the fight writes it back when they leave or it ends.",
            channel_id,
            name=name,
        )

    @classmethod
    def deleting(cls, name: str, channel_id: int) -> Self:
        return cls(
            "{name} is in the fight in <#{channel}>; delete them after they leave it.",
            channel_id,
            name=name,
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
    # What the channel's public messages speak (`de`); None: the server's Discord locale.
    language: str | None = Field(default=None, max_length=16)


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
    # Sheets this fight takes (each must be free), and those it lets go: the characters
    # that left it, or every one it holds (`release_all`) when the encounter is deleted.
    claims: list[int] = field(default_factory=list)
    released: list[int] = field(default_factory=list)
    release_all: bool = False

    @property
    def anything(self) -> bool:
        """Return whether there is anything to write."""
        return bool(self.write_encounter or self.log or self.character_grit or self.claims)


async def waited(acquiring: Awaitable[T], give_up_at: float | None) -> T:
    """Await a lock or a connection; still waiting at `give_up_at` (the loop's clock): TableBusy."""
    if give_up_at is None:
        return await acquiring
    try:
        async with asyncio.timeout_at(give_up_at):
            return await acquiring
    except TimeoutError:
        raise TableBusy() from None


class KeyedLocks:
    """One asyncio.Lock per key, dropped again when nobody holds or waits for it."""

    def __init__(self) -> None:
        self._locks: dict[object, tuple[asyncio.Lock, int]] = {}

    def hold(self, key: object, give_up_at: float | None = None) -> "Held":
        """Return `async with`'s hold of the key's lock (see `waited` for `give_up_at`)."""
        return Held(self._locks, key, give_up_at)

    def __len__(self) -> int:
        return len(self._locks)


class Held:
    """One hold of a `KeyedLocks` key's lock, for `async with`.

    A class, not a generator: every command block takes one, and a generator's context
    manager cost several times the work. A lock nobody holds or waits for is taken at
    once, without the clock `waited` sets (a timer armed and cancelled for nothing).
    """

    __slots__ = ("_give_up_at", "_key", "_lock", "_locks")

    def __init__(
        self,
        locks: dict[object, tuple[asyncio.Lock, int]],
        key: object,
        give_up_at: float | None,
    ) -> None:
        self._locks = locks
        self._key = key
        self._give_up_at = give_up_at
        self._lock: asyncio.Lock | None = None

    async def __aenter__(self) -> None:
        lock, users = self._locks.get(self._key, (None, 0))
        if lock is None:
            lock = asyncio.Lock()
        self._locks[self._key] = (lock, users + 1)
        try:
            if users:
                await waited(lock.acquire(), self._give_up_at)
            else:
                await lock.acquire()  # a new lock: nobody holds it or waits, taken at once
        except BaseException:
            self._leave()
            raise
        self._lock = lock

    async def __aexit__(self, *exc: object) -> None:
        lock = self._lock
        assert lock is not None
        self._lock = None
        lock.release()
        self._leave()

    def _leave(self) -> None:
        """Count this hold out; the last one out drops the key's lock."""
        lock, users = self._locks[self._key]
        if users <= 1:
            del self._locks[self._key]
        else:
            self._locks[self._key] = (lock, users - 1)


def sheet_fields(character: Character) -> dict[str, Any]:
    """Return a sheet's stored fields as JSON values (its id is the row's, not the sheet's)."""
    return character.model_dump(mode="json", exclude={"id"})


@dataclass(frozen=True)
class LoadedSheet:
    """What a backend hands back for one sheet: the sheet, and the fight holding it."""

    character: Character
    fight_channel: int | None  # the channel whose fight holds the sheet, if any


class SheetState:
    """One character sheet inside a `store.sheet()` block: change `character`, or delete it."""

    def __init__(self, loaded: LoadedSheet) -> None:
        self.character = loaded.character
        self.fight_channel = loaded.fight_channel  # a claim needs the lock: a free sheet stays free
        self._before = sheet_fields(loaded.character)
        self.deleted = False

    def require_own_grit(self) -> None:
        """Refuse a change of Grit while a fight holds the sheet (the fight's is the live one)."""
        if self.fight_channel is not None:
            raise SheetInFight.grit(self._before["name"], self.fight_channel)

    def delete(self) -> None:
        """Delete the sheet when the block ends; refuse while a fight holds it."""
        if self.fight_channel is not None:
            raise SheetInFight.deleting(self._before["name"], self.fight_channel)
        self.deleted = True

    def changes(self) -> dict[str, Any]:
        """Return the fields the block changed, each as its new JSON value."""
        after = sheet_fields(self.character)
        changed = {key: value for key, value in after.items() if self._before.get(key) != value}
        if changed.keys() & FIXED_FIELDS:
            raise ValueError(
                f"a sheet's {', '.join(sorted(changed.keys() & FIXED_FIELDS))} is fixed"
            )
        if changed.keys() & FIGHT_FIELDS:
            self.require_own_grit()
        return changed


class NpcEdit:
    """One NPC template inside a `store.npc()` block: change `template`, or delete it."""

    def __init__(self, template: NpcTemplate) -> None:
        self.template = template
        self._before = template.model_dump(mode="json")
        self.deleted = False

    def delete(self) -> None:
        """Delete the template when the block ends."""
        self.deleted = True

    @property
    def changed(self) -> bool:
        """Return whether the block changed the template."""
        return self.template.model_dump(mode="json") != self._before


class ChannelState:
    """One channel's state inside a `store.channel()` block."""

    def __init__(
        self,
        store: "Store",
        channel_id: int,
        loaded: LoadedChannel,
        transaction: object,
        held: AsyncExitStack,
        committed: "Kept | None" = None,
    ) -> None:
        self._store = store
        self.channel_id = channel_id
        self._loaded_json = loaded.encounter_json
        self._version = loaded.version
        self._transaction = transaction
        self._held = held  # the sheet locks the block takes, released when it ends
        self._encounter: Encounter | None = None
        self._damage: str | None = None
        self._loaded_characters: set[int] = set()
        # Which models of the block's encounter are copies of committed ones, and the
        # committed combatants' parts of the stored text: what the block leaves is not
        # dumped again (bot/store/texts.py).
        self._origins: Origins = {}
        self._parts_before: dict[int, str] = {}
        self._parts: Parts | None = None  # the written text's parts, once committed
        if committed is not None and loaded.encounter_json is not None:
            # The stored text parsed already (readers share it): the block changes a copy.
            self._encounter = copy_state(committed.encounter, self._origins)
            if store.check_copies:
                _check_copy(self._encounter, loaded.encounter_json)
            self._parts_before = _parts_by_id(committed)
            self._loaded_characters = _characters_of(self._encounter)
        elif loaded.encounter_json is not None:
            try:
                self._encounter = Encounter.model_validate_json(loaded.encounter_json)
            except ValidationError:
                self._damage = loaded.encounter_json
            else:
                self._loaded_characters = _characters_of(self._encounter)
        self._log: list[LogEntry] = []
        self._character_grit: list[GritWriteBack] = []
        self._claims: list[int] = []
        self._locked_sheets: set[int] = set()
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
        """Write a fight's Grit back to the character's sheet on commit (unless another holds it)."""
        self._character_grit.append(GritWriteBack(character_id, grit, max_grit, injuries))

    async def claim_sheet(self, character_id: int) -> Character:
        """Take a character's sheet for this channel's fight; return the sheet as it is now.

        The sheet's lock is held until the block ends, so nothing changes it between this
        read and the claim, which is written with the commit if the character is then in
        the encounter. A sheet another fight holds is refused (`SheetInFight`).
        """
        if character_id not in self._locked_sheets:
            await self._store._hold_sheet(character_id, self._transaction, self._held)
            self._locked_sheets.add(character_id)
        loaded = await self._store._load_sheet(character_id, transaction=self._transaction)
        if loaded is None:
            raise NotFound(SHEET_GONE)
        if loaded.fight_channel is not None:
            raise SheetInFight.joining(
                loaded.character.name, loaded.fight_channel, here=self.channel_id
            )
        self._claims.append(character_id)
        return loaded.character

    def _changes(self) -> ChannelChanges:
        encounter_json = None
        if self._encounter is not None:
            encounter_json, self._parts = encounter_text(
                self._encounter, self._origins, self._parts_before
            )
            if self._store.check_copies and encounter_json != self._encounter.model_dump_json():
                raise AssertionError("an encounter's text is not its model_dump_json()")
        damaged_untouched = self._damage is not None
        write = not damaged_untouched and encounter_json != self._loaded_json
        encounter = self._encounter
        playing = set() if encounter is None else _characters_of(encounter)
        return ChannelChanges(
            channel_id=self.channel_id,
            guild_id=None if encounter is None else encounter.guild_id,
            encounter_json=encounter_json,
            write_encounter=write,
            log=self._log if encounter is not None else [],
            character_grit=self._character_grit,
            version=self._version,
            pending_attacks=bool(encounter and encounter.pending_attacks),
            character_ids=sorted(playing),
            claims=[c for c in dict.fromkeys(self._claims) if c in playing],
            released=sorted(self._loaded_characters - playing) if write else [],
            release_all=write and encounter_json is None,
        )


class Amendment:
    """A channel's committed encounter inside a `store.amend()` block, shared: never change it.

    `replace` hands over the encounter that replaces it (a copy with the change, e.g. by
    `model_copy(update=...)`), written when the block ends.
    """

    def __init__(self, encounter: Encounter | None) -> None:
        self.encounter = encounter
        self.replacement: Encounter | None = None

    def replace(self, encounter: Encounter) -> None:
        """Write this encounter instead of the committed one when the block ends."""
        self.replacement = encounter


def _check_copy(encounter: Encounter, text: str) -> None:
    """Refuse a block's copy of a committed encounter that differs from its text parsed."""
    differs = same_state(encounter, Encounter.model_validate_json(text))
    if differs is not None:
        raise AssertionError(f"a block's copy is not its stored text parsed: {differs}")


def _parts_by_id(kept: "Kept") -> dict[int, str]:
    """Return each committed combatant's part of the stored text, by its id() (none: unknown)."""
    if kept.parts is None:
        return {}
    combatants = zip(kept.encounter.combatants, kept.parts, strict=True)
    return {id(combatant): part for combatant, part in combatants}


@dataclass(frozen=True, slots=True)
class Kept:
    """A committed encounter kept for readers: its stored text, that text parsed, its parts."""

    text: str
    encounter: Encounter
    parts: Parts | None = None  # each combatant's JSON in the text, when known


def _characters_of(encounter: Encounter) -> set[int]:
    """Return the ids of the character sheets an encounter plays."""
    return {c.character_id for c in encounter.combatants if c.character_id is not None}


class Store(ABC):
    """Per-channel encounters, characters and server settings."""

    # Whether several processes may share this backend's database (PostgreSQL). The bot
    # refuses shard leases and a second process on a backend that cannot.
    multi_process = False
    # Whether each block's copy of a committed encounter is compared with a parse of its
    # stored text (the tests turn it on: the copy must be what a parse would have given).
    check_copies = False

    def __init__(self) -> None:
        self._channel_locks = KeyedLocks()
        self._sheet_locks = KeyedLocks()
        self._npc_locks = KeyedLocks()
        self._settings_cache: dict[int, GuildSettings] = {}
        self._damaged_settings: set[int] = set()
        # The committed encounters the readers without a lock parsed last (see `glimpse`).
        self._glimpsed: OrderedDict[int, Kept] = OrderedDict()

    async def open(self) -> None:  # noqa: B027 - optional for backends without resources
        """Open the backend (connect, migrate)."""

    async def close(self) -> None:  # noqa: B027
        """Release the backend's resources."""

    def warmed_up(self) -> None:  # noqa: B027 - optional
        """Hear that the bot's start-up work in worker threads is over (see SQLiteStore)."""

    async def __aenter__(self) -> Self:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @asynccontextmanager
    async def channel(
        self, channel_id: int, *, give_up_at: float | None = None
    ) -> AsyncIterator[ChannelState]:
        """Hold the channel's lock; commit everything on a clean exit, nothing on an error.

        Still waiting for the lock (or a connection) at `give_up_at`, the loop's clock, or
        getting them only after it: raise TableBusy, having changed nothing.
        """
        # The in-process lock first: commands of one process queue here, cheaply, and
        # only one of them at a time waits for the database's lock (if it has one).
        async with (
            self._channel_locks.hold(channel_id, give_up_at),
            self._channel_transaction(channel_id, give_up_at) as transaction,
            AsyncExitStack() as held_sheets,  # the locks of the sheets the block claims
        ):
            if give_up_at is not None and asyncio.get_running_loop().time() > give_up_at:
                raise TableBusy()  # its turn came too late to be heard: change nothing
            loaded = await self._load(channel_id, transaction=transaction)
            committed = self._kept(channel_id, loaded.encounter_json)
            state = ChannelState(self, channel_id, loaded, transaction, held_sheets, committed)
            yield state
            changes = state._changes()
            if changes.anything:
                await self._commit(changes, transaction=transaction)
            state.encounter_written = changes.write_encounter
            if changes.write_encounter:
                self._keep_glimpse(
                    channel_id, changes.encounter_json, state._encounter, state._parts
                )
            elif committed is None and not state.damaged:
                # Unchanged: the block's own encounter is its text parsed; the next block
                # copies it instead of parsing the text again.
                self._keep_glimpse(
                    channel_id, loaded.encounter_json, state._encounter, state._parts
                )

    @asynccontextmanager
    async def amend(self, channel_id: int) -> AsyncIterator[Amendment]:
        """Hold the channel's lock over its committed encounter; write its replacement, if any.

        For a small change after a block's commit (an attack prompt's message id): the
        encounter is the one readers share (see `glimpse`), so no parse and no copy is
        spent on it; `Amendment.replace` writes a changed copy in one transaction, under
        the version check, and nothing if the block raised. A damaged encounter reads as
        None. No tracker refresh follows: the caller changes nothing a tracker shows.
        """
        async with (
            self._channel_locks.hold(channel_id),
            self._channel_transaction(channel_id) as transaction,
        ):
            loaded = await self._load(channel_id, transaction=transaction)
            kept = self._kept(channel_id, loaded.encounter_json)
            current = (
                kept.encounter
                if kept is not None
                else self._parsed(channel_id, loaded.encounter_json)
            )
            amendment = Amendment(current)
            yield amendment
            replacement = amendment.replacement
            if replacement is None or current is None:
                return
            # The combatants the replacement shares with the committed encounter (never
            # changed: readers share them) keep their parts of the stored text.
            before = {} if kept is None else _parts_by_id(kept)
            encounter_json, parts = encounter_text(replacement, {}, before)
            if self.check_copies and encounter_json != replacement.model_dump_json():
                raise AssertionError("an amended encounter's text is not its model_dump_json()")
            playing = _characters_of(replacement)
            changes = ChannelChanges(
                channel_id=channel_id,
                guild_id=replacement.guild_id,
                encounter_json=encounter_json,
                write_encounter=encounter_json != loaded.encounter_json,
                version=loaded.version,
                pending_attacks=bool(replacement.pending_attacks),
                character_ids=sorted(playing),
                released=sorted(_characters_of(current) - playing),
            )
            if changes.write_encounter:
                await self._commit(changes, transaction=transaction)
                self._keep_glimpse(channel_id, encounter_json, replacement, parts)

    @asynccontextmanager
    async def _channel_transaction(
        self, channel_id: int, give_up_at: float | None = None
    ) -> AsyncIterator[object]:
        """Hold the channel's lock in the database for a block; yield what load and commit use.

        A backend that waits for something (a connection) gives up at `give_up_at` (see
        `waited`).
        """
        yield None  # one process per database: the in-process lock is the whole lock

    # Sheets ------------------------------------------------------------------------

    @asynccontextmanager
    async def sheet(self, character_id: int) -> AsyncIterator[SheetState]:
        """Hold a character sheet under its lock; write the fields the block changed on exit.

        A change of a fight's fields (`FIGHT_FIELDS`) while a fight holds the sheet is
        refused with `SheetInFight`, and nothing of the block is written. A name that
        another of the owner's sheets has is refused with `BadInput`. An unknown id is
        `NotFound`.
        """
        async with (
            self._sheet_locks.hold(character_id),
            self._sheet_transaction(character_id) as transaction,
        ):
            loaded = await self._load_sheet(character_id, transaction=transaction)
            if loaded is None:
                raise NotFound(SHEET_GONE)
            state = SheetState(loaded)
            yield state
            if state.deleted:
                await self._delete_sheet(character_id, transaction=transaction)
                return
            changed = state.changes()
            if changed:
                await self._write_sheet(character_id, changed, transaction=transaction)

    @asynccontextmanager
    async def _sheet_transaction(self, character_id: int) -> AsyncIterator[object]:
        """Hold a sheet's lock in the database for a block; yield what its reads and writes use."""
        yield None  # one process per database: the in-process lock is the whole lock

    async def _hold_sheet(
        self, character_id: int, transaction: object, held: AsyncExitStack
    ) -> None:
        """Take a sheet's lock inside a channel block, until the block ends."""
        await held.enter_async_context(self._sheet_locks.hold(character_id))
        await self._lock_sheet_in_database(character_id, transaction)

    async def _lock_sheet_in_database(  # noqa: B027 - only a multi-process backend has one
        self, character_id: int, transaction: object
    ) -> None:
        """Take a sheet's lock in the channel block's transaction (a multi-process backend)."""

    async def delete_character(self, guild_id: int, owner_id: int, name: str) -> bool:
        """Delete the owner's character of that name; refuse while a fight holds it."""
        found = await self.get_character(guild_id, owner_id, name)
        if found is None or found.id is None:
            return False
        try:
            async with self.sheet(found.id) as sheet:
                sheet.delete()
        except NotFound:
            return False  # deleted meanwhile
        return True

    # NPC templates ---------------------------------------------------------------

    @asynccontextmanager
    async def npc(self, guild_id: int, name: str) -> AsyncIterator[NpcEdit]:
        """Hold a server's named NPC template under its lock; write it back on a clean exit."""
        found = await self.get_npc(guild_id, name)
        if found is None or found.id is None:
            raise NotFound("This server has no NPC template named {name!r}.", name=clean_name(name))
        async with (
            self._npc_locks.hold(found.id),
            self._npc_transaction(found.id) as transaction,
        ):
            current = await self._load_npc(found.id, transaction=transaction)
            if current is None:
                raise NotFound(NPC_GONE)
            edit = NpcEdit(current)
            yield edit
            if edit.deleted:
                await self._delete_npc(found.id, transaction=transaction)
            elif edit.changed:
                await self._write_npc(edit.template, transaction=transaction)

    @asynccontextmanager
    async def _npc_transaction(self, npc_id: int) -> AsyncIterator[object]:
        """Hold a template's lock in the database for a block; yield what its reads and writes use."""
        yield None  # one process per database: the in-process lock is the whole lock

    @abstractmethod
    async def create_npc(self, template: NpcTemplate) -> NpcTemplate:
        """Store a new template; return it with its id (a name the server has is BadInput)."""

    @abstractmethod
    async def get_npc(self, guild_id: int, name: str) -> NpcTemplate | None:
        """Return the server's template of that name (compared by `character_key`)."""

    @abstractmethod
    async def list_npcs(self, guild_id: int) -> list[NpcTemplate]:
        """Return the server's templates, by name."""

    @abstractmethod
    async def _load_npc(self, npc_id: int, *, transaction: object = None) -> NpcTemplate | None:
        """Read a template by id (None: there is none)."""

    @abstractmethod
    async def _write_npc(self, template: NpcTemplate, *, transaction: object = None) -> None:
        """Write a template whole, by its id (a name the server has is BadInput)."""

    @abstractmethod
    async def _delete_npc(self, npc_id: int, *, transaction: object = None) -> None:
        """Delete a template."""

    async def peek(self, channel_id: int) -> Encounter | None:
        """Return the channel's committed encounter without taking its lock (autocomplete)."""
        loaded = await self._load(channel_id, locked=False)
        if loaded.encounter_json is None:
            return None
        kept = self._kept(channel_id, loaded.encounter_json)
        if kept is not None:
            # The caller's own, as a parse would be, at a fraction of its cost.
            return copy_state(kept.encounter)
        try:
            return Encounter.model_validate_json(loaded.encounter_json)
        except ValidationError:
            return None

    async def glimpse(self, channel_id: int) -> Encounter | None:
        """Return the committed encounter like `peek`, shared between readers: never change it.

        The tracker and autocomplete read the same committed text again and again; parsing
        it was most of their work (about 160 µs for 10 combatants). A parsed encounter is
        kept while its channel's committed text stays the same.
        """
        loaded = await self._load(channel_id, locked=False)
        return self._parsed(channel_id, loaded.encounter_json)

    def glimpsed_parts(self, channel_id: int, encounter: Encounter) -> Parts | None:
        """Return each combatant's part of the stored text of what `glimpse` gave, if known."""
        # The tracker keys its cached lines by them (bot/render/tracker.py).
        kept = self._glimpsed.get(channel_id)
        return kept.parts if kept is not None and kept.encounter is encounter else None

    def _kept(self, channel_id: int, text: str | None) -> Kept | None:
        """Return the committed encounter kept for readers if it is this text parsed, else None."""
        kept = self._glimpsed.get(channel_id)
        if kept is None or text is None or kept.text != text:
            return None
        self._glimpsed.move_to_end(channel_id)
        return kept

    def _parsed(self, channel_id: int, text: str | None) -> Encounter | None:
        """Return a committed encounter's text parsed, kept for readers (None: none, or damaged)."""
        if text is None:
            self._glimpsed.pop(channel_id, None)
            return None
        kept = self._kept(channel_id, text)
        if kept is not None:
            return kept.encounter
        try:
            encounter = Encounter.model_validate_json(text)
        except ValidationError:
            return None
        self._keep_glimpse(channel_id, text, encounter)
        return encounter

    def _keep_glimpse(
        self,
        channel_id: int,
        text: str | None,
        encounter: Encounter | None,
        parts: Parts | None = None,
    ) -> None:
        """Keep a committed encounter for `glimpse`: the text as stored and that text parsed.

        A block's commit hands over its own encounter, the one it just wrote as `text`: the
        tracker then renders it without parsing the text again (the block is over, and
        nothing changes an encounter after its commit).
        """
        if text is None or encounter is None:
            self._glimpsed.pop(channel_id, None)
            return
        self._glimpsed[channel_id] = Kept(text, encounter, parts)
        self._glimpsed.move_to_end(channel_id)
        while len(self._glimpsed) > GLIMPSED_CHANNELS:
            self._glimpsed.popitem(last=False)

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
        """Return the channel whose fight holds this character's sheet, if any."""

    @abstractmethod
    async def recent_encounter_channels(
        self, since: float, guild_ids: GuildFilter = None
    ) -> list[int]:
        """Return the channels (in these guilds) whose encounter changed at or after `since`."""

    # Characters: one player's sheets on one server. Changes go through `sheet()`.
    @abstractmethod
    async def create_character(self, character: Character) -> Character:
        """Store a new character; return it with its id (a name the owner has is BadInput)."""

    @abstractmethod
    async def _load_sheet(
        self, character_id: int, *, transaction: object = None
    ) -> LoadedSheet | None:
        """Read a sheet and the fight holding it (None: no such sheet)."""

    @abstractmethod
    async def _write_sheet(
        self, character_id: int, changed: dict[str, Any], *, transaction: object = None
    ) -> None:
        """Write these fields of a sheet (JSON values), and nothing else of it.

        A change of `FIGHT_FIELDS` is written only if no fight holds the sheet.
        """

    @abstractmethod
    async def _delete_sheet(self, character_id: int, *, transaction: object = None) -> None:
        """Delete a sheet no fight holds."""

    @abstractmethod
    async def get_character(self, guild_id: int, owner_id: int, name: str) -> Character | None:
        """Return the owner's character of that name (compared by `character_key`)."""

    @abstractmethod
    async def character_by_id(self, character_id: int) -> Character | None: ...

    @abstractmethod
    async def list_characters(self, guild_id: int, owner_id: int) -> list[Character]: ...

    async def character_names(self, guild_id: int, owner_id: int) -> list[str]:
        """Return the names of someone's characters on a server, as `list_characters` orders them."""
        return [character.name for character in await self.list_characters(guild_id, owner_id)]

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
