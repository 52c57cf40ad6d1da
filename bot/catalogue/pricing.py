"""The SRD's pricing formulas as pure functions over a loaded catalogue.

Every coefficient comes from the catalogue's data; the functions only combine
them: curve targets, Special costs, cost-table look-ups, the greedy "best value
on curve" progressions, walls, summons, and the `/pp price` component parser.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict

from bot.catalogue.models import (
    MAX_LEVEL,
    Catalogue,
    CostTable,
    CurvedTypeKey,
    Discount,
    MovementType,
    PowerType,
    Special,
    SummonExample,
    SummonStats,
    triangular,
)
from bot.catalogue.names import normalise
from bot.errors import BadInput

CURVED_TYPES: tuple[CurvedTypeKey, ...] = ("active", "active_buff", "reaction", "passive")
COST_TABLE_X = range(1, 11)  # the SRD's Special cost tables run X = 1–10


class Result(BaseModel):
    """Base for results: plain immutable data for the cog to render."""

    model_config = ConfigDict(frozen=True, extra="forbid")


def format_pp(value: float) -> str:
    """Render a PP amount without a trailing .0: 15, 7.5, 22.5."""
    return f"{round(value, 2):g}"


# ---------------------------------------------------------------- curves


class CurveTarget(Result):
    """The target PP of a power type at a level, with the tolerances that judge a build."""

    type: CurvedTypeKey
    type_name: str
    level: int
    base_pp: int
    charged: bool
    charged_bonus_pp: float
    target_pp: float
    per_level_pp: int
    tolerance_pp: float
    band_pct: float
    capstone_band_pct: float


def check_level(level: int) -> int:
    """Return the level, or raise BadInput when it is outside 1–16."""
    if not 1 <= level <= MAX_LEVEL:
        raise BadInput(f"Level must be 1–{MAX_LEVEL}, not {level}.")
    return level


def curved_type(catalogue: Catalogue, type_key: str) -> PowerType:
    """Return a power type that has a curve, or raise BadInput (Movement has none)."""
    keys = [t.key for t in catalogue.power_types.types]
    movement = {t.key for t in catalogue.movement.types} | {"movement"}
    if type_key not in keys and type_key not in movement:
        raise BadInput(f"Unknown power type '{type_key}'. Types: {', '.join(keys)}.")
    if type_key in movement or catalogue.power_type(type_key).base_curve is None:
        raise BadInput(
            "Movement powers have no PP curve: look up a movement type for its distance "
            "progression and cap."
        )
    return catalogue.power_type(type_key)


def curve_target(
    catalogue: Catalogue, type_key: str, level: int, *, charged: bool = False
) -> CurveTarget:
    """Return the target PP for a power type at a level (+10 when Charged)."""
    power_type = curved_type(catalogue, type_key)
    check_level(level)
    rules = catalogue.power_types.rules
    if charged and not power_type.charged_allowed:
        raise BadInput(f"{power_type.name} Powers cannot be Charged.")
    base = power_type.target(level) or 0
    bonus = rules.charged_bonus_pp if charged else 0.0
    return CurveTarget(
        type=power_type.key,
        type_name=power_type.name,
        level=level,
        base_pp=base,
        charged=charged,
        charged_bonus_pp=bonus,
        target_pp=base + bonus,
        per_level_pp=power_type.per_level_pp or 0,
        tolerance_pp=rules.on_curve_tolerance_pp,
        band_pct=rules.design_band_pct,
        capstone_band_pct=rules.capstone_band_pct,
    )


class CurveCheck(Result):
    """A build's total against its target: on curve, under (PP unused) or over."""

    type: CurvedTypeKey
    type_name: str
    level: int
    target_pp: float
    charged: bool
    total_pp: float
    delta_pp: float
    deviation_pct: float
    verdict: str
    unused_pp: float
    over_by_pp: float
    tolerance_pp: float
    band_pct: float
    within_band: bool


def judge(
    catalogue: Catalogue,
    total_pp: float,
    type_key: str,
    level: int,
    *,
    charged: bool = False,
    capstone: bool = False,
) -> CurveCheck:
    """Compare a total with the curve: over is more than 5 PP above the target [§10.3]."""
    target = curve_target(catalogue, type_key, level, charged=charged)
    delta = total_pp - target.target_pp
    if delta > target.tolerance_pp:
        verdict = "over"
    elif delta < -target.tolerance_pp:
        verdict = "under"
    else:
        verdict = "on_curve"
    deviation = delta / target.target_pp * 100
    band = target.capstone_band_pct if capstone else target.band_pct
    return CurveCheck(
        type=target.type,
        type_name=target.type_name,
        level=level,
        target_pp=target.target_pp,
        charged=charged,
        total_pp=total_pp,
        delta_pp=delta,
        deviation_pct=round(deviation, 1),
        verdict=verdict,
        unused_pp=max(0.0, -delta),
        over_by_pp=max(0.0, delta),
        tolerance_pp=target.tolerance_pp,
        band_pct=band,
        within_band=abs(deviation) <= band + 1e-9,
    )


def fitting_level(
    catalogue: Catalogue, total_pp: float, type_key: str, *, charged: bool = False
) -> int:
    """Return the lowest level whose target (+ tolerance) holds the total, else 16."""
    for level in range(1, MAX_LEVEL + 1):
        target = curve_target(catalogue, type_key, level, charged=charged)
        if total_pp <= target.target_pp + target.tolerance_pp:
            return level
    return MAX_LEVEL


# ---------------------------------------------------------------- movement


class ProgressionRowView(Result):
    """One row of a movement progression with its cells rendered."""

    label: str
    unit: str
    cap: int
    values: tuple[int | None, ...]
    cells: tuple[str, ...]


class MovementProgression(Result):
    """A movement type's 16-level progression and cap (Movement has no PP curve)."""

    key: str
    name: str
    pricing_logic: str
    approx_pp_per_m: float | None
    path_notes: str
    cap: str
    rows: tuple[ProgressionRowView, ...]
    level: int | None
    at_level: tuple[str, ...] | None
    note: str | None


def movement_progression(
    catalogue: Catalogue, movement: MovementType | str, level: int | None = None
) -> MovementProgression:
    """Return a movement type's distances by level and its cap; `level` picks one column."""
    if isinstance(movement, str):
        keys = [t.key for t in catalogue.movement.types]
        if movement not in keys:
            raise BadInput(f"Unknown movement type '{movement}'. Types: {', '.join(keys)}.")
        movement = catalogue.movement_type(movement)
    if level is not None:
        check_level(level)
    rows = tuple(
        ProgressionRowView(
            label=row.label,
            unit=row.unit,
            cap=row.cap,
            values=row.values,
            cells=tuple(row.format(v) for v in row.values),
        )
        for row in movement.rows
    )
    return MovementProgression(
        key=movement.key,
        name=movement.name,
        pricing_logic=movement.pricing_logic,
        approx_pp_per_m=movement.approx_pp_per_m,
        path_notes=movement.path_notes,
        cap=movement.cap,
        rows=rows,
        level=level,
        at_level=None if level is None else tuple(row.cells[level - 1] for row in rows),
        note=movement.note,
    )


def resolve_type(catalogue: Catalogue, text: str) -> str:
    """Return the key of a power type or movement type named loosely ('Active Buff', 'flug')."""
    wanted = normalise(text)
    named: list[PowerType | MovementType] = [
        *catalogue.power_types.types,
        *catalogue.movement.types,
    ]
    for item in named:
        names = {item.key.replace("_", " "), item.name, *item.aliases}
        if wanted in {normalise(name) for name in names}:
            return item.key
    choices = ", ".join(t.key for t in catalogue.power_types.types)
    raise BadInput(f"Unknown power type '{text[:40]}'. Types: {choices}, or a movement type.")


def pp_target(
    catalogue: Catalogue, type_name: str, level: int, *, charged: bool = False
) -> CurveTarget | MovementProgression:
    """Answer `/pp type level`: a curve target, or a movement type's progression and cap."""
    key = resolve_type(catalogue, type_name)
    if key == "movement":
        types = ", ".join(t.name for t in catalogue.movement.types)
        raise BadInput(f"Movement powers have no PP curve; name a movement type: {types}.")
    if key in CURVED_TYPES:
        return curve_target(catalogue, key, level, charged=charged)
    return movement_progression(catalogue, key, level)


# ---------------------------------------------------------------- Specials


class SpecialCost(Result):
    """What a Special costs at X, and the formula that priced it."""

    key: str
    name: str
    group: str
    x: int | None
    cost_pp: float | None
    formula: str


def diminishing_cost(start_pp: float, x: int) -> float:
    """Return Start PP × T(X), the Diminishing price [Diminishing Effects — Costs]."""
    return start_pp * triangular(x)


def special_label(special: Special, x: int | None) -> str:
    """Render a Special with its X: 'Ruin(2)', 'Prone'."""
    return f"{special.name}({x})" if x is not None else special.name


def check_x(special: Special, x: int | None) -> int | None:
    """Return X if the Special takes it and it is in range, or raise BadInput."""
    if not special.takes_x:
        if x is not None:
            raise BadInput(f"{special.name} takes no X.")
        return None
    if x is None:
        raise BadInput(f"{special.name} needs an X ({special.min_x}–{special.max_x}).")
    if not special.min_x <= x <= special.max_x:
        raise BadInput(f"X for {special.name} must be {special.min_x}–{special.max_x}, not {x}.")
    return x


def special_cost(special: Special, x: int | None = None) -> SpecialCost:
    """Price a Special at X (fixed Specials take no X; closed ones have no price)."""
    x = check_x(special, x)
    cost = special.cost(x)
    label = special_label(special, x)
    if special.pricing == "triangular":
        formula = f"{label} = Start PP {format_pp(special.start_pp or 0)} × T({x}) = "
        formula += f"{format_pp(special.start_pp or 0)} × {triangular(x or 0)}"
    elif special.pricing == "per_x":
        formula = f"{label} = {format_pp(special.pp_per_x or 0)} PP × {x}"
    elif special.pricing == "fixed":
        formula = f"{label} = {format_pp(cost or 0)} PP (fixed)"
    else:
        formula = f"{label} is not priced as a component ({special.note or special.effect})"
    return SpecialCost(
        key=special.key, name=special.name, group=special.group, x=x, cost_pp=cost, formula=formula
    )


def special_cost_table(
    special: Special, xs: Iterable[int] = COST_TABLE_X
) -> tuple[SpecialCost, ...]:
    """Return the Special's costs for X = 1–10 (within its own X range), or its one fixed cost."""
    if not special.takes_x:
        return (special_cost(special),)
    return tuple(special_cost(special, x) for x in xs if special.min_x <= x <= special.max_x)


class HighestX(Result):
    """The largest X of a Special that fits a curve target, and what is left over."""

    level: int
    target_pp: float
    x: int
    cost_pp: float
    unused_pp: float


def highest_x_on_curve(
    catalogue: Catalogue, start_pp: float, type_key: str, level: int
) -> HighestX:
    """Return the highest X with Start PP × T(X) within the curve target at a level."""
    target = curve_target(catalogue, type_key, level).target_pp
    x = 0
    while diminishing_cost(start_pp, x + 1) <= target:
        x += 1
    cost = diminishing_cost(start_pp, x)
    return HighestX(level=level, target_pp=target, x=x, cost_pp=cost, unused_pp=target - cost)


def special_curve_reference(
    catalogue: Catalogue, special: Special, type_key: str = "active"
) -> tuple[HighestX, ...]:
    """Rebuild the 'Start PP Active-Curve Reference': highest X per level, cost and unused PP."""
    if special.start_pp is None:
        raise BadInput(f"{special.name} is not priced by Start PP × T(X).")
    return tuple(
        highest_x_on_curve(catalogue, special.start_pp, type_key, level)
        for level in range(1, MAX_LEVEL + 1)
    )


def diminishing_lookup(catalogue: Catalogue) -> dict[float, tuple[float, ...]]:
    """Return Start PP × T(X) for X = 1–10 for every Start PP the Diminishing Specials use."""
    start_pps = sorted(
        {s.start_pp for s in catalogue.specials.specials if s.group == "diminishing" and s.start_pp}
    )
    return {start: tuple(diminishing_cost(start, x) for x in COST_TABLE_X) for start in start_pps}


# ---------------------------------------------------------------- tables and progressions


def table_row_cost(table: CostTable, value: float, what: str | None = None) -> float:
    """Return the PP of a table step, or raise BadInput listing the valid steps."""
    row = table.row_for_value(value)
    if row is None:
        steps = ", ".join(table.label_of(r) for r in table.rows if r.value is not None)
        raise BadInput(f"{what or table.name} must be one of {steps}; not {value:g}.")
    return row.pp


class CostedStep(Result):
    """At one level: the best table row the curve affords, its cost and the target."""

    level: int
    target_pp: float
    value: float | None
    label: str | None
    cost_pp: float
    unused_pp: float


def costed_progression(
    catalogue: Catalogue,
    table_key: str,
    type_key: str,
    base_pp: float = 0,
    values: Iterable[float | None] | None = None,
) -> tuple[CostedStep, ...]:
    """Return, per level, a table row bought on the curve: the SRD's pick, else the costliest."""
    table = catalogue.cost_table(table_key)
    chosen = list(values) if values is not None else None
    steps = []
    for level in range(1, MAX_LEVEL + 1):
        target = curve_target(catalogue, type_key, level).target_pp
        if chosen is not None:
            value = chosen[level - 1]
            best = None if value is None else table.row_for_value(value)
        else:
            affordable = [
                row
                for row in table.rows
                if base_pp + row.pp <= target and (row.min_level or 1) <= level
            ]
            best = max(affordable, key=lambda row: (row.pp, row.value or 0), default=None)
        cost = base_pp + best.pp if best else 0.0
        steps.append(
            CostedStep(
                level=level,
                target_pp=target,
                value=best.value if best else None,
                label=table.label_of(best) if best else None,
                cost_pp=cost,
                unused_pp=target - cost,
            )
        )
    return tuple(steps)


def entry_progression(catalogue: Catalogue, kind: str, key: str) -> tuple[CostedStep, ...]:
    """Return the costed level table of a catalogue entry (Passive: Special Aura, DR…)."""
    levels = catalogue.entry(kind, key).levels
    if levels is None or levels.kind != "costed":
        raise BadInput(f"{key} has no costed level table.")
    return costed_progression(catalogue, levels.table, levels.curve, levels.base_pp, levels.values)


def special_aura_progression(catalogue: Catalogue) -> tuple[CostedStep, ...]:
    """Price the Passive Special Aura progression: 80 PP core + its radius cost per level."""
    return entry_progression(catalogue, "passive", "special_aura")


def axis_value(catalogue: Catalogue, pp_per_unit: float, type_key: str, level: int) -> int:
    """Return how many units of an axis the curve buys at a level (floor)."""
    target = curve_target(catalogue, type_key, level).target_pp
    return math.floor(target / pp_per_unit + 1e-9)


class SpellTierView(Result):
    """A spell level's tier and Base TN (8 × Tier; Mental Powers +4)."""

    level: int
    tier: str
    number: int
    base_tn: int
    mental_tn: int


def spell_tier(catalogue: Catalogue, level: int) -> SpellTierView:
    """Return the Spell Tier (ceil(level / 2)) and Base TN for a spell level."""
    check_level(level)
    number = math.ceil(level / 2)
    row = next(t for t in catalogue.tables.spell_tiers if t.levels[0] <= level <= t.levels[1])
    constants = catalogue.tables.constants
    return SpellTierView(
        level=level,
        tier=row.tier,
        number=number,
        base_tn=constants.spell_tn_per_tier * number,
        mental_tn=constants.spell_tn_per_tier * number + constants.mental_tn_bonus,
    )


def passive_slots(catalogue: Catalogue, mastery_rank: int) -> int:
    """Return the Passive Slots at a Mastery Rank (the top listed rank holds above it)."""
    if mastery_rank < 1:
        raise BadInput(f"Mastery Rank must be at least 1, not {mastery_rank}.")
    rows = catalogue.tables.passive_slots
    return rows[min(mastery_rank, len(rows)) - 1].slots


# ---------------------------------------------------------------- walls and persistent areas


class WallCost(Result):
    """A wall priced component by component [Barriers / Walls (Terrain Constructs)]."""

    components: tuple[tuple[str, float], ...]
    total_pp: float


def _steps_above(value: float, base: float, step: float) -> int:
    return max(0, math.ceil((value - base) / step - 1e-9))


def wall_cost(
    catalogue: Catalogue,
    *,
    length_m: float,
    height_m: float,
    thickness_m: float,
    blocks_sight: bool,
    resilience: bool,
) -> WallCost:
    """Price a wall lasting Mastery Rank rounds from its size, opacity and resilience."""
    rates = catalogue.tables.walls
    parts = [
        ("Placement", rates.placement_pp),
        (
            "Length",
            rates.length_pp_per_step
            * _steps_above(length_m, rates.length_base_m, rates.length_step_m),
        ),
        (
            "Height",
            rates.height_pp_per_step
            * _steps_above(height_m, rates.height_base_m, rates.height_step_m),
        ),
        (
            "Thickness",
            rates.thickness_pp_per_step
            * _steps_above(thickness_m, rates.thickness_base_m, rates.thickness_step_m),
        ),
        ("Line of Sight", rates.line_of_sight_pp if blocks_sight else 0.0),
        ("Duration", rates.duration_mastery_rank_rounds_pp),
        (
            "Resilience",
            rates.resilience_pp_per_segment * math.ceil(length_m / rates.segment_length_m)
            if resilience
            else 0.0,
        ),
    ]
    kept = tuple((label, pp) for label, pp in parts if pp)
    return WallCost(components=kept, total_pp=sum(pp for _, pp in kept))


def persistent_cost(catalogue: Catalogue, range_pp: float, persistent_pp: float) -> float:
    """Return Range + persistent part × 2 (4 rounds) for zones, images and barriers [§10.12]."""
    return range_pp + persistent_pp * catalogue.tables.constants.persistent_multiplier


# ---------------------------------------------------------------- summons


def summon_tokens(catalogue: Catalogue, bound_stones: int) -> int:
    """Return the Summon Tokens of a Bond: 8 per Bound Stone, the first included."""
    if bound_stones < 1:
        raise BadInput("A Summon Bond needs at least 1 Bound Stone.")
    return bound_stones * catalogue.summons.tokens_per_bound_stone


def upgrade_tokens(catalogue: Catalogue, upgrade_key: str, amount: int) -> int:
    """Return the tokens for an upgrade bought `amount` units at a time (+40 HP = 2 Tokens)."""
    upgrade = next((u for u in catalogue.summons.upgrades if u.key == upgrade_key), None)
    if upgrade is None:
        keys = ", ".join(u.key for u in catalogue.summons.upgrades)
        raise BadInput(f"Unknown Summon upgrade '{upgrade_key}'. Upgrades: {keys}.")
    if amount < 1 or amount % upgrade.gain:
        raise BadInput(f"{upgrade.name} is bought in steps of {upgrade.gain} {upgrade.unit}.")
    return upgrade.tokens * amount // upgrade.gain


def power_tokens_from_pp(pp: float) -> int:
    """Return a canonical Power's token cost: its PP ÷ 10, rounded up."""
    return math.ceil(pp / 10 - 1e-9)


def power_tokens(catalogue: Catalogue, type_key: str, level: int) -> int:
    """Return the Summon Token cost of a canonical Power of a type at a level."""
    check_level(level)
    row = next((r for r in catalogue.summons.power_token_costs if r.type == type_key), None)
    if row is None or row.tokens_per_level is None:
        raise BadInput("A Movement Power costs its written PP ÷ 10, rounded up.")
    return row.tokens_per_level * level + row.extra_tokens


def summon_power_level_cap(catalogue: Catalogue, mastery_rank: int) -> int:
    """Return the highest Power Level a Summon may buy at the owner's Mastery Rank."""
    for row in catalogue.summons.power_level_caps:
        if row.mastery_ranks[0] <= mastery_rank <= row.mastery_ranks[1]:
            return row.max_level
    raise BadInput(f"Mastery Rank must be at least 1, not {mastery_rank}.")


class SummonBreakdown(Result):
    """A Summon example's purchases priced from the token table."""

    name: str
    available_tokens: int
    lines: tuple[tuple[str, int], ...]
    total_tokens: int
    stats: SummonStats


_STAT_OF_UPGRADE = {
    "hp": "hp",
    "armor": "armor",
    "evade": "evade",
    "attack": "attack_d8",
    "damage": "damage_d8",
    "movement": "movement_m",
    "body": "bodies",
    "extra_attack": "attacks",
}


def summon_breakdown(catalogue: Catalogue, example: SummonExample) -> SummonBreakdown:
    """Price a Summon example's purchases and build its finished stats from the base."""
    lines = []
    stats = catalogue.summons.base.model_dump()
    special_steps = 0
    for purchase in example.purchases:
        if purchase.upgrade is not None and purchase.amount is not None:
            tokens = upgrade_tokens(catalogue, purchase.upgrade, purchase.amount)
            stat = _STAT_OF_UPGRADE.get(purchase.upgrade)
            if stat is not None:
                stats[stat] += purchase.amount
            if purchase.upgrade in ("special_access", "special_value"):
                special_steps += purchase.amount
        else:
            tokens = power_tokens(catalogue, purchase.power_type or "", purchase.power_level or 1)
        lines.append((purchase.label, tokens))
    if special_steps:
        stats["special"] = f"Special({special_steps})"
    return SummonBreakdown(
        name=example.name,
        available_tokens=summon_tokens(catalogue, example.bound_stones),
        lines=tuple(lines),
        total_tokens=sum(tokens for _, tokens in lines),
        stats=SummonStats(**stats),
    )


# ---------------------------------------------------------------- the component parser


class PricedComponent(Result):
    """One priced part of a build, with the SRD rule it came from."""

    name: str
    value: str
    cost_pp: float
    rule: str
    source: str
    multiplier: int = 1


class CurveFit(Result):
    """The lowest level of a power type whose curve holds a total."""

    type: CurvedTypeKey
    type_name: str
    level: int
    target_pp: float


class PriceBreakdown(Result):
    """A build priced from components, compared with its curve when a type is given."""

    components: tuple[PricedComponent, ...]
    subtotal_pp: float
    discount: str | None
    discount_multiplier: float
    total_pp: float
    type: CurvedTypeKey | None
    level: int | None
    level_inferred: bool
    charged: bool
    capstone: bool
    persistent: bool
    check: CurveCheck | None
    fits: tuple[CurveFit, ...]


@dataclass
class _Build:
    catalogue: Catalogue
    type_key: str | None
    flags: set[str] = field(default_factory=set)
    parts: list[PricedComponent] = field(default_factory=list)

    @property
    def persistent(self) -> bool:
        return bool(self.flags & {"persistent", "image", "image_size", "barrier"})

    def add(
        self,
        name: str,
        value: str,
        cost: float,
        rule: str,
        source: str,
        *,
        lasting: bool = False,
    ) -> None:
        multiplier = 1
        if lasting and self.persistent:
            multiplier = self.catalogue.tables.constants.persistent_multiplier
            rule = f"({rule}) × {multiplier} persistent"
        self.parts.append(
            PricedComponent(
                name=name,
                value=value,
                cost_pp=cost * multiplier,
                rule=rule,
                source=source,
                multiplier=multiplier,
            )
        )


_DICE = re.compile(r"^(\d+)(?:d(\d+))?$")
_INTEGER = re.compile(r"^\d+$")


def _count(name: str, value: str | None, *, die: int | None = None) -> int:
    """Parse '3', or '2d8' when a die is allowed; raise BadInput otherwise."""
    if value is None:
        raise BadInput(f"{name} needs a value, like {name}:2.")
    match = _DICE.match(value)
    if not match or (match.group(2) and die is None):
        raise BadInput(f"{name}:{value} is not a whole number.")
    if match.group(2) and int(match.group(2)) != die:
        raise BadInput(f"{name} is priced per d{die}, not d{match.group(2)}.")
    number = int(match.group(1))
    if not 1 <= number <= 100:
        raise BadInput(f"{name} must be 1–100, not {number}.")
    return number


def _rate(
    build: _Build, name: str, value: str | None, rate_key: str, *, die: int | None = None
) -> None:
    rate = build.catalogue.rate(rate_key)
    count = _count(name, value, die=die)
    conditional = build.type_key == "passive" and "conditional" in build.flags
    pp = rate.conditional_pp if conditional and rate.conditional_pp is not None else rate.pp
    shown = f"{count}d{die}" if die else str(count)
    mode = " (conditional)" if conditional and rate.conditional_pp is not None else ""
    build.add(name, shown, pp * count, f"{format_pp(pp)} PP{mode} × {count}", rate.section)


def _passive_or(passive_rate: str, other_rate: str, *, die: int | None = None) -> _Handler:
    def handler(build: _Build, name: str, value: str | None) -> None:
        key = passive_rate if build.type_key == "passive" else other_rate
        _rate(build, name, value, key, die=die)

    return handler


def _damage(build: _Build, name: str, value: str | None) -> None:
    if build.type_key == "passive":
        _rate(build, name, value, "passive_damage_d6", die=6)
    else:
        _rate(build, name, value, "damage_d8", die=8)


def _table(
    build: _Build,
    name: str,
    value: str | None,
    table_key: str,
    *,
    lasting: bool = False,
    what: str | None = None,
) -> None:
    table = build.catalogue.cost_table(table_key)
    number = _count(name, value)
    cost = table_row_cost(table, number, what or f"{name} ({table.name})")
    build.add(
        name,
        f"{number}",
        cost,
        f"{number:g} {table.unit} = {format_pp(cost)} PP ({table.name})".replace(" %", "%"),
        table.section,
        lasting=lasting,
    )


def _range(build: _Build, name: str, value: str | None) -> None:
    if value in ("touch", "self", "melee"):
        build.add(name, value or "", 0, f"{value} = free", "SRD Pricing Rules 3) Range")
        return
    _table(build, name, value, "range", what="range")


def _radius(build: _Build, name: str, value: str | None) -> None:
    instant = not build.persistent and build.type_key in (None, "active")
    if instant:
        _table(build, name, value, "instant_attack_aoe", what="Instant Attack AoE radius")
    else:
        _table(build, name, value, "aoe_radius", lasting=True, what="AoE radius")


def _special_aura(build: _Build, name: str, value: str | None) -> None:
    table = build.catalogue.cost_table("special_aura_radius")
    number = _count(name, value)
    core = build.catalogue.tables.constants.special_aura_core_pp
    cost = core + table_row_cost(table, number, "Special Aura radius")
    rule = f"{format_pp(core)} PP core + {number} m = {format_pp(cost - core)} PP"
    build.add(name, str(number), cost, rule, table.section)


def _rounds(build: _Build, name: str, value: str | None) -> None:
    if build.persistent:
        raise BadInput("rounds cannot be combined with a persistent area: it lasts 4 rounds.")
    rounds = _count(name, value)
    rate = build.catalogue.rate("zone_extra_round")
    extra = rounds - 1
    build.add(
        name, str(rounds), rate.pp * extra, f"{format_pp(rate.pp)} PP × {extra} extra", rate.section
    )


def _control(build: _Build, name: str, value: str | None) -> None:
    _table(build, name, value, "push_pull_control", what="Push/Pull control distance")


def _image(build: _Build, name: str, value: str | None) -> None:
    table = build.catalogue.cost_table("image_tier")
    row = table.row_for_label((value or "").upper())
    if row is None and value and _INTEGER.match(value):
        row = table.row_for_value(int(value))
    if row is None:
        tiers = ", ".join(r.label or "" for r in table.rows)
        raise BadInput(f"image must be a tier {tiers}; not {value}.")
    build.add(
        name,
        row.label or "",
        row.pp,
        f"Image {row.label} = {format_pp(row.pp)} PP",
        table.section,
        lasting=True,
    )


def _image_size(build: _Build, name: str, value: str | None) -> None:
    table = build.catalogue.cost_table("image_size")
    row = table.row_for_label(value or "")
    if row is None:
        sizes = ", ".join(r.label or "" for r in table.rows)
        raise BadInput(f"image_size must be one of {sizes}; not {value}.")
    rule = f"{row.note} = {format_pp(row.pp)} PP"
    build.add(name, row.label or "", row.pp, rule, table.section, lasting=True)


def _barrier(build: _Build, name: str, value: str | None) -> None:
    _table(build, name, value, "barrier_hp", lasting=True, what="Barrier HP")


def _health_bar(build: _Build, name: str, value: str | None) -> None:
    table = build.catalogue.cost_table("health_bars")
    row = table.row_for_label(value or "")
    if row is None:
        bars = ", ".join((r.label or "").lower() for r in table.rows)
        raise BadInput(f"health_bar must be one of {bars}; not {value}.")
    build.add(
        name, row.label or "", row.pp, f"{row.label} Bar = {format_pp(row.pp)} PP", table.section
    )


def _counter_push(build: _Build, name: str, value: str | None) -> None:
    rate = build.catalogue.rate("counter_push_2m")
    metres = _count(name, value)
    if metres % 2 or metres > (rate.cap or metres):
        raise BadInput(f"counter_push is bought per 2 m up to {rate.cap:g} m; not {metres} m.")
    steps = metres // 2
    build.add(
        name, f"{metres}", rate.pp * steps, f"{format_pp(rate.pp)} PP × {steps} (2 m)", rate.section
    )


def _flat(rate_key: str) -> _Handler:
    def handler(build: _Build, name: str, value: str | None) -> None:
        if value is not None:
            raise BadInput(f"{name} takes no value.")
        rate = build.catalogue.rate(rate_key)
        build.add(name, "", rate.pp, f"+{format_pp(rate.pp)} PP", rate.section)

    return handler


def _special(key: str) -> _Handler:
    def handler(build: _Build, name: str, value: str | None) -> None:
        special = build.catalogue.special(key)
        if special.pricing == "unpriced":
            raise BadInput(
                f"{special.name} cannot be priced as a component: {special.note or special.effect}"
            )
        x = None if not special.takes_x else _count(name, value)
        if not special.takes_x and value is not None:
            raise BadInput(f"{special.name} takes no value.")
        priced = special_cost(special, x)
        lasting = special.group != "instant"
        build.add(
            name,
            "" if x is None else str(x),
            priced.cost_pp or 0,
            priced.formula,
            special.section,
            lasting=lasting,
        )

    return handler


_Handler = Callable[[_Build, str, "str | None"], None]

_FLAGS = {"persistent", "charged", "capstone", "conditional"}
_FLAG_VALUES = {"discount"}


def _handlers(catalogue: Catalogue) -> dict[str, _Handler]:
    handlers: dict[str, _Handler] = {
        "damage": _damage,
        "healing": lambda b, n, v: _rate(b, n, v, "healing_d8", die=8),
        "armor": _passive_or("passive_armor", "armor"),
        "evade": _passive_or("passive_evade", "evade"),
        "temp_hp": lambda b, n, v: _rate(b, n, v, "temp_hp_start"),
        "refresh_hp": lambda b, n, v: _rate(b, n, v, "temp_hp_refresh"),
        "regen": _passive_or("passive_healing", "regeneration_hp"),
        "range": _range,
        "reach": lambda b, n, v: _table(b, n, v, "melee_reach", what="reach"),
        "radius": _radius,
        "aura": lambda b, n, v: _table(b, n, v, "aura_passive_radius", what="aura radius"),
        "special_aura": _special_aura,
        "rounds": _rounds,
        "control": _control,
        "image": _image,
        "image_size": _image_size,
        "barrier": _barrier,
        "autofire": lambda b, n, v: _rate(b, n, v, "autofire"),
        "split": _flat("split_attack"),
        "thorns": lambda b, n, v: _rate(b, n, v, "thornhide_d8", die=8),
        "mental": lambda b, n, v: _rate(b, n, v, "mental_damage_d8", die=8),
        "counter": lambda b, n, v: _rate(b, n, v, "counter_damage_d8", die=8),
        "counter_push": _counter_push,
        "aura_damage": lambda b, n, v: _rate(b, n, v, "aura_payload_d8", die=8),
        "aura_healing": lambda b, n, v: _rate(b, n, v, "aura_payload_d8", die=8),
        "health_bar": _health_bar,
        "health_level": lambda b, n, v: _rate(b, n, v, "health_level_heal"),
        "spell_resistance": lambda b, n, v: _rate(b, n, v, "spell_resistance"),
        "raise": lambda b, n, v: _rate(b, n, v, "raise_effect"),
    }
    for special in catalogue.specials.specials:
        handlers.setdefault(special.key, _special(special.key))
    precision = handlers.pop("precision")
    handlers["precision"] = lambda b, n, v: precision(b, n, _strip_d8(v))
    return handlers


def _strip_d8(value: str | None) -> str | None:
    if value and value.endswith("d8"):
        return value[:-2]
    return value


_ALIASES = {
    "dmg": "damage",
    "heal": "healing",
    "pen": "penetration",
    "brutal": "brutal_impact",
    "aoe": "radius",
    "split_attack": "split",
    "temporary_hp": "temp_hp",
    "regeneration_hp": "regen",
    "dispel": "dispel_magic",
    "crit": "critical",
}


def component_names(catalogue: Catalogue) -> tuple[str, ...]:
    """Return every component name the parser accepts (flags included)."""
    unpriced = {s.key for s in catalogue.specials.specials if s.pricing == "unpriced"}
    names = [name for name in _handlers(catalogue) if name not in unpriced]
    return tuple(sorted([*names, *_FLAGS, *_FLAG_VALUES]))


def _tokens(text: str) -> list[tuple[str, str | None]]:
    tokens = []
    for raw in re.split(r"[\s,;]+", text.strip()):
        if not raw:
            continue
        name, _, value = raw.partition(":")
        name = name.strip().lower().replace("-", "_")
        tokens.append((_ALIASES.get(name, name), value.strip().lower() or None))
    return tokens


def price(
    catalogue: Catalogue,
    components: str,
    type_key: str | None = None,
    level: int | None = None,
) -> PriceBreakdown:
    """Price a build from components ('damage:2d8 range:16 ruin:2 charged') against a curve."""
    if type_key is not None:
        type_key = curved_type(catalogue, resolve_type(catalogue, type_key)).key
    if level is not None:
        check_level(level)
    if level is not None and type_key is None:
        raise BadInput("Give a power type together with the level.")
    tokens = _tokens(components)
    if not tokens:
        raise BadInput("Give at least one component, like damage:2d8 range:12.")
    handlers = _handlers(catalogue)
    valid = ", ".join(component_names(catalogue))
    seen: set[str] = set()
    build = _Build(catalogue=catalogue, type_key=type_key)
    discount = None
    for name, value in tokens:
        if name not in handlers and name not in _FLAGS and name not in _FLAG_VALUES:
            raise BadInput(f"Unknown component '{name[:40]}'. Valid components: {valid}.")
        if name in seen:
            raise BadInput(f"Component '{name}' is given twice.")
        seen.add(name)
        if name in _FLAGS:
            if value is not None:
                raise BadInput(f"{name} takes no value.")
            build.flags.add(name)
        elif name == "discount":
            discount = _discount(catalogue, value)
        elif name in ("image", "image_size", "barrier"):
            build.flags.add(name)
    if "charged" in build.flags and type_key == "passive":
        raise BadInput("Passives cannot be Charged.")
    for name, value in tokens:
        if name in handlers:
            handlers[name](build, name, value)
    if not build.parts:
        raise BadInput(f"Give at least one priced component. Valid components: {valid}.")
    subtotal = sum(part.cost_pp for part in build.parts)
    multiplier = discount.multiplier if discount else 1.0
    total = subtotal * multiplier
    charged = "charged" in build.flags
    capstone = "capstone" in build.flags
    inferred = False
    check = None
    if type_key is not None:
        if level is None:
            level = fitting_level(catalogue, total, type_key, charged=charged)
            inferred = True
        check = judge(catalogue, total, type_key, level, charged=charged, capstone=capstone)
    fits = tuple(
        CurveFit(
            type=key,
            type_name=catalogue.power_type(key).name,
            level=(fit := fitting_level(catalogue, total, key)),
            target_pp=curve_target(catalogue, key, fit).target_pp,
        )
        for key in CURVED_TYPES
    )
    return PriceBreakdown(
        components=tuple(build.parts),
        subtotal_pp=subtotal,
        discount=discount.name if discount else None,
        discount_multiplier=multiplier,
        total_pp=total,
        type=type_key,
        level=level,
        level_inferred=inferred,
        charged=charged,
        capstone=capstone,
        persistent=build.persistent,
        check=check,
        fits=fits,
    )


def _discount(catalogue: Catalogue, value: str | None) -> Discount:
    discounts = {d.key: d for d in catalogue.tables.discounts}
    if value not in discounts:
        raise BadInput(f"discount must be one of {', '.join(discounts)}; not {value}.")
    return discounts[value]
