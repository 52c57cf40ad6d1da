"""The SRD's own tables and worked examples, quoted cell by cell.

The tests rebuild each of these from the catalogue's data and formulas;
`test_srd_source.py` checks the quotes against the SRD text itself when it is
available next to the repository.
"""

from __future__ import annotations

# "Diminishing PP Lookup Table": X → (Start PP 3, 4, 6, 8)
DIMINISHING_LOOKUP: dict[int, tuple[int, int, int, int]] = {
    1: (3, 4, 6, 8),
    2: (9, 12, 18, 24),
    3: (18, 24, 36, 48),
    4: (30, 40, 60, 80),
    5: (45, 60, 90, 120),
    6: (63, 84, 126, 168),
    7: (84, 112, 168, 224),
    8: (108, 144, 216, 288),
    9: (135, 180, 270, 360),
    10: (165, 220, 330, 440),
}
DIMINISHING_START_PP = (3, 4, 6, 8)

# "Weaken and Soulburn Pricing": X → cost
WEAKEN_SOULBURN: dict[int, int] = {
    1: 8,
    2: 24,
    3: 48,
    4: 80,
    5: 120,
    6: 168,
    7: 224,
    8: 288,
    9: 360,
    10: 440,
}

# "Start PP 8 Active-Curve Reference": (level, Active target, highest X, cost, unused)
ACTIVE_CURVE_REFERENCE: tuple[tuple[int, int, int, int, int], ...] = (
    (1, 30, 2, 24, 6),
    (2, 60, 3, 48, 12),
    (3, 90, 4, 80, 10),
    (4, 120, 5, 120, 0),
    (5, 150, 5, 120, 30),
    (6, 180, 6, 168, 12),
    (7, 210, 6, 168, 42),
    (8, 240, 7, 224, 16),
    (9, 270, 7, 224, 46),
    (10, 300, 8, 288, 12),
    (11, 330, 8, 288, 42),
    (12, 360, 9, 360, 0),
    (13, 390, 9, 360, 30),
    (14, 420, 9, 360, 60),
    (15, 450, 10, 440, 10),
    (16, 480, 10, 440, 40),
)

# "Linear Continuation Rule": the default full progressions
CURVES: dict[str, tuple[int, ...]] = {
    "passive": (20, 40, 60, 80, 100, 120, 140, 160, 180, 200, 220, 240, 260, 280, 300, 320),
    "reaction": (20, 40, 60, 80, 100, 120, 140, 160, 180, 200, 220, 240, 260, 280, 300, 320),
    "active": (30, 60, 90, 120, 150, 180, 210, 240, 270, 300, 330, 360, 390, 420, 450, 480),
    "active_buff": (40, 70, 100, 130, 160, 190, 220, 250, 280, 310, 340, 370, 400, 430, 460, 490),
}
PER_LEVEL = {"passive": 20, "reaction": 20, "active": 30, "active_buff": 30}


def _m(*values: int | None) -> tuple[str, ...]:
    return tuple("—" if v is None else f"{v} m" for v in values)


# "Movement Distance Progressions": type → {row label: cells for Levels 1–16}
MOVEMENT: dict[str, dict[str, tuple[str, ...]]] = {
    "ground_dash": {
        "Distance": _m(10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 34, 34, 34),
    },
    "safe_movement": {
        "Distance": _m(2, 4, 6, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20),
    },
    "teleport": {"Distance": _m(*range(1, 17))},
    "teleport_with_ally": {
        "Distance": _m(None, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 12, 12, 12),
    },
    "flight": {
        "Distance": _m(1, 3, 4, 6, 7, 9, 10, 12, 13, 15, 16, 18, 19, 21, 22, 24),
    },
    "leap": {
        "Horizontal": _m(2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 28, 28),
        "Vertical": _m(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 14, 14),
    },
    "wall_walk": {
        "Distance": _m(2, 5, 7, 10, 12, 15, 17, 20, 22, 25, 27, 28, 28, 28, 28, 28),
    },
    "burrow": {"Distance": _m(*range(1, 17))},
    "phase_passage": {
        "Material Thickness": _m(None, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 8, 8),
    },
    "trample": {
        "Path": _m(4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 24, 24, 24, 24, 24),
        "Damage": tuple(f"{n}d8" for n in (1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8)),
    },
}
# "Movement Type Pricing and Caps": the Level 16 cap column
MOVEMENT_CAPS: dict[str, str] = {
    "ground_dash": "34 m",
    "safe_movement": "20 m",
    "teleport": "16 m",
    "teleport_with_ally": "12 m",
    "flight": "24 m",
    "leap": "28 m horizontal / 14 m vertical",
    "wall_walk": "28 m",
    "burrow": "16 m",
    "phase_passage": "8 m material thickness",
    "trample": "24 m path / 8d8 contact damage",
}

# "Passive Special Aura Progression", CALCULATION: (level, radius m or None, PP, target)
SPECIAL_AURA: tuple[tuple[int, int | None, int, int], ...] = (
    (1, None, 0, 20),
    (2, None, 0, 40),
    (3, None, 0, 60),
    (4, 2, 80, 80),
    (5, 3, 100, 100),
    (6, 4, 120, 120),
    (7, 5, 140, 140),
    (8, 5, 140, 160),
    (9, 5, 140, 180),
    (10, 6, 180, 200),
    (11, 6, 180, 220),
    (12, 6, 180, 240),
    (13, 7, 240, 260),
    (14, 7, 240, 280),
    (15, 7, 240, 300),
    (16, 8, 320, 320),
)
SPECIAL_AURA_RADIUS = {2: 0, 3: 20, 4: 40, 5: 60, 6: 100, 7: 160, 8: 240}

# "Worked Examples": component → PP, and the totals
BARK_BARRICADE = (("Placement", 10), ("Length", 10), ("Line of Sight", 5), ("Duration", 15))
STONE_RAMPART = (
    ("Placement", 10),
    ("Length", 15),
    ("Height", 3),
    ("Thickness", 2),
    ("Line of Sight", 5),
    ("Duration", 15),
    ("Resilience", 20),
)

# "Summon Examples": purchases (label, tokens), total and finished stats
SUMMONS: dict[str, dict[str, object]] = {
    "scout_owl": {
        "lines": (
            ("Shared Sight", 2),
            ("Shared Hearing", 2),
            ("4 Summon Skill Dice", 2),
            ("+4 m Movement", 2),
        ),
        "total": 8,
        "stones": 1,
        "finished": {"hp": 10, "armor": 0, "evade": 4, "movement_m": 12},
    },
    "great_war_bear": {
        "lines": (
            ("+120 HP", 6),
            ("+12 Armor", 6),
            ("+4d8 Attack", 4),
            ("+4d8 Damage", 8),
            ("Special Access: Challenge(1)", 4),
            ("Special Value +2", 4),
        ),
        "total": 32,
        "stones": 4,
        "finished": {"hp": 130, "armor": 12, "evade": 4, "attack_d8": 6, "damage_d8": 5},
    },
    "skeleton_warband": {
        "lines": (
            ("6 Additional Bodies", 12),
            ("2 Extra Attacks", 16),
            ("+2d8 Attack", 2),
            ("+1d8 Damage", 2),
        ),
        "total": 32,
        "stones": 4,
        "finished": {"bodies": 7, "attack_d8": 4, "damage_d8": 2, "attacks": 3},
    },
    "shadow_panther": {
        "lines": (
            ("+40 HP", 2),
            ("+4 Evade", 2),
            ("+2d8 Attack", 2),
            ("+1d8 Damage", 2),
            ("+4 m Movement", 2),
            ("Momentum Passive, Power Level 2", 4),
            ("4 Summon Skill Dice", 2),
        ),
        "total": 16,
        "stones": 2,
        "finished": {"hp": 50, "evade": 8, "attack_d8": 4, "damage_d8": 2, "movement_m": 12},
    },
}

# Single-line pricing tables of the SRD (and GAME.md §8)
INSTANT_ATTACK_AOE = {1: 0, 2: 20, 3: 50, 4: 80, 5: 120, 6: 165, 7: 220, 8: 280}
RANGE = {8: 0, 12: 5, 16: 10, 20: 15}
MELEE_REACH = {4: 0, 6: 5, 8: 10, 10: 15}
AOE_RADIUS = {2: 10, 3: 15, 4: 20, 5: 25, 6: 30, 7: 35, 8: 40, 9: 45, 10: 50}
AURA_PASSIVE_RADIUS = {2: 10, 3: 15, 4: 20, 5: 25, 6: 30, 7: 35, 8: 40, 10: 50}
PUSH_PULL_CONTROL = {m: 15 * m for m in range(2, 33, 2)}
BARRIER_HP = {10: 10, 20: 20, 30: 30, 40: 40, 50: 50, 60: 60, 80: 80, 100: 100}
IMAGE_TIER = {"I": 10, "II": 20, "III": 35, "IV": 55, "V": 80, "VI": 110, "VII": 145}
IMAGE_SIZE = {"small": 0, "human": 10, "large": 20, "r3": 50, "r4": 90, "r5": 140}
HEALTH_BARS = {"Healthy": 70, "Bruised": 55, "Injured": 40, "Wounded": 25}
PASSIVE_DR = {10: 60, 20: 160, 30: 300}
BUFF_DR = {20: 130, 30: 250, 40: 360, 50: 450}
REACTION_DR = {30: 80, 40: 160, 50: 240, 60: 300}
PASSIVE_PHASING = {1: 80, 2: 160, 3: 300}
CLEANSE_EXAMPLES = {1: 4, 2: 12, 3: 24, 4: 40}
PASSIVE_SLOTS = {1: 1, 2: 2, 3: 3, 4: 3, 5: 4, 6: 4, 7: 5, 8: 6}
SPELL_TIERS = {  # levels → (tier, Base TN)
    (1, 2): ("I", 8),
    (3, 4): ("II", 16),
    (5, 6): ("III", 24),
    (7, 8): ("IV", 32),
    (9, 10): ("V", 40),
    (11, 12): ("VI", 48),
    (13, 14): ("VII", 56),
    (15, 16): ("VIII", 64),
}
# "Diminishing Effects — Costs" and the other effect tables: Special → price
START_PP = {
    "blight": 3,
    "challenge": 6,
    "corrode": 6,
    "disoriented": 8,
    "expose": 8,
    "hex": 6,
    "lacerate": 4,
    "mark": 4,
    "regeneration": 3,
    "exorcism": 2,
    "requiem": 2,
    "ruin": 4,
    "slow": 4,
    "soulburn": 8,
    "sundered": 6,
    "weaken": 8,
    "root": 6,
    "cleanse": 4,
}
FIXED_PP = {"prone": 60, "stunned": 120, "immovable": 80, "disarm": 60}
PER_X_PP = {
    "brace": 15,
    "bulwark": 20,
    "brutal_impact": 10,
    "penetration": 7.5,
    "precision": 15,
    "push": 2,
    "pull": 2,
}
CLEANSE_DISPEL_NO = {"regeneration", "prone", "stunned", "brace", "bulwark", "immovable"}
# Reaction and Passive progressions the SRD lists value by value
REACTIVE_CLEANSE = (2, 4, 5, 5, 6, 7, 7, 8, 9, 9, 10, 10, 10, 11, 11, 12)
PASSIVE_SPELL_RESISTANCE = (1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 16, 17, 18, 20, 21)
WARD = (1, 2, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10)
PASSIVE_INVISIBILITY = (1, 2, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10)
# Milestone bands: (from, to) → value
BUFF_DR_MILESTONES = {(1, 3): None, (4, 7): 20, (8, 11): 30, (12, 14): 40, (15, 16): 50}
REACTION_DR_MILESTONES = {(1, 3): None, (4, 7): 30, (8, 11): 40, (12, 14): 50, (15, 16): 60}
PHASING_CAPS = {4: 1, 8: 2, 15: 3}  # "Ignore N hits by Level L"
# Temporary HP / Regeneration examples: amount → PP
TEMP_HP_START_EXAMPLES = {10: 20, 20: 40, 30: 60, 40: 80}
REFRESHING_EXAMPLES = {5: 20, 10: 40, 15: 60, 20: 80}
# Summon "Standard Power Cost Reference": tokens per level (+ extra)
SUMMON_POWER_TOKENS = {
    "active": (3, 0),
    "passive": (2, 0),
    "reaction": (2, 0),
    "active_buff": (3, 1),
}
SUMMON_LEVEL_CAPS = {1: 4, 2: 4, 3: 8, 4: 12, 5: 16, 8: 16}
