"""Scripted dice for tests: a `random.Random` that hands out listed faces and nothing else.

    dice = ScriptedRandom([d20(10), d20(3), d8(1)])  # attack, block, weapon 1d8
    bot.rng = dice
    ...                                              # the bot rolls
    dice.done()                                      # every face was drawn

A face names its die (`d20(10)`), or is a bare number that fits whatever die draws it.
Each draw takes the next face, and the draws the bot makes are dice:
- `randint(1, n)` is a d{n}: the rules' core dice, damage dice, roll-offs and ambush rolls;
- `randrange(n)` is a d{n} too: how the d20 library's dice draw (`_SeededDie` in
  `bot/rules/dice.py` adds 1), so the face is listed as the die shows it and `face - 1`
  is returned;
- `randrange(0, 100, 10)` is the d20 library's percentile die, `d%`: faces 0, 10, … 90.
Anything else fails at once with a `ScriptError`: a face that does not fit the die, a face
listed for another die, a draw after the last face, any other draw (`randint(2, 7)`) and
every other method of Random (random(), choice, shuffle, sample, getrandbits, seed,
getstate…), so no test leans on a hidden seeded stream. The first error is kept, and
`done()` raises it again: the bot turns an unexpected error into an apology, and the
test must still fail with the real reason.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal, NoReturn

PERCENT = "%"


class ScriptError(AssertionError):
    """A scripted draw went wrong: the test's script and the code's dice disagree."""


@dataclass(frozen=True)
class Die:
    """A die a face can be listed for: `d20`, or the percentile die `d%` of the d20 library."""

    sides: int | Literal["%"]

    def __post_init__(self) -> None:
        if self.sides != PERCENT and (not isinstance(self.sides, int) or self.sides < 1):
            raise ValueError(f"A die has at least one side, not {self.sides!r}.")

    def __str__(self) -> str:
        return f"d{self.sides}"

    def __call__(self, value: int) -> Face:
        """Return this die showing `value`."""
        return Face(value, self)

    @property
    def faces(self) -> range:
        """Return every face the die can show."""
        return range(0, 100, 10) if self.sides == PERCENT else range(1, int(self.sides) + 1)


@dataclass(frozen=True)
class Face:
    """One listed face, and the die it must be drawn by (None: any die it fits)."""

    value: int
    die: Die | None = None

    def __post_init__(self) -> None:
        if self.die is not None and self.value not in self.die.faces:
            raise ValueError(f"{self.die} has no face {self.value}.")

    def __str__(self) -> str:
        return f"{self.die} {self.value}" if self.die else str(self.value)


d2, d4, d6, d8, d10, d12, d20, d100, d1000 = (Die(n) for n in (2, 4, 6, 8, 10, 12, 20, 100, 1000))
percentile = Die(PERCENT)


def _count(faces: int) -> str:
    return f"{faces} face" if faces == 1 else f"{faces} faces"


def _refused(name: str) -> Any:
    def refuse(self: ScriptedRandom, *args: object, **kwargs: object) -> NoReturn:
        self._fail(
            f"ScriptedRandom hands out listed die faces only, and {name}() is not a die roll."
        )

    refuse.__name__ = name
    refuse.__doc__ = f"Refuse {name}(): only dice are scripted."
    return refuse


class ScriptedRandom(random.Random):
    """A random source that hands out listed die faces, in order, and fails loudly otherwise."""

    def __init__(self, faces: Iterable[Face | int] = ()) -> None:
        # random.Random.__init__ would seed a stream this class never draws from.
        self._faces = [f if isinstance(f, Face) else Face(int(f)) for f in faces]
        self._drawn: list[tuple[Die, int]] = []
        self.error: ScriptError | None = None
        self.gauss_next = None  # so gauss() asks random(), and is refused like it

    def __repr__(self) -> str:
        return f"ScriptedRandom([{', '.join(map(str, self._faces))}], drawn={self.used})"

    @property
    def used(self) -> int:
        """Return how many listed faces have been drawn."""
        return len(self._drawn)

    @property
    def left(self) -> list[Face]:
        """Return the listed faces not drawn yet."""
        return self._faces[self.used :]

    def randint(self, a: int, b: int) -> int:
        """Draw the next face for a d{b}; only `randint(1, b)` is a die."""
        if a != 1:
            self._fail(f"randint({a}, {b}) is not a die roll; scripted draws are randint(1, n).")
        return self._draw(Die(b), f"randint(1, {b})")

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:  # type: ignore[override]
        """Draw the next face for the d20 library: a d{start} (face − 1), or its d% (0–90)."""
        if stop is None and step == 1:
            return self._draw(Die(start), f"randrange({start})") - 1
        if (start, stop, step) == (0, 100, 10):
            return self._draw(percentile, "randrange(0, 100, 10)")
        self._fail(
            f"randrange({start}, {stop}, {step}) is not a die roll; scripted draws are "
            "randrange(n) and the percentile die's randrange(0, 100, 10)."
        )

    def done(self) -> None:
        """Raise unless every listed face was drawn and no draw failed."""
        if self.error is not None:
            raise self.error
        if self.left:
            raise ScriptError(
                f"{len(self.left)} of the script's {_count(len(self._faces))} were never drawn: "
                f"{', '.join(map(str, self.left))}. Drawn: {self._history()}."
            )

    def __enter__(self) -> ScriptedRandom:
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        if kind is None:
            self.done()

    # Every other way to draw, and every way to seed or copy a stream, is refused.
    random = _refused("random")
    getrandbits = _refused("getrandbits")
    randbytes = _refused("randbytes")
    choice = _refused("choice")
    choices = _refused("choices")
    shuffle = _refused("shuffle")
    sample = _refused("sample")
    uniform = _refused("uniform")
    seed = _refused("seed")
    getstate = _refused("getstate")
    setstate = _refused("setstate")
    _randbelow = _refused("_randbelow")

    def _draw(self, die: Die, call: str) -> int:
        where = f"draw {self.used + 1}, {die} ({call})"
        if not self.left:
            listed = len(self._faces)
            used = f"listed {_count(listed)}, all used" if listed else "lists no faces"
            self._fail(f"ScriptedRandom ran out at {where}: the script {used} ({self._history()}).")
        face = self.left[0]
        if face.die is not None and face.die != die:
            self._fail(f"ScriptedRandom at {where}: the script lists {face}, for another die.")
        if face.value not in die.faces:
            self._fail(f"ScriptedRandom at {where}: face {face.value} does not fit {die}.")
        self._drawn.append((die, face.value))
        return face.value

    def _history(self) -> str:
        return ", ".join(f"{die} {value}" for die, value in self._drawn) or "nothing drawn"

    def _fail(self, message: str) -> NoReturn:
        error = ScriptError(message)
        if self.error is None:
            self.error = error
        raise error
