"""Price a build from components ('damage:2d8 range:16 ruin:2 charged') and check it.

`price` turns the `/pp price` component text into priced parts, each with the SRD
rule that priced it, judges the total against a curve, and lists every SRD rule
the build breaks (a Passive-only part on an Active, an unapproved Active Buff
combination…) with the rule's reason and a conforming alternative.

A refusal speaks the reader's language; each part's rule line is the SRD's calculation
tooltip, in English for every reader as the SRD asks ("Standard: Englisch für alle
Regeltexte und Tooltips" [001 §0.2]).
"""

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.catalogue.checks import build_violations
from bot.catalogue.models import Catalogue, CurvedTypeKey, Discount
from bot.catalogue.pricing import (
    CURVED_TYPES,
    CurveCheck,
    Result,
    check_level,
    curve_target,
    curved_type,
    fitting_level,
    format_pp,
    judge,
    resolve_type,
    special_cost,
    table_row_cost,
    wall_cost,
)
from bot.catalogue.shapes import Violation
from bot.errors import BadInput

MAX_COUNT = 100  # the largest number a component takes


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
    total_pp: float


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
    violations: tuple[Violation, ...] = ()
    names: tuple[str, ...] = ()  # the component names given, flags included


@dataclass
class _Build:
    catalogue: Catalogue
    type_key: str | None
    flags: set[str] = field(default_factory=set)
    values: dict[str, str | None] = field(default_factory=dict)
    parts: list[PricedComponent] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)

    @property
    def persistent(self) -> bool:
        return bool(self.flags & {"persistent", "image", "image_size", "barrier"})

    @property
    def lasting(self) -> bool:
        """Say whether the area lasts across turns (a zone with rounds, or a persistent one)."""
        return self.persistent or "rounds" in self.values

    def add(
        self, name: str, value: str, cost: float, rule: str, source: str, *, lasting: bool = False
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

    def breaks(self, rule: str, reason: str, alternative: str) -> None:
        self.violations.append(Violation(rule=rule, reason=reason, alternative=alternative))


Handler = Callable[[_Build, str, "str | None"], None]

_DICE = re.compile(r"^(\d+)(?:d(\d+))?$")
_INTEGER = re.compile(r"^\d+$")
_WALL = re.compile(r"^(\d+(?:\.\d+)?)x(\d+(?:\.\d+)?)x(\d+(?:\.\d+)?)$")


def _count(name: str, value: str | None, *, die: int | None = None) -> int:
    """Parse '3', or '2d8' when a die is allowed; raise BadInput otherwise."""
    if value is None:
        raise BadInput("{name} needs a value, like {name}:2.", name=name)
    match = _DICE.match(value)
    if not match or (match.group(2) and die is None):
        raise BadInput("{name}:{value} is not a whole number.", name=name, value=value[:20])
    if match.group(2) and int(match.group(2)) != die:
        raise BadInput(
            "{name} is priced per d{die}, not d{given}.", name=name, die=die, given=match.group(2)
        )
    number = int(match.group(1))
    if not 1 <= number <= MAX_COUNT:
        raise BadInput(
            "{name} must be 1–{most}, not {number}.", name=name, most=MAX_COUNT, number=number
        )
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


def _passive_or(passive_rate: str, other_rate: str, *, die: int | None = None) -> Handler:
    def handler(build: _Build, name: str, value: str | None) -> None:
        key = passive_rate if build.type_key == "passive" else other_rate
        _rate(build, name, value, key, die=die)

    return handler


def _damage(build: _Build, name: str, value: str | None) -> None:
    if build.type_key == "passive":
        _rate(build, name, value, "passive_damage_d6", die=6)
    else:
        _rate(build, name, value, "damage_d8", die=8)


def _temp_hp(build: _Build, name: str, value: str | None) -> None:
    """Temporary HP by when it comes: a Passive's at combat start, anything else in combat."""
    start = build.type_key == "passive"
    rate = build.catalogue.rate("temp_hp_start" if start else "temp_hp_refresh")
    count = _count(name, value)
    when = "at start of combat" if start else "granted in combat"
    if build.type_key is None:
        when += "; a Passive's start-of-combat buffer is cheaper: give type:passive"
    build.add(
        name,
        str(count),
        rate.pp * count,
        f"{format_pp(rate.pp)} PP × {count} ({when})",
        rate.section,
    )


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


RANGE_BASELINES = (8, 12)  # the SRD's default range baseline, and the one it names besides


def _range(build: _Build, name: str, value: str | None) -> None:
    if value in ("touch", "self", "melee"):
        build.add(name, value or "", 0, f"{value} = free", "SRD Pricing Rules 3) Range")
        return
    base_text = build.values.get("range_base")
    base = RANGE_BASELINES[0] if base_text is None else _count("range_base", base_text)
    if base not in RANGE_BASELINES:
        first, second = RANGE_BASELINES
        raise BadInput(
            "range_base must be {first} or {second} m, not {base} m.",
            first=first,
            second=second,
            base=base,
        )
    table = build.catalogue.cost_table("range")
    metres = _count(name, value)
    shift = base - RANGE_BASELINES[0]
    steps = {(row.value or 0) + shift: row.pp for row in table.rows}
    if metres not in steps:
        listed = ", ".join(f"{m:g} m" for m in steps)
        if shift:
            raise BadInput(
                "range from a {base} m baseline must be one of {steps}; not {metres}.",
                base=base,
                steps=listed,
                metres=metres,
            )
        raise BadInput("range must be one of {steps}; not {metres}.", steps=listed, metres=metres)
    cost = steps[metres]
    rule = f"{metres} m = {format_pp(cost)} PP (Range)"
    if shift:
        listed = ", ".join(f"{m:g} m +{format_pp(pp)}" for m, pp in steps.items())
        rule = f"{metres} m = {format_pp(cost)} PP from a {base} m baseline ({listed})"
    build.add(name, str(metres), cost, rule, table.section)


def _range_base(build: _Build, name: str, value: str | None) -> None:
    if "range" not in build.values:
        raise BadInput(
            "range_base sets the baseline of a range: give range too, like range:16 range_base:12."
        )


def _radius(build: _Build, name: str, value: str | None) -> None:
    """Radius: the instant-attack table on an instant Active, else the lasting AoE table."""
    if build.type_key in (None, "active") and not build.lasting:
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


def _image(build: _Build, name: str, value: str | None) -> None:
    table = build.catalogue.cost_table("image_tier")
    row = table.row_for_label((value or "").upper())
    if row is None and value and _INTEGER.match(value):
        row = table.row_for_value(int(value))
    if row is None:
        tiers = ", ".join(r.label or "" for r in table.rows)
        raise BadInput(
            "image must be a tier {tiers}; not {value}.", tiers=tiers, value=(value or "")[:20]
        )
    rule = f"Image {row.label} = {format_pp(row.pp)} PP"
    build.add(name, row.label or "", row.pp, rule, table.section, lasting=True)


def _image_size(build: _Build, name: str, value: str | None) -> None:
    table = build.catalogue.cost_table("image_size")
    row = table.row_for_label(value or "")
    if row is None:
        sizes = ", ".join(r.label or "" for r in table.rows)
        raise BadInput(
            "image_size must be one of {sizes}; not {value}.",
            sizes=sizes,
            value=(value or "")[:20],
        )
    rule = f"{row.note} = {format_pp(row.pp)} PP"
    build.add(name, row.label or "", row.pp, rule, table.section, lasting=True)


def _health_bar(build: _Build, name: str, value: str | None) -> None:
    table = build.catalogue.cost_table("health_bars")
    row = table.row_for_label(value or "")
    if row is None:
        bars = ", ".join((r.label or "").lower() for r in table.rows)
        raise BadInput(
            "health_bar must be one of {bars}; not {value}.", bars=bars, value=(value or "")[:20]
        )
    rule = f"{row.label} Bar = {format_pp(row.pp)} PP"
    build.add(name, row.label or "", row.pp, rule, table.section)


def _counter_push(build: _Build, name: str, value: str | None) -> None:
    rate = build.catalogue.rate("counter_push_2m")
    metres = _count(name, value)
    if metres % 2 or metres > (rate.cap or metres):
        raise BadInput(
            "counter_push is bought per 2 m up to {cap} m; not {metres} m.",
            cap=format(rate.cap, "g"),
            metres=metres,
        )
    steps = metres // 2
    build.add(
        name, f"{metres}", rate.pp * steps, f"{format_pp(rate.pp)} PP × {steps} (2 m)", rate.section
    )


def _wall(build: _Build, name: str, value: str | None) -> None:
    """A terrain-construct wall: LENGTHxHEIGHTxTHICKNESS in metres, lasting Mastery Rank rounds."""
    match = _WALL.match(value or "")
    if match is None:
        raise BadInput(
            "wall takes its size in metres as LENGTHxHEIGHTxTHICKNESS, like wall:6x2x0.5."
        )
    length, height, thickness = (float(match.group(i)) for i in (1, 2, 3))
    if not (0 < length <= MAX_COUNT and 0 < height <= MAX_COUNT and 0 < thickness <= MAX_COUNT):
        raise BadInput(
            "a wall's length, height and thickness must be above 0 and at most {most} m.",
            most=MAX_COUNT,
        )
    priced = wall_cost(
        build.catalogue,
        length_m=length,
        height_m=height,
        thickness_m=thickness,
        blocks_sight="los" in build.flags,
        resilience="resilience" in build.flags,
    )
    section = build.catalogue.tables.walls.section
    for part in priced.components:
        label = {"Line of Sight": "los", "Resilience": "resilience"}.get(part.label)
        shown = label or f"wall {part.label.lower()}"
        build.add(shown, "", part.pp, f"{part.label}: {part.rule}", section)


def _wall_option(build: _Build, name: str, value: str | None) -> None:
    if "wall" not in build.values:
        raise BadInput("{name} describes a wall: give wall:LENGTHxHEIGHTxTHICKNESS too.", name=name)


def _flat(rate_key: str) -> Handler:
    def handler(build: _Build, name: str, value: str | None) -> None:
        if value is not None:
            raise BadInput("{name} takes no value.", name=name)
        rate = build.catalogue.rate(rate_key)
        build.add(name, "", rate.pp, f"+{format_pp(rate.pp)} PP", rate.section)

    return handler


def _special(key: str) -> Handler:
    def handler(build: _Build, name: str, value: str | None) -> None:
        special = build.catalogue.special(key)
        if special.key == "critical":
            build.breaks(
                "Critical Restriction",
                "Critical may be granted only through Active Buff: Critical or the Agility "
                "Ability: Crit Stone Ability, never as a rider.",
                "drop critical; look up Active Buff: Critical",
            )
            return
        if special.pricing == "unpriced":
            build.breaks(
                special.section.split(";")[-1].strip(),
                f"{special.name} has no PP price: {special.note or special.effect}",
                "leave it out of the build",
            )
            return
        x = None if not special.takes_x else _count(name, value)
        if not special.takes_x and value is not None:
            raise BadInput("{name} takes no value.", name=special.name)
        priced = special_cost(special, x)
        build.add(
            name,
            "" if x is None else str(x),
            priced.cost_pp or 0,
            priced.formula,
            special.section,
            lasting=special.group != "instant",
        )

    return handler


def handlers(catalogue: Catalogue) -> dict[str, Handler]:
    """Return every priced component's handler, by name."""
    table: dict[str, Handler] = {
        "damage": _damage,
        "healing": lambda b, n, v: _rate(b, n, v, "healing_d8", die=8),
        "armor": _passive_or("passive_armor", "armor"),
        "evade": _passive_or("passive_evade", "evade"),
        "temp_hp": _temp_hp,
        "refresh_hp": lambda b, n, v: _rate(b, n, v, "temp_hp_refresh"),
        "regen": _passive_or("passive_healing", "regeneration_hp"),
        "range": _range,
        "range_base": _range_base,
        "reach": lambda b, n, v: _table(b, n, v, "melee_reach", what="reach"),
        "radius": _radius,
        "aura": lambda b, n, v: _table(b, n, v, "aura_passive_radius", what="aura radius"),
        "special_aura": _special_aura,
        "rounds": _rounds,
        "control": lambda b, n, v: _table(
            b, n, v, "push_pull_control", what="Push/Pull control distance"
        ),
        "image": _image,
        "image_size": _image_size,
        "barrier": lambda b, n, v: _table(b, n, v, "barrier_hp", lasting=True, what="Barrier HP"),
        "wall": _wall,
        "los": _wall_option,
        "resilience": _wall_option,
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
        table.setdefault(special.key, _special(special.key))
    precision = table["precision"]
    table["precision"] = lambda b, n, v: precision(b, n, _strip_d8(v))
    return table


def _strip_d8(value: str | None) -> str | None:
    if value and value.endswith("d8"):
        return value[:-2]
    return value


FLAGS = {"persistent", "charged", "capstone", "conditional", "los", "resilience"}
FLAG_VALUES = {"discount"}
# Components a later one reads (range_base, the wall options): parsed before the rest.
ORDER = {"range_base": 0, "los": 0, "resilience": 0, "rounds": 1, "wall": 2}

ALIASES = {
    "dmg": "damage",
    "heal": "healing",
    "pen": "penetration",
    "brutal": "brutal_impact",
    "aoe": "radius",
    "split_attack": "split",
    "temporary_hp": "temp_hp",
    "refreshing_hp": "refresh_hp",
    "regeneration_hp": "regen",
    "crit": "critical",
    "opaque": "los",
    "line_of_sight": "los",
    "baseline": "range_base",
}


def component_names(catalogue: Catalogue) -> tuple[str, ...]:
    """Return every component name the parser accepts (flags included)."""
    return tuple(sorted({*handlers(catalogue), *FLAGS, *FLAG_VALUES} - {"dispel_magic"}))


def tokens(text: str) -> list[tuple[str, str | None]]:
    """Split component text into (name, value) pairs, names folded and aliased."""
    found = []
    for raw in re.split(r"[\s,;]+", text.strip()):
        if not raw:
            continue
        name, _, value = raw.partition(":")
        name = name.strip().lower().replace("-", "_")
        found.append((ALIASES.get(name, name), value.strip().lower() or None))
    return found


def _curve_key(catalogue: Catalogue, type_name: str | None) -> CurvedTypeKey | None:
    if type_name is None:
        return None
    return curved_type(catalogue, resolve_type(catalogue, type_name)).key


def _parse(
    catalogue: Catalogue, type_key: str | None, pairs: list[tuple[str, str | None]]
) -> tuple[_Build, Discount | None]:
    """Read the component pairs into a priced build (flags first, then every priced part)."""
    table = handlers(catalogue)
    valid = ", ".join(component_names(catalogue))
    build = _Build(catalogue=catalogue, type_key=type_key)
    discount = None
    for name, value in pairs:
        if name not in table and name not in FLAGS and name not in FLAG_VALUES:
            raise BadInput(
                "Unknown component '{name}'. Valid components: {valid}.",
                name=name[:40],
                valid=valid,
            )
        if name in build.values:
            raise BadInput("Component '{name}' is given twice.", name=name)
        build.values[name] = value
        if name in FLAGS:
            if value is not None:
                raise BadInput("{name} takes no value.", name=name)
            build.flags.add(name)
        elif name == "discount":
            discount = _discount(catalogue, value)
        elif name in ("image", "image_size", "barrier"):
            build.flags.add(name)
    if "wall" in build.values and build.persistent:
        raise BadInput(
            "A wall is priced as a terrain construct; a Barrier by radius and HP: give one of them."
        )
    for name, value in sorted(pairs, key=lambda pair: ORDER.get(pair[0], 3)):
        if name in table:
            table[name](build, name, value)
    return build, discount


def _discount(catalogue: Catalogue, value: str | None) -> Discount:
    discounts = {d.key: d for d in catalogue.tables.discounts}
    if value not in discounts:
        raise BadInput(
            "discount must be one of {discounts}; not {value}.",
            discounts=", ".join(discounts),
            value=(value or "")[:20],
        )
    return discounts[value]


def _fits(
    catalogue: Catalogue, pairs: list[tuple[str, str | None]], *, charged: bool
) -> tuple[CurveFit, ...]:
    """Price the build as each power type would and give the lowest level that holds it.

    A type whose rules the build breaks is left out; Passives cannot be Charged, and a
    Charged build is measured against the Charged targets.
    """
    fits = []
    for key in CURVED_TYPES:
        if charged and not catalogue.power_type(key).charged_allowed:
            continue
        try:
            build, discount = _parse(catalogue, key, pairs)
        except BadInput:
            continue  # priced per d6 on a Passive, a cap of that type…: it does not take it
        names = list(build.values)
        if build.violations or build_violations(
            catalogue, key, names, capstone="capstone" in build.flags
        ):
            continue
        total = sum(p.cost_pp for p in build.parts) * (discount.multiplier if discount else 1.0)
        level = fitting_level(catalogue, total, key, charged=charged)
        target = curve_target(catalogue, key, level, charged=charged).target_pp
        fits.append(
            CurveFit(
                type=key,
                type_name=catalogue.power_type(key).name,
                level=level,
                target_pp=target,
                total_pp=total,
            )
        )
    return tuple(fits)


def price(
    catalogue: Catalogue,
    components: str,
    type_key: str | None = None,
    level: int | None = None,
) -> PriceBreakdown:
    """Price a build from components against a curve, and list the SRD rules it breaks."""
    key = _curve_key(catalogue, type_key)
    if level is not None:
        check_level(level)
    if level is not None and key is None:
        raise BadInput("Give a power type together with the level.")
    pairs = tokens(components)
    if not pairs:
        raise BadInput("Give at least one component, like damage:2d8 range:12.")
    build, discount = _parse(catalogue, key, pairs)
    if not build.parts and not build.violations:
        raise BadInput(
            "Give at least one priced component. Valid components: {valid}.",
            valid=", ".join(component_names(catalogue)),
        )
    charged, capstone = "charged" in build.flags, "capstone" in build.flags
    if charged and key == "passive":
        raise BadInput("Passives cannot be Charged.")
    subtotal = sum(part.cost_pp for part in build.parts)
    multiplier = discount.multiplier if discount else 1.0
    total = subtotal * multiplier
    check, inferred, violations = None, False, list(build.violations)
    if key is not None:
        if level is None:
            level, inferred = fitting_level(catalogue, total, key, charged=charged), True
        check = judge(catalogue, total, key, level, charged=charged, capstone=capstone)
        violations += build_violations(catalogue, key, list(build.values), capstone=capstone)
    return PriceBreakdown(
        components=tuple(build.parts),
        subtotal_pp=subtotal,
        discount=discount.name if discount else None,
        discount_multiplier=multiplier,
        total_pp=total,
        type=key,
        level=level,
        level_inferred=inferred,
        charged=charged,
        capstone=capstone,
        persistent=build.persistent,
        check=check,
        fits=() if key is not None else _fits(catalogue, pairs, charged=charged),
        violations=tuple(violations),
        names=tuple(build.values),
    )
