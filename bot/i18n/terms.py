"""Game words that reach players from the rules' data, marked for the catalogues.

The rules name challenge levels, modifiers and times in English (`Modifier(name="Sacrifice")`);
a renderer shows them with `_(name)`, and this list is how each gets into the catalogue.
docs/glossary.md fixes their German words; a word not listed here shows in English.
"""

from __future__ import annotations

from bot.i18n import N_

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
