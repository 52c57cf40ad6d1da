"""Rolling: the core roll with Risk and Critical, and free-form dice expressions [GAME.md §3].

Every function that draws takes a `random.Random`; nothing here touches the random
module's global state, so a seeded Random makes every outcome exact. Expressions are
read and rolled by the d20 library in `bot.rules.expressions`, imported on the first
one: d20 builds its parser when imported (a tenth of a second), which every start paid.
"""

import random
import re
from collections.abc import Sequence
from types import ModuleType
from typing import Literal, Protocol

from pydantic import Field

from bot.errors import BadInput, DiceError, RuleViolation
from bot.rules.grit import core_die
from bot.rules.results import Result

Advantage = Literal["advantage", "disadvantage"]

DEFAULT_BASE_RISK = 1  # every action's Risk unless a weapon or action sets another [002]
MAX_EXPLOSIONS = 10  # re-rolls of one exploding die [GAME.md §3, bot]
MAX_EXPRESSION_CHARS = 200  # [GAME.md §3, bot]
MAX_DICE = 1000  # dice per expression, rerolls and explosions included [GAME.md §3, bot]
MAX_SIDES = 1000  # [GAME.md §3, bot]
MAX_NESTING = 20  # brackets inside brackets; guards pathological input [bot]
# Dice that keep/drop/reroll/explode/min/max conditions may look at in one roll, counted at
# worst before rolling; the bound on a roll's work, so one roll cannot stall every table [bot].
MAX_DIE_CHECKS = 10_000

_DICE_SPEC = re.compile(r"^\+?\s*(\d*)\s*[dD]\s*(\d+)$")
_CORE_TOKEN = re.compile(r"(?<![A-Za-z])core", re.IGNORECASE)  # may take dice operators: corekh1


class DiceGroup(Result):
    """Some dice of one size and every face they showed: 2d6 → [3, 5]."""

    spec: str
    faces: list[int]

    @property
    def total(self) -> int:
        """Return the sum of the faces."""
        return sum(self.faces)


class CoreRoll(Result):
    """One action roll: the core die's faces, Risk, Critical and every die added or taken."""

    die: int
    faces: list[int]  # natural faces of the core die: two with advantage or disadvantage
    advantage: Advantage | None = None
    natural: int  # the kept natural face; Risk and Critical are read from it alone [002]
    explosions: list[int] = Field(
        default_factory=list
    )  # re-rolls on the maximum face, added to the total [002]
    risk: int  # total Risk: natural faces up to this fail [002]
    crit_range: int = 1  # how many top faces are Critical [GAME.md §3]
    # Always True for the rolls the bot makes (one die per event); kept so rolls stored
    # with it stay readable.
    reads_risk: bool = True
    bonus: list[DiceGroup] = Field(default_factory=list)  # never trigger Risk or Critical [002]
    penalty: list[DiceGroup] = Field(default_factory=list)
    modifier: int = 0

    @property
    def risk_failure(self) -> bool:
        """Return whether the natural face is within Risk, so the action fails."""
        return self.reads_risk and self.natural <= self.risk

    @property
    def critical(self) -> bool:
        """Return whether the natural face is in the crit range and not a Risk failure."""
        return self.natural > self.die - self.crit_range and not self.risk_failure

    @property
    def critical_failure(self) -> bool:
        """Return whether the natural face is a 1 on the die that reads Risk."""
        return self.reads_risk and self.natural == 1

    @property
    def core_total(self) -> int:
        """Return the natural face plus its explosions."""
        return self.natural + sum(self.explosions)

    @property
    def bonus_total(self) -> int:
        """Return the sum of the bonus dice."""
        return sum(g.total for g in self.bonus)

    @property
    def penalty_total(self) -> int:
        """Return the sum of the penalty dice."""
        return sum(g.total for g in self.penalty)

    @property
    def total(self) -> int:
        """Return the roll's total: core face, explosions, bonus, penalty and modifier."""
        return self.core_total + self.bonus_total - self.penalty_total + self.modifier


def total_risk(base: int = DEFAULT_BASE_RISK, modifier: int = 0, situational: int = 0) -> int:
    """Return an action's total Risk: base + the combatant's Risk + situational, at least 1."""
    # The floor keeps "a natural 1 always fails" true even with Risk-lowering gear [bot].
    return max(1, base + modifier + situational)


def parse_dice_spec(spec: str) -> tuple[int, int]:
    """Read a bonus or penalty die spec such as "1d10" as (count, sides)."""
    match = _DICE_SPEC.match(spec.strip())
    if not match:
        raise DiceError("Bonus and penalty dice look like 1d10, not {typed!r}.", typed=spec.strip())
    count, sides = int(match.group(1) or 1), int(match.group(2))
    if sides < 1:
        raise DiceError("A die needs at least one side.")
    if sides > MAX_SIDES:
        raise DiceError(
            "A die can have at most {most} sides (got d{sides}).", most=MAX_SIDES, sides=sides
        )
    if count > MAX_DICE:
        raise DiceError(
            "A roll can use at most {most} dice (got {count}).", most=MAX_DICE, count=count
        )
    return count, sides


def roll_dice(spec: str, rng: random.Random) -> DiceGroup:
    """Roll a simple spec such as "2d6" and keep every face."""
    count, sides = parse_dice_spec(spec)
    return DiceGroup(spec=f"{count}d{sides}", faces=[rng.randint(1, sides) for _ in range(count)])


def _explode(die: int, rng: random.Random) -> list[int]:
    faces: list[int] = []
    while len(faces) < MAX_EXPLOSIONS:
        faces.append(rng.randint(1, die))
        if faces[-1] != die:
            break
    return faces


def roll_core(
    die: int,
    rng: random.Random,
    *,
    risk: int = DEFAULT_BASE_RISK,
    crit_range: int = 1,
    explode: bool = False,
    advantage: Advantage | None = None,
    bonus_dice: Sequence[str] = (),
    penalty_dice: Sequence[str] = (),
    modifier: int = 0,
) -> CoreRoll:
    """Roll a core die with Risk, Critical, explosions, advantage and bonus/penalty dice."""
    if die < 2:
        raise BadInput("A core die needs at least two sides (got d{die}).", die=die)
    if risk < 1:
        raise BadInput("Risk is at least 1 (got {risk}).", risk=risk)
    if crit_range < 1:
        raise BadInput("A crit range is at least 1 (got {crit_range}).", crit_range=crit_range)
    faces = [rng.randint(1, die)]
    if advantage is not None:
        faces.append(rng.randint(1, die))
    natural = min(faces) if advantage == "disadvantage" else max(faces)
    # Explosions follow the kept face and never change Risk or Critical [002].
    explosions = _explode(die, rng) if explode and natural == die else []
    return CoreRoll(
        die=die,
        faces=faces,
        advantage=advantage,
        natural=natural,
        explosions=explosions,
        risk=risk,
        crit_range=crit_range,
        bonus=[roll_dice(s, rng) for s in bonus_dice],
        penalty=[roll_dice(s, rng) for s in penalty_dice],
        modifier=modifier,
    )


class Roller(Protocol):
    """Whoever rolls: its Grit, standing Risk and crit range (a Combatant or a Character)."""

    name: str
    grit: int
    risk: int
    crit_range: int


def roll_action(
    roller: Roller,
    rng: random.Random,
    *,
    base_risk: int = DEFAULT_BASE_RISK,
    situational_risk: int = 0,
    shift: int = 0,
    crit_range: int | None = None,
    explode: bool = False,
    advantage: Advantage | None = None,
    bonus_dice: Sequence[str] = (),
    penalty_dice: Sequence[str] = (),
    modifier: int = 0,
) -> CoreRoll:
    """Roll a combatant's core die for an action, with its own Risk and crit range."""
    # `crit_range` overrides the roller's own: armor narrows it [002].
    die = core_die(roller.grit, getattr(roller, "die_shift", 0) + shift)
    if die is None:
        raise RuleViolation(
            "{name} is Broken and cannot act until Grit is restored.", name=roller.name
        )
    return roll_core(
        die,
        rng,
        risk=total_risk(base_risk, roller.risk, situational_risk),
        crit_range=roller.crit_range if crit_range is None else crit_range,
        explode=explode,
        advantage=advantage,
        bonus_dice=bonus_dice,
        penalty_dice=penalty_dice,
        modifier=modifier,
    )


class ExpressionRoll(Result):
    """A free-form roll: what was typed, what was rolled, every die and the total."""

    expression: str  # as typed
    resolved: str  # with `core` replaced by the roller's die
    total: int
    breakdown: str  # d20's Markdown: "1d20 (13) + 3 = `16`", dropped dice struck through
    dice: list[DiceGroup] = Field(default_factory=list)
    checks: int = 0  # dice its conditions looked at: the roll's work [bot]

    @property
    def faces(self) -> list[int]:
        """Return every face rolled, in order."""
        return [f for g in self.dice for f in g.faces]


def resolve_core(expression: str, die: int | None) -> str:
    """Replace the `core` token with the roller's current core die: "core+3" → "d20+3"."""
    if not _CORE_TOKEN.search(expression):
        return expression
    if die is None:
        raise DiceError("`core` needs a core die, and a Broken roller (0 Grit) has none.")
    return _CORE_TOKEN.sub(f"d{die}", expression)


def _expressions() -> ModuleType:
    # Imported on first use (see the module's docstring); the bot warms it up once ready.
    from bot.rules import expressions

    return expressions


def worst_checks(expression: str, *, core: int | None = 20) -> int:
    """Return how many dice a readable expression's conditions could check, at worst."""
    return _expressions().worst_checks(expression, core=core)


def check_expression(expression: str, *, core: int | None = 20) -> str:
    """Check a dice expression's syntax and limits without rolling; return it resolved."""
    return _expressions().check_expression(expression, core=core)


def split_label(text: str) -> tuple[str, str | None]:
    """Return a roll's expression and the words typed after it: "1d20+5 attack" → "attack".

    Only what is not dice is a label: a whole text that rolls has none [bot].
    """
    try:
        check_expression(text)
        return text, None
    except DiceError:
        pass
    for found in re.finditer(r"\s+", text):
        expression, label = text[: found.start()], text[found.end() :]
        if not label or not (label[0].isalpha() or label[0] in "\"'“‘#"):
            continue  # "+ 5", "5 …": still the expression
        try:
            check_expression(expression)
        except DiceError:
            continue
        return expression, label.strip()
    return text, None


def roll_expression(
    expression: str, rng: random.Random, *, core: int | None = None
) -> ExpressionRoll:
    """Roll a free-form dice expression within the limits, `core` meaning the given die."""
    # Raises DiceError, with a message fit for the user, for anything malformed or too large.
    return _expressions().roll_expression(expression, rng, core=core)
