"""The store contract: every backend passes the same tests."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.errors import BadInput, NoEncounter, NotFound, StoreError, TableBusy
from bot.rules.models import (
    Armor,
    Character,
    Combatant,
    Encounter,
    NpcTemplate,
    PendingAttack,
    Weapon,
)
from bot.store import (
    GuildSettings,
    MemoryStore,
    SheetInFight,
    SQLiteStore,
    Store,
    StoreConflict,
)
from bot.store.migrations import LATEST_VERSION
from bot.store.sqlite import OPEN_BLOCKS, DatabaseInUse
from tests.postgres import fresh_database
from tests.unit.store.test_copies import change_everything, full_encounter

CHANNEL = 1001
OTHER_CHANNEL = 1002
GUILD = 77


@pytest.fixture(params=["sqlite", "memory", "postgres"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    if request.param == "postgres":
        from bot.store.postgres import PostgresStore

        async with fresh_database(request.getfixturevalue("postgres_server")) as url:
            async with PostgresStore(url) as backend:
                yield backend
        return
    memory_or_file: Store = (
        SQLiteStore(tmp_path / "t.db") if request.param == "sqlite" else MemoryStore()
    )
    async with memory_or_file:
        yield memory_or_file


def goblin(combatant_id: int = 1, grit: int = 30) -> Combatant:
    return Combatant(id=combatant_id, name=f"Goblin {combatant_id}", grit=grit)


async def start_encounter(store: Store, channel_id: int = CHANNEL) -> None:
    async with store.channel(channel_id) as state:
        state.encounter = Encounter(channel_id=channel_id, guild_id=GUILD, gm_id=5)


async def test_a_committed_encounter_is_read_back(store: Store) -> None:
    """An encounter written in one block is not there in the next."""
    async with store.channel(CHANNEL) as state:
        encounter = Encounter(channel_id=CHANNEL, guild_id=GUILD, gm_id=5)
        encounter.combatants.append(goblin())
        state.encounter = encounter
        state.log(1, "Goblin 1 joins the fight.")
    async with store.channel(CHANNEL) as state:
        assert state.require_encounter().combatants[0].name == "Goblin 1"
        assert [e.text for e in await state.round_log(1)] == ["Goblin 1 joins the fight."]
    assert await store.encounter_channels() == [CHANNEL]


async def test_an_exception_rolls_back_every_change_of_the_block(store: Store) -> None:
    """A block that raised still left some of its changes behind."""
    await start_encounter(store)
    character = await store.create_character(
        Character(guild_id=GUILD, owner_id=9, name="Mira", grit=25)
    )
    with pytest.raises(RuntimeError):
        async with store.channel(CHANNEL) as state:
            encounter = state.require_encounter()
            encounter.combatants.append(goblin())
            encounter.round = 4
            state.log(1, "should vanish")
            state.write_back(character.id, grit=3, max_grit=30, injuries=0)
            raise RuntimeError("the command failed half-way")
    async with store.channel(CHANNEL) as state:
        encounter = state.require_encounter()
        assert encounter.combatants == []
        assert encounter.round == 1
        assert await state.round_log(1) == []
    assert (await store.character_by_id(character.id)).grit == 25


async def test_concurrent_increments_on_one_channel_lose_nothing(store: Store) -> None:
    """200 concurrent read-change-write blocks on one channel lost an update."""
    async with store.channel(CHANNEL) as state:
        encounter = Encounter(channel_id=CHANNEL, gm_id=5)
        encounter.combatants.append(goblin(grit=0))
        state.encounter = encounter

    async def increment() -> None:
        async with store.channel(CHANNEL) as state:
            combatant = state.require_encounter().combatants[0]
            grit = combatant.grit
            await asyncio.sleep(0)  # give every other task the chance to interleave here
            combatant.grit = grit + 1

    await asyncio.gather(*(increment() for _ in range(200)))
    async with store.channel(CHANNEL) as state:
        assert state.require_encounter().combatants[0].grit == 200
    assert store.held_channel_locks() == 0


@asynccontextmanager
async def held(store: Store, channel_id: int = CHANNEL) -> AsyncIterator[asyncio.Task[None]]:
    """Hold a channel in a slow command of its own (it sets round 2) until the block ends."""
    inside = asyncio.Event()
    release = asyncio.Event()

    async def slow_command() -> None:
        async with store.channel(channel_id) as state:
            state.require_encounter().round = 2
            inside.set()
            await release.wait()

    slow = asyncio.create_task(slow_command())
    await inside.wait()
    try:
        yield slow
    finally:
        release.set()
        await slow


async def test_a_busy_channel_does_not_block_another(store: Store) -> None:
    """A command holding one channel kept another channel's command from finishing."""
    await start_encounter(store)
    await start_encounter(store, OTHER_CHANNEL)
    async with held(store) as slow:
        async with asyncio.timeout(2):
            async with store.channel(OTHER_CHANNEL) as state:
                state.require_encounter().round = 3
        assert not slow.done()
    async with store.channel(CHANNEL) as state:
        assert state.require_encounter().round == 2


async def test_a_block_still_waiting_when_it_gives_up_changes_nothing(store: Store) -> None:
    """A block that waited past its give-up time for a held channel changed it, or kept a lock."""
    await start_encounter(store)
    loop = asyncio.get_running_loop()
    async with held(store) as slow:
        with pytest.raises(TableBusy, match="changed nothing"):
            async with store.channel(CHANNEL, give_up_at=loop.time() + 0.05) as state:
                state.require_encounter().round = 9
        assert not slow.done()  # the holder is not disturbed by the one that gave up
    assert (await store.peek(CHANNEL)).round == 2
    assert store.held_channel_locks() == 0
    # A free channel before the give-up time is used; after it, not even a free one is.
    async with store.channel(CHANNEL, give_up_at=loop.time() + 60) as state:
        state.require_encounter().round = 3
    with pytest.raises(TableBusy):
        async with store.channel(CHANNEL, give_up_at=loop.time() - 0.001) as state:
            state.require_encounter().round = 9
    assert (await store.peek(CHANNEL)).round == 3
    assert store.held_channel_locks() == 0


async def test_ending_an_encounter_deletes_it_and_its_log(store: Store) -> None:
    """An ended encounter or its log lingered in the store."""
    async with store.channel(CHANNEL) as state:
        state.encounter = Encounter(channel_id=CHANNEL, gm_id=5)
        state.log(1, "round one")
    async with store.channel(CHANNEL) as state:
        state.encounter = None
    async with store.channel(CHANNEL) as state:
        assert state.encounter is None
        assert await state.round_log(1) == []
        with pytest.raises(NoEncounter):
            state.require_encounter()
    assert await store.encounter_channels() == []


async def test_characters_are_kept_per_owner_and_server(store: Store) -> None:
    """A character showed up for another player or on another server."""
    mira = await store.create_character(Character(guild_id=GUILD, owner_id=1, name="Mira"))
    await store.create_character(Character(guild_id=GUILD, owner_id=2, name="Mira"))
    await store.create_character(Character(guild_id=GUILD + 1, owner_id=1, name="Other"))
    assert [c.name for c in await store.list_characters(GUILD, 1)] == ["Mira"]
    assert (await store.get_character(GUILD, 1, "mira")).id == mira.id
    assert await store.get_character(GUILD + 1, 1, "Mira") is None
    with pytest.raises(BadInput):
        await store.create_character(Character(guild_id=GUILD, owner_id=1, name="MIRA"))
    await store.set_active_character(GUILD, 1, mira.id)
    assert (await store.active_character(GUILD, 1)).name == "Mira"
    assert await store.active_character(GUILD, 2) is None
    assert await store.delete_character(GUILD, 1, "Mira")
    assert await store.active_character(GUILD, 1) is None
    assert not await store.delete_character(GUILD, 1, "Mira")


async def test_character_names_follow_every_create_rename_and_delete(store: Store) -> None:
    """Autocomplete's names of a player's characters lagged a create, a rename or a delete."""

    async def names() -> list[str]:
        listed = [c.name for c in await store.list_characters(GUILD, 1)]
        assert await store.character_names(GUILD, 1) == listed  # a cached answer as well
        assert await store.character_names(GUILD, 1) == listed
        return listed

    assert await names() == []
    mira = await store.create_character(Character(guild_id=GUILD, owner_id=1, name="Mira"))
    assert await names() == ["Mira"]
    await store.create_character(Character(guild_id=GUILD, owner_id=1, name="Anselm"))
    await store.create_character(Character(guild_id=GUILD, owner_id=2, name="Other"))
    assert await names() == ["Anselm", "Mira"]
    assert mira.id is not None
    async with store.sheet(mira.id) as sheet:
        sheet.character.name = "Zora"
    assert await names() == ["Anselm", "Zora"]
    assert await store.delete_character(GUILD, 1, "Anselm")
    assert await names() == ["Zora"]
    assert await store.character_names(GUILD, 2) == ["Other"]
    assert await store.character_names(GUILD + 1, 1) == []


async def test_character_names_are_read_once_until_a_write(tmp_path: Path) -> None:
    """Every keystroke of a character autocomplete read the database again."""
    async with SQLiteStore(tmp_path / "t.db") as store:
        await store.create_character(Character(guild_id=GUILD, owner_id=1, name="Mira"))
        reads: list[str] = []
        fetchall = store._fetchall

        async def counted(sql: str, params: tuple = ()) -> list[tuple]:
            reads.append(sql)
            return await fetchall(sql, params)

        store._fetchall = counted  # type: ignore[method-assign]
        for _ in range(3):
            assert await store.character_names(GUILD, 1) == ["Mira"]
        assert len(reads) == 1
        await store.save_settings(GuildSettings(guild_id=GUILD, gm_role_id=42))
        assert await store.character_names(GUILD, 1) == ["Mira"]
        assert len(reads) == 2  # any other transaction drops them too


class HeldRead(SQLiteStore):
    """A store that holds one task between its database read and the read's return."""

    held: asyncio.Task | None = None

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.read = asyncio.Event()
        self.release = asyncio.Event()

    async def _fetchall(self, sql: str, params: tuple = ()):  # type: ignore[override]
        rows = await super()._fetchall(sql, params)  # every read, `_fetchone`'s too
        if asyncio.current_task() is self.held:
            self.read.set()
            await self.release.wait()
        return rows


async def test_character_names_read_before_a_create_are_not_kept(tmp_path: Path) -> None:
    """Names read before a create and returned after it hid the new character from then on."""
    async with HeldRead(tmp_path / "t.db") as store:
        await store.create_character(Character(guild_id=GUILD, owner_id=1, name="Mira"))
        store.held = asyncio.create_task(store.character_names(GUILD, 1))
        await store.read.wait()  # it has read Mira alone ...
        await store.create_character(Character(guild_id=GUILD, owner_id=1, name="Anselm"))
        store.release.set()
        assert await store.held == ["Mira"]  # ... answers what it read ...
        assert await store.character_names(GUILD, 1) == ["Anselm", "Mira"]  # ... keeps nothing


async def test_settings_default_until_saved(store: Store) -> None:
    """A server without stored settings did not get the defaults (defense timeout 60 s)."""
    assert await store.get_settings(GUILD) == GuildSettings(guild_id=GUILD, defense_timeout=60)
    await store.save_settings(GuildSettings(guild_id=GUILD, gm_role_id=42, defense_timeout=30))
    assert (await store.get_settings(GUILD)).gm_role_id == 42


async def test_a_read_only_block_writes_nothing(store: Store) -> None:
    """A block that changed nothing still wrote the encounter."""
    await start_encounter(store)
    committed: list[object] = []
    original = store._commit

    async def spy(changes, **kwargs):  # records commits, then performs them
        committed.append(changes)
        await original(changes, **kwargs)

    store._commit = spy  # type: ignore[method-assign]
    async with store.channel(CHANNEL) as state:
        state.require_encounter()
    assert committed == []


async def test_only_channels_with_pending_attacks_are_listed(store: Store) -> None:
    """The channels with attacks waiting for a defense were not exactly those listed."""
    await start_encounter(store)
    await start_encounter(store, OTHER_CHANNEL)
    assert await store.pending_attack_channels() == []
    async with store.channel(OTHER_CHANNEL) as state:
        state.require_encounter().pending_attacks.append(
            PendingAttack(
                id="1",
                attacker_id=1,
                defender_id=2,
                spec={},
                roll={},
                created_at=0.0,
                due_at=60.0,
            )
        )
    assert await store.pending_attack_channels() == [OTHER_CHANNEL]
    async with store.channel(OTHER_CHANNEL) as state:
        state.require_encounter().pending_attacks.clear()
    assert await store.pending_attack_channels() == []


async def test_an_amendment_writes_its_replacement_and_leaves_the_shared_encounter_alone(
    store: Store,
) -> None:
    """An amended encounter was not stored, or the encounter readers share was changed."""
    await start_encounter(store)
    shared = await store.glimpse(CHANNEL)
    async with store.amend(CHANNEL) as amendment:
        assert amendment.encounter is not None
        amendment.replace(amendment.encounter.model_copy(update={"round": 3}))
    assert shared is not None and shared.round == 1
    async with store.channel(CHANNEL) as state:
        assert state.require_encounter().round == 3
    glimpsed = await store.glimpse(CHANNEL)
    assert glimpsed is not None and glimpsed.round == 3


async def test_an_amendment_that_raised_writes_nothing(store: Store) -> None:
    """A block of store.amend that raised still wrote its replacement."""
    await start_encounter(store)
    with pytest.raises(RuntimeError):
        async with store.amend(CHANNEL) as amendment:
            assert amendment.encounter is not None
            amendment.replace(amendment.encounter.model_copy(update={"round": 3}))
            raise RuntimeError("the prompt could not be sent")
    async with store.channel(CHANNEL) as state:
        assert state.require_encounter().round == 1
    async with store.amend(OTHER_CHANNEL) as amendment:
        assert amendment.encounter is None  # no encounter there: nothing to amend
    assert await store.encounter_channels() == [CHANNEL]


# SQLite only: durability, migrations, damaged rows.


async def test_a_committed_change_survives_closing_and_reopening(tmp_path: Path) -> None:
    """A committed encounter was gone after the database was reopened."""
    path = tmp_path / "t.db"
    async with SQLiteStore(path) as store:
        await start_encounter(store)
        async with store.channel(CHANNEL) as state:
            state.require_encounter().round = 7
    async with SQLiteStore(path) as store, store.channel(CHANNEL) as state:
        assert state.require_encounter().round == 7


async def test_migrations_run_once_and_are_recorded(tmp_path: Path) -> None:
    """Opening the database twice applied the migrations twice, or did not record them."""
    path = tmp_path / "t.db"
    async with SQLiteStore(path) as store:
        assert await store.schema_version() == LATEST_VERSION
    async with SQLiteStore(path) as store:
        rows = await store._fetchall("SELECT version FROM schema_version")
        assert [r[0] for r in rows] == list(range(1, LATEST_VERSION + 1))
        journal = await store._fetchone("PRAGMA journal_mode")
        assert journal[0] == "wal"
        foreign_keys = await store._fetchone("PRAGMA foreign_keys")
        assert foreign_keys[0] == 1


async def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    """A database from a newer Tablehand was opened instead of refused."""
    path = tmp_path / "t.db"
    async with SQLiteStore(path) as store:
        await store._transaction(
            [("INSERT INTO schema_version VALUES (99, 'from the future', 0)", ())]
        )
    with pytest.raises(StoreError, match="schema version 99"):
        await SQLiteStore(path).open()


async def test_a_damaged_row_breaks_only_its_own_channel(tmp_path: Path) -> None:
    """A corrupt encounter row in one channel broke another channel."""
    async with SQLiteStore(tmp_path / "t.db") as store:
        await start_encounter(store)
        await start_encounter(store, OTHER_CHANNEL)
        await store._transaction(
            [("UPDATE encounters SET data = '{\"broken\": ' WHERE channel_id = ?", (CHANNEL,))]
        )
        async with store.channel(CHANNEL) as state:
            with pytest.raises(StoreError, match="damaged"):
                state.require_encounter()
        async with store.channel(OTHER_CHANNEL) as state:
            state.require_encounter().round = 2
        async with store.channel(CHANNEL) as state:  # a GM clears it with /init end
            state.encounter = None
        async with store.channel(CHANNEL) as state:
            assert state.encounter is None


async def test_a_damaged_row_does_not_stop_the_pending_attack_search(tmp_path: Path) -> None:
    """A corrupt encounter row made listing the channels with pending attacks fail."""
    async with SQLiteStore(tmp_path / "t.db") as store:
        await start_encounter(store)
        await store._transaction(
            [("UPDATE encounters SET data = '{\"broken\": ' WHERE channel_id = ?", (CHANNEL,))]
        )
        assert await store.pending_attack_channels() == []


async def test_recently_changed_encounters_are_listed_newest_first(store: Store) -> None:
    """Encounters changed since a moment were not listed, newest first."""
    import time

    before = time.time()
    await start_encounter(store)
    await asyncio.sleep(0.01)
    await start_encounter(store, OTHER_CHANNEL)
    assert await store.recent_encounter_channels(before) == [OTHER_CHANNEL, CHANNEL]
    assert await store.recent_encounter_channels(time.time() + 60) == []


async def test_a_damaged_character_row_is_a_clear_error(tmp_path: Path) -> None:
    """A corrupt character sheet raised something other than the store's one-line error."""
    async with SQLiteStore(tmp_path / "t.db") as store:
        mira = await store.create_character(Character(guild_id=GUILD, owner_id=1, name="Mira"))
        await store._transaction([("UPDATE characters SET data = '{' WHERE id = ?", (mira.id,))])
        with pytest.raises(StoreError, match="character sheet is damaged"):
            await store.get_character(GUILD, 1, "Mira")


async def test_a_lock_free_peek_racing_a_commit_cannot_bring_back_old_state(
    tmp_path: Path,
) -> None:
    """A peek that read before a commit and finished after it made the store forget the commit."""
    async with HeldRead(tmp_path / "t.db") as store:
        await start_encounter(store)
        store._committed.clear()  # the peek's read goes to the database
        store.held = asyncio.create_task(store.peek(CHANNEL))
        await store.read.wait()  # it has read round 1 ...
        async with store.channel(CHANNEL) as state:
            state.require_encounter().round = 5  # ... the commit of round 5 lands ...
        store.release.set()
        assert (await store.held).round == 1  # ... and the peek returns what it read
        async with store.channel(CHANNEL) as state:
            assert state.require_encounter().round == 5


async def test_a_lock_free_read_overlapping_no_write_is_kept(tmp_path: Path) -> None:
    """Every autocomplete in a channel no command had touched read its fight from the file."""
    async with SQLiteStore(tmp_path / "t.db") as store:
        await start_encounter(store)
        store._committed.clear()  # as after a restart
        seen = await store.glimpse(CHANNEL)
        assert seen is not None
        assert store._committed[CHANNEL] == (seen.model_dump_json(), 1)
        async with store.channel(CHANNEL) as state:
            state.require_encounter().round = 5
        assert (await store.glimpse(CHANNEL)).round == 5


async def test_a_lock_free_read_overlapping_a_write_is_not_kept(tmp_path: Path) -> None:
    """A peek that read before a write and finished after it kept what the write replaced."""
    async with HeldRead(tmp_path / "t.db") as store:
        await start_encounter(store)
        store._committed.clear()
        store.held = asyncio.create_task(store.peek(CHANNEL))
        await store.read.wait()  # it has read round 1 ...
        update = "UPDATE encounters SET data = json_set(data, '$.round', 7) WHERE channel_id = ?"
        writing = asyncio.create_task(store._transaction([(update, (CHANNEL,))]))
        await asyncio.sleep(0)  # ... a write (not a channel block) is on its way ...
        store.release.set()
        assert (await store.held).round == 1  # ... the peek answers what it read ...
        assert CHANNEL not in store._committed  # ... and keeps none of it
        await writing
        assert (await store.glimpse(CHANNEL)).round == 7


async def test_the_encounter_cache_follows_every_commit_and_rollback(tmp_path: Path) -> None:
    """The cached encounter text disagreed with the database after a commit or a rollback."""
    path = tmp_path / "t.db"
    async with SQLiteStore(path) as store:
        await start_encounter(store)
        async with store.channel(CHANNEL) as state:
            state.require_encounter().round = 3
        with pytest.raises(RuntimeError):
            async with store.channel(CHANNEL) as state:
                state.require_encounter().round = 9
                raise RuntimeError("fails before the commit")
        cached, version = store._committed[CHANNEL]
    async with SQLiteStore(path) as reopened:
        loaded = await reopened._load(CHANNEL)
        assert (loaded.encounter_json, loaded.version) == (cached, version) == (cached, 2)
        assert Encounter.model_validate_json(cached).round == 3


async def test_a_burst_of_channels_opens_at_most_open_blocks_and_loses_none(
    tmp_path: Path,
) -> None:
    """A burst over many channels held every one's encounter parsed at once, or dropped one."""
    channels = [CHANNEL + n for n in range(OPEN_BLOCKS + 4)]
    async with SQLiteStore(tmp_path / "t.db") as store:
        for channel_id in channels:
            await start_encounter(store, channel_id)
        inside: list[int] = []
        release = asyncio.Event()

        async def command(channel_id: int) -> None:
            async with store.channel(channel_id) as state:
                inside.append(channel_id)
                await release.wait()
                state.require_encounter().round = 2

        tasks = [asyncio.create_task(command(c)) for c in channels]
        for _ in range(20):  # every task has had its turns: the first OPEN_BLOCKS are in
            await asyncio.sleep(0)
        assert inside == channels[:OPEN_BLOCKS]
        release.set()
        await asyncio.gather(*tasks)
        assert sorted(inside) == channels
        for channel_id in channels:
            assert (await store.peek(channel_id)).round == 2


async def test_a_block_waiting_for_an_open_block_slot_gives_up_changing_nothing(
    tmp_path: Path,
) -> None:
    """With OPEN_BLOCKS channels busy, a block past its give-up time still got in, or changed one."""
    channels = [CHANNEL + n for n in range(OPEN_BLOCKS + 1)]
    async with SQLiteStore(tmp_path / "t.db") as store:
        for channel_id in channels:
            await start_encounter(store, channel_id)
        release = asyncio.Event()

        async def command(channel_id: int) -> None:
            async with store.channel(channel_id) as state:
                await release.wait()
                state.require_encounter().round = 2

        tasks = [asyncio.create_task(command(c)) for c in channels[:OPEN_BLOCKS]]
        for _ in range(20):
            await asyncio.sleep(0)
        late = channels[-1]
        with pytest.raises(TableBusy):
            give_up_at = asyncio.get_running_loop().time() + 0.05
            async with store.channel(late, give_up_at=give_up_at) as state:
                state.require_encounter().round = 9
        release.set()
        await asyncio.gather(*tasks)
        assert [(await store.peek(c)).round for c in channels] == [2] * OPEN_BLOCKS + [1]
        async with store.channel(late) as state:  # the slot it did not take is free again
            state.require_encounter().round = 4
        assert (await store.peek(late)).round == 4
        assert store.held_channel_locks() == 0


async def test_a_failure_half_way_through_a_commit_writes_nothing(tmp_path: Path) -> None:
    """A commit that failed on its second statement left its first one behind."""
    async with SQLiteStore(tmp_path / "t.db") as store:
        await start_encounter(store)
        with pytest.raises(sqlite3.IntegrityError):
            await store._write(  # a first statement that applies, then one that fails
                [
                    ("UPDATE encounters SET guild_id = 999 WHERE channel_id = ?", (CHANNEL,)),
                    (
                        "INSERT INTO encounter_log (channel_id, round, text) VALUES (?, 1, 'x')",
                        (424242,),
                    ),
                ]
            )
        rows = await store._fetchall(
            "SELECT guild_id FROM encounters WHERE channel_id = ?", (CHANNEL,)
        )
        assert rows[0][0] == GUILD
        assert await store._fetchall("SELECT * FROM encounter_log") == []


# Several writers, one database (issue 21): the contract a multi-process backend honours.


@pytest.fixture(params=["sqlite", "postgres"])
async def two_stores(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[tuple[Store, Store]]:
    """Two store instances on one database, as two bot processes would have."""
    if request.param == "postgres":
        from bot.store.postgres import PostgresStore

        async with fresh_database(request.getfixturevalue("postgres_server")) as url:
            async with PostgresStore(url) as first, PostgresStore(url) as second:
                yield first, second
        return
    # SQLite refuses a second process (its file lock); without the lock, as a process that
    # bypassed it would be, the version check must still turn a lost update into an error.
    path = tmp_path / "t.db"
    async with SQLiteStore(path) as first, SQLiteStore(path, lock_file=False) as second:
        yield first, second


async def test_two_stores_on_one_database_never_lose_an_update_silently(
    two_stores: tuple[Store, Store],
) -> None:
    """Concurrent blocks from two store instances on one channel lost an update without an error."""
    first, second = two_stores
    async with first.channel(CHANNEL) as state:
        encounter = Encounter(channel_id=CHANNEL, guild_id=GUILD, gm_id=5)
        encounter.combatants.append(goblin(grit=0))
        state.encounter = encounter

    async def increment(store: Store) -> bool:
        try:
            async with store.channel(CHANNEL) as state:
                combatant = state.require_encounter().combatants[0]
                grit = combatant.grit
                await asyncio.sleep(0)  # let the other store's blocks interleave here
                combatant.grit = grit + 1
        except StoreConflict:
            return False
        return True

    results = await asyncio.gather(*(increment(s) for _ in range(100) for s in (first, second)))
    for store in (first, second):
        if isinstance(store, SQLiteStore):
            store._committed.clear()  # its cache assumes one writer: read the file itself
        async with store.channel(CHANNEL) as state:
            # Exact: every block that did not raise is counted, and no other.
            assert state.require_encounter().combatants[0].grit == sum(results)


async def test_postgres_blocks_of_two_processes_on_one_channel_all_land(postgres_url: str) -> None:
    """With the channel's lock in PostgreSQL, 2 × 150 concurrent blocks lost or refused one."""
    from bot.store.postgres import PostgresStore

    async with PostgresStore(postgres_url) as first, PostgresStore(postgres_url) as second:
        await start_encounter(first)
        async with first.channel(CHANNEL) as state:
            state.require_encounter().combatants.append(goblin(grit=0))

        async def increment(store: Store) -> None:
            async with store.channel(CHANNEL) as state:
                combatant = state.require_encounter().combatants[0]
                grit = combatant.grit
                await asyncio.sleep(0)
                combatant.grit = grit + 1

        await asyncio.gather(*(increment(s) for _ in range(150) for s in (first, second)))
        async with second.channel(CHANNEL) as state:
            assert state.require_encounter().combatants[0].grit == 300


async def test_a_stale_write_is_an_error_not_a_silent_undo(tmp_path: Path) -> None:
    """A write based on an encounter another writer had changed since was stored silently."""
    path = tmp_path / "t.db"
    async with SQLiteStore(path) as first, SQLiteStore(path, lock_file=False) as second:
        await start_encounter(first)
        async with second.channel(CHANNEL) as state:  # second caches round 1
            state.require_encounter()
        async with first.channel(CHANNEL) as state:
            state.require_encounter().round = 2
        with pytest.raises(StoreConflict, match="nothing was saved"):
            async with second.channel(CHANNEL) as state:
                state.require_encounter().round = 9  # from a stale round 1
        async with second.channel(CHANNEL) as state:  # read afresh after the conflict
            assert state.require_encounter().round == 2


async def test_a_second_process_cannot_open_the_sqlite_file(tmp_path: Path) -> None:
    """Two stores opened one SQLite file, where two processes silently lost updates."""
    path = tmp_path / "t.db"
    async with SQLiteStore(path):
        with pytest.raises(DatabaseInUse, match=str(path)):
            await SQLiteStore(path).open()
    async with SQLiteStore(path) as reopened:  # the lock goes with the store that held it
        assert await reopened.schema_version() == LATEST_VERSION


async def test_scans_keep_to_the_guilds_a_process_owns(store: Store) -> None:
    """A scan for one process's guilds listed a channel of another guild."""
    for channel_id, guild_id in ((CHANNEL, GUILD), (OTHER_CHANNEL, GUILD + 1)):
        async with store.channel(channel_id) as state:
            encounter = Encounter(channel_id=channel_id, guild_id=guild_id, gm_id=5)
            encounter.pending_attacks.append(
                PendingAttack(
                    id=str(channel_id),
                    attacker_id=1,
                    defender_id=2,
                    spec={},
                    roll={},
                    created_at=0.0,
                    due_at=60.0,
                )
            )
            state.encounter = encounter
    assert await store.pending_attack_channels() == [CHANNEL, OTHER_CHANNEL]
    assert await store.pending_attack_channels(guild_ids={GUILD + 1}) == [OTHER_CHANNEL]
    assert await store.pending_attack_channels(guild_ids=set()) == []
    assert await store.encounter_channels(guild_ids=[GUILD]) == [CHANNEL]
    assert await store.recent_encounter_channels(0, guild_ids={GUILD}) == [CHANNEL]


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("ärger", "Ärger"),
        ("Mira", "MIRA"),
        ("Ｍｉｒａ", "mira"),
        ("Strauß", "STRAUSS"),
        ("Gob\u200blin", "goblin"),
    ],
)
async def test_character_names_clash_by_one_rule_on_every_backend(
    store: Store, first: str, second: str
) -> None:
    """Two names one backend treats as the same were two characters on another."""
    mira = await store.create_character(Character(guild_id=GUILD, owner_id=1, name=first))
    with pytest.raises(BadInput, match="already have a character"):
        await store.create_character(Character(guild_id=GUILD, owner_id=1, name=second))
    assert (await store.get_character(GUILD, 1, second)).id == mira.id
    other = await store.create_character(Character(guild_id=GUILD, owner_id=1, name="Other"))
    with pytest.raises(BadInput):  # renaming into the clash is refused too
        async with store.sheet(other.id) as sheet:
            sheet.character.name = second
    assert (await store.character_by_id(other.id)).name == "Other"
    assert await store.delete_character(GUILD, 1, second)


async def damage_settings(store: Store) -> None:
    """Write an unreadable settings row for GUILD, behind the store's back."""
    text = '{"guild_id": 77, "defense_timeout": "soon'
    if isinstance(store, SQLiteStore):
        await store._transaction(
            [("INSERT INTO guild_settings (guild_id, data) VALUES (?, ?)", (GUILD, text))]
        )
    elif isinstance(store, MemoryStore):
        store._settings[GUILD] = text
    else:
        await store.pool.execute(  # type: ignore[attr-defined]
            "INSERT INTO guild_settings (guild_id, data) VALUES ($1, $2)", GUILD, text
        )


async def test_damaged_settings_give_the_defaults_logged_once_until_overwritten(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """A damaged settings row raised, was logged more than once, or could not be overwritten."""
    await damage_settings(store)
    with caplog.at_level(logging.WARNING, logger="bot.store.base"):
        assert await store.get_settings(GUILD) == GuildSettings(guild_id=GUILD)
        assert await store.get_settings(GUILD) == GuildSettings(guild_id=GUILD)
    assert [r.getMessage() for r in caplog.records].count(
        f"the stored settings of guild {GUILD} are damaged; using the defaults until "
        "/settings saves new ones"
    ) == 1
    await store.save_settings(GuildSettings(guild_id=GUILD, defense_timeout=30))
    assert (await store.get_settings(GUILD)).defense_timeout == 30


# Character sheets (issue 16): one lock per sheet, field-level writes, one fight at a time.

THIRD_CHANNEL = 1003


async def new_sheet(store: Store, name: str = "Mira", **stats: object) -> Character:
    return await store.create_character(Character(guild_id=GUILD, owner_id=1, name=name, **stats))


async def join(store: Store, channel_id: int, character_id: int) -> Character:
    """Take a sheet into a channel's fight as /init join does; return the copy it plays."""
    async with store.channel(channel_id) as state:
        sheet = await state.claim_sheet(character_id)
        encounter = state.require_encounter()
        encounter.combatants.append(
            Combatant(
                id=len(encounter.combatants) + 1,
                name=sheet.name,
                character_id=character_id,
                grit=sheet.grit,
            )
        )
    return sheet


async def leave(store: Store, channel_id: int, character_id: int, grit: int) -> None:
    """Take a character out of a channel's fight with this Grit, as /init remove does."""
    async with store.channel(channel_id) as state:
        encounter = state.require_encounter()
        gone = next(c for c in encounter.combatants if c.character_id == character_id)
        encounter.combatants.remove(gone)
        state.write_back(character_id, grit, gone.max_grit, gone.injuries)


async def damage_encounter(store: Store, channel_id: int) -> None:
    """Write an unreadable encounter row, behind the store's back."""
    text = '{"channel_id": 1, "combatants": ['
    if isinstance(store, SQLiteStore):
        await store._transaction(
            [("UPDATE encounters SET data = ? WHERE channel_id = ?", (text, channel_id))]
        )
    elif isinstance(store, MemoryStore):
        store._encounters[channel_id] = text
    else:
        await store.pool.execute(  # type: ignore[attr-defined]
            "UPDATE encounters SET data = $1 WHERE channel_id = $2", text, channel_id
        )


async def test_a_sheet_block_writes_what_it_changed(store: Store) -> None:
    """A change made in a sheet block was not stored, or fields it left were changed."""
    mira = await new_sheet(store, physical=2, grit=20)
    async with store.sheet(mira.id) as sheet:
        assert (sheet.character.physical, sheet.fight_channel) == (2, None)
        sheet.character.physical = 5
        sheet.character.tags = ["Fiend", "Stealth"]
        sheet.character.perception_m = 12
    stored = await store.character_by_id(mira.id)
    assert (stored.physical, stored.tags, stored.perception_m) == (5, ["Fiend", "Stealth"], 12)
    assert (stored.grit, stored.name, stored.finesse) == (20, "Mira", 0)
    async with store.sheet(mira.id) as sheet:
        sheet.character.name = "Mira Vell"
    assert (await store.get_character(GUILD, 1, "mira vell")).id == mira.id
    assert await store.get_character(GUILD, 1, "Mira") is None


async def test_a_sheet_block_that_raises_writes_nothing(store: Store) -> None:
    """A sheet block that failed half-way left a change behind."""
    mira = await new_sheet(store)
    with pytest.raises(RuntimeError):
        async with store.sheet(mira.id) as sheet:
            sheet.character.physical = 9
            raise RuntimeError("the command failed half-way")
    assert (await store.character_by_id(mira.id)).physical == 0


async def test_an_unknown_sheet_is_not_found(store: Store) -> None:
    """A sheet block on an id that is no sheet did not say so."""
    with pytest.raises(NotFound, match="no longer exists"):
        async with store.sheet(424242):
            pass


async def test_concurrent_sheet_blocks_on_one_sheet_lose_nothing(store: Store) -> None:
    """100 concurrent read-change-write sheet blocks on one sheet lost an update."""
    mira = await new_sheet(store, max_grit=500, grit=500)

    async def damage() -> None:
        async with store.sheet(mira.id) as sheet:
            grit = sheet.character.grit
            await asyncio.sleep(0)  # give every other block the chance to interleave here
            sheet.character.grit = grit - 1

    await asyncio.gather(*(damage() for _ in range(100)))
    assert (await store.character_by_id(mira.id)).grit == 400


async def test_a_fight_holds_the_sheet_it_plays(store: Store) -> None:
    """The store did not name the fight whose encounter plays a character."""
    mira = await new_sheet(store)
    await start_encounter(store, OTHER_CHANNEL)
    assert await store.character_fight(mira.id) is None
    copy = await join(store, OTHER_CHANNEL, mira.id)
    assert (copy.id, copy.grit) == (mira.id, 30)
    assert await store.character_fight(mira.id) == OTHER_CHANNEL
    async with store.sheet(mira.id) as sheet:
        assert sheet.fight_channel == OTHER_CHANNEL


async def test_a_sheet_is_in_one_fight_at_a_time(store: Store) -> None:
    """A sheet a fight held joined another one (issue 16: damage 10 and 5 ended at 25/30)."""
    mira = await new_sheet(store)
    for channel_id in (CHANNEL, OTHER_CHANNEL):
        await start_encounter(store, channel_id)
    await join(store, CHANNEL, mira.id)
    with pytest.raises(SheetInFight) as refused:
        await join(store, OTHER_CHANNEL, mira.id)
    assert refused.value.channel_id == CHANNEL
    assert str(refused.value) == (
        f"Mira is already in the fight in <#{CHANNEL}>; a character is in one fight at a time, "
        "so they can join here once they have left it."
    )
    with pytest.raises(SheetInFight, match=r"^Mira is already in this fight\.$"):
        await join(store, CHANNEL, mira.id)
    assert (await store.peek(OTHER_CHANNEL)).combatants == []
    assert await store.character_fight(mira.id) == CHANNEL


async def test_concurrent_joins_of_one_sheet_let_one_fight_take_it(store: Store) -> None:
    """Joins of one sheet in three channels at once let it into more than one fight."""
    mira = await new_sheet(store)
    channels = (CHANNEL, OTHER_CHANNEL, THIRD_CHANNEL)
    for channel_id in channels:
        await start_encounter(store, channel_id)
    results = await asyncio.gather(
        *(join(store, channel_id, mira.id) for channel_id in channels), return_exceptions=True
    )
    joined = [c for c, r in zip(channels, results, strict=True) if isinstance(r, Character)]
    assert len(joined) == 1, results
    assert all(isinstance(r, SheetInFight) for r in results if not isinstance(r, Character))
    assert await store.character_fight(mira.id) == joined[0]
    playing = [c for c in channels if (await store.peek(c)).combatants]
    assert playing == joined


async def test_leaving_ending_or_clearing_a_fight_lets_the_sheet_go(store: Store) -> None:
    """A sheet stayed held after its character left, its fight ended, or a damaged one was cleared."""
    mira = await new_sheet(store, physical=4)
    await start_encounter(store)
    await join(store, CHANNEL, mira.id)
    await leave(store, CHANNEL, mira.id, grit=12)
    stored = await store.character_by_id(mira.id)
    assert (stored.grit, stored.physical) == (12, 4)
    assert await store.character_fight(mira.id) is None

    assert (await join(store, CHANNEL, mira.id)).grit == 12
    async with store.channel(CHANNEL) as state:  # /init end: every Grit back, then no fight
        state.write_back(mira.id, grit=7, max_grit=30, injuries=1)
        state.encounter = None
    stored = await store.character_by_id(mira.id)
    assert (stored.grit, stored.injuries) == (7, 1)
    assert await store.character_fight(mira.id) is None

    await start_encounter(store)
    await join(store, CHANNEL, mira.id)
    await damage_encounter(store, CHANNEL)
    async with store.channel(CHANNEL) as state:  # a GM clears the damaged encounter
        assert state.damaged
        state.encounter = None
    assert await store.character_fight(mira.id) is None
    assert (await store.character_by_id(mira.id)).grit == 7  # what it had when it joined


async def test_a_claim_without_the_character_joining_holds_nothing(store: Store) -> None:
    """A block that took a sheet but did not put the character into its fight kept the sheet."""
    mira = await new_sheet(store)
    await start_encounter(store)
    async with store.channel(CHANNEL) as state:
        await state.claim_sheet(mira.id)
        state.require_encounter().round = 2
    assert await store.character_fight(mira.id) is None
    with pytest.raises(RuntimeError):
        async with store.channel(CHANNEL) as state:
            await join_inside(state, mira.id)
            raise RuntimeError("the join failed after the claim")
    assert await store.character_fight(mira.id) is None
    assert (await store.peek(CHANNEL)).combatants == []


async def join_inside(state, character_id: int) -> None:  # type: ignore[no-untyped-def]
    sheet = await state.claim_sheet(character_id)
    state.require_encounter().combatants.append(
        Combatant(id=1, name=sheet.name, character_id=character_id)
    )


async def test_a_held_sheets_grit_cannot_change_outside_its_fight(store: Store) -> None:
    """A sheet block changed the Grit of a sheet a fight holds (the write-back would undo it)."""
    mira = await new_sheet(store)
    await start_encounter(store)
    await join(store, CHANNEL, mira.id)
    for field, value in (("grit", 5), ("max_grit", 40), ("injuries", 1)):
        with pytest.raises(SheetInFight) as refused:
            async with store.sheet(mira.id) as sheet:
                sheet.character.tags = ["Fiend"]
                setattr(sheet.character, field, value)
        assert str(refused.value) == (
            f"Mira is in the fight in <#{CHANNEL}>: change their Grit there with /grit; "
            "the fight writes it back when they leave or it ends."
        )
    stored = await store.character_by_id(mira.id)
    assert (stored.grit, stored.max_grit, stored.injuries, stored.tags) == (30, 30, 0, [])
    with pytest.raises(SheetInFight, match="delete them after they leave it"):
        await store.delete_character(GUILD, 1, "Mira")
    async with store.sheet(mira.id) as sheet:  # another field is the sheet's own
        sheet.character.tags = ["Fiend"]
    assert (await store.character_by_id(mira.id)).tags == ["Fiend"]


async def test_a_sheet_edit_and_a_write_back_keep_each_others_fields(store: Store) -> None:
    """An edit of a sheet while its fight wrote Grit back lost the Grit, or the edit."""
    mira = await new_sheet(store, physical=2)
    await start_encounter(store)
    await join(store, CHANNEL, mira.id)
    async with store.sheet(mira.id) as sheet:
        sheet.character.physical = 6
        sheet.character.name = "Mira Vell"
        # The fight ends while the edit is open: a write-back needs no sheet lock, it
        # writes the fight's fields of a sheet the fight holds, and nothing else.
        async with asyncio.timeout(5):
            await leave(store, CHANNEL, mira.id, grit=12)
        assert sheet.character.grit == 30  # what the block read
    stored = await store.character_by_id(mira.id)
    assert (stored.grit, stored.physical, stored.name) == (12, 6, "Mira Vell")
    assert await store.character_fight(mira.id) is None


async def test_a_join_waits_for_a_sheet_block_and_plays_what_it_wrote(store: Store) -> None:
    """A join during a sheet block copied the sheet as it was before the block wrote it."""
    mira = await new_sheet(store)
    await start_encounter(store)
    async with store.sheet(mira.id) as sheet:
        sheet.character.grit = 25
        joining = asyncio.create_task(join(store, CHANNEL, mira.id))
        await asyncio.sleep(0.05)
        assert not joining.done()  # it waits for the sheet's lock
    assert (await joining).grit == 25
    assert (await store.peek(CHANNEL)).combatants[0].grit == 25


async def test_a_fight_writes_back_only_to_a_sheet_it_holds(store: Store) -> None:
    """A fight that does not hold a sheet wrote its Grit over the holding fight's."""
    mira = await new_sheet(store)
    await start_encounter(store)
    await start_encounter(store, OTHER_CHANNEL)
    await join(store, CHANNEL, mira.id)
    async with store.channel(OTHER_CHANNEL) as state:
        state.write_back(mira.id, grit=1, max_grit=30, injuries=0)
    assert (await store.character_by_id(mira.id)).grit == 30
    assert await store.character_fight(mira.id) == CHANNEL


async def test_deleting_a_sheet_goes_through_its_lock(store: Store) -> None:
    """A deleted sheet could still be read, or stayed the owner's active character."""
    mira = await new_sheet(store)
    await store.set_active_character(GUILD, 1, mira.id)
    async with store.sheet(mira.id) as sheet:
        sheet.delete()
    assert await store.character_by_id(mira.id) is None
    assert await store.active_character(GUILD, 1) is None
    assert not await store.delete_character(GUILD, 1, "Mira")


async def test_two_stores_joining_one_sheet_let_one_fight_take_it(
    two_stores: tuple[Store, Store],
) -> None:
    """Two processes joining one sheet in two channels at once both got it."""
    first, second = two_stores
    mira = await new_sheet(first)
    await start_encounter(first)
    await start_encounter(second, OTHER_CHANNEL)
    results = await asyncio.gather(
        join(first, CHANNEL, mira.id), join(second, OTHER_CHANNEL, mira.id), return_exceptions=True
    )
    won = [r for r in results if isinstance(r, Character)]
    lost = [r for r in results if not isinstance(r, Character)]
    assert len(won) == 1 and len(lost) == 1, results
    assert isinstance(lost[0], (SheetInFight, StoreConflict))  # refused, never silently
    holder = CHANNEL if isinstance(results[0], Character) else OTHER_CHANNEL
    assert await second.character_fight(mira.id) == holder


async def test_postgres_sheet_blocks_of_two_processes_lose_nothing(postgres_url: str) -> None:
    """With each sheet's lock in PostgreSQL, 2 × 50 concurrent sheet blocks lost an update."""
    from bot.store.postgres import PostgresStore

    async with PostgresStore(postgres_url) as first, PostgresStore(postgres_url) as second:
        mira = await new_sheet(first, max_grit=500, grit=500)

        async def damage(store: Store) -> None:
            async with store.sheet(mira.id) as sheet:
                grit = sheet.character.grit
                await asyncio.sleep(0)
                sheet.character.grit = grit - 1

        await asyncio.gather(*(damage(s) for _ in range(50) for s in (first, second)))
        assert (await second.character_by_id(mira.id)).grit == 400


async def test_postgres_migration_gives_each_sheet_to_its_latest_fight(postgres_url: str) -> None:
    """Upgrading a PostgreSQL database of schema 1 left a character of a stored fight free."""
    import asyncpg

    from bot.store.postgres import MIGRATIONS, PostgresStore

    conn = await asyncpg.connect(postgres_url)
    try:  # a database as schema 1 left it: Mira in two fights, Tamsin in none
        for statement in MIGRATIONS[0][2]:
            await conn.execute(statement)
        await conn.execute(
            "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, description TEXT NOT NULL,"
            " applied_at DOUBLE PRECISION NOT NULL)"
        )
        await conn.execute("INSERT INTO schema_version VALUES (1, 'schema 1', 0)")
        for name in ("Mira", "Tamsin"):
            sheet = Character(guild_id=GUILD, owner_id=1, name=name)
            await conn.execute(
                "INSERT INTO characters (guild_id, owner_id, name, name_key, data)"
                " VALUES ($1, 1, $2, $3, $4)",
                GUILD,
                name,
                name.casefold(),
                sheet.model_dump_json(exclude={"id"}),
            )
        for channel_id, updated_at in ((CHANNEL, 20.0), (OTHER_CHANNEL, 10.0)):
            await conn.execute(
                "INSERT INTO encounters (channel_id, guild_id, data, updated_at, version,"
                " character_ids) VALUES ($1, $2, '{}', $3, 1, '{1}')",
                channel_id,
                GUILD,
                updated_at,
            )
    finally:
        await conn.close()
    async with PostgresStore(postgres_url) as store:
        assert await store.schema_version() == MIGRATIONS[-1][0]
        assert await store.character_fight(1) == CHANNEL
        assert await store.character_fight(2) is None


# NPC templates (/npc) -------------------------------------------------------------------


async def test_npc_templates_are_kept_per_server_by_name(store: Store) -> None:
    """A template was lost, found under another server, or a second one took a name in use."""
    spear = Weapon(name="Spear", damage="1d8", reach=2)
    goblin = await store.create_npc(
        NpcTemplate(guild_id=GUILD, name="Goblin", physical=3, items=[spear])
    )
    assert goblin.id is not None
    await store.create_npc(NpcTemplate(guild_id=GUILD, name="Bandit"))
    await store.create_npc(NpcTemplate(guild_id=GUILD + 1, name="Goblin"))
    found = await store.get_npc(GUILD, "GOBLIN")
    assert found == goblin
    assert [t.name for t in await store.list_npcs(GUILD)] == ["Bandit", "Goblin"]
    with pytest.raises(BadInput, match="already has an NPC template named goblin"):
        await store.create_npc(NpcTemplate(guild_id=GUILD, name="goblin"))
    assert await store.get_npc(GUILD, "Orc") is None


async def test_a_template_block_writes_its_change_or_nothing(store: Store) -> None:
    """A template's edit was lost, a failed one was kept, or a rename took another's name."""
    await store.create_npc(NpcTemplate(guild_id=GUILD, name="Goblin"))
    await store.create_npc(NpcTemplate(guild_id=GUILD, name="Bandit"))
    async with store.npc(GUILD, "goblin") as npc:
        npc.template.items.append(Armor(name="Hide", absorb=1))
        npc.template.finesse = 2
    with pytest.raises(RuntimeError):
        async with store.npc(GUILD, "Goblin") as npc:
            npc.template.finesse = 9
            raise RuntimeError("the command failed")
    with pytest.raises(BadInput, match="already has an NPC template named Bandit"):
        async with store.npc(GUILD, "Goblin") as npc:
            npc.template.name = "Bandit"
    stored = await store.get_npc(GUILD, "Goblin")
    assert stored is not None
    assert (stored.finesse, stored.items) == (2, [Armor(name="Hide", absorb=1)])
    async with store.npc(GUILD, "Goblin") as npc:
        npc.delete()
    assert [t.name for t in await store.list_npcs(GUILD)] == ["Bandit"]
    with pytest.raises(NotFound, match="no NPC template named 'Goblin'"):
        async with store.npc(GUILD, "Goblin"):
            pass


async def test_a_glimpse_is_the_committed_encounter_parsed_once_per_commit(store: Store) -> None:
    """`glimpse` showed a stale encounter after a commit or an end, or parsed the same text twice."""
    assert await store.glimpse(CHANNEL) is None
    await start_encounter(store)
    first = await store.glimpse(CHANNEL)
    assert first is not None and first.round == 1
    assert await store.glimpse(CHANNEL) is first  # the same committed text: parsed once
    async with store.channel(CHANNEL) as state:
        state.require_encounter().round = 4
    after = await store.glimpse(CHANNEL)
    assert after is not first and after is not None and after.round == 4
    with pytest.raises(RuntimeError):  # a rolled-back block changes nothing a glimpse sees
        async with store.channel(CHANNEL) as state:
            state.require_encounter().round = 9
            raise RuntimeError("boom")
    assert await store.glimpse(CHANNEL) is after
    async with store.channel(CHANNEL) as state:
        state.encounter = None
    assert await store.glimpse(CHANNEL) is None


async def test_a_block_changes_its_own_copy_never_what_readers_share(store: Store) -> None:
    """A block's change (down to a power's Specials) reached a glimpse, or a raised block's did."""
    async with store.channel(CHANNEL) as state:
        state.encounter = full_encounter(CHANNEL, GUILD)
    shared = await store.glimpse(CHANNEL)
    assert shared is not None
    committed = shared.model_dump_json()
    with pytest.raises(RuntimeError):
        async with store.channel(CHANNEL) as state:
            mine = state.require_encounter()
            assert mine is not shared
            change_everything(mine)
            assert (await store.glimpse(CHANNEL)) is shared  # mid-block: the committed one
            assert shared.model_dump_json() == committed
            raise RuntimeError("the command failed half-way")
    assert shared.model_dump_json() == committed
    async with store.channel(CHANNEL) as state:
        assert state.require_encounter().model_dump_json() == committed  # nothing was written
        change_everything(state.require_encounter())
        written = state.require_encounter()
    assert shared.model_dump_json() == committed  # a reader holding the old one still reads it
    assert await store.glimpse(CHANNEL) is written
    after = written.model_dump_json()
    async with store.channel(CHANNEL) as state:  # the next block's changes: its own again
        assert state.require_encounter() is not written
        state.require_encounter().combatants[0].powers[0].specials.clear()
    assert written.model_dump_json() == after


async def test_a_block_after_a_commit_plays_exactly_the_stored_text(store: Store) -> None:
    """A block's encounter was not what parsing the stored text gives (checked copy by copy)."""
    assert Store.check_copies  # tests/conftest.py: every block's copy is checked
    async with store.channel(CHANNEL) as state:
        state.encounter = full_encounter(CHANNEL, GUILD)
    shared = await store.glimpse(CHANNEL)
    assert shared is not None
    shared.combatants[0].grit = 1  # what no reader may do: change the shared encounter
    with pytest.raises(AssertionError, match=r"combatants\[0\].grit: 1 vs 30"):
        async with store.channel(CHANNEL):
            pass


async def test_a_peek_is_the_callers_own(store: Store) -> None:
    """Changing what `peek` returned changed what readers share or what the next block loads."""
    async with store.channel(CHANNEL) as state:
        state.encounter = full_encounter(CHANNEL, GUILD)
    shared = await store.glimpse(CHANNEL)
    assert shared is not None
    committed = shared.model_dump_json()
    peeked = await store.peek(CHANNEL)  # copied from the encounter readers share
    assert peeked is not None and peeked is not shared
    change_everything(peeked)
    assert shared.model_dump_json() == committed
    async with store.channel(CHANNEL) as state:
        assert state.require_encounter().model_dump_json() == committed
