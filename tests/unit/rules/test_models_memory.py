"""A parsed encounter keeps its fields, not a record of which ones the stored text named."""

from __future__ import annotations

import random
import sys

from bot.rules.models import Encounter
from tests.bench.world import build_encounter


def stored_fight() -> str:
    """Return the memory bench's fight as stored: 10 combatants, each with a sword and a power."""
    return build_encounter(1001, 77, 5, 10, random.Random(1)).model_dump_json()


def test_a_parsed_encounter_dumps_back_to_the_same_text() -> None:
    """Forgetting the named fields changed what the store writes back."""
    text = stored_fight()
    assert Encounter.model_validate_json(text).model_dump_json() == text


def test_a_parsed_encounter_keeps_no_set_of_named_fields() -> None:
    """Each model of a parsed fight kept a set of every field name (53 of its 86 KiB)."""
    parsed = Encounter.model_validate_json(stored_fight())
    models = [parsed, *parsed.combatants]
    models += [m for c in parsed.combatants for m in (*c.items, *c.powers)]
    assert len(models) == 31
    assert all(m.model_fields_set == set() for m in models)
    assert all(sys.getsizeof(m.model_fields_set) == sys.getsizeof(set()) for m in models)


def test_an_assignment_is_still_validated_and_recorded() -> None:
    """The base model's assignment checks stopped working on a parsed encounter."""
    parsed = Encounter.model_validate_json(stored_fight())
    parsed.combatants[0].name = "Mira"
    assert parsed.combatants[0].model_fields_set == {"name"}
