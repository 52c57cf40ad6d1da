"""The SRD's governance rules for a build: which parts each power type may use, and how many.

Each check reads only the component names of a build (and its type) and returns the
rules it breaks, each with the SRD's reason and a conforming alternative. `price`
and the design check (`design_power`) both use them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.catalogue.models import Catalogue
from bot.catalogue.shapes import Violation

TYPE_NAMES = {
    "active": "Active",
    "active_buff": "Active Buff",
    "reaction": "Reaction",
    "passive": "Passive",
    "movement": "Movement",
}


@dataclass(frozen=True)
class Allowed:
    """The power types a component belongs to, and the SRD's word on why."""

    types: tuple[str, ...]
    rule: str
    reason: str
    alternative: str


def _only(types: tuple[str, ...], rule: str, reason: str, alternative: str) -> Allowed:
    return Allowed(types, rule, reason, alternative)


ACTIVE = ("active",)
ALLOWED: dict[str, Allowed] = {
    "special_aura": _only(
        ("passive",),
        "Passive Special Aura",
        "Special Aura is a Passive category, the only Passive form that touches Specials.",
        "make it a Passive, or raise an existing Special with Active Buff: Special Overdrive",
    ),
    "aura": _only(
        ("passive",),
        "Aura Passives",
        "The aura-radius table prices Aura Passives.",
        "on an Active Buff use the dedicated Damage / Healing Aura (aura_damage, aura_healing); on an Active use radius",
    ),
    "conditional": _only(
        ("passive",),
        "Passive Pricing Modes",
        "The conditional (× 1) and unconditional (× 2) prices are for Passives.",
        "drop conditional, or price a discount:minor for a real limitation",
    ),
    "thorns": _only(
        ("passive",),
        "§11.9 Thorns Canon",
        "Thornhide (priced per 1d8) is the Passive; Active Buff: Thorns grants 1d8 per Power Level.",
        "make it a Passive, or look up Active Buff: Thorns",
    ),
    "counter": _only(
        ("reaction",),
        "Counter Effect Rules",
        "Counter Damage is a Reaction effect, not an attack.",
        "make it a Reaction, or use damage on an Active",
    ),
    "counter_push": _only(
        ("reaction",),
        "Counter Effect Rules",
        "Counter Push is a Reaction effect.",
        "make it a Reaction, or use push on an Active",
    ),
    "aura_damage": _only(
        ("active_buff",),
        "§11.10 Active Buff Aura Canon",
        "Damage and Healing Auras are dedicated Active Buffs.",
        "make it an Active Buff, or use damage with radius on an Active",
    ),
    "aura_healing": _only(
        ("active_buff",),
        "§11.10 Active Buff Aura Canon",
        "Damage and Healing Auras are dedicated Active Buffs.",
        "make it an Active Buff, or use healing with radius on an Active",
    ),
    "mental": _only(
        ACTIVE, "§10.23 Core Mental Actives", "Mental Attack is an Active.", "make it an Active"
    ),
    "health_level": _only(
        ACTIVE,
        "§11.11 Health Level Heal",
        "Health Level Heal is a Support Active.",
        "make it an Active",
    ),
    "autofire": _only(
        ACTIVE,
        "Multi-Target Attack Structures",
        "Autofire is an Active's attack structure; Buffs and Reactions grant no Extra Attacks.",
        "make it an Active",
    ),
    "split": _only(
        ACTIVE,
        "Multi-Target Attack Structures",
        "Split-Attack is an Active's attack structure; Buffs and Reactions grant no Extra Attacks.",
        "make it an Active",
    ),
    "control": _only(
        ACTIVE,
        "§10.17 Push / Pull Control Scaling",
        "Push / Pull control scaling is a Control Active's primary axis.",
        "make it an Active, or use push / pull as a rider",
    ),
    "healing": _only(
        ACTIVE,
        "Temporary HP, Refreshing HP & Regeneration",
        "+1d8 Healing is an Active's direct heal; Buffs and Passives heal per HP.",
        "use regen:HP (Regeneration / Healing per HP) on a Buff or Passive",
    ),
    "reach": _only(
        ACTIVE,
        "Melee Reach Pricing",
        "Reach prices single-target hostile melee Actives.",
        "make it an Active",
    ),
    "radius": _only(
        ACTIVE,
        "Instant Attack AoE Pricing",
        "Radius prices an Active's area; Passives pay an aura radius.",
        "on a Passive use aura; on an Active Buff use the dedicated auras",
    ),
    "regen": _only(
        ("active_buff", "passive"),
        "Active Buff Standard Axes",
        "Regeneration per HP is an Active Buff or Passive axis.",
        "on an Active use healing:Nd8",
    ),
    "spell_resistance": _only(
        ("passive", "active_buff"),
        "§11.3 Ward and Spell Resistance",
        "Spell Resistance is the Ward Passive or its dedicated Active Buff.",
        "make it a Passive or an Active Buff",
    ),
    "health_bar": _only(
        ("passive", "active_buff", "active"),
        "§4 Health Bars vs. Healing",
        "Health Bars come from Powers, Buffs or Passives, never from a Reaction.",
        "make it a Passive",
    ),
    "range": _only(
        ("active", "active_buff", "reaction"),
        "SRD Pricing Rules 3) Range",
        "A Passive is always on and pays no range; an aura pays radius.",
        "use aura on a Passive",
    ),
}
for _name in (
    "image",
    "image_size",
    "barrier",
    "persistent",
    "rounds",
    "wall",
    "los",
    "resilience",
):
    ALLOWED[_name] = _only(
        ACTIVE,
        "§10.1 Active Template Families",
        "Images, Barriers, walls and zones are Active templates.",
        "make it an Active",
    )
for _name in ("brace", "bulwark", "immovable"):
    ALLOWED[_name] = _only(
        ("active", "active_buff", "reaction"),
        "Until Broken / Until Used Effects",
        "A stored defence is delivered by an Active, a Buff or a Reaction, not a Passive.",
        "make it an Active Buff",
    )
ALLOWED["cleanse"] = _only(
    ("active", "reaction"),
    "Support / Removal Effects",
    "Cleanse is a Support Active (or the restricted Reactive Cleanse).",
    "make it an Active, or look up Active Buff: Cleanse Maintenance",
)
ALLOWED["penetration"] = _only(
    ("active", "active_buff"),
    "Instant Effects; Active Buff Standard Axes",
    "Penetration rides an attack, or is an Active Buff axis.",
    "make it an Active or an Active Buff",
)

SPECIAL_APPLICATION = {
    "active_buff": (
        "Active Buff Special Rules",
        "Active Buffs may not apply Specials (Special Application); only Special Overdrive raises a Special that is already there.",
        "look up Active Buff: Special Overdrive",
    ),
    "reaction": (
        "Reaction Governance",
        "Reactions do not apply Specials (Special Application, Counter Specials).",
        "move the Special to an Active",
    ),
    "passive": (
        "Passive Restrictions and Explicit Exceptions",
        "Passives have no generic Special Application; Special Aura raises one existing Special by +1.",
        "use special_aura on a Passive, or move the Special to an Active",
    ),
}
MOVEMENT_RULE = (
    "Movement Restrictions",
    "Movement Powers may not grant Attack Dice, Critical, next-attack damage, Penetration, "
    "Special Application or Increase, Extra Attacks, defensive buffs, hard control or "
    "Reaction-style avoidance.",
)


def type_violations(catalogue: Catalogue, type_key: str, names: Iterable[str]) -> list[Violation]:
    """Return a Violation for each component the power type may not use, with the SRD's reason."""
    found = []
    specials = {s.key: s for s in catalogue.specials.specials}
    for name in dict.fromkeys(names):
        allowed = ALLOWED.get(name)
        special = specials.get(name)
        if allowed is not None:
            if type_key not in allowed.types:
                where = " or ".join(TYPE_NAMES[t] for t in allowed.types)
                reason = f"{name} belongs to {where}, not {TYPE_NAMES[type_key]}: {allowed.reason}"
                found.append(
                    Violation(rule=allowed.rule, reason=reason, alternative=allowed.alternative)
                )
        elif special is not None and special.key != "critical" and type_key in SPECIAL_APPLICATION:
            rule, reason, alternative = SPECIAL_APPLICATION[type_key]
            found.append(
                Violation(rule=rule, reason=f"{special.name}: {reason}", alternative=alternative)
            )
    if "damage" in names and type_key == "reaction":
        found.append(
            Violation(
                rule="Reaction Governance",
                reason="Reactions deal no attack damage; their damage is Counter Damage, which is not an attack.",
                alternative="use counter:Nd8",
            )
        )
    return found


# Active Buff and Reaction axes, and the two-axis combinations the catalogue approves.
BUFF_AXES = {
    "armor": "Armor",
    "evade": "Evade",
    "temp_hp": "Temporary HP",
    "refresh_hp": "Temporary HP",
    "regen": "Healing",
    "damage": "Damage",
    "penetration": "Penetration",
}
BUFF_PAIRS = [
    {"Armor", "Temporary HP"},
    {"Evade", "Temporary HP"},
    {"Temporary HP", "Healing"},
    {"Armor", "Evade"},
    {"Damage", "Penetration"},
]
BUFF_DEDICATED = {
    "spell_resistance": "Spell Resistance",
    "aura_damage": "Damage Aura",
    "aura_healing": "Healing Aura",
    "critical": "Critical",
}
REACTION_AXES = {
    "armor": "Armor",
    "evade": "Evade",
    "temp_hp": "Temporary HP",
    "refresh_hp": "Temporary HP",
    "counter": "Counter Damage",
    "counter_push": "Counter Push",
}
REACTION_PAIRS = [
    {"Armor", "Temporary HP"},
    {"Evade", "Temporary HP"},
    {"Counter Damage", "Counter Push"},
]
PASSIVE_AXES = {
    "armor": "Armor",
    "evade": "Evade",
    "damage": "Damage",
    "health_bar": "Health",
    "temp_hp": "Temporary HP",
    "refresh_hp": "Temporary HP",
    "regen": "Healing",
    "thorns": "Damage",
}
PASSIVE_CLOSED = {"special_aura": "Special Aura", "spell_resistance": "Ward"}


def _pairs(pairs: list[set[str]]) -> str:
    return ", ".join(" + ".join(sorted(pair)) for pair in pairs)


def combination_violations(type_key: str, names: Iterable[str]) -> list[Violation]:
    """Return the broken axis rules: approved Buff and Reaction pairs, Combined Passives."""
    given = list(dict.fromkeys(names))
    if type_key == "active_buff":
        return _buff_combinations(given)
    if type_key == "reaction":
        axes = {REACTION_AXES[n] for n in given if n in REACTION_AXES}
        if len(axes) > 2 or (len(axes) == 2 and axes not in REACTION_PAIRS):
            return [
                Violation(
                    rule="§9.2 Reaction Catalogue",
                    reason=f"{' + '.join(sorted(axes))} is not an approved Reaction combination.",
                    alternative=f"keep one axis, or use {_pairs(REACTION_PAIRS)}",
                )
            ]
        return []
    if type_key == "passive":
        axes = {PASSIVE_AXES[n] for n in given if n in PASSIVE_AXES}
        closed = {PASSIVE_CLOSED[n] for n in given if n in PASSIVE_CLOSED}
        if len(axes) > 2:
            return [
                Violation(
                    rule="Combined Passives; Two-Axis Rule",
                    reason=f"A Combined Passive blends exactly two axes, not {len(axes)} ({', '.join(sorted(axes))}).",
                    alternative="keep one primary and one secondary axis",
                )
            ]
        if closed and axes:
            return [
                Violation(
                    rule="Combined Passives",
                    reason=f"{', '.join(sorted(closed))} is a dedicated Passive and takes no other axis ({', '.join(sorted(axes))}).",
                    alternative="split it into two Passives",
                )
            ]
    return []


def _buff_combinations(given: list[str]) -> list[Violation]:
    axes = {BUFF_AXES[n] for n in given if n in BUFF_AXES}
    dedicated = [BUFF_DEDICATED[n] for n in given if n in BUFF_DEDICATED]
    rule = "Active Buff Governance — Canonical Catalogue Decisions"
    if dedicated and (axes or len(dedicated) > 1):
        others = sorted(axes | set(dedicated[1:]))
        return [
            Violation(
                rule=rule,
                reason=f"{dedicated[0]} is a dedicated Active Buff and takes no other axis ({', '.join(others)}).",
                alternative=f"keep {dedicated[0]} alone",
            )
        ]
    if len(axes) > 2:
        return [
            Violation(
                rule=rule,
                reason=f"A Combination Active Buff has exactly two axes, not {len(axes)} ({', '.join(sorted(axes))}).",
                alternative=f"keep one of {_pairs(BUFF_PAIRS)}",
            )
        ]
    if len(axes) == 2 and axes not in BUFF_PAIRS:
        return [
            Violation(
                rule=rule,
                reason=f"{' + '.join(sorted(axes))} is not an approved Active Buff combination.",
                alternative=f"use one of {_pairs(BUFF_PAIRS)}",
            )
        ]
    return []


def special_violations(
    catalogue: Catalogue, names: Iterable[str], *, capstone: bool
) -> list[Violation]:
    """Return the broken Special rules: one primary plus one rider; Stunned alone; fixed add-ons."""
    specials = {s.key: s for s in catalogue.specials.specials}
    given = [
        specials[n]
        for n in dict.fromkeys(names)
        if n in specials and specials[n].pricing != "unpriced"
    ]
    found = []
    if len(given) > 2 and not capstone:
        keep = " and ".join(s.name for s in given[:2])
        found.append(
            Violation(
                rule="Special Limit Per Power (Level)",
                reason=f"{len(given)} Specials ({', '.join(s.name for s in given)}); a Power carries one primary Special plus one minor rider.",
                alternative=f"keep {keep} (primary and rider) and drop the rest, or mark it a capstone priced well above the curve",
            )
        )
    major = [
        s
        for s in given
        if s.key != "stunned" and s.group in ("diminishing", "timed", "until_broken", "control")
    ]
    if any(s.key == "stunned" for s in given) and major:
        found.append(
            Violation(
                rule="§10.18 Hard Control / Stunned Governance",
                reason=f"Stunned is combined with another major Special ({', '.join(s.name for s in major)}).",
                alternative="keep Stunned as the only hard-control payload, with damage as its only scaling axis",
            )
        )
    fixed = [s for s in given if s.key in ("prone", "disarm", "immovable")]
    scaling = (
        set(names)
        - {s.key for s in fixed}
        - {"range", "range_base", "reach", "charged", "capstone", "discount", "conditional"}
    )
    if fixed and not scaling:
        found.append(
            Violation(
                rule="§10.16 Fixed Control Add-ons",
                reason=f"{', '.join(s.name for s in fixed)} is a fixed add-on; the Power needs another primary scaling axis.",
                alternative="add damage, a scaling Special or control distance",
            )
        )
    return found


def movement_violations(names: Iterable[str]) -> list[Violation]:
    """Return the Movement Restrictions a Movement Power's extra components break."""
    extra = [n for n in dict.fromkeys(names) if n not in ("charged",)]
    if not extra:
        return []
    rule, reason = MOVEMENT_RULE
    return [
        Violation(
            rule=rule,
            reason=f"{', '.join(extra)}: {reason}",
            alternative="keep the movement alone; put the payload in an Active Buff or an Active",
        )
    ]


def build_violations(
    catalogue: Catalogue, type_key: str, names: list[str], *, capstone: bool
) -> list[Violation]:
    """Return every governance rule a build of this type breaks."""
    if type_key == "movement":
        return movement_violations(names)
    found = type_violations(catalogue, type_key, names)
    found += combination_violations(type_key, names)
    found += special_violations(catalogue, names, capstone=capstone)
    if "critical" in names:
        found.append(
            Violation(
                rule="Critical Restriction",
                reason="Critical may be granted only through Active Buff: Critical or the Agility Ability: Crit Stone Ability, never as a rider.",
                alternative="drop critical; look up Active Buff: Critical",
            )
        )
    if "charged" in names and type_key == "passive":
        found.append(
            Violation(
                rule="Passive Restrictions and Explicit Exceptions",
                reason="A Passive may never use the Charged tag.",
                alternative="drop charged",
            )
        )
    return found
