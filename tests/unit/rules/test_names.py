"""Names people type: one clean form to keep, compared ignoring case [GAME.md §1]."""

from __future__ import annotations

import pytest

from bot.rules.names import clean_name, name_key, same_name


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("Ｇｏｂｌｉｎ", "Goblin"),  # full-width letters: NFKC
        ("Gob\u200blin", "Goblin"),  # zero-width space
        ("Gob\u200d\u200clin\u2060", "Goblin"),  # joiners, word joiner
        ("\u202eGoblin\u202c", "Goblin"),  # bidi override
        ("go\u00adblin", "goblin"),  # soft hyphen
        ("Gob\x07lin\x00", "Goblin"),  # control characters
        ("  Cave \t\n Troll  ", "Cave Troll"),  # any whitespace is one space
        ("\u3164", ""),  # a Hangul filler draws nothing
        ("Ünïcødé Ork", "Ünïcødé Ork"),  # letters stay as typed
        ("[free nitro](https://ev.il)", "[free nitro](https://ev.il)"),  # escaping is rendering
    ],
)
def test_a_name_is_kept_normalised_without_invisible_characters(typed: str, kept: str) -> None:
    """A kept name held something invisible, or lost something visible."""
    assert clean_name(typed) == kept


def test_names_are_compared_after_normalising_ignoring_case() -> None:
    """Names that only look different, or differ in case, were told apart."""
    assert same_name("Goblin", "ＧＯＢＬＩＮ\u200b")
    assert same_name("Straße", "STRASSE")  # case folding, not only lower()
    assert not same_name("Goblin", "Goblins")
    assert name_key("  Cave  Troll ") == "cave troll"
