"""Free-form dice expressions through the d20 library, within the limits [GAME.md §3].

`bot.rules.dice` is the way in (`roll_expression`, `check_expression`, `worst_checks`):
it imports this module on the first expression, because d20 builds its parser when
imported.
"""

from __future__ import annotations

import random

import d20
from d20 import diceast

from bot.errors import DiceError
from bot.i18n import L_, Lazy
from bot.rules.dice import (
    MAX_DICE,
    MAX_DIE_CHECKS,
    MAX_EXPRESSION_CHARS,
    MAX_NESTING,
    MAX_SIDES,
    DiceGroup,
    ExpressionRoll,
    resolve_core,
)

# ---------------------------------------------------------------------------
# The randomness seam: d20's `Die._add_roll` calls the random module's global
# functions. We subclass its public expression classes instead of touching
# global state: `_SeededRoller._eval_dice` builds `_SeededDice`, whose dice (also
# the ones added by explode/reroll operators via `roll_another`/`reroll`) are
# `_SeededDie`s that draw from the `random.Random` carried by `_SeededContext`.
# The RollContext is d20's own hook for per-roll state (its roll counter), so it
# is the natural place for the injected Random. d20's stringifiers dispatch on exact
# types, so `_SeededStringifier` registers the two subclasses. A fresh Roller is made per call:
# the parser is module-level in d20, so this is cheap and shares no state.
#
# The work seam: d20's keep operator selects again for every die it keeps, and its
# reroll and explode operators look at the whole pool after every pass, so
# `1000d1000k>0k>0…` costs millions of die checks and froze the event loop for
# seconds. `_CountedOperator` gives the same results with one selection per keep
# and, for conditions that judge each die by its own face (`rr1`, `e>5`, `k<3`), a
# look at the freshly rolled dice only; dice are rerolled in pool order, not d20's
# set order, so seeded rolls are exact. Every die a condition looks at is counted
# by the context, as d20 counts rolls, and `_worst_checks` bounds that count from
# the parsed expression before anything is rolled [bot].
# ---------------------------------------------------------------------------

_POINTWISE = (None, "<", ">")  # selectors that judge a die by its own face: 6, <3, >5


class _TooMuchWork(d20.RollError):
    """A roll checked more dice than MAX_DIE_CHECKS (the bound before rolling missed it)."""


class _SeededContext(d20.RollContext):
    def __init__(self, rng: random.Random, max_rolls: int = MAX_DICE) -> None:
        self.rng = rng
        self.max_checks = MAX_DIE_CHECKS
        self.checks = 0
        super().__init__(max_rolls=max_rolls)

    def reset(self) -> None:
        super().reset()
        self.checks = 0

    def count_checks(self, n: int) -> None:
        self.checks += n
        if self.checks > self.max_checks:
            raise _TooMuchWork("Too many dice checked.")


def _size(number: d20.Number) -> int:
    # What summing a value costs: its nodes, a Dice counting each die once.
    if isinstance(number, d20.Dice):
        return 1 + len(number.values)
    return 1 + sum(_size(child) for child in number.children)


class _Fresh(d20.Set):
    """Dice just rolled by a reroll or explosion: the only ones a pointwise condition rereads."""

    __slots__ = ()


def _weight(target: d20.Number) -> int:
    # What one selector's look at a pool costs: its dice, or its entries' sizes.
    if isinstance(target, d20.Dice | _Fresh):
        return len(target.values)
    return sum(_size(value) for value in target.set)


class _CountedOperator(d20.SetOperator):
    __slots__ = ("_context", "_pointwise")

    @classmethod
    def counted(cls, node: diceast.SetOperator, context: _SeededContext) -> _CountedOperator:
        operator = cls.from_ast(node)
        operator._context = context
        operator._pointwise = all(selector.cat in _POINTWISE for selector in operator.sels)
        return operator

    def select(self, target: d20.Number, max_targets: int | None = None) -> set[d20.Number]:
        chosen: set[d20.Number] = set()
        weight = _weight(target)
        for selector in self.sels:
            room = None if max_targets is None else max_targets - len(chosen)
            if room == 0:
                break
            self._context.count_checks(weight)
            chosen.update(selector.select(target, max_targets=room))
        return chosen

    def keep(self, target: d20.Number) -> None:
        # Dropping a value outside the selection never changes it: one selection suffices.
        chosen = self.select(target)
        for value in target.keptset:
            if value not in chosen:
                value.drop()

    def reroll(self, target: d20.Dice) -> None:
        candidates: list[d20.Die] = target.values
        chosen = self.select(target)
        while chosen:
            rolled = [die for die in candidates if die in chosen]
            for die in rolled:
                die.reroll()
            candidates = rolled if self._pointwise else target.values
            chosen = self.select(_Fresh(rolled) if self._pointwise else target)

    def reroll_once(self, target: d20.Dice) -> None:
        chosen = self.select(target)
        for die in [die for die in target.values if die in chosen]:
            die.reroll()

    def explode(self, target: d20.Dice) -> None:
        candidates: list[d20.Die] = target.values
        chosen = self.select(target)
        exploded: set[d20.Number] = set()
        while chosen:
            fired = [die for die in candidates if die in chosen]
            fresh = len(target.values)
            for die in fired:
                die.explode()
                target.roll_another()
            exploded.update(fired)
            if self._pointwise:
                candidates = target.values[fresh:]
                chosen = self.select(_Fresh(candidates))
            else:
                candidates = target.values
                chosen = self.select(target) - exploded

    def minimum(self, target: d20.Dice) -> None:
        self._context.count_checks(_weight(target))
        super().minimum(target)

    def maximum(self, target: d20.Dice) -> None:
        self._context.count_checks(_weight(target))
        super().maximum(target)


class _SeededDie(d20.Die):
    __slots__ = ()

    def _add_roll(self) -> None:
        # d20's own _add_roll, drawing from the context's Random.
        if self.size != "%" and self.size < 1:
            raise d20.RollValueError("Cannot roll a 0-sided die.")
        self._context.count_roll()
        rng = self._context.rng
        if self.size == "%":
            value = rng.randrange(0, 100, 10)
        else:
            value = rng.randrange(self.size) + 1
        self.values.append(d20.Literal(value))


class _SeededDice(d20.Dice):
    __slots__ = ()

    @classmethod
    def new(cls, num: int, size: int | str, context: d20.RollContext | None = None) -> _SeededDice:
        return cls(
            num, size, [_SeededDie.new(size, context=context) for _ in range(num)], context=context
        )

    def roll_another(self) -> None:
        self.values.append(_SeededDie.new(self.size, context=self._context))

    def __copy__(self) -> _SeededDice:
        return _SeededDice(
            num=self.num,
            size=self.size,
            context=self._context,
            values=self.values.copy(),
            operations=self.operations.copy(),
        )


class _SeededRoller(d20.Roller):
    def __init__(self, rng: random.Random) -> None:
        super().__init__(context=_SeededContext(rng))

    def _eval_dice(self, node: diceast.Dice) -> d20.Dice:
        return _SeededDice.new(node.num, node.size, context=self.context)

    def _eval_operatedset(self, node: diceast.OperatedSet) -> d20.Number:
        # d20's own, with the counted operators.
        target = self._eval(node.value)
        for operation in node.operations:
            operator = _CountedOperator.counted(operation, self.context)
            operator.operate(target)
            target.operations.append(operator)
        return target


# One parser for every roll: d20 keeps the trees it parsed (it never changes one) per
# Roller, and each roll makes its own Roller, so each parsed its text again.
_TREES = d20.Roller()


class _SeededStringifier(d20.MarkdownStringifier):
    # d20 looks stringifiers up by exact type, so the seeded classes are registered too.
    def __init__(self) -> None:
        super().__init__()
        self._nodes[_SeededDice] = self._str_dice
        self._nodes[_SeededDie] = self._str_die


def _nesting(expression: str) -> int:
    depth = deepest = 0
    for char in expression:
        if char == "(":
            depth += 1
            deepest = max(deepest, depth)
        elif char == ")":
            depth -= 1
    return deepest


def _operation_checks(operation: diceast.SetOperator, pool: int, spare: int) -> tuple[int, int]:
    """Return one operator's die checks at worst on a pool, and the pool it leaves."""
    conditions = len(operation.sels)
    if operation.op in ("mi", "ma"):
        return pool, pool
    if operation.op == "ra":
        return pool * conditions, pool + 1
    if operation.op not in ("rr", "e"):  # k, p, ro: one look at the pool
        return pool * conditions, pool
    # Rerolls and explosions may use every roll the dice limit leaves spare. A pointwise
    # condition looks at each new die once; `rrh1` or `el1` look at the whole pool each pass.
    grown = pool + spare
    pointwise = all(selector.cat in _POINTWISE for selector in operation.sels)
    checks = grown * conditions * (1 if pointwise else spare + 1)
    return checks, grown if operation.op == "e" else pool


def _worst_checks(node: diceast.Node, spare: int) -> tuple[int, int]:
    """Return a parsed node's die checks at worst, and its size (see `_size`) at worst."""
    if isinstance(node, diceast.Dice):
        return 0, 1 + node.num
    checks, size = 0, 1
    for child in node.children:
        child_checks, child_size = _worst_checks(child, spare)
        checks, size = checks + child_checks, size + child_size
    if isinstance(node, diceast.OperatedSet):
        pool = size - 2  # its value's dice or entries: the value's size less the two nodes
        for operation in node.operations:
            operation_checks, pool = _operation_checks(operation, pool, spare)
            checks += operation_checks
        size = 1 + pool
    return checks, size


def _nodes(tree: diceast.Node) -> list[diceast.Node]:
    found, stack = [], [tree]
    while stack:
        found.append(stack.pop())
        stack.extend(found[-1].children)
    return found


def _check_limits(tree: diceast.Node) -> None:
    dice = 0
    for node in _nodes(tree):
        if isinstance(node, diceast.Dice):
            sides = 100 if node.size == "%" else node.size
            if sides > MAX_SIDES:
                raise DiceError(
                    "A die can have at most {most} sides (got d{sides}).",
                    most=MAX_SIDES,
                    sides=sides,
                )
            dice += node.num
    if dice > MAX_DICE:
        raise DiceError(
            "A roll can use at most {most} dice (this one asks for {dice}).",
            most=MAX_DICE,
            dice=dice,
        )
    checks = _worst_checks(tree, MAX_DICE - dice)[0]
    if checks > MAX_DIE_CHECKS:
        raise DiceError(
            "A roll's conditions (keep, drop, reroll, explode, min, max) can check at most "
            "{most} dice in all; this one could check {checks}. "
            "Use fewer dice or fewer conditions.",
            most=format(MAX_DIE_CHECKS, ","),
            checks=format(checks, ","),
        )


def _syntax_message(error: d20.RollSyntaxError) -> Lazy:
    got = str(error.got)
    if not got:
        return L_("That dice expression ends too early; try something like 2d6+3.")
    return L_(
        "That dice expression can't be read at column {column} (near {got!r}).",
        column=error.col,
        got=got[:10],
    )


def _dice_groups(node: d20.Number) -> list[DiceGroup]:
    groups: list[DiceGroup] = []
    stack: list[d20.Number] = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, d20.Dice):
            faces = [int(v.number) for die in current.values for v in die.values]
            groups.append(DiceGroup(spec=f"{current.num}d{current.size}", faces=faces))
        else:
            stack.extend(reversed(current.children))
    return groups


def _read(expression: str, core: int | None) -> tuple[str, str, diceast.Node]:
    typed = expression.strip()
    if not typed:
        raise DiceError("Give a dice expression, such as 1d20+3.")
    if len(typed) > MAX_EXPRESSION_CHARS:
        raise DiceError(
            "A dice expression can have at most {most} characters (this one has {length}).",
            most=MAX_EXPRESSION_CHARS,
            length=len(typed),
        )
    if _nesting(typed) > MAX_NESTING:
        raise DiceError(
            "That dice expression nests brackets more than {most} deep.", most=MAX_NESTING
        )
    resolved = resolve_core(typed, core)
    try:
        tree = _TREES.parse(resolved)
    except d20.RollSyntaxError as error:
        raise DiceError(_syntax_message(error)) from None
    except d20.RollError as error:
        raise DiceError(str(error)) from None
    return typed, resolved, tree


# Texts that passed every check, as `_parse` gave them back: the same few are checked again
# and again (a weapon's or a power's damage on every attack, `/grit damage 1d6`), and
# reading one and walking its limits cost about 40k instructions, a look-up next to none.
# Reading is a pure function of the text and the core; d20 shares its trees the same way.
_CHECKED: dict[tuple[str, int | None], tuple[str, str, diceast.Node]] = {}
CHECKED_KEPT = 512


def _parse(expression: str, core: int | None) -> tuple[str, str, diceast.Node]:
    key = (expression, core)
    checked = _CHECKED.get(key)
    if checked is None:
        typed, resolved, tree = _read(expression, core)
        _check_limits(tree)
        if len(_CHECKED) >= CHECKED_KEPT:
            _CHECKED.clear()  # hundreds of different texts: start again
        checked = _CHECKED[key] = (typed, resolved, tree)
    return checked


def worst_checks(expression: str, *, core: int | None = 20) -> int:
    """Return how many dice a readable expression's conditions could check, at worst."""
    tree = _read(expression, core)[2]
    dice = sum(node.num for node in _nodes(tree) if isinstance(node, diceast.Dice))
    return _worst_checks(tree, max(0, MAX_DICE - dice))[0]


def check_expression(expression: str, *, core: int | None = 20) -> str:
    """Check a dice expression's syntax and limits without rolling; return it resolved."""
    # `core` stands in for the roller's die; checking before the roller is known uses d20.
    return _parse(expression, core)[1]


def roll_expression(
    expression: str, rng: random.Random, *, core: int | None = None
) -> ExpressionRoll:
    """Roll a free-form dice expression within the limits, `core` meaning the given die."""
    # Raises DiceError, with a message fit for the user, for anything malformed or too large.
    roller = _SeededRoller(rng)
    typed, resolved, tree = _parse(expression, core)  # limits checked before rolling
    try:
        result = roller.roll(tree, stringifier=_SeededStringifier())
        total = result.total
        breakdown = result.result
    except d20.TooManyRolls:
        raise DiceError(
            "That roll needs more than {most} dice once rerolls and explosions count.",
            most=MAX_DICE,
        ) from None
    except _TooMuchWork:  # the bound before rolling makes this a bug; still one clear line
        raise DiceError(
            "That roll's conditions need to check more than {most} dice.",
            most=format(MAX_DIE_CHECKS, ","),
        ) from None
    except d20.RollError as error:
        # RollValueError's messages are already written for people: "Cannot divide by zero."
        raise DiceError(str(error)) from None
    except (OverflowError, ValueError):
        raise DiceError("That dice expression's numbers are too large.") from None
    except RecursionError:
        raise DiceError("That dice expression is too deeply nested.") from None
    return ExpressionRoll(
        expression=typed,
        resolved=resolved,
        total=total,
        breakdown=breakdown,
        dice=_dice_groups(result.expr),
        checks=roller.context.checks,
    )
