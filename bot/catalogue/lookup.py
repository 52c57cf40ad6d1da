"""Find catalogue entries by name: exact, alias, prefix, then fuzzy (rapidfuzz).

Names are compared case-, accent- and punctuation-blind ("präzision", "PRAZISION"
and "Präzision" are one key). The index is built once from the catalogue, so a
look-up or an autocomplete is a handful of string comparisons and one rapidfuzz
pass over pre-normalised keys.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field
from rapidfuzz import fuzz, process

from bot.catalogue.models import Catalogue
from bot.catalogue.names import normalise, spellings
from bot.catalogue.views import Entry, all_entries, display_name, entry_id
from bot.errors import BadInput, NotFound

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
)
FIND_CUTOFF = 80.0  # a fuzzy match this good is taken as the answer
SUGGEST_CUTOFF = 65.0  # autocomplete shows fuzzy matches from here
HINT_CUTOFF = 55.0  # "did you mean" names matches from here
FUZZY_MIN_LENGTH = 3  # shorter queries only match by prefix or substring
FUZZY_POOL = 40  # candidates rapidfuzz hands to the re-ranking
MAX_CHOICES = 25  # Discord's autocomplete limit
MAX_CHOICE_LENGTH = 100  # Discord's limit for a choice's name and value

Kinds = str | Collection[str] | None


class Choice(BaseModel):
    """An autocomplete choice: what the user sees and the entry id sent back."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1, max_length=MAX_CHOICE_LENGTH)
    value: str = Field(min_length=1, max_length=MAX_CHOICE_LENGTH)


@dataclass(frozen=True)
class _Index:
    texts: tuple[str, ...]
    owners: tuple[int, ...]
    aliases: tuple[bool, ...]
    browse: tuple[int, ...]


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
        keys: list[tuple[str, int, bool]] = []
        self._base: dict[str, list[int]] = {}
        for i, entry in enumerate(self._entries):
            names = (
                spellings(display_name(entry))
                | spellings(entry.name)
                | spellings(entry.key.replace("_", " "))
            )
            aliases = set().union(*(spellings(alias) for alias in entry.aliases)) - names
            keys += [(text, i, False) for text in sorted(names)]
            keys += [(text, i, True) for text in sorted(aliases)]
            self._base.setdefault(normalise(entry.name), []).append(i)
        self._keys = tuple(keys)
        self._indexes: dict[frozenset[str] | None, _Index] = {}
        self._index(None)

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

    def find(self, query: str, kind: Kinds = None) -> Entry:
        """Return the entry a query names: id, exact name, alias, prefix, then fuzzy."""
        raw = query.strip()
        if not raw:
            raise BadInput("Type a name to look up.")
        kinds = _kinds(kind)
        index = self._index(kinds)
        by_id = self._ids.get(raw)
        if by_id is not None and (kinds is None or self._kinds[by_id] in kinds):
            return self._entries[by_id]
        text = normalise(raw)
        for want_alias in (False, True):
            exact = [
                owner
                for key, owner, alias in zip(index.texts, index.owners, index.aliases, strict=True)
                if key == text and alias == want_alias
            ]
            if exact:
                return self._entries[min(exact, key=self._rank.__getitem__)]
        if text:
            prefixed = [
                (len(key), self._rank[owner], owner)
                for key, owner in zip(index.texts, index.owners, strict=True)
                if key.startswith(text)
            ]
            if prefixed:
                return self._entries[min(prefixed)[2]]
            fuzzy = self._fuzzy(text, index, FIND_CUTOFF)
            if fuzzy:
                return self._entries[fuzzy[0]]
        raise NotFound(self._not_found(raw, text, index))

    def suggest(self, query: str, kind: Kinds = None, limit: int = MAX_CHOICES) -> list[Choice]:
        """Return up to 25 autocomplete choices: prefix matches, then substrings, then fuzzy."""
        limit = max(1, min(limit, MAX_CHOICES))
        index = self._index(_kinds(kind))
        text = normalise(query)
        if not text:
            return [self._choice(owner) for owner in index.browse[:limit]]
        ranked: list[tuple[int, int, int, tuple[int, int, str], int]] = []
        for key, owner in zip(index.texts, index.owners, strict=True):
            position = key.find(text)
            if position == 0:
                ranked.append((0, len(key), 0, self._rank[owner], owner))
            elif position > 0:
                word_start = key[position - 1] == " "
                ranked.append(
                    (1 if word_start else 2, position, len(key), self._rank[owner], owner)
                )
        ranked.sort()
        chosen: dict[int, None] = {}
        for *_, owner in ranked:
            chosen.setdefault(owner)
            if len(chosen) >= limit:
                break
        if len(chosen) < limit:
            for owner in self._fuzzy(text, index, SUGGEST_CUTOFF):
                chosen.setdefault(owner)
                if len(chosen) >= limit:
                    break
        return [self._choice(owner) for owner in chosen]

    def see_also(self, entry: Entry) -> tuple[str, ...]:
        """Return the names of other entries with the same name ('Reaction: Armor'…)."""
        same = self._base.get(normalise(entry.name), [])
        own = self._ids.get(entry_id(entry))
        return tuple(self._names[i] for i in same if i != own)

    def _fuzzy(
        self, text: str, index: _Index, cutoff: float, *, penalise: bool = True
    ) -> list[int]:
        """Return entries by fuzzy score (best first), distinct, at or above the cutoff."""
        # WRatio ties often (token matches); the closer plain ratio, then the kind, decides.
        if len(text) < FUZZY_MIN_LENGTH:
            return []
        hits = process.extract(
            text, index.texts, scorer=fuzz.WRatio, limit=FUZZY_POOL, score_cutoff=cutoff
        )
        ranked = []
        for choice, score, position in hits:
            adjusted = _shorter_penalty(text, choice, score) if penalise else score
            if adjusted >= cutoff:
                owner = index.owners[position]
                ranked.append((-adjusted, -fuzz.ratio(text, choice), self._rank[owner], owner))
        ranked.sort()
        return list(dict.fromkeys(owner for *_, owner in ranked))

    def _choice(self, owner: int) -> Choice:
        entry = self._entries[owner]
        return Choice(name=self._names[owner], value=entry_id(entry)[:MAX_CHOICE_LENGTH])

    def _index(self, kinds: frozenset[str] | None) -> _Index:
        cached = self._indexes.get(kinds)
        if cached is not None:
            return cached
        rows = [row for row in self._keys if kinds is None or self._kinds[row[1]] in kinds]
        owners = {owner for _, owner, _ in rows}
        browse = sorted(
            owners,
            key=lambda i: (BROWSE_ORDER.index(self._kinds[i]), self._names[i].casefold()),
        )
        index = _Index(
            texts=tuple(row[0] for row in rows),
            owners=tuple(row[1] for row in rows),
            aliases=tuple(row[2] for row in rows),
            browse=tuple(browse),
        )
        self._indexes[kinds] = index
        return index

    def _not_found(self, raw: str, text: str, index: _Index) -> str:
        shown = raw if len(raw) <= 50 else raw[:49] + "…"
        hints = self._fuzzy(text, index, HINT_CUTOFF, penalise=False)[:3]
        names = [self._names[owner] for owner in hints]
        if not names:
            return f"No entry named '{shown}'."
        listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
        return f"No entry named '{shown}'; did you mean {listed}?"


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
