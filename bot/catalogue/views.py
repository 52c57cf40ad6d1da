"""What `/power` and `/special` show: entries turned into plain view data.

Every look-up target is an `Entry`: a catalogue entry, a Special, a movement type,
a power type or a reference table. `entry_view` renders any of them with its
level table; the cog only turns the result into an embed.
"""

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.catalogue.models import (
    MAX_LEVEL,
    AxisLevels,
    BandLevels,
    Catalogue,
    CatalogueEntry,
    CostedLevels,
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
    format_pp,
    special_cost_table,
    special_pricing_text,
)
from bot.catalogue.reference import reference_tables
from bot.catalogue.shapes import (
    KIND_LABELS,
    Fact,
    LevelTableView,
    ReferenceTable,
    TableRow,
    View,
    range_label,
)
from bot.i18n import L_

YES_NO = {True: "Yes", False: "No"}


Entry = CatalogueEntry | Special | MovementType | PowerType | ReferenceTable


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


def level_table(catalogue: Catalogue, spec: LevelSpec) -> LevelTableView:
    """Render a catalogue entry's level table from its spec and the curves."""
    levels = range(1, MAX_LEVEL + 1)
    if isinstance(spec, BandLevels):
        rows = tuple(
            TableRow(
                label=range_label(band.from_, band.to),
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
        note=L_("Cap: {cap}. Movement has no PP curve.", cap=movement.cap),
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


# ---------------------------------------------------------------- entry views


@dataclass
class _Parts:
    """What an entry contributes to its view, whatever kind it is."""

    summary: str
    table: LevelTableView | None = None
    facts: list[Fact] = field(default_factory=list)
    category: str | None = None
    tags: tuple[str, ...] = ()
    pricing: str | None = None
    points: tuple[str, ...] = ()


def _parts(catalogue: Catalogue, entry: Entry) -> _Parts:
    if isinstance(entry, CatalogueEntry):
        parts = _Parts(
            summary=entry.summary,
            table=level_table(catalogue, entry.levels) if entry.levels else None,
            category=entry.category,
            tags=entry.tags,
            pricing=entry.pricing,
            points=entry.points,
        )
        if entry.kind in CURVED_TYPES:
            parts.facts.append(Fact(label="Type", value=KIND_LABELS[entry.kind]))
        return parts
    if isinstance(entry, Special):
        return _Parts(
            summary=entry.effect,
            table=_special_table(entry),
            facts=_special_facts(catalogue, entry),
            pricing=special_pricing_text(entry),
        )
    if isinstance(entry, MovementType):
        facts = [
            Fact(label="Type", value="Movement"),
            Fact(label="Cap", value=entry.cap),
            Fact(label="Path", value=entry.path_notes),
        ]
        return _Parts(
            summary=entry.summary,
            table=_movement_table(entry),
            facts=facts,
            pricing=entry.pricing_logic,
        )
    if isinstance(entry, PowerType):
        return _Parts(
            summary=entry.summary,
            table=_power_type_table(catalogue, entry),
            facts=_power_type_facts(entry),
        )
    return _Parts(
        summary=entry.summary, table=entry.table, facts=list(entry.facts), points=entry.points
    )


def _power_type_facts(power_type: PowerType) -> list[Fact]:
    facts = [Fact(label="Cost", value=power_type.cost)]
    if power_type.per_level_pp:
        facts.append(Fact(label="Per level", value=f"+{power_type.per_level_pp} PP"))
    charged = "+10 PP" if power_type.charged_allowed else "not allowed"
    facts.append(Fact(label="Charged", value=charged))
    allowed = ", ".join(power_type.tags_allowed) or "none"
    facts.append(Fact(label="Tags allowed", value=allowed))
    return facts


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
    parts = _parts(catalogue, entry)
    table = parts.table
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
        category=parts.category,
        tags=parts.tags,
        summary=parts.summary,
        pricing=parts.pricing,
        facts=tuple(parts.facts),
        points=parts.points,
        table=table,
        level=level,
        section=entry.section,
        note=entry.note,
        see_also=see_also,
    )


VIEWS_KEPT = 128  # entries (at a level) kept rendered; a /power look-up is then a dict get


class EntryViews:
    """Entries as `/power` and `/special` show them, each rendered once and kept.

    The catalogue never changes while the bot runs and a view is frozen, so the same
    entry at the same level is the same view for every user; the most recently shown
    `VIEWS_KEPT` are kept. A look-up rendered its entry afresh each time (about 50 µs).
    """

    def __init__(
        self,
        catalogue: Catalogue,
        see_also: Callable[[Entry], tuple[str, ...]],
        *,
        kept: int = VIEWS_KEPT,
    ) -> None:
        self._catalogue = catalogue
        self._see_also = see_also
        self._kept: OrderedDict[tuple[str, int | None], PowerEntryView] = OrderedDict()
        self._size = kept

    def get(self, entry: Entry, level: int | None = None) -> PowerEntryView:
        """Return the entry's view (with its namesakes), at a level or whole."""
        key = (entry_id(entry), level)
        view = self._kept.get(key)
        if view is not None:
            self._kept.move_to_end(key)
            return view
        view = entry_view(self._catalogue, entry, level, see_also=self._see_also(entry))
        self._kept[key] = view
        if len(self._kept) > self._size:
            self._kept.popitem(last=False)
        return view


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
