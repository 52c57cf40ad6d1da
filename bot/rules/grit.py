"""Grit: the health track, the level it sets and the core die every action rolls [GAME.md §2]."""

import functools
from enum import StrEnum
from types import MappingProxyType
from typing import Literal, Protocol

from bot.errors import BadInput
from bot.i18n import L_
from bot.rules.models import DEFAULT_MAX_GRIT, ActiveSpecial
from bot.rules.results import Result

PRIME_FROM = 21  # [002]
REDUCED_FROM = 11  # [002]
DIE_STEPS = (20, 12, 10)  # one level down per step, never below d10 [002]


class GritLevel(StrEnum):
    """The four Grit levels; Broken is the bot's name for 0 Grit [GAME.md §2]."""

    PRIME = "prime"
    REDUCED = "reduced"
    FRAIL = "frail"
    BROKEN = "broken"

    @property
    def display(self) -> str:
        """Return the level's name as players read it: "Prime"."""
        return self.value.capitalize()


class GritRow(Result):
    """One column of the Grit table: what a level allows, in metres [002]."""

    level: GritLevel
    die: int | None
    threat_m: int | None
    mobility_m: int
    vigor_m: int
    perception_m: int


# The Grit table [002]. Frail has no Threat. Broken has no column in [002]: the bot
# shows Frail's Vigor and Perception (a Broken combatant can still be seen and can
# still be ambushed) with Mobility 0, since it cannot act [bot].
GRIT_TABLE: MappingProxyType[GritLevel, GritRow] = MappingProxyType(
    {
        GritLevel.PRIME: GritRow(
            level=GritLevel.PRIME, die=20, threat_m=20, mobility_m=8, vigor_m=10, perception_m=10
        ),
        GritLevel.REDUCED: GritRow(
            level=GritLevel.REDUCED, die=12, threat_m=10, mobility_m=4, vigor_m=8, perception_m=8
        ),
        GritLevel.FRAIL: GritRow(
            level=GritLevel.FRAIL, die=10, threat_m=None, mobility_m=2, vigor_m=6, perception_m=6
        ),
        GritLevel.BROKEN: GritRow(
            level=GritLevel.BROKEN, die=None, threat_m=None, mobility_m=0, vigor_m=6, perception_m=6
        ),
    }
)


def starting_grit(grit: int | None, max_grit: int | None) -> tuple[int, int]:
    """Return a new sheet's (Grit, maximum): one given is both; none is 30/30 [GAME.md §1, bot].

    `grit:12` alone makes 12/12, `max_grit:20` alone 20/20; Grit above the maximum is refused.
    """
    if max_grit is None:
        max_grit = grit if grit else DEFAULT_MAX_GRIT  # 0 Grit alone: Broken, of the default
    if grit is None:
        grit = max_grit
    require_grit_within(grit, max_grit)
    return grit, max_grit


def require_grit_within(grit: int, max_grit: int) -> None:
    """Refuse Grit above its maximum, wherever Grit and maximum are set [GAME.md §1, bot]."""
    if grit > max_grit:
        raise BadInput("Grit {grit} is above max_grit {max_grit}.", grit=grit, max_grit=max_grit)


def grit_level(grit: int) -> GritLevel:
    """Return the Grit level for a number of Grit points."""
    if grit < 0:
        raise BadInput("Grit cannot be negative (got {grit}).", grit=grit)
    if grit >= PRIME_FROM:
        return GritLevel.PRIME
    if grit >= REDUCED_FROM:
        return GritLevel.REDUCED
    if grit >= 1:
        return GritLevel.FRAIL
    return GritLevel.BROKEN


def shift_die(die: int, steps: int) -> int:
    """Move a core die down by situational steps: d20 → d12 → d10, never below d10."""
    if die not in DIE_STEPS:
        raise BadInput("A core die is a d20, d12 or d10, not a d{die}.", die=die)
    if steps < 0:
        raise BadInput("A die shift moves the die down, so it cannot be negative.")
    return DIE_STEPS[min(DIE_STEPS.index(die) + steps, len(DIE_STEPS) - 1)]


@functools.lru_cache(maxsize=1024)  # a few (Grit, shift) pairs, asked for every tracker line
def core_die(grit: int, shift: int = 0) -> int | None:
    """Return the core die for Grit points after a situational shift, or None when Broken."""
    die = GRIT_TABLE[grit_level(grit)].die
    return None if die is None else shift_die(die, shift)


def grit_row(grit: int) -> GritRow:
    """Return the Grit table's column for Grit points."""
    return GRIT_TABLE[grit_level(grit)]


class HasGrit(Protocol):
    """Anything with a Grit track: a Combatant or a Character."""

    name: str
    grit: int
    max_grit: int
    injuries: int


class HasPerception(Protocol):
    """Anything with Grit and an optional explicit Perception."""

    grit: int
    perception_m: int | None


def perception_m(combatant: HasPerception) -> int:
    """Return a combatant's Perception in metres: its own value, else the Grit table's."""
    if combatant.perception_m is not None:
        return combatant.perception_m
    return grit_row(combatant.grit).perception_m


def die_of(combatant: HasGrit, extra_shift: int = 0) -> int | None:
    """Return the die a combatant rolls now: Grit, its standing shift and a situational one."""
    return core_die(combatant.grit, getattr(combatant, "die_shift", 0) + extra_shift)


GritChangeKind = Literal["damage", "heal", "set", "max"]
# What the renderer announces when a level boundary is crossed [GAME.md §2]:
# drops ("drops to Reduced Grit — now rolls d12"), rises ("rises to Prime Grit — now
# rolls d20"), broken ("is Broken and cannot act"), back_on_feet ("is back on their
# feet at Frail").
GritAnnouncement = Literal["drops", "rises", "broken", "back_on_feet"]


class GritChange(Result):
    """What one write to Grit did: the numbers before and after and the level crossed."""

    name: str
    kind: GritChangeKind
    amount: int  # what was asked: damage dealt, healing given, the value set
    blight: int = 0  # healing withheld by Blight [GAME.md §7]
    grit_before: int
    grit_after: int
    max_before: int
    max_after: int
    level_before: GritLevel
    level_after: GritLevel
    die_before: int | None
    die_after: int | None
    injured: bool = False  # reached 0 from above: an Injury is recorded [002]
    npc: bool = False  # players see an NPC's Grit as level and die, never the number

    @property
    def delta(self) -> int:
        """Return the change in Grit points (negative for damage)."""
        return self.grit_after - self.grit_before

    @property
    def crossed(self) -> bool:
        """Return whether the Grit level changed."""
        return self.level_before != self.level_after

    @property
    def announcement(self) -> GritAnnouncement | None:
        """Return which level-change line to show, if any."""
        if not self.crossed:
            return None
        if self.level_after is GritLevel.BROKEN:
            return "broken"
        if self.level_before is GritLevel.BROKEN:
            return "back_on_feet"
        if self.grit_after < self.grit_before:
            return "drops"
        return "rises"


def blight_x(specials: list[ActiveSpecial]) -> int:
    """Return the healing withheld by Blight: the sum of its X [GAME.md §7]."""
    return sum(s.x or 0 for s in specials if s.name.casefold() == "blight")


def _check_change(
    damage: int | None, heal: int | None, set_to: int | None, max_grit: int | None
) -> None:
    """Refuse a Grit change that asks for two things at once, nothing, or a negative number."""
    given = [k for k, v in (("damage", damage), ("heal", heal), ("set", set_to)) if v is not None]
    if len(given) > 1:
        raise BadInput("Change Grit one way at a time: damage, heal or set.")
    if not given and max_grit is None:
        raise BadInput("Say how Grit changes: damage, heal, set or max.")
    for label, value in ((L_("Damage"), damage), (L_("Healing"), heal), (L_("Grit"), set_to)):
        if value is not None and value < 0:
            raise BadInput("{label} cannot be negative (got {value}).", label=label, value=value)
    if max_grit is not None and max_grit < 1:
        raise BadInput("Maximum Grit must be at least 1 (got {max_grit}).", max_grit=max_grit)


def change_grit(
    target: HasGrit,
    *,
    damage: int | None = None,
    heal: int | None = None,
    set_to: int | None = None,
    max_grit: int | None = None,
) -> GritChange:
    """Write Grit: deal damage, heal, set it or set the maximum, and report what changed."""
    # This is the only function that changes Grit; attacks, Specials and /grit all use it.
    # Grit stays within 0..max; reaching 0 from above records an Injury [002]; healing
    # received is lowered by Blight's X while Blight lasts [GAME.md §7].
    _check_change(damage, heal, set_to, max_grit)
    before, max_before = target.grit, target.max_grit
    level_before, die_before = grit_level(before), die_of(target)
    new_max = max_before if max_grit is None else max_grit
    blight = 0
    after = before
    kind: GritChangeKind = "max"
    amount = new_max
    if damage is not None:
        kind, amount, after = "damage", damage, before - damage
    elif heal is not None:
        blight = min(heal, blight_x(getattr(target, "specials", [])))
        kind, amount, after = "heal", heal, before + heal - blight
    elif set_to is not None:
        kind, amount, after = "set", set_to, set_to
    after = max(0, min(after, new_max))

    # Set the maximum first: validation on assignment sees each field alone.
    target.max_grit = new_max
    target.grit = after
    injured = before > 0 and after == 0
    if injured:
        target.injuries += 1
    return GritChange(
        name=target.name,
        kind=kind,
        amount=amount,
        blight=blight,
        grit_before=before,
        grit_after=after,
        max_before=max_before,
        max_after=new_max,
        level_before=level_before,
        level_after=grit_level(after),
        die_before=die_before,
        die_after=die_of(target),
        injured=injured,
        npc=getattr(target, "is_npc", False),
    )
