"""Names people type, for combatants and characters: one form to keep, one to compare by.

A name is kept as typed but normalised (Unicode NFKC: full-width `Ｇｏｂｌｉｎ` is `Goblin`),
without control or invisible characters (zero-width spaces and joiners, bidi overrides,
soft hyphens, blank letters) and with single spaces. Two names are the same when their
normal forms are, ignoring case [GAME.md §1]. Escaping a name for Discord is the
renderers' business (`bot.render.text.name_text`).
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable

from rapidfuzz import fuzz, process

CLOSE_CUTOFF = 75.0  # a name this similar (rapidfuzz WRatio, 0-100) is offered as "did you mean"
CLOSE_LIMIT = 25  # a select menu's options [Discord]

# Control, format (zero-width, joiners, bidi, soft hyphen) and surrogate characters.
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs"})
# Letters that draw nothing: Hangul fillers, the halfwidth filler, the blank Braille cell.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def clean_name(text: str) -> str:
    """Return a name as the bot keeps it: NFKC, nothing invisible, single spaces."""
    if text.isascii() and text.isprintable():
        return " ".join(text.split())  # the usual name: nothing to normalise or drop
    normal = unicodedata.normalize("NFKC", text)
    kept = (
        " " if char.isspace() else char
        for char in normal
        if char.isspace()
        or (unicodedata.category(char) not in _INVISIBLE_CATEGORIES and char not in _BLANK_LETTERS)
    )
    return " ".join("".join(kept).split())


@functools.lru_cache(maxsize=8192)  # a fight compares its names again and again
def name_key(text: str) -> str:
    """Return what names are compared by: the clean name, case-folded."""
    return unicodedata.normalize("NFKC", clean_name(text).casefold())


def same_name(one: str, other: str) -> bool:
    """Return whether two typed names name the same thing."""
    return name_key(one) == name_key(other)


def close_names(typed: str, names: Iterable[str], limit: int = CLOSE_LIMIT) -> list[str]:
    """Return the names a typo or a part most likely meant, best first: "Trov" → Torv."""
    wanted = name_key(typed)
    if not wanted:
        return []
    known = {name_key(name): name for name in names}
    starts = [name for key, name in known.items() if key.startswith(wanted)]
    scored = process.extract(
        wanted, list(known), scorer=fuzz.WRatio, score_cutoff=CLOSE_CUTOFF, limit=limit
    )
    fuzzy = [known[key] for key, _score, _index in scored if known[key] not in starts]
    return (starts + fuzzy)[:limit]
