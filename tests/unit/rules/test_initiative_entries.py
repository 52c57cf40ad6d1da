"""Each round's order [GAME.md §5], its entries built whole: as building and then copying built them.

`_rolled_entry` builds a combatant's entry once with its roll, and `_roll_off` copies
only the entries that rolled off; these compare both with the way they were built
before (an entry, then a copy with the roll; a copy of every entry with its roll-off).
"""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from bot.rules import initiative
from bot.rules.grit import die_of
from bot.rules.initiative import InitiativeEntry, order_for_round
from bot.rules.models import Combatant


def rolled_entry_as_before(
    combatant: Combatant, mode: str, rng: random.Random, existing: dict[int, int]
) -> InitiativeEntry:
    """The entry as it was built: the bare entry, then a copy with what the roll gave."""
    entry = initiative._base_entry(combatant, mode)  # type: ignore[arg-type]
    if entry.broken:
        return entry
    kept = initiative._kept(combatant, existing, None)
    if kept is not None:
        return entry.model_copy(update={"total": kept, "kept": True})
    die = die_of(combatant)
    assert die is not None
    face = rng.randint(1, die)
    bonuses = initiative._fortune_bonuses(combatant, mode)  # type: ignore[arg-type]
    total = face + combatant.finesse + sum(b.value for b in bonuses)
    return entry.model_copy(
        update={"die": die, "faces": [face], "bonuses": bonuses, "total": total}
    )


def order_as_before(
    combatants: list[Combatant], mode: str, rng: random.Random, existing: dict[int, int]
) -> list[InitiativeEntry]:
    """The order as it was built: every entry copied with its roll-off faces."""
    entries = [rolled_entry_as_before(c, mode, rng, existing) for c in combatants]
    faces: dict[int, list[int]] = {e.combatant_id: [] for e in entries}
    for _ in range(initiative.MAX_ROLLOFFS):
        groups: dict[tuple[object, ...], list[InitiativeEntry]] = {}
        for entry in entries:
            if not entry.broken:
                key = (*initiative._tie_key(entry), tuple(-f for f in faces[entry.combatant_id]))
                groups.setdefault(key, []).append(entry)
        tied = [group for group in groups.values() if len(group) > 1]
        if not tied:
            break
        for group in tied:
            for entry in group:
                faces[entry.combatant_id].append(rng.randint(1, initiative.ROLLOFF_DIE))
    result = [e.model_copy(update={"rolloff": faces[e.combatant_id]}) for e in entries]
    return sorted(result, key=lambda e: (e.sort_key, e.combatant_id))


fighters = st.lists(
    st.fixed_dictionaries(
        {
            "finesse": st.integers(0, 3),
            "grit": st.sampled_from([0, 4, 12, 30]),
            "initiative_bonus": st.integers(0, 2),
            "hasted": st.booleans(),
            "holding": st.booleans(),
            "minor_acts": st.integers(0, 2),
            "is_npc": st.booleans(),
            "injuries": st.integers(0, 2),
        }
    ),
    min_size=1,
    max_size=12,
)


@given(fighters, st.sampled_from(["fortune", "once"]), st.integers(0, 2**32), st.booleans())
def test_a_rounds_order_is_the_order_built_the_old_way(
    stats: list[dict[str, object]], mode: str, seed: int, keep_some: bool
) -> None:
    """Building each entry whole, or leaving entries without a roll-off uncopied, changed an order."""
    combatants = [Combatant(id=n, name=f"C{n}", **s) for n, s in enumerate(stats, start=1)]
    existing = {c.id: 7 for c in combatants[::2]} if keep_some else {}
    new = order_for_round(combatants, mode, random.Random(seed), existing=existing)  # type: ignore[arg-type]
    old = order_as_before(combatants, mode, random.Random(seed), existing)
    assert [e.model_dump() for e in new] == [e.model_dump() for e in old]
