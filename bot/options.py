"""Command options defined once: the sheet's ranges come from the rules' model, for every cog.

Discord shows an integer option's bounds and refuses what is outside them before the bot
sees it; the same bounds are what `bot.rules.models.Stats` enforces, so a value a command
accepts is always one the model holds.
"""

from __future__ import annotations

from discord import app_commands

from bot.rules.models import DEFAULT_MAX_GRIT, MAX_NAME_LENGTH, SHEET_BOUNDS

# What each sheet option means, as Discord shows it beside the option (a new sheet's defaults).
STAT_HELP = {
    "physical": "Physical attribute, used by melee attacks (default 0)",
    "finesse": "Finesse attribute, used by ranged and thrown attacks (default 0)",
    "grit": "Current Grit (default: max_grit)",
    "max_grit": f"Maximum Grit (default: the Grit given, else {DEFAULT_MAX_GRIT})",
    "risk": "Standing Risk added to every action's Risk (default 0)",
    "initiative_bonus": "Added to every initiative roll (default 0)",
    "mastery_rank": "Mastery Rank, 1 to 10 (default 1)",
    "crit_range": "How many of the die's top faces are a Critical (default 1: only the top one)",
}
# The stats a character sheet is created with.
STAT_HELP_OF_SHEET = {
    stat: STAT_HELP[stat]
    for stat in (
        "physical",
        "finesse",
        "grit",
        "max_grit",
        "risk",
        "initiative_bonus",
        "mastery_rank",
    )
}


def sheet_range(field: str) -> type[int]:
    """Return an integer option bounded as the sheet's field is."""
    low, high = SHEET_BOUNDS[field]
    return app_commands.Range[int, low, high]  # type: ignore[return-value]


Physical = sheet_range("physical")
Finesse = sheet_range("finesse")
Grit = sheet_range("grit")
MaxGrit = sheet_range("max_grit")
Risk = sheet_range("risk")
CritRange = sheet_range("crit_range")
InitiativeBonus = sheet_range("initiative_bonus")
MasteryRank = sheet_range("mastery_rank")
Trait = sheet_range("physical")  # a check's trait is a sheet attribute's value
Name = app_commands.Range[str, 1, MAX_NAME_LENGTH]  # a combatant's or a character's
Modifier = app_commands.Range[int, -100, 100]  # a flat modifier to an attack, defense or check
Perception = sheet_range("perception_m")
Durability = sheet_range("durability")
Stamina = sheet_range("stamina")
