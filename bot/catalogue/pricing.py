"""The SRD's pricing formulas as pure functions over a loaded catalogue.

Every coefficient comes from the catalogue's data; the functions only combine
them: curve targets, Special costs, cost-table look-ups, the greedy "best value
on curve" progressions, walls, summons, and the `/pp price` component parser.
"""

import math
import re
from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict

from bot.catalogue.models import (
    MAX_LEVEL,
    Catalogue,
    CostTable,
    CurvedTypeKey,
    MovementType,
    PowerType,
    Special,
    SummonExample,
    SummonStats,
    WallExample,
    triangular,
)
from bot.catalogue.names import normalise
from bot.errors import BadInput

CURVED_TYPES: tuple[CurvedTypeKey, ...] = ("active", "active_buff", "reaction", "passive")
COST_TABLE_X = range(1, 11)  # the SRD's Special cost tables run X = 1–10


class Result(BaseModel):
    """Base for results: plain immutable data for the cog to render."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


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
        raise BadInput("Level must be 1–{most}, not {level}.", most=MAX_LEVEL, level=level)
    return level


def curved_type(catalogue: Catalogue, type_key: str) -> PowerType:
    """Return a power type that has a curve, or raise BadInput (Movement has none)."""
    keys = [t.key for t in catalogue.power_types.types]
    movement = {t.key for t in catalogue.movement.types} | {"movement"}
    if type_key not in keys and type_key not in movement:
        raise BadInput(
            "Unknown power type '{type}'. Types: {types}.", type=type_key, types=", ".join(keys)
        )
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
        raise BadInput("{type} Powers cannot be Charged.", type=power_type.name)
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
    capstone: bool = False
    # When the ±5 PP rule (§10.3) and the ±10 % band (§0.2) disagree: which decided, and why.
    decided_by: str | None = None


def judge(
    catalogue: Catalogue,
    total_pp: float,
    type_key: str,
    level: int,
    *,
    charged: bool = False,
    capstone: bool = False,
) -> CurveCheck:
    """Give one verdict on a total: §10.3's ±5 PP decides; §0.2's band is checked against it.

    Over the target by more than the tolerance is over curve, unless a capstone stays
    within its wider band (§0.2 ±15 %, §6 "capstones may push slightly above"). When the
    percentage band would say otherwise, `decided_by` names the rule that decided.
    """
    target = curve_target(catalogue, type_key, level, charged=charged)
    delta = total_pp - target.target_pp
    deviation = delta / target.target_pp * 100
    band = target.capstone_band_pct if capstone else target.band_pct
    within_band = abs(deviation) <= band + 1e-9
    if delta > target.tolerance_pp:
        verdict = "capstone" if capstone and within_band else "over"
    elif delta < -target.tolerance_pp:
        verdict = "under"
    else:
        verdict = "on_curve"
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
        within_band=within_band,
        capstone=capstone,
        decided_by=_decided_by(
            verdict, within_band, deviation, band, target.tolerance_pp, capstone
        ),
    )


def _decided_by(
    verdict: str, within_band: bool, deviation: float, band: float, tolerance: float, capstone: bool
) -> str | None:
    """Name the deciding rule when §10.3's ±5 PP and §0.2's ±10 % band disagree."""
    pct = f"{'+' if deviation > 0 else '−'}{abs(round(deviation, 1)):g} %"
    which = "capstone band" if capstone else "design band"
    tol = f"±{tolerance:g} PP"
    if verdict == "capstone":
        return f"§6 and §0.2 decide: a capstone may sit above the curve within the ±{band:g} % {which}."
    if verdict == "on_curve" and not within_band:
        return (
            f"§10.3 decides: within {tol} is on curve, although {pct} is outside §0.2's "
            f"±{band:g} % {which}."
        )
    if verdict in ("over", "under") and within_band:
        side = "over" if verdict == "over" else "under"
        return (
            f"§10.3 decides: more than {tol} {side} the target, although {pct} is inside "
            f"§0.2's ±{band:g} % {which}."
        )
    return None


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
            raise BadInput(
                "Unknown movement type '{type}'. Types: {types}.",
                type=movement,
                types=", ".join(keys),
            )
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
    raise BadInput(
        "Unknown power type '{type}'. Types: {types}, or a movement type.",
        type=text[:40],
        types=choices,
    )


def pp_target(
    catalogue: Catalogue, type_name: str, level: int, *, charged: bool = False
) -> CurveTarget | MovementProgression:
    """Answer `/pp type level`: a curve target, or a movement type's progression and cap."""
    key = resolve_type(catalogue, type_name)
    if key == "movement":
        types = ", ".join(t.name for t in catalogue.movement.types)
        raise BadInput(
            "Movement powers have no PP curve; name a movement type: {types}.", types=types
        )
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
            raise BadInput("{special} takes no X.", special=special.name)
        return None
    if x is None:
        raise BadInput(
            "{special} needs an X ({low}–{high}).",
            special=special.name,
            low=special.min_x,
            high=special.max_x,
        )
    if not special.min_x <= x <= special.max_x:
        raise BadInput(
            "X for {special} must be {low}–{high}, not {x}.",
            special=special.name,
            low=special.min_x,
            high=special.max_x,
            x=x,
        )
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


def special_pricing_text(special: Special) -> str:
    """Render how a Special is priced: 'Start PP 4 × T(X)', '2 PP × X', '60 PP (fixed)'."""
    if special.pricing == "triangular":
        return f"Start PP {format_pp(special.start_pp or 0)} × T(X)"
    if special.pricing == "per_x":
        return f"{format_pp(special.pp_per_x or 0)} PP × X"
    if special.pricing == "fixed":
        return f"{format_pp(special.fixed_pp or 0)} PP (fixed)"
    return "not priced as a component"


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
        raise BadInput("{special} is not priced by Start PP × T(X).", special=special.name)
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
        raise BadInput(
            "{what} must be one of {steps}; not {value}.",
            what=what or table.name,
            steps=steps,
            value=format(value, "g"),
        )
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


def axis_value(catalogue: Catalogue, pp_per_unit: float, type_key: str, level: int) -> int:
    """Return how many units of an axis the curve buys at a level (floor)."""
    target = curve_target(catalogue, type_key, level).target_pp
    return math.floor(target / pp_per_unit + 1e-9)


def passive_slots(catalogue: Catalogue, mastery_rank: int) -> int:
    """Return the Passive Slots at a Mastery Rank (the top listed rank holds above it)."""
    if mastery_rank < 1:
        raise BadInput("Mastery Rank must be at least 1, not {rank}.", rank=mastery_rank)
    rows = catalogue.tables.passive_slots
    return rows[min(mastery_rank, len(rows)) - 1].slots


# ---------------------------------------------------------------- walls and persistent areas


class WallPart(Result):
    """One priced part of a wall: 'Length', 10 PP, '2 steps × 5 PP (2 m beyond 2 m)'."""

    label: str
    pp: float
    rule: str


class WallCost(Result):
    """A wall priced component by component [Barriers / Walls (Terrain Constructs)]."""

    components: tuple[WallPart, ...]
    total_pp: float


def _steps_above(value: float, base: float, step: float) -> int:
    return max(0, math.ceil((value - base) / step - 1e-9))


def _stepped(label: str, value: float, base: float, step: float, pp: float) -> WallPart:
    steps = _steps_above(value, base, step)
    rule = f"{steps} × {format_pp(pp)} PP per {step:g} m beyond {base:g} m"
    return WallPart(label=label, pp=steps * pp, rule=rule)


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
    segments = math.ceil(length_m / rates.segment_length_m - 1e-9)
    parts = [
        WallPart(label="Placement", pp=rates.placement_pp, rule="once per wall"),
        _stepped(
            "Length", length_m, rates.length_base_m, rates.length_step_m, rates.length_pp_per_step
        ),
        _stepped(
            "Height", height_m, rates.height_base_m, rates.height_step_m, rates.height_pp_per_step
        ),
        _stepped(
            "Thickness",
            thickness_m,
            rates.thickness_base_m,
            rates.thickness_step_m,
            rates.thickness_pp_per_step,
        ),
    ]
    if blocks_sight:
        parts.append(
            WallPart(label="Line of Sight", pp=rates.line_of_sight_pp, rule="blocks sight")
        )
    parts.append(
        WallPart(
            label="Duration",
            pp=rates.duration_mastery_rank_rounds_pp,
            rule="Mastery Rank rounds",
        )
    )
    if resilience:
        rule = (
            f"{format_pp(rates.resilience_pp_per_segment)} PP × {segments} segments of "
            f"{rates.segment_length_m:g} m ({rates.resilience_gain})"
        )
        parts.append(
            WallPart(label="Resilience", pp=rates.resilience_pp_per_segment * segments, rule=rule)
        )
    kept = tuple(part for part in parts if part.pp)
    return WallCost(components=kept, total_pp=sum(part.pp for part in kept))


def wall_components(example: WallExample) -> str:
    """Return the /pp price components that build a wall example: 'wall:6x2x0.5 los'."""
    words = [f"wall:{example.length_m:g}x{example.height_m:g}x{example.thickness_m:g}"]
    if example.blocks_sight:
        words.append("los")
    if example.resilience:
        words.append("resilience")
    return " ".join(words)


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
        raise BadInput(
            "Unknown Summon upgrade '{upgrade}'. Upgrades: {upgrades}.",
            upgrade=upgrade_key,
            upgrades=keys,
        )
    if amount < 1 or amount % upgrade.gain:
        raise BadInput(
            "{upgrade} is bought in steps of {gain} {unit}.",
            upgrade=upgrade.name,
            gain=upgrade.gain,
            unit=upgrade.unit,
        )
    return upgrade.tokens * amount // upgrade.gain


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
    raise BadInput("Mastery Rank must be at least 1, not {rank}.", rank=mastery_rank)


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
    special_name = "Special"
    for purchase in example.purchases:
        if purchase.upgrade is not None and purchase.amount is not None:
            tokens = upgrade_tokens(catalogue, purchase.upgrade, purchase.amount)
            stat = _STAT_OF_UPGRADE.get(purchase.upgrade)
            if stat is not None:
                stats[stat] += purchase.amount
            if purchase.upgrade in ("special_access", "special_value"):
                special_steps += purchase.amount
            named = re.match(r"Special Access: (\w+)", purchase.label)
            if named:
                special_name = named.group(1)
        else:
            tokens = power_tokens(catalogue, purchase.power_type or "", purchase.power_level or 1)
        lines.append((purchase.label, tokens))
    if special_steps:
        stats["special"] = f"{special_name}({special_steps})"
    return SummonBreakdown(
        name=example.name,
        available_tokens=summon_tokens(catalogue, example.bound_stones),
        lines=tuple(lines),
        total_tokens=sum(tokens for _, tokens in lines),
        stats=SummonStats(**stats),
    )
