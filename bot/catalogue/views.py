"""What `/power` and `/special` show: entries turned into plain view data.

Every look-up target is an `Entry`: a catalogue entry, a Special, a movement type,
a power type or a reference table. `entry_view` renders any of them with its
level table; the cog only turns the result into an embed.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from bot.catalogue.models import (
    MAX_LEVEL,
    AxisLevels,
    BandLevels,
    Catalogue,
    CatalogueEntry,
    CostedLevels,
    CostTable,
    LevelSpec,
    MovementType,
    PerLevelLevels,
    PowerType,
    SequenceLevels,
    Special,
)
from bot.catalogue.pricing import (
    CURVED_TYPES,
    axis_value,
    check_level,
    costed_progression,
    curve_target,
    diminishing_lookup,
    format_pp,
    special_cost_table,
)

KIND_LABELS = {
    "special": "Special",
    "movement": "Movement",
    "active": "Active",
    "active_buff": "Active Buff",
    "reaction": "Reaction",
    "passive": "Passive",
    "power_type": "Power Type",
    "rule": "Rule",
    "table": "Table",
}
YES_NO = {True: "Yes", False: "No"}


class View(BaseModel):
    """Base for views: immutable data the cog renders."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class TableRow(View):
    """One row of a rendered table; `levels` is the level range it covers (if any)."""

    label: str
    cells: tuple[str, ...]
    levels: tuple[int, int] | None = None


class LevelTableView(View):
    """A table ready for an embed: a header for the first column, the other columns, rows."""

    header: str
    columns: tuple[str, ...]
    rows: tuple[TableRow, ...]
    note: str | None = None

    def pages(self, rows_per_page: int = 8) -> tuple[LevelTableView, ...]:
        """Split the table into pages of at most `rows_per_page` rows."""
        size = max(1, rows_per_page)
        chunks = [self.rows[i : i + size] for i in range(0, len(self.rows), size)] or [()]
        return tuple(self.model_copy(update={"rows": chunk}) for chunk in chunks)


class ReferenceTable(View):
    """A look-up table shown as an entry (Range, Instant Attack AoE, Spell Tiers…)."""

    key: str
    name: str
    aliases: tuple[str, ...] = ()
    summary: str
    table: LevelTableView
    section: str
    note: str | None = None

    @property
    def kind(self) -> str:
        return "table"


Entry = CatalogueEntry | Special | MovementType | PowerType | ReferenceTable


class Fact(View):
    """A labelled line of an entry: 'Start PP: 4', 'Cleanse/Dispel: Yes'."""

    label: str
    value: str


class PowerEntryView(View):
    """Everything `/power` or `/special` shows about one entry."""

    id: str
    kind: str
    kind_label: str
    name: str
    display_name: str
    category: str | None
    tags: tuple[str, ...]
    summary: str
    pricing: str | None
    facts: tuple[Fact, ...]
    points: tuple[str, ...]
    table: LevelTableView | None
    level: int | None
    section: str
    note: str | None
    see_also: tuple[str, ...] = ()

    def table_pages(self, rows_per_page: int = 8) -> tuple[LevelTableView, ...]:
        """Return the level table in pages (none when the entry has no table)."""
        return self.table.pages(rows_per_page) if self.table else ()


def entry_id(entry: Entry) -> str:
    """Return the stable id of an entry: 'movement:teleport', 'special:ruin'."""
    return f"{entry.kind}:{entry.key}"


def display_name(entry: Entry) -> str:
    """Return the name shown in lists: 'Movement: Teleport', 'Ruin(X)', 'Reaction: Armor'."""
    if isinstance(entry, Special):
        return f"{entry.name}(X)" if entry.takes_x else entry.name
    label = KIND_LABELS[entry.kind]
    if entry.kind == "active" and "Active" in entry.name:
        return entry.name
    return f"{label}: {entry.name}"


def all_entries(catalogue: Catalogue) -> tuple[Entry, ...]:
    """Return every look-up target of the catalogue."""
    return (
        *catalogue.specials.specials,
        *catalogue.movement.types,
        *catalogue.entries.entries,
        *catalogue.power_types.types,
        *reference_tables(catalogue),
    )


# ---------------------------------------------------------------- level tables


def _number(value: float) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _fill(template: str, value: float) -> str:
    return template.format(_number(value))


def _range_label(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}–{last}"


def level_table(catalogue: Catalogue, spec: LevelSpec) -> LevelTableView:
    """Render a catalogue entry's level table from its spec and the curves."""
    levels = range(1, MAX_LEVEL + 1)
    if isinstance(spec, BandLevels):
        rows = tuple(
            TableRow(
                label=_range_label(band.from_, band.to),
                cells=(band.value,),
                levels=(band.from_, band.to),
            )
            for band in spec.bands
        )
        return LevelTableView(header=spec.header, columns=(spec.column,), rows=rows)
    if isinstance(spec, SequenceLevels):
        rows = tuple(
            TableRow(
                label=str(level),
                cells=tuple(
                    "—"
                    if column.values[level - 1] is None
                    else _fill(column.format, column.values[level - 1] or 0)
                    for column in spec.columns
                ),
                levels=(level, level),
            )
            for level in levels
        )
        return LevelTableView(
            header="Level", columns=tuple(c.label for c in spec.columns), rows=rows
        )
    if isinstance(spec, PerLevelLevels):
        rows = tuple(
            TableRow(
                label=str(level),
                cells=(_fill(spec.format, spec.per_level * level),),
                levels=(level, level),
            )
            for level in levels
        )
        return LevelTableView(header="Level", columns=(spec.column,), rows=rows)
    if isinstance(spec, AxisLevels):
        return _axis_table(catalogue, spec)
    return _costed_table(catalogue, spec)


def _axis_table(catalogue: Catalogue, spec: AxisLevels) -> LevelTableView:
    single = len(spec.columns) == 1
    rows = []
    for level in range(1, MAX_LEVEL + 1):
        target = curve_target(catalogue, spec.curve, level).target_pp
        cells = []
        for column in spec.columns:
            units = axis_value(catalogue, column.pp_per_unit, spec.curve, level)
            cells.append(_fill(column.format, units) if units else "—")
        if single:
            units = axis_value(catalogue, spec.columns[0].pp_per_unit, spec.curve, level)
            cells.append(format_pp(units * spec.columns[0].pp_per_unit))
        cells.append(format_pp(target))
        rows.append(TableRow(label=str(level), cells=tuple(cells), levels=(level, level)))
    columns = tuple(c.label for c in spec.columns) + (("PP",) if single else ()) + ("Target PP",)
    rates = ", ".join(f"{c.label} {format_pp(c.pp_per_unit)} PP" for c in spec.columns)
    note = f"Derived: the most each level's {KIND_LABELS[spec.curve]} target buys at {rates}."
    return LevelTableView(header="Level", columns=columns, rows=tuple(rows), note=note)


def _costed_table(catalogue: Catalogue, spec: CostedLevels) -> LevelTableView:
    steps = costed_progression(catalogue, spec.table, spec.curve, spec.base_pp, spec.values)
    rows = tuple(
        TableRow(
            label=str(step.level),
            cells=(
                "—" if step.value is None else _fill(spec.format, step.value),
                format_pp(step.cost_pp),
                format_pp(step.target_pp),
            ),
            levels=(step.level, step.level),
        )
        for step in steps
    )
    table = catalogue.cost_table(spec.table)
    base = f"{format_pp(spec.base_pp)} PP core + " if spec.base_pp else ""
    note = f"PP = {base}{table.name}; " + (
        "the SRD's progression." if spec.values else "the costliest step each level affords."
    )
    return LevelTableView(
        header="Level", columns=(spec.column, "PP", "Target PP"), rows=rows, note=note
    )


def _movement_table(movement: MovementType) -> LevelTableView:
    rows = tuple(
        TableRow(
            label=str(level),
            cells=tuple(row.format(row.values[level - 1]) for row in movement.rows),
            levels=(level, level),
        )
        for level in range(1, MAX_LEVEL + 1)
    )
    return LevelTableView(
        header="Level",
        columns=tuple(row.label for row in movement.rows),
        rows=rows,
        note=f"Cap: {movement.cap}. Movement has no PP curve.",
    )


def _special_table(special: Special) -> LevelTableView | None:
    if not special.takes_x:
        return None
    rows = tuple(
        TableRow(label=str(cost.x), cells=(format_pp(cost.cost_pp or 0),))
        for cost in special_cost_table(special)
    )
    return LevelTableView(header="X", columns=("PP",), rows=rows)


def _power_type_table(catalogue: Catalogue, power_type: PowerType) -> LevelTableView | None:
    if power_type.base_curve is None:
        return None
    columns = ("Target PP", "Charged") if power_type.charged_allowed else ("Target PP",)
    rows = []
    for level in range(1, MAX_LEVEL + 1):
        cells = [format_pp(curve_target(catalogue, power_type.key, level).target_pp)]
        if power_type.charged_allowed:
            charged = curve_target(catalogue, power_type.key, level, charged=True)
            cells.append(format_pp(charged.target_pp))
        rows.append(TableRow(label=str(level), cells=tuple(cells), levels=(level, level)))
    return LevelTableView(header="Level", columns=columns, rows=tuple(rows))


# ---------------------------------------------------------------- reference tables


def _cost_table_view(table: CostTable) -> ReferenceTable:
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
    columns = ("PP", "Notes") if with_notes else ("PP",)
    return ReferenceTable(
        key=table.key,
        name=table.name,
        aliases=table.aliases,
        summary=table.summary,
        table=LevelTableView(header=table.column, columns=columns, rows=tuple(rows)),
        section=table.section,
        note=table.note,
    )


def reference_tables(catalogue: Catalogue) -> tuple[ReferenceTable, ...]:
    """Return the SRD's look-up tables as entries of their own."""
    tables = catalogue.tables
    views = [_cost_table_view(table) for table in tables.cost_tables]
    views.append(
        ReferenceTable(
            key="general_price_cost",
            name="General Price Cost",
            aliases=("Price List", "Preisliste"),
            summary="The baseline PP prices for the common building blocks of a Power.",
            table=LevelTableView(
                header="Effect / Modifier",
                columns=("PP", "Notes"),
                rows=tuple(
                    TableRow(
                        label=row.label,
                        cells=(row.pp_text or format_pp(row.pp or 0), row.note),
                    )
                    for row in tables.general_price_cost
                ),
            ),
            section="§3 PP Cost Reference",
        )
    )
    curves = [catalogue.power_type(key) for key in CURVED_TYPES]
    views.append(
        ReferenceTable(
            key="power_curves",
            name="Power Curves",
            aliases=("Target Curves", "PP Curves", "Kurven"),
            summary="Target PP by level for every power type with a curve (Movement has none).",
            table=LevelTableView(
                header="Level",
                columns=tuple(t.name for t in curves),
                rows=tuple(
                    TableRow(
                        label=str(level),
                        cells=tuple(format_pp(t.target(level) or 0) for t in curves),
                        levels=(level, level),
                    )
                    for level in range(1, MAX_LEVEL + 1)
                ),
            ),
            section="§2 Power Types & Target Curves; Linear Continuation Rule",
        )
    )
    lookup = diminishing_lookup(catalogue)
    views.append(
        ReferenceTable(
            key="diminishing_lookup",
            name="Diminishing PP Lookup",
            aliases=("Diminishing Table", "T(X)"),
            summary="Start PP × T(X) for X = 1–10, the price of every Diminishing Special.",
            table=LevelTableView(
                header="X",
                columns=tuple(f"Start PP {format_pp(start)}" for start in lookup),
                rows=tuple(
                    TableRow(
                        label=str(x),
                        cells=tuple(format_pp(costs[x - 1]) for costs in lookup.values()),
                    )
                    for x in range(1, 11)
                ),
            ),
            section="Diminishing PP Lookup Table",
        )
    )
    views.append(
        ReferenceTable(
            key="spell_tiers",
            name="Spell Tiers",
            aliases=("Base TN", "Spell TN", "Zauberstufen"),
            summary="Spell Tier = Level ÷ 2 rounded up; Base TN = 8 × Tier.",
            table=LevelTableView(
                header="Spell Level",
                columns=("Tier", "Base TN"),
                rows=tuple(
                    TableRow(
                        label=_range_label(*tier.levels),
                        cells=(tier.tier, str(tier.base_tn)),
                        levels=tier.levels,
                    )
                    for tier in tables.spell_tiers
                ),
            ),
            section="§7 Spellcasting – Core Rules",
        )
    )
    views.append(
        ReferenceTable(
            key="passive_slots",
            name="Passive Slots",
            aliases=("Passive Slots by Mastery Rank",),
            summary="How many Passives a character may slot at each Mastery Rank.",
            table=LevelTableView(
                header="MR",
                columns=("Passive Slots",),
                rows=tuple(
                    TableRow(label=str(row.mastery_rank), cells=(str(row.slots),))
                    for row in tables.passive_slots
                ),
            ),
            section="Passive Loadout Rules",
        )
    )
    views.append(
        ReferenceTable(
            key="condition_discounts",
            name="Condition Discounts",
            aliases=("Discounts", "Conditional Modifiers"),
            summary="Multipliers applied after the base PP for real, limiting conditions.",
            table=LevelTableView(
                header="Type",
                columns=("Multiplier", "Definition"),
                rows=tuple(
                    TableRow(label=d.name, cells=(f"× {d.multiplier:g}", d.definition))
                    for d in tables.discounts
                ),
            ),
            section="§5 Conditional Modifiers & Discounts",
        )
    )
    summons = catalogue.summons
    views.append(
        ReferenceTable(
            key="summon_tokens",
            name="Summon Token Costs",
            aliases=("Summon Upgrades", "Beschwörungskosten"),
            summary="What Summon Tokens buy; every Bound Stone gives 8 Tokens.",
            table=LevelTableView(
                header="Upgrade",
                columns=("Scope", "Cost", "Gain"),
                rows=tuple(
                    TableRow(
                        label=u.name,
                        cells=(
                            u.scope,
                            f"{u.tokens} Token{'s' * (u.tokens > 1)}",
                            f"+{u.gain} {u.unit}",
                        ),
                    )
                    for u in summons.upgrades
                ),
            ),
            section=summons.section,
        )
    )
    views.append(
        ReferenceTable(
            key="summon_power_caps",
            name="Summon Power Level Cap",
            aliases=("Summon Power Costs",),
            summary="The highest Power Level a Summon may buy by its owner's Mastery Rank; "
            "a Power costs 1 Token per 10 PP, rounded up.",
            table=LevelTableView(
                header="Owner's MR",
                columns=("Max Power Level",),
                rows=tuple(
                    TableRow(
                        label=_mr_label(row.mastery_ranks),
                        cells=(str(row.max_level),),
                    )
                    for row in summons.power_level_caps
                ),
            ),
            section=summons.section,
        )
    )
    views.append(
        ReferenceTable(
            key="movement_types",
            name="Movement Types",
            aliases=("Movement Pricing", "Movement Caps"),
            summary="The ten canonical Movement types: pricing logic and Level 16 caps.",
            table=LevelTableView(
                header="Type",
                columns=("Pricing", "Cap", "Path"),
                rows=tuple(
                    TableRow(label=t.name, cells=(t.pricing_logic, t.cap, t.path_notes))
                    for t in catalogue.movement.types
                ),
            ),
            section=catalogue.movement.section,
        )
    )
    return tuple(views)


def _mr_label(ranks: tuple[int, int]) -> str:
    first, last = ranks
    if last >= 99:
        return f"{first}+"
    return _range_label(first, last)


# ---------------------------------------------------------------- entry views


def entry_view(
    catalogue: Catalogue,
    entry: Entry,
    level: int | None = None,
    *,
    see_also: tuple[str, ...] = (),
) -> PowerEntryView:
    """Render any entry for `/power` or `/special`; `level` keeps only that level's row."""
    if level is not None:
        check_level(level)
    table: LevelTableView | None
    facts: list[Fact] = []
    category = None
    tags: tuple[str, ...] = ()
    pricing = None
    points: tuple[str, ...] = ()
    if isinstance(entry, CatalogueEntry):
        table = level_table(catalogue, entry.levels) if entry.levels else None
        category, tags, pricing, points = entry.category, entry.tags, entry.pricing, entry.points
        summary = entry.summary
        if entry.kind in CURVED_TYPES:
            facts.append(Fact(label="Type", value=KIND_LABELS[entry.kind]))
    elif isinstance(entry, Special):
        table = _special_table(entry)
        summary = entry.effect
        facts.extend(_special_facts(catalogue, entry))
        pricing = _special_pricing(entry)
    elif isinstance(entry, MovementType):
        table = _movement_table(entry)
        summary = entry.summary
        pricing = entry.pricing_logic
        facts.extend(
            [
                Fact(label="Type", value="Movement"),
                Fact(label="Cap", value=entry.cap),
                Fact(label="Path", value=entry.path_notes),
            ]
        )
    elif isinstance(entry, PowerType):
        table = _power_type_table(catalogue, entry)
        summary = entry.summary
        facts.append(Fact(label="Cost", value=entry.cost))
        if entry.per_level_pp:
            facts.append(Fact(label="Per level", value=f"+{entry.per_level_pp} PP"))
        facts.append(
            Fact(label="Charged", value="+10 PP" if entry.charged_allowed else "not allowed")
        )
        tags = entry.tags_allowed
    else:
        table = entry.table
        summary = entry.summary
    if table is not None and level is not None and table.header == "Level":
        kept = tuple(
            row for row in table.rows if row.levels and row.levels[0] <= level <= row.levels[1]
        )
        table = table.model_copy(update={"rows": kept})
    return PowerEntryView(
        id=entry_id(entry),
        kind=entry.kind,
        kind_label=KIND_LABELS[entry.kind],
        name=entry.name,
        display_name=display_name(entry),
        category=category,
        tags=tags,
        summary=summary,
        pricing=pricing,
        facts=tuple(facts),
        points=points,
        table=table,
        level=level,
        section=entry.section,
        note=entry.note,
        see_also=see_also,
    )


def _special_pricing(special: Special) -> str:
    if special.pricing == "triangular":
        return f"Start PP {format_pp(special.start_pp or 0)} × T(X)"
    if special.pricing == "per_x":
        return f"{format_pp(special.pp_per_x or 0)} PP × X"
    if special.pricing == "fixed":
        return f"{format_pp(special.fixed_pp or 0)} PP (fixed)"
    return "not priced as a component"


def _special_facts(catalogue: Catalogue, special: Special) -> list[Fact]:
    group = next(g for g in catalogue.specials.groups if g.key == special.group)
    facts = [
        Fact(label="Group", value=group.name),
        Fact(label="X", value=special.x_meaning),
        Fact(label="Duration", value=special.duration),
        Fact(label="Cleanse/Dispel", value=YES_NO[special.cleanse]),
    ]
    template = next(
        (g.name for g in catalogue.specials.template_groups if special.key in g.specials), None
    )
    if template:
        facts.append(Fact(label="Template group", value=template))
    if special.min_x > 1:
        facts.append(Fact(label="Minimum X", value=str(special.min_x)))
    eligible = [
        name
        for name, flag in (
            ("Special Overdrive", special.overdrive_eligible),
            ("Special Aura", special.aura_eligible),
            ("Ward", special.ward_eligible),
        )
        if flag
    ]
    if eligible:
        facts.append(Fact(label="Eligible for", value=", ".join(eligible)))
    return facts
