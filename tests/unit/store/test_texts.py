"""An encounter's stored text, rebuilt from the parts of the combatants a block left alone."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.rules.models import ActiveSpecial, Combatant, Encounter, PowerSpecial, Shield
from bot.store.copies import Origins, copy_state, unchanged
from bot.store.texts import encounter_text
from tests.unit.store.test_copies import full_encounter

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
