"""The SRD's own tables and worked examples come out of the catalogue and formulas cell by cell."""

from __future__ import annotations

import json
import math
import re
import shutil
from pathlib import Path

import pytest

from bot.catalogue.lookup import Lookup
from bot.catalogue.models import DATA_DIR, Catalogue, CatalogueError, load_catalogue
from bot.catalogue.pricing import (
    CostedStep,
    axis_value,
    costed_progression,
    curve_target,
    diminishing_cost,
    diminishing_lookup,
    highest_x_on_curve,
    movement_progression,
    passive_slots,
    power_tokens,
    special_cost,
    special_cost_table,
    special_curve_reference,
    summon_breakdown,
    summon_power_level_cap,
    wall_cost,
)
from bot.catalogue.reference import spell_tiers
from bot.catalogue.srd_source import SrdText
from bot.catalogue.views import entry_view
from tests.unit.catalogue import srd

CELLS = [(x, start) for x in srd.DIMINISHING_LOOKUP for start in srd.DIMINISHING_START_PP]


@pytest.mark.parametrize(("x", "start_pp"), CELLS)
def test_diminishing_lookup_cell(catalogue: Catalogue, x: int, start_pp: int) -> None:
    """A cell of the Diminishing PP Lookup Table differs from Start PP × T(X) or the catalogue's table."""
    expected = srd.DIMINISHING_LOOKUP[x][srd.DIMINISHING_START_PP.index(start_pp)]
    assert diminishing_cost(start_pp, x) == expected
    assert diminishing_lookup(catalogue)[start_pp][x - 1] == expected


@pytest.mark.parametrize("start_pp", srd.DIMINISHING_START_PP)
def test_every_lookup_column_is_used_by_a_special(catalogue: Catalogue, start_pp: int) -> None:
    """A Start PP column of the look-up table belongs to no Diminishing Special in the catalogue."""
    assert start_pp in diminishing_lookup(catalogue)


@pytest.mark.parametrize("key", ["weaken", "soulburn"])
@pytest.mark.parametrize("x", list(srd.WEAKEN_SOULBURN))
def test_weaken_soulburn_cost_table(catalogue: Catalogue, key: str, x: int) -> None:
    """Weaken / Soulburn at X does not cost what the SRD's cost table says."""
    special = catalogue.special(key)
    assert special_cost(special, x).cost_pp == srd.WEAKEN_SOULBURN[x]
    table = {cost.x: cost.cost_pp for cost in special_cost_table(special)}
    assert table[x] == srd.WEAKEN_SOULBURN[x]


@pytest.mark.parametrize("key", ["weaken", "soulburn"])
@pytest.mark.parametrize("row", srd.ACTIVE_CURVE_REFERENCE, ids=lambda row: f"L{row[0]}")
def test_start_pp_8_active_curve_reference(
    catalogue: Catalogue, key: str, row: tuple[int, int, int, int, int]
) -> None:
    """A row of the Start PP 8 Active-Curve Reference (target, highest X, cost, unused) differs."""
    level, target, x, cost, unused = row
    rebuilt = special_curve_reference(catalogue, catalogue.special(key))[level - 1]
    assert (rebuilt.level, rebuilt.target_pp, rebuilt.x, rebuilt.cost_pp, rebuilt.unused_pp) == (
        level,
        target,
        x,
        cost,
        unused,
    )


@pytest.mark.parametrize("type_key", list(srd.CURVES))
@pytest.mark.parametrize("level", range(1, 17))
def test_power_curve_cell(catalogue: Catalogue, type_key: str, level: int) -> None:
    """A power curve's target at a level differs from the SRD's full progression."""
    expected = srd.CURVES[type_key][level - 1]
    assert curve_target(catalogue, type_key, level).target_pp == expected
    assert catalogue.power_type(type_key).curve()[level - 1] == expected


@pytest.mark.parametrize("type_key", list(srd.CURVES))
def test_power_curve_steps(catalogue: Catalogue, type_key: str) -> None:
    """A power type's per-level step differs from the Linear Continuation Rule."""
    power_type = catalogue.power_type(type_key)
    assert power_type.per_level_pp == srd.PER_LEVEL[type_key]
    assert power_type.base_curve == srd.CURVES[type_key][:4]


def test_movement_has_no_curve(catalogue: Catalogue) -> None:
    """Movement has a PP curve, though the SRD prices it by quality and caps."""
    assert catalogue.power_type("movement").curve() is None


MOVEMENT_ROWS = [(key, label) for key, rows in srd.MOVEMENT.items() for label in rows]


@pytest.mark.parametrize(("key", "label"), MOVEMENT_ROWS)
def test_movement_progression_row(catalogue: Catalogue, key: str, label: str) -> None:
    """A movement progression row differs from the SRD's Movement Distance Progressions."""
    progression = movement_progression(catalogue, key)
    rows = {row.label: row.cells for row in progression.rows}
    assert rows[label] == srd.MOVEMENT[key][label]


@pytest.mark.parametrize("key", list(srd.MOVEMENT))
def test_movement_cap(catalogue: Catalogue, key: str) -> None:
    """A movement type's Level 16 cap differs from the pricing-and-caps table."""
    assert movement_progression(catalogue, key).cap == srd.MOVEMENT_CAPS[key]


def test_the_ten_movement_types(catalogue: Catalogue) -> None:
    """The catalogue does not hold exactly the ten canonical movement types."""
    assert {t.key for t in catalogue.movement.types} == set(srd.MOVEMENT)


def entry_progression(catalogue: Catalogue, kind: str, key: str) -> tuple[CostedStep, ...]:
    """Return an entry's costed level table as /power shows it (views.py prices it the same)."""
    levels = catalogue.entry(kind, key).levels
    assert levels is not None and levels.kind == "costed"
    return costed_progression(catalogue, levels.table, levels.curve, levels.base_pp, levels.values)


@pytest.mark.parametrize("row", srd.SPECIAL_AURA, ids=lambda row: f"L{row[0]}")
def test_special_aura_progression(
    catalogue: Catalogue, row: tuple[int, int | None, int, int]
) -> None:
    """A level of the Passive Special Aura progression (radius, 80 + radius cost, target) differs."""
    level, radius, pp, target = row
    step = entry_progression(catalogue, "passive", "special_aura")[level - 1]
    assert (step.value, step.cost_pp, step.target_pp) == (radius, pp, target)
    if radius is not None:
        core = catalogue.tables.constants.special_aura_core_pp
        assert core + srd.SPECIAL_AURA_RADIUS[radius] == pp
        assert pp <= target


def test_special_aura_radius_costs(catalogue: Catalogue) -> None:
    """The Special Aura radius-cost table differs from the SRD's."""
    table = catalogue.cost_table("special_aura_radius")
    assert {row.value: row.pp for row in table.rows} == srd.SPECIAL_AURA_RADIUS
    assert catalogue.tables.constants.special_aura_core_pp == 80


def test_bark_barricade(catalogue: Catalogue) -> None:
    """The Bark Barricade worked example does not come to 40 PP component by component."""
    cost = wall_cost(
        catalogue, length_m=6, height_m=2, thickness_m=0.5, blocks_sight=True, resilience=False
    )
    assert tuple((part.label, part.pp) for part in cost.components) == srd.BARK_BARRICADE
    assert cost.total_pp == 40
    example = next(e for e in catalogue.tables.wall_examples if e.key == "bark_barricade")
    assert tuple((c.label, c.pp) for c in example.components) == srd.BARK_BARRICADE


def test_stone_rampart(catalogue: Catalogue) -> None:
    """The Stone Rampart worked example does not come to 70 PP component by component."""
    cost = wall_cost(
        catalogue, length_m=8, height_m=4, thickness_m=1, blocks_sight=True, resilience=True
    )
    assert tuple((part.label, part.pp) for part in cost.components) == srd.STONE_RAMPART
    assert cost.total_pp == 70
    example = next(e for e in catalogue.tables.wall_examples if e.key == "stone_rampart")
    assert example.total_pp == 70


@pytest.mark.parametrize("key", list(srd.SUMMONS))
def test_summon_example_tokens(catalogue: Catalogue, key: str) -> None:
    """A Summon example's purchases, total or available tokens differ from the SRD's example."""
    quoted = srd.SUMMONS[key]
    example = next(e for e in catalogue.summons.examples if e.key == key)
    breakdown = summon_breakdown(catalogue, example)
    assert breakdown.lines == quoted["lines"]
    assert breakdown.total_tokens == quoted["total"] == example.total_tokens
    assert breakdown.available_tokens == 8 * quoted["stones"] == breakdown.total_tokens


@pytest.mark.parametrize("key", list(srd.SUMMONS))
def test_summon_example_finished_stats(catalogue: Catalogue, key: str) -> None:
    """A finished Summon example's stats do not follow from the base Summon and its purchases."""
    example = next(e for e in catalogue.summons.examples if e.key == key)
    stats = summon_breakdown(catalogue, example).stats
    for field, value in srd.SUMMONS[key]["finished"].items():
        assert getattr(stats, field) == value, field
    assert stats == example.finished


def test_war_bear_challenge_value(catalogue: Catalogue) -> None:
    """The Great War Bear's Special Access plus Special Value +2 is not Challenge(3)."""
    example = next(e for e in catalogue.summons.examples if e.key == "great_war_bear")
    assert summon_breakdown(catalogue, example).stats.special == "Challenge(3)"
    assert example.finished.special == "Challenge(3)"


@pytest.mark.parametrize(("type_key", "per_level"), list(srd.SUMMON_POWER_TOKENS.items()))
@pytest.mark.parametrize("level", range(1, 17))
def test_summon_power_tokens_match_the_curve(
    catalogue: Catalogue, type_key: str, per_level: tuple[int, int], level: int
) -> None:
    """A Summon Power's token cost differs from its reference row or from its curve PP ÷ 10."""
    tokens = power_tokens(catalogue, type_key, level)
    assert tokens == per_level[0] * level + per_level[1]
    assert tokens == math.ceil(curve_target(catalogue, type_key, level).target_pp / 10)


@pytest.mark.parametrize(("rank", "cap"), list(srd.SUMMON_LEVEL_CAPS.items()))
def test_summon_power_level_cap(catalogue: Catalogue, rank: int, cap: int) -> None:
    """The highest Summon Power Level at a Mastery Rank differs from the SRD."""
    assert summon_power_level_cap(catalogue, rank) == cap


TABLES = {
    "instant_attack_aoe": srd.INSTANT_ATTACK_AOE,
    "range": srd.RANGE,
    "melee_reach": srd.MELEE_REACH,
    "aoe_radius": srd.AOE_RADIUS,
    "aura_passive_radius": srd.AURA_PASSIVE_RADIUS,
    "push_pull_control": srd.PUSH_PULL_CONTROL,
    "barrier_hp": srd.BARRIER_HP,
    "passive_dr": srd.PASSIVE_DR,
    "buff_dr": srd.BUFF_DR,
    "reaction_dr": srd.REACTION_DR,
    "passive_phasing": srd.PASSIVE_PHASING,
}


@pytest.mark.parametrize("key", list(TABLES))
def test_numeric_cost_table(catalogue: Catalogue, key: str) -> None:
    """A cost table's steps differ from the SRD's table."""
    table = catalogue.cost_table(key)
    assert {row.value: row.pp for row in table.rows} == TABLES[key]


@pytest.mark.parametrize(
    ("key", "quoted"),
    [
        ("image_tier", srd.IMAGE_TIER),
        ("image_size", srd.IMAGE_SIZE),
        ("health_bars", srd.HEALTH_BARS),
    ],
)
def test_labelled_cost_table(catalogue: Catalogue, key: str, quoted: dict[str, int]) -> None:
    """A labelled cost table (image tiers and sizes, Health Bars) differs from the SRD."""
    table = catalogue.cost_table(key)
    assert {row.label: row.pp for row in table.rows} == quoted


@pytest.mark.parametrize(("key", "start_pp"), list(srd.START_PP.items()))
def test_start_pp(catalogue: Catalogue, key: str, start_pp: int) -> None:
    """A Special's Start PP differs from the SRD's effect tables."""
    special = catalogue.special(key)
    assert special.pricing == "triangular"
    assert special.start_pp == start_pp


@pytest.mark.parametrize(("key", "pp"), list(srd.FIXED_PP.items()))
def test_fixed_price(catalogue: Catalogue, key: str, pp: int) -> None:
    """A binary Special's fixed price differs from the SRD."""
    special = catalogue.special(key)
    assert special.binary and special.cost() == pp


@pytest.mark.parametrize(("key", "pp"), list(srd.PER_X_PP.items()))
def test_per_x_price(catalogue: Catalogue, key: str, pp: float) -> None:
    """An X-priced Special's PP per X differs from the SRD."""
    assert catalogue.special(key).cost(3) == pp * 3


def test_cleanse_dispel_column(catalogue: Catalogue) -> None:
    """The Cleanse/Dispel 'No' Specials differ from the SRD's tables."""
    applied = {s.key for s in catalogue.specials.specials if s.group not in ("support", "control")}
    no = {key for key in applied if not catalogue.special(key).cleanse}
    assert no - {"critical", "brutal_impact", "penetration", "precision", "push", "pull"} == (
        srd.CLEANSE_DISPEL_NO
    )


@pytest.mark.parametrize(("x", "pp"), list(srd.CLEANSE_EXAMPLES.items()))
def test_cleanse_examples(catalogue: Catalogue, x: int, pp: int) -> None:
    """A Cleanse cost example (4 × T(X)) differs."""
    assert special_cost(catalogue.special("cleanse"), x).cost_pp == pp


def test_root_minimum(catalogue: Catalogue) -> None:
    """Root can be applied below Root(2)."""
    root = catalogue.special("root")
    assert root.min_x == 2
    assert special_cost_table(root)[0].x == 2


def test_template_groups(catalogue: Catalogue) -> None:
    """The §10.15 Special groups differ from the SRD."""
    groups = {g.name: (g.start_pp, set(g.specials)) for g in catalogue.specials.template_groups}
    assert groups == {
        "Blight Group": (3, {"blight"}),
        "Standard Group": (4, {"lacerate", "slow", "ruin", "mark"}),
        "Heavy Group": (6, {"challenge", "corrode", "hex", "sundered", "root"}),
        "Premium Reduction Group": (8, {"disoriented", "expose"}),
        "Pool Reduction Group": (8, {"weaken", "soulburn"}),
    }


def test_reactive_cleanse_is_the_highest_cleanse_on_the_reaction_curve(
    catalogue: Catalogue,
) -> None:
    """Reactive Cleanse's listed progression is not the highest 4 × T(X) within the Reaction curve."""
    entry = catalogue.entry("reaction", "reactive_cleanse")
    assert entry.levels.columns[0].values == srd.REACTIVE_CLEANSE
    rebuilt = tuple(highest_x_on_curve(catalogue, 4, "reaction", L).x for L in range(1, 17))
    assert rebuilt == srd.REACTIVE_CLEANSE


def test_passive_spell_resistance_is_15_pp_per_point(catalogue: Catalogue) -> None:
    """Passive Spell Resistance's progression is not the most 15 PP per point buys on the curve."""
    entry = catalogue.entry("passive", "spell_resistance")
    assert entry.levels.columns[0].values == srd.PASSIVE_SPELL_RESISTANCE
    rate = catalogue.rate("spell_resistance").pp
    rebuilt = tuple(axis_value(catalogue, rate, "passive", L) for L in range(1, 17))
    assert rebuilt == srd.PASSIVE_SPELL_RESISTANCE


@pytest.mark.parametrize(
    ("kind", "key", "values"),
    [
        ("passive", "ward", srd.WARD),
        ("passive", "invisibility", srd.PASSIVE_INVISIBILITY),
    ],
)
def test_listed_progressions(catalogue: Catalogue, kind: str, key: str, values: tuple) -> None:
    """A progression the SRD lists value by value (Ward, Invisibility) differs."""
    assert catalogue.entry(kind, key).levels.columns[0].values == values


@pytest.mark.parametrize(
    ("kind", "key", "milestones"),
    [
        ("active_buff", "damage_reduction", srd.BUFF_DR_MILESTONES),
        ("reaction", "damage_reduction", srd.REACTION_DR_MILESTONES),
    ],
)
def test_dr_milestones_follow_from_costs(
    catalogue: Catalogue, kind: str, key: str, milestones: dict
) -> None:
    """The DR milestone bands do not follow from the DR cost table and the curve."""
    steps = entry_progression(catalogue, kind, key)
    for (first, last), value in milestones.items():
        for level in range(first, last + 1):
            assert steps[level - 1].value == value, level


@pytest.mark.parametrize(("level", "hits"), list(srd.PHASING_CAPS.items()))
def test_passive_phasing_caps(catalogue: Catalogue, level: int, hits: int) -> None:
    """Passive Phasing does not reach 'ignore N hits' at the SRD's level."""
    steps = costed_progression(catalogue, "passive_phasing", "passive")
    assert steps[level - 1].value == hits
    assert steps[level - 2].value != hits


def test_passive_dr_caps(catalogue: Catalogue) -> None:
    """Passive DR exceeds 20 % before Level 8 or 30 % before Level 15."""
    steps = entry_progression(catalogue, "passive", "damage_reduction")
    assert max(step.value or 0 for step in steps[:7]) <= 10
    assert steps[7].value == 20 and steps[14].value == 30


@pytest.mark.parametrize(("hp", "pp"), list(srd.TEMP_HP_START_EXAMPLES.items()))
def test_start_of_combat_temporary_hp(catalogue: Catalogue, hp: int, pp: int) -> None:
    """A start-of-combat Temporary HP example (2 PP per HP) differs."""
    assert catalogue.rate("temp_hp_start").pp * hp == pp


@pytest.mark.parametrize(("hp", "pp"), list(srd.REFRESHING_EXAMPLES.items()))
@pytest.mark.parametrize("rate", ["temp_hp_refresh", "regeneration_hp"])
def test_refreshing_hp_and_regeneration(catalogue: Catalogue, rate: str, hp: int, pp: int) -> None:
    """A refreshing Temporary HP or Regeneration example (4 PP per HP) differs."""
    assert catalogue.rate(rate).pp * hp == pp


@pytest.mark.parametrize(("rank", "slots"), list(srd.PASSIVE_SLOTS.items()))
def test_passive_slots(catalogue: Catalogue, rank: int, slots: int) -> None:
    """Passive Slots at a Mastery Rank differ from the SRD."""
    assert passive_slots(catalogue, rank) == slots


def test_spell_tiers(catalogue: Catalogue) -> None:
    """The Spell Tiers table (/pp reference) differs from Tier = ceil(level / 2), Base TN 8 × Tier."""
    rows = spell_tiers(catalogue).table.rows
    assert {row.levels: (row.cells[0], int(row.cells[1])) for row in rows} == srd.SPELL_TIERS
    assert catalogue.tables.constants.mental_tn_bonus == 4  # Mental Powers: Base TN + 4


# ---------------------------------------------------------------- reachable as entries (issue 19)


def _view(lookup: Lookup, catalogue: Catalogue, query: str, level: int | None = None) -> object:
    found = lookup.match(query)
    assert not found.guessed, query
    return entry_view(catalogue, found.entry, level)


def test_the_active_curve_reference_is_an_entry(lookup: Lookup, catalogue: Catalogue) -> None:
    """The Start PP 8 Active-Curve Reference is not shown row by row as the SRD prints it."""
    view = _view(lookup, catalogue, "Start PP 8 Active-Curve Reference")
    rows = [(int(r.label), *(int(c) for c in r.cells)) for r in view.table.rows]
    assert tuple(tuple(row) for row in rows) == srd.ACTIVE_CURVE_REFERENCE


@pytest.mark.parametrize(
    ("name", "quoted", "total"),
    [("Bark Barricade", srd.BARK_BARRICADE, 40), ("Stone Rampart", srd.STONE_RAMPART, 70)],
)
def test_wall_examples_are_entries(
    lookup: Lookup, catalogue: Catalogue, name: str, quoted: tuple, total: int
) -> None:
    """A wall worked example is not an entry whose table is the SRD's calculation line."""
    view = _view(lookup, catalogue, name)
    rows = [(r.label, float(r.cells[0])) for r in view.table.rows]
    assert rows == [*quoted, ("Total", total)]
    assert any("/pp price components:" in point for point in view.points)


@pytest.mark.parametrize("key", list(srd.SUMMONS))
def test_summon_examples_are_entries(lookup: Lookup, catalogue: Catalogue, key: str) -> None:
    """A Summon example's token breakdown is not shown as the SRD's purchase table."""
    view = _view(lookup, catalogue, f"example:{key}")
    quoted = srd.SUMMONS[key]
    rows = [(r.label, r.cells[0]) for r in view.table.rows]
    expected = [(label, f"{tokens} Tokens") for label, tokens in quoted["lines"]]
    total = quoted["total"]
    assert rows == [*expected, ("Total", f"{total} of {total} Tokens")]
    finished = view.points[0]
    for field, value in quoted["finished"].items():
        shown = {"hp": f"{value} HP", "armor": f"Armor {value}", "evade": f"Evade {value}"}.get(
            field, str(value)
        )
        assert shown in finished, field


def test_the_reaction_triggers_are_defined(lookup: Lookup, catalogue: Catalogue) -> None:
    """The Standard Trigger Catalogue shows names without what each Trigger means."""
    view = _view(lookup, catalogue, "Standard Trigger Catalogue")
    triggers = {row.label: row.cells[0] for row in view.table.rows}
    assert len(triggers) == 9
    assert "once per creature per round" in triggers["Threat Zone Movement Trigger"]
    assert triggers["Hit Trigger"] == "An attack hits you."


@pytest.mark.parametrize("listing", load_catalogue().entries.lists, ids=lambda li: li.kind)
def test_the_catalogue_lists_show_what_they_exclude(
    lookup: Lookup, catalogue: Catalogue, listing: object
) -> None:
    """A §9 catalogue list is not shown with its groups and its 'not part of the catalogue' list."""
    view = _view(lookup, catalogue, listing.name)
    labels = [row.label for row in view.table.rows]
    assert labels[: len(listing.groups)] == [group.name for group in listing.groups]
    if listing.forbidden:
        assert labels[-1] == "Not part of the catalogue"
        assert view.table.rows[-1].cells[0] == "; ".join(listing.forbidden)


def test_the_validation_checklist_is_complete(lookup: Lookup, catalogue: Catalogue) -> None:
    """§11.15's checklist is shown shortened instead of item by item."""
    text = SrdText.load().line("### 11.15 Final Agent Validation")
    items = [item for item in text.split(" - ")[1:] if item.strip()]
    view = _view(lookup, catalogue, "11.15 Final Agent Validation")
    assert len(view.points) == len(items) == 24
    for item, point in zip(items, view.points, strict=True):
        assert numbers_in(item) == numbers_in(point), point


def numbers_in(text: str) -> list[str]:
    return re.findall(r"\d+", text)


@pytest.mark.parametrize(
    ("query", "section"),
    [
        ("Dice Model", "§1 Dice Model"),
        ("Duration Raises", "Duration Raises"),
        ("Round Structure", "Round Structure"),
        ("Combat Senses", "Combat Senses and the Sense Slot"),
        ("Allowed Passive Categories", "Allowed Passive Categories"),
        ("Passive Restrictions and Explicit Exceptions", "Passive Restrictions"),
        ("Movement Pricing Philosophy", "Movement Pricing Philosophy"),
        ("Movement Timing", "Movement Timing"),
        ("Progressive Continuity", "Progressive Continuity"),
        ("Attribute Modification Powers", "Attribute Modification Powers"),
        ("Mental and Spiritual Effects", "Mental and Spiritual Effects"),
        ("Design Summary", "Design Summary"),
        ("Tree Structure", "§6 Tree Design Guidelines"),
        ("Spell List Design Guide", "§7 Spell List Design Guide"),
        ("Summon Skills", "Summon Skills"),
        ("Shared Senses", "Shared Senses"),
        ("Power Action Economy", "Power Action Economy"),
        ("Summon Specials", "Summon Specials"),
        ("Bond Ritual and Destroyed Bodies", "Bond Ritual"),
    ],
)
def test_the_missing_sections_are_reachable(
    lookup: Lookup, catalogue: Catalogue, query: str, section: str
) -> None:
    """A section the issue found unreachable has no entry a look-up of its heading shows."""
    view = _view(lookup, catalogue, query)
    assert section in view.section
    assert view.points


def test_tags_are_the_srds_only(catalogue: Catalogue, tmp_path: Path) -> None:
    """An entry shows a bot-internal label ('Closed subsystem') as an SRD Tag."""
    shown = {tag for entry in catalogue.entries.entries for tag in entry.tags}
    assert shown <= {"Spell", "Charged", "One-Time-Use"}
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data)
    path = data / "catalogue.json"
    raw = json.loads(path.read_text("utf-8"))
    raw["entries"][0]["tags"] = ["Closed subsystem"]
    path.write_text(json.dumps(raw), "utf-8")
    with pytest.raises(CatalogueError, match=r"data/catalogue.json: entries\.0\.tags\.0"):
        load_catalogue(data)
