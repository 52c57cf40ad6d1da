"""Autocomplete's ranking of names: those starting with what was typed, then containing it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.permissions import Caller
from bot.rules.models import Combatant, Encounter
from bot.rules.names import name_key
from bot.table import AUTOCOMPLETE_LIMIT, Glance, _ranked, _visible_names, name_choices


def ranked_as_before(names: list[str], current: str) -> list[str]:
    """Rank as `name_choices` did before it looked each name's key up once."""
    wanted = name_key(current)
    starts = [n for n in names if name_key(n).startswith(wanted)]
    contains = [n for n in names if wanted in name_key(n) and n not in starts]
    return (starts + contains)[:AUTOCOMPLETE_LIMIT]


def offered(names: list[str], current: str) -> list[str]:
    choices = name_choices(names, current)
    assert all(choice.name == choice.value for choice in choices)
    return [choice.name for choice in choices]


def test_names_starting_with_the_text_come_first_then_those_containing_it() -> None:
    """ "ob" offered Goblin before Obelisk, or left out a name holding it inside."""
    names = ["Goblin 1", "Obelisk", "Bob", "Guard", "ROBIN"]
    assert offered(names, "ob") == ["Obelisk", "Goblin 1", "Bob", "ROBIN"]
    assert offered(names, "") == names


def test_a_fight_of_100_offers_25_and_the_starting_ones_first() -> None:
    """A fight of 100 offered more than Discord's 25, or a containing name over a starting one."""
    names = [f"Guard {n}" for n in range(1, 51)] + [f"Goblin {n}" for n in range(1, 51)]
    assert offered(names, "") == names[:25]
    assert offered(names, "1") == [
        *("Guard 1", "Guard 10", "Guard 11"),
        *(f"Guard {n}" for n in range(12, 20)),
        "Guard 21",
        *(f"Guard {n}" for n in (31, 41)),
        "Goblin 1",
        *(f"Goblin {n}" for n in range(10, 20)),
    ]  # Goblin 21 would be the 26th


@given(
    st.lists(st.text(alphabet="abAB 1é-", max_size=6), max_size=40),
    st.text(alphabet="abAB 1é-", max_size=3),
)
def test_the_ranking_is_the_one_it_always_was(names: list[str], current: str) -> None:
    """Looking each key up once changed which names were offered, or their order."""
    assert offered(names, current) == ranked_as_before(names, current)


def _fight(*names: str, hidden: str = "") -> Encounter:
    encounter = Encounter(channel_id=1, guild_id=2, gm_id=3)
    encounter.combatants = [
        Combatant(id=at, name=name, hidden=name == hidden) for at, name in enumerate(names, 1)
    ]
    return encounter


def test_the_names_kept_per_encounter_hide_a_hidden_npc_from_players() -> None:
    """A player's keystroke was offered the hidden NPC the GM's had keyed, or the reverse."""
    shared = _fight("Orc", "Goblin", "Guard", hidden="Goblin")
    gm, player = Glance(shared, Caller(3), gm=True), Glance(shared, Caller(4), gm=False)
    for _ in range(2):  # keyed, then kept
        assert _visible_names(gm) == [("Orc", "orc"), ("Goblin", "goblin"), ("Guard", "guard")]
        assert _visible_names(player) == [("Orc", "orc"), ("Guard", "guard")]
        assert [c.name for c in _ranked(_visible_names(player), "g")] == ["Guard"]


def test_a_new_committed_encounter_is_keyed_again() -> None:
    """A combatant added (a new committed encounter) was not offered: the old names were kept."""
    before = _fight("Orc")
    assert _visible_names(Glance(before, Caller(4), gm=False)) == [("Orc", "orc")]
    after = _fight("Orc", "Ogre")
    assert _visible_names(Glance(after, Caller(4), gm=False)) == [("Orc", "orc"), ("Ogre", "ogre")]
    del before
    reused = _fight("Imp")  # may take the freed encounter's id: the weak reference tells
    assert _visible_names(Glance(reused, Caller(4), gm=False)) == [("Imp", "imp")]
