"""A PostgreSQL channel block in two round trips: the remembered row, and writes sent with COMMIT."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.errors import TableBusy
from bot.rules.models import Combatant, Encounter
from bot.store import StoreConflict
from bot.store.postgres import PostgresStore, _quoted

CHANNEL = 1001
GUILD = 77
QUERIES = ("execute", "fetch", "fetchrow", "fetchval", "executemany")


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Return every query the stores send from now on, each one round trip to the server."""
    import asyncpg

    queries: list[str] = []
    for name in QUERIES:
        original = getattr(asyncpg.Connection, name)

        def counted(self: object, query: str, *args: object, _original=original, **kw: object):
            queries.append(query)
            return _original(self, query, *args, **kw)

        monkeypatch.setattr(asyncpg.Connection, name, counted)
    yield queries


async def start(store: PostgresStore, *names: str) -> None:
    async with store.channel(CHANNEL) as state:
        encounter = Encounter(channel_id=CHANNEL, guild_id=GUILD, gm_id=5)
        for n, name in enumerate(names or ("Goblin",), start=1):
            encounter.combatants.append(Combatant(id=n, name=name, grit=30))
        state.encounter = encounter


async def grit_and_log(store: PostgresStore) -> list[tuple[int, str]]:
    """Read the stored Grit of each combatant and the round's log through a store of its own."""
    async with PostgresStore(store.url) as fresh, fresh.channel(CHANNEL) as state:
        grit = [(c.grit, c.name) for c in state.require_encounter().combatants]
        return grit + [(0, entry.text) for entry in await state.round_log(1)]


async def test_a_play_block_costs_two_round_trips(postgres_url: str, sent: list[str]) -> None:
    """A change of Grit with a log line cost more than BEGIN-lock-check and writes-COMMIT."""
    async with PostgresStore(postgres_url) as store:
        await start(store)
        sent.clear()
        async with store.channel(CHANNEL) as state:
            state.require_encounter().combatants[0].grit = 27
            state.log(1, "Goblin takes 3.")
        assert len(sent) == 2, sent  # was 5: BEGIN+lock, SELECT, UPDATE, INSERT, COMMIT
        sent.clear()
        async with store.channel(CHANNEL) as state:  # a look changes nothing
            assert state.require_encounter().combatants[0].grit == 27
        assert len(sent) == 2, sent  # was 3: BEGIN+lock, SELECT, COMMIT
        assert await grit_and_log(store) == [(27, "Goblin"), (0, "Goblin takes 3.")]


async def test_texts_like_quotes_are_stored_as_typed(postgres_url: str) -> None:
    """A name or log line with quotes, backslashes or dollar tags was stored changed, or ran."""
    tricky = ["O'Brien \\n", "ends in $q", "$q$ $q1$ $$", "$q$'); DROP TABLE encounters; --"]
    async with PostgresStore(postgres_url) as store:
        await start(store, *tricky)
        async with store.channel(CHANNEL) as state:
            for combatant in state.require_encounter().combatants:
                combatant.grit = 29
            for text in tricky:
                state.log(1, text)
        assert await grit_and_log(store) == [(29, t) for t in tricky] + [(0, t) for t in tricky]


async def test_a_write_overtaken_behind_the_lock_is_refused_whole(postgres_url: str) -> None:
    """A write over a row changed meanwhile by a writer without the lock was stored, or half."""
    async with PostgresStore(postgres_url) as store:
        await start(store)
        with pytest.raises(StoreConflict):
            async with store.channel(CHANNEL) as state:
                state.require_encounter().combatants[0].grit = 1
                state.log(1, "Goblin takes 29.")
                await store.pool.execute("UPDATE encounters SET version = version + 1")
        assert await grit_and_log(store) == [(30, "Goblin")]  # neither the Grit nor the line
        async with store.channel(CHANNEL) as state:  # read afresh: it writes again
            state.require_encounter().combatants[0].grit = 2
        assert await grit_and_log(store) == [(2, "Goblin")]


async def test_an_encounter_started_anew_elsewhere_is_read_anew(postgres_url: str) -> None:
    """A row ended and started again by another process (version 1 again) read as the old one."""
    async with PostgresStore(postgres_url) as first, PostgresStore(postgres_url) as second:
        await start(first, "Goblin")  # version 1, remembered by the first
        async with second.channel(CHANNEL) as state:
            state.encounter = None
        await start(second, "Ogre")  # version 1 again, another text
        async with first.channel(CHANNEL) as state:
            assert [c.name for c in state.require_encounter().combatants] == ["Ogre"]
            state.require_encounter().combatants[0].grit = 12
        async with second.channel(CHANNEL) as state:
            assert state.require_encounter().combatants[0].grit == 12


async def test_a_row_mended_by_hand_is_read_as_mended(postgres_url: str) -> None:
    """A row whose text was changed by hand, its version kept, read as the remembered text."""
    async with PostgresStore(postgres_url) as store:
        await start(store)
        async with store.channel(CHANNEL) as state:
            mended = state.require_encounter().model_copy(update={"round": 4})
        await store.pool.execute(
            "UPDATE encounters SET data = $1 WHERE channel_id = $2",
            mended.model_dump_json(),
            CHANNEL,
        )
        async with store.channel(CHANNEL) as state:
            assert state.require_encounter().round == 4


async def test_a_log_line_postgres_refuses_rolls_the_block_back(postgres_url: str) -> None:
    """A text PostgreSQL cannot store (a NUL) cut the commit's query short, or kept half of it."""
    import asyncpg

    async with PostgresStore(postgres_url) as store:
        await start(store)
        with pytest.raises(asyncpg.PostgresError):
            async with store.channel(CHANNEL) as state:
                state.require_encounter().combatants[0].grit = 3
                state.log(1, "nul \x00 inside")
        assert await grit_and_log(store) == [(30, "Goblin")]


@given(
    texts=st.lists(
        st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00")),
        max_size=20,
    )
)
@settings(max_examples=200, deadline=None)
async def test_any_text_is_read_back_as_quoted(postgres_server: str, texts: list[str]) -> None:
    """A dollar-quoted text (bot/store/postgres.py `_quoted`) read back changed: any text,
    with `$`, `$q` and tags like `$q$` and `$q1$` drawn often, comes back exactly as typed.
    (No NUL and no lone surrogate: PostgreSQL and UTF-8 refuse those as parameters too.)"""
    import asyncpg

    texts = [t.replace("a", "$q").replace("b", "$q1$").replace("c", "$") for t in texts]
    conn = await asyncpg.connect(postgres_server)
    try:
        query = "SELECT " + ", ".join(_quoted(t) for t in texts) if texts else "SELECT"
        row = await conn.fetchrow(query)
    finally:
        await conn.close()
    assert list(row or ()) == texts


async def test_a_block_waiting_for_a_connection_gives_up_and_returns_none(
    postgres_url: str,
) -> None:
    """With every block connection busy, a block past its give-up time got in, or leaked one."""
    async with PostgresStore(postgres_url, block_pool_size=2) as store:
        for channel_id in (CHANNEL, CHANNEL + 1, CHANNEL + 2):
            async with store.channel(channel_id) as state:
                state.encounter = Encounter(channel_id=channel_id, guild_id=GUILD, gm_id=5)
        inside = asyncio.Event()
        release = asyncio.Event()
        entered: list[int] = []

        async def command(channel_id: int) -> None:
            async with store.channel(channel_id) as state:
                entered.append(channel_id)
                if len(entered) == 2:
                    inside.set()
                await release.wait()
                state.require_encounter().round = 2

        tasks = [asyncio.create_task(command(c)) for c in (CHANNEL, CHANNEL + 1)]
        await inside.wait()
        with pytest.raises(TableBusy):
            give_up_at = asyncio.get_running_loop().time() + 0.05
            async with store.channel(CHANNEL + 2, give_up_at=give_up_at) as state:
                state.require_encounter().round = 9
        release.set()
        await asyncio.gather(*tasks)
        for _ in range(3):  # two connections, each handed back: three blocks in a row get one
            async with store.channel(CHANNEL + 2) as state:
                state.require_encounter().round += 1
        assert [(await store.peek(c)).round for c in (CHANNEL, CHANNEL + 1, CHANNEL + 2)] == [
            2,
            2,
            4,
        ]


async def test_encounter_texts_are_compressed_with_lz4_where_the_server_has_it(
    postgres_url: str,
) -> None:
    """A fight's text was stored with pglz, a fifth more of the server's CPU per command."""
    import asyncpg

    async with PostgresStore(postgres_url) as store:
        await start(store, *(f"Goblin {n}" for n in range(1, 31)))
        conn = await asyncpg.connect(postgres_url)
        try:
            has_lz4 = await conn.fetchval(
                "SELECT 'lz4' = ANY (enumvals) FROM pg_settings"
                " WHERE name = 'default_toast_compression'"
            )
            size, method = await conn.fetchrow(
                "SELECT octet_length(data), pg_column_compression(data) FROM encounters"
                " WHERE channel_id = $1",
                CHANNEL,
            )
        finally:
            await conn.close()
        assert size > 2_000  # past PostgreSQL's threshold (about 2 KB): compressed
        assert method == ("lz4" if has_lz4 else "pglz")
        assert [grit for grit, _ in await grit_and_log(store)] == [30] * 30
