"""Attacks: the attack roll, the defense, the outcome and the damage [GAME.md §4].

An attack happens in two steps because the bot rolls the attack first: a Critical or
a Risk failure settles it without asking the defender. `roll_attack` rolls;
`resolve_attack` takes the defender's chosen strategy (or none) and works out
everything else; `apply_attack` writes the result onto the defender. Nothing here
sends anything: every number is in the returned models for the cog to render.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from types import MappingProxyType
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from bot.errors import BadInput, RuleViolation
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
from bot.rules.long_actions import long_action_defense
from bot.rules.models import AttackStyle, Combatant, DefenseStrategy
from bot.rules.results import Modifier, Result, total_of

Attribute = Literal["physical", "finesse"]
RangeKind = Literal["short", "long", "bow"]
TargetSize = Literal["large", "limbs", "head", "small", "precise"]
Outcome = Literal["hit", "miss", "auto_hit", "auto_miss"]
AutoReason = Literal["critical", "risk_failure", "cumulative_long_action"]
# Why a defense has no roll: only its fixed parts and modifiers count.
NoRollReason = Literal["surprised", "fixed_object", "counter", "focused_long_action", "broken"]
# Why the defender is not asked for a strategy: the outcome is automatic, or it cannot
# respond. The one list the flow, the prompt and the result share.
NoChoice = AutoReason | NoRollReason

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
COVER_BONUS = (0, 5, 10, 15, 20)  # by level 0–4 [000]
TAKE_COVER_FACTOR = 2  # [000]
STEALTH_BONUS = 4  # a hidden attacker [000]
STEALTH_MELEE_DAMAGE_FACTOR = 2  # [002]
PRONE_BONUS = 3  # [003]
MOMENTUM_SPACES = 3  # +1 damage per 3 spaces of charge [003]
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


def range_modifier(kind: RangeKind, spaces: int) -> int:
    """Return the range number added to the target's defense [003]."""
    # Short +1 per space; long +1 per 5 spaces; bows 0 within 5 spaces, 1 for 6–10,
    # 2 for 11–15, and on in bands of 5 beyond [bot].
    if spaces < 0:
        raise BadInput(f"Distance cannot be negative (got {spaces}).")
    if kind == "short":
        return spaces
    if kind == "long":
        return spaces // 5
    return max(0, (spaces - 1) // 5)


def thrown_range(physical: int, weight: float) -> int:
    """Return how many spaces a weapon can be thrown: Physical ÷ weight, rounded down [000]."""
    if weight <= 0:
        raise BadInput("A thrown weapon's weight must be more than 0.")
    return max(0, math.floor(physical / weight))


def momentum(spaces: int) -> int:
    """Return the momentum of a charge: +1 damage per 3 spaces moved [003]."""
    return spaces // MOMENTUM_SPACES


def spec_range(spec: AttackSpec) -> int:
    """Return the range number of an attack (0 for melee)."""
    kind = spec.range_kind or DEFAULT_RANGE_KIND.get(spec.style)
    return 0 if kind is None else range_modifier(kind, spec.distance)


def beyond_perception(attacker: Combatant, spec: AttackSpec) -> bool:
    """Return whether a ranged attack reaches past the attacker's Perception (die one down) [002]."""
    return spec.ranged and spec.distance * METRES_PER_SPACE > perception_m(attacker)


def validate_spec(spec: AttackSpec, attacker: Combatant) -> None:
    """Refuse an attack whose options contradict its style, with a message for the user."""
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
        reach = thrown_range(attacker.physical, spec.weight)
        if spec.distance > reach:
            raise RuleViolation(
                f"{attacker.name} can throw that weapon {reach} spaces "
                f"(Physical {attacker.physical} ÷ weight {spec.weight:g}); the target is {spec.distance} away."
            )
    elif spec.weight is not None:
        raise BadInput("A weapon weight is for thrown attacks.")
    if spec.fixed_object and (spec.surprised or spec.counter):
        raise BadInput("A fixed object is neither surprised nor counter-attacked.")
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


def roll_attack(attacker: Combatant, spec: AttackSpec, rng: random.Random) -> AttackRoll:
    """Roll an attack: core die (+ explosions) + attribute + modifiers (+ bonus − penalty dice)."""
    validate_spec(spec, attacker)
    far = beyond_perception(attacker, spec)
    core = roll_action(
        attacker,
        rng,
        base_risk=spec.base_risk,
        situational_risk=spec.situational_risk,
        shift=1 if far else 0,
        explode=spec.explode,
        advantage=spec.advantage,
        bonus_dice=spec.bonus_dice,
        penalty_dice=spec.penalty_dice,
    )
    attribute = spec.attribute or STYLE_ATTRIBUTE[spec.style]
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


def defense_options(style: AttackStyle, cover: int = 0) -> list[DefenseStrategy]:
    """Return the strategies a defender may choose against an attack style [000]."""
    if style in MELEE_STYLES:
        return ["block", "dodge", "break_away"]
    return ["block", "dodge", "take_cover"] if cover > 0 else ["block", "dodge"]


def _can_dodge_ranged(defender: Combatant) -> bool:
    return defender.stamina is None or defender.stamina > 0


def default_strategy(defender: Combatant, style: AttackStyle, cover: int = 0) -> DefenseStrategy:
    """Return the defense used when the defender does not choose: its default, else "auto"."""
    # "auto" is block against melee and dodge against ranged [GAME.md §1, bot]; a default that
    # is not open against this attack falls back to "auto", and a ranged dodge without
    # stamina left falls back to block [bot].
    options = defense_options(style, cover)
    choice = defender.default_defense
    if choice == "auto" or choice not in options:
        choice = "block" if style in MELEE_STYLES else "dodge"
    if choice == "dodge" and style in RANGED_STYLES and not _can_dodge_ranged(defender):
        choice = "block"
    return choice


def validate_defense(defender: Combatant, strategy: DefenseStrategy, spec: AttackSpec) -> None:
    """Refuse a strategy the rules do not allow against this attack, with a message for the user."""
    if strategy == "take_cover":
        if not spec.ranged:
            raise RuleViolation("Taking cover works against ranged and thrown attacks only.")
        if not spec.cover:
            raise RuleViolation(f"{defender.name} is not behind cover, so cannot take cover.")
    if strategy == "break_away" and not spec.melee:
        raise RuleViolation("Break away is a defense against melee attacks.")
    if strategy == "dodge" and spec.ranged and not _can_dodge_ranged(defender):
        raise RuleViolation(f"{defender.name} has no stamina left to dodge a ranged attack.")


class DefenseRoll(Result):
    """The defender's side: its roll (if any), attribute, cover and modifiers."""

    defender_id: int | None  # None for a fixed object
    strategy: DefenseStrategy | None  # None when there is no choice to make
    no_roll: NoRollReason | None = None
    core: CoreRoll | None = None  # the defender's own die and Risk
    attribute: Attribute | None = None
    attribute_value: int = 0
    cover: int = 0  # cover bonus (doubled when taking cover)
    base: int = 0  # 6 when surprised, 3 for a fixed object [003]
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


def _defense_modifiers(
    attacker: Combatant, defender: Combatant, spec: AttackSpec, strategy: DefenseStrategy | None
) -> list[Modifier]:
    modifiers: list[Modifier] = []
    if range_bonus := spec_range(spec):
        modifiers.append(Modifier(name="Range", value=range_bonus))
    if defender.prone and spec.ranged:
        modifiers.append(Modifier(name="Prone against ranged", value=PRONE_BONUS))
    if attacker.prone:
        modifiers.append(Modifier(name="Attacker prone", value=PRONE_BONUS))
    if bonus := sacrifice_bonus(defender, "defense"):
        modifiers.append(Modifier(name="Sacrifice", value=bonus))
    if spec.directions_blocked and (
        strategy == "break_away" or (strategy == "dodge" and spec.ranged)
    ):
        modifiers.append(Modifier(name="Directions blocked", value=-spec.directions_blocked))
    if spec.defense_modifier:
        modifiers.append(Modifier(name="Modifier", value=spec.defense_modifier))
    return modifiers


def no_roll_reason(defender: Combatant, spec: AttackSpec) -> NoRollReason | None:
    """Return why the defender cannot respond (only modifiers count), or None."""
    if spec.surprised:
        return "surprised"
    if spec.counter:
        return "counter"
    if long_action_defense(defender) == "no_defense":
        return "focused_long_action"
    if die_of(defender) is None:
        return "broken"
    return None


def _defend(
    attacker: Combatant,
    defender: Combatant,
    strategy: DefenseStrategy | None,
    spec: AttackSpec,
    rng: random.Random,
) -> DefenseRoll:
    reason = no_roll_reason(defender, spec)
    if reason == "surprised":
        # Surprised: no trait, no roll; a flat 6 plus any range modifiers [003].
        range_bonus = spec_range(spec)
        modifiers = [Modifier(name="Range", value=range_bonus)] if range_bonus else []
        return DefenseRoll(
            defender_id=defender.id,
            strategy=None,
            no_roll=reason,
            base=SURPRISED_DEFENSE,
            modifiers=modifiers,
        )
    if reason is not None:
        modifiers = _defense_modifiers(attacker, defender, spec, None)
        return DefenseRoll(
            defender_id=defender.id, strategy=None, no_roll=reason, modifiers=modifiers
        )

    strategy = strategy or default_strategy(defender, spec.style, spec.cover)
    if strategy not in defense_options(spec.style, spec.cover):
        raise RuleViolation(
            f"{strategy.replace('_', ' ').capitalize()} is not a defense against this attack."
        )
    validate_defense(defender, strategy, spec)
    modifiers = _defense_modifiers(attacker, defender, spec, strategy)
    cover = COVER_BONUS[spec.cover] if spec.ranged else 0
    if strategy == "take_cover":
        return DefenseRoll(
            defender_id=defender.id,
            strategy=strategy,
            cover=cover * TAKE_COVER_FACTOR,
            modifiers=modifiers,
        )
    attribute: Attribute | None
    if strategy == "block":
        attribute = None if spec.ranged else "physical"  # a ranged block adds cover, no trait [000]
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


def _fixed_object_defense(spec: AttackSpec) -> DefenseRoll:
    range_bonus = spec_range(spec)
    modifiers = [Modifier(name="Range", value=range_bonus)] if range_bonus else []
    if spec.defense_modifier:
        modifiers.append(Modifier(name="Modifier", value=spec.defense_modifier))
    return DefenseRoll(
        defender_id=None,
        strategy=None,
        no_roll="fixed_object",
        base=FIXED_OBJECT_DEFENSE,
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
    doubled: bool = False  # melee from stealth, applies last [002]

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
    def total(self) -> int:
        """Return the damage dealt."""
        if self.stopped:
            return 0
        dealt = self.subtotal - self.reduced_by + total_of(self.momentum)
        return max(0, dealt) * (STEALTH_MELEE_DAMAGE_FACTOR if self.doubled else 1)


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
    if spec.defender_charge_spaces and spec.style in ("melee", "targeted"):
        # A charger takes the same extra damage from an enemy melee weapon [003].
        bonus_momentum.append(
            Modifier(name="Target's momentum", value=momentum(spec.defender_charge_spaces))
        )
    return Damage(
        parts=parts,
        withering=altitude.withering,
        durability=durability,
        penetration=spec.penetration if durability is not None else None,
        momentum=[m for m in bonus_momentum if m.value],
        doubled=spec.stealth and spec.melee,
    )


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
    defender: Combatant | None, strategy: DefenseStrategy | None, spec: AttackSpec
) -> list[Modifier]:
    modifiers: list[Modifier] = []
    if defender is None:
        return modifiers
    if defender.prone and spec.melee:
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
        return defender.durability is not None
    if strategy == "take_cover":
        return spec.cover_durability is not None
    return False


def _check_resolvable(
    attack: AttackRoll, attacker: Combatant, defender: Combatant | None, spec: AttackSpec
) -> None:
    if defender is None and not spec.fixed_object:
        raise BadInput("An attack needs a defender unless its target is a fixed object.")
    if defender is not None and spec.fixed_object:
        raise BadInput("A fixed object has no defender; leave the defender out.")
    if attack.attacker_id != attacker.id or attack.style != spec.style:
        raise BadInput("That attack roll belongs to another attacker or attack.")
    validate_spec(spec, attacker)
    if defender is not None and defender.id == attacker.id:
        raise RuleViolation(f"{attacker.name} cannot attack themself.")


def resolve_attack(
    attack: AttackRoll,
    attacker: Combatant,
    defender: Combatant | None,
    strategy: DefenseStrategy | None,
    spec: AttackSpec,
    rng: random.Random,
    *,
    extra_damage_dice: Sequence[str] = (),
) -> AttackResult:
    """Resolve a rolled attack against a defender's strategy: outcome and damage [GAME.md §4]."""
    # `strategy` None uses the defender's default; it is ignored when the outcome is
    # automatic (Critical, Risk failure, cumulative long action) or the defender cannot
    # respond (surprised, counter-attacked, focused long action, Broken). `defender` None
    # is a fixed object. `extra_damage_dice` are dice expressions added to a hit (Hex,
    # Sundered: "+1d8 per 2 X rounded up", from Specials).
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
            attack_modifiers=_late_attack_modifiers(defender, None, spec),
            outcome="auto_hit",
            auto_reason="critical" if attack.critical else "cumulative_long_action",
            damage=_damage(
                attack, attacker, spec, rng, durability=None, extra_damage_dice=extra_damage_dice
            ),
        )
    return _opposed(attack, attacker, defender, strategy, spec, rng, extra_damage_dice, common)


def _opposed(
    attack: AttackRoll,
    attacker: Combatant,
    defender: Combatant | None,
    strategy: DefenseStrategy | None,
    spec: AttackSpec,
    rng: random.Random,
    extra_damage_dice: Sequence[str],
    common: dict[str, object],
) -> AttackResult:
    """Resolve attack value against defense value: a hit only above it [000, 002]."""
    if defender is None:
        defense = _fixed_object_defense(spec)
    else:
        defense = _defend(attacker, defender, strategy, spec, rng)
    late = _late_attack_modifiers(defender, defense.strategy, spec)
    hit = attack.value + total_of(late) > defense.value  # ties go to the defender [000, 002]
    durability: int | None = None
    if defender is not None and _penetration_counts(defender, defense.strategy, spec):
        durability = defender.durability if defense.strategy == "block" else spec.cover_durability
    damage = None
    if hit:
        damage = _damage(
            attack, attacker, spec, rng, durability=durability, extra_damage_dice=extra_damage_dice
        )
    ranged_dodge = defense.strategy == "dodge" and spec.ranged
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
