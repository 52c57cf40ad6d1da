"""The tracker keeps each combatant's line between refreshes, and shows exactly what it would anew."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable

import pytest

from bot.i18n import speaking
from bot.render import tracker as render
from bot.render.tracker import LINE_SCENE, combatant_line, tracker_embed
from bot.rules import encounter as flow
from bot.rules.models import (
    ActiveSpecial,
    Combatant,
    Declaration,
    Encounter,
    LongAction,
    MaintainedBuff,
)
from bot.store import MemoryStore, Store

CHANNEL = 5


@pytest.fixture
async def store() -> AsyncIterator[Store]:
    backend = MemoryStore()
    async with backend:
        async with backend.channel(CHANNEL) as state:
            encounter = Encounter(channel_id=CHANNEL, gm_id=1, mode="finesse")
            for n, name in enumerate(["Goblin", "Orc", "Wolf", "Ada"]):
                combatant = Combatant(id=0, name=name, finesse=5 - n, grit=25)
                if name == "Ada":
                    combatant.is_npc, combatant.side = False, "party"
                flow.add_combatant(encounter, combatant, random.Random(0))
            flow.advance(encounter, random.Random(0))  # rolls initiative: Goblin acts
            state.encounter = encounter
        yield backend


async def committed(store: Store) -> tuple[Encounter, tuple[str, ...]]:
    """Return the committed encounter and its combatants' parts, as the tracker gets them."""
    encounter = await store.glimpse(CHANNEL)
    assert encounter is not None
    parts = store.glimpsed_parts(CHANNEL, encounter)
    assert parts is not None  # a block's commit hands them over
    return encounter, parts


async def change(store: Store, how: Callable[[Encounter], object]) -> None:
    async with store.channel(CHANNEL) as state:
        how(state.require_encounter())


def lines(encounter: Encounter, parts: tuple[str, ...], *, gm_view: bool) -> dict[str, str]:
    """Return each shown combatant's line by name, kept ones where the tracker keeps them."""
    found = render._lines(encounter, gm_view, parts=parts)
    return {c.name: line for c in encounter.combatants for line in found if f"**{c.name}**" in line}


def named(encounter: Encounter, name: str) -> Combatant:
    return next(c for c in encounter.combatants if c.name == name)


async def same_as_fresh(store: Store) -> None:
    """Assert the tracker with kept lines is byte for byte the one rendered from scratch."""
    encounter, parts = await committed(store)
    for language in ("en", "de"):
        with speaking(language):
            for gm_view in (False, True):
                kept = tracker_embed(encounter, gm_view=gm_view, parts=parts).to_dict()
                fresh = tracker_embed(encounter, gm_view=gm_view).to_dict()
                assert kept == fresh, (language, gm_view)


async def test_an_unchanged_combatant_keeps_its_line_and_a_changed_one_gets_a_new_one(
    store: Store,
) -> None:
    """A refresh rendered every line again, or showed a changed combatant's old line."""
    before = lines(*await committed(store), gm_view=True)
    await change(store, lambda e: setattr(named(e, "Orc"), "grit", 9))
    after = lines(*await committed(store), gm_view=True)
    assert after["Goblin"] is before["Goblin"]  # the very line kept from the refresh before
    assert after["Wolf"] is before["Wolf"]
    assert "Grit 25/30 Prime d20" in before["Orc"]
    assert "Grit 9/30 Frail d10" in after["Orc"]
    await same_as_fresh(store)


async def test_a_kept_line_follows_the_turn(store: Store) -> None:
    """The pointer stayed on the one who acted after /init next moved the turn on."""
    before = lines(*await committed(store), gm_view=False)
    assert before["Goblin"].startswith("▶") and before["Orc"].startswith("▫")
    await change(store, lambda e: flow.advance(e, random.Random(0)))
    after = lines(*await committed(store), gm_view=False)
    assert after["Goblin"].startswith("✓") and after["Orc"].startswith("▶")
    assert after["Wolf"] is before["Wolf"]  # still to act: nothing of its line changed
    await same_as_fresh(store)


async def test_a_kept_line_follows_the_view(store: Store) -> None:
    """The same combatant's kept line showed the pointer or the exact Grit of another view."""
    encounter, parts = await committed(store)
    line = render._line_maker(encounter, parts)
    orc = named(encounter, "Orc")
    assert line(orc, False, False, False) == "▫ `  4` 🟥 **Orc** · Prime d20 · ●●"
    assert line(orc, True, False, False) == "▶ `  4` 🟥 **Orc** · Prime d20 · ●●"
    assert line(orc, False, True, False) == "▫ `  4` 🟥 **Orc** · Grit 25/30 Prime d20 · ●●"
    assert line(orc, False, False, True) == "◆ `  4` 🟥 **Orc** · Prime d20"
    assert line(orc, True, False, False) == "▶ `  4` 🟥 **Orc** · Prime d20 · ●●"


async def test_a_kept_line_follows_the_language(store: Store) -> None:
    """A German server read a line kept from an English tracker."""
    await change(store, lambda e: setattr(named(e, "Wolf"), "hasted", True))
    encounter, parts = await committed(store)
    english = lines(encounter, parts, gm_view=False)
    with speaking("de"):
        german = lines(encounter, parts, gm_view=False)
    assert "⚡ Haste" in english["Wolf"]
    assert "⚡ Eile" in german["Wolf"]
    await same_as_fresh(store)


async def test_a_kept_line_follows_the_scene(store: Store) -> None:
    """A maintained buff's rounds left stood still when only the round moved on [GAME.md §9]."""

    def buff(encounter: Encounter) -> None:
        named(encounter, "Wolf").buff = MaintainedBuff(name="Bulwark", until_round=4)

    await change(store, buff)
    before = lines(*await committed(store), gm_view=True)
    await change(store, lambda e: setattr(e, "round", 2))
    after = lines(*await committed(store), gm_view=True)
    assert "✦ Bulwark (3 rounds)" in before["Wolf"]
    assert "✦ Bulwark (2 rounds)" in after["Wolf"]
    await same_as_fresh(store)


async def test_hiding_a_combatant_changes_its_kept_line_and_players_never_see_it(
    store: Store,
) -> None:
    """An NPC hidden after its line was kept still showed to players, or lost its 👁 for the GM."""
    before = lines(*await committed(store), gm_view=False)
    assert "Orc" in before
    await change(store, lambda e: setattr(named(e, "Orc"), "hidden", True))
    encounter, parts = await committed(store)
    gm_lines = lines(encounter, parts, gm_view=True)  # the GM's lines are kept first
    assert "**Orc** 👁 · Grit 25/30 Prime d20" in gm_lines["Orc"]
    for _ in range(2):  # rendered anew, then from what is kept
        players = tracker_embed(encounter, parts=parts).to_dict()
        assert "Orc" not in str(players)
    await change(store, lambda e: setattr(named(e, "Orc"), "hidden", False))
    shown = lines(*await committed(store), gm_view=False)
    assert shown["Orc"] == before["Orc"]
    await same_as_fresh(store)


async def test_a_hidden_actor_is_not_pointed_at_for_players(store: Store) -> None:
    """Players saw which line acts while a hidden NPC had the turn."""
    await change(store, lambda e: setattr(named(e, "Goblin"), "hidden", True))
    encounter, parts = await committed(store)
    assert "▶" in "".join(lines(encounter, parts, gm_view=True).values())
    players = tracker_embed(encounter, parts=parts).description or ""
    assert "Goblin" not in players and "▶" not in players.split("\n\n")[0]
    await same_as_fresh(store)


async def test_the_kept_lines_are_bounded(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The kept lines grew with every fight the bot ever showed (1,000 fights: 10,000 lines)."""
    monkeypatch.setattr(render, "LINE_CACHE", 3)
    monkeypatch.setattr(render, "_kept_lines", type(render._kept_lines)())
    encounter, parts = await committed(store)
    tracker_embed(encounter, parts=parts)
    assert len(render._kept_lines) == 3
    await same_as_fresh(store)


def test_a_line_reads_only_its_combatant_and_the_scene() -> None:
    """A line read a part of the encounter its kept copy is not keyed by."""
    encounter = Encounter(channel_id=CHANNEL, gm_id=1, mode="fortune", flow="full", ambush="foes")
    rng = random.Random(0)
    for name in ("Goblin", "Orc", "Ada"):
        flow.add_combatant(encounter, Combatant(id=0, name=name, finesse=2), rng)
    goblin, orc, ada = encounter.combatants
    goblin.hasted, goblin.acted_out_of_turn, goblin.prone = True, True, True
    goblin.sacrifices = {"attack": 1}
    goblin.specials = [ActiveSpecial(name="Slow", x=2), ActiveSpecial(name="Stunned")]
    goblin.long_action = LongAction(name="Ritual", kind="focused", rounds=3)
    goblin.buff = MaintainedBuff(name="Bulwark", until_round=3)
    goblin.declaration = Declaration(text="Attack the orc")
    orc.waiting, ada.holding, ada.grit = True, True, 0
    read: set[str] = set()

    class Watched:
        def __getattr__(self, name: str) -> object:
            read.add(name)
            return getattr(encounter, name)

    for round_now, phase in ((0, "initiative"), (1, "declaration"), (1, "initiative")):
        encounter.round, encounter.phase = round_now, phase
        for combatant in encounter.combatants:
            for acting in (False, True):
                for ended in (False, True):
                    watched = Watched()
                    line = combatant_line(
                        combatant,
                        watched,  # type: ignore[arg-type]
                        acting=acting,
                        exact=True,
                        ended=ended,
                    )
                    assert line == combatant_line(
                        combatant, encounter, acting=acting, exact=True, ended=ended
                    )
    assert read == set(LINE_SCENE)
