"""The tracker embed stays within Discord's limits and always shows the actor."""

from __future__ import annotations

import random

import pytest

from bot.render.tracker import EMBED_DESCRIPTION_LIMIT, fit_lines, tracker_embed
from bot.rules import encounter as flow
from bot.rules.models import ActiveSpecial, Combatant, Encounter


def crowded(count: int) -> Encounter:
    encounter = Encounter(channel_id=1, gm_id=1, mode="finesse")
    for n in range(count):
        combatant = Combatant(id=0, name=f"Skeleton Warrior {n + 1}", finesse=count - n)
        combatant.specials = [ActiveSpecial(name="Ruin", x=3), ActiveSpecial(name="Slow", x=2)]
        flow.add_combatant(encounter, combatant, random.Random(0))
    return encounter


@pytest.mark.parametrize(
    ("turns", "actor", "notes"), [(2, 3, ["more"]), (4, 5, ["above", "more"]), (80, 81, ["above"])]
)
def test_a_full_encounter_fits_one_embed_and_shows_the_actor(
    turns: int, actor: int, notes: list[str]
) -> None:
    """A 100-combatant tracker broke the 4096-character limit or lost the actor's line."""
    encounter = crowded(flow.MAX_COMBATANTS)
    flow.advance(encounter, random.Random(0))
    for _ in range(turns):
        flow.advance(encounter, random.Random(0))
    text = tracker_embed(encounter).description
    assert len(text) <= EMBED_DESCRIPTION_LIMIT
    assert f"▶ ` {101 - actor:>2}` **Skeleton Warrior {actor}**" in text
    assert len(text) > EMBED_DESCRIPTION_LIMIT - 200  # the room is used, not wasted
    assert ("above*" in text) == ("above" in notes)
    assert ("`/init list` shows them" in text) == ("more" in notes)


def test_fit_lines_keeps_whole_lines() -> None:
    """Fitting cut a line in half instead of leaving whole lines out."""
    lines = [f"line {n} " + "x" * 50 for n in range(100)]
    text = fit_lines(lines, 1000, keep=50)
    kept = [line for line in text.splitlines() if line.startswith("line")]
    assert all(line in lines for line in kept)
    assert lines[50] in kept
    assert len(text) <= 1000


def test_a_short_tracker_is_left_whole() -> None:
    """A tracker that fits was changed by fitting."""
    lines = ["a", "b", "c"]
    assert fit_lines(lines, 100) == "a\nb\nc"
