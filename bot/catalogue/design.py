"""Check a whole Power against the SRD and lay it out as the SRD's power card.

`design_power` takes what a designer writes — name, type, level (or several levels
as `L1 … L4 …` groups in the components), components, tags, a flavour line — and
returns plain data: the title "Name (Type, Tag)", the power table rows, the
tooltip's BASELINES / CALCULATION / NOTES, and every SRD rule the design breaks
with a conforming alternative. `/pp design` renders it; saving a designed Power to
a character sheet (issue 18) can store the same result.

A refusal speaks the reader's language; the card itself — its table, tooltip and the
rules it breaks — is the SRD's output format, in English for every reader as the SRD
asks ("Standard: Englisch für alle Regeltexte und Tooltips" [001 §0.2]).
"""

import re
from itertools import pairwise

from bot.catalogue.build import PriceBreakdown, price, tokens
from bot.catalogue.checks import movement_violations
from bot.catalogue.models import Catalogue, MovementType
from bot.catalogue.pricing import (
    CURVED_TYPES,
    Result,
    check_level,
    format_pp,
    movement_progression,
    resolve_type,
)
from bot.catalogue.shapes import Violation
from bot.errors import BadInput

MAX_NAME = 60
MAX_FLAVOUR = 200
MAX_TAGS = 5
MAX_TAG = 24
_LEVEL_MARK = re.compile(r"^l(\d{1,2})$")
_TAG = re.compile(r"^[A-Za-z][A-Za-z -]*$")
SRD_TAGS = {"spell": "Spell", "charged": "Charged", "one-time-use": "One-Time-Use"}
MISSING_FLAVOUR = "The card needs one flavour line (§8.2): give it with flavour."


class DesignRow(Result):
    """One level of the power table, with the build that prices it."""

    level: int
    range: str
    aoe: str
    duration: str
    specials: tuple[str, ...]
    effect: str
    breakdown: PriceBreakdown | None = None
    distance: str | None = None  # Movement: the distance at this level


class PowerDesign(Result):
    """A designed Power as the SRD's card: title, flavour, table, tooltip, and its violations."""

    name: str
    type: str
    type_name: str
    movement: str | None
    tags: tuple[str, ...]
    title: str
    flavour: str
    components: str
    rows: tuple[DesignRow, ...]
    baselines: tuple[str, ...]
    calculation: tuple[str, ...]
    notes: tuple[str, ...]
    violations: tuple[Violation, ...]

    @property
    def conforms(self) -> bool:
        """Say whether the design breaks no SRD rule and no level is over its curve."""
        over = any(
            r.breakdown and r.breakdown.check and r.breakdown.check.verdict == "over"
            for r in self.rows
        )
        return not self.violations and not over


def level_groups(components: str, level: int | None) -> list[tuple[int, str]]:
    """Split 'L1 damage:1d8 L4 damage:2d8' into (level, components) pairs, in level order."""
    groups: list[tuple[int | None, list[str]]] = [(None, [])]
    for word in re.split(r"[\s,;]+", components.strip()):
        mark = _LEVEL_MARK.match(word.lower())
        if mark:
            groups.append((check_level(int(mark.group(1))), []))
        elif word:
            groups[-1][1].append(word)
    head, *marked = groups
    if not marked:
        if level is None:
            raise BadInput(
                "Give the level, or write each level's parts as L1 … L4 … in components."
            )
        return [(check_level(level), " ".join(head[1]))]
    if level is not None:
        raise BadInput("Give the level either as level or as L… groups in components, not both.")
    shared = " ".join(head[1])  # flags written before the first group apply to every level
    levels = [lv for lv, _ in marked]
    if len(set(levels)) != len(levels):
        raise BadInput("Each level may appear once in components.")
    found = [(lv or 1, " ".join([shared, *words]).strip()) for lv, words in marked]
    return sorted(found)


def _tags(raw: str | None, charged: bool) -> list[str]:
    tags: list[str] = []
    for part in (raw or "").split(","):
        word = part.strip()
        if not word:
            continue
        if len(word) > MAX_TAG or not _TAG.match(word):
            raise BadInput(
                "A tag is a word or two of letters, at most {most} characters: not '{tag}'.",
                most=MAX_TAG,
                tag=word[:30],
            )
        tag = SRD_TAGS.get(word.casefold(), word.title())
        if tag not in tags:
            tags.append(tag)
    if charged and "Charged" not in tags:
        tags.append("Charged")
    if len(tags) > MAX_TAGS:
        raise BadInput("Give at most {most} tags.", most=MAX_TAGS)
    return tags


def _a(name: str) -> str:
    return f"{'an' if name[0] in 'AEIOU' else 'a'} {name}"


def tag_violations(catalogue: Catalogue, type_key: str, tags: list[str]) -> list[Violation]:
    """Return the §8.7 tag rules a design breaks: Spell only on Active, Passives tag-free…"""
    name = catalogue.power_type(type_key).name
    found = []
    for tag in tags:
        if tag == "Spell" and type_key != "active":
            found.append(
                Violation(
                    rule="§8.7 Validation Rule; Tag: Spell",
                    reason=f"Spell is used only on Actives, not on {_a(name)}.",
                    alternative="drop the Spell tag, or make it an Active",
                )
            )
        elif tag == "Charged" and not catalogue.power_type(type_key).charged_allowed:
            found.append(
                Violation(
                    rule="8) Charged Powers; Passive Restrictions",
                    reason=f"{_a(name).capitalize()} may never be Charged.",
                    alternative="drop Charged",
                )
            )
        elif tag not in SRD_TAGS.values() and type_key != "active":
            found.append(
                Violation(
                    rule="§8.7 Validation Rule",
                    reason=f"{name}s carry only the tags their type allows; '{tag}' is an Active's element or theme tag.",
                    alternative=f"drop '{tag}' (write the theme into the name or flavour)",
                )
            )
    return found


def _structure_violations(rows: list[tuple[int, PriceBreakdown]]) -> list[Violation]:
    """Levels 1–4 set the structure; later levels add nothing new and no value ever falls."""
    found: list[Violation] = []
    early = {name for level, b in rows if level <= 4 for name in b.names}
    for level, breakdown in rows:
        new = [n for n in breakdown.names if n not in early]
        if level > 4 and early and new:
            found.append(
                Violation(
                    rule="Power Progression Beyond Level 4; Design Rule",
                    reason=f"Level {level} adds {', '.join(new)}; Levels 1–4 define the structure and Levels 5–16 only scale it.",
                    alternative=f"add {', '.join(new)} at Level 4 or earlier, or leave it out",
                )
            )
    for (low, before), (high, after) in pairwise(rows):
        values = {p.name: p.cost_pp for p in after.components}
        for part in before.components:
            now = values.get(part.name)
            if now is None or now < part.cost_pp:
                what = "drops" if now is None else "lowers"
                found.append(
                    Violation(
                        rule="§10.6 / §10.8 (values never decrease)",
                        reason=f"Level {high} {what} {part.name} from Level {low}.",
                        alternative=f"keep {part.name} at least as at Level {low}",
                    )
                )
    return found


def _range(type_key: str, values: dict[str, str | None]) -> str:
    if values.get("range"):
        value = values["range"] or ""
        return value.title() if value in ("touch", "self", "melee") else f"{value} m"
    if values.get("reach"):
        return f"{values['reach']} m reach"
    return "8 m" if type_key == "active" else "Self"


def _aoe(catalogue: Catalogue, type_key: str, level: int, values: dict[str, str | None]) -> str:
    if values.get("radius"):
        return f"{values['radius']} m radius"
    for name in ("aura", "special_aura"):
        if values.get(name):
            return f"{values[name]} m aura"
    if values.get("wall"):
        return values["wall"].replace("x", " m × ") + " m wall"
    if values.get("image_size"):
        return f"{values['image_size']} image"
    if "aura_damage" in values or "aura_healing" in values:
        entry = catalogue.entry("active_buff", "damage_aura")
        bands = entry.levels.bands if entry.levels and entry.levels.kind == "bands" else ()
        return next((f"{b.value} aura" for b in bands if b.from_ <= level <= b.to), "aura")
    return "—"


def _duration(type_key: str, values: dict[str, str | None]) -> str:
    if type_key == "passive":
        return "Permanent"
    if type_key == "active_buff" or "wall" in values:
        return "Mastery Rank rounds"
    if values.keys() & {"persistent", "image", "image_size", "barrier"}:
        return "4 rounds"
    if values.get("rounds"):
        return f"{values['rounds']} rounds"
    return "Instant"


EFFECTS = {
    "damage": "{} damage",
    "healing": "{} healing",
    "armor": "+{} Armor",
    "evade": "+{} Evade",
    "temp_hp": "{} Temporary HP",
    "refresh_hp": "{} Temporary HP, refreshed each turn",
    "regen": "regain {} HP at the start of your turn",
    "autofire": "Autofire({})",
    "split": "Split-Attack (2 Strikes)",
    "control": "Push or Pull {} m",
    "image": "Image {}",
    "barrier": "a Barrier of {} HP",
    "thorns": "Thorns {}",
    "mental": "{} Mental damage",
    "counter": "{} Counter Damage",
    "counter_push": "Counter Push {} m",
    "aura_damage": "{} damage at the end of your turn",
    "aura_healing": "{} healing at the end of your turn",
    "health_bar": "+1 Health Bar ({})",
    "health_level": "{} Health Levels per Safe Haven Rest",
    "spell_resistance": "+{} Spell Resistance",
    "raise": "+{} Raise",
    "special_aura": "+1 step to one chosen Special(X) already on a creature in the aura",
    "wall": "a wall",
    "los": "blocking sight",
    "resilience": "+10 HP and +1 Armor per segment",
}


def _row(
    catalogue: Catalogue,
    type_key: str,
    level: int,
    breakdown: PriceBreakdown,
    values: dict[str, str | None],
) -> DesignRow:
    specials = {s.key: s for s in catalogue.specials.specials}
    marks, effects = [], []
    for name in breakdown.names:
        value = values.get(name)
        special = specials.get(name)
        if special is not None:
            marks.append(f"{special.name}({value})" if special.takes_x and value else special.name)
        elif name in EFFECTS:
            effects.append(EFFECTS[name].format(value or ""))
    return DesignRow(
        level=level,
        range=_range(type_key, values),
        aoe=_aoe(catalogue, type_key, level, values),
        duration=_duration(type_key, values),
        specials=tuple(marks),
        effect="; ".join(effects) or ("applies " + ", ".join(marks) if marks else "—"),
        breakdown=breakdown,
    )


def _calculation(row: DesignRow) -> str:
    breakdown = row.breakdown
    if breakdown is None or breakdown.check is None:
        return f"L{row.level} → {row.distance}"
    parts = " + ".join(
        f"{p.name}{':' + p.value if p.value else ''} {format_pp(p.cost_pp)}"
        for p in breakdown.components
    )
    check = breakdown.check
    total = format_pp(breakdown.total_pp)
    verdict = {
        "on_curve": "on curve",
        "under": f"under curve, {format_pp(check.unused_pp)} PP unused",
        "over": f"over curve by {format_pp(check.over_by_pp)} PP",
        "capstone": f"capstone, {format_pp(check.over_by_pp)} PP over",
    }[check.verdict]
    discount = f" × {breakdown.discount_multiplier:g}" if breakdown.discount else ""
    return f"L{row.level} → {parts or '0'}{discount} = {total} PP of {format_pp(check.target_pp)} ({verdict})"


def _baselines(catalogue: Catalogue, type_key: str, rows: list[DesignRow]) -> list[str]:
    power_type = catalogue.power_type(type_key)
    curve = power_type.curve() or ()
    lines = [
        f"{power_type.name} curve = {' / '.join(str(v) for v in curve[:4])} PP, +{power_type.per_level_pp} PP per level to Level 16"
    ]
    charged = rows and rows[0].breakdown and rows[0].breakdown.charged
    rules = catalogue.power_types.rules
    if charged:
        lines.append(f"Charged: +{format_pp(rules.charged_bonus_pp)} PP to the target")
    lines.append(
        f"On curve within ±{format_pp(rules.on_curve_tolerance_pp)} PP (§10.3); design band ±{rules.design_band_pct:g} % (§0.2)"
    )
    seen: dict[str, str] = {}
    for row in rows:
        for part in row.breakdown.components if row.breakdown else ():
            seen.setdefault(part.name, part.source)
    lines += [f"{name}: {source}" for name, source in seen.items()]
    return lines


def _title(name: str, type_name: str, tags: list[str]) -> str:
    return f"{name} ({', '.join([type_name, *tags])})"


def _movement_design(
    catalogue: Catalogue,
    name: str,
    movement: MovementType,
    groups: list[tuple[int, str]],
    tags: list[str],
    flavour: str,
) -> PowerDesign:
    rows, violations = [], []
    for level, text in groups:
        names = [n for n, _ in tokens(text)]
        violations += movement_violations(names)
        at = movement_progression(catalogue, movement, level).at_level or ()
        distance = " / ".join(at)
        rows.append(
            DesignRow(
                level=level,
                range=distance,
                aoe="—",
                duration="Your Movement",
                specials=(),
                effect=f"{movement.name}: {movement.path_notes}",
                distance=distance,
            )
        )
    violations += tag_violations(catalogue, "movement", tags)
    baselines = (
        f"Movement: {movement.name} — {movement.pricing_logic}",
        f"Cap: {movement.cap}; Movement has no PP curve (priced by movement quality)",
    )
    calculation = tuple(f"L{r.level} → {r.distance} (the SRD's progression)" for r in rows)
    notes = _notes(violations) + (() if flavour else (MISSING_FLAVOUR,))
    return PowerDesign(
        name=name,
        type="movement",
        type_name="Movement",
        movement=movement.key,
        tags=tuple(tags),
        title=_title(name, f"Movement: {movement.name}", tags),
        flavour=flavour,
        components=" ".join(t for _, t in groups),
        rows=tuple(rows),
        baselines=baselines,
        calculation=calculation,
        notes=notes,
        violations=tuple(dict.fromkeys(violations)),
    )


def _notes(violations: list[Violation], rows: list[DesignRow] = ()) -> tuple[str, ...]:
    notes = []
    for row in rows:
        check = row.breakdown.check if row.breakdown else None
        if check and check.decided_by:
            notes.append(f"L{row.level}: {check.decided_by}")
    for violation in dict.fromkeys(violations):
        notes.append(
            f"// SRD: {violation.rule} — {violation.reason} Instead: {violation.alternative}."
        )
    return tuple(notes)


def _charged_groups(
    catalogue: Catalogue, key: str, groups: list[tuple[int, str]], charged: bool
) -> list[tuple[int, str]]:
    """Put the Charged flag on every level when tagged; a type that cannot be Charged drops it."""
    allowed = key not in CURVED_TYPES or catalogue.power_type(key).charged_allowed
    fixed = []
    for level, text in groups:
        words = [w for w in text.split() if w.lower() != "charged"]
        if charged and allowed:
            words.append("charged")
        fixed.append((level, " ".join(words)))
    return fixed


def design_power(
    catalogue: Catalogue,
    name: str,
    type_name: str,
    components: str = "",
    level: int | None = None,
    tags: str | None = None,
    flavour: str | None = None,
) -> PowerDesign:
    """Validate and price a whole Power and return its SRD power card as data."""
    name = " ".join(name.split())
    if not 1 <= len(name) <= MAX_NAME:
        raise BadInput("A Power's name is 1–{most} characters.", most=MAX_NAME)
    flavour = " ".join((flavour or "").split())
    if len(flavour) > MAX_FLAVOUR:
        raise BadInput("The flavour line is at most {most} characters.", most=MAX_FLAVOUR)
    key = resolve_type(catalogue, type_name)
    groups = level_groups(components, level)
    charged = any(n == "charged" for _, text in groups for n, _ in tokens(text))
    tag_list = _tags(tags, charged)
    groups = _charged_groups(catalogue, key, groups, "Charged" in tag_list)
    if key == "movement":
        raise BadInput(
            "Name the movement type as the type (teleport, flight…): Movement has no curve of its own."
        )
    if key not in CURVED_TYPES:
        return _movement_design(
            catalogue, name, catalogue.movement_type(key), groups, tag_list, flavour
        )
    rows, priced = [], []
    for lv, text in groups:
        if not text:
            raise BadInput("Level {level} has no components.", level=lv)
        breakdown = price(catalogue, text, key, lv)
        priced.append((lv, breakdown))
        rows.append(_row(catalogue, key, lv, breakdown, dict(tokens(text))))
    violations = [v for _, b in priced for v in b.violations]
    violations += tag_violations(catalogue, key, tag_list) + _structure_violations(priced)
    violations = list(dict.fromkeys(violations))
    type_label = catalogue.power_type(key).name
    return PowerDesign(
        name=name,
        type=key,
        type_name=type_label,
        movement=None,
        tags=tuple(tag_list),
        title=_title(name, type_label, tag_list),
        flavour=flavour,
        components=components.strip(),
        rows=tuple(rows),
        baselines=tuple(_baselines(catalogue, key, rows)),
        calculation=tuple(_calculation(row) for row in rows),
        notes=_notes(violations, rows) + (() if flavour else (MISSING_FLAVOUR,)),
        violations=tuple(violations),
    )
