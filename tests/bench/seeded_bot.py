"""`python -m tests.bench.seeded_bot run`: `python -m bot run` with the bot's dice seeded.

For `tests.bench.cost --callgrind` only: its requests are seeded, and with the bot's own
dice seeded too (and PYTHONHASHSEED fixed by the caller) the same code takes the same
paths — who hits, who is Broken, when a round ends — so two runs count the same
instructions, give or take timing (the tracker's edits). The product never seeds its dice.
"""

import random
import sys
from typing import Any

from bot import app
from bot.__main__ import main

SEED = 2024
_unseeded = app.Tablehand.__init__


def _seeded(
    self: app.Tablehand, *args: Any, rng: random.Random | None = None, **options: Any
) -> None:
    _unseeded(self, *args, rng=rng if rng is not None else random.Random(SEED), **options)


app.Tablehand.__init__ = _seeded  # type: ignore[method-assign]

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
