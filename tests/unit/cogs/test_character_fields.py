"""/character edit's values: each field's text read as its type, or one clear refusal."""

from __future__ import annotations

import pytest

from bot.character_fields import EDITABLE_FIELDS, NAME_MAX, character_name, parse_field
from bot.errors import BadInput


@pytest.mark.parametrize(
    ("field", "text", "value"),
    [
        ("physical", "-50", -50),
        ("finesse", "+7", 7),
        ("max_grit", "999", 999),
        ("perception_m", "none", None),
        ("durability", " 4 ", 4),
        ("stamina", "clear", None),
        ("default_defense", "Take cover", "take_cover"),
        ("tags", "Undead,  Fiend ,", ["Undead", "Fiend"]),
        ("tags", "none", []),
        ("name", "  Mira   Vell ", "Mira Vell"),
    ],
)
def test_a_value_is_read_as_its_fields_type(field: str, text: str, value: object) -> None:
    """Numbers, choices, tags and names are parsed from the typed text."""
    assert parse_field(field, text) == value


@pytest.mark.parametrize(
    ("field", "text", "message"),
    [
        ("physical", "3.5", "physical takes a whole number from -50 to 100, not '3.5'"),
        ("mastery_rank", "0", r"mastery_rank must be from 1 to 10 \(got 0\)"),
        ("grit", "none", "grit takes a whole number from 0 to 999, not 'none'"),
        ("default_defense", "parry", "default_defense is one of auto, block"),
        ("tags", ",".join("t" * 3 for _ in range(11)), "Tags: at most 10"),
        ("strength", "3", "There is no field 'strength'; editable: name, physical"),
        ("name", " ", "A character needs a name"),
    ],
)
def test_a_bad_value_is_refused(field: str, text: str, message: str) -> None:
    """Wrong types, out-of-range numbers and unknown fields are refused in one line."""
    with pytest.raises(BadInput, match=message):
        parse_field(field, text)


def test_every_editable_field_is_a_sheet_field() -> None:
    """Every field offered to /character edit exists on the Character model."""
    from bot.rules.models import Character

    assert set(EDITABLE_FIELDS) <= set(Character.model_fields)


def test_an_overlong_name_is_refused() -> None:
    """Names have at most NAME_MAX characters after trimming."""
    assert character_name("x" * NAME_MAX) == "x" * NAME_MAX
    with pytest.raises(BadInput, match=f"at most {NAME_MAX} characters"):
        character_name("x" * (NAME_MAX + 1))
