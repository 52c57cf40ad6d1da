"""Small pieces of text every renderer shares: Grit, dice, actions, phases."""

from __future__ import annotations

import functools
import re

import discord

from bot.i18n import N_, _, n_
from bot.rules.dice import ExpressionRoll
from bot.rules.grit import die_of, grit_level
from bot.rules.models import Combatant, Encounter

PHASE_NAMES = {
    "start": N_("Start"),
    "question": N_("Question"),
    "declaration": N_("Declaration"),
    "initiative": N_("Initiative"),
    "reaction": N_("Reaction"),
    "resolution": N_("Resolution"),
    "counter": N_("Counter"),
    "cleanup": N_("Cleanup"),
    "summary": N_("Summary"),
}
GRIT_BAR_WIDTH = 10
_MASKED_LINK = re.compile(r"(?<!\\)\[(?=[^\[\]\n]*\]\()")  # the "[" of "[text](url)"
ROLL_TEXT_LIMIT = 1500  # characters of dice listed in a reply (Discord takes 2000 in all)


@functools.lru_cache(maxsize=4096)
def name_text(name: str) -> str:
    """Return a name someone typed as it shows: markdown escaped, so `[x](url)` is no link."""
    # Cached: every tracker and reply escapes the same few names again (a regex each time).
    return discord.utils.escape_markdown(name)


def name_list(
    names: list[str], last: str = "or", most: int = 5, *, translated: bool = False
) -> str:
    """Return names as "A", "A or B", "A, B or C" (escaped); past `most`, a count of the rest.

    `translated`: the caller's sentence is translated, and `last` is already (`_("or")`).
    """
    shown = [name_text(n) for n in names[:most]]
    if len(names) > most:
        shown.append(
            _("{n} more", n=len(names) - most) if translated else f"{len(names) - most} more"
        )
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + f" {last} {shown[-1]}"


def unlinked(text: str) -> str:
    """Return text whose masked links are shown as typed (for errors, which quote names)."""
    return _MASKED_LINK.sub(r"\\[", text)


def roll_breakdown(roll: ExpressionRoll) -> str:
    """Return a roll's breakdown, or only its total when its dice are too many to list."""
    if len(roll.breakdown) <= ROLL_TEXT_LIMIT:
        return roll.breakdown
    return n_(
        "{expression} = `{total}` ({n} die, too many to list)",
        "{expression} = `{total}` ({n} dice, too many to list)",
        len(roll.faces),
        expression=roll.resolved,
        total=roll.total,
    )


def die_text(die: int | None) -> str:
    """Return "d20", or "cannot act" for a Broken combatant."""
    return _("cannot act") if die is None else f"d{die}"


def grit_bar(grit: int, max_grit: int) -> str:
    """Return a ten-cell bar of Grit left."""
    filled = 0 if max_grit <= 0 else round(GRIT_BAR_WIDTH * min(grit, max_grit) / max_grit)
    if grit > 0:
        filled = max(filled, 1)
    return "█" * filled + "░" * (GRIT_BAR_WIDTH - filled)


def grit_text(combatant: Combatant, *, exact: bool) -> str:
    """Return "Grit 25/30 Prime d20" (exact) or "Prime d20" (an NPC to players)."""
    level = grit_level(combatant.grit).display
    die = die_of(combatant)
    shown = f"{level} {die_text(die)}" if die is not None else level
    if exact:
        return f"Grit {combatant.grit}/{combatant.max_grit} {shown}"
    return shown


def actions_pips(actions_left: int) -> str:
    """Return actions left as pips: ●● two, ●○ one, ○○ none."""
    left = max(0, min(actions_left, 2))
    return "●" * left + "○" * (2 - left)


def phase_title(encounter: Encounter) -> str:
    """Return the tracker's title: round and phase."""
    if encounter.round == 0:
        round_name = _("Round zero (ambush)")
    else:
        round_name = _("Round {round}", round=encounter.round)
    return f"{round_name} · {_(PHASE_NAMES[encounter.phase])}"
