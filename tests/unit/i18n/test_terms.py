"""Modifier names the rules build with a count or an item in them read in the reader's language."""

from __future__ import annotations

import pytest

from bot.i18n import speaking
from bot.i18n.terms import term


@pytest.mark.parametrize(
    ("rules_name", "german"),
    [
        ("Shield (Buckler)", "Schild (Buckler)"),
        ("Guard (Buckler)", "Abwehr (Buckler)"),
        ("Injuries ×2", "Verletzungen ×2"),
        ("Minor acts ×1", "Kleine Handlungen ×1"),
        ("Target Head", "Ziel Kopf"),
        ("Range", "Reichweite"),
    ],
)
def test_a_built_modifier_name_is_german_at_a_german_table(rules_name: str, german: str) -> None:
    """A modifier's name with a number or an item in it stayed English for a German reader."""
    with speaking("de"):
        assert term(rules_name) == german
    assert term(rules_name) == rules_name  # English is the message id itself


def test_an_item_named_like_a_pattern_is_kept_as_typed() -> None:
    """A shield's typed name was translated or lost inside the modifier's German name."""
    with speaking("de"):
        assert term("Shield (Head)") == "Schild (Head)"
