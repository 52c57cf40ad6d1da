"""Powers on sheets and in play [GAME.md §9, 001 §2, Temporal Segments].

A sheet keeps powers as `KnownPower`s: a catalogue entry at a level (its numbers read
off the catalogue's level table), or a custom build priced exactly as `/pp price` prices
it. What the bot can play is kept as numbers (damage dice, range, radius, Specials on a
hit, healing, initiative, distance); everything else is the power's effect text, shown.

In play: an Active or an Active Buff costs the attack action; an Active Buff lasts
Mastery Rank rounds and a combatant maintains one at a time; a Movement power replaces
the turn's movement; a Reaction is used out of turn on its trigger, one per round; a
Passive is always on. A limited power is used once per Turn, Round, Combat or Day.
Nothing here sends anything: each function changes the combatant and returns data.
"""

import re

from bot.catalogue.build import PriceBreakdown, price, tokens
from bot.catalogue.models import Catalogue
from bot.catalogue.pricing import curve_target, passive_slots, summon_power_level_cap
from bot.catalogue.views import Entry, entry_view
from bot.errors import BadInput, RuleViolation
from bot.i18n import N_, Ln_
from bot.rules.acting import require_turn
from bot.rules.cover import expose
from bot.rules.grit import GritChange
from bot.rules.initiative import spend_action
from bot.rules.models import (
    MAX_POWERS,
    Combatant,
    Encounter,
    KnownPower,
    MaintainedBuff,
    PowerKind,
    PowerSpecial,
    UseLimit,
)
from bot.rules.movement import Moved
from bot.rules.names import clean_name, name_key
from bot.rules.results import Result
from bot.rules.specials import TRACKED_GROUPS, SpecialBook, can_react, move

KIND_NAMES: dict[str, str] = {
    "active": "Active",
    "active_buff": "Active Buff",
    "reaction": "Reaction",
    "passive": "Passive",
    "movement": "Movement",
}
CURVED: tuple[PowerKind, ...] = ("active", "active_buff", "reaction", "passive")
ATTACK_KINDS: tuple[PowerKind, ...] = ("active", "active_buff")  # they cost the attack action
LIMIT_NAMES: dict[str, str] = {  # "once per Round": a sheet's tag, said in the reader's words
    "turn": N_("Turn"),
    "round": N_("Round"),
    "combat": N_("Combat"),
    "day": N_("Day"),
}
# A limited power used up: one whole sentence per segment, so each language words its own.
SPENT: dict[str, str] = {
    "turn": N_("{power} is once per Turn, and {name} has used it this turn."),
    "round": N_("{power} is once per Round, and {name} has used it this round."),
    "combat": N_("{power} is once per Combat, and {name} has used it this fight."),
    "day": N_("{power} is once per Day, and {name} has used it this day."),
}
BEING_ATTACKED = "attack"  # the Reaction trigger the defense prompt offers [001 Attack Trigger]
METRES_PER_SPACE = 2  # [000, 003]
_DICE = re.compile(r"^\+?(\d{1,2})d(\d{1,2})$")
_NUMBER = re.compile(r"^\+?(\d{1,3})(?: m)?$")


# Adding powers to a sheet -----------------------------------------------------------


def level_cap(catalogue: Catalogue, mastery_rank: int) -> int:
    """Return the highest power level a Mastery Rank allows [001 Power Level Cap, bot]."""
    # The SRD's one table of it ("Maximum Power Level is set by the owner's Mastery
    # Rank": MR 1-2 → 4, MR 3 → 8, MR 4 → 12, MR 5+ → 16) is read for characters too.
    return summon_power_level_cap(catalogue, mastery_rank)


def check_level_allowed(catalogue: Catalogue, level: int, mastery_rank: int) -> None:
    """Refuse a level above what the Mastery Rank allows, with the reason."""
    cap = level_cap(catalogue, mastery_rank)
    if level > cap:
        raise RuleViolation(
            "Level {level} is above what Mastery Rank {rank} allows: at most level {cap} "
            "(SRD Power Level Cap: MR 1-2 → 4, MR 3 → 8, MR 4 → 12, MR 5+ → 16).",
            level=level,
            rank=mastery_rank,
            cap=cap,
        )


def find_power(powers: list[KnownPower], name: str) -> KnownPower | None:
    """Return the power of that name on a sheet (compared as names are), if any."""
    wanted = name_key(name)
    return next((p for p in powers if name_key(p.name) == wanted), None)


def learn(
    catalogue: Catalogue, powers: list[KnownPower], power: KnownPower, mastery_rank: int
) -> KnownPower:
    """Add a power to a sheet's list (in place) and return it, or refuse: a taken name, a full slot."""
    check_level_allowed(catalogue, power.level, mastery_rank)
    taken = find_power(powers, power.name)
    if taken is not None and power.entry is not None and taken.kind != power.kind:
        # Armor is an Active Buff, a Reaction and a Passive: the type tells them apart.
        power = power.model_copy(update={"name": f"{power.name} ({KIND_NAMES[power.kind]})"})
        taken = find_power(powers, power.name)
    if taken is not None:
        raise BadInput(
            "The sheet already has a power named {power}; remove it first.", power=power.name
        )
    if len(powers) >= MAX_POWERS:
        raise RuleViolation(
            "A sheet holds at most {most} powers; remove one first.", most=MAX_POWERS
        )
    if power.kind == "passive":
        slots = passive_slots(catalogue, mastery_rank)
        if sum(p.kind == "passive" for p in powers) >= slots:
            raise RuleViolation(
                Ln_(
                    "Mastery Rank {rank} has {n} Passive slot, all taken "
                    "(SRD Passive Loadout: MR 1/2/3/3/4/4/5/6).",
                    "Mastery Rank {rank} has {n} Passive slots, all taken "
                    "(SRD Passive Loadout: MR 1/2/3/3/4/4/5/6).",
                    slots,
                    rank=mastery_rank,
                )
            )
    powers.append(power)
    return power


def _power_name(name: str | None, default: str) -> str:
    cleaned = clean_name(name or default)
    if not cleaned:
        raise BadInput("A power needs a name.")
    if len(cleaned) > 60:
        raise BadInput(
            "A power's name has at most 60 characters ({given} given).", given=len(cleaned)
        )
    return cleaned


def _dice(cell: str) -> str | None:
    match = _DICE.match(cell.strip())
    return f"{match[1]}d{match[2]}" if match else None


def _number(cell: str) -> int | None:
    match = _NUMBER.match(cell.strip())
    return int(match[1]) if match else None


def _level_cells(catalogue: Catalogue, entry: Entry, level: int) -> dict[str, str]:
    """Return an entry's level-table row at a level, by column (empty without a table)."""
    view = entry_view(catalogue, entry, level)
    table = view.table
    if table is None or table.header != "Level" or not table.rows:
        return {}
    return dict(zip(table.columns, table.rows[0].cells, strict=False))


def _numbers(kind: str, key: str, cells: dict[str, str]) -> dict[str, object]:
    """Return what the bot plays from a catalogue level row: the numbers it tracks."""
    first = next((v for c, v in cells.items() if c not in ("PP", "Target PP")), "")
    if kind == "active" and key in ("pure_output", "mental_attack"):
        return {"damage": _dice(first)}
    if kind == "movement":
        return {"movement_m": _number(first)}
    if kind == "active_buff" and key == "damage":
        return {"damage": _dice(first)}
    if kind == "active_buff" and key == "healing":
        return {"heal_per_turn": _number(first)}
    if kind == "passive" and key == "initiative":
        return {"initiative": _number(first)}
    if kind == "passive" and key in ("damage", "healing"):
        field = "damage" if key == "damage" else "heal_per_turn"
        value = _dice(cells.get("Unconditional", "")) or _number(cells.get("Unconditional", ""))
        return {field: value}
    return {}


def catalogue_power(
    catalogue: Catalogue,
    entry: Entry,
    level: int,
    *,
    name: str | None = None,
    limit: UseLimit | None = None,
    trigger: str | None = None,
    spell: bool = False,
) -> KnownPower:
    """Return a catalogue power at a level as a sheet keeps it, its numbers read off its table."""
    kind = entry.kind
    if kind not in KIND_NAMES:
        raise BadInput(
            "{name} is not a power (an Active, Active Buff, Reaction, Passive or Movement).",
            name=entry.name,
        )
    cells = _level_cells(catalogue, entry, level)
    shown = {c: v for c, v in cells.items() if c not in ("PP", "Target PP")}
    target = None if kind == "movement" else curve_target(catalogue, kind, level).target_pp
    pp = float(cells["PP"]) if "PP" in cells and cells["PP"].replace(".", "").isdigit() else target
    effect = "; ".join(f"{c} {v}" for c, v in shown.items()) or entry.summary
    return KnownPower(
        name=_power_name(name, entry.name),
        kind=kind,  # type: ignore[arg-type]
        level=level,
        entry=f"{kind}:{entry.key}",
        pp=pp,
        target_pp=target,
        spell=spell,
        limit=limit,
        effect=effect[:300],
        trigger=_trigger(catalogue, kind, trigger),
        **_numbers(kind, entry.key, cells),  # type: ignore[arg-type]
    )


def _trigger(catalogue: Catalogue, kind: str, trigger: str | None) -> str | None:
    """Return a Reaction's chosen trigger (being attacked unless told), or refuse one elsewhere."""
    if kind != "reaction":
        if trigger is not None:
            raise BadInput("Only a Reaction has a trigger.")
        return None
    keys = [t.key for t in catalogue.tables.reaction_triggers]
    chosen = trigger or BEING_ATTACKED
    if chosen not in keys:
        raise BadInput(
            "A Reaction's trigger is one of {triggers}, not {chosen!r}.",
            triggers=", ".join(keys),
            chosen=chosen[:30],
        )
    return chosen


class Built(Result):
    """A custom power as priced, and the power the sheet keeps."""

    power: KnownPower
    breakdown: PriceBreakdown


def built_power(
    catalogue: Catalogue,
    name: str,
    kind: PowerKind,
    level: int,
    components: str,
    *,
    limit: UseLimit | None = None,
    trigger: str | None = None,
    spell: bool = False,
    allow_over_curve: bool = False,
) -> Built:
    """Price a custom power as /pp price does; refuse it over its curve unless allowed."""
    if kind not in CURVED:
        raise BadInput(
            "Build an Active, Active Buff, Reaction or Passive; a Movement power is added "
            "from the catalogue (/character power add)."
        )
    breakdown = price(catalogue, components, kind, level)
    check = breakdown.check
    assert check is not None  # a type was given
    if breakdown.charged and limit is None:
        raise BadInput("A Charged power is a limited-use power: give its limit (turn, round…).")
    over = check.verdict == "over"
    if over and not allow_over_curve:
        raise RuleViolation(
            "{kind} level {level} is over its curve: {total} PP against a target of {target} PP, "
            "{over} PP over (more than {tolerance} PP over is over curve [SRD §10.3]); only the "
            "GM may allow it (over_curve:true asks the GM).",
            kind=KIND_NAMES[kind],
            level=level,
            total=format(check.total_pp, "g"),
            target=format(check.target_pp, "g"),
            over=format(check.over_by_pp, "g"),
            tolerance=format(check.tolerance_pp, "g"),
        )
    numbers = _build_numbers(catalogue, kind, breakdown, components)
    power = KnownPower(
        name=_power_name(name, ""),
        kind=kind,
        level=level,
        components=" ".join(f"{n}:{v}" if v else n for n, v in tokens(components))[:500],
        pp=check.total_pp,
        target_pp=check.target_pp,
        over_curve=over,
        spell=spell,
        limit=limit,
        effect=", ".join(f"{p.name} {p.value}".strip() for p in breakdown.components)[:300],
        trigger=_trigger(catalogue, kind, trigger),
        **numbers,  # type: ignore[arg-type]
    )
    return Built(power=power, breakdown=breakdown)


def _build_numbers(
    catalogue: Catalogue, kind: str, breakdown: PriceBreakdown, components: str
) -> dict[str, object]:
    """Return what the bot plays from a build's components: damage, range, area, Specials."""
    values = dict(tokens(components))
    numbers: dict[str, object] = {}
    if values.get("damage"):
        die = values["damage"] or ""
        numbers["damage"] = die if "d" in die else f"{die}d8"
    if kind == "active":
        if values.get("range"):
            numbers["range_m"] = _number(values["range"] or "")
        if values.get("radius"):
            numbers["radius_m"] = _number(values["radius"] or "")
        specials = []
        by_key = {s.key: s for s in catalogue.specials.specials}
        for name, value in values.items():
            special = by_key.get(name)
            if special is not None and (special.group in TRACKED_GROUPS or special.binary):
                specials.append(PowerSpecial(name=special.name, x=int(value) if value else None))
        numbers["specials"] = specials
    if kind in ("active_buff", "passive") and values.get("healing"):
        numbers["heal_per_turn"] = _number(values["healing"] or "")
    return numbers


# Limited uses -------------------------------------------------------------------------


def _marker(encounter: Encounter, combatant: Combatant, limit: UseLimit) -> int:
    """Return the segment a use falls in: the round, the user's turn, or the whole fight."""
    if limit == "round":
        return encounter.round  # refreshes when the next round begins [001]
    if limit == "turn":
        return combatant.turn_started_round or 0  # refreshes at the start of its next turn
    return 0  # Combat and Day: once in this fight [001, bot: the bot keeps no calendar]


def check_uses(encounter: Encounter, combatant: Combatant, power: KnownPower) -> None:
    """Refuse a limited power whose use in this segment is spent [001 Temporal Segments]."""
    if power.limit is None:
        return
    key = name_key(power.name)
    if key in combatant.power_uses and combatant.power_uses[key] == _marker(
        encounter, combatant, power.limit
    ):
        raise RuleViolation(SPENT[power.limit], power=power.name, name=combatant.name)


def count_use(encounter: Encounter, combatant: Combatant, power: KnownPower) -> None:
    """Record a limited power's use in its segment."""
    if power.limit is not None:
        combatant.power_uses[name_key(power.name)] = _marker(encounter, combatant, power.limit)


def known(combatant: Combatant, name: str) -> KnownPower:
    """Return the combatant's power of that name, or refuse: it has none."""
    power = find_power(combatant.powers, name)
    if power is None:
        if not combatant.powers:
            raise BadInput(
                "{name} has no power named {power!r} (has: none).",
                name=combatant.name,
                power=clean_name(name),
            )
        raise BadInput(
            "{name} has no power named {power!r} (has: {names}).",
            name=combatant.name,
            power=clean_name(name),
            names=", ".join(p.name for p in combatant.powers),
        )
    return power


# Active Buffs ---------------------------------------------------------------------------


class BuffStarted(Result):
    """An Active Buff taken up: until when it lasts, and the one it replaced."""

    combatant: str
    buff: MaintainedBuff
    rounds: int
    replaced: str | None = None
    forced: bool = False


def start_buff(
    encounter: Encounter, combatant: Combatant, power: KnownPower, *, forced: bool = False
) -> BuffStarted:
    """Spend the attack action on an Active Buff: Mastery Rank rounds, replacing the old one [001 §2]."""
    forced = require_turn(encounter, combatant, "use a power", forced=forced)
    check_uses(encounter, combatant, power)
    spend_action(combatant)
    count_use(encounter, combatant, power)
    replaced = combatant.buff.name if combatant.buff is not None else None
    rounds = combatant.mastery_rank  # "Duration: Typically Mastery Rank Rounds" [001]
    combatant.buff = MaintainedBuff(
        name=power.name,
        until_round=encounter.round + rounds,
        damage=power.damage,
        heal_per_turn=power.heal_per_turn,
        effect=power.effect,
    )
    return BuffStarted(
        combatant=combatant.name,
        buff=combatant.buff,
        rounds=rounds,
        replaced=replaced,
        forced=forced,
    )


class BuffTurn(Result):
    """A maintained buff at its user's turn start: it heals, or it ends."""

    combatant: str
    buff: str
    ended: bool = False
    healed: int = 0
    rounds_left: int = 0
    grit: GritChange | None = None  # its healing, once given


def buff_turn_start(encounter: Encounter, combatant: Combatant) -> BuffTurn | None:
    """End a buff whose rounds are over; otherwise give its healing (the caller heals)."""
    buff = combatant.buff
    if buff is None:
        return None
    if encounter.round >= buff.until_round:
        combatant.buff = None
        return BuffTurn(combatant=combatant.name, buff=buff.name, ended=True)
    return BuffTurn(
        combatant=combatant.name,
        buff=buff.name,
        healed=buff.heal_per_turn or 0,
        rounds_left=buff.until_round - encounter.round,
    )


def passive_healing(combatant: Combatant) -> list[BuffTurn]:
    """Return the healing the combatant's Passives give at its turn start (the caller heals)."""
    return [
        BuffTurn(combatant=combatant.name, buff=p.name, healed=p.heal_per_turn)
        for p in combatant.powers
        if p.kind == "passive" and p.heal_per_turn
    ]


def extra_damage_dice(combatant: Combatant) -> list[str]:
    """Return the extra damage dice the combatant's Damage buff and Passives add to its hits."""
    dice = [p.damage for p in combatant.powers if p.kind == "passive" and p.damage]
    if combatant.buff is not None and combatant.buff.damage:
        dice.append(combatant.buff.damage)
    return dice


# Actives ---------------------------------------------------------------------------------


def attack_options(power: KnownPower, distance: int) -> dict[str, object]:
    """Return an Active's attack options: its dice (never exploding), melee or ranged [GAME.md §9]."""
    if not power.damage and not power.specials:
        raise RuleViolation(
            "{power} has no attack payload (damage or a Special): the bot plays attacking "
            "Actives; apply its effect by hand.",
            power=power.name,
        )
    reach = power.range_m
    if reach is None and distance > 0:
        raise RuleViolation("{power} is a melee power: give no distance.", power=power.name)
    if reach is not None and distance * METRES_PER_SPACE > reach:
        raise RuleViolation(
            Ln_(
                "{power} reaches {reach} m; the target is {n} space ({metres} m) away.",
                "{power} reaches {reach} m; the target is {n} spaces ({metres} m) away.",
                distance,
                power=power.name,
                reach=reach,
                metres=distance * METRES_PER_SPACE,
            )
        )
    return {
        "style": "melee" if reach is None else "ranged",
        "distance": distance,
        "damage": power.damage or "0",  # d8s do not explode [001 Dice Model]
    }


def check_active(encounter: Encounter, combatant: Combatant, power: KnownPower) -> None:
    """Refuse an Active whose limited use is spent (the attack checks the rest)."""
    check_uses(encounter, combatant, power)


# Movement --------------------------------------------------------------------------------


def use_movement(
    encounter: Encounter,
    combatant: Combatant,
    power: KnownPower,
    book: SpecialBook,
    *,
    forced: bool = False,
) -> Moved:
    """Move the power's distance as the turn's movement: one move action [001 §2, 003, bot]."""
    if power.kind != "movement":
        raise BadInput("{power} is not a Movement power.", power=power.name)
    forced = require_turn(encounter, combatant, "move", forced=forced)
    metres = check_movement(combatant, power)
    check_uses(encounter, combatant, power)
    if combatant.engaged_with:
        raise RuleViolation(
            "{name} is engaged and locked onto its space: break away first (/breakaway).",
            name=combatant.name,
        )
    if combatant.actions_left < 1:
        raise RuleViolation("{name} has no actions left this round.", name=combatant.name)
    movement = move(combatant, metres, book)  # refuses Root, Brace, Broken; works out Lacerate
    spend_action(combatant)
    combatant.move_actions += 1
    count_use(encounter, combatant, power)
    return Moved(
        movement=movement,
        actions_spent=1,
        actions_left=combatant.actions_left,
        exposed=expose(combatant),
        forced=forced,
    )


def check_movement(combatant: Combatant, power: KnownPower) -> int:
    """Return a Movement power's distance, or refuse: the turn's movement is already made."""
    if power.movement_m is None:
        raise RuleViolation(
            "{power} has no distance at level {level}.", power=power.name, level=power.level
        )
    if combatant.moved_m:
        raise RuleViolation(
            "{name} has moved {metres} m this turn: a Movement power replaces the turn's "
            "movement, so it comes first [001].",
            name=combatant.name,
            metres=combatant.moved_m,
        )
    return power.movement_m


# Reactions -------------------------------------------------------------------------------


class Reacted(Result):
    """A power Reaction used on its trigger."""

    combatant: str
    power: str
    effect: str


def power_reactions(encounter: Encounter, defender: Combatant) -> list[tuple[int, str]]:
    """Return the defender's Reactions it may use on being attacked now: (index, name)."""
    if defender.reacted_round == encounter.round or not can_react(defender):
        return []
    offered = []
    for index, power in enumerate(defender.powers):
        if power.kind != "reaction" or power.trigger != BEING_ATTACKED:
            continue
        try:
            check_uses(encounter, defender, power)
        except RuleViolation:
            continue  # spent in this segment: not offered
        offered.append((index, power.name))
    return offered[:3]  # a prompt's buttons are few [bot]


def use_reaction(encounter: Encounter, combatant: Combatant, power: KnownPower) -> Reacted:
    """Use a Reaction out of turn: one per round, and its limited uses [001 §2]."""
    if power.kind != "reaction":
        raise BadInput("{power} is not a Reaction.", power=power.name)
    if not can_react(combatant):
        raise RuleViolation(
            "{name} is Stunned and cannot react until its next turn.", name=combatant.name
        )
    if combatant.reacted_round == encounter.round:
        raise RuleViolation(
            "{name} has used its Reaction this round (one per round).", name=combatant.name
        )
    check_uses(encounter, combatant, power)
    combatant.reacted_round = encounter.round
    count_use(encounter, combatant, power)
    return Reacted(combatant=combatant.name, power=power.name, effect=power.effect)
