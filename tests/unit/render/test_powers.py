"""The SRD look-up embeds: within Discord's limits for every entry, page, Special, type and build."""

from __future__ import annotations

import re

import discord
import pytest

from bot.catalogue import (
    Lookup,
    PriceBreakdown,
    PricedComponent,
    entry_view,
    load_catalogue,
    movement_progression,
    price,
    special_cost,
)
from bot.catalogue.design import design_power
from bot.catalogue.models import Special
from bot.catalogue.pricing import CURVED_TYPES, curve_target
from bot.catalogue.views import LevelTableView, TableRow, all_entries, entry_id
from bot.render.powers import (
    curve_embed,
    design_embed,
    entry_page,
    excluded_embed,
    guess_line,
    movement_embed,
    price_embed,
    signed_pct,
    special_embed,
    table_pages,
)

CATALOGUE = load_catalogue()
LOOKUP = Lookup(CATALOGUE)
IDS = [entry_id(entry) for entry in all_entries(CATALOGUE)]


def assert_within_limits(embed: discord.Embed) -> None:
    """The embed breaks none of Discord's limits."""
    assert len(embed.title or "") <= 256
    assert len(embed.description or "") <= 4096
    assert len(embed.fields) <= 25
    for field in embed.fields:
        assert 0 < len(field.name or "") <= 256
        assert 0 < len(field.value or "") <= 1024
    assert len(embed.footer.text or "") <= 2048
    assert len(embed) <= 6000


@pytest.mark.parametrize("ident", IDS)
def test_every_entry_page_fits_an_embed(ident: str) -> None:
    """An entry's page breaks an embed limit, or its pages lose a row of its table."""
    entry = LOOKUP.get(ident)
    assert entry is not None
    view = entry_view(CATALOGUE, entry, see_also=LOOKUP.see_also(entry))
    first = entry_page(view)
    shown = []
    for page in range(first.pages):
        rendered = entry_page(view, page)
        assert rendered.page == page
        assert_within_limits(rendered.embed)
        shown.append(rendered.embed.fields[-1].value if view.table else "")
    if view.table is not None:
        text = "\n".join(shown)
        for row in view.table.rows:
            assert discord.utils.escape_markdown(row.label) in text or row.label in text


def test_a_page_past_the_end_shows_the_last_page() -> None:
    """A stale page number from an old button is not clamped to the table."""
    view = entry_view(CATALOGUE, LOOKUP.find("Table: Movement Types"))
    shown = entry_page(view, 9)
    assert (shown.page, shown.pages) == (1, 2)
    assert shown.embed.fields[-1].name.endswith("(page 2/2)")


def test_long_tables_split_by_characters_and_keep_every_row() -> None:
    """A table of long rows is not split into field-sized pages holding every row in order."""
    rows = tuple(TableRow(label=f"Row {i}", cells=("x" * 150, "note")) for i in range(30))
    table = LevelTableView(header="Thing", columns=("Text", "Note"), rows=rows, note="A note.")
    pages = table_pages(table)
    assert len(pages) > 1
    assert all(len(page) <= 1024 and page.endswith("*A note.*") for page in pages)
    labels = re.findall(r"\*\*Row (\d+)\*\*", "\n".join(pages))
    assert labels == [str(i) for i in range(30)]


def test_narrow_tables_are_aligned_grids() -> None:
    """A narrow numeric table is not an aligned monospace grid with numbers to the right."""
    rows = tuple(TableRow(label=str(x), cells=(str(x * 25),)) for x in (1, 4, 10))
    (page,) = table_pages(LevelTableView(header="X", columns=("PP",), rows=rows))
    assert page.splitlines() == ["```", "X    PP", "1    25", "4   100", "10  250", "```"]


@pytest.mark.parametrize("special", CATALOGUE.specials.specials, ids=lambda s: s.key)
def test_every_special_fits_at_every_x(special: Special) -> None:
    """A Special's embed breaks a limit at some X, or names the wrong X in its title."""
    view = entry_view(CATALOGUE, special, see_also=LOOKUP.see_also(special))
    assert_within_limits(special_embed(view, None))
    if not special.takes_x:
        return
    for x in range(special.min_x, special.max_x + 1):
        embed = special_embed(view, special_cost(special, x))
        assert_within_limits(embed)
        assert embed.title == f"{special.name}({x})"
        assert embed.fields[-1].name == f"Cost at X = {x}"


@pytest.mark.parametrize("level", range(1, 17))
def test_every_curve_and_movement_target_fits(level: int) -> None:
    """A curve target or movement progression breaks a limit, or marks the wrong level."""
    for key in CURVED_TYPES:
        for charged in (False, True):
            if charged and not CATALOGUE.power_type(key).charged_allowed:
                continue
            target = curve_target(CATALOGUE, key, level, charged=charged)
            embed = curve_embed(target)
            assert_within_limits(embed)
            assert embed.description == f"Target: **{target.target_pp:g} PP**"
    for movement in CATALOGUE.movement.types:
        embed = movement_embed(movement_progression(CATALOGUE, movement, level))
        assert_within_limits(embed)
        progression = next(f.value for f in embed.fields if f.name == "Progression")
        marked = [line for line in progression.splitlines() if line.startswith("▶")]
        assert len(marked) == 1 and marked[0].split()[1] == str(level)


@pytest.mark.parametrize(
    ("value", "shown"), [(25.0, "+25 %"), (-8.1, "−8.1 %"), (0.0, "0 %"), (3.3, "+3.3 %")]
)
def test_signed_percent(value: float, shown: str) -> None:
    """A deviation is shown without its sign or with a hyphen for minus."""
    assert signed_pct(value) == shown


def test_a_huge_build_stays_within_the_embed() -> None:
    """Sixty long components overflow the embed instead of being summarised at the end."""
    real = price(CATALOGUE, "damage:2d8", "active", 1)
    parts = tuple(
        PricedComponent(
            name=f"part{i}", value="9", cost_pp=1, rule="r" * 150, source="SRD", multiplier=1
        )
        for i in range(60)
    )
    big = PriceBreakdown.model_validate(
        real.model_dump() | {"components": parts, "subtotal_pp": 60, "total_pp": 60}
    )
    embed = price_embed(big)
    assert_within_limits(embed)
    names = [field.name for field in embed.fields]
    summary = embed.fields[names.index("Total") - 1].value or ""
    assert re.fullmatch(r"… and \d+ more \(counted in the total\)", summary)
    assert embed.fields[names.index("Total")].value == "**60 PP**"


@pytest.mark.parametrize(
    ("components", "type_key", "level", "verdict"),
    [
        ("damage:4d8", "active", 2, "**On curve**"),
        ("damage:5d8", "active", 2, "**Over curve**"),
        ("damage:2d8", "active", 2, "**Under curve**"),
        ("damage:2d8 discount:minor capstone persistent radius:2", "active", 2, "**Under curve**"),
        ("damage:4d8", None, None, "Give a `type`"),
        ("damage:4d8", "active", None, "Level 2 is the lowest"),
    ],
)
def test_price_verdicts(
    components: str, type_key: str | None, level: int | None, verdict: str
) -> None:
    """A priced build does not state its verdict (or the fitting levels without a type)."""
    embed = price_embed(price(CATALOGUE, components, type_key, level))
    assert_within_limits(embed)
    assert verdict in (embed.description or "")


# ---------------------------------------------------------------- guesses, exclusions, designs


def test_a_guess_line_escapes_and_shortens_what_was_typed() -> None:
    """The typed name is echoed unescaped or at any length in the guess line."""
    line = guess_line("**bold** " + "x" * 200, "Movement: Teleport", 3)
    assert line.startswith("No exact match for '\\*\\*bold\\*\\* ")
    assert "showing **Movement: Teleport**, a guess. Pick one of 3 others below" in line
    assert len(line) < 250
    assert "Pick one" not in guess_line("ruinn", "Ruin(X)", 0)


@pytest.mark.parametrize(
    "query", ["Glide", "Passive: Attack", "Saving Throw", "Mastery System – Power & Spell SRD"]
)
def test_an_excluded_name_has_its_own_answer(query: str) -> None:
    """An excluded name is not answered with why the SRD (or Tablehand) leaves it out."""
    found = LOOKUP.match(query)
    embed = excluded_embed(query, found.exclusion)
    assert_within_limits(embed)
    assert embed.title.startswith(("Excluded by the SRD: ", "Not in Tablehand's catalogue: "))
    assert embed.footer.text.startswith("SRD: ")


def test_a_design_card_fits_an_embed_at_sixteen_levels() -> None:
    """A design of sixteen levels with many broken rules breaks an embed limit."""
    levels = " ".join(f"L{lv} damage:{lv}d8 ruin:{lv} slow:{lv} push:{lv}" for lv in range(1, 17))
    card = design_power(CATALOGUE, "Everything", "active_buff", levels, None, "Spell, Fire", "!")
    embed = design_embed(card)
    assert_within_limits(embed)
    assert embed.title == "Everything (Active Buff, Spell, Fire)"
    assert {field.name for field in embed.fields} >= {
        "BASELINES",
        "CALCULATION",
        "NOTES",
        "SRD check",
    }
    assert embed.fields[-1].value.startswith("Does not conform: breaks")


def test_a_conforming_design_card() -> None:
    """A conforming design's card lacks its flavour, power table row or verdict."""
    card = design_power(
        CATALOGUE, "Firebolt", "active", "damage:2d8 range:16 ruin:2", 3, "Spell", "Flame."
    )
    embed = design_embed(card)
    assert embed.description.splitlines() == [
        "*Flame.*",
        "",
        "Level · Type · Range · AoE · Duration · Special · Effect",
        "**L3** · Active · 16 m · — · Instant · **Ruin(2)** · 2d8 damage",
    ]
    assert embed.fields[-1].value == "Conforms to the SRD."


def test_a_priced_build_lists_the_rules_it_breaks() -> None:
    """A build that breaks an SRD rule is priced without naming the rule and an alternative."""
    embed = price_embed(price(CATALOGUE, "special_aura:3", "active", 5))
    assert_within_limits(embed)
    broken = next(f.value for f in embed.fields if f.name == "SRD rules broken")
    assert broken.startswith(
        "**Passive Special Aura** — special\\_aura belongs to Passive, not Active"
    )
    assert "Instead: make it a Passive" in broken
    assert "**Breaks 1 SRD rule** (below)." in embed.description


def test_a_disagreeing_band_names_the_deciding_rule() -> None:
    """±5 PP and ±10 % disagreeing give two verdicts instead of one naming its rule."""
    embed = price_embed(price(CATALOGUE, "damage:2d8 push:2", "active", 1))  # 34 of 30: +13.3 %
    lines = embed.description.splitlines()
    assert lines[0] == "**On curve** for Active Level 1: 34 PP against 30 PP (+13.3 %)."
    assert lines[1] == (
        "§10.3 decides: within ±5 PP is on curve, although +13.3 % is outside §0.2's ±10 % design band."
    )
