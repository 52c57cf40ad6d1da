"""Time catalogue look-up: `suggest` (autocomplete) and `find` over many realistic queries.

Not collected by pytest. Run: .venv/bin/python -m tests.bench.bench_lookup [rounds]
The budget is 5 ms at p99 for an autocomplete over the whole catalogue.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable

from bot.catalogue.lookup import Lookup
from bot.catalogue.models import load_catalogue
from bot.catalogue.views import display_name
from bot.errors import TablehandError

BUDGET_MS = 5.0


def _queries(lookup: Lookup, rng: random.Random) -> list[str]:
    """Prefixes, typos, German aliases, nonsense and empty queries, as players type them."""
    names = [display_name(entry) for entry in lookup.entries]
    bare = [entry.name for entry in lookup.entries]
    queries = ["", "a", "te", "tel", "telep", "teleprot", "lacerat", "verfall", "präzision"]
    for name in bare:
        queries.append(name[: rng.randint(1, len(name))].lower())
        chars = list(name.lower())
        if len(chars) > 3:
            i = rng.randrange(len(chars) - 1)
            chars[i], chars[i + 1] = chars[i + 1], chars[i]
        queries.append("".join(chars))
    queries += [rng.choice(names) for _ in range(50)]
    queries += [
        "".join(rng.choices("abcdefghijklmnopqrstuvwxyz ", k=rng.randint(3, 20))) for _ in range(50)
    ]
    return queries


def _time(call: Callable[[str], object], queries: list[str], rounds: int) -> list[float]:
    samples = []
    for _ in range(rounds):
        for query in queries:
            start = time.perf_counter()
            try:
                call(query)
            except TablehandError:
                pass
            samples.append((time.perf_counter() - start) * 1000)
    return samples


def _report(label: str, samples: list[float]) -> float:
    cuts = statistics.quantiles(samples, n=100)
    p50, p99 = cuts[49], cuts[98]
    print(
        f"{label:<8} n={len(samples):>6}  p50={p50:.3f} ms  p99={p99:.3f} ms  max={max(samples):.3f} ms"
    )
    return p99


def main(rounds: int = 20) -> int:
    started = time.perf_counter()
    catalogue = load_catalogue()
    lookup = Lookup(catalogue)
    print(f"load + index: {(time.perf_counter() - started) * 1000:.1f} ms, {len(lookup)} entries")
    queries = _queries(lookup, random.Random(9))
    _time(lookup.suggest, queries, 1)  # warm up
    p99 = _report("suggest", _time(lookup.suggest, queries, rounds))
    _report("find", _time(lookup.find, queries, rounds))
    verdict = "within" if p99 <= BUDGET_MS else "OVER"
    print(f"suggest p99 {p99:.3f} ms is {verdict} the {BUDGET_MS:g} ms budget")
    return 0 if p99 <= BUDGET_MS else 1


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 20))
