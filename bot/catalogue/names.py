"""Name folding shared by look-up and type resolution: case-, accent- and punctuation-blind."""

from __future__ import annotations

import unicodedata

_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue"})


def normalise(text: str) -> str:
    """Fold a name for comparison: lower-case, no accents, words split by single spaces."""
    folded = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(c for c in folded if not unicodedata.combining(c))
    words = "".join(c if c.isalnum() else " " for c in plain).split()
    return " ".join(words)


def spellings(name: str) -> set[str]:
    """Return a name's folded keys, adding 'ae/oe/ue' spellings for German umlauts."""
    keys = {normalise(name)}
    if any(c in name.casefold() for c in "äöü"):
        keys.add(normalise(name.casefold().translate(_UMLAUTS)))
    return keys - {""}
