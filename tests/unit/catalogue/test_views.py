"""What `/power` and `/special` show: entry views with their level tables, paged."""

from __future__ import annotations

import pytest

from bot.catalogue.lookup import Lookup
from bot.catalogue.models import Catalogue, load_catalogue
from bot.catalogue.views import EntryViews, PowerEntryView, all_entries, entry_id, entry_view
from bot.errors import BadInput

CATALOGUE = load_catalogue()
IDS = [entry_id(entry) for entry in all_entries(CATALOGUE)]


@pytest.mark.parametrize("ident", IDS)
def test_every_entry_renders(lookup: Lookup, ident: str) -> None:
    """An entry cannot be rendered, or its table rows do not match its columns."""
    entry = lookup.get(ident)
    assert entry is not None
    view = entry_view(CATALOGUE, entry, see_also=lookup.see_also(entry))
    assert view.id == ident and view.summary
    if view.table is not None:
        assert view.table.rows
        assert all(len(row.cells) == len(view.table.columns) for row in view.table.rows)


def _view(lookup: Lookup, query: str, level: int | None = None) -> PowerEntryView:
    return entry_view(CATALOGUE, lookup.find(query), level)


def test_level_keeps_one_row(lookup: Lookup) -> None:
    """`/power name level` does not narrow the level table to that level."""
    view = _view(lookup, "Active Buff: Critical", 9)
    assert [(row.label, row.cells) for row in view.table.rows] == [
        ("8–11", ("attacks gain Critical(2)",))
    ]
    teleport = _view(lookup, "teleport", 12)
    assert [row.cells for row in teleport.table.rows] == [("12 m",)]


@pytest.mark.parametrize("level", [0, 17])
def test_out_of_range_level(lookup: Lookup, level: int) -> None:
    """A level outside 1–16 is not refused clearly."""
    with pytest.raises(BadInput, match=f"Level must be 1–16, not {level}."):
        _view(lookup, "teleport", level)


def test_long_tables_are_paged(lookup: Lookup) -> None:
    """A 16-row table is not split into pages of the requested size."""
    pages = _view(lookup, "Passive: Special Aura").table_pages(rows_per_page=6)
    assert [len(page.rows) for page in pages] == [6, 6, 4]
    assert all(page.columns == ("Radius", "PP", "Target PP") for page in pages)


def test_special_view_shows_its_cost_table(lookup: Lookup) -> None:
    """A Special's view lacks its group, Cleanse/Dispel, pricing or its X = 1–10 costs."""
    view = _view(lookup, "ruin")
    facts = {fact.label: fact.value for fact in view.facts}
    assert facts["Group"] == "Diminishing"
    assert facts["Cleanse/Dispel"] == "Yes"
    assert facts["Template group"] == "Standard Group"
    assert view.pricing == "Start PP 4 × T(X)"
    assert view.table.header == "X"
    assert [row.cells[0] for row in view.table.rows] == [
        "4", "12", "24", "40", "60", "84", "112", "144", "180", "220"
    ]  # fmt: skip


def test_binary_special_has_no_table(lookup: Lookup) -> None:
    """A binary Special shows a cost table instead of its fixed price."""
    view = _view(lookup, "prone")
    assert view.table is None
    assert view.pricing == "60 PP (fixed)"


def test_axis_table_is_derived_from_the_curve(lookup: Lookup) -> None:
    """Active Buff: Armor's level table is not the most 7.5 PP per Armor buys on the curve."""
    view = _view(lookup, "Active Buff: Armor")
    first = view.table.rows[0]
    assert view.table.columns == ("Armor", "PP", "Target PP")
    assert first.cells == ("+5", "37.5", "40")
    assert view.table.note.startswith("Derived:")


def test_passive_axis_shows_both_modes(lookup: Lookup) -> None:
    """Passive: Armor does not show its unconditional and conditional values side by side."""
    view = _view(lookup, "Passive: Armor", 4)
    assert view.table.columns == ("Unconditional", "Conditional", "Target PP")
    assert view.table.rows[0].cells == ("+5", "+10", "80")


def test_movement_view(lookup: Lookup) -> None:
    """A movement type does not show its rows, cap and pricing logic."""
    view = _view(lookup, "leap")
    assert view.table.columns == ("Horizontal", "Vertical")
    assert {f.label: f.value for f in view.facts}["Cap"] == "28 m horizontal / 14 m vertical"
    assert view.pricing.startswith("burst arc movement")


def test_power_type_view(lookup: Lookup) -> None:
    """A power type does not show its curve with the Charged target."""
    view = _view(lookup, "Power Type: Active Buff", 2)
    assert view.table.rows[0].cells == ("70", "80")
    passive = _view(lookup, "Power Type: Passive")
    assert passive.table.columns == ("Target PP",)


def test_rule_view_has_points(lookup: Lookup) -> None:
    """A canon rule shows no points."""
    view = _view(lookup, "Root Canon")
    assert view.table is None and len(view.points) >= 3


@pytest.mark.parametrize(
    ("query", "rows"),
    [
        ("Table: Instant Attack AoE", 8),
        ("Table: Spell Tiers", 8),
        ("Table: Diminishing PP Lookup", 10),
        ("Table: Power Curves", 16),
        ("Table: Summon Token Costs", 13),  # the SRD's 12 upgrades and Canonical Power
    ],
)
def test_reference_tables(lookup: Lookup, query: str, rows: int) -> None:
    """A reference table does not render all its rows."""
    assert len(_view(lookup, query).table.rows) == rows


def test_catalogue_fixture_matches(catalogue: Catalogue) -> None:
    """The session catalogue and a fresh load disagree."""
    assert catalogue == CATALOGUE


def test_kept_views_are_the_rendered_ones(lookup: Lookup) -> None:
    """`EntryViews` (what `/power` shows) differs from rendering the entry afresh, or keeps
    more than its size, or mixes up levels."""
    views = EntryViews(CATALOGUE, lookup.see_also, kept=3)
    critical = lookup.find("Active Buff: Critical")
    teleport = lookup.find("teleport")
    whole = views.get(critical)
    assert whole == entry_view(CATALOGUE, critical, see_also=lookup.see_also(critical))
    assert views.get(critical) is whole  # kept, not rendered again
    at_nine = views.get(critical, 9)
    assert at_nine == entry_view(CATALOGUE, critical, 9, see_also=lookup.see_also(critical))
    assert at_nine is not whole and len(at_nine.table.rows) == 1
    views.get(teleport)
    views.get(critical)  # the whole view was used last: the level-9 one is the oldest now
    views.get(teleport, 12)
    assert views.get(critical) is whole
    assert views.get(critical, 9) is not at_nine  # dropped, rendered again (and equal)
    assert views.get(critical, 9) == at_nine


def test_kept_views_refuse_a_bad_level_each_time(lookup: Lookup) -> None:
    """A level outside 1–16 is kept instead of refused the second time."""
    views = EntryViews(CATALOGUE, lookup.see_also)
    teleport = lookup.find("teleport")
    for _ in range(2):
        with pytest.raises(BadInput):
            views.get(teleport, 17)
