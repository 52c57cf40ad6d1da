"""Attacks: the attack roll, the defense, the outcome and the damage [GAME.md §4].

An attack happens in two steps because the bot rolls the attack first: a Critical or
a Risk failure settles it without asking the defender. `roll_attack` rolls;
`resolve_attack` takes the defender's chosen strategy (or none) and works out
everything else; `apply_attack` writes the result onto the defender. Nothing here
sends anything: every number is in the returned models for the cog to render.
"""

import math
import random
from collections.abc import Sequence
from types import MappingProxyType
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from bot.errors import BadInput, RuleViolation
from bot.i18n import L_, N_
from bot.rules.dice import (
    DEFAULT_BASE_RISK,
    Advantage,
    CoreRoll,
    ExpressionRoll,
    check_expression,
    roll_action,
    roll_expression,
)
from bot.rules.grit import die_of, perception_m
from bot.rules.initiative import sacrifice_bonus
from bot.rules.items import (
    armor_of,
    block_modifiers,
    blocking_durability,
    crit_range_against,
    guard_modifiers,
    momentum,
)
from bot.rules.long_actions import long_action_defense
from bot.rules.models import MAX_ITEM_NAME, AttackStyle, Combatant, DefenseStrategy, RangeKind
from bot.rules.results import Modifier, Result, total_of
from bot.rules.specials import can_react

Attribute = Literal["physical", "finesse"]
TargetSize = Literal["large", "limbs", "head", "small", "precise"]
Outcome = Literal["hit", "miss", "auto_hit", "auto_miss"]
AutoReason = Literal["critical", "risk_failure", "cumulative_long_action"]
# Why a defense has no roll: only its fixed parts and modifiers count.
NoRollReason = Literal[
    "surprised",
    "fixed_object",
    "perception",
    "counter",
    "focused_long_action",
    "broken",
    "stunned",
    "grappling",
]
# Defenses that are a challenge level: the attack hits when it reaches them [003].
CHALLENGE_DEFENSES: frozenset[NoRollReason] = frozenset({"surprised", "fixed_object"})
# Why damage is doubled: a melee surprise attack [002].
Doubling = Literal["stealth", "surprised"]
# Why the defender is not asked for a strategy: it cannot respond, or a cumulative long
# action makes the hit automatic. The one list the flow, the prompt and the result share.
NoChoice = NoRollReason | Literal["cumulative_long_action"]

MELEE_STYLES: frozenset[AttackStyle] = frozenset({"melee", "targeted", "unarmed"})
RANGED_STYLES: frozenset[AttackStyle] = frozenset({"ranged", "thrown"})
STYLE_ATTRIBUTE: MappingProxyType[AttackStyle, Attribute] = MappingProxyType(
    {
        "melee": "physical",
        "targeted": "finesse",
        "ranged": "finesse",
        "thrown": "finesse",
        "unarmed": "physical",
    }
)
DEFAULT_RANGE_KIND: MappingProxyType[AttackStyle, RangeKind] = MappingProxyType(
    {"ranged": "long", "thrown": "short"}  # missile weapons long, thrown short [003]
)
# Targeted melee: large area, limbs, head and hands, eye or small area, precise area [000].
TARGET_SIZE_PENALTY: MappingProxyType[TargetSize, int] = MappingProxyType(
    {"large": 0, "limbs": 5, "head": 10, "small": 15, "precise": 20}
)
SPECIAL_TARGETING_PENALTY = (0, 5, 10, 15, 20)  # by level 0–4 [000]
# A strategy as a refusal names it ("Take cover is not a defense against this attack.").
DEFENSE_NAMES: MappingProxyType[DefenseStrategy, str] = MappingProxyType(
    {
        "block": N_("Block"),
        "dodge": N_("Dodge"),
        "break_away": N_("Break away"),
        "take_cover": N_("Take cover"),
    }
)
COVER_BONUS = (0, 5, 10, 15, 20)  # by level 0–4 [000]
TAKE_COVER_FACTOR = 2  # [000]
STEALTH_BONUS = 4  # a hidden attacker [000]
STEALTH_MELEE_DAMAGE_FACTOR = 2  # [002]
PRONE_BONUS = 3  # [003]
LONG_RANGE_FREE = 5  # long range: the first 5 spaces add nothing, then +1 per 5 [003, §10]
FULL_COVER = 4  # Full Cover counts as cover level 4 against ranged attacks [002, bot]
SURPRISED_DEFENSE = 6  # plus range [003]
FIXED_OBJECT_DEFENSE = 3  # plus range [003]
METRES_PER_SPACE = 2  # [000, 003]
MAX_ALTITUDE = 8


class AltitudeDamage(Result):
    """The extra damage of an attack from altitude [002]."""

    dice: tuple[str, ...]
    withering: bool  # a Withering roll the GM adjudicates


ALTITUDE_DAMAGE: MappingProxyType[int, AltitudeDamage] = MappingProxyType(
    {
        0: AltitudeDamage(dice=(), withering=False),
        1: AltitudeDamage(dice=("1d10",), withering=False),
        2: AltitudeDamage(dice=("1d12",), withering=False),
        3: AltitudeDamage(dice=("1d20",), withering=False),
        4: AltitudeDamage(dice=("2d20",), withering=False),
        5: AltitudeDamage(dice=("3d20",), withering=False),
        6: AltitudeDamage(dice=(), withering=True),
        7: AltitudeDamage(dice=("1d10",), withering=True),
        8: AltitudeDamage(dice=("1d20",), withering=True),
    }
)


class AttackSpec(BaseModel):
    """Everything about an attack but the dice: what the attacker does and the situation."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    style: AttackStyle = "melee"
    attribute: Attribute | None = None  # None: the style's (Physical or Finesse) [000]
    target_size: TargetSize | None = None  # targeted melee only
    special_targeting: int = Field(default=0, ge=0, le=4)  # ranged and thrown only
    distance: int = Field(default=0, ge=0)  # spaces to the target
    range_kind: RangeKind | None = None  # None: long for ranged, short for thrown [003]
    fixed_object: bool = False  # the target is a fixed object: defense 3 + range [003]
    grapple: bool = False  # a grapple: Finesse, no damage; a hit holds the target [000]
    grapple_item: str | None = Field(default=None, max_length=40)  # grappling what it holds
    cover: int = Field(default=0, ge=0, le=4)  # the defender's cover level [000]
    cover_durability: int | None = Field(default=None, ge=0)  # for take cover [000]
    stealth: bool = False  # the attacker is hidden: +4, melee deals double damage
    charge_spaces: int = Field(default=0, ge=0)  # the attacker's momentum [003]
    defender_charge_spaces: int = Field(default=0, ge=0)  # a charging defender hit in melee
    penetration: int | None = Field(default=None, ge=0)  # None: no penetration rating
    altitude: int = Field(default=0, ge=0, le=MAX_ALTITUDE)
    explode: bool = False
    advantage: Advantage | None = None
    bonus_dice: tuple[str, ...] = ()
    penalty_dice: tuple[str, ...] = ()
    modifier: int = 0  # flat, to the attack value
    base_risk: int = Field(default=DEFAULT_BASE_RISK, ge=1)  # a Great Axe has 3 [002]
    situational_risk: int = 0
    damage: str | None = None  # weapon damage as a dice expression: "1d10+2"
    weight: float | None = Field(default=None, gt=0)  # of a thrown weapon [000]
    weapon: str | None = Field(default=None, max_length=MAX_ITEM_NAME)  # a loadout's, by name
    # The defender's situation.
    directions_blocked: int = Field(default=0, ge=0)  # break away and ranged dodge [000]
    surprised: bool = False  # completely surprised: defense 6 + range [003]
    counter: bool = False  # a counter-attack: its target gets no defense roll [000]
    defense_modifier: int = 0  # flat, to the defense value

    @property
    def melee(self) -> bool:
        """Return whether the attack is a melee attack (melee, targeted or unarmed)."""
        return self.style in MELEE_STYLES

    @property
    def ranged(self) -> bool:
        """Return whether the attack is a ranged or thrown attack."""
        return self.style in RANGED_STYLES

    @property
    def point_blank(self) -> bool:
        """Return whether a ranged attack is made at distance 0: resolved as melee [000]."""
        return self.ranged and self.distance == 0

    @property
    def close(self) -> bool:
        """Return whether the defense is against melee: a melee or a point-blank attack [000]."""
        return self.melee or self.point_blank


def range_modifier(kind: RangeKind, spaces: int) -> int:
    """Return the range number added to the target's defense [003]."""
    # Short +1 per space. Long (bows too) +1 per 5 spaces beyond the first 5, as the
    # bow example counts: 1–5 spaces 0, 6–10 +1, 11–15 +2, and on [003, GAME.md §10].
    if spaces < 0:
        raise BadInput("Distance cannot be negative (got {spaces}).", spaces=spaces)
    if kind == "short":
        return spaces
    return max(0, (spaces - 1) // LONG_RANGE_FREE)


def thrown_range(physical: int, weight: float) -> int:
    """Return how many spaces a weapon can be thrown: Physical ÷ weight, rounded down [000]."""
    if weight <= 0:
        raise BadInput("A thrown weapon's weight must be more than 0.")
    return max(0, math.floor(physical / weight))


def spec_range(spec: AttackSpec) -> int:
    """Return the range number of an attack (0 for melee)."""
    kind = spec.range_kind or DEFAULT_RANGE_KIND.get(spec.style)
    return 0 if kind is None else range_modifier(kind, spec.distance)


def beyond_perception(attacker: Combatant, spec: AttackSpec) -> bool:
    """Return whether a ranged attack reaches past the attacker's Perception (die one down) [002]."""
    return spec.ranged and spec.distance * METRES_PER_SPACE > perception_m(attacker)


def validate_spec(spec: AttackSpec, attacker: Combatant) -> None:
    """Refuse an attack whose options contradict its style, with a message for the user."""
    check_style_options(spec)
    if spec.style == "thrown" and spec.weight is not None:
        reach = thrown_range(attacker.physical, spec.weight)
        if spec.distance > reach:
            raise RuleViolation(
                "{name} can throw that weapon {reach} spaces (Physical {physical} ÷ weight "
                "{weight}); the target is {distance} away.",
                name=attacker.name,
                reach=reach,
                physical=attacker.physical,
                weight=format(spec.weight, "g"),
                distance=spec.distance,
            )


def check_style_options(spec: AttackSpec) -> None:
    """Refuse options that contradict the attack's style, whoever makes it (a weapon's too)."""
    style = spec.style
    if spec.target_size is not None and style != "targeted":
        raise BadInput("A target size is for targeted melee; use special targeting for ranged.")
    if spec.special_targeting and not spec.ranged:
        raise BadInput(
            "Special targeting is for ranged and thrown attacks; targeted melee uses a target size."
        )
    if spec.range_kind is not None and not spec.ranged:
        raise BadInput("A range kind is for ranged and thrown attacks.")
    if spec.range_kind == "bow" and style != "ranged":
        raise BadInput("Bow ranges are for ranged attacks.")
    if spec.cover and not spec.ranged:
        raise BadInput("Cover counts against ranged and thrown attacks only.")
    if spec.cover and spec.point_blank:
        raise BadInput(
            "At distance 0 a ranged attack is point-blank and resolves as melee: no cover "
            "(give the distance in spaces)."
        )
    if spec.cover_durability is not None and not spec.cover:
        raise BadInput("Cover durability needs a cover level (1–4).")
    if spec.penetration is not None and not spec.ranged:
        raise BadInput("Penetration is for ranged and thrown attacks.")
    if style == "unarmed" and spec.damage is not None:
        raise BadInput("Unarmed damage is the attacker's Physical; leave the weapon damage out.")
    if style == "thrown":
        if spec.weight is None:
            raise BadInput(
                "A thrown attack needs the weapon's weight (its range is Physical ÷ weight)."
            )
    elif spec.weight is not None:
        raise BadInput("A weapon weight is for thrown attacks.")
    if spec.fixed_object and (spec.surprised or spec.counter):
        raise BadInput("A fixed object is neither surprised nor counter-attacked.")
    if spec.grapple and (style not in ("melee", "unarmed") or spec.damage is not None):
        raise BadInput("A grapple is a melee move with no damage.")
    if spec.grapple_item is not None and not spec.grapple:
        raise BadInput("An item is grappled by a grapple.")
    if spec.damage is not None:
        check_expression(spec.damage)


class AttackRoll(Result):
    """The attacker's side of an attack: the roll, the attribute and the modifiers."""

    attacker_id: int
    style: AttackStyle
    core: CoreRoll
    beyond_perception: bool = False  # the die was shifted one level down [002]
    attribute: Attribute
    attribute_value: int
    modifiers: list[Modifier] = Field(default_factory=list)

    @property
    def value(self) -> int:
        """Return the attack value before the defender's situation is known."""
        return self.core.total + self.attribute_value + total_of(self.modifiers)

    @property
    def critical(self) -> bool:
        """Return whether the attack is a Critical: an automatic hit."""
        return self.core.critical

    @property
    def risk_failure(self) -> bool:
        """Return whether the attack failed on Risk: an automatic miss."""
        return self.core.risk_failure

    @property
    def critical_failure(self) -> bool:
        """Return whether the attack rolled a natural 1: the defender may counter."""
        return self.core.critical_failure

    @property
    def needs_defense(self) -> bool:
        """Return whether the defender must be asked for a strategy."""
        return not (self.critical or self.risk_failure)


def _attack_modifiers(attacker: Combatant, spec: AttackSpec) -> list[Modifier]:
    modifiers: list[Modifier] = []
    if spec.target_size is not None and TARGET_SIZE_PENALTY[spec.target_size]:
        label = spec.target_size.capitalize()
        modifiers.append(
            Modifier(name=f"Target {label}", value=-TARGET_SIZE_PENALTY[spec.target_size])
        )
    if spec.special_targeting:
        penalty = SPECIAL_TARGETING_PENALTY[spec.special_targeting]
        modifiers.append(
            Modifier(name=f"Special targeting {spec.special_targeting}", value=-penalty)
        )
    if spec.stealth:
        modifiers.append(Modifier(name="Stealth", value=STEALTH_BONUS))
    if bonus := sacrifice_bonus(attacker, "attack"):
        modifiers.append(Modifier(name="Sacrifice", value=bonus))
    if spec.modifier:
        modifiers.append(Modifier(name="Modifier", value=spec.modifier))
    return modifiers


def roll_attack(
    attacker: Combatant,
    spec: AttackSpec,
    rng: random.Random,
    *,
    target: Combatant | None = None,
) -> AttackRoll:
    """Roll an attack: core die (+ explosions) + attribute + modifiers (+ bonus − penalty dice)."""
    # The target's armor narrows the attacker's critical range [002].
    validate_spec(spec, attacker)
    far = beyond_perception(attacker, spec)
    crit_range = attacker.crit_range
    if target is not None:
        crit_range = crit_range_against(crit_range, target)
    core = roll_action(
        attacker,
        rng,
        crit_range=crit_range,
        base_risk=spec.base_risk,
        situational_risk=spec.situational_risk,
        shift=1 if far else 0,
        explode=spec.explode,
        advantage=spec.advantage,
        bonus_dice=spec.bonus_dice,
        penalty_dice=spec.penalty_dice,
    )
    attribute = spec.attribute or ("finesse" if spec.grapple else STYLE_ATTRIBUTE[spec.style])
    return AttackRoll(
        attacker_id=attacker.id,
        style=spec.style,
        core=core,
        beyond_perception=far,
        attribute=attribute,
        attribute_value=getattr(attacker, attribute),
        modifiers=_attack_modifiers(attacker, spec),
    )


# Defense.


def cover_level(defender: Combatant | None, spec: AttackSpec) -> int:
    """Return the defender's cover against this attack: the attack's, or 4 in Full Cover."""
    # Cover counts only against ranged attacks, and not at point-blank range [000]; a
    # combatant that took Full Cover counts as level 4 [002, bot].
    if not spec.ranged or spec.point_blank:
        return 0
    full = FULL_COVER if defender is not None and defender.full_cover else 0
    return max(spec.cover, full)


def defense_options(defender: Combatant | None, spec: AttackSpec) -> list[DefenseStrategy]:
    """Return the strategies a defender may choose against this attack [000]."""
    # Melee (and point-blank ranged, resolved as melee): block, dodge, break away. Ranged:
    # block, dodge, and take cover when behind cover. A grappling combatant can only break
    # away, so against ranged it has no choice [000 Grappling].
    if defender is not None and defender.grapple is not None:
        return ["break_away"] if spec.close else []
    if spec.close:
        return ["block", "dodge", "break_away"]
    options: list[DefenseStrategy] = ["block", "dodge"]
    if cover_level(defender, spec) > 0:
        options.append("take_cover")
    if defender is not None and not _can_dodge_ranged(defender):
        options.remove("dodge")  # a ranged dodge costs stamina [000]
    return options


def _can_dodge_ranged(defender: Combatant) -> bool:
    return defender.stamina is None or defender.stamina > 0


def default_strategy(defender: Combatant, spec: AttackSpec) -> DefenseStrategy | None:
    """Return the defense used when the defender does not choose: its default, else "auto"."""
    # "auto" is block against melee and dodge against ranged [GAME.md §1, bot]; a default that
    # is not open against this attack falls back to "auto", and a ranged dodge without
    # stamina left falls back to block [bot]. None: it has no choice at all.
    options = defense_options(defender, spec)
    if not options:
        return None
    choice = defender.default_defense
    if choice == "auto" or choice not in options:
        choice = "block" if spec.close else "dodge"
    if choice not in options:
        choice = options[0]
    return choice


def validate_defense(defender: Combatant, strategy: DefenseStrategy, spec: AttackSpec) -> None:
    """Refuse a strategy the rules do not allow against this attack, with a message for the user."""
    if defender.grapple is not None and strategy != "break_away":
        raise RuleViolation(
            "{name} is grappling: Break Away is its only defense.", name=defender.name
        )
    if strategy == "take_cover":
        if not spec.ranged or spec.point_blank:
            raise RuleViolation("Taking cover works against ranged and thrown attacks only.")
        if not cover_level(defender, spec):
            raise RuleViolation(
                "{name} is not behind cover, so cannot take cover.", name=defender.name
            )
    if strategy == "break_away" and not spec.close:
        raise RuleViolation("Break away is a defense against melee attacks.")
    if strategy == "dodge" and not spec.close and not _can_dodge_ranged(defender):
        raise RuleViolation(
            "{name} has no stamina left to dodge a ranged attack.", name=defender.name
        )


class DefenseRoll(Result):
    """The defender's side: its roll (if any), attribute, cover and modifiers."""

    defender_id: int | None  # None for a fixed object
    strategy: DefenseStrategy | None  # None when there is no choice to make
    no_roll: NoRollReason | None = None
    core: CoreRoll | None = None  # the defender's own die and Risk
    attribute: Attribute | None = None
    attribute_value: int = 0
    cover: int = 0  # cover bonus (doubled when taking cover)
    base: int = 0  # 6 surprised, 3 a fixed object [003]; Perception against stealth [002]
    modifiers: list[Modifier] = Field(default_factory=list)

    @property
    def risk_failure(self) -> bool:
        """Return whether the defender's roll failed on Risk: only its modifiers count [bot]."""
        return self.core is not None and self.core.risk_failure

    @property
    def value(self) -> int:
        """Return the defense value."""
        if self.risk_failure:
            return total_of(self.modifiers)
        rolled = self.core.total if self.core is not None else 0
        return self.base + rolled + self.attribute_value + self.cover + total_of(self.modifiers)

    @property
    def challenge(self) -> bool:
        """Return whether the defense is a challenge level, hit when the attack reaches it [003]."""
        return self.no_roll in CHALLENGE_DEFENSES


def _defense_modifiers(
    attacker: Combatant, defender: Combatant, spec: AttackSpec, strategy: DefenseStrategy | None
) -> list[Modifier]:
    modifiers: list[Modifier] = []
    if range_bonus := spec_range(spec):
        modifiers.append(Modifier(name="Range", value=range_bonus))
    if defender.prone and not spec.close:
        modifiers.append(Modifier(name="Prone against ranged", value=PRONE_BONUS))
    if attacker.prone:
        modifiers.append(Modifier(name="Attacker prone", value=PRONE_BONUS))
    if bonus := sacrifice_bonus(defender, "defense"):
        modifiers.append(Modifier(name="Sacrifice", value=bonus))
    if strategy == "block":
        modifiers += block_modifiers(defender)
    modifiers += guard_modifiers(defender)
    blocked = max(spec.directions_blocked, defender.directions_blocked)
    if blocked and (strategy == "break_away" or (strategy == "dodge" and not spec.close)):
        modifiers.append(Modifier(name="Directions blocked", value=-blocked))
    if spec.defense_modifier:
        modifiers.append(Modifier(name="Modifier", value=spec.defense_modifier))
    return modifiers


def no_roll_reason(defender: Combatant, spec: AttackSpec) -> NoRollReason | None:
    """Return why the defender cannot respond (only fixed parts and modifiers count), or None."""
    if spec.surprised:
        return "surprised"
    if spec.fixed_object or defender.fixed_object:
        return "fixed_object"
    if spec.counter:
        return "counter"
    if die_of(defender) is None:
        return "broken"
    if long_action_defense(defender) == "no_defense":
        return "focused_long_action"
    if spec.stealth:
        return "perception"  # the target's Perception as a passive defense [002]
    if not can_react(defender):
        return "stunned"  # cannot react until its next turn starts [GAME.md §7]
    if defender.grapple is not None and not spec.close:
        return "grappling"  # Break Away is all it may do, and that is against melee [000]
    return None


def _fixed_defense(
    attacker: Combatant, defender: Combatant | None, spec: AttackSpec, reason: NoRollReason
) -> DefenseRoll:
    """A defense with no roll: surprised 6, a fixed object 3, Perception, or modifiers only."""
    if reason in CHALLENGE_DEFENSES or defender is None:
        # Surprised: no trait, no roll, a flat 6 plus any range; a fixed object 3 plus
        # range [003].
        range_bonus = spec_range(spec)
        modifiers = [Modifier(name="Range", value=range_bonus)] if range_bonus else []
        if spec.defense_modifier:
            modifiers.append(Modifier(name="Modifier", value=spec.defense_modifier))
        base = SURPRISED_DEFENSE if reason == "surprised" else FIXED_OBJECT_DEFENSE
        return DefenseRoll(
            defender_id=defender.id if defender else None,
            strategy=None,
            no_roll=reason,
            base=base,
            modifiers=modifiers,
        )
    modifiers = _defense_modifiers(attacker, defender, spec, None)
    base = perception_m(defender) if reason == "perception" else 0
    return DefenseRoll(
        defender_id=defender.id, strategy=None, no_roll=reason, base=base, modifiers=modifiers
    )


def roll_defense(
    attacker: Combatant,
    defender: Combatant | None,
    strategy: DefenseStrategy | None,
    spec: AttackSpec,
    rng: random.Random,
) -> DefenseRoll:
    """Roll the defender's side of an attack; `strategy` None is its default [GAME.md §4]."""
    reason = "fixed_object" if defender is None else no_roll_reason(defender, spec)
    if reason is not None:
        return _fixed_defense(attacker, defender, spec, reason)
    assert defender is not None
    strategy = strategy or default_strategy(defender, spec)
    if strategy is None or strategy not in defense_options(defender, spec):
        if strategy is None:
            raise RuleViolation("That is not a defense against this attack.")
        raise RuleViolation(
            "{strategy} is not a defense against this attack.",
            strategy=L_(DEFENSE_NAMES[strategy]),
        )
    validate_defense(defender, strategy, spec)
    modifiers = _defense_modifiers(attacker, defender, spec, strategy)
    cover = COVER_BONUS[cover_level(defender, spec)]
    if strategy == "take_cover":
        return DefenseRoll(
            defender_id=defender.id,
            strategy=strategy,
            cover=cover * TAKE_COVER_FACTOR,
            modifiers=modifiers,
        )
    attribute: Attribute | None
    if strategy == "block":
        # A ranged block adds cover and no trait [000]; point-blank is blocked as melee.
        attribute = None if not spec.close else "physical"
    elif strategy == "dodge":
        attribute = "finesse"
    else:  # break away: the higher of Physical and Finesse [000]
        attribute = "physical" if defender.physical >= defender.finesse else "finesse"
    return DefenseRoll(
        defender_id=defender.id,
        strategy=strategy,
        core=roll_action(defender, rng),
        attribute=attribute,
        attribute_value=getattr(defender, attribute) if attribute else 0,
        cover=cover,
        modifiers=modifiers,
    )


# Damage.


class DamagePart(Result):
    """One addend of the damage before reductions: the weapon, a critical die, altitude."""

    name: str
    value: int
    expression: str | None = None  # the dice rolled, if any
    faces: list[int] = Field(default_factory=list)
    breakdown: str | None = None  # d20's rendering of an expression


class Damage(Result):
    """Every number of a hit's damage, in the order they apply [GAME.md §4]."""

    parts: list[DamagePart]
    withering: bool = False  # altitude 6–8: a Withering roll for the GM [002]
    durability: int | None = None  # of the blocking item or the cover, when penetration counts
    penetration: int | None = None
    momentum: list[Modifier] = Field(default_factory=list)  # applies last [GAME.md §4]
    armor: str | None = None  # the target's armor, which absorbs some of it [002]
    absorb: int = 0  # what that armor takes off each hit [bot]
    doubled: Doubling | None = None  # a melee surprise attack: ×2, applies last [002]

    @property
    def subtotal(self) -> int:
        """Return the damage before penetration, momentum and doubling (never below 0)."""
        return max(0, sum(p.value for p in self.parts))

    @property
    def stopped(self) -> bool:
        """Return whether the item or cover stops it all: penetration not above durability [000]."""
        return (
            self.durability is not None
            and self.penetration is not None
            and self.penetration <= self.durability
        )

    @property
    def reduced_by(self) -> int:
        """Return how much durability takes off: all of it when penetration exceeds it [000]."""
        if self.durability is None or self.penetration is None or self.stopped:
            return 0
        return min(self.durability, self.subtotal)

    @property
    def before_armor(self) -> int:
        """Return the damage after durability and momentum, before armor and doubling."""
        if self.stopped:
            return 0
        return max(0, self.subtotal - self.reduced_by + total_of(self.momentum))

    @property
    def absorbed(self) -> int:
        """Return what the armor absorbs: its absorb, at most the damage it meets [002]."""
        return min(self.absorb, self.before_armor)

    @property
    def total(self) -> int:
        """Return the damage dealt."""
        # Armor takes its part after momentum (the knight's armor meets the spearman's 19
        # [003]); doubling applies last [GAME.md §4].
        dealt = self.before_armor - self.absorbed
        return dealt * (STEALTH_MELEE_DAMAGE_FACTOR if self.doubled else 1)


def _expression_part(
    name: str, expression: str, rng: random.Random, core: int | None
) -> DamagePart:
    roll: ExpressionRoll = roll_expression(expression, rng, core=core)
    return DamagePart(
        name=name,
        value=roll.total,
        expression=roll.resolved,
        faces=roll.faces,
        breakdown=roll.breakdown,
    )


def _damage(
    attack: AttackRoll,
    attacker: Combatant,
    defender: Combatant | None,
    spec: AttackSpec,
    rng: random.Random,
    *,
    durability: int | None,
    extra_damage_dice: Sequence[str],
) -> Damage:
    die = attack.core.die
    parts: list[DamagePart]
    if spec.style == "unarmed":
        parts = [DamagePart(name="Physical", value=attacker.physical)]  # [000]
    elif spec.damage is not None:
        parts = [_expression_part("Weapon", spec.damage, rng, die)]
    else:
        # No weapon given: the attack's core face plus explosions, no attribute [002].
        faces = [attack.core.natural, *attack.core.explosions]
        parts = [DamagePart(name="Attack roll", value=attack.core.core_total, faces=faces)]
    if attack.critical:
        face = rng.randint(1, die)
        parts.append(DamagePart(name="Critical", value=face, expression=f"1d{die}", faces=[face]))
    altitude = ALTITUDE_DAMAGE[spec.altitude]
    for dice in altitude.dice:
        parts.append(_expression_part(f"Altitude {spec.altitude}", dice, rng, die))
    for dice in extra_damage_dice:
        parts.append(_expression_part("Extra", dice, rng, die))
    bonus_momentum = []
    if spec.charge_spaces:
        bonus_momentum.append(Modifier(name="Momentum", value=momentum(spec.charge_spaces)))
    charged = max(spec.defender_charge_spaces, defender.charged_spaces if defender else 0)
    if charged and spec.style in ("melee", "targeted"):
        # A charger takes the same extra damage from any enemy melee weapon that hits it
        # that round [003]: the braced spearman's 10 + the knight's 9 = 19.
        bonus_momentum.append(Modifier(name="Target's momentum", value=momentum(charged)))
    armor = armor_of(defender) if defender is not None else None
    return Damage(
        parts=parts,
        withering=altitude.withering,
        durability=durability,
        penetration=spec.penetration if durability is not None else None,
        momentum=[m for m in bonus_momentum if m.value],
        armor=armor.name if armor is not None and armor.absorb else None,
        absorb=armor.absorb if armor is not None else 0,
        doubled=_doubling(spec),
    )


def _doubling(spec: AttackSpec) -> Doubling | None:
    """Return why a melee surprise attack deals double damage, if it does [002]."""
    # Point-blank ranged is defended as melee, but its damage is a ranged attack's [000].
    if not spec.melee:
        return None
    if spec.surprised:
        return "surprised"  # caught in round zero [002 Ambush]
    if spec.stealth:
        return "stealth"
    return None


# The whole attack.


class AttackResult(Result):
    """Every number of one attack, for the breakdown the cog shows."""

    attacker_id: int
    defender_id: int | None  # None for a fixed object
    style: AttackStyle
    attack: AttackRoll
    attack_modifiers: list[Modifier] = Field(default_factory=list)  # known once the target is
    range_kind: RangeKind | None = None
    distance: int = 0
    range_bonus: int = 0
    defense: DefenseRoll | None = None  # None when the outcome is automatic
    outcome: Outcome
    auto_reason: AutoReason | None = None
    counter_opportunity: bool = False  # natural 1: the defender may counter-attack [000]
    damage: Damage | None = None  # on a hit
    durability_loss: int = 0  # the blocking item loses 1 [000]
    stamina_spent: int = 0  # a ranged dodge costs 1 where stamina is tracked [000]

    @property
    def attack_value(self) -> int:
        """Return the attack value against this defender."""
        return self.attack.value + total_of(self.attack_modifiers)

    @property
    def defense_value(self) -> int | None:
        """Return the defense value, or None when the outcome was automatic."""
        return None if self.defense is None else self.defense.value

    @property
    def hit(self) -> bool:
        """Return whether the attack hit (automatically or by beating the defense)."""
        return self.outcome in ("hit", "auto_hit")

    @property
    def critical(self) -> bool:
        """Return whether the attack was a Critical."""
        return self.attack.critical

    @property
    def risk_failure(self) -> bool:
        """Return whether the attack failed on Risk."""
        return self.attack.risk_failure

    @property
    def critical_failure(self) -> bool:
        """Return whether the attack rolled a natural 1."""
        return self.attack.critical_failure

    @property
    def damage_dealt(self) -> int:
        """Return the damage to apply to the defender's Grit."""
        return 0 if self.damage is None else self.damage.total


def _late_attack_modifiers(
    defender: Combatant | None,
    strategy: DefenseStrategy | None,
    spec: AttackSpec,
    extra: Sequence[Modifier] = (),
) -> list[Modifier]:
    modifiers: list[Modifier] = list(extra)
    if defender is None:
        return modifiers
    if defender.prone and spec.close:
        modifiers.append(Modifier(name="Target prone", value=PRONE_BONUS))
    if strategy == "block" and _penetration_counts(defender, strategy, spec):
        # The attack is lowered by 1 per point of penetration [000].
        modifiers.append(Modifier(name="Penetration", value=-(spec.penetration or 0)))
    return modifiers


def _penetration_counts(
    defender: Combatant, strategy: DefenseStrategy | None, spec: AttackSpec
) -> bool:
    if spec.penetration is None or not spec.ranged:
        return False
    if strategy == "block":
        return blocking_durability(defender) is not None
    if strategy == "take_cover":
        return spec.cover_durability is not None
    return False


def _check_resolvable(
    attack: AttackRoll, attacker: Combatant, defender: Combatant | None, spec: AttackSpec
) -> None:
    if defender is None and not spec.fixed_object:
        raise BadInput("An attack needs a defender unless its target is a fixed object.")
    if attack.attacker_id != attacker.id or attack.style != spec.style:
        raise BadInput("That attack roll belongs to another attacker or attack.")
    validate_spec(spec, attacker)
    if defender is not None and defender.id == attacker.id:
        raise RuleViolation("{name} cannot attack themself.", name=attacker.name)


def resolve_attack(
    attack: AttackRoll,
    attacker: Combatant,
    defender: Combatant | None,
    strategy: DefenseStrategy | None,
    spec: AttackSpec,
    rng: random.Random,
    *,
    extra_damage_dice: Sequence[str] = (),
    attack_bonuses: Sequence[Modifier] = (),
    defense: DefenseRoll | None = None,
) -> AttackResult:
    """Resolve a rolled attack against a defender's strategy: outcome and damage [GAME.md §4]."""
    # `strategy` None uses the defender's default; it is ignored when the outcome is
    # automatic (Critical, Risk failure, cumulative long action) or the defender cannot
    # respond (surprised, counter-attacked, focused long action, Broken, Stunned…).
    # `defender` None is a fixed object. `extra_damage_dice` are dice expressions added to
    # a hit (Hex, Sundered: "+1d8 per 2 X rounded up", from Specials); `attack_bonuses`
    # are added to the attack value (a support); `defense` is a defense already rolled
    # (the best of several protectors' blocks).
    _check_resolvable(attack, attacker, defender, spec)
    common = {
        "attacker_id": attacker.id,
        "defender_id": defender.id if defender else None,
        "style": spec.style,
        "attack": attack,
        "range_kind": spec.range_kind or DEFAULT_RANGE_KIND.get(spec.style),
        "distance": spec.distance,
        "range_bonus": spec_range(spec),
    }
    if attack.risk_failure:
        can_counter = defender is not None and die_of(defender) is not None
        return AttackResult(
            **common,
            outcome="auto_miss",
            auto_reason="risk_failure",
            # A fumbled counter-attack offers no counter of its own, or it never ends [bot].
            counter_opportunity=attack.critical_failure and can_counter and not spec.counter,
        )
    cumulative = defender is not None and long_action_defense(defender) == "auto_hit"
    if attack.critical or cumulative:
        return AttackResult(
            **common,
            attack_modifiers=_late_attack_modifiers(defender, None, spec, attack_bonuses),
            outcome="auto_hit",
            auto_reason="critical" if attack.critical else "cumulative_long_action",
            damage=_hit_damage(attack, attacker, defender, spec, rng, None, extra_damage_dice),
        )
    if defense is None:
        defense = roll_defense(attacker, defender, strategy, spec, rng)
    late = _late_attack_modifiers(defender, defense.strategy, spec, attack_bonuses)
    return _opposed(attack, attacker, defender, defense, late, spec, rng, extra_damage_dice, common)


def _hit_damage(
    attack: AttackRoll,
    attacker: Combatant,
    defender: Combatant | None,
    spec: AttackSpec,
    rng: random.Random,
    durability: int | None,
    extra_damage_dice: Sequence[str],
) -> Damage | None:
    """Roll a hit's damage; a grapple deals none, it holds [000]."""
    if spec.grapple:
        return None
    return _damage(
        attack,
        attacker,
        defender,
        spec,
        rng,
        durability=durability,
        extra_damage_dice=extra_damage_dice,
    )


def _opposed(
    attack: AttackRoll,
    attacker: Combatant,
    defender: Combatant | None,
    defense: DefenseRoll,
    late: list[Modifier],
    spec: AttackSpec,
    rng: random.Random,
    extra_damage_dice: Sequence[str],
    common: dict[str, object],
) -> AttackResult:
    """Resolve attack value against defense value: a hit only above it [000, 002]."""
    value = attack.value + total_of(late)
    # Ties go to the defender [000, 002]; a challenge level (surprised 6, a fixed object 3,
    # plus range) is hit when the attack reaches it [003].
    hit = value >= defense.value if defense.challenge else value > defense.value
    durability: int | None = None
    if defender is not None and _penetration_counts(defender, defense.strategy, spec):
        durability = (
            blocking_durability(defender) if defense.strategy == "block" else spec.cover_durability
        )
    damage = None
    if hit:
        damage = _hit_damage(attack, attacker, defender, spec, rng, durability, extra_damage_dice)
    ranged_dodge = defense.strategy == "dodge" and not spec.close
    return AttackResult(
        **common,  # type: ignore[arg-type]
        attack_modifiers=late,
        defense=defense,
        outcome="hit" if hit else "miss",
        damage=damage,
        durability_loss=1 if hit and defense.strategy == "block" and durability is not None else 0,
        stamina_spent=1
        if ranged_dodge and defender is not None and defender.stamina is not None
        else 0,
    )
