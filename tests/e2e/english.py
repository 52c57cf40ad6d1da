"""Find English left in a German transcript: the catalogue's own English, and plain English words.

Two nets. The first is exact: every English message id whose German translation differs
is cut at its placeholders and markup into fragments, and a fragment of two words or more
found in the transcript is a text that reached a German reader untranslated. The second
catches texts that were never wrapped at all (they are in no catalogue): English words a
German sentence never contains. Names the players typed, dice notation and the SRD's
keywords, which the glossary keeps English, are not on that list.
"""

from __future__ import annotations

import re
from functools import cache

from bot.i18n.catalogue import read

# Words of running English that German text never contains. The SRD's keywords (Active,
# Passive, Spell, Ruin, Root …), Grit levels and dice stay English by the glossary.
ENGLISH_WORDS = (
    "the", "and", "is", "are", "you", "your", "has", "with", "this", "that", "turn",
    "round", "rolls", "takes", "damage", "attacks", "defends", "hits", "misses", "now",
    "no", "not", "to", "of", "on", "for", "until", "left", "next", "ends", "opens",
    "none", "or", "only", "must", "cannot", "it", "its", "by", "from", "be", "here", "there",
    "when", "which", "Level", "None", "Yes",
)  # fmt: skip
WORD = re.compile(r"\b(" + "|".join(ENGLISH_WORDS) + r")\b")
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
# A command named in running text stays English (the glossary): `/init next`, `/declare`.
COMMAND = re.compile(r"/[a-z_]+(?: (?:" + "|".join(("next", "join", "add", "start", "end", "prev", "log", "remove", "damage", "heal", "show", "apply", "list", "create", "use", "power", "weapon", "armor", "shield", "set", "edit", "delete", "cleanse", "language", "target", "price", "design")) + r"))*")  # fmt: skip
MARKUP = re.compile(r"[*_`>|•·—–()\[\]:;,.!?\"“”„'’\n]+")


@cache
def english_fragments() -> tuple[str, ...]:
    """Return the English pieces of every message German translates differently."""
    fragments: set[str] = set()
    for message in read("de"):
        if not message.id or message.context:  # command names are checked by the sync
            continue
        ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
        strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
        german = " ".join(s for s in strings if s)
        for english in ids:
            for piece in PLACEHOLDER.split(COMMAND.sub("\n", english)):
                for fragment in MARKUP.split(piece):
                    fragment = fragment.strip()
                    words = fragment.split()
                    if len(words) >= 2 and sum(map(len, words)) >= 8 and fragment not in german:
                        fragments.add(fragment)
    return tuple(sorted(fragments, key=len, reverse=True))


def english_in(text: str, *, allowed: tuple[str, ...] = ()) -> list[str]:
    """Return the English a German reader would meet in this text (nothing: all German)."""
    for word in allowed:
        text = text.replace(word, " ")
    found = [f"untranslated: {f!r}" for f in english_fragments() if f in text]
    for line in text.splitlines():
        scrubbed = COMMAND.sub(" ", re.sub(r"<[^<>]+>|`[^`]*`|\b\d*d\d+\S*", " ", line))
        words = sorted(set(WORD.findall(scrubbed)))
        if words:
            found.append(f"English words {words} in: {line.strip()!r}")
    return list(dict.fromkeys(found))
