"""The tracker embed stays within Discord's limits and always shows the actor."""

from __future__ import annotations

import random

import pytest

from bot.outbox import DESCRIPTION_LIMIT as EMBED_DESCRIPTION_LIMIT
from bot.render.tracker import actor_page, ended_embed, fit_lines, tracker_embed, tracker_pages
from bot.render.turns import LOG_NOTE, summary_embeds
from bot.rules import encounter as flow
from bot.rules.models import ActiveSpecial, Combatant, Encounter, LogEntry


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
    assert f"▶ ` {101 - actor:>2}` 🟥 **Skeleton Warrior {actor}**" in text
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


def test_the_whole_tracker_pages_every_line_within_the_limits() -> None:
    """/init list's pages of a 100-combatant tracker cut a line, lost one, or broke a limit."""
    encounter = crowded(flow.MAX_COMBATANTS)
    flow.advance(encounter, random.Random(0))
    pages = tracker_pages(encounter, gm_view=True)
    assert len(pages) >= 2
    lines = [line for page in pages for line in (page.description or "").splitlines()]
    assert all(page.description.endswith("*▶ acting · ▫ to act · 🟥 foes*") for page in pages)
    lines = [line for line in lines if "Skeleton" in line]
    assert [line.split("**")[1] for line in lines] == [
        f"Skeleton Warrior {n}" for n in range(1, 101)
    ]
    assert all(len(page.description or "") <= EMBED_DESCRIPTION_LIMIT for page in pages)
    assert all(len(page) <= 6000 for page in pages)
    assert pages[0].title == f"Round 1 · Initiative · page 1/{len(pages)}"
    assert actor_page(pages) == 0


def test_a_long_round_summary_is_split_in_order_never_cut() -> None:
    """A round summary over 4,096 characters was cut (the rest lost) instead of split."""
    entries = [
        LogEntry(round=3, text=f"Skeleton Warrior {n} " + "strikes " * 10) for n in range(90)
    ]
    embeds = summary_embeds(3, entries)
    assert len(embeds) >= 2
    assert [e.title for e in embeds] == [
        f"Round 3 summary ({n}/{len(embeds)})" for n in range(1, len(embeds) + 1)
    ]
    text = "\n".join(e.description or "" for e in embeds)
    assert text.splitlines() == [
        "**Also**",
        *[f"• {entry.text}" for entry in entries],
        "",
        LOG_NOTE,
    ]
    assert all(len(e.description or "") <= EMBED_DESCRIPTION_LIMIT for e in embeds)


def test_a_standings_too_long_for_a_field_are_counted_on_the_old_tracker() -> None:
    """The ended tracker cut a 100-name standings field at 1,024 characters mid-name."""
    embed = ended_embed(crowded(flow.MAX_COMBATANTS))
    [summary] = [f for f in embed.fields if f.name == "Summary"]
    assert summary.value == "100 standing, 0 Broken: every name is in the final standings below."
    assert len(embed) <= 6000
