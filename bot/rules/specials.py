"""Specials on combatants: apply, cleanse, remove, tick and decay, movement [GAME.md §7, 001].

Every rule here reads the catalogue's `Special` definitions (group, decay, tick,
cleanse, binary, min X) instead of keeping its own table; what the definitions
cannot say (which Special damages, heals or slows) is keyed by the catalogue's key.
Functions change the combatant in place and return what happened as data; Grit
changes go through `change_combatant_grit`, and rendering is the caller's.
"""

from collections.abc import Iterable
from typing import Literal

from pydantic import Field

from bot.catalogue.models import Special
from bot.errors import BadInput, RuleViolation
from bot.rules.combatant_grit import change_combatant_grit
from bot.rules.grit import GritChange, grit_row
from bot.rules.models import ActiveSpecial, Combatant, Encounter
from bot.rules.results import Result

MAX_X = 99  # [bot] a sane ceiling for X and for stacks
MAX_MOVE_M = 999  # [bot]
PRONE_MOBILITY_M = 2  # a prone combatant moves 1 space = 2 m per round [003]
TRACKED_GROUPS = ("diminishing", "timed", "until_broken")

# What a Tick does, by catalogue key [001 Diminishing Effects].
TICK_DAMAGE = ("ruin", "exorcism", "requiem")
TICK_HEAL = ("regeneration",)
TICK_STRESS = ("blight",)
# Exorcism reaches only Fiends, Requiem only Undead ("Deathless" in [001], §11 overrides).
TAG_GATES: dict[str, tuple[str, ...]] = {
    "exorcism": ("fiend",),
    "requiem": ("undead", "deathless"),
}
TAG_NAMES = {"exorcism": "Fiend", "requiem": "Undead"}
SOURCE_BOUND = "challenge"  # one challenger at a time [001 Challenge Rule]
SPEED_ZERO = ("root", "brace")  # Speed 0 m: no voluntary movement [001]
IMMUNE_TO_PRONE = "immovable"  # [001 Until Broken]
PRONE = "prone"  # kept as Combatant.prone, not in its Specials list
STUNNED = "stunned"
SLOW = "slow"
LACERATE = "lacerate"


class SpecialBook:
    """The catalogue's Special definitions, found by the name a combatant carries."""

    def __init__(self, specials: Iterable[Special]) -> None:
        self._by_name: dict[str, Special] = {}
        for special in specials:
            self._by_name.setdefault(special.key.casefold(), special)
            self._by_name.setdefault(special.name.casefold(), special)

    def get(self, name: str) -> Special | None:
        """Return the definition for a carried Special's name or key, if the catalogue has it."""
        return self._by_name.get(name.strip().casefold())

    def tracked(self) -> list[Special]:
        """Return the Specials a combatant can carry, by name."""
        unique = {s.key: s for s in self._by_name.values() if tracked(s)}
        return sorted(unique.values(), key=lambda s: s.name)


def tracked(special: Special) -> bool:
    """Return whether a Special is an ongoing state a combatant carries (not Push, not Cleanse)."""
    return special.group in TRACKED_GROUPS and special.pricing != "unpriced"


def _find(combatant: Combatant, key: str, book: SpecialBook) -> ActiveSpecial | None:
    for active in combatant.specials:
        definition = book.get(active.name)
        if definition is not None and definition.key == key:
            return active
    return None


def _carried(combatant: Combatant, special: Special) -> ActiveSpecial | None:
    for active in combatant.specials:
        if active.name.casefold() in (special.name.casefold(), special.key):
            return active
    return None


def _tagged(combatant: Combatant, key: str) -> bool:
    wanted = TAG_GATES.get(key)
    if wanted is None:
        return True
    tags = {tag.strip().casefold().removesuffix("s") for tag in combatant.tags}
    return bool(tags & set(wanted))


# Applying, cleansing, removing.

ApplyOutcome = Literal["new", "stacked", "raised", "kept", "replaced", "resisted", "no_effect"]


class Applied(Result):
    """What applying a Special did: Ruin 2 → 5 (stacked), Stunned (no effect)…"""

    combatant: str
    special: str
    outcome: ApplyOutcome
    x_given: int | None = None
    x_before: int | None = None  # None: it was not there (or takes no X)
    x_after: int | None = None
    source: str | None = None
    previous_source: str | None = None  # Challenge: the challenger it replaced or kept

    @property
    def changed(self) -> bool:
        """Return whether the combatant's Specials changed."""
        return self.outcome in ("new", "stacked", "raised", "replaced")


def check_x(special: Special, x: int | None) -> None:
    """Refuse an X the Special cannot take: none for binary ones, at least min X for others."""
    if not special.takes_x:
        if x is not None:
            raise BadInput("{special} takes no X; leave x out.", special=special.name)
        return
    if x is None:
        raise BadInput("{special} needs an X: x:2 for {special}(2).", special=special.name)
    if x < 1:
        raise BadInput("X must be at least 1 (got {x}).", x=x)
    if x < special.min_x:
        raise BadInput(
            "{special} is applied at least at {special}({min_x}) (got {x}).",
            special=special.name,
            min_x=special.min_x,
            x=x,
        )
    if x > MAX_X:
        raise BadInput("X is at most {max_x} (got {x}).", max_x=MAX_X, x=x)


def _require_tracked(special: Special) -> None:
    if tracked(special):
        return
    if special.group == "support":
        raise RuleViolation(
            "{special} is a Support effect, not a condition: use /effect "
            "cleanse (or /effect remove) on the Special it lowers.",
            special=special.name,
        )
    if special.group == "instant":
        raise RuleViolation(
            "{special} is an Instant effect: it resolves at once and leaves nothing to track.",
            special=special.name,
        )
    raise RuleViolation(
        "{special} is not a condition the tracker keeps on a combatant.", special=special.name
    )


def apply_special(
    combatant: Combatant, special: Special, x: int | None = None, source: str | None = None
) -> Applied:
    """Apply a Special by the stacking rules: Diminishing adds, Timed and the rest keep the higher X."""
    _require_tracked(special)
    check_x(special, x)
    source = (source or "").strip() or None
    name = combatant.name
    if special.key == SOURCE_BOUND and source is None:
        raise BadInput("{special} records its challenger: give the source.", special=special.name)
    if not _tagged(combatant, special.key):
        raise RuleViolation(
            "{special} affects only {tag} creatures, and {name} is not tagged {tag}.",
            special=special.name,
            tag=TAG_NAMES[special.key],
            name=name,
        )
    common = {"combatant": name, "special": special.name, "x_given": x, "source": source}
    if special.key == PRONE:
        if combatant.prone:
            return Applied(**common, outcome="no_effect")
        immovable = next(
            (a for a in combatant.specials if a.name.casefold() == IMMUNE_TO_PRONE), None
        )
        if immovable is not None:
            raise RuleViolation(
                "{name} is {immovable}: immune to Prone.", name=name, immovable=immovable.name
            )
        combatant.prone = True
        return Applied(**common, outcome="new")

    active = _carried(combatant, special)
    if active is None:
        combatant.specials.append(ActiveSpecial(name=special.name, x=x, source=source))
        return Applied(**common, outcome="new", x_after=x)
    before = active.x
    common |= {"x_before": before, "previous_source": active.source}
    if x is None or before is None:
        # A binary Special is there or not: Stunned never stacks [001 §10.18].
        return Applied(**common, outcome="no_effect", x_after=before)
    if special.key == SOURCE_BOUND and active.source != source:
        # A different challenger replaces the current one only with a higher value [001].
        if x <= before:
            return Applied(**common, outcome="resisted", x_after=before)
        active.x, active.source = x, source
        return Applied(**common, outcome="replaced", x_after=x)
    if special.group == "diminishing":
        # A separate application adds: X → X + Y [001 Diminishing].
        active.x = min(before + x, MAX_X)
        if source is not None:
            active.source = source
        return Applied(**common, outcome="stacked", x_after=active.x)
    # Timed and Until-Broken: reapplying refreshes and keeps the higher X [001].
    if x > before:
        active.x = x
        if source is not None:
            active.source = source
        return Applied(**common, outcome="raised", x_after=x)
    return Applied(**common, outcome="kept", x_after=before)


LowerReason = Literal["decay", "mastery_rank", "turn_end", "cleanse", "remove"]


class Lowered(Result):
    """A Special's X going down (or the Special ending): Ruin 3 → 2, Root 2 → 0."""

    special: str
    before: int | None
    after: int | None  # None: a binary Special removed
    reason: LowerReason

    @property
    def ended(self) -> bool:
        """Return whether the Special is gone."""
        return self.after is None or self.after <= 0


def _lower(combatant: Combatant, active: ActiveSpecial, by: int, reason: LowerReason) -> Lowered:
    before = active.x
    after = None if before is None else max(0, before - by)
    if after is None or after == 0:
        combatant.specials.remove(active)
    else:
        active.x = after
    return Lowered(special=active.name, before=before, after=after, reason=reason)


def cleanse_special(combatant: Combatant, special: Special, x: int) -> Lowered:
    """Cleanse(X): lower one eligible Special on the combatant by X; at 0 it ends [001]."""
    if x < 1:
        raise BadInput("Cleanse X must be at least 1 (got {x}).", x=x)
    if x > MAX_X:
        raise BadInput("Cleanse X is at most {max_x} (got {x}).", max_x=MAX_X, x=x)
    _require_tracked(special)
    if not special.cleanse:
        raise RuleViolation(
            "Cleanse cannot touch {special} (Cleanse/Dispel: No).", special=special.name
        )
    active = _carried(combatant, special)
    if active is None:
        raise RuleViolation(
            "{name} has no {special} to cleanse.", name=combatant.name, special=special.name
        )
    return _lower(combatant, active, x, "cleanse")


def remove_special(combatant: Combatant, special: Special, x: int | None = None) -> Lowered:
    """Remove a Special outright, or lower it by X (spend Bulwark or Mark, a Root check)."""
    _require_tracked(special)
    if x is not None:
        if not special.takes_x:
            raise BadInput("{special} takes no X; leave x out to remove it.", special=special.name)
        if not 1 <= x <= MAX_X:
            raise BadInput("X must be between 1 and {max_x} (got {x}).", max_x=MAX_X, x=x)
    if special.key == PRONE:
        if not combatant.prone:
            raise RuleViolation("{name} is not prone.", name=combatant.name)
        combatant.prone = False
        return Lowered(special=special.name, before=None, after=None, reason="remove")
    active = _carried(combatant, special)
    if active is None:
        raise RuleViolation("{name} has no {special}.", name=combatant.name, special=special.name)
    if x is None:
        combatant.specials.remove(active)
        return Lowered(special=active.name, before=active.x, after=None, reason="remove")
    return _lower(combatant, active, x, "remove")


# Turn start and turn end.

TickKind = Literal["damage", "heal", "stress", "none"]


class Tick(Result):
    """One Special's Tick: Ruin 3 deals 3, Regeneration 2 heals 2, Blight 1 adds 1 Stress."""

    special: str
    x: int
    kind: TickKind
    grit: GritChange | None = None
    stress_before: int | None = None
    stress_after: int | None = None
    untouched_because: str | None = None  # the tag it lacks: Exorcism on a non-Fiend


class StunnedEnds(Result):
    """Stunned at the turn start: the next attack action is lost; reactions come back now."""

    actions_before: int
    actions_after: int


class TurnStartEffects(Result):
    """What the combatant's Specials did at its turn start: Ticks, Stunned, decays, Root."""

    combatant: str
    ticks: list[Tick] = Field(default_factory=list)
    stunned: StunnedEnds | None = None
    decays: list[Lowered] = Field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not self.ticks and self.stunned is None and not self.decays


def _tick(
    encounter: Encounter, combatant: Combatant, active: ActiveSpecial, definition: Special
) -> Tick:
    x = active.x or 0
    common = {"special": active.name, "x": x}
    key = definition.key
    if not _tagged(combatant, key):
        return Tick(**common, kind="none", untouched_because=TAG_NAMES[key])
    if key in TICK_DAMAGE:
        grit = change_combatant_grit(encounter, combatant, damage=x)
        return Tick(**common, kind="damage", grit=grit)
    if key in TICK_HEAL:
        grit = change_combatant_grit(encounter, combatant, heal=x)
        return Tick(**common, kind="heal", grit=grit)
    if key in TICK_STRESS:
        before = combatant.stress
        combatant.stress = before + x
        return Tick(**common, kind="stress", stress_before=before, stress_after=combatant.stress)
    return Tick(**common, kind="none")


def start_turn(encounter: Encounter, combatant: Combatant, book: SpecialBook) -> TurnStartEffects:
    """Run the turn start: every Tick, then Diminishing decay, Stunned, then Root by MR [001]."""
    combatant.moved_m = 0  # movement counts per turn (Slow, Lacerate)
    carried = [(a, book.get(a.name)) for a in list(combatant.specials)]
    known = [(a, d) for a, d in carried if d is not None]
    ticks = [
        _tick(encounter, combatant, active, definition)
        for active, definition in known
        if definition.tick and active.x
    ]
    stunned = None
    decays = []
    for active, definition in known:
        if definition.decay == "start_of_turn" and active.x:
            decays.append(_lower(combatant, active, 1, "decay"))
        elif definition.decay == "next_turn":
            # Stunned: the next attack action is lost, and reactions return now [001].
            before = combatant.actions_left
            combatant.actions_left = max(0, before - 1)
            combatant.specials.remove(active)
            stunned = StunnedEnds(actions_before=before, actions_after=combatant.actions_left)
    for active, definition in known:
        if definition.decay == "mastery_rank" and active.x:
            decays.append(_lower(combatant, active, combatant.mastery_rank, "mastery_rank"))
    return TurnStartEffects(combatant=combatant.name, ticks=ticks, stunned=stunned, decays=decays)


class SlowDamage(Result):
    """Slow at the turn end: X damage because the combatant moved less than 1 m this turn."""

    x: int
    moved_m: int
    grit: GritChange


class TurnEndEffects(Result):
    """What the combatant's Specials did at its turn end: Slow's damage, Brace's decay."""

    combatant: str
    slow: SlowDamage | None = None
    decays: list[Lowered] = Field(default_factory=list)

    @property
    def empty(self) -> bool:
        return self.slow is None and not self.decays


def end_turn(
    encounter: Encounter, combatant: Combatant, book: SpecialBook
) -> TurnEndEffects | None:
    """Run the turn end once per round: Slow deals X unless it moved 1 m, Brace decays [001]."""
    if combatant.turn_ended_round == encounter.round:
        return None  # /init prev and a turn ended again never tick twice
    combatant.turn_ended_round = encounter.round
    slow = None
    active_slow = _find(combatant, SLOW, book)
    if active_slow is not None and active_slow.x and combatant.moved_m < 1:
        slow = SlowDamage(
            x=active_slow.x,
            moved_m=combatant.moved_m,
            grit=change_combatant_grit(encounter, combatant, damage=active_slow.x),
        )
    decays = []
    for active in list(combatant.specials):
        definition = book.get(active.name)
        if definition is not None and definition.decay == "end_of_turn" and active.x:
            decays.append(_lower(combatant, active, 1, "turn_end"))
    return TurnEndEffects(combatant=combatant.name, slow=slow, decays=decays)


# Movement.


class Mobility(Result):
    """How far a combatant may move this round: the Grit table, less Slow; 0 when Rooted."""

    normal_m: int  # the Grit table's Mobility at its current Grit [002]
    slow: int = 0
    prone: bool = False
    limit_m: int
    stopped_by: str | None = None  # "Root 3", "Brace 1", "Broken": no voluntary movement


def mobility(combatant: Combatant, book: SpecialBook) -> Mobility:
    """Return the combatant's Mobility now: Slow −X m, prone 2 m, Root / Brace / Broken 0 m."""
    normal = grit_row(combatant.grit).mobility_m
    slow_active = _find(combatant, SLOW, book)
    slow = (slow_active.x or 0) if slow_active is not None else 0
    limit = max(0, normal - slow)
    if combatant.prone:
        limit = min(limit, PRONE_MOBILITY_M)
    stopped_by = None
    for key in SPEED_ZERO:
        active = _find(combatant, key, book)
        if active is not None:
            stopped_by = f"{active.name} {active.x}" if active.x is not None else active.name
            break
    if normal == 0:
        stopped_by = "Broken"
    if stopped_by is not None:
        limit = 0
    return Mobility(
        normal_m=normal, slow=slow, prone=combatant.prone, limit_m=limit, stopped_by=stopped_by
    )


LacerateTier = Literal["first", "half", "full"]


class LacerateHit(Result):
    """One Lacerate trigger: the first move, beyond half Mobility, beyond full Mobility."""

    tier: LacerateTier
    x: int


class Movement(Result):
    """What one /move did: metres this turn, the Mobility it was checked against, Lacerate."""

    combatant: str
    metres: int
    moved_before: int
    moved_after: int
    mobility: Mobility
    lacerate: list[LacerateHit] = Field(default_factory=list)
    slow_satisfied: bool = False  # it carries Slow and has now moved at least 1 m this turn

    @property
    def beyond_m(self) -> int:
        """Return how far this turn's movement goes past its Mobility (0 when within)."""
        return max(0, self.moved_after - self.mobility.limit_m)

    @property
    def lacerate_damage(self) -> int:
        """Return the damage Lacerate deals for this move."""
        return sum(hit.x for hit in self.lacerate)


def move(combatant: Combatant, metres: int, book: SpecialBook) -> Movement:
    """Record voluntary movement this turn and work out Lacerate's damage (the caller deals it)."""
    # Moving past Mobility is allowed and noted (a Dash, a second move action): Lacerate
    # has a tier for exceeding normal Speed, so the rules expect it [001]. Root, Brace
    # and Broken stop voluntary movement outright.
    if metres < 1:
        raise BadInput("Move at least 1 m (got {metres}).", metres=metres)
    if metres > MAX_MOVE_M:
        raise BadInput(
            "Move at most {max_move_m} m at once (got {metres}).",
            max_move_m=MAX_MOVE_M,
            metres=metres,
        )
    allowed = mobility(combatant, book)
    if allowed.stopped_by == "Broken":
        raise RuleViolation("{name} is Broken and cannot move.", name=combatant.name)
    if allowed.stopped_by is not None:
        raise RuleViolation(
            "{name} cannot move: {stopped_by} sets its Speed to 0 m.",
            name=combatant.name,
            stopped_by=allowed.stopped_by,
        )
    before = combatant.moved_m
    after = before + metres
    combatant.moved_m = after
    hits = []
    lacerate = _find(combatant, LACERATE, book)
    if lacerate is not None and lacerate.x:
        # Tiers use the normal Speed (the Grit table's Mobility), each once per turn [001].
        normal = allowed.normal_m
        if before == 0:
            hits.append(LacerateHit(tier="first", x=lacerate.x))
        if before * 2 <= normal < after * 2:
            hits.append(LacerateHit(tier="half", x=lacerate.x))
        if before <= normal < after:
            hits.append(LacerateHit(tier="full", x=lacerate.x))
    return Movement(
        combatant=combatant.name,
        metres=metres,
        moved_before=before,
        moved_after=after,
        mobility=allowed,
        lacerate=hits,
        slow_satisfied=_find(combatant, SLOW, book) is not None and after >= 1,
    )


# What other rules read.


def can_react(combatant: Combatant) -> bool:
    """Return whether the combatant may use reactions: not while Stunned [001]."""
    return not any(s.name.casefold() == STUNNED for s in combatant.specials)
