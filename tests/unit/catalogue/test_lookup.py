"""Look-up by name (exact, alias, prefix, fuzzy) and autocomplete within Discord's limits."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.catalogue.lookup import MAX_CHOICE_LENGTH, MAX_CHOICES, Lookup, normalise
from bot.catalogue.models import load_catalogue
from bot.catalogue.views import all_entries, display_name, entry_id
from bot.errors import BadInput, NotFound

LOOKUP = Lookup(load_catalogue())  # for parametrisation and Hypothesis
EVERY_ENTRY = [(entry_id(e), display_name(e)) for e in all_entries(load_catalogue())]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("teleprot", "movement:teleport"),  # typo → fuzzy
        ("lacerat", "special:lacerate"),  # cut short → prefix
        ("teleport", "movement:teleport"),  # lower-case
        ("TELEPORT", "movement:teleport"),
        ("Teleportation", "movement:teleport"),  # German alias
        ("Verfall", "special:ruin"),
        ("präzision", "special:precision"),
        ("prazision", "special:precision"),  # accent-blind
        ("Faeulnis", "special:blight"),  # umlaut written out
        ("Schadensreduktion", "active_buff:damage_reduction"),
        ("Flug", "movement:flight"),
        ("tele", "movement:teleport"),  # prefix: the shortest name wins
        ("tele with ally", "movement:teleport_with_ally"),
        ("wallwalk", "movement:wall_walk"),
        ("ruinn", "special:ruin"),
        ("Unyielding Shell", "active_buff:damage_reduction"),
        ("Ghostform", "passive:phasing"),
        ("Reaction: Armor", "reaction:armor"),
        ("reaction armor", "reaction:armor"),
        ("armor", "active_buff:armor"),  # same name: the earlier kind
        ("instant aoe", "table:instant_attack_aoe"),
        ("Ruin(X)", "special:ruin"),
        ("movement:trample", "movement:trample"),  # an autocomplete value
        ("active", "power_type:active"),
        ("initiative canon", "rule:initiative_canon"),
    ],
)
def test_find(lookup: Lookup, query: str, expected: str) -> None:
    """A query does not find the entry a player means."""
    assert entry_id(lookup.find(query)) == expected


@pytest.mark.parametrize(
    ("query", "kind", "expected"),
    [
        ("armor", "passive", "passive:armor"),
        ("armor", ("reaction", "passive"), "reaction:armor"),
        ("dr", "reaction", "reaction:damage_reduction"),
        ("push", "special", "special:push"),
    ],
)
def test_find_within_kinds(lookup: Lookup, query: str, kind: object, expected: str) -> None:
    """A kind filter does not narrow the look-up to those kinds."""
    assert entry_id(lookup.find(query, kind=kind)) == expected


def test_unknown_name_suggests_the_closest(lookup: Lookup) -> None:
    """An unknown name is not answered with 'no entry named …; did you mean …'."""
    with pytest.raises(NotFound) as raised:
        lookup.find("Ruinous Blast")
    message = raised.value.message
    assert message.startswith("No entry named 'Ruinous Blast'; did you mean Ruin(X), ")
    assert message.count(",") + message.count(" or ") == 2
    assert message.endswith("?")


def test_nonsense_gets_no_suggestions(lookup: Lookup) -> None:
    """A query like nothing in the catalogue gets made-up suggestions."""
    with pytest.raises(NotFound, match=r"^No entry named 'qqqqqq'\.$"):
        lookup.find("qqqqqq")


def test_long_unknown_query_is_shortened(lookup: Lookup) -> None:
    """An unknown long query is echoed in full."""
    with pytest.raises(NotFound) as raised:
        lookup.find("q" * 300)
    assert len(raised.value.message) < 120


def test_kind_filter_excludes_other_kinds(lookup: Lookup) -> None:
    """A Special is found when only movement types are asked for."""
    with pytest.raises(NotFound):
        lookup.find("ruin", kind="movement")


def test_empty_query_is_bad_input(lookup: Lookup) -> None:
    """An empty query is not refused."""
    with pytest.raises(BadInput, match="Type a name"):
        lookup.find("   ")


@pytest.mark.parametrize(("ident", "name"), EVERY_ENTRY, ids=[i for i, _ in EVERY_ENTRY])
def test_every_entry_is_found_by_its_name_and_id(ident: str, name: str) -> None:
    """An entry cannot be found by its own display name or its id."""
    assert entry_id(LOOKUP.find(ident)) == ident
    assert LOOKUP.get(ident) is LOOKUP.find(ident)
    found = LOOKUP.find(name)
    assert normalise(display_name(found)) == normalise(name)


def test_see_also_names_the_namesakes(lookup: Lookup) -> None:
    """Entries sharing a name do not point to each other."""
    armor = lookup.find("armor")
    assert set(lookup.see_also(armor)) == {"Reaction: Armor", "Passive: Armor"}


def test_empty_autocomplete_lists_the_first_25(lookup: Lookup) -> None:
    """An empty autocomplete does not offer a sensible first page of 25."""
    choices = lookup.suggest("")
    assert len(choices) == MAX_CHOICES
    assert choices[0].name.startswith("Movement: ")
    specials = lookup.suggest("", kind="special")
    assert all(LOOKUP.get(c.value).kind == "special" for c in specials)
    assert specials[0].name == "Blight(X)"


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("tel", "Movement: Teleport"),
        ("teleprot", "Movement: Teleport"),
        ("lac", "Lacerate(X)"),
        ("arm", "Active Buff: Armor"),
        ("wall wa", "Movement: Wall Walk"),
        ("dash", "Movement: Ground Dash"),
    ],
)
def test_autocomplete_puts_the_best_first(lookup: Lookup, query: str, first: str) -> None:
    """Autocomplete does not put the best match first."""
    assert lookup.suggest(query)[0].name == first


def test_autocomplete_respects_the_limit(lookup: Lookup) -> None:
    """Autocomplete returns more choices than asked for, or more than Discord allows."""
    assert len(lookup.suggest("a", limit=5)) == 5
    assert len(lookup.suggest("a", limit=500)) == MAX_CHOICES


@given(query=st.text(max_size=120))
def test_autocomplete_stays_within_discord_limits(query: str) -> None:
    """Some input yields more than 25 choices, a name or value over 100 characters, or a dud value."""
    choices = LOOKUP.suggest(query)
    assert len(choices) <= MAX_CHOICES
    assert len({c.value for c in choices}) == len(choices)
    for choice in choices:
        assert 1 <= len(choice.name) <= MAX_CHOICE_LENGTH
        assert LOOKUP.get(choice.value) is not None


@given(query=st.text(max_size=80))
def test_find_returns_or_raises_a_user_error(query: str) -> None:
    """Some input makes find fail with something other than NotFound or BadInput."""
    try:
        LOOKUP.find(query)
    except (NotFound, BadInput) as error:
        assert "\n" not in error.message


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("Präzision", "prazision"),
        ("Stoßen", "stossen"),
        ("Armor + Evade", "armor evade"),
        ("Ruin(X)", "ruin x"),
        ("  Teleport   with  Ally ", "teleport with ally"),
    ],
)
def test_normalise(text: str, folded: str) -> None:
    """Names are not folded case-, accent- and punctuation-blind."""
    assert normalise(text) == folded
