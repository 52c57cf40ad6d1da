"""Look-up by name (exact, alias, prefix, fuzzy) and autocomplete within Discord's limits."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from rapidfuzz import fuzz, process

from bot.catalogue.lookup import (
    ALTERNATIVE_CUTOFF,
    FIND_CUTOFF,
    FUZZY_POOL,
    HINT_CUTOFF,
    MAX_CHOICE_LENGTH,
    MAX_CHOICES,
    SUGGEST_CUTOFF,
    Lookup,
    _wratio_bound,
    normalise,
)
from bot.catalogue.models import CatalogueError, Heading, load_catalogue
from bot.catalogue.shapes import KIND_LABELS
from bot.catalogue.srd_source import SrdText
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


# ---------------------------------------------------------------- honest answers (issue 19)

HEADINGS = load_catalogue().headings.headings


@pytest.mark.parametrize(
    ("query", "how", "expected"),
    [
        ("movement:teleport", "id", "movement:teleport"),
        ("Teleport", "exact", "movement:teleport"),
        ("Teleportation", "alias", "movement:teleport"),
        ("Image Size Costs", "heading", "table:image_size"),  # was Passive DR Costs
        ("10.17", "heading", "table:push_pull_control"),
        ("Deine Rolle", "heading", "rule:design_workflow"),  # "0.1 Deine Rolle" without its number
        ("Summon Skills", "exact", "rule:summon_skills"),  # was Summon Power Level Cap
        ("Start PP 8 Active-Curve Reference", "exact", "table:active_curve_reference"),
        ("lacerat", "prefix", "special:lacerate"),
        ("tele", "guess", "movement:teleport"),  # Teleport with Ally and Telepathy also start so
        ("teleprot", "guess", "movement:teleport"),  # a typo is a guess, never a silent answer
        ("Design Rule", "guess", "rule:level_structure"),  # the SRD has three "Design Rule"s
        ("armor", "exact", "active_buff:armor"),  # namesakes: see also Reaction/Passive: Armor
    ],
)
def test_match_says_how_sure_it_is(lookup: Lookup, query: str, how: str, expected: str) -> None:
    """A look-up answers without saying whether it matched for sure or guessed."""
    found = lookup.match(query)
    assert (found.how, entry_id(found.entry)) == (how, expected)
    assert found.guessed is (how == "guess")


def test_a_guess_offers_its_alternatives(lookup: Lookup) -> None:
    """An ambiguous prefix shows one entry without offering the others it passed over."""
    found = lookup.match("tele")
    offered = {entry_id(e) for e in found.alternatives}
    assert {"movement:teleport_with_ally", "passive:telepathy"} <= offered
    assert entry_id(found.entry) not in offered
    assert len(found.alternatives) == len(offered) <= 24


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("Glide", "Movement: Glide"),  # §9.4 / Movement Catalogue — Approved Core Entries
        ("Movement: Glide", "Movement: Glide"),
        ("Damage + Critical", "Damage + Critical"),  # §9.1
        ("Ally Reposition", "Ally Reposition"),  # §9.2
        ("Passive: Attack", "Attack"),  # §9.3 Removed Generic Categories
        ("Awareness Passive", "Awareness Passive"),  # Combat Senses
        ("Frightened", "Frightened"),  # §10.23
        ("Power Lock", "Silence"),
        ("Pounce", "Pounce"),  # §11.14 / §11.15
        ("Saving Throw", "Saving Throw"),  # §11.15
    ],
)
def test_an_excluded_name_says_the_srd_excludes_it(lookup: Lookup, query: str, name: str) -> None:
    """A name the SRD keeps out of the catalogue is answered with some other entry."""
    found = lookup.match(query)
    assert found.how == "excluded" and found.entry is None
    assert found.exclusion is not None and found.exclusion.name == name
    with pytest.raises(NotFound, match=r"^The SRD excludes "):
        lookup.find(query)


@pytest.mark.parametrize("listing", load_catalogue().entries.lists, ids=lambda li: li.kind)
def test_every_forbidden_entry_of_a_list_is_excluded(lookup: Lookup, listing: object) -> None:
    """A §9 list's 'not part of the catalogue' name finds an entry instead of its exclusion."""
    label = KIND_LABELS[listing.kind]
    for name in listing.forbidden:
        plain = name.removeprefix(f"{label}: ")
        assert lookup.match(f"{label} {plain}").how == "excluded", name


@pytest.mark.parametrize(
    ("query", "not_this"),
    [
        ("Immobilized", "special:root"),
        ("Klettern", "movement:wall_walk"),
        ("Bleed", "special:lacerate"),
    ],
)
def test_aliases_the_srd_treats_as_other_things_are_gone(
    lookup: Lookup, query: str, not_this: str
) -> None:
    """Immobilized still finds Root, or Climbing Wall Walk, though the SRD tells them apart."""
    try:
        found = lookup.match(query)
    except NotFound:
        return
    assert found.how == "guess" or entry_id(found.entry) != not_this


def test_climbing_is_a_summon_movement_mode(lookup: Lookup) -> None:
    """Climbing (a Summon's Movement Mode, §11.14) is taken for Movement: Wall Walk."""
    for mode in ("Climbing", "Flying", "Swimming", "Walking"):
        assert entry_id(lookup.find(mode)) == "rule:summon_movement_mode"


def _heading_texts() -> list[str]:
    """Every heading of the SRD, as written after its #s (inline ##### headings included)."""
    text = SrdText.load().text
    found = [m.group(1) for m in re.finditer(r"^#{1,6} (.+)$", text, flags=re.MULTILINE)]
    found += [m.group(1) for m in re.finditer(r"(?<=[^\n#]) #{2,6} ([^\n]+)", text)]
    return [heading.replace("*", "").strip() for heading in found]


def test_every_srd_heading_is_in_headings_json() -> None:
    """An SRD heading has no entry in data/headings.json, so nothing shows its section."""
    titles = sorted((h.title for h in HEADINGS), key=len, reverse=True)
    excluded = [e.name for e in load_catalogue().entries.exclusions]
    missing = [
        text[:60]
        for text in _heading_texts()
        if not any(text.startswith(title) for title in [*titles, *excluded])
    ]
    assert missing == []


@pytest.mark.parametrize("heading", HEADINGS, ids=lambda h: h.title[:40])
def test_every_heading_finds_its_section_or_says_it_guessed(
    lookup: Lookup, heading: object
) -> None:
    """An SRD heading typed as a name shows another section without saying it guessed."""
    found = lookup.match(heading.title)
    assert found.entry is not None
    shown = [entry_id(found.entry), *(entry_id(e) for e in found.alternatives)]
    if found.guessed:
        assert set(heading.entries) <= set(shown)
    else:
        assert entry_id(found.entry) in heading.entries or (
            found.how in ("exact", "alias") and normalise(heading.title) in _names(found.entry)
        )


def _names(entry: object) -> set[str]:
    return {normalise(n) for n in (display_name(entry), entry.name, *entry.aliases)}


def test_a_heading_naming_an_unknown_entry_stops_start_up(catalogue: object) -> None:
    """data/headings.json may point at an entry that does not exist."""
    bad = catalogue.headings.model_copy(
        update={"headings": (Heading(title="Nowhere", entries=("rule:nowhere",)),)}
    )
    with pytest.raises(CatalogueError, match="'Nowhere' names unknown entry 'rule:nowhere'"):
        Lookup(catalogue.model_copy(update={"headings": bad}))


@given(st.sampled_from([None, "special", "power"]), st.text(min_size=1, max_size=8))
def test_the_one_scan_finds_what_a_find_per_text_finds(kind: str | None, typed: str) -> None:
    """The substring search over all texts at once missed a text, or placed a match wrong."""
    index = LOOKUP._index(None if kind is None else frozenset({kind}))
    text = normalise(typed)  # what suggest searches for: never a line break
    assume(text)
    expected = [(row, key.find(text)) for row, key in enumerate(index.texts) if text in key]
    assert index.containing(text) == expected


def test_the_one_scan_finds_parts_of_the_texts_themselves() -> None:
    """A piece of a text, a text's end or its last text, was not found where it is."""
    index = LOOKUP._index(None)
    for row in (0, 1, len(index.texts) // 2, len(index.texts) - 1):
        key = index.texts[row]
        for piece in (key, key[:2], key[-2:], key[1:-1] or key):
            found = dict(index.containing(piece))
            assert found[row] == key.find(piece)


# The fuzzy sieve: skipping texts WRatio could not score changes no answer ------------

CUTOFFS = (HINT_CUTOFF, SUGGEST_CUTOFF, ALTERNATIVE_CUTOFF, FIND_CUTOFF)
_word = st.text(alphabet="abcdeilnorst", min_size=1, max_size=9)
_phrase = st.lists(_word, min_size=1, max_size=4).map(" ".join)


def _shared(a: str, b: str) -> int:
    ours, theirs = Counter(a), Counter(b)
    return sum(min(count, theirs[letter]) for letter, count in ours.items())


@given(query=_phrase, text=_phrase)
def test_the_sieve_bound_is_never_below_wratio(query: str, text: str) -> None:
    """The letters two texts share bound WRatio, unless a word is shared or repeated."""
    words, others = query.split(), text.split()
    assume(len(set(words)) == len(words) and len(set(others)) == len(others))
    assume(not set(words) & set(others))
    bound = _wratio_bound(len(query), len(text), _shared(query, text))
    assert fuzz.WRatio(query, text) <= bound + 1e-6


def _unsieved(lookup: Lookup, text: str, cutoff: float) -> list[tuple[str, float, int]]:
    index = lookup._index(None)
    return process.extract(
        text, index.fuzzy_texts, scorer=fuzz.WRatio, limit=FUZZY_POOL, score_cutoff=cutoff
    )


def _sieved(lookup: Lookup, text: str, cutoff: float) -> list[tuple[str, float, int]]:
    index = lookup._index(None)
    positions = index.sieve.candidates(text, cutoff)
    texts = index.fuzzy_texts if positions is None else [index.fuzzy_texts[p] for p in positions]
    hits = process.extract(text, texts, scorer=fuzz.WRatio, limit=FUZZY_POOL, score_cutoff=cutoff)
    return [(t, s, at if positions is None else positions[at]) for t, s, at in hits]


SIEVE_QUERIES = [
    *("tel", "telep", "teleprot", "lacerat", "verfall", "prazision", "ruinn", "wallwalk"),
    *("fire bolt", "bolt fire", "aoe aoe", "heal over time", "zzq", "a b c", "x x x x"),
    *("damage reduktion", "shield of the", "stun stunned", "regeneratoin", "qwertyuiop"),
    "teleport with an ally and then some more words to make it long " * 2,
]


@pytest.mark.parametrize("query", SIEVE_QUERIES)
@pytest.mark.parametrize("cutoff", CUTOFFS)
def test_the_sieve_keeps_every_fuzzy_hit_in_order(
    lookup: Lookup, query: str, cutoff: float
) -> None:
    text = normalise(query)
    assert _sieved(lookup, text, cutoff) == _unsieved(lookup, text, cutoff)


@given(st.sampled_from(LOOKUP._index(None).fuzzy_texts), st.data())
def test_the_sieve_keeps_every_hit_for_cut_and_mistyped_names(
    key: str, data: st.DataObject
) -> None:
    """Prefixes, a dropped letter or two swapped: what players type, scored as before."""
    cut = data.draw(st.integers(3, max(3, len(key))))
    typed = list(key[:cut])
    if len(typed) > 3 and data.draw(st.booleans()):
        at = data.draw(st.integers(0, len(typed) - 2))
        typed[at], typed[at + 1] = typed[at + 1], typed[at]
    text = normalise("".join(typed))
    assume(len(text) >= 3)
    cutoff = data.draw(st.sampled_from(CUTOFFS))
    assert _sieved(LOOKUP, text, cutoff) == _unsieved(LOOKUP, text, cutoff)
