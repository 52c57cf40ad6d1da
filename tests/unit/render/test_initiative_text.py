"""The initiative line's entries: a number never runs into a numbered name."""

from bot.render.turns import initiative_text
from bot.rules.initiative import InitiativeEntry


def entry(name: str, total: int | None, **extra: object) -> InitiativeEntry:
    return InitiativeEntry(
        combatant_id=1, name=name, side="foes", is_npc=True, finesse=1, total=total, **extra
    )


def test_an_unrolled_total_sits_in_parentheses_after_a_numbered_name() -> None:
    # "Goblin 2 1" read as one name; finesse mode has no roll to show.
    assert initiative_text(entry("Goblin 2", 1)) == "Goblin 2 (1)"
    assert initiative_text(entry("Goblin 2", 7, kept=True)) == "Goblin 2 (7, kept)"


def test_a_rolled_total_shows_its_die_and_each_bonus() -> None:
    rolled = entry("Mira", 9, die=20, faces=[8])
    assert initiative_text(rolled) == "Mira **9** (d20 8 · Finesse +1)"


def test_a_broken_combatant_has_no_total() -> None:
    assert initiative_text(entry("Goblin 1", None)) == "Goblin 1 — Broken"
