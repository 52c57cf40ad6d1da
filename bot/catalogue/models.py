"""The SRD catalogue's shapes: one pydantic model per file in data/, and the loader.

Every figure lives in the data files; these models only say what a valid file
looks like, strictly enough that a typo stops start-up with the file and field named.
"""

# Annotations are evaluated as each class is made, not postponed: pydantic compiled and
# evaluated every field's annotation string instead (tests/unit/bot/test_startup.py).

import json
import math
import string
from collections.abc import Iterable
from itertools import pairwise
from pathlib import Path
from typing import Annotated, Literal, Self, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from bot.errors import TablehandError

MAX_LEVEL = 16
DATA_DIR = Path(__file__).resolve().parents[2] / "data"

PowerTypeKey = Literal["active", "active_buff", "reaction", "passive", "movement"]
CurvedTypeKey = Literal["active", "active_buff", "reaction", "passive"]
EntryKind = Literal["active", "active_buff", "reaction", "passive", "rule"]
SpecialGroupKey = Literal["diminishing", "timed", "until_broken", "instant", "support", "control"]
SpecialPricing = Literal["triangular", "per_x", "fixed", "unpriced"]
SpecialDecay = Literal[
    "start_of_turn", "mastery_rank", "end_of_turn", "on_use", "next_turn", "none"
]

Level = Annotated[int, Field(ge=1, le=MAX_LEVEL)]
PP = Annotated[float, Field(ge=0)]
Key = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=40)]
Name = Annotated[str, Field(min_length=1, max_length=80)]
Text = Annotated[str, Field(min_length=1, max_length=500)]
Aliases = tuple[Name, ...]


class CatalogueError(TablehandError):
    """A catalogue data file is missing or malformed, so the bot cannot start."""


class Model(BaseModel):
    """Base for catalogue data: strict, closed and immutable once loaded."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, defer_build=True)


def triangular(x: int) -> int:
    """Return T(X) = 1 + 2 + … + X, the SRD's Diminishing multiplier."""
    return x * (x + 1) // 2


def _unique(keys: Iterable[str], what: str) -> None:
    seen: set[str] = set()
    for key in keys:
        if key in seen:
            raise ValueError(f"duplicate {what} {key!r}")
        seen.add(key)


def _check_format(value: str) -> str:
    fields = [name for _, name, _, _ in string.Formatter().parse(value) if name is not None]
    if fields != [""]:
        raise ValueError("format must contain exactly one '{}'")
    return value


FormatStr = Annotated[str, AfterValidator(_check_format)]


# ---------------------------------------------------------------- power_types.json


class CurveRules(Model):
    """The curve conventions every power type shares [§0.2, §10.3, Charged Adders]."""

    max_level: Literal[16]
    on_curve_tolerance_pp: PP
    design_band_pct: PP
    capstone_band_pct: PP
    charged_bonus_pp: PP
    normal_movement_m: Annotated[int, Field(ge=1)]
    section: str
    note: str | None = None


class PowerType(Model):
    """One of the five power types and its target PP curve (none for Movement)."""

    key: PowerTypeKey
    name: Name
    aliases: Aliases = ()
    summary: Text
    cost: str
    base_curve: tuple[int, int, int, int] | None
    per_level_pp: Annotated[int, Field(gt=0)] | None
    charged_allowed: bool
    tags_allowed: tuple[str, ...] = ()
    section: str
    note: str | None = None

    @model_validator(mode="after")
    def _curve_is_linear(self) -> Self:
        if (self.base_curve is None) != (self.per_level_pp is None):
            raise ValueError("base_curve and per_level_pp are given together or not at all")
        if (self.key == "movement") != (self.base_curve is None):
            raise ValueError("only Movement has no curve")
        if self.base_curve is not None:
            steps = {b - a for a, b in pairwise(self.base_curve)}
            if steps != {self.per_level_pp}:
                raise ValueError("base_curve must rise by per_level_pp each level")
        return self

    @property
    def kind(self) -> str:
        return "power_type"

    def target(self, level: int) -> int | None:
        """Return the target PP at a level by the Linear Continuation Rule."""
        if self.base_curve is None or self.per_level_pp is None:
            return None
        return self.base_curve[0] + self.per_level_pp * (level - 1)

    def curve(self) -> tuple[int, ...] | None:
        """Return the sixteen target PP values, or None for Movement."""
        if self.base_curve is None:
            return None
        return tuple(self.target(level) or 0 for level in range(1, MAX_LEVEL + 1))


class PowerTypesFile(Model):
    """data/power_types.json."""

    rules: CurveRules
    types: tuple[PowerType, ...]

    @field_validator("types")
    @classmethod
    def _all_five(cls, types: tuple[PowerType, ...]) -> tuple[PowerType, ...]:
        _unique((t.key for t in types), "power type")
        if len(types) != 5:
            raise ValueError("exactly the five power types are expected")
        return types


# ---------------------------------------------------------------- specials.json


class SpecialGroup(Model):
    """A family of Specials sharing pricing and stacking rules."""

    key: SpecialGroupKey
    name: Name
    summary: Text
    section: str


class TemplateGroup(Model):
    """A §10.15 Special group for Active templates, by Start PP."""

    name: Name
    start_pp: PP
    specials: tuple[Key, ...]


class Special(Model):
    """A Special (Ruin, Stunned, Push…) with its price, X meaning and bookkeeping flags."""

    key: Key
    name: Name
    aliases: Aliases = ()
    group: SpecialGroupKey
    pricing: SpecialPricing
    start_pp: PP | None = None
    pp_per_x: PP | None = None
    fixed_pp: PP | None = None
    binary: bool = False
    min_x: Annotated[int, Field(ge=1)] = 1
    # 99 is the bot's ceiling; a lower max_x is a cap the SRD (or the die) states.
    max_x: Annotated[int, Field(ge=1, le=99)] = 99
    decay: SpecialDecay = "start_of_turn"
    x_meaning: Text
    effect: Text
    duration: Name
    cleanse: bool
    tick: bool
    overdrive_eligible: bool = False
    aura_eligible: bool = False
    ward_eligible: bool = False
    section: str
    note: str | None = None

    @model_validator(mode="after")
    def _pricing_matches(self) -> Self:
        given = {
            "start_pp": self.start_pp is not None,
            "pp_per_x": self.pp_per_x is not None,
            "fixed_pp": self.fixed_pp is not None,
        }
        needed = {"triangular": "start_pp", "per_x": "pp_per_x", "fixed": "fixed_pp"}.get(
            self.pricing
        )
        for field, present in given.items():
            if present != (field == needed):
                raise ValueError(f"pricing {self.pricing!r} needs {needed or 'no price field'}")
        if self.binary and self.pricing not in ("fixed", "unpriced"):
            raise ValueError("a binary Special has a fixed price")
        if self.min_x > self.max_x:
            raise ValueError("min_x is above max_x")
        if self.group == "diminishing" and (
            self.pricing != "triangular" or self.decay != "start_of_turn"
        ):
            raise ValueError("a Diminishing Special is priced Start PP × T(X) and decays each turn")
        return self

    @property
    def kind(self) -> str:
        return "special"

    @property
    def takes_x(self) -> bool:
        """Say whether the Special is written with an X (Ruin(X)) rather than fixed (Prone)."""
        return self.pricing in ("triangular", "per_x")

    def cost(self, x: int | None = None) -> float | None:
        """Return the PP cost at X (fixed Specials ignore X; unpriced ones return None)."""
        if self.pricing == "triangular" and self.start_pp is not None and x is not None:
            return self.start_pp * triangular(x)
        if self.pricing == "per_x" and self.pp_per_x is not None and x is not None:
            return self.pp_per_x * x
        if self.pricing == "fixed":
            return self.fixed_pp
        return None


class SpecialsFile(Model):
    """data/specials.json."""

    groups: tuple[SpecialGroup, ...]
    template_groups: tuple[TemplateGroup, ...]
    specials: tuple[Special, ...]

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        _unique((s.key for s in self.specials), "Special")
        _unique((g.key for g in self.groups), "group")
        by_key = {s.key: s for s in self.specials}
        for group in self.template_groups:
            for key in group.specials:
                special = by_key.get(key)
                if special is None:
                    raise ValueError(f"template group {group.name!r} names unknown Special {key!r}")
                if special.start_pp != group.start_pp:
                    raise ValueError(
                        f"{key!r} has Start PP {special.start_pp}, not {group.start_pp}"
                    )
        return self


# ---------------------------------------------------------------- movement.json


class ProgressionRow(Model):
    """One row of a movement progression: sixteen values and their cap."""

    label: Name
    unit: Literal["m", "d8"]
    cap: Annotated[int, Field(ge=1)]
    values: tuple[Annotated[int, Field(ge=0)] | None, ...]

    @model_validator(mode="after")
    def _rises_to_cap(self) -> Self:
        if len(self.values) != MAX_LEVEL:
            raise ValueError(f"values need {MAX_LEVEL} levels, got {len(self.values)}")
        numbers = [v for v in self.values if v is not None]
        if self.values[: MAX_LEVEL - len(numbers)] != (None,) * (MAX_LEVEL - len(numbers)):
            raise ValueError("'—' (null) may only open a progression")
        if any(b < a for a, b in pairwise(numbers)):
            raise ValueError("a progression never decreases")
        if not numbers or numbers[-1] != self.cap or max(numbers) != self.cap:
            raise ValueError("a progression ends at its cap")
        return self

    def format(self, value: int | None) -> str:
        """Render one cell: '12 m', '3d8' or '—'."""
        if value is None:
            return "—"
        return f"{value}d8" if self.unit == "d8" else f"{value} m"


class MovementType(Model):
    """One of the ten canonical Movement types with its pricing logic and progression."""

    key: Key
    name: Name
    aliases: Aliases = ()
    summary: Text
    pricing_logic: Text
    approx_pp_per_m: PP | None
    path_notes: Text
    cap: Name
    rows: Annotated[tuple[ProgressionRow, ...], Field(min_length=1)]
    note: str | None = None

    @model_validator(mode="after")
    def _cap_matches_rows(self) -> Self:
        for row in self.rows:
            if row.format(row.cap) not in self.cap:
                raise ValueError(f"cap {self.cap!r} does not name the {row.label} cap {row.cap}")
        return self

    @property
    def kind(self) -> str:
        return "movement"

    @property
    def section(self) -> str:
        return "Movement Type Pricing and Caps; Movement Distance Progressions"


class MovementFile(Model):
    """data/movement.json."""

    normal_movement_m: Annotated[int, Field(ge=1)]
    section: str
    forbidden: tuple[str, ...]
    types: tuple[MovementType, ...]

    @field_validator("types")
    @classmethod
    def _unique_types(cls, types: tuple[MovementType, ...]) -> tuple[MovementType, ...]:
        _unique((t.key for t in types), "movement type")
        return types


# ---------------------------------------------------------------- tables.json


class Constants(Model):
    """Single numbers the formulas need."""

    special_aura_core_pp: PP
    zone_extra_round_pp: PP
    persistent_rounds: Annotated[int, Field(ge=1)]
    persistent_multiplier: Annotated[int, Field(ge=1)]
    instant_aoe_max_radius_m: Annotated[int, Field(ge=1)]
    spell_tn_per_tier: Annotated[int, Field(ge=1)]
    mental_tn_bonus: Annotated[int, Field(ge=0)]
    raise_tn: Annotated[int, Field(ge=1)]
    section: str


class PriceRow(Model):
    """A row of the General Price Cost table."""

    label: Name
    pp: PP | None
    pp_text: str | None = None
    note: Text

    @model_validator(mode="after")
    def _one_price(self) -> Self:
        if (self.pp is None) == (self.pp_text is None):
            raise ValueError("give either pp or pp_text")
        return self


class Rate(Model):
    """A per-unit price: 15 PP per +1d8, 7.5 PP per +1 Armor…"""

    key: Key
    name: Name
    aliases: Aliases = ()
    pp: PP
    conditional_pp: PP | None = None
    per: Text
    cap: float | None = None
    section: str
    note: str | None = None


class CostRow(Model):
    """One step of a cost table: a value (radius, metres, HP…) or a label, and its PP."""

    label: Name | None = None
    value: float | None = None
    pp: PP
    min_level: Level | None = None
    note: str | None = None

    @model_validator(mode="after")
    def _named(self) -> Self:
        if self.label is None and self.value is None:
            raise ValueError("a cost row needs a label or a value")
        return self


class CostTable(Model):
    """A look-up table of costs (range, AoE radius, image tier, barrier HP…)."""

    key: Key
    name: Name
    aliases: Aliases = ()
    summary: Text
    column: Name
    unit: str
    rows: Annotated[tuple[CostRow, ...], Field(min_length=1)]
    section: str
    note: str | None = None

    @model_validator(mode="after")
    def _distinct(self) -> Self:
        values = [row.value for row in self.rows if row.value is not None]
        labels = [self.label_of(row) for row in self.rows]
        if len(set(values)) != len(values) or len(set(labels)) != len(labels):
            raise ValueError("each row needs its own value and label")
        return self

    def label_of(self, row: CostRow) -> str:
        """Render a row's key: its label, or its value with the unit."""
        if row.label is not None:
            return row.label
        value = f"{row.value:g}"
        return f"{value} {self.unit}" if self.unit and self.unit != "%" else f"{value}{self.unit}"

    def row_for_value(self, value: float) -> CostRow | None:
        """Return the row with exactly this value, if any."""
        return next((row for row in self.rows if row.value == value), None)

    def row_for_label(self, label: str) -> CostRow | None:
        """Return the row with this label (case-insensitive), if any."""
        wanted = label.casefold()
        return next(
            (row for row in self.rows if row.label and row.label.casefold() == wanted), None
        )


class Discount(Model):
    """A conditional discount multiplier [§5]."""

    key: Key
    name: Name
    multiplier: Annotated[float, Field(gt=0, le=1)]
    definition: Text
    example: Text


class SpellTier(Model):
    """Spell levels → tier → Base TN."""

    levels: tuple[Level, Level]
    tier: Annotated[str, Field(pattern=r"^[IVX]+$")]
    number: Annotated[int, Field(ge=1)]
    base_tn: Annotated[int, Field(ge=1)]


class PassiveSlots(Model):
    """Passive Slots at a Mastery Rank."""

    mastery_rank: Annotated[int, Field(ge=1)]
    slots: Annotated[int, Field(ge=1)]


class Trigger(Model):
    """A standard Reaction Trigger."""

    key: Key
    name: Name
    summary: Text


class Segment(Model):
    """A temporal segment for limited uses."""

    name: Name
    meaning: Text
    refresh: Text


class WallRates(Model):
    """Wall construction rates, read off the SRD's two worked examples."""

    placement_pp: PP
    length_base_m: float
    length_step_m: Annotated[float, Field(gt=0)]
    length_pp_per_step: PP
    height_base_m: float
    height_step_m: Annotated[float, Field(gt=0)]
    height_pp_per_step: PP
    thickness_base_m: float
    thickness_step_m: Annotated[float, Field(gt=0)]
    thickness_pp_per_step: PP
    line_of_sight_pp: PP
    duration_mastery_rank_rounds_pp: PP
    resilience_pp_per_segment: PP
    resilience_gain: Text
    segment_length_m: Annotated[float, Field(gt=0)]
    section: str
    note: str | None = None


class LabelledPP(Model):
    """A named PP amount inside a worked example."""

    label: Name
    pp: PP


class WallExample(Model):
    """A worked wall example (Bark Barricade, Stone Rampart)."""

    key: Key
    name: Name
    level: Level
    summary: Text
    length_m: Annotated[float, Field(gt=0)]
    height_m: Annotated[float, Field(gt=0)]
    thickness_m: Annotated[float, Field(gt=0)]
    blocks_sight: bool
    resilience: bool
    components: tuple[LabelledPP, ...]
    total_pp: PP

    @model_validator(mode="after")
    def _adds_up(self) -> Self:
        if not math.isclose(sum(c.pp for c in self.components), self.total_pp):
            raise ValueError("components do not add up to total_pp")
        return self


class TablesFile(Model):
    """data/tables.json."""

    constants: Constants
    general_price_cost: tuple[PriceRow, ...]
    rates: tuple[Rate, ...]
    cost_tables: tuple[CostTable, ...]
    discounts: tuple[Discount, ...]
    spell_tiers: tuple[SpellTier, ...]
    passive_slots: tuple[PassiveSlots, ...]
    reaction_triggers: tuple[Trigger, ...]
    temporal_segments: tuple[Segment, ...]
    walls: WallRates
    wall_examples: tuple[WallExample, ...]

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        _unique((r.key for r in self.rates), "rate")
        _unique((t.key for t in self.cost_tables), "cost table")
        _unique((d.key for d in self.discounts), "discount")
        covered = [level for tier in self.spell_tiers for level in range(*_inclusive(tier.levels))]
        if covered != list(range(1, MAX_LEVEL + 1)):
            raise ValueError("spell_tiers must cover Levels 1–16 in order")
        ranks = [row.mastery_rank for row in self.passive_slots]
        if ranks != list(range(1, len(ranks) + 1)):
            raise ValueError("passive_slots must list Mastery Ranks from 1 in order")
        return self


def _inclusive(bounds: tuple[int, int]) -> tuple[int, int]:
    return bounds[0], bounds[1] + 1


# ---------------------------------------------------------------- catalogue.json


class AxisColumn(Model):
    """A single priced axis: the level's value is the most the curve can buy."""

    label: Name
    pp_per_unit: Annotated[float, Field(gt=0)]
    format: FormatStr = "{}"


class AxisLevels(Model):
    """A level table derived from a per-unit price and a power curve."""

    kind: Literal["axis"]
    curve: CurvedTypeKey
    columns: Annotated[tuple[AxisColumn, ...], Field(min_length=1)]


class SequenceColumn(Model):
    """Sixteen values the SRD lists level by level."""

    label: Name
    values: tuple[int | float | None, ...]
    format: FormatStr = "{}"

    @field_validator("values")
    @classmethod
    def _sixteen(cls, values: tuple[float | None, ...]) -> tuple[float | None, ...]:
        if len(values) != MAX_LEVEL:
            raise ValueError(f"values need {MAX_LEVEL} levels, got {len(values)}")
        return values


class SequenceLevels(Model):
    """A level table the SRD spells out value by value."""

    kind: Literal["sequence"]
    columns: Annotated[tuple[SequenceColumn, ...], Field(min_length=1)]


class Band(Model):
    """One milestone band: Levels from–to share a value."""

    from_: Annotated[int, Field(alias="from", ge=1)]
    to: Annotated[int, Field(ge=1)]
    value: Name


class BandLevels(Model):
    """A milestone table: contiguous level (or Mastery Rank) bands."""

    kind: Literal["bands"]
    header: Literal["Level", "MR"] = "Level"
    column: Name
    bands: Annotated[tuple[Band, ...], Field(min_length=1)]

    @model_validator(mode="after")
    def _contiguous(self) -> Self:
        expected = 1
        for band in self.bands:
            if band.from_ != expected or band.to < band.from_:
                raise ValueError(f"bands must run on from {expected} without gaps")
            expected = band.to + 1
        if self.header == "Level" and expected != MAX_LEVEL + 1:
            raise ValueError(f"level bands must end at {MAX_LEVEL}")
        return self


class PerLevelLevels(Model):
    """A value that grows by a fixed amount per Power Level (+2 Initiative per level)."""

    kind: Literal["per_level"]
    column: Name
    per_level: Annotated[float, Field(gt=0)]
    format: FormatStr = "{}"


class CostedLevels(Model):
    """Rows of a cost table bought level by level (DR, Phasing, Special Aura…)."""

    # Without `values` each level takes the costliest row its curve affords; with
    # them, the SRD's own pick per level (null = nothing yet) is kept as written,
    # since the SRD does not always buy the most it could (Special Aura).

    kind: Literal["costed"]
    table: Key
    curve: CurvedTypeKey
    base_pp: PP = 0
    column: Name
    format: FormatStr = "{}"
    values: tuple[float | None, ...] | None = None

    @field_validator("values")
    @classmethod
    def _sixteen_rising(
        cls, values: tuple[float | None, ...] | None
    ) -> tuple[float | None, ...] | None:
        if values is None:
            return None
        if len(values) != MAX_LEVEL:
            raise ValueError(f"values need {MAX_LEVEL} levels, got {len(values)}")
        numbers = [v for v in values if v is not None]
        if any(b < a for a, b in pairwise(numbers)):
            raise ValueError("values never decrease")
        return values


LevelSpec = Annotated[
    AxisLevels | SequenceLevels | BandLevels | PerLevelLevels | CostedLevels,
    Field(discriminator="kind"),
]


# The tags the SRD writes in a Power's title ("Arc Barrage (Active, Spell, Charged)",
# "Ghost Slip (Reaction, One-Time-Use)"); categories and families are not tags.
SRD_TAGS = ("Spell", "Charged", "One-Time-Use")
SrdTag = Literal["Spell", "Charged", "One-Time-Use"]


class CatalogueEntry(Model):
    """A named catalogue entry: an Active, Active Buff, Reaction, Passive, or a canon rule."""

    key: Key
    kind: EntryKind
    name: Name
    aliases: Aliases = ()
    category: str | None = None
    tags: tuple[SrdTag, ...] = ()
    summary: Text
    pricing: str | None = None
    levels: LevelSpec | None = None
    points: tuple[Text, ...] = ()
    section: str
    note: str | None = None

    @model_validator(mode="after")
    def _rules_have_points(self) -> Self:
        if self.kind == "rule" and (not self.points or self.levels is not None):
            raise ValueError("a rule has points and no level table")
        return self


class ListGroup(Model):
    """A named group inside a catalogue list."""

    name: Name
    entries: tuple[Key, ...]


class CatalogueList(Model):
    """One of the §9 catalogue lists (Active Buffs, Reactions, Passives, Movement, Actives)."""

    kind: Literal["active", "active_buff", "reaction", "passive", "movement"]
    name: Name
    section: str
    groups: tuple[ListGroup, ...]
    forbidden: tuple[str, ...]


class Exclusion(Model):
    """A name the SRD excludes from the catalogue, or a section Tablehand leaves out, and why."""

    name: Name
    aliases: Aliases = ()
    reason: Text
    section: str
    by: Literal["srd", "tablehand"] = "srd"


class CatalogueFile(Model):
    """data/catalogue.json."""

    section: str
    lists: tuple[CatalogueList, ...]
    entries: tuple[CatalogueEntry, ...]
    exclusions: tuple[Exclusion, ...] = ()

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        _unique((f"{e.kind}:{e.key}" for e in self.entries), "entry")
        known = {(e.kind, e.key) for e in self.entries}
        for listing in self.lists:
            if listing.kind == "movement":
                continue  # checked against movement.json by the loader
            for group in listing.groups:
                for key in group.entries:
                    if (listing.kind, key) not in known:
                        raise ValueError(f"{listing.name} lists unknown {listing.kind} {key!r}")
        return self


# ---------------------------------------------------------------- summons.json


class SummonStats(Model):
    """A Summon Bond's numbers: the universal base, or a finished example."""

    hp: Annotated[int, Field(ge=0)]
    armor: Annotated[int, Field(ge=0)]
    evade: Annotated[int, Field(ge=0)]
    attack_d8: Annotated[int, Field(ge=0)]
    damage_d8: Annotated[int, Field(ge=0)]
    movement_m: Annotated[int, Field(ge=0)]
    attacks: Annotated[int, Field(ge=1)]
    bodies: Annotated[int, Field(ge=1)]
    special: str | None = None


class SummonUpgrade(Model):
    """A Summon Token purchase: tokens per step and what one step gains."""

    key: Key
    name: Name
    aliases: Aliases = ()
    scope: Literal["Body", "Bond"]
    start: Name
    tokens: Annotated[int, Field(ge=1)]
    gain: Annotated[int, Field(ge=1)]
    unit: Name
    limit: str | None = None


class SkillsByStones(Model):
    """Selected Summon Skills by Bound Stones."""

    bound_stones: Annotated[int, Field(ge=1)]
    skills: Annotated[int, Field(ge=1)]


class PowerTokenCost(Model):
    """Summon Token cost of a canonical Power by type."""

    type: PowerTypeKey
    tokens_per_level: Annotated[int, Field(ge=1)] | None
    extra_tokens: Annotated[int, Field(ge=0)]
    note: str | None = None


class PowerLevelCap(Model):
    """The highest Power Level a Summon may buy at the owner's Mastery Rank."""

    mastery_ranks: tuple[Annotated[int, Field(ge=1)], Annotated[int, Field(ge=1)]]
    max_level: Level


class RadiusBand(Model):
    """A Summon aura radius by Power Level band."""

    from_: Annotated[int, Field(alias="from", ge=1)]
    to: Level
    radius_m: Annotated[int, Field(ge=1)]


class SummonPurchase(Model):
    """One line of a Summon example's shopping list."""

    label: Name
    upgrade: Key | None = None
    amount: Annotated[int, Field(ge=1)] | None = None
    power_type: PowerTypeKey | None = None
    power_level: Level | None = None
    tokens: Annotated[int, Field(ge=1)]

    @model_validator(mode="after")
    def _one_kind(self) -> Self:
        upgrade = self.upgrade is not None and self.amount is not None
        power = self.power_type is not None and self.power_level is not None
        if upgrade == power:
            raise ValueError("a purchase is an upgrade with an amount or a Power with a level")
        return self


class SummonExample(Model):
    """A worked Summon example (Scout Owl, Great War Bear…)."""

    key: Key
    name: Name
    bound_stones: Annotated[int, Field(ge=1)]
    movement_mode: Name
    summary: Text
    purchases: tuple[SummonPurchase, ...]
    total_tokens: Annotated[int, Field(ge=1)]
    finished: SummonStats


class SummonsFile(Model):
    """data/summons.json."""

    section: str
    tokens_per_bound_stone: Annotated[int, Field(ge=1)]
    base: SummonStats
    movement_modes: tuple[Name, ...]
    movement_cap_m: Annotated[int, Field(ge=1)]
    max_attacks: Annotated[int, Field(ge=1)]
    max_special_value: Annotated[int, Field(ge=1)]
    upgrades: tuple[SummonUpgrade, ...]
    shared_senses: tuple[Name, ...]
    skills_by_bound_stones: tuple[SkillsByStones, ...]
    approved_skills: tuple[Name, ...]
    power_token_costs: tuple[PowerTokenCost, ...]
    power_level_caps: tuple[PowerLevelCap, ...]
    aura_radius: tuple[RadiusBand, ...]
    examples: tuple[SummonExample, ...]

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        _unique((u.key for u in self.upgrades), "upgrade")
        upgrades = {u.key for u in self.upgrades}
        for example in self.examples:
            if example.movement_mode not in self.movement_modes:
                raise ValueError(f"{example.name}: unknown movement mode {example.movement_mode!r}")
            for purchase in example.purchases:
                if purchase.upgrade is not None and purchase.upgrade not in upgrades:
                    raise ValueError(f"{example.name}: unknown upgrade {purchase.upgrade!r}")
        return self


# ---------------------------------------------------------------- headings.json


class Heading(Model):
    """An SRD heading a player may type, and the entries (ids) that hold its section."""

    title: Annotated[str, Field(min_length=1, max_length=120)]
    entries: Annotated[
        tuple[Annotated[str, Field(pattern=r"^[a-z_]+:[a-z0-9_]+$")], ...], Field(min_length=1)
    ]


class HeadingsFile(Model):
    """data/headings.json: every heading of the SRD, mapped to where the bot shows it."""

    source: str
    headings: tuple[Heading, ...]


# ---------------------------------------------------------------- the whole catalogue


_Keyed = TypeVar(
    "_Keyed", "PowerType", "Special", "MovementType", "CostTable", "Rate", "CatalogueEntry"
)


class Catalogue(Model):
    """Every data file, validated and cross-checked: the bot loads this once at start-up."""

    power_types: PowerTypesFile
    specials: SpecialsFile
    movement: MovementFile
    tables: TablesFile
    entries: CatalogueFile
    summons: SummonsFile
    headings: HeadingsFile

    def power_type(self, key: str) -> PowerType:
        """Return a power type by key ('active', 'active_buff'…)."""
        return _by_key(self.power_types.types, key, "power type")

    def special(self, key: str) -> Special:
        """Return a Special by key ('ruin', 'stunned'…)."""
        return _by_key(self.specials.specials, key, "Special")

    def movement_type(self, key: str) -> MovementType:
        """Return a movement type by key ('teleport'…)."""
        return _by_key(self.movement.types, key, "movement type")

    def cost_table(self, key: str) -> CostTable:
        """Return a cost table by key ('instant_attack_aoe'…)."""
        return _by_key(self.tables.cost_tables, key, "cost table")

    def rate(self, key: str) -> Rate:
        """Return a per-unit rate by key ('damage_d8'…)."""
        return _by_key(self.tables.rates, key, "rate")

    def entry(self, kind: str, key: str) -> CatalogueEntry:
        """Return a catalogue entry by kind and key ('reaction', 'armor')."""
        entries = [e for e in self.entries.entries if e.kind == kind]
        return _by_key(entries, key, f"{kind} entry")


def _by_key(items: Iterable[_Keyed], key: str, what: str) -> _Keyed:
    for item in items:
        if item.key == key:
            return item
    raise KeyError(f"no {what} {key!r} in the catalogue")


FILES: dict[str, type[Model]] = {
    "power_types": PowerTypesFile,
    "specials": SpecialsFile,
    "movement": MovementFile,
    "tables": TablesFile,
    "entries": CatalogueFile,
    "summons": SummonsFile,
    "headings": HeadingsFile,
}
FILE_NAMES = {
    "power_types": "power_types.json",
    "specials": "specials.json",
    "movement": "movement.json",
    "tables": "tables.json",
    "entries": "catalogue.json",
    "summons": "summons.json",
    "headings": "headings.json",
}


def load_catalogue(path: Path = DATA_DIR) -> Catalogue:
    """Load and validate every catalogue file in a directory, or raise CatalogueError."""
    parts: dict[str, Model] = {}
    for field, model in FILES.items():
        parts[field] = _load_file(path / FILE_NAMES[field], model)
    catalogue = Catalogue.model_construct(**parts)
    _cross_check(catalogue, path)
    return catalogue


def _shown(file: Path) -> str:
    return f"{file.parent.name}/{file.name}"


def _load_file(file: Path, model: type[Model]) -> Model:
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as exc:
        raise CatalogueError(
            "{file}: cannot be read ({why})", file=_shown(file), why=exc.strerror
        ) from exc
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        raise CatalogueError(
            "{file}: invalid JSON at line {line} column {column}: {why}",
            file=_shown(file),
            line=exc.lineno,
            column=exc.colno,
            why=exc.msg,
        ) from exc
    try:
        return model.model_validate_json(text)
    except ValidationError as exc:
        raise _described(file, exc) from exc


def _described(file: Path, exc: ValidationError) -> CatalogueError:
    errors = exc.errors()
    first = errors[0]
    fields = {
        "file": _shown(file),
        "where": ".".join(str(part) for part in first["loc"]) or "(top level)",
        "why": first["msg"],
    }
    if len(errors) > 1:
        return CatalogueError(
            "{file}: {where}: {why} (and {more} more)", more=len(errors) - 1, **fields
        )
    return CatalogueError("{file}: {where}: {why}", **fields)


def _cross_check(catalogue: Catalogue, path: Path) -> None:
    """Check references between files: tables named by entries, list members, keys."""
    entries_file = _shown(path / FILE_NAMES["entries"])
    tables = {t.key for t in catalogue.tables.cost_tables}
    for index, entry in enumerate(catalogue.entries.entries):
        levels = entry.levels
        if not isinstance(levels, CostedLevels):
            continue
        where = f"{entries_file}: entries.{index}.levels"
        if levels.table not in tables:
            raise CatalogueError(
                "{where}.table: no cost table {table!r} in {file}",
                where=where,
                table=levels.table,
                file=_shown(path / FILE_NAMES["tables"]),
            )
        table = catalogue.cost_table(levels.table)
        power_type = catalogue.power_type(levels.curve)
        for level, value in enumerate(levels.values or (), start=1):
            if value is None:
                continue
            row = table.row_for_value(value)
            if row is None:
                raise CatalogueError(
                    "{where}.values.{index}: {value} is not in {table}",
                    where=where,
                    index=level - 1,
                    value=format(value, "g"),
                    table=table.name,
                )
            if levels.base_pp + row.pp > (power_type.target(level) or 0):
                raise CatalogueError(
                    "{where}.values.{index}: {value} costs more than the Level {level} target",
                    where=where,
                    index=level - 1,
                    value=format(value, "g"),
                    level=level,
                )
    movement = {t.key for t in catalogue.movement.types}
    for index, listing in enumerate(catalogue.entries.lists):
        if listing.kind != "movement":
            continue
        listed = [key for group in listing.groups for key in group.entries]
        unknown = [key for key in listed if key not in movement]
        if unknown or set(listed) != movement:
            raise CatalogueError(
                "{file}: lists.{index}.groups: the Movement list must name exactly the movement "
                "types of {movement}",
                file=entries_file,
                index=index,
                movement=_shown(path / FILE_NAMES["movement"]),
            )
