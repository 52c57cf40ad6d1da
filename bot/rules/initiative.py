"""Initiative, actions per round, sacrifice and the ambush of round zero [GAME.md §5].

Turn advancing (next/prev, Wait, act-now, Hold across turns, round ends) lives in
`bot.rules.encounter`; this module gives it the order for a round and the small
rules it needs.
"""

import random
from collections.abc import Collection, Mapping, Sequence
from typing import Literal, NamedTuple

from pydantic import Field

from bot.errors import BadInput, RuleViolation
from bot.i18n import N_, Ln_
from bot.rules.grit import die_of, perception_m
from bot.rules.injuries import injury_modifiers
from bot.rules.models import ACTIONS_PER_ROUND, Combatant, InitiativeMode, SacrificeFor, Side
from bot.rules.results import Modifier, Result

HASTE_BONUS = 3  # [003]
HOLD_BONUS = 10  # [003]
MINOR_ACT_PENALTY = 2  # per minor act before its turn [003]
SACRIFICE_BONUS = 3  # per sacrificed action, for the rest of the round [003]
HASTED_ACTIONS = 1  # [003]
ROLLOFF_DIE = 20  # ties end in a d20 roll-off [000]
AMBUSH_STEALTH_DIE = 20  # with a Stealth skill [002]
AMBUSH_PLAIN_DIE = 10
STEALTH_TAG = "stealth"
MAX_ROLLOFFS = 50  # roll-offs between the same combatants before falling back on ids [bot]

# Where a combatant goes before the ordinary order: holders, then the hasted (in the
# non-fortune modes), then everyone else; Broken combatants last [bot].
Front = Literal["hold", "haste"]
_GROUP: Mapping[Front | None, int] = {"hold": 0, "haste": 1, None: 2}
_BROKEN_GROUP = 3


class InitiativeEntry(Result):
    """One combatant's place in a round's order and every number that put it there."""

    combatant_id: int
    name: str
    side: Side
    is_npc: bool
    finesse: int
    die: int | None = None  # the die rolled; None without a roll (finesse mode, kept, Broken)
    faces: list[int] = Field(default_factory=list)
    # Initiative bonus, Haste +3, Hold +10, minor acts −2 each (fortune); only the bonus in once.
    bonuses: list[Modifier] = Field(default_factory=list)
    total: int | None  # None: Broken, it cannot roll and is listed last
    kept: bool = False  # total carried over (once mode, or earlier this round)
    front: Front | None = None  # non-fortune modes: placed at the front by Hold or Haste
    side_rank: int = 0  # sides mode: 0 for the side that won, 1 for the other
    rolloff: list[int] = Field(default_factory=list)  # d20 roll-off faces against equal combatants
    broken: bool = False

    @property
    def sort_key(self) -> tuple[int, int, int, int, int, tuple[int, ...]]:
        """Return the key that orders entries: smaller goes first."""
        group = _BROKEN_GROUP if self.broken else _GROUP[self.front]
        total = 0 if self.total is None else self.total
        return (
            group,
            self.side_rank,
            -total,
            -self.finesse,
            int(self.is_npc),  # player characters before NPCs [000]
            tuple(-face for face in self.rolloff),
        )


def _tie_key(entry: InitiativeEntry) -> tuple[int, ...]:
    return entry.sort_key[:5]


def _roll_off(entries: list[InitiativeEntry], rng: random.Random) -> list[InitiativeEntry]:
    """Break remaining ties with d20 roll-offs, re-rolling among those still tied [000]."""
    faces: dict[int, list[int]] = {e.combatant_id: [] for e in entries}
    ties = {e.combatant_id: _tie_key(e) for e in entries}  # each roll-off round asks again

    def key(e: InitiativeEntry) -> tuple[object, ...]:
        return (*ties[e.combatant_id], tuple(-f for f in faces[e.combatant_id]))

    for _ in range(MAX_ROLLOFFS):
        groups: dict[tuple[object, ...], list[InitiativeEntry]] = {}
        for entry in entries:
            if not entry.broken:  # Broken combatants do not roll [bot]
                groups.setdefault(key(entry), []).append(entry)
        tied = [group for group in groups.values() if len(group) > 1]
        if not tied:
            break
        for group in tied:
            for entry in group:
                faces[entry.combatant_id].append(rng.randint(1, ROLLOFF_DIE))
    # Anything still tied (Broken combatants, or MAX_ROLLOFFS exhausted) goes by id. Only
    # those that rolled off are copied (most of a big fight's entries never tie).
    result = [
        e.model_copy(update={"rolloff": faces[e.combatant_id]}) if faces[e.combatant_id] else e
        for e in entries
    ]
    return sorted(result, key=lambda e: (e.sort_key, e.combatant_id))


def _front(combatant: Combatant, mode: InitiativeMode) -> Front | None:
    # In fortune mode Hold and Haste are bonuses to the roll; elsewhere a place [GAME.md §5, bot].
    if mode == "fortune":
        return None
    if combatant.holding:
        return "hold"
    if combatant.hasted:
        return "haste"
    return None


def _injuries(combatant: Combatant) -> list[Modifier]:
    # "Wounds apply to Finesse checks" [000], said of initiative by Finesse.
    return injury_modifiers(combatant, "finesse")


def _fortune_bonuses(combatant: Combatant, mode: InitiativeMode) -> list[Modifier]:
    bonuses: list[Modifier] = []
    if combatant.initiative_bonus:
        bonuses.append(Modifier(name=N_("Initiative bonus"), value=combatant.initiative_bonus))
    # The Initiative Passive: +2 per level [001], on the sheet's powers [GAME.md §9].
    passive = sum(p.initiative or 0 for p in combatant.powers if p.kind == "passive")
    if passive:
        bonuses.append(Modifier(name=N_("Initiative Passive"), value=passive))
    bonuses += _injuries(combatant)
    if mode != "fortune":
        return bonuses
    if combatant.hasted:
        bonuses.append(Modifier(name=N_("Haste"), value=HASTE_BONUS))
    if combatant.holding:
        bonuses.append(Modifier(name=N_("Hold"), value=HOLD_BONUS))
    if combatant.minor_acts:
        bonuses.append(
            Modifier(
                name=f"Minor acts ×{combatant.minor_acts}",
                value=-MINOR_ACT_PENALTY * combatant.minor_acts,
            )
        )
    return bonuses


def _base_entry(combatant: Combatant, mode: InitiativeMode, **rolled: object) -> InitiativeEntry:
    """Return a combatant's entry: what it is, and what its roll gave (`rolled`: total, die…)."""
    # Built whole, once: a fight of 100 built each entry and then copied it with the roll.
    fields: dict[str, object] = {"total": None, **rolled}
    return InitiativeEntry(
        combatant_id=combatant.id,
        name=combatant.name,
        side=combatant.side,
        is_npc=combatant.is_npc,
        finesse=combatant.finesse,
        front=_front(combatant, mode),
        broken=die_of(combatant) is None,
        **fields,
    )


def _rolled_entry(
    combatant: Combatant,
    mode: InitiativeMode,
    rng: random.Random,
    existing: Mapping[int, int | None],
    reroll: Collection[int] | None,
) -> InitiativeEntry:
    """Core die + Finesse + bonuses, or the total kept from an earlier roll."""
    die = die_of(combatant)
    if die is None:  # Broken
        return _base_entry(combatant, mode)
    kept = _kept(combatant, existing, reroll)
    if kept is not None:
        return _base_entry(combatant, mode, total=kept, kept=True)
    face = rng.randint(1, die)
    bonuses = _fortune_bonuses(combatant, mode)
    total = face + combatant.finesse + sum(b.value for b in bonuses)
    return _base_entry(combatant, mode, die=die, faces=[face], bonuses=bonuses, total=total)


def _side_roller(members: Sequence[Combatant]) -> Combatant:
    able = [c for c in members if die_of(c) is not None]
    return min(able, key=lambda c: (-c.finesse, c.is_npc, c.id))


def _kept(
    combatant: Combatant, existing: Mapping[int, int | None], reroll: Collection[int] | None
) -> int | None:
    if reroll is not None and combatant.id in reroll:
        return None
    return existing.get(combatant.id)


class _SideRoll(NamedTuple):
    total: int
    roller: Combatant
    faces: list[int]  # empty when the side's total was kept
    die: int | None


def _roll_side(
    members: Sequence[Combatant],
    rng: random.Random,
    existing: Mapping[int, int | None],
    reroll: Collection[int] | None,
) -> _SideRoll:
    roller = _side_roller(members)
    kept = [t for c in members if (t := _kept(c, existing, reroll)) is not None]
    if kept:
        return _SideRoll(total=max(kept), roller=roller, faces=[], die=None)
    die = die_of(roller)
    assert die is not None  # _side_roller picks a combatant that can act
    face = rng.randint(1, die)
    total = face + roller.finesse + sum(m.value for m in _injuries(roller))
    return _SideRoll(total=total, roller=roller, faces=[face], die=die)


def _sides_entries(
    combatants: Sequence[Combatant],
    rng: random.Random,
    existing: Mapping[int, int | None],
    reroll: Collection[int] | None,
) -> list[InitiativeEntry]:
    """One roll per side by its best-Finesse combatant; the winning side first [002]."""
    sides = sorted({c.side for c in combatants if die_of(c) is not None})
    rolls = {
        side: _roll_side([c for c in combatants if c.side == side], rng, existing, reroll)
        for side in sides
    }

    # Sides tie like combatants: the rollers' Finesse, then the party (player characters)
    # before the foes, so two sides never need a roll-off.
    def side_key(side: Side) -> tuple[int, int, int]:
        return (-rolls[side].total, -rolls[side].roller.finesse, 0 if side == "party" else 1)

    rank = {side: i for i, side in enumerate(sorted(sides, key=side_key))}

    entries: list[InitiativeEntry] = []
    for combatant in combatants:
        entry = _base_entry(combatant, "sides")
        if not entry.broken:
            roll = rolls[combatant.side]
            is_roller = roll.roller.id == combatant.id and bool(roll.faces)
            entry = entry.model_copy(
                update={
                    "total": roll.total,
                    "side_rank": rank[combatant.side],
                    "faces": roll.faces if is_roller else [],
                    "die": roll.die if is_roller else None,
                    "kept": not roll.faces,
                }
            )
        entries.append(entry)
    return entries


def order_for_round(
    combatants: Sequence[Combatant],
    mode: InitiativeMode,
    rng: random.Random,
    *,
    only: Collection[int] | None = None,
    existing: Mapping[int, int | None] | None = None,
) -> list[InitiativeEntry]:
    """Return this round's turn order, rolling what the mode asks for [GAME.md §5]."""
    # fortune: core die + Finesse + initiative bonus + Haste 3 + Hold 10 − 2 per minor act.
    # finesse: by Finesse, no roll. sides: one roll per side by its best-Finesse combatant,
    # the winning side first, then by Finesse. once: core die + Finesse + initiative bonus,
    # kept for the fight. Outside fortune, holders and then the hasted go first. Ties: higher
    # Finesse, player characters before NPCs, then a d20 roll-off. Broken combatants cannot
    # roll and are listed last (their Specials still tick on their turn) [bot].
    #
    # `existing` holds totals already rolled (earlier this round, or this fight in once mode);
    # those combatants keep them unless listed in `only`, which rolls just those afresh.
    existing = existing or {}
    if mode == "finesse":
        entries = [
            e
            if e.broken
            else e.model_copy(
                update={
                    "total": e.finesse + sum(m.value for m in _injuries(c)),
                    "bonuses": _injuries(c),
                }
            )
            for c, e in ((c, _base_entry(c, mode)) for c in combatants)
        ]
    elif mode == "sides":
        entries = _sides_entries(combatants, rng, existing, only)
    elif mode in ("fortune", "once"):
        entries = [_rolled_entry(c, mode, rng, existing, only) for c in combatants]
    else:
        raise BadInput(
            "Unknown initiative mode {mode!r}: use fortune, finesse, sides or once.", mode=mode
        )
    return _roll_off(entries, rng)


# Actions and Fortune options.


def actions_per_round(combatant: Combatant) -> int:
    """Return how many actions a combatant gets this round: 2, Hasted 1, Broken or grappling 0."""
    # A grappling combatant is "treated as if it has already made its actions" [000].
    if die_of(combatant) is None or combatant.grapple is not None:
        return 0
    return HASTED_ACTIONS if combatant.hasted else ACTIONS_PER_ROUND


def spend_action(combatant: Combatant, count: int = 1) -> int:
    """Spend actions (an attack, a move beyond one space, standing up); return those left."""
    if count < 1:
        raise BadInput("Spend at least one action.")
    if die_of(combatant) is None:
        raise RuleViolation("{name} is Broken and cannot act.", name=combatant.name)
    if combatant.actions_left < count:
        left = combatant.actions_left
        raise RuleViolation(
            Ln_(
                "{name} has {n} action left this round.",
                "{name} has {n} actions left this round.",
                left,
                name=combatant.name,
            )
        )
    combatant.actions_left -= count
    return combatant.actions_left


def declare_minor_act(combatant: Combatant) -> int:
    """Record a minor act before the combatant's turn; return its initiative penalty (−2 each)."""
    # Rolled into this round's fortune initiative while it is still to be rolled; once
    # rolled, `bot.rules.encounter.minor_act` lowers the total and finds its new place.
    combatant.minor_acts += 1
    return -MINOR_ACT_PENALTY * combatant.minor_acts


class Sacrifice(Result):
    """An action given up for +3 to one thing for the rest of the round [003]."""

    combatant_id: int
    target: SacrificeFor
    actions_left: int
    bonus: int  # the total sacrifice bonus to that thing now


def sacrifice_bonus(combatant: Combatant, target: SacrificeFor) -> int:
    """Return a combatant's sacrifice bonus to an attack, a defense or a check this round."""
    return SACRIFICE_BONUS * combatant.sacrifices.get(target, 0)


def sacrifice(combatant: Combatant, target: SacrificeFor) -> Sacrifice:
    """Give up one action for +3 to attacks, defense or a check for the rest of the round."""
    # `Combatant.sacrifices` counts the actions sacrificed per target [bot].
    spend_action(combatant)
    combatant.sacrifices = {**combatant.sacrifices, target: combatant.sacrifices.get(target, 0) + 1}
    return Sacrifice(
        combatant_id=combatant.id,
        target=target,
        actions_left=combatant.actions_left,
        bonus=sacrifice_bonus(combatant, target),
    )


def stand_up(combatant: Combatant) -> int:
    """Stand up from prone: costs one action [003]; return the actions left."""
    if not combatant.prone:
        raise RuleViolation("{name} is not prone.", name=combatant.name)
    left = spend_action(combatant)
    combatant.prone = False
    return left


# Round zero [GAME.md §5, 002, 003].


class AmbushRoll(Result):
    """One ambusher's roll against the targets' highest Perception."""

    combatant_id: int
    die: int
    face: int | None  # None: a Broken ambusher cannot roll
    perception: int
    success: bool  # the roll reaches Perception: this ambusher gets the free round


class Ambush(Result):
    """The ambush of round zero: each ambusher's roll against the highest Perception."""

    perception: int  # the highest Perception among the targets, in metres
    perceiver_id: int | None
    rolls: list[AmbushRoll]

    @property
    def succeeded(self) -> list[int]:
        """Return the ambushers who get the free round."""
        return [r.combatant_id for r in self.rolls if r.success]

    @property
    def failed(self) -> list[int]:
        """Return the ambushers who do not."""
        return [r.combatant_id for r in self.rolls if not r.success]


def has_stealth(combatant: Combatant) -> bool:
    """Return whether a combatant has a Stealth skill (the tag "Stealth")."""
    return any(tag.casefold() == STEALTH_TAG for tag in combatant.tags)


def roll_ambush(
    ambushers: Sequence[Combatant], targets: Sequence[Combatant], rng: random.Random
) -> Ambush:
    """Roll each ambusher's d20 (with Stealth) or d10 against the targets' highest Perception."""
    # A roll that reaches the Perception succeeds: ties go to the ambusher [bot], so a d10
    # ambusher without Stealth can still surprise a Prime target (Perception 10) on a 10.
    # Those who succeed act in round zero; the rest do not [002].
    if not ambushers:
        raise BadInput("An ambush needs at least one ambusher.")
    watcher = max(targets, key=perception_m, default=None)
    perception = perception_m(watcher) if watcher is not None else 0
    rolls = []
    for ambusher in ambushers:
        die = AMBUSH_STEALTH_DIE if has_stealth(ambusher) else AMBUSH_PLAIN_DIE
        face = rng.randint(1, die) if die_of(ambusher) is not None else None
        rolls.append(
            AmbushRoll(
                combatant_id=ambusher.id,
                die=die,
                face=face,
                perception=perception,
                success=face is not None and face >= perception,
            )
        )
    return Ambush(perception=perception, perceiver_id=watcher.id if watcher else None, rolls=rolls)
