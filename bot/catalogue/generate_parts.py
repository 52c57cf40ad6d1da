"""Where each figure of data/ sits in the SRD: one update function per part of a data file.

Each function reads its figures with `SrdText` and overwrites them in the plain
JSON of a data file, leaving names, summaries and notes alone. `SECTIONS` lists
them in order (tables before the catalogue entries that reuse their rates).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from itertools import pairwise
from typing import Any

from bot.catalogue.generate_entries import update_entries, update_summons
from bot.catalogue.srd_source import SrdFormatError, SrdText, number, numbers

Data = dict[str, Any]
Update = Callable[[SrdText, Data, dict[str, Data]], None]

CURVES = "#### Linear Continuation Rule"
CHARGED = "#### 8) Charged Powers"


def _keyed(items: list[Data]) -> dict[str, Data]:
    return {item["key"]: item for item in items}


def _named(items: list[Data]) -> dict[str, Data]:
    return {item["name"]: item for item in items}


# ---------------------------------------------------------------- power_types.json


def update_power_types(srd: SrdText, data: Data, _all: dict[str, Data]) -> None:
    """Curves by the Linear Continuation Rule, tolerances, the Charged adder, Movement 8 m."""
    per_level = {row[0]: number(row[1]) for row in srd.table(CURVES)[1:]}
    charged = srd.bullets("This bonus may be applied to:", " It does")
    for power_type in data["types"]:
        name = power_type["name"]
        power_type["charged_allowed"] = name in charged
        if power_type["key"] == "movement":
            continue
        listed = srd.find(rf"- \*\*{re.escape(name)}:\*\* ([\d /]+\d)", CURVES).group(1)
        curve = [int(v) for v in listed.split("/")]
        steps = {b - a for a, b in pairwise(curve)}
        if len(curve) != 16 or steps != {per_level[name]}:
            raise SrdFormatError(f"the {name} progression is not linear by {per_level[name]}")
        power_type["base_curve"] = curve[:4]
        power_type["per_level_pp"] = per_level[name]
    rules = data["rules"]
    rules["on_curve_tolerance_pp"] = number(
        srd.find(r"within \*\*\+/-(\d+) PP\*\*", "### 10.3 Cost Tolerance Rule").group(1)
    )
    band = srd.find(r"±(\d+) %, Capstones ±(\d+) %", "### 0.2 ")
    rules["design_band_pct"], rules["capstone_band_pct"] = number(band[1]), number(band[2])
    rules["charged_bonus_pp"] = number(srd.find(r"add \*\*\+(\d+) PP\*\*", CHARGED).group(1))
    rules["normal_movement_m"] = _normal_movement(srd)


def _normal_movement(srd: SrdText) -> int:
    found = srd.find(r"can move \*\*(\d+) m\*\*", "#### Normal Movement Baseline")
    return int(found.group(1))


# ---------------------------------------------------------------- specials.json

PRICE_TABLES = (
    "#### Diminishing Effects — Costs",
    "#### Timed Effects — Costs",
    "#### Until Broken / Until Used Effects — Costs",
    "#### Instant Effects — Costs",
    "#### Support / Removal Effects — Costs",
    "### 10.16 Fixed Control Add-ons",
)
PRICE_FIELDS = ("start_pp", "pp_per_x", "fixed_pp")


def _price(header: str, cell: str) -> tuple[str, float | None]:
    """Read a Special's price cell: Start PP × T(X), PP × X, a fixed PP, or none."""
    if header == "Start PP" or "T(X)" in cell:
        return "triangular", number(cell)
    if "× X" in cell:
        return "per_x", number(cell)
    if re.fullmatch(r"\d+(\.\d+)? PP", cell):
        return "fixed", number(cell)
    return "unpriced", None


def update_specials(srd: SrdText, data: Data, _all: dict[str, Data]) -> None:
    """Start PP, per-X and fixed prices from the effect tables; Root's minimum; §10.15 groups."""
    specials = _named(data["specials"])
    for fragment in PRICE_TABLES:
        rows = srd.table(fragment)
        header = rows[0][1]
        for row in rows[1:]:
            name = row[0].split(" / ")[0].removesuffix("(X)")
            special = specials.get(name)
            if special is None:
                continue
            pricing, value = _price(header, row[1])
            special["pricing"] = pricing
            field = {"triangular": "start_pp", "per_x": "pp_per_x", "fixed": "fixed_pp"}.get(
                pricing
            )
            for other in PRICE_FIELDS:
                if other == field:
                    special[other] = value
                else:
                    special.pop(other, None)
    root = srd.find(r"at least Root\((\d+)\)", "### 11.12 Root Canon")
    specials["Root"]["min_x"] = int(root.group(1))
    groups = []
    for name, basis, members in srd.table("### 10.15 Standard Special Groups")[1:]:
        keys = [specials[member.strip()]["key"] for member in members.split(",")]
        groups.append({"name": name, "start_pp": number(basis), "specials": keys})
    data["template_groups"] = groups


# ---------------------------------------------------------------- movement.json


def _cell(value: str) -> tuple[int | None, str | None]:
    if value == "—":
        return None, None
    match = re.fullmatch(r"(\d+)(?: (m)|(d8))", value)
    if match is None:
        raise SrdFormatError(f"movement cell {value!r}")
    return int(match.group(1)), match.group(2) or match.group(3)


def update_movement(srd: SrdText, data: Data, _all: dict[str, Data]) -> None:
    """Pricing logic, caps and notes per type, and each 16-level distance progression."""
    data["normal_movement_m"] = _normal_movement(srd)
    pricing = {row[0]: row for row in srd.table("### Movement Type Pricing and Caps")[1:]}
    for movement in data["types"]:
        _, logic, cap, _ = pricing[movement["name"]]
        roughly = re.search(r"roughly (\d+(?:\.\d+)?) PP per", logic)
        movement["approx_pp_per_m"] = number(roughly.group(1)) if roughly else None
        movement["cap"] = cap
        rows = []
        for label, *cells in srd.table(f"#### Movement: {movement['name']} ")[1:]:
            parsed = [_cell(cell) for cell in cells]
            values = [value for value, _ in parsed]
            unit = next(u for _, u in parsed if u)
            rows.append({"label": label, "unit": unit, "cap": max(v or 0 for v in values)})
            rows[-1]["values"] = values
        movement["rows"] = rows
    data["forbidden"] = _movement_forbidden(srd)


def _movement_forbidden(srd: SrdText) -> list[str]:
    return srd.bullets(
        "The following Movement entries or riders are explicitly not part of the core catalogue:",
        " ### ",
    )


# ---------------------------------------------------------------- tables.json


def _steps(text: str) -> dict[float, float]:
    """Read '- **8 m** = **+0 PP** - **12 m** = **+5 PP**' into {8: 0, 12: 5}."""
    pairs = re.findall(r"\*\*(\d+) m\*\* = \*\*\+(\d+) PP\*\*", text)
    return {number(m): number(pp) for m, pp in pairs}


def _rows_by_value(table: Data, prices: dict[float, float], min_levels: dict[float, int]) -> None:
    rows = []
    for value, pp in prices.items():
        row: Data = {"value": value, "pp": pp}
        if value in min_levels:
            row["min_level"] = min_levels[value]
        rows.append(row)
    table["rows"] = rows


def _table_prices(srd: SrdText, fragment: str, *, key_cell: int = 0) -> dict[float, float]:
    return {number(row[key_cell]): number(row[1]) for row in srd.table(fragment)[1:]}


def _aoe_radius(srd: SrdText) -> dict[float, float]:
    line = srd.line("#### 4) AoE (Radius)")
    found: dict[float, float] = {}
    for radii, costs in re.findall(r"Radius \*\*([\d /]+) m\*\* = \*\*([\d /]+) PP\*\*", line):
        found |= dict(zip(numbers(radii), numbers(costs), strict=True))
    return dict(sorted(found.items()))


def _caps(srd: SrdText, fragment: str, pattern: str) -> dict[float, int]:
    line = srd.line(fragment)
    return {number(value): int(level) for value, level in re.findall(pattern, line)}


def _level_of(label: str) -> dict[str, int]:
    match = re.match(r"Level (\d+)\+", label)
    return {"min_level": int(match.group(1))} if match else {}


def update_cost_tables(srd: SrdText, data: Data) -> None:
    """Every priced step table: range, reach, radii, control, barriers, images, bars, DR, Phasing."""
    tables = _keyed(data["cost_tables"])
    _rows_by_value(tables["range"], _steps(srd.line("#### 3) Range")), {})
    _rows_by_value(tables["melee_reach"], _steps(srd.line("#### Melee Reach Pricing")), {})
    _rows_by_value(tables["aoe_radius"], _aoe_radius(srd), {})
    _rows_by_value(tables["instant_attack_aoe"], _table_prices(srd, "### Instant Attack AoE"), {})
    _rows_by_value(tables["aura_passive_radius"], _table_prices(srd, "radius pricing:"), {})
    _rows_by_value(
        tables["special_aura_radius"], _table_prices(srd, "#### Special Aura Radius"), {}
    )
    _rows_by_value(tables["push_pull_control"], _table_prices(srd, "### 10.17 Push / Pull"), {})
    _rows_by_value(tables["barrier_hp"], _table_prices(srd, "#### Barrier HP Cost"), {})
    dr_caps = _caps(srd, "#### Passive DR Caps", r"up to \*\*(\d+)% DR\*\* by \*\*Level (\d+)")
    _rows_by_value(tables["passive_dr"], _table_prices(srd, "#### Passive DR Costs"), dr_caps)
    phasing = _caps(srd, "#### Passive Phasing Caps", r"Ignore (\d+) Hits?\*\* by \*\*Level (\d+)")
    _rows_by_value(
        tables["passive_phasing"], _table_prices(srd, "#### Passive Phasing Costs"), phasing
    )
    for key, fragment in (
        ("buff_dr", "#### Active Buff DR "),
        ("reaction_dr", "#### Reaction DR "),
    ):
        rows = srd.table(fragment)[1:]
        tables[key]["rows"] = [
            {"value": numbers(label)[-1], "pp": number(cost), **_level_of(label)}
            for label, cost in rows
        ]
    _control_addons(srd, tables["control_addons"])
    _images(srd, tables["image_tier"], tables["image_size"])
    _health_bars(srd, tables["health_bars"])


def _same_rows(table: Data, found: list[Data]) -> None:
    """Overwrite a table's rows' figures in order, keeping each row's hand-written note."""
    if len(found) != len(table["rows"]):
        raise SrdFormatError(
            f"the SRD's {table['name']} table changed its rows; update tables.json"
        )
    for row, figures in zip(table["rows"], found, strict=True):
        row |= figures


def _control_addons(srd: SrdText, table: Data) -> None:
    rows = srd.table("### 10.16 Fixed Control Add-ons")[1:]
    rows += srd.table("### 10.18 Hard Control / Stunned Governance")[1:]
    _same_rows(table, [{"label": name, "pp": number(cost)} for name, cost, *_ in rows])


def _images(srd: SrdText, tiers: Data, sizes: Data) -> None:
    tier_rows = srd.table("#### Image Tier Costs")[1:]
    _same_rows(
        tiers,
        [
            {"label": name.removeprefix("Image "), "value": index, "pp": number(cost)}
            for index, (name, cost, *_) in enumerate(tier_rows, start=1)
        ],
    )
    found = []
    for name, cost in srd.table("#### Image Size Costs")[1:]:
        radius = re.search(r"Radius (\d+) m", name)
        found.append({"pp": number(cost)} | ({"value": int(radius.group(1))} if radius else {}))
    _same_rows(sizes, found)


def _health_bars(srd: SrdText, table: Data) -> None:
    found = []
    for label, cost, _ in srd.table("### Health Bars vs. Healing")[1:]:
        match = re.search(r"\((\w+)(?: [–-] (\d+))?\)", label)
        if match is None:
            raise SrdFormatError(f"Health Bar row {label!r}")
        penalty = -int(match.group(2)) if match.group(2) else 0
        found.append({"label": match.group(1), "value": penalty, "pp": number(cost)})
    _same_rows(table, found)


# Each rate: where its figure sits, as (text before it, regex with the figure in group 1).
RATE_SOURCES: dict[str, tuple[str, str]] = {
    "damage_d8": ("#### 2) Damage / Healing", r"\*\*\+1d8 Damage\*\* = \*\*(\d+) PP\*\*"),
    "healing_d8": ("#### 2) Damage / Healing", r"\*\*\+1d8 Healing\*\* = \*\*(\d+) PP\*\*"),
    "temp_hp_start": ("### 5) Design Rule", r"Start of Combat:\*\* \*\*(\d+) PP per HP"),
    "temp_hp_refresh": ("### 5) Design Rule", r"Temporary HP in Combat:\*\* \*\*(\d+) PP per HP"),
    "regeneration_hp": ("### 5) Design Rule", r"Regeneration in Combat:\*\* \*\*(\d+) PP per HP"),
    "counter_damage_d8": ("#### Counter Effect Rules", r"Counter Damage costs (\d+) PP per 1d8"),
    "counter_push_2m": ("#### Counter Effect Rules", r"Counter Push costs (\d+) PP per 2 m"),
    "spell_resistance": ("### 11.3 Ward", r"Cost baseline: (\d+) PP per \+1 Spell Resistance"),
    "thornhide_d8": ("### 11.9 Thorns Canon", r"costs (\d+) PP per 1d8"),
    "mental_damage_d8": ("#### Core Mental Actives", r"(\d+) PP per \+1d8"),
    "aura_payload_d8": ("### 11.10 Active Buff Aura", r"payloads cost (\d+) PP per 1d8"),
    "health_level_heal": ("### 11.11 ", r"(\d+) PP per Health Level recoverable"),
    "autofire": ("### Autofire(X)", r"Autofire\(X\) Cost = (\d+) PP × X"),
    "zone_extra_round": ("#### 5) Zones and Duration", r"additional round\*\* = \*\*\+(\d+) PP"),
    "charged": (CHARGED, r"add \*\*\+(\d+) PP\*\*"),
}
# Rates that are rows of a table: (table, row label, column).
RATE_CELLS: dict[str, tuple[str, str, int]] = {
    "split_attack": ("### Multi-Target Pricing", "Split-Attack(2 Strikes)", 1),
    "pool_die_loss": ("#### General Price Cost", "−1 Pool Die (Loss)", 1),
    "armor": ("#### General Price Cost", "+1 Armor", 1),
    "evade": ("#### General Price Cost", "+1 Evade (temporary)", 1),
    "raise_effect": ("#### General Price Cost", "+1 Raise Effect", 1),
    "half_armor": ("#### Conditional Combined Half-Budget Costs", "Armor Half", 1),
    "half_evade": ("#### Conditional Combined Half-Budget Costs", "Evade Half", 1),
    "half_damage_d6": ("#### Conditional Combined Half-Budget Costs", "Damage Half", 1),
    "half_healing": ("#### Conditional Combined Half-Budget Costs", "Healing Half", 1),
    "half_temp_hp": ("#### Conditional Combined Half-Budget Costs", "Temporary HP Half", 1),
}
CONDITIONAL_RATES = {
    "passive_damage_d6": "Damage",
    "passive_armor": "Armor",
    "passive_evade": "Evade",
    "passive_healing": "Healing",
}


def update_rates(srd: SrdText, data: Data) -> None:
    """Every per-unit rate, from its sentence or its table row in the SRD."""
    rates = _keyed(data["rates"])
    for key, (fragment, pattern) in RATE_SOURCES.items():
        rates[key]["pp"] = number(srd.find(pattern, fragment).group(1))
    for key, (fragment, label, column) in RATE_CELLS.items():
        row = next(r for r in srd.table(fragment)[1:] if r[0] == label)
        rates[key]["pp"] = number(row[column])
    categories = {row[0]: row for row in srd.table("#### Conditional Passive Categories")[1:]}
    for key, category in CONDITIONAL_RATES.items():
        _, unconditional, conditional = categories[category]
        rates[key]["pp"], rates[key]["conditional_pp"] = number(unconditional), number(conditional)
    cap = srd.find(r"capped at (\d+) m", "#### Counter Effect Rules").group(1)
    rates["counter_push_2m"]["cap"] = number(cap)


def update_constants(srd: SrdText, data: Data) -> None:
    """The single numbers: Special Aura core, zone round, persistence, AoE cap, TNs."""
    constants = data["constants"]
    constants["special_aura_core_pp"] = number(
        srd.find(r"Core = \*\*(\d+) PP\*\*", "#### Special Aura Cost Rule").group(1)
    )
    constants["zone_extra_round_pp"] = data_rate(data, "zone_extra_round")
    rounds, multiplier = srd.table("### 10.12 Persistent Zone Cost Formula")[1]
    constants["persistent_rounds"], constants["persistent_multiplier"] = (
        number(rounds),
        number(multiplier),
    )
    constants["instant_aoe_max_radius_m"] = number(
        srd.find(r"\*\*(\d+) m Radius is the maximum", "### Instant Attack AoE Pricing").group(1)
    )
    constants["spell_tn_per_tier"] = number(
        srd.find(r"`(\d+) × Spell Tier`", "### Spellcasting").group(1)
    )
    constants["mental_tn_bonus"] = number(
        srd.find(r"increased by \*\*\+(\d+)\*\*", "#### Mental Power Resolution").group(1)
    )
    constants["raise_tn"] = number(srd.find(r"Raise\*\* ≈ \+(\d+) TN", "### **Dice Model").group(1))


def data_rate(data: Data, key: str) -> float:
    """Return a rate's PP from tables.json data."""
    return next(rate["pp"] for rate in data["rates"] if rate["key"] == key)


def update_tables(srd: SrdText, data: Data, _all: dict[str, Data]) -> None:
    """tables.json: rates, constants, price list, cost tables, discounts, tiers, slots, walls."""
    update_rates(srd, data)
    update_constants(srd, data)
    update_cost_tables(srd, data)
    _general_price_cost(srd, data)
    multipliers = {row[0]: number(row[2]) for row in srd.table("##### Summary Table")[1:]}
    for discount in data["discounts"]:
        discount["multiplier"] = multipliers[discount["name"]]
    data["spell_tiers"] = [
        {
            "levels": [int(v) for v in numbers(levels)],
            "tier": tier,
            "number": index,
            "base_tn": number(tn),
        }
        for index, (levels, tier, tn) in enumerate(srd.table("`8 × Spell Tier`")[1:], start=1)
    ]
    data["passive_slots"] = [
        {"mastery_rank": number(rank), "slots": number(slots)}
        for rank, slots in srd.table("#### Passive Loadout Rules")[1:]
    ]
    _walls(srd, data)


def _general_price_cost(srd: SrdText, data: Data) -> None:
    rows = srd.table("#### General Price Cost")[1:]
    if len(rows) != len(data["general_price_cost"]):
        raise SrdFormatError("the General Price Cost table changed its rows; update tables.json")
    for row, (label, value, _) in zip(data["general_price_cost"], rows, strict=True):
        row["label"] = label
        priced = re.fullmatch(r"(\d+(?:\.\d+)?) PP", value)
        row["pp"] = number(value) if priced else None
        if priced:
            row.pop("pp_text", None)
        else:
            row["pp_text"] = value


# ---------------------------------------------------------------- walls


WALL_EXAMPLES = ("Bark Barricade", "Stone Rampart")


def _wall_example(srd: SrdText, name: str) -> Data:
    line = srd.line(f"**{name} (")
    head = re.match(r"\*\*.+? \(L(\d+) Utility ≈ (\d+) PP\)\*\*", line)
    size = re.search(r"(\d+(?:\.\d+)?) m × (\d+(?:\.\d+)?) m × (\d+(?:\.\d+)?) m", line)
    calc = re.search(r"> (Placement.*?) = \*\*(\d+) PP\*\*", line)
    if head is None or size is None or calc is None:
        raise SrdFormatError(f"the {name} example")
    labels = {"LoS": "Line of Sight"}
    parts = []
    for part in calc.group(1).split(" + "):
        label = part.split(" ")[0]
        parts.append({"label": labels.get(label, label), "pp": numbers(part)[-1]})
    length, height, thickness = (number(size.group(i)) for i in (1, 2, 3))
    steps = re.search(r"\((\d+) steps × (\d+)", calc.group(1))
    segments = re.search(r"\((\d+) × (\d+) segments", calc.group(1))
    return {
        "level": int(head.group(1)),
        "length_m": length,
        "height_m": height,
        "thickness_m": thickness,
        "components": parts,
        "total_pp": number(calc.group(2)),
        "length_steps": int(steps.group(1)) if steps else None,
        "segments": int(segments.group(2)) if segments else None,
    }


def _walls(srd: SrdText, data: Data) -> None:
    """Wall examples as printed, and the construction rates they imply."""
    read = {name: _wall_example(srd, name) for name in WALL_EXAMPLES}
    for example in data["wall_examples"]:
        found = read[example["name"]]
        for field in ("level", "length_m", "height_m", "thickness_m", "components", "total_pp"):
            example[field] = found[field]
        labels = {part["label"] for part in found["components"]}
        example["blocks_sight"] = "Line of Sight" in labels
        example["resilience"] = "Resilience" in labels
    data["walls"] |= _wall_rates(read["Bark Barricade"], read["Stone Rampart"])


def _wall_rates(small: Data, large: Data) -> Data:
    """Solve the per-step rates from the two examples (the smaller one's size costs nothing)."""

    def pp(example: Data, label: str) -> float:
        return next((p["pp"] for p in example["components"] if p["label"] == label), 0)

    length_pp = pp(small, "Length") / small["length_steps"]
    length_step = (large["length_m"] - small["length_m"]) / (
        pp(large, "Length") / length_pp - small["length_steps"]
    )
    segment = large["length_m"] / large["segments"]
    return {
        "placement_pp": pp(small, "Placement"),
        "length_base_m": _num(small["length_m"] - small["length_steps"] * length_step),
        "length_step_m": _num(length_step),
        "length_pp_per_step": _num(length_pp),
        "height_base_m": small["height_m"],
        "height_step_m": _num(large["height_m"] - small["height_m"]),
        "height_pp_per_step": pp(large, "Height"),
        "thickness_base_m": small["thickness_m"],
        "thickness_step_m": _num(large["thickness_m"] - small["thickness_m"]),
        "thickness_pp_per_step": pp(large, "Thickness"),
        "line_of_sight_pp": pp(small, "Line of Sight"),
        "duration_mastery_rank_rounds_pp": pp(small, "Duration"),
        "resilience_pp_per_segment": _num(pp(large, "Resilience") / large["segments"]),
        "segment_length_m": _num(segment),
    }


def _num(value: float) -> int | float:
    return int(value) if math.isclose(value, round(value)) else value


SECTIONS: tuple[tuple[str, Update], ...] = (
    ("power_types", update_power_types),
    ("specials", update_specials),
    ("movement", update_movement),
    ("tables", update_tables),
    ("summons", update_summons),
    ("entries", update_entries),
)
