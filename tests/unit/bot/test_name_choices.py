"""Autocomplete's ranking of names: those starting with what was typed, then containing it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.rules.names import name_key
from bot.table import AUTOCOMPLETE_LIMIT, name_choices


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
