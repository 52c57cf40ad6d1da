"""The SRD's tables and worked examples as look-up entries of their own, built from the data.

Each builder returns one `ReferenceTable`; `reference_tables` lists them all.
Every figure comes from the catalogue or is computed by `pricing` (the wall and
Summon examples are priced afresh, so a command shows them exactly as the SRD does).
"""

from __future__ import annotations

from collections.abc import Callable

from bot.catalogue.models import (
    MAX_LEVEL,
    Catalogue,
    CatalogueList,
    CostTable,
    Special,
    SummonExample,
    WallExample,
)
from bot.catalogue.pricing import (
    CURVED_TYPES,
    diminishing_lookup,
    format_pp,
    special_curve_reference,
    special_pricing_text,
    summon_breakdown,
    wall_components,
    wall_cost,
)
from bot.catalogue.shapes import (
    KIND_LABELS,
    Fact,
    LevelTableView,
    ReferenceTable,
    TableRow,
    range_label,
)

Builder = Callable[[Catalogue], ReferenceTable]


def _rows(pairs: list[tuple[str, tuple[str, ...]]]) -> tuple[TableRow, ...]:
    return tuple(TableRow(label=label, cells=cells) for label, cells in pairs)


def _level_rows(cells: Callable[[int], tuple[str, ...]]) -> tuple[TableRow, ...]:
    return tuple(
        TableRow(label=str(level), cells=cells(level), levels=(level, level))
        for level in range(1, MAX_LEVEL + 1)
    )


def _tokens(count: int) -> str:
    return f"{count} Token{'s' * (count != 1)}"


def cost_table_view(table: CostTable) -> ReferenceTable:
    """Render one of tables.json's cost tables, with notes and level gates when it has them."""
    with_notes = any(row.note or row.min_level for row in table.rows)
    rows = []
    for row in table.rows:
        cells = [format_pp(row.pp)]
        if with_notes:
            extra = [row.note] if row.note else []
            if row.min_level:
                extra.append(f"Level {row.min_level}+")
            cells.append("; ".join(extra))
        rows.append(TableRow(label=table.label_of(row), cells=tuple(cells)))
    return ReferenceTable(
        key=table.key,
        name=table.name,
        aliases=table.aliases,
        summary=table.summary,
        table=LevelTableView(
            header=table.column,
            columns=("PP", "Notes") if with_notes else ("PP",),
            rows=tuple(rows),
        ),
        section=table.section,
        note=table.note,
    )


# ---------------------------------------------------------------- pricing tables


def general_price_cost(catalogue: Catalogue) -> ReferenceTable:
    """The General Price Cost table."""
    rows = [
        (row.label, (row.pp_text or format_pp(row.pp or 0), row.note))
        for row in catalogue.tables.general_price_cost
    ]
    return ReferenceTable(
        key="general_price_cost",
        name="General Price Cost",
        aliases=("Price List", "Preisliste"),
        summary="The baseline PP prices for the common building blocks of a Power.",
        table=LevelTableView(header="Effect / Modifier", columns=("PP", "Notes"), rows=_rows(rows)),
        section="§3 PP Cost Reference",
    )


def power_curves(catalogue: Catalogue) -> ReferenceTable:
    """Every curve's target PP by level."""
    curves = [catalogue.power_type(key) for key in CURVED_TYPES]
    return ReferenceTable(
        key="power_curves",
        name="Power Curves",
        aliases=("Target Curves", "PP Curves", "Kurven"),
        summary="Target PP by level for every power type with a curve (Movement has none).",
        table=LevelTableView(
            header="Level",
            columns=tuple(t.name for t in curves),
            rows=_level_rows(lambda level: tuple(format_pp(t.target(level) or 0) for t in curves)),
        ),
        section="§2 Power Types & Target Curves; Linear Continuation Rule",
    )


def diminishing_table(catalogue: Catalogue) -> ReferenceTable:
    """Start PP × T(X) for X = 1–10 and every Start PP in use."""
    lookup = diminishing_lookup(catalogue)
    rows = [
        (str(x), tuple(format_pp(costs[x - 1]) for costs in lookup.values())) for x in range(1, 11)
    ]
    return ReferenceTable(
        key="diminishing_lookup",
        name="Diminishing PP Lookup",
        aliases=("Diminishing Table", "T(X)"),
        summary="Start PP × T(X) for X = 1–10, the price of every Diminishing Special.",
        table=LevelTableView(
            header="X",
            columns=tuple(f"Start PP {format_pp(start)}" for start in lookup),
            rows=_rows(rows),
        ),
        section="Diminishing PP Lookup Table",
    )


def active_curve_reference(catalogue: Catalogue) -> ReferenceTable:
    """The Start PP 8 Active-Curve Reference: the highest pure Weaken / Soulburn per level."""
    steps = special_curve_reference(catalogue, catalogue.special("weaken"))
    return ReferenceTable(
        key="active_curve_reference",
        name="Start PP 8 Active-Curve Reference",
        aliases=("Active-Curve Reference", "Weaken Curve Reference", "Soulburn Curve Reference"),
        summary="The highest pure Weaken or Soulburn X that fits the Active curve at each level, "
        "before Range, Damage, AoE, duration or any other rider.",
        table=LevelTableView(
            header="Level",
            columns=("Active Target PP", "Highest X", "Special Cost", "Unused PP"),
            rows=_level_rows(
                lambda level: (
                    format_pp(steps[level - 1].target_pp),
                    str(steps[level - 1].x),
                    format_pp(steps[level - 1].cost_pp),
                    format_pp(steps[level - 1].unused_pp),
                )
            ),
            note="A pricing reference, not a mandatory progression: a template that also pays "
            "for range, damage or area uses a lower X.",
        ),
        section="Start PP 8 Active-Curve Reference",
    )


def _special_group(catalogue: Catalogue, group: str, key: str, name: str) -> ReferenceTable:
    found = next(g for g in catalogue.specials.groups if g.key == group)
    specials: list[Special] = [s for s in catalogue.specials.specials if s.group == group]
    rows = [
        (
            f"{s.name}(X)" if s.takes_x else s.name,
            (special_pricing_text(s), s.x_meaning, "Yes" if s.cleanse else "No"),
        )
        for s in specials
    ]
    return ReferenceTable(
        key=key,
        name=name,
        aliases=(found.section,),
        summary=found.summary,
        table=LevelTableView(
            header="Effect", columns=("PP", "X", "Cleanse/Dispel"), rows=_rows(rows)
        ),
        section=found.section,
    )


SPECIAL_GROUP_TABLES = (
    ("diminishing", "diminishing_effects", "Diminishing Effects"),
    ("timed", "timed_effects", "Timed Effects"),
    ("until_broken", "until_broken_effects", "Until Broken / Until Used Effects"),
    ("instant", "instant_effects", "Instant Effects"),
    ("support", "support_effects", "Support / Removal Effects"),
)


def template_groups(catalogue: Catalogue) -> ReferenceTable:
    """§10.15: the Special groups Active templates are built around."""
    names = {s.key: s.name for s in catalogue.specials.specials}
    rows = [
        (g.name, (f"Start PP {format_pp(g.start_pp)}", ", ".join(names[k] for k in g.specials)))
        for g in catalogue.specials.template_groups
    ]
    return ReferenceTable(
        key="template_groups",
        name="Standard Special Groups",
        aliases=("Special Groups for Active Templates", "Template Groups"),
        summary="The Start PP groups Active templates are built around; Start PP 8 Specials "
        "need their own templates.",
        table=LevelTableView(header="Group", columns=("Cost basis", "Specials"), rows=_rows(rows)),
        section="§10.15 Standard Special Groups for Active Templates",
    )


def _rate_rows(catalogue: Catalogue, keys: tuple[str, ...]) -> list[tuple[str, tuple[str, ...]]]:
    rates = [catalogue.rate(key) for key in keys]
    return [(rate.name, (f"{format_pp(rate.pp)} PP", rate.per)) for rate in rates]


def hp_pricing(catalogue: Catalogue) -> ReferenceTable:
    """Healing, Temporary HP by context, and Regeneration: four different prices."""
    keys = ("healing_d8", "temp_hp_start", "temp_hp_refresh", "regeneration_hp")
    return ReferenceTable(
        key="hp_pricing",
        name="Temporary HP, Refreshing HP & Regeneration",
        aliases=("HP Pricing", "Temporary HP Pricing", "Refreshing Temporary HP"),
        summary="Healing, Temporary HP and Regeneration are priced by when the HP comes and "
        "whether it comes back during the fight.",
        table=LevelTableView(
            header="Effect", columns=("PP", "per"), rows=_rows(_rate_rows(catalogue, keys))
        ),
        points=(
            "The start-of-combat price holds only for Temporary HP granted once, at combat start, "
            "that the same effect cannot restore in that fight.",
            "Anything regained, refreshed or rebuilt during combat uses the in-combat price; "
            "Regeneration per round costs the same.",
            "Start-of-combat Temporary HP suits low-pressure defensive Passives; refreshing "
            "Temporary HP premium shield Passives or Buffs; Regeneration sustain defences.",
            "Regeneration(X) as a Diminishing Special is priced Start PP × T(X) instead.",
        ),
        section="Temporary HP, Refreshing HP & Regeneration Pricing",
    )


def conditional_passive_costs(catalogue: Catalogue) -> ReferenceTable:
    """The unconditional (× 2) and conditional prices of the Passive categories."""
    keys = ("passive_damage_d6", "passive_armor", "passive_evade", "passive_healing")
    rows = []
    for rate in (catalogue.rate(key) for key in keys):
        conditional = format_pp(rate.conditional_pp or 0)
        rows.append(
            (rate.name.removeprefix("Passive "), (format_pp(rate.pp), conditional, rate.per))
        )
    return ReferenceTable(
        key="conditional_passive_costs",
        name="Conditional Passive Categories",
        aliases=("Passive Costs", "Conditional Passive Costs"),
        summary="A Passive that always works costs twice the baseline; one that needs a real "
        "combat condition costs the baseline.",
        table=LevelTableView(
            header="Category",
            columns=("Unconditional PP", "Conditional PP", "per"),
            rows=_rows(rows),
        ),
        section="Conditional Passive Categories",
    )


def half_budget_costs(catalogue: Catalogue) -> ReferenceTable:
    """The axis prices of a Conditional Combined Passive."""
    keys = ("half_armor", "half_evade", "half_damage_d6", "half_healing", "half_temp_hp")
    return ReferenceTable(
        key="half_budget_costs",
        name="Conditional Combined Half-Budget Costs",
        aliases=("Half-Budget Costs",),
        summary="What each axis of a Conditional Combined Passive costs; both axes share the "
        "Passive curve's budget.",
        table=LevelTableView(
            header="Axis", columns=("PP", "per"), rows=_rows(_rate_rows(catalogue, keys))
        ),
        points=(
            "Health Half: the milestone structural Health progression; no Healthy bar in "
            "Combined Passives.",
        ),
        section="Conditional Combined Half-Budget Costs",
    )


def spell_tiers(catalogue: Catalogue) -> ReferenceTable:
    """Spell level → tier → Base TN."""
    rows = tuple(
        TableRow(
            label=range_label(*tier.levels),
            cells=(tier.tier, str(tier.base_tn)),
            levels=tier.levels,
        )
        for tier in catalogue.tables.spell_tiers
    )
    return ReferenceTable(
        key="spell_tiers",
        name="Spell Tiers",
        aliases=("Base TN", "Spell TN", "Zauberstufen"),
        summary="Spell Tier = Level ÷ 2 rounded up; Base TN = 8 × Tier.",
        table=LevelTableView(header="Spell Level", columns=("Tier", "Base TN"), rows=rows),
        section="§7 Spellcasting – Core Rules",
    )


def passive_slots(catalogue: Catalogue) -> ReferenceTable:
    """Passive Slots by Mastery Rank."""
    rows = [(str(row.mastery_rank), (str(row.slots),)) for row in catalogue.tables.passive_slots]
    return ReferenceTable(
        key="passive_slots",
        name="Passive Slots",
        aliases=("Passive Slots by Mastery Rank",),
        summary="How many Passives a character may slot at each Mastery Rank.",
        table=LevelTableView(header="MR", columns=("Passive Slots",), rows=_rows(rows)),
        section="Passive Loadout Rules",
    )


def condition_discounts(catalogue: Catalogue) -> ReferenceTable:
    """§5's multipliers for real, limiting conditions."""
    rows = [
        (d.name, (f"× {d.multiplier:g}", d.definition, d.example))
        for d in catalogue.tables.discounts
    ]
    return ReferenceTable(
        key="condition_discounts",
        name="Condition Discounts",
        aliases=("Discounts", "Conditional Modifiers", "Disadvantages"),
        summary="Multipliers applied after the base PP for real, limiting conditions or "
        "permanent weaknesses.",
        table=LevelTableView(
            header="Type", columns=("Multiplier", "Definition", "Example"), rows=_rows(rows)
        ),
        points=(
            "Apply the discount only after the base PP is calculated.",
            "In /pp price: discount:minor, dual_minor, synergy or complex.",
        ),
        section="§5 Conditional Modifiers & Discounts",
    )


def reaction_triggers(catalogue: Catalogue) -> ReferenceTable:
    """The Standard Trigger Catalogue with each Trigger's definition."""
    rows = [(t.name, (t.summary,)) for t in catalogue.tables.reaction_triggers]
    return ReferenceTable(
        key="reaction_triggers",
        name="Reaction Triggers",
        aliases=("Standard Trigger Catalogue", "Triggers", "Auslöser"),
        summary="The Triggers a Reaction chooses from when it is learned; the choice is part of "
        "the Reaction.",
        table=LevelTableView(header="Trigger", columns=("When",), rows=_rows(rows)),
        section="Standard Trigger Catalogue",
    )


# ---------------------------------------------------------------- walls


def wall_construction(catalogue: Catalogue) -> ReferenceTable:
    """The wall and terrain-construct rates, as read off the SRD's two worked examples."""
    walls = catalogue.tables.walls
    rows = [
        ("Placement", (f"{format_pp(walls.placement_pp)} PP", "once per wall")),
        (
            "Length",
            (
                f"{format_pp(walls.length_pp_per_step)} PP",
                f"per {walls.length_step_m:g} m beyond {walls.length_base_m:g} m",
            ),
        ),
        (
            "Height",
            (
                f"{format_pp(walls.height_pp_per_step)} PP",
                f"per {walls.height_step_m:g} m beyond {walls.height_base_m:g} m",
            ),
        ),
        (
            "Thickness",
            (
                f"{format_pp(walls.thickness_pp_per_step)} PP",
                f"per {walls.thickness_step_m:g} m beyond {walls.thickness_base_m:g} m",
            ),
        ),
        ("Line of Sight", (f"{format_pp(walls.line_of_sight_pp)} PP", "the wall blocks sight")),
        (
            "Duration",
            (f"{format_pp(walls.duration_mastery_rank_rounds_pp)} PP", "Mastery Rank rounds"),
        ),
        (
            "Resilience",
            (
                f"{format_pp(walls.resilience_pp_per_segment)} PP",
                f"per {walls.segment_length_m:g} m segment: {walls.resilience_gain}",
            ),
        ),
    ]
    return ReferenceTable(
        key="wall_construction",
        name="Wall Construction Costs",
        aliases=(
            "Terrain Constructs",
            "Wall Costs",
            "Walls",
            "Barriers / Walls (Terrain Constructs)",
        ),
        summary="A constructed wall pays for Placement, Length, Height, Thickness, Line of Sight, "
        "Duration and Resilience.",
        table=LevelTableView(header="Component", columns=("PP", "per"), rows=_rows(rows)),
        points=(
            "Price a wall with /pp price: wall:LENGTHxHEIGHTxTHICKNESS (metres) includes Placement, "
            "size and Duration; add los if it blocks sight and resilience for sturdier segments.",
            "Examples: Bark Barricade (wall:6x2x0.5 los) and Stone Rampart (wall:8x4x1 los resilience).",
        ),
        section=walls.section,
        note=walls.note,
    )


def wall_example(catalogue: Catalogue, example: WallExample) -> ReferenceTable:
    """A worked wall example, priced afresh from the construction rates."""
    priced = wall_cost(
        catalogue,
        length_m=example.length_m,
        height_m=example.height_m,
        thickness_m=example.thickness_m,
        blocks_sight=example.blocks_sight,
        resilience=example.resilience,
    )
    rows = [(part.label, (format_pp(part.pp), part.rule)) for part in priced.components]
    rows.append(("Total", (format_pp(priced.total_pp), f"≈ Level {example.level} Utility")))
    size = f"{example.length_m:g} m × {example.height_m:g} m × {example.thickness_m:g} m"
    return ReferenceTable(
        key=example.key,
        kind="example",
        name=example.name,
        summary=example.summary,
        table=LevelTableView(header="Component", columns=("PP", "Rule"), rows=_rows(rows)),
        facts=(
            Fact(label="Size", value=size),
            Fact(
                label="Level", value=f"{example.level} (Utility ≈ {format_pp(example.total_pp)} PP)"
            ),
        ),
        points=(
            f'/pp price components:"{wall_components(example)}" gives the same {format_pp(priced.total_pp)} PP.',
        ),
        section="Barriers / Walls (Terrain Constructs); Worked Examples",
        note="A worked example, not a curve check: the SRD rates it by level, not against a curve.",
    )


# ---------------------------------------------------------------- summons


def summon_example(catalogue: Catalogue, example: SummonExample) -> ReferenceTable:
    """A worked Summon example: each purchase priced from the token table, and the result."""
    priced = summon_breakdown(catalogue, example)
    rows = [(label, (_tokens(tokens),)) for label, tokens in priced.lines]
    rows.append(("Total", (f"{priced.total_tokens} of {_tokens(priced.available_tokens)}",)))
    stats = priced.stats
    finished = [
        f"{stats.hp} HP",
        f"Armor {stats.armor}",
        f"Evade {stats.evade}",
        f"Attack {stats.attack_d8}d8",
        f"Damage {stats.damage_d8}d8",
        f"{stats.movement_m} m {example.movement_mode}",
        f"{stats.attacks} Summon Attack{'s' * (stats.attacks > 1)}",
    ]
    if stats.bodies > 1:
        finished.insert(0, f"{stats.bodies} Bodies")
    if stats.special:
        finished.append(f"{stats.special}, once per round")
    return ReferenceTable(
        key=example.key,
        kind="example",
        name=example.name,
        summary=example.summary,
        table=LevelTableView(header="Purchase", columns=("Cost",), rows=_rows(rows)),
        facts=(
            Fact(label="Bound Stones", value=str(example.bound_stones)),
            Fact(label="Summon Tokens", value=str(priced.available_tokens)),
            Fact(label="Movement Mode", value=example.movement_mode),
        ),
        points=("Finished: " + ", ".join(finished) + ".",),
        section="§11.14 Summon Examples",
        note="Built from the Universal Base Summon and the Summon Token table, like every Summon.",
    )


def summon_tokens(catalogue: Catalogue) -> ReferenceTable:
    """What Summon Tokens buy, by scope, with each upgrade's limit."""
    summons = catalogue.summons
    rows = [
        (u.name, (u.scope, _tokens(u.tokens), f"+{u.gain} {u.unit}", u.limit or "—"))
        for u in summons.upgrades
    ]
    rows.append(
        ("Canonical Power", ("Body", "1 Token per 10 PP", "rounded up", "level cap by owner's MR"))
    )
    return ReferenceTable(
        key="summon_tokens",
        name="Summon Token Costs",
        aliases=("Summon Upgrades", "Upgrade Limits", "Upgrade Scope", "Beschwörungskosten"),
        summary=f"What Summon Tokens buy; every Bound Stone gives {summons.tokens_per_bound_stone} "
        "Tokens. Bond upgrades apply to every Body, Body upgrades to one.",
        table=LevelTableView(
            header="Upgrade", columns=("Scope", "Cost", "Gain", "Limit"), rows=_rows(rows)
        ),
        section=summons.section,
    )


def universal_base_summon(catalogue: Catalogue) -> ReferenceTable:
    """The one base every Summon starts from."""
    base = catalogue.summons.base
    rows = [
        ("HP", (str(base.hp),)),
        ("Armor", (str(base.armor),)),
        ("Evade", (str(base.evade),)),
        ("Attack", (f"{base.attack_d8}d8",)),
        ("Damage", (f"{base.damage_d8}d8",)),
        ("Movement", (f"{base.movement_m} m in one chosen Movement Mode",)),
        ("Attacks", (f"{base.attacks} Summon Attack",)),
        ("Specials", ("none",)),
        ("Shared Senses", ("none",)),
        ("Bodies", (f"{base.bodies} Summon Body",)),
    ]
    return ReferenceTable(
        key="universal_base_summon",
        name="Universal Base Summon",
        aliases=("Base Summon",),
        summary="Every Summon starts here; its Tokens make it a guardian, an attacker, a scout "
        "or a swarm.",
        table=LevelTableView(header="Stat", columns=("Starting value",), rows=_rows(rows)),
        section="§11.14 Universal Base Summon",
    )


def summon_power_costs(catalogue: Catalogue) -> ReferenceTable:
    """What a canonical Power costs a Summon, by type."""
    rows = []
    for cost in catalogue.summons.power_token_costs:
        if cost.tokens_per_level is None:
            text = cost.note or "written PP ÷ 10, rounded up"
        else:
            text = f"{_tokens(cost.tokens_per_level)} per Power Level"
            text += f" + {_tokens(cost.extra_tokens)}" if cost.extra_tokens else ""
        rows.append((KIND_LABELS.get(cost.type, cost.type), (text,)))
    return ReferenceTable(
        key="summon_power_costs",
        name="Summon Power Costs",
        aliases=("Purchasing Canonical Powers", "Standard Power Cost Reference"),
        summary="A Summon buys complete canonical Powers at 1 Token per 10 PP of the chosen level, "
        "rounded up; no Summon-only miniature Powers.",
        table=LevelTableView(header="Power Type", columns=("Summon Token Cost",), rows=_rows(rows)),
        points=(
            "The Power keeps its type, requirements, range, duration, trigger, effect and action "
            "economy; it belongs to one Body, which must meet its requirements.",
            "A Summon has no Attributes: Attack and Spell Rolls use the Bond's Attack pool; a "
            "Power needing something the Summon lacks cannot be bought.",
        ),
        section="§11.14 Purchasing Canonical Powers",
    )


def summon_power_caps(catalogue: Catalogue) -> ReferenceTable:
    """The highest Power Level a Summon may buy."""
    rows = []
    for row in catalogue.summons.power_level_caps:
        first, last = row.mastery_ranks
        label = f"{first}+" if last >= 99 else range_label(first, last)
        rows.append((label, (str(row.max_level),)))
    return ReferenceTable(
        key="summon_power_caps",
        name="Summon Power Level Cap",
        aliases=("Power Level Cap",),
        summary="The highest Power Level a Summon may buy by its owner's Mastery Rank.",
        table=LevelTableView(header="Owner's MR", columns=("Max Power Level",), rows=_rows(rows)),
        section="§11.14 Power Level Cap",
    )


# ---------------------------------------------------------------- the §9 catalogue lists


LIST_KEYS = {
    "active_buff": "active_buff_catalogue",
    "reaction": "reaction_catalogue",
    "passive": "passive_catalogue",
    "movement": "movement_catalogue",
    "active": "active_catalogue",
}


def catalogue_list(catalogue: Catalogue, listing: CatalogueList) -> ReferenceTable:
    """A §9 catalogue list: its groups of entries and what is not part of the catalogue."""
    names = {(e.kind, e.key): e.name for e in catalogue.entries.entries}
    names |= {("movement", t.key): t.name for t in catalogue.movement.types}
    rows = [
        (group.name, (", ".join(names[(listing.kind, key)] for key in group.entries),))
        for group in listing.groups
    ]
    if listing.forbidden:
        rows.append(("Not part of the catalogue", ("; ".join(listing.forbidden),)))
    label = KIND_LABELS[listing.kind]
    return ReferenceTable(
        key=LIST_KEYS[listing.kind],
        name=listing.name,
        aliases=(f"{label} List", f"{label} Catalogue List"),
        summary=f"Every approved {label} entry of the catalogue, by group"
        + (", and what the SRD keeps out of it." if listing.forbidden else "."),
        table=LevelTableView(header="Group", columns=("Entries",), rows=_rows(rows)),
        section=f"{listing.section} Canonical Catalogue Governance",
    )


def movement_types(catalogue: Catalogue) -> ReferenceTable:
    """The ten Movement types: pricing logic, caps and path notes."""
    rows = [(t.name, (t.pricing_logic, t.cap, t.path_notes)) for t in catalogue.movement.types]
    return ReferenceTable(
        key="movement_types",
        name="Movement Types",
        aliases=("Movement Caps", "Movement Type Pricing and Caps"),
        summary="The ten canonical Movement types: pricing logic and Level 16 caps.",
        table=LevelTableView(header="Type", columns=("Pricing", "Cap", "Path"), rows=_rows(rows)),
        section=catalogue.movement.section,
    )


BUILDERS: tuple[Builder, ...] = (
    general_price_cost,
    power_curves,
    diminishing_table,
    active_curve_reference,
    template_groups,
    hp_pricing,
    conditional_passive_costs,
    half_budget_costs,
    spell_tiers,
    passive_slots,
    condition_discounts,
    reaction_triggers,
    wall_construction,
    summon_tokens,
    universal_base_summon,
    summon_power_costs,
    summon_power_caps,
    movement_types,
)


def reference_tables(catalogue: Catalogue) -> tuple[ReferenceTable, ...]:
    """Return the SRD's look-up tables and worked examples as entries of their own."""
    views = [cost_table_view(table) for table in catalogue.tables.cost_tables]
    views += [build(catalogue) for build in BUILDERS]
    views += [_special_group(catalogue, *row) for row in SPECIAL_GROUP_TABLES]
    views += [catalogue_list(catalogue, listing) for listing in catalogue.entries.lists]
    views += [wall_example(catalogue, example) for example in catalogue.tables.wall_examples]
    views += [summon_example(catalogue, example) for example in catalogue.summons.examples]
    return tuple(views)
