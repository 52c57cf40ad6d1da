"""Game words that reach players from the rules' data, marked for the catalogues.

The rules name challenge levels, modifiers and times in English (`Modifier(name="Sacrifice")`);
a renderer shows them with `_(name)`, and this list is how each gets into the catalogue.
docs/glossary.md fixes their German words; a word not listed here shows in English.
"""

from __future__ import annotations

import re

from bot.i18n import N_, _

CHALLENGE_LEVELS = (
    N_("Trivial"),
    N_("Mild"),
    N_("Fair"),
    N_("Moderate"),
    N_("Great"),
    N_("Incredible"),
    N_("Inconceivable"),
)
TIMES = (
    N_("eighth"),
    N_("quarter"),
    N_("half"),
    N_("normal"),
    N_("double"),
    N_("quadruple"),
)
TRAITS = (N_("Trait"), N_("Physical"), N_("Finesse"))
ADVANTAGE = (N_("advantage"), N_("disadvantage"))
MODIFIERS = (
    N_("Time ×2"),
    N_("Time ×4"),
    N_("Sacrifice"),
    N_("Modifier"),
    N_("Hidden"),
    N_("Support"),
    N_("Stealth"),
    N_("Range"),
    N_("Momentum"),
    N_("Penetration"),
)
FLOWS = (N_("compact"), N_("full"))  # an encounter's flow (the tracker's footer)
ACTIONS = (N_("Haste"), N_("Wait"), N_("Hold"), N_("Act"))
ESSENCES = (N_("elixir"), N_("tonic"), N_("salve"), N_("balm"))  # an essence's kind
SACRIFICE_FOR = (N_("attack"), N_("defense"), N_("check"))  # what a Sacrifice's +3 is for
LONG_ACTIONS = (N_("focused"), N_("cumulative"))  # a long action's kind

# Modifier names the rules build with a number or an item's name in them.
TERM_PATTERNS = (
    (re.compile(r"Target (?P<area>Limbs|Head|Small|Precise)"), N_("Target {area}")),
    (re.compile(r"Special targeting (?P<level>\d+)"), N_("Special targeting {level}")),
    (re.compile(r"Altitude (?P<level>\d+)"), N_("Altitude {level}")),
    (re.compile(r"Injuries ×(?P<count>\d+)"), N_("Injuries ×{count}")),
    (re.compile(r"Minor acts ×(?P<count>\d+)"), N_("Minor acts ×{count}")),
    (re.compile(r"Shield \((?P<item>.+)\)"), N_("Shield ({item})")),
    (re.compile(r"Guard \((?P<item>.+)\)"), N_("Guard ({item})")),
)
AREAS = (N_("Limbs"), N_("Head"), N_("Small"), N_("Precise"))


def term(name: str) -> str:
    """Return a modifier's or damage part's name (`Range`, `Target Head`) in the language spoken."""
    for pattern, message in TERM_PATTERNS:
        if matched := pattern.fullmatch(name):
            found = matched.groupdict()
            if "area" in found:
                found["area"] = _(found["area"])
            return _(message, **found)
    return _(name)
