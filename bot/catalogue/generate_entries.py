"""The SRD figures inside summons.json and catalogue.json: tokens, examples, level tables, lists."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from bot.catalogue.srd_source import SrdFormatError, SrdText, number, numbers, plain

Data = dict[str, Any]

MAX_LEVEL = 16
SUMMON_TOKENS = "#### Summon Token Costs"


# ---------------------------------------------------------------- summons.json


def _singular(name: str) -> str:
    if name.endswith("ies"):
        return name[:-3] + "y"
    return name.removesuffix("s")


def _upgrade_key(upgrades: list[Data], name: str) -> str:
    wanted = {name.casefold(), _singular(name).casefold()}
    for upgrade in upgrades:
        names = {upgrade["name"], *upgrade.get("aliases", ())}
        if wanted & {n.casefold() for n in names}:
            return upgrade["key"]
    raise SrdFormatError(f"no Summon upgrade named {name!r}")


def _purchase(label: str, tokens: int, upgrades: list[Data]) -> Data:
    """Read a purchase line ('+120 HP', 'Shared Sight', 'Momentum Passive, Power Level 2')."""
    power = re.fullmatch(r".+ (Active Buff|Active|Passive|Reaction), Power Level (\d+)", label)
    if power:
        kind = power.group(1).lower().replace(" ", "_")
        return {
            "label": label,
            "power_type": kind,
            "power_level": int(power.group(2)),
            "tokens": tokens,
        }
    patterns: tuple[tuple[str, Callable[[re.Match[str]], tuple[str, int]]], ...] = (
        (r"Special Access: .+", lambda m: ("special_access", 1)),
        (r"Special Value \+(\d+)", lambda m: ("special_value", int(m.group(1)))),
        (r"Shared \w+", lambda m: ("shared_sense", 1)),
        (
            r"\+?(\d+)(?:d8| m)? (.+)",
            lambda m: (_upgrade_key(upgrades, m.group(2)), int(m.group(1))),
        ),
    )
    for pattern, read in patterns:
        match = re.fullmatch(pattern, label)
        if match:
            upgrade, amount = read(match)
            return {"label": label, "upgrade": upgrade, "amount": amount, "tokens": tokens}
    raise SrdFormatError(f"Summon purchase {label!r}")


FINISHED_STATS = (
    ("hp", r"(\d+) HP"),
    ("armor", r"Armor (\d+)"),
    ("evade", r"Evade (\d+)"),
    ("attack_d8", r"Attack (\d+)d8|(\d+)d8 Attack"),
    ("damage_d8", r"Damage (\d+)d8|(\d+)d8 Damage"),
    ("movement_m", r"(\d+) m \w+ Movement"),
    ("attacks", r"(\d+) (?:weak )?Summon Attacks?"),
    ("bodies", r"(\d+) \w+ Bodies"),
)


def _finished(text: str, base: Data) -> Data:
    """Read an example's 'Finished …:' list into stats; what it leaves out is the base value."""
    stats: Data = {}
    for field, pattern in FINISHED_STATS:
        match = re.search(pattern, text)
        stats[field] = int(next(g for g in match.groups() if g)) if match else base[field]
    special = re.search(r"(\w+\(\d+\)), applicable", text)
    if special:
        stats["special"] = special.group(1)
    return stats


def _example(srd: SrdText, example: Data, upgrades: list[Data], base: Data) -> None:
    heading = f"#### {example['name']} - "
    line = srd.line(heading)
    stones = re.match(r"#### .+? - (\d+) Bound Stones?", line)
    mode = re.search(r"Selected Movement Mode:\*\* (\w+)", line)
    finished = re.search(r"\*\*Finished \w+:\*\*(.*?)(?: ---|$)", line)
    if stones is None or mode is None or finished is None:
        raise SrdFormatError(f"the {example['name']} example")
    rows = srd.table(heading)[1:]
    example["bound_stones"] = int(stones.group(1))
    example["movement_mode"] = mode.group(1)
    example["purchases"] = [
        _purchase(label, int(number(cost)), upgrades) for label, cost in rows if label != "Total"
    ]
    example["total_tokens"] = next(int(number(cost)) for label, cost in rows if label == "Total")
    example["finished"] = _finished(finished.group(1), base)


def _base(srd: SrdText) -> Data:
    rows = {stat: value for stat, value in srd.table("#### Universal Base Summon")[1:]}
    return {
        "hp": number(rows["HP"]),
        "armor": number(rows["Armor"]),
        "evade": number(rows["Evade"]),
        "attack_d8": number(rows["Attack"]),
        "damage_d8": number(rows["Damage"]),
        "movement_m": number(rows["Movement"]),
        "attacks": number(rows["Attacks"]),
        "bodies": number(rows["Bodies"]),
    }


def update_summons(srd: SrdText, data: Data, _all: dict[str, Data]) -> None:
    """Tokens per Stone, the base Summon, upgrade costs and limits, Power costs, the examples."""
    data["tokens_per_bound_stone"] = number(
        srd.find(
            r"Every Bound Stone grants \*\*(\d+) Summon Tokens", "#### Creating a Summon Bond"
        )[1]
    )
    data["base"] = _base(srd)
    data["movement_modes"] = srd.bullets(
        "choose exactly **one Movement Mode** that fits its Expression:", " All "
    )
    data["movement_cap_m"] = number(
        srd.find(r"maximum of \*\*(\d+) m\*\*", "#### One Movement Mode")[1]
    )
    limits = {row[0]: row[1] for row in srd.table("#### Upgrade Limits")[1:]}
    data["max_attacks"] = number(limits["Extra Attack"])
    data["max_special_value"] = numbers(limits["Special Value"])[-1]
    costs = {row[0]: row for row in srd.table(SUMMON_TOKENS)[1:]}
    for upgrade in data["upgrades"]:
        _, scope, _, cost, gain = costs[upgrade["name"]]
        upgrade |= {"scope": scope, "tokens": number(cost), "gain": number(gain)}
    data["shared_senses"] = [row[0] for row in srd.table("#### Shared Senses")[1:]]
    data["skills_by_bound_stones"] = [
        {"bound_stones": number(stones), "skills": number(skills)}
        for stones, skills in srd.table("#### Summon Skills")[1:]
    ]
    data["approved_skills"] = srd.bullets("The approved Summon Skills are:", " Social Skills")
    _power_costs(srd, data)
    for example in data["examples"]:
        _example(srd, example, data["upgrades"], data["base"])


def _power_costs(srd: SrdText, data: Data) -> None:
    names = {"Active": "active", "Passive": "passive", "Reaction": "reaction"}
    names |= {"Active Buff": "active_buff", "Movement Power": "movement"}
    costs = []
    for label, cost in srd.table("##### Standard Power Cost Reference")[1:]:
        found = numbers(cost)
        entry: Data = {
            "type": names[label],
            "tokens_per_level": found[0] if "per Power Level" in cost else None,
            "extra_tokens": found[1] if len(found) > 1 and "per Power Level" in cost else 0,
        }
        if entry["tokens_per_level"] is None:
            entry["note"] = cost[0].lower() + cost[1:]
        costs.append(entry)
    data["power_token_costs"] = costs
    caps = []
    for ranks, level in srd.table("##### Power Level Cap")[1:]:
        found = [int(v) for v in numbers(ranks)]
        last = 99 if ranks.endswith("+") else found[-1]
        caps.append({"mastery_ranks": [found[0], last], "max_level": number(level)})
    data["power_level_caps"] = caps
    data["aura_radius"] = [
        {
            "from": int(numbers(levels)[0]),
            "to": int(numbers(levels)[-1]),
            "radius_m": number(radius),
        }
        for levels, radius in srd.table("#### Summon Active Buffs")[1:]
    ]


# ---------------------------------------------------------------- catalogue.json level tables


def _bands(pairs: list[tuple[tuple[int, int], str]]) -> list[Data]:
    return [{"from": first, "to": last, "value": value} for (first, last), value in pairs]


def _level_range(text: str) -> tuple[int, int]:
    found = [int(v) for v in numbers(text.replace("–", " ").replace("-", " "))]
    return found[0], found[-1]


def _milestones(srd: SrdText, fragment: str, value: Callable[[str], str]) -> list[Data]:
    rows = srd.table(fragment)[1:]
    return _bands([(_level_range(levels), value(effect)) for levels, effect in rows])


def _overdrive(effect: str) -> str:
    if "increases" not in effect:
        return effect
    return f"chosen Special +{number(effect.split(' by ')[-1])}"


def _listed_bands(values: list[str], starts: list[int]) -> list[Data]:
    """Turn 'X at Levels a / b / c' into bands; levels before the first start show '—'."""
    pairs: list[tuple[tuple[int, int], str]] = []
    if starts[0] > 1:
        pairs.append(((1, starts[0] - 1), "—"))
    ends = [start - 1 for start in starts[1:]] + [MAX_LEVEL]
    pairs += [((start, end), value) for start, end, value in zip(starts, ends, values, strict=True)]
    return _bands(pairs)


def _aura_radius(srd: SrdText) -> list[Data]:
    line = srd.line("### 11.10 Active Buff Aura Canon")
    found = re.findall(r"(\d+) m at Levels (\d+)–(\d+)", line)
    return _bands([((int(a), int(b)), f"{radius} m") for radius, a, b in found])


def _times(srd: SrdText) -> list[Data]:
    line = srd.line("- **Reactive Overload:**")
    words = {"twice": 2, "three": 3, "four": 4, "five": 5}
    found = re.findall(r"(twice|three|four|five)(?: times)? at (?:Levels )?(\d+)–(\d+)", line)
    return _bands([((int(a), int(b)), f"×{words[word]}") for word, a, b in found])


def _reflection(srd: SrdText) -> list[Data]:
    line = srd.line("- **Reflection:**")
    found = re.findall(r"MR (\d+)(?:–(\d+))? = (\d+)", line)
    return _bands([((int(a), int(b or a)), uses) for a, b, uses in found])


def _intensified(srd: SrdText) -> list[Data]:
    match = srd.find(
        r"gains ([+\d /]+) Temporary Colorless Stones at Levels ([\d–/ ]+)",
        "- **Intensified Absorption:**",
    )
    values = [v.strip() for v in match.group(1).split("/")]
    ranges = [_level_range(part) for part in match.group(2).split("/")]
    return _bands(list(zip(ranges, values, strict=True)))


def _reposition(srd: SrdText) -> list[Data]:
    match = srd.find(r"move ([\d /]+) m at Levels ([\d /]+)", "- **Reposition:**")
    metres = [f"{v} m" for v in numbers(match.group(1))]
    return _listed_bands(metres, [int(v) for v in numbers(match.group(2))])


def _blocked_senses(srd: SrdText) -> list[int]:
    match = srd.find(
        r"At Levels ([\d /]+) it additionally blocks ([\d /]+)", "### 11.4 Invisibility Canon"
    )
    levels = [int(v) for v in numbers(match.group(1))]
    counts = [int(v) for v in numbers(match.group(2))]
    return [
        max([0, *(c for lv, c in zip(levels, counts, strict=True) if lv <= level)])
        for level in range(1, 17)
    ]


def _special_aura_values(srd: SrdText) -> list[int | None]:
    values: list[int | None] = []
    for level in range(1, MAX_LEVEL + 1):
        line = srd.line(f"L{level} → ")
        radius = re.search(r"(\d+) m radius", line)
        values.append(int(radius.group(1)) if radius else None)
    return values


def _per_level(fragment: str, pattern: str) -> Callable[[SrdText], float]:
    def read(srd: SrdText) -> float:
        found = srd.find(pattern, fragment)
        return number(found.group(1)) if found.groups() and found.group(1) else 1

    return read


EXTENSIONS = "#### Current Dedicated Active Buff Extensions"
PER_LEVEL: dict[str, Callable[[SrdText], float]] = {
    "active_buff:spell_resistance": _per_level(
        EXTENSIONS, r"\+(\d+) Spell Resistance per Power Level"
    ),
    "active_buff:cleanse_maintenance": _per_level(
        EXTENSIONS, r"by an amount equal to the Power Level()"
    ),
    "active_buff:thorns": _per_level(EXTENSIONS, r"Thorns (\d+)d8 per Power Level"),
    "active_buff:invisibility": _per_level(
        EXTENSIONS, r"\+(\d+) Invisibility Bonus per Power Level"
    ),
    "active_buff:reinforced_parry": _per_level(EXTENSIONS, r"up to (\d+) Parry per Power Level"),
    "active_buff:reinforced_damage_negation": _per_level(
        EXTENSIONS, r"Pool equal to Power Level()"
    ),
    "reaction:initiative_gain": _per_level(
        "#### Restricted Utility Rules", r"grants \+(\d+) Initiative per Power Level"
    ),
    "reaction:riposte": _per_level(
        "#### Parry and Absorption Reactions", r"Weapon Damage \+ (\d+)d8 per Power Level"
    ),
    "passive:initiative": _per_level(
        "### 11.8 Initiative Powers", r"\+(\d+) Initiative per Power Level"
    ),
    "passive:parry": _per_level("### 11.5 Parry Canon", r"capped at (\d+) × Parry Power Level"),
    "passive:absorption": _per_level("### 11.6 Absorption Canon", r"adds \+(\d+) Maximum HP"),
    "passive:damage_negation": _per_level(
        "### 11.7 Damage Negation Canon", r"Reserve = (\d+) × Power Level"
    ),
}
SEQUENCES: dict[str, Callable[[SrdText], list[list[int]]]] = {
    "reaction:reactive_cleanse": lambda s: [list(s.progression("**Reactive Cleanse:**"))],
    "passive:spell_resistance": lambda s: [
        list(s.progression("Passive Spell Resistance progression:"))
    ],
    "passive:ward": lambda s: [list(s.progression("Ward progression:"))],
    "passive:invisibility": lambda s: [
        list(s.progression("Passive Invisibility Bonus progression:")),
        _blocked_senses(s),
    ],
}
BANDS: dict[str, Callable[[SrdText], list[Data]]] = {
    "active_buff:critical": lambda s: _milestones(
        s, "milestone progression for Active Buff Critical:", plain
    ),
    "active_buff:special_overdrive": lambda s: _milestones(
        s, "milestone progression for Active Buff Special Overdrive:", _overdrive
    ),
    "active_buff:damage_aura": _aura_radius,
    "active_buff:healing_aura": _aura_radius,
    "active_buff:intensified_absorption": _intensified,
    "active_buff:summon_damage_aura": lambda s: _summon_aura(s),
    "active_buff:summon_armor_aura": lambda s: _summon_aura(s),
    "reaction:reposition": _reposition,
    "reaction:reflection": _reflection,
    "reaction:reactive_overload": _times,
}


def _summon_aura(srd: SrdText) -> list[Data]:
    rows = srd.table("#### Summon Active Buffs")[1:]
    return _bands([(_level_range(levels), radius) for levels, radius in rows])


def _axis_rates(srd: SrdText, tables: Data) -> dict[str, list[float]]:
    """Each axis entry's PP per unit (two for Passives: unconditional, conditional)."""
    rates = {rate["key"]: rate for rate in tables["rates"]}
    axes = {row[0]: number(row[1]) for row in srd.table("##### Active Buff Standard Axes")[1:]}

    def rate(key: str) -> list[float]:
        found = rates[key]
        return [found["pp"]] + ([found["conditional_pp"]] if "conditional_pp" in found else [])

    return {
        "active_buff:armor": [axes["Armor"]],
        "active_buff:evade": [axes["Evade"]],
        "active_buff:temporary_hp": [axes["Refreshing Temporary HP"]],
        "active_buff:healing": [axes["Regeneration / Healing"]],
        "active_buff:damage": [axes["Damage"]],
        "active_buff:penetration": [axes["Penetration"]],
        "reaction:armor": rate("armor"),
        "reaction:evade": rate("evade"),
        "reaction:temporary_hp": rate("temp_hp_refresh"),
        "reaction:counter_damage": rate("counter_damage_d8"),
        "passive:armor": rate("passive_armor"),
        "passive:evade": rate("passive_evade"),
        "passive:damage": rate("passive_damage_d6"),
        "passive:healing": rate("passive_healing"),
        "passive:temporary_hp": rate("temp_hp_start"),
        "passive:thornhide": rate("thornhide_d8"),
        "active:pure_output": rate("damage_d8"),
        "active:health_level_heal": rate("health_level_heal"),
        "active:autofire": rate("autofire"),
        "active:mental_attack": rate("mental_damage_d8"),
    }


def _update_levels(srd: SrdText, entry: Data, ident: str, axes: dict[str, list[float]]) -> None:
    levels = entry.get("levels")
    if levels is None:
        return
    kind = levels["kind"]
    if kind == "axis" and ident in axes:
        for column, pp in zip(levels["columns"], axes[ident], strict=True):
            column["pp_per_unit"] = pp
    elif kind == "per_level" and ident in PER_LEVEL:
        levels["per_level"] = PER_LEVEL[ident](srd)
    elif kind == "sequence" and ident in SEQUENCES:
        for column, values in zip(levels["columns"], SEQUENCES[ident](srd), strict=True):
            column["values"] = values
    elif kind == "bands" and ident in BANDS:
        levels["bands"] = BANDS[ident](srd)
    elif ident == "passive:special_aura":
        levels["values"] = _special_aura_values(srd)
        levels["base_pp"] = number(
            srd.find(r"Core = \*\*(\d+) PP\*\*", "#### Special Aura Cost Rule")[1]
        )


def _forbidden(srd: SrdText, fragment: str) -> list[str]:
    """Read 'The following remain forbidden as …: a, b, and c.' into its items."""
    match = srd.find(r"remain forbidden as generic [\w ]+?: (.+?)\.", fragment)
    items = re.split(r", (?:and )?|,? or ", match.group(1))
    return [re.sub(r"^(?:and|any) ", "", item.strip()) for item in items]


def update_entries(srd: SrdText, data: Data, every: dict[str, Data]) -> None:
    """Level tables of the catalogue entries, and the §9 lists' forbidden entries."""
    axes = _axis_rates(srd, every["tables"])
    for entry in data["entries"]:
        _update_levels(srd, entry, f"{entry['kind']}:{entry['key']}", axes)
    lists = {listing["kind"]: listing for listing in data["lists"]}
    lists["active_buff"]["forbidden"] = _forbidden(srd, "#### Closed or Dedicated Entries")
    lists["reaction"]["forbidden"] = _forbidden(srd, "### 9.2 Reaction Catalogue")
    removed = srd.find(r"Passive Categories: (.+?)\.", "#### Removed Generic Categories").group(1)
    lists["passive"]["forbidden"] = [item for item in re.split(r", (?:or )?", removed) if item]
    lists["movement"]["forbidden"] = list(every["movement"]["forbidden"])
