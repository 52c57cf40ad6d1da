"""Checks against challenge levels, with the time taken [GAME.md §6, 003]."""

import random
from collections.abc import Sequence
from enum import IntEnum
from types import MappingProxyType
from typing import Literal

from pydantic import Field

from bot.errors import BadInput
from bot.rules.dice import DEFAULT_BASE_RISK, Advantage, CoreRoll, Roller, roll_action
from bot.rules.initiative import sacrifice_bonus
from bot.rules.injuries import injury_modifiers, require_can_jump
from bot.rules.models import Combatant
from bot.rules.results import Modifier, Result, total_of
from bot.rules.stealth import stealth_modifiers


class ChallengeLevel(IntEnum):
    """The challenge levels of [003]."""

    TRIVIAL = 3
    MILD = 6
    FAIR = 9
    MODERATE = 12
    GREAT = 15
    INCREDIBLE = 18
    INCONCEIVABLE = 21

    @property
    def display(self) -> str:
        """Return the level's name as players read it: "Moderate"."""
        return self.name.capitalize()


# Taking longer adds to the check; rushing raises the level by 3 per halving [003].
TimeTaken = Literal["eighth", "quarter", "half", "normal", "double", "quadruple"]
TIME_BONUS: MappingProxyType[TimeTaken, int] = MappingProxyType(
    {"eighth": 0, "quarter": 0, "half": 0, "normal": 0, "double": 3, "quadruple": 6}
)
TIME_LEVEL_RAISE: MappingProxyType[TimeTaken, int] = MappingProxyType(
    {"eighth": 9, "quarter": 6, "half": 3, "normal": 0, "double": 0, "quadruple": 0}
)


def challenge_level(level: int | str) -> int:
    """Return a challenge level from its number or its name ("moderate" → 12)."""
    if isinstance(level, int):
        if level < 1:
            raise BadInput("A challenge level is at least 1 (got {level}).", level=level)
        return level
    text = level.strip()
    if text.isdigit():
        return challenge_level(int(text))
    try:
        return ChallengeLevel[text.upper()].value
    except KeyError:
        names = ", ".join(f"{c.display} {c.value}" for c in ChallengeLevel)
        raise BadInput(
            "Unknown challenge level {typed!r}; use a number or one of {names}.",
            typed=text,
            names=names,
        ) from None


def level_name(level: int) -> str | None:
    """Return the name of a challenge level, if it has one."""
    try:
        return ChallengeLevel(level).display
    except ValueError:
        return None


class CheckResult(Result):
    """A check: the roll, trait and modifiers against the level, and whether it succeeded."""

    roller: str
    core: CoreRoll
    trait_name: str | None = None
    trait: int = 0
    modifiers: list[Modifier] = Field(default_factory=list)  # time, sacrifice, the GM's modifier
    level: int  # as set by the GM
    level_raise: int = 0  # rushing: +3 per halving of the time [003]
    time: TimeTaken = "normal"
    jump: bool = False  # a jump check [003]

    @property
    def target(self) -> int:
        """Return the level the total must reach."""
        return self.level + self.level_raise

    @property
    def total(self) -> int:
        """Return the check's total: core die + trait + modifiers (+ bonus − penalty dice)."""
        return self.core.total + self.trait + total_of(self.modifiers)

    @property
    def success(self) -> bool:
        """Return whether the check succeeds: not a Risk failure, and the total reaches the level."""
        # A Risk failure fails [002]; otherwise total ≥ level [GAME.md §6]. A natural
        # Critical is no pass of its own: GAME.md §6 asks the total to reach the level, and a
        # Critical's "extra damage or effects" [002] is for attacks [bot].
        if self.core.risk_failure:
            return False
        return self.total >= self.target


def roll_check(
    roller: Roller,
    level: int | str,
    rng: random.Random,
    *,
    trait: int = 0,
    trait_name: str | None = None,
    modifier: int = 0,
    time: TimeTaken = "normal",
    base_risk: int = DEFAULT_BASE_RISK,
    situational_risk: int = 0,
    explode: bool = False,
    advantage: Advantage | None = None,
    bonus_dice: Sequence[str] = (),
    penalty_dice: Sequence[str] = (),
    jump: bool = False,
) -> CheckResult:
    """Roll a check: core die + trait + modifiers against a challenge level [GAME.md §6]."""
    # A hidden combatant's actions have +4 [000]; each Injury is −1 to a Finesse check
    # [000, bot]; a leg injury stops a jump [000].
    target = challenge_level(level)
    if jump and isinstance(roller, Combatant):
        require_can_jump(roller)
    if time not in TIME_BONUS:
        raise BadInput(
            "Unknown time {time!r}: use eighth, quarter, half, normal, double or quadruple.",
            time=time,
        )
    core = roll_action(
        roller,
        rng,
        base_risk=base_risk,
        situational_risk=situational_risk,
        explode=explode,
        advantage=advantage,
        bonus_dice=bonus_dice,
        penalty_dice=penalty_dice,
    )
    modifiers: list[Modifier] = []
    if TIME_BONUS[time]:
        modifiers.append(
            Modifier(name=f"Time ×{'2' if time == 'double' else '4'}", value=TIME_BONUS[time])
        )
    if isinstance(roller, Combatant):
        if bonus := sacrifice_bonus(roller, "check"):
            modifiers.append(Modifier(name="Sacrifice", value=bonus))
        modifiers += stealth_modifiers(roller)
    modifiers += injury_modifiers(roller, trait_name)
    if modifier:
        modifiers.append(Modifier(name="Modifier", value=modifier))
    return CheckResult(
        roller=roller.name,
        core=core,
        trait_name=trait_name,
        trait=trait,
        modifiers=modifiers,
        level=target,
        level_raise=TIME_LEVEL_RAISE[time],
        time=time,
        jump=jump,
    )
