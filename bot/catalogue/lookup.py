"""Find catalogue entries by name, and say honestly how sure the answer is.

`Lookup.match` tries, in order: an entry id, an exact name, an alias, an SRD
heading (data/headings.json), a name the SRD excludes, an unambiguous prefix,
and only then a guess — an ambiguous prefix or heading, or a fuzzy (rapidfuzz)
match — which comes with the alternatives it passed over. Names are compared
case-, accent- and punctuation-blind. The index is built once from the catalogue.
"""

import functools
import itertools
import re
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field
from rapidfuzz import fuzz, process

from bot.catalogue.models import Catalogue, CatalogueError, Exclusion
from bot.catalogue.names import normalise, spellings
from bot.catalogue.shapes import KIND_LABELS
from bot.catalogue.views import Entry, all_entries, display_name, entry_id
from bot.errors import BadInput, NotFound
from bot.i18n import L_, N_, Lazy, _

# Ties between entries of the same name go to the earlier kind ("armor" → Active Buff: Armor).
KIND_ORDER = (
    "special",
    "movement",
    "active_buff",
    "reaction",
    "passive",
    "active",
    "power_type",
    "rule",
    "table",
    "example",
)
# What an empty autocomplete shows first.
BROWSE_ORDER = (
    "movement",
    "active_buff",
    "reaction",
    "passive",
    "active",
    "special",
    "power_type",
    "rule",
    "table",
    "example",
)
FIND_CUTOFF = 80.0  # a fuzzy match this good is offered as a guess
SUGGEST_CUTOFF = 65.0  # autocomplete shows fuzzy matches from here
HINT_CUTOFF = 55.0  # "did you mean" names matches from here
ALTERNATIVE_CUTOFF = 70.0  # a guess offers the other fuzzy matches from here
FUZZY_MIN_LENGTH = 3  # shorter queries only match by prefix or substring
FUZZY_POOL = 40  # candidates rapidfuzz hands to the re-ranking
MAX_CHOICES = 25  # Discord's autocomplete (and select option) limit
MAX_CHOICE_LENGTH = 100  # Discord's limit for a choice's name and value
MAX_ALTERNATIVES = 24  # a guess offers at most this many others
_SECTION_NUMBER = re.compile(r"^(\d+(?:\.\d+)*)[.)]?\s+(?=\D)")

Kinds = str | Collection[str] | None
_Ranks = tuple[int, int, int, tuple[int, int, str], int]  # how well a key holds the typed text
KeyKind = Literal["name", "alias", "heading"]
How = Literal["id", "exact", "alias", "heading", "prefix", "guess", "excluded"]


class Choice(BaseModel):
    """An autocomplete choice: what the user sees and the entry id sent back."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1, max_length=MAX_CHOICE_LENGTH)
    value: str = Field(min_length=1, max_length=MAX_CHOICE_LENGTH)


@dataclass(frozen=True)
class Match:
    """What a query named: an entry found for sure, a guess with alternatives, or an exclusion."""

    query: str
    how: How
    entry: Entry | None = None
    alternatives: tuple[Entry, ...] = ()
    exclusion: Exclusion | None = None

    @property
    def guessed(self) -> bool:
        """Say whether the entry is a guess the user should confirm."""
        return self.how == "guess"


@dataclass(frozen=True)
class _Index:
    texts: tuple[str, ...]
    owners: tuple[int, ...]
    exact: dict[KeyKind, dict[str, tuple[int, ...]]]
    browse: tuple[int, ...]
    sorted_texts: tuple[str, ...]  # for prefix search by bisection
    sorted_owners: tuple[int, ...]
    fuzzy_texts: tuple[str, ...]  # names and aliases: headings are matched exactly or by prefix
    fuzzy_owners: tuple[int, ...]
    # Every text, each followed by a line break, in one string: a substring search is then
    # one C-level scan instead of a `find` per text (1,412 texts, ~0.35 ms a query in Python).
    haystack: str = ""
    starts: tuple[int, ...] = ()  # where each text begins in the haystack

    def containing(self, text: str) -> list[tuple[int, int]]:
        """Return (position in `texts`, first offset) of every text containing `text`, in order.

        The same as `key.find(text)` for each key: a normalised text never holds a line break,
        so no match spans two texts.
        """
        found = []
        at = self.haystack.find(text)
        while at >= 0:
            row = bisect_right(self.starts, at) - 1
            found.append((row, at - self.starts[row]))
            if row + 1 >= len(self.starts):
                break
            at = self.haystack.find(text, self.starts[row + 1])
        return found

    @functools.cached_property
    def sieve(self) -> "_Sieve":
        """Return the fuzzy texts' sieve, built on the first fuzzy look-up."""
        return _Sieve.of(self.fuzzy_texts)

    def prefixed(self, text: str) -> list[tuple[str, int]]:
        """Return the (key, owner) pairs whose key starts with the text."""
        start = bisect_left(self.sorted_texts, text)
        found = []
        for at in range(start, len(self.sorted_texts)):
            key = self.sorted_texts[at]
            if not key.startswith(text):
                break
            found.append((key, self.sorted_owners[at]))
        return found


@dataclass(frozen=True)
class _Sieve:
    """Which fuzzy texts could score a cutoff under WRatio, from their letters alone.

    WRatio (`rapidfuzz.fuzz.WRatio`, about 3 µs a text) is the most of an autocomplete's
    work. Every score it combines compares the query, or a part or a reordering of it, with
    a part or a reordering of the text, as 200·LCS/(a + b); a common subsequence is at most
    the letters the two share, counted with repeats (M). So with n = len(query) and
    L = len(text), when neither shares a whole word with the other:
    ratio and token sort ≤ 200·M/(n + L); token set ≤ 200·M/(n + M); the partial ratios
    ≤ 200·M/(min(n, L) + M); WRatio scales these as it combines them (0.95, 0.9, 0.6).
    A text whose bound misses the cutoff cannot score it: skipping it changes nothing.
    A text sharing a word with the query, one repeating a word, and every text for a query
    repeating a word (token set and partial token ratios dedupe words) are always scored.
    """

    lengths: dict[int, int]  # text length → the texts of that length (bits by position)
    letters: dict[tuple[str, int], int]  # (letter, k) → the texts holding it k times or more
    words: dict[str, int]  # word → the texts with that word
    always: int  # texts that repeat a word
    everything: int
    size: int

    @classmethod
    def of(cls, texts: Sequence[str]) -> Self:
        lengths: dict[int, list[int]] = {}
        letters: dict[tuple[str, int], list[int]] = {}
        words: dict[str, list[int]] = {}
        always = []
        for at, text in enumerate(texts):
            lengths.setdefault(len(text), []).append(at)
            for letter, count in Counter(text).items():
                for k in range(1, count + 1):
                    letters.setdefault((letter, k), []).append(at)
            split = text.split()
            if len(set(split)) < len(split):
                always.append(at)
            for word in split:
                words.setdefault(word, []).append(at)
        size = len(texts)
        return cls(
            {length: _mask(held, size) for length, held in lengths.items()},
            {key: _mask(held, size) for key, held in letters.items()},
            {word: _mask(held, size) for word, held in words.items()},
            _mask(always, size),
            (1 << size) - 1,
            size,
        )

    def candidates(self, text: str, cutoff: float) -> list[int] | None:
        """Return the positions of the texts that could score the cutoff (None: all of them)."""
        split = text.split()
        n = len(text)
        if not split or len(set(split)) < len(split) or n > MAX_SIEVED_LENGTH:
            return None
        needs: dict[int, int] = {}  # shared letters needed → texts of the lengths needing them
        for length, texts in self.lengths.items():
            need = _letters_needed(n, length, cutoff)
            if need is not None:
                needs[need] = needs.get(need, 0) | texts
        found = self.always
        for word in split:
            found |= self.words.get(word, 0)
        if needs:
            seen: Counter[str] = Counter()
            held = [self.everything] + [0] * max(needs)  # held[k]: texts sharing ≥ k letters
            for letter in text:
                seen[letter] += 1
                has = self.letters.get((letter, seen[letter]), 0)
                if has:
                    for k in range(len(held) - 1, 0, -1):
                        held[k] |= held[k - 1] & has
            for need, texts in needs.items():
                found |= held[need] & texts
        if found == self.everything:
            return None
        bits = bin(found)[:1:-1].encode().translate(_BITS)  # one byte per text: 0 or 1
        return list(itertools.compress(range(self.size), bits))


MAX_SIEVED_LENGTH = 64  # a longer query is scored against every text


def _mask(positions: list[int], size: int) -> int:
    """Return the positions as the bits of one int (bit i: position i)."""
    if len(positions) < 16:  # few: set them one by one
        return sum(1 << at for at in positions)
    bits = bytearray(b"0" * size)
    for at in positions:
        bits[at] = 49  # "1"
    return int(bits[::-1], 2)


_BITS = bytes.maketrans(b"01", b"\x00\x01")


@functools.lru_cache(maxsize=8192)
def _letters_needed(n: int, length: int, cutoff: float) -> int | None:
    """Return the fewest shared letters with which WRatio could reach the cutoff (None: never)."""
    for shared in range(min(n, length) + 1):
        if _wratio_bound(n, length, shared) >= cutoff - 1e-6:
            return shared
    return None


def _wratio_bound(n: int, length: int, shared: int) -> float:
    """Return the most WRatio can score for texts of these lengths sharing `shared` letters."""
    if shared == 0:
        return 0.0
    whole = 200 * shared / (n + length)
    longer, shorter = max(n, length), min(n, length)
    if longer / shorter < 1.5:
        return max(whole, 0.95 * 200 * shared / (n + shared))
    scale = 0.9 if longer / shorter <= 8.0 else 0.6
    return max(whole, scale * 200 * shared / (shorter + shared))


@dataclass
class _Keys:
    rows: list[tuple[str, int, KeyKind]] = field(default_factory=list)

    def add(self, texts: Iterable[str], owner: int, kind: KeyKind) -> None:
        self.rows += [(text, owner, kind) for text in sorted(set(texts)) if text]


def heading_keys(title: str) -> set[str]:
    """Return a heading's look-up keys: its title, without its number, and a dotted number."""
    keys = spellings(title)
    numbered = _SECTION_NUMBER.match(title.strip())
    if numbered:
        keys |= spellings(title.strip()[numbered.end() :])
        if "." in numbered.group(1).strip("."):
            keys.add(normalise(numbered.group(1)))
    return keys


class Lookup:
    """The catalogue's name index: built once at start-up, then read-only."""

    def __init__(self, catalogue: Catalogue) -> None:
        self._entries: tuple[Entry, ...] = all_entries(catalogue)
        self._ids = {entry_id(entry): i for i, entry in enumerate(self._entries)}
        self._names = tuple(display_name(entry)[:MAX_CHOICE_LENGTH] for entry in self._entries)
        self._kinds = tuple(entry.kind for entry in self._entries)
        self._rank = tuple(
            (KIND_ORDER.index(entry.kind), len(self._names[i]), self._names[i])
            for i, entry in enumerate(self._entries)
        )
        self._base: dict[str, list[int]] = {}
        keys = _Keys()
        for i, entry in enumerate(self._entries):
            names = (
                spellings(display_name(entry))
                | spellings(entry.name)
                | spellings(entry.key.replace("_", " "))
            )
            aliases = set().union(*(spellings(alias) for alias in entry.aliases)) - names
            keys.add(names, i, "name")
            keys.add(aliases, i, "alias")
            self._base.setdefault(normalise(entry.name), []).append(i)
        for heading in catalogue.headings.headings:
            for ident in heading.entries:
                if ident not in self._ids:
                    raise CatalogueError(
                        "data/headings.json: {title!r} names unknown entry {ident!r}",
                        title=heading.title,
                        ident=ident,
                    )
                keys.add(heading_keys(heading.title), self._ids[ident], "heading")
        # A heading that is also a name or alias of the same entry adds nothing to search.
        named = {(text, owner) for text, owner, kind in keys.rows if kind != "heading"}
        self._keys = tuple(
            row for row in keys.rows if row[2] != "heading" or (row[0], row[1]) not in named
        )
        self._exclusions = exclusions(catalogue)
        self._indexes: dict[frozenset[str] | None, _Index] = {}
        self._choices: dict[int, Choice] = {}
        _ = self._index(None).sieve  # built at start-up, not in a user's first autocomplete

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def entries(self) -> tuple[Entry, ...]:
        """Return every entry the index knows."""
        return self._entries

    def get(self, entry_id_: str) -> Entry | None:
        """Return the entry with this id ('movement:teleport'), if any."""
        index = self._ids.get(entry_id_)
        return None if index is None else self._entries[index]

    def name_of(self, entry: Entry) -> str:
        """Return an entry's display name, as autocomplete shows it."""
        return self._names[self._ids[entry_id(entry)]]

    def find(self, query: str, kind: Kinds = None) -> Entry:
        """Return the entry a query names (a guess included), or raise NotFound."""
        found = self.match(query, kind)
        if found.entry is None:
            raise NotFound(excluded_message(found))
        return found.entry

    def match(self, query: str, kind: Kinds = None) -> Match:
        """Say what a query names: for sure, as a guess with alternatives, or as excluded."""
        raw = query.strip()
        if not raw:
            raise BadInput("Type a name to look up.")
        kinds = _kinds(kind)
        index = self._index(kinds)
        by_id = self._ids.get(raw)
        if by_id is not None and (kinds is None or self._kinds[by_id] in kinds):
            return Match(raw, "id", self._entries[by_id])
        text = normalise(raw)
        for key_kind, how in (("name", "exact"), ("alias", "alias"), ("heading", "heading")):
            owners = index.exact[key_kind].get(text)
            if owners:
                return self._answer(raw, how, list(owners), ordered=key_kind == "heading")
        if text in self._exclusions:
            return Match(raw, "excluded", exclusion=self._exclusions[text])
        if text:
            prefixed = sorted(
                (len(key), self._rank[owner], owner) for key, owner in index.prefixed(text)
            )
            if prefixed:
                owners = list(dict.fromkeys(owner for *_, owner in prefixed))
                return self._answer(raw, "prefix", owners, ordered=True)
            fuzzy = self._fuzzy(text, index, FIND_CUTOFF)
            if fuzzy:
                return self._guess(raw, [*fuzzy, *self._fuzzy(text, index, ALTERNATIVE_CUTOFF)])
        raise NotFound(self._not_found(raw, text, index, special=kinds == {"special"}))

    def suggest(self, query: str, kind: Kinds = None, limit: int = MAX_CHOICES) -> list[Choice]:
        """Return up to 25 autocomplete choices: prefix matches, then substrings, then fuzzy."""
        limit = max(1, min(limit, MAX_CHOICES))
        index = self._index(_kinds(kind))
        text = normalise(query)
        if not text:
            return [self._choice(owner) for owner in index.browse[:limit]]
        chosen: dict[int, None] = {}
        for *_ranks, owner in self._by_position(text, index, limit):
            chosen.setdefault(owner)
            if len(chosen) >= limit:
                break
        if len(chosen) < limit:
            for owner in self._fuzzy(text, index, SUGGEST_CUTOFF):
                chosen.setdefault(owner)
                if len(chosen) >= limit:
                    break
        return [self._choice(owner) for owner in chosen]

    def _by_position(self, text: str, index: _Index, limit: int) -> list[_Ranks]:
        """Rank the keys containing the text: starting with it, then at a word, then inside."""
        starting = index.prefixed(text)
        if len({owner for _, owner in starting}) >= limit:
            # The choices all start with the text: the keys merely containing it rank
            # after them, so they need not be found (a letter is in hundreds of keys).
            return sorted((0, len(key), 0, self._rank[owner], owner) for key, owner in starting)
        ranked: list[_Ranks] = []
        for row, position in index.containing(text):
            key, owner = index.texts[row], index.owners[row]
            if position == 0:
                ranked.append((0, len(key), 0, self._rank[owner], owner))
            else:
                word_start = key[position - 1] == " "
                ranked.append(
                    (1 if word_start else 2, position, len(key), self._rank[owner], owner)
                )
        ranked.sort()
        return ranked

    def see_also(self, entry: Entry) -> tuple[str, ...]:
        """Return the names of other entries with the same name ('Reaction: Armor'…)."""
        same = self._base.get(normalise(entry.name), [])
        own = self._ids.get(entry_id(entry))
        return tuple(self._names[i] for i in same if i != own)

    def _answer(
        self,
        raw: str,
        how: How,
        owners: list[int],
        *,
        ordered: bool = False,
    ) -> Match:
        """Answer with the best owner; owners that are not all namesakes make it a guess."""
        if not ordered:
            owners = sorted(owners, key=self._rank.__getitem__)
        best = owners[0]
        bases = {normalise(self._entries[owner].name) for owner in owners}
        if len(bases) == 1:
            return Match(raw, how, self._entries[best])
        return self._guess(raw, owners)

    def _guess(self, raw: str, owners: list[int]) -> Match:
        distinct = list(dict.fromkeys(owners))
        others = tuple(self._entries[i] for i in distinct[1 : MAX_ALTERNATIVES + 1])
        return Match(raw, "guess", self._entries[distinct[0]], others)

    def _fuzzy(
        self, text: str, index: _Index, cutoff: float, *, penalise: bool = True
    ) -> list[int]:
        """Return entries by fuzzy score (best first), distinct, at or above the cutoff."""
        # WRatio ties often (token matches); the closer plain ratio, then the kind, decides.
        if len(text) < FUZZY_MIN_LENGTH:
            return []
        # Only texts that could score the cutoff, in their order: the same hits, ties alike.
        positions = index.sieve.candidates(text, cutoff)
        texts = (
            index.fuzzy_texts if positions is None else [index.fuzzy_texts[at] for at in positions]
        )
        hits = process.extract(
            text, texts, scorer=fuzz.WRatio, limit=FUZZY_POOL, score_cutoff=cutoff
        )
        ranked = []
        for choice, score, at in hits:
            adjusted = _shorter_penalty(text, choice, score) if penalise else score
            if adjusted >= cutoff:
                owner = index.fuzzy_owners[at if positions is None else positions[at]]
                ranked.append((-adjusted, -fuzz.ratio(text, choice), self._rank[owner], owner))
        ranked.sort()
        return list(dict.fromkeys(owner for *_, owner in ranked))

    def _choice(self, owner: int) -> Choice:
        choice = self._choices.get(owner)
        if choice is None:  # frozen: one per entry, shared by every answer
            entry = self._entries[owner]
            choice = Choice(name=self._names[owner], value=entry_id(entry)[:MAX_CHOICE_LENGTH])
            self._choices[owner] = choice
        return choice

    def _index(self, kinds: frozenset[str] | None) -> _Index:
        cached = self._indexes.get(kinds)
        if cached is not None:
            return cached
        rows = [row for row in self._keys if kinds is None or self._kinds[row[1]] in kinds]
        exact: dict[KeyKind, dict[str, list[int]]] = {"name": {}, "alias": {}, "heading": {}}
        for text, owner, key_kind in rows:
            owners = exact[key_kind].setdefault(text, [])
            if owner not in owners:
                owners.append(owner)
        browse = sorted(
            {owner for _, owner, _ in rows},
            key=lambda i: (BROWSE_ORDER.index(self._kinds[i]), self._names[i].casefold()),
        )
        ordered = sorted((text, owner) for text, owner, _ in rows)
        starts = list(itertools.accumulate((len(row[0]) + 1 for row in rows[:-1]), initial=0))
        index = _Index(
            texts=tuple(row[0] for row in rows),
            owners=tuple(row[1] for row in rows),
            exact={k: {t: tuple(o) for t, o in v.items()} for k, v in exact.items()},
            browse=tuple(browse),
            sorted_texts=tuple(text for text, _ in ordered),
            sorted_owners=tuple(owner for _, owner in ordered),
            fuzzy_texts=tuple(row[0] for row in rows if row[2] != "heading"),
            fuzzy_owners=tuple(row[1] for row in rows if row[2] != "heading"),
            haystack="".join(f"{row[0]}\n" for row in rows),
            starts=tuple(starts) if rows else (),
        )
        self._indexes[kinds] = index
        return index

    def _not_found(self, raw: str, text: str, index: _Index, *, special: bool) -> Lazy:
        """Say nothing is named so (a Special, when only Specials were asked for), with hints."""
        shown = _shown(raw)
        hints = self._fuzzy(text, index, HINT_CUTOFF, penalise=False)[:3]
        names = [self._names[owner] for owner in hints]
        if not names:
            if special:
                return L_("No Special named '{query}'.", query=shown)
            return L_("No entry named '{query}'.", query=shown)
        return _DidYouMean(shown, tuple(names), special=special)


def exclusions(catalogue: Catalogue) -> dict[str, Exclusion]:
    """Index every name the SRD keeps out: the §9 lists' exclusions and catalogue.json's own."""
    found: dict[str, list[Exclusion]] = {}
    for listing in catalogue.entries.lists:
        label = KIND_LABELS[listing.kind]
        for name in listing.forbidden:
            exclusion = Exclusion(
                name=name,
                reason=f"Not part of the {listing.name}: the SRD keeps it out of the core catalogue.",
                section=f"{listing.section} Canonical Catalogue Governance",
            )
            plain = name.removeprefix(f"{label}: ")
            for key in spellings(name) | spellings(plain) | spellings(f"{label} {plain}"):
                found.setdefault(key, []).append(exclusion)
    for exclusion in catalogue.entries.exclusions:
        for name in (exclusion.name, *exclusion.aliases):
            for key in spellings(name):
                found.setdefault(key, []).append(exclusion)
    return {key: _merged(key, listed) for key, listed in found.items()}


def _merged(key: str, listed: list[Exclusion]) -> Exclusion:
    if len(listed) == 1:
        return listed[0]
    lists = [e.reason.split(":")[0].removeprefix("Not part of the ") for e in listed]
    return Exclusion(
        name=listed[0].name,
        reason=f"Not part of the {', '.join(lists[:-1])} or {lists[-1]}: the SRD keeps it out "
        "of the core catalogue.",
        section="; ".join(dict.fromkeys(e.section for e in listed)),
    )


class _DidYouMean(Lazy):
    """ "No entry named 'x'; did you mean A, B or C?", its list joined in the reader's words."""

    __slots__ = ()

    def __init__(self, query: str, names: tuple[str, ...], *, special: bool = False) -> None:
        message = (
            N_("No Special named '{query}'; did you mean {names}?")
            if special
            else N_("No entry named '{query}'; did you mean {names}?")
        )
        super().__init__(message, {"query": query})
        self.fields["names"] = names

    def __str__(self) -> str:
        names = self.fields["names"]
        listed = (
            names[0]
            if len(names) == 1
            else _("{first} or {last}", first=", ".join(names[:-1]), last=names[-1])
        )
        return _(self.message, query=self.fields["query"], names=listed)


def excluded_message(found: Match) -> Lazy:
    """Say in one line that the SRD (or Tablehand) leaves an excluded name out, and why.

    The reason is the SRD's (English) text; the sentence around it is the reader's.
    """
    exclusion = found.exclusion
    if exclusion is None:
        return L_("No entry named '{query}'.", query=_shown(found.query))
    fields = {"name": exclusion.name, "reason": exclusion.reason, "section": exclusion.section}
    if exclusion.by == "srd":
        return L_("The SRD excludes {name}. {reason} (SRD: {section})", **fields)
    return L_("The catalogue leaves out {name}. {reason} (SRD: {section})", **fields)


def _shown(raw: str) -> str:
    return raw if len(raw) <= 50 else raw[:49] + "…"


def _kinds(kind: Kinds) -> frozenset[str] | None:
    if kind is None:
        return None
    if isinstance(kind, str):
        return frozenset({kind})
    return frozenset(kind)


def _shorter_penalty(text: str, choice: str, score: float) -> float:
    """Lower the score of a key much shorter than the query ("aoe" inside "instant aoe")."""
    # WRatio scores a short key inside a long query as a near-perfect partial match;
    # a name covering most of the query should win instead.
    ratio = len(choice) / len(text)
    return score if ratio >= 0.7 else score * ratio / 0.7
