"""An encounter's stored text, rebuilt from the parts of the combatants a block left alone."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from bot.rules.models import ActiveSpecial, Combatant, Encounter, PowerSpecial, Shield
from bot.store import copies
from bot.store.copies import Origins, copy_state, same_state, unchanged
from bot.store.texts import encounter_text
from tests.unit.store.test_copies import full_encounter, parsed

Change = Callable[[Combatant], None]

# One change each of every way a block can change a combatant: assigned, changed in place
# in a list, a dict or a model inside it, or a model in a list replaced by another.
CHANGES: dict[str, Change] = {
    "assigned": lambda c: setattr(c, "grit", 3),
    "assigned the same value": lambda c: setattr(c, "grit", c.grit),
    "a name list": lambda c: c.tags.append("Undead"),
    "an id list": lambda c: c.engaged_with.clear(),
    "a dict": lambda c: c.power_uses.update(Bolt=2),
    "a dict of literals": lambda c: c.sacrifices.update(attack=1),
    "a model in a list": lambda c: setattr(c.specials[0], "x", 9),
    "a list in a model in a list": lambda c: c.powers[0].specials.append(PowerSpecial(name="X")),
    "a model in a list replaced": lambda c: c.specials.__setitem__(
        0, ActiveSpecial(name="Ruin", x=4, source="Goblin 2")
    ),
    "an item replaced by its equal kind": lambda c: c.items.__setitem__(
        2, Shield(name="Buckler", block=1, durability=11)
    ),
    "a model field": lambda c: setattr(c.long_action, "progress", 2),
    "a model field emptied": lambda c: setattr(c, "grapple", None),
    "a model in a model": lambda c: setattr(c.buff, "until_round", 9),
}


def copied() -> tuple[Encounter, Encounter, Origins]:
    committed = Encounter.model_validate_json(full_encounter().model_dump_json())
    origins: Origins = {}
    return committed, copy_state(committed, origins), origins


def parts_of(encounter: Encounter) -> dict[int, str]:
    return {id(c): c.model_dump_json() for c in encounter.combatants}


def test_an_untouched_copy_is_unchanged_and_its_text_reuses_every_part() -> None:
    """An untouched copy counted as changed, or its text was dumped again or came out wrong."""
    committed, copy, origins = copied()
    assert all(unchanged(c, origins) for c in copy.combatants)
    before = parts_of(committed)
    text, parts = encounter_text(copy, origins, before)
    assert text == committed.model_dump_json()
    assert [id(p) for p in parts] == [id(before[id(c)]) for c in committed.combatants]


@pytest.mark.parametrize("change", CHANGES.values(), ids=CHANGES.keys())
def test_any_change_of_a_combatant_is_seen_and_written(change: Change) -> None:
    """A changed combatant counted as unchanged, or the text missed its change."""
    committed, copy, origins = copied()
    change(copy.combatants[0])
    assert not unchanged(copy.combatants[0], origins)
    assert unchanged(copy.combatants[1], origins)
    before = parts_of(committed)
    text, parts = encounter_text(copy, origins, before)
    assert text == copy.model_dump_json()
    assert parts[1] is before[id(committed.combatants[1])]  # the other: its part as it was


def test_added_removed_reordered_and_new_combatants_are_written() -> None:
    """The text of a reordered, grown or shrunk encounter was not its model_dump_json()."""
    committed, copy, origins = copied()
    before = parts_of(committed)
    copy.combatants.reverse()
    assert encounter_text(copy, origins, before)[0] == copy.model_dump_json()
    copy.combatants.append(Combatant(id=3, name="Newcomer"))
    copy.combatants.append(copy_state(committed.combatants[0]))  # a copy of unknown origin
    assert not unchanged(copy.combatants[-1], origins)
    assert encounter_text(copy, origins, before)[0] == copy.model_dump_json()
    del copy.combatants[:2]
    assert encounter_text(copy, origins, before)[0] == copy.model_dump_json()
    copy.combatants.clear()
    assert encounter_text(copy, origins, before)[0] == copy.model_dump_json()


def test_an_encounter_of_no_known_origin_is_dumped_whole() -> None:
    """A fresh encounter's text was not its model_dump_json()."""
    fresh = full_encounter()
    text, parts = encounter_text(fresh, {}, {})
    assert text == fresh.model_dump_json()
    assert parts == tuple(c.model_dump_json() for c in fresh.combatants)


def test_a_committed_combatant_shared_by_a_replacement_keeps_its_part() -> None:
    """An amendment's replacement (sharing the committed combatants) was dumped again or wrong."""
    committed = Encounter.model_validate_json(full_encounter().model_dump_json())
    before = parts_of(committed)
    replacement = committed.model_copy(update={"round": 7})
    text, parts = encounter_text(replacement, {}, before)
    assert text == replacement.model_dump_json()
    assert [id(p) for p in parts] == [id(before[id(c)]) for c in committed.combatants]


# copy_state and unchanged as they were before each model class got functions of its own
# (bot/store/copies.py writes them from the same plans): the oracle of the two below.
def reference_copy_state(model: Any, origins: dict[int, Any] | None = None) -> Any:
    cls = type(model)
    values = model.__dict__.copy()
    for name, kind in copies._plan_of(cls):
        value = values[name]
        if value is None:
            continue
        if kind is copies._FLAT:
            values[name] = value.copy()
        elif kind is copies._MODELS:
            values[name] = [reference_copy_state(item, origins) for item in value] if value else []
        elif kind is copies._MODEL:
            values[name] = reference_copy_state(value, origins)
        else:
            values[name] = copies._copy_value(value)
    new = cls.__new__(cls)
    copies._set_dict(new, values)
    copies._set_fields_set(new, set())
    extra, private = model.__pydantic_extra__, model.__pydantic_private__
    copies._set_extra(new, None if extra is None else copies._copy_value(extra))
    copies._set_private(new, None if private is None else copies._copy_value(private))
    if origins is not None:
        origins[id(new)] = (new, model)
    return new


def reference_unchanged(model: Any, origins: dict[int, Any]) -> bool:
    entry = origins.get(id(model))
    if entry is None or entry[0] is not model or model.__pydantic_fields_set__:
        return False
    plan = copies._plan_of(type(model))
    if any(kind is copies._DEEP for _, kind in plan):
        return False
    values, before = model.__dict__, entry[1].__dict__
    flat = [name for name, kind in plan if kind is copies._FLAT]
    if [values[n] for n in flat] != [before[n] for n in flat]:
        return False

    def copied(value: Any, source: Any) -> bool:
        found = origins.get(id(value))
        return found is not None and found[1] is source and reference_unchanged(value, origins)

    for name, kind in plan:
        value, old = values[name], before[name]
        if kind is copies._MODEL and value is not None and not copied(value, old):
            return False
        if kind is copies._MODELS and (value or old):
            if len(value) != len(old) or not all(map(copied, value, old)):
                return False
    return True


def models_of(state: Any) -> list[BaseModel]:
    """Return every model a state holds, itself first, depth first."""
    if isinstance(state, BaseModel):
        return [state, *models_of(list(state.__dict__.values()))]
    if isinstance(state, list | dict):
        items = state.values() if isinstance(state, dict) else state
        return [model for item in items for model in models_of(item)]
    return []


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(sorted(CHANGES)), max_size=4))
def test_copies_and_their_changes_are_judged_as_before(changes: list[str]) -> None:
    """The per-class copy or change check differed from the generic one on some model."""
    committed = parsed(full_encounter())
    origins: dict[int, Any] = {}
    copy = copy_state(committed, origins)
    reference_origins: dict[int, Any] = {}
    reference = reference_copy_state(committed, reference_origins)
    assert same_state(copy, reference) is None
    assert [type(m) for m in models_of(copy)] == [type(m) for m in models_of(reference)]
    assert all(m.__pydantic_fields_set__ == set() for m in models_of(copy))
    assert {id(origins[id(m)][1]) for m in models_of(copy)} == {id(m) for m in models_of(committed)}
    for name in changes:
        CHANGES[name](copy.combatants[0])
    for model in models_of(copy) + models_of(committed):
        assert unchanged(model, origins) == reference_unchanged(model, origins)
    assert unchanged(copy.combatants[1], origins)
