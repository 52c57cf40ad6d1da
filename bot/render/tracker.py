"""The initiative tracker: one renderer for the pinned message and /init list."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from operator import attrgetter

import discord

from bot.i18n import N_, _, spoken
from bot.outbox import DESCRIPTION_LIMIT, FIELD_LIMIT, split_text
from bot.render.fortune import declaration_mark
from bot.render.known_powers import buff_mark
from bot.render.text import actions_pips, grit_text, name_text, phase_title
from bot.rules.declarations import shows_declarations
from bot.rules.encounter import current_actor, is_broken, surprised, turns_running
from bot.rules.initiative import sacrifice_bonus
from bot.rules.models import Combatant, Encounter

TRACKER_COLOUR = discord.Colour.dark_gold()
ENDED_COLOUR = discord.Colour.dark_grey()

# Each line starts with where its combatant stands this round, then its side.
ACTING, ACTED, TO_ACT, WAITING, HOLDING, BROKEN = "▶", "✓", "▫", "⏸", "⏩", "✖"
# Not "·": the legend separates its entries with " · ", where "· no turn" read as a stray dot.
NO_TURN, STANDING = "⊘", "◆"  # surprised in round zero; still standing when the fight ended
POINTERS = frozenset((ACTING, ACTED, TO_ACT, WAITING, HOLDING, BROKEN, NO_TURN, STANDING))
SIDES = {"party": "🟦", "foes": "🟥"}
# The one-line legend names only the marks a tracker shows, in this order.
LEGEND = {
    ACTING: N_("acting"),
    ACTED: N_("acted"),
    TO_ACT: N_("to act"),
    WAITING: N_("waiting"),
    HOLDING: N_("holding"),
    BROKEN: N_("Broken"),
    NO_TURN: N_("no turn"),
    STANDING: N_("standing"),
    SIDES["party"]: N_("party"),
    SIDES["foes"]: N_("foes"),
    "👁": N_("hidden from players"),
}
# What `combatant_line` reads of the encounter besides the combatant (a test holds it to
# these): with the combatant's stored part, the language and the view they key its line.
LINE_SCENE = ("round", "ambush", "phase", "flow")
LINE_CACHE = 1024  # lines kept: 100 channels of 10; a line holds its part (shared with the store)
_scene = attrgetter(*LINE_SCENE)
_kept_lines: OrderedDict[tuple[object, ...], str] = OrderedDict()
MODE_TEXT = {
    "fortune": N_("Fortune: initiative rolled each round"),
    "finesse": N_("Finesse: the order by Finesse"),
    "sides": N_("Sides: one roll per side"),
    "once": N_("Once: initiative rolled at the start"),
}


def standing(combatant: Combatant, encounter: Encounter, *, acting: bool) -> str:
    """Return where a combatant stands this round: acting, acted, to act, waiting, Broken…"""
    if acting:
        return ACTING
    if is_broken(combatant):
        return BROKEN
    if combatant.waiting:
        return WAITING
    if combatant.holding:
        return HOLDING
    if surprised(encounter, combatant):
        return NO_TURN
    if turns_running(encounter) and (combatant.acted_this_round or combatant.acted_out_of_turn):
        return ACTED
    return TO_ACT


def marks(combatant: Combatant, encounter: Encounter) -> list[str]:
    """Return the tracker's marks for a combatant: Haste, acts out of turn, Prone, Specials…"""
    found = []
    if combatant.hasted:
        found.append("⚡ " + _("Haste"))
    if combatant.acted_out_of_turn:
        found.append("↪ " + _("acted out of turn"))
    for target in combatant.sacrifices:
        found.append(f"✚ +{sacrifice_bonus(combatant, target)} {_(target)}")
    if combatant.prone:
        found.append("Prone")
    for special in combatant.specials:
        found.append(special.name if special.x is None else f"{special.name} {special.x}")
    if combatant.long_action is not None:
        action = combatant.long_action
        found.append(f"⏳ {name_text(action.name)} {action.progress}/{action.rounds}")
    if combatant.buff is not None:
        found.append(f"✦ {buff_mark(combatant.buff, encounter.round)}")  # [GAME.md §9]
    return found


def combatant_line(
    combatant: Combatant, encounter: Encounter, *, acting: bool, exact: bool, ended: bool = False
) -> str:
    """Return one line of the tracker: standing, initiative, side, name, Grit, actions, marks."""
    if ended:
        pointer = BROKEN if is_broken(combatant) else STANDING
    else:
        pointer = standing(combatant, encounter, acting=acting)
    initiative = "—" if combatant.initiative is None else str(combatant.initiative)
    name = f"{SIDES[combatant.side]} **{name_text(combatant.name)}**"
    if combatant.hidden:
        name += " 👁"
    parts = [
        f"{pointer} `{initiative:>3}` {name}",
        grit_text(combatant, exact=exact or not combatant.is_npc),
    ]
    if not ended and (turns_running(encounter) or combatant.actions_left != 2):
        parts.append(actions_pips(combatant.actions_left))
    parts.extend(marks(combatant, encounter))
    if combatant.declaration is not None and shows_declarations(encounter) and not ended:
        parts.append(declaration_mark(combatant.declaration))
    return " · ".join(parts)


def legend(lines: list[str], mode: str = "fortune") -> str:
    """Return the one-line legend of the marks these lines show."""
    pointers = {line.split(" ", 1)[0] for line in lines if line}
    text = "\n".join(lines)
    shown = [
        f"{mark} {_(meaning)}"
        for mark, meaning in LEGEND.items()
        if (mark in pointers if mark in POINTERS else mark in text)
    ]
    hold = f"{HOLDING} {_(LEGEND[HOLDING])}"
    if hold in shown:  # what holding gives at the next order [003, GAME.md §5]
        if mode == "fortune":
            bonus = _("{hold} (+10 initiative next time)", hold=hold)
        else:
            bonus = _("{hold} (first in the order next time)", hold=hold)
        shown[shown.index(hold)] = bonus
    return "*" + " · ".join(shown) + "*" if shown else ""


def fit_lines(lines: list[str], limit: int, keep: int = 0) -> str:
    """Join whole lines within `limit` characters, showing line `keep` and saying what is left out."""
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    # A window of whole lines: from a little before the one to keep (the actor) downwards,
    # then upwards while there is room.
    budget = limit - 80  # room for the two "… more" notes
    start = end = max(0, keep - 3)
    used = 0
    while end < len(lines) and used + len(lines[end]) + 1 <= budget:
        used += len(lines[end]) + 1
        end += 1
    while start > 0 and used + len(lines[start - 1]) + 1 <= budget:
        start -= 1
        used += len(lines[start]) + 1
    shown = lines[start:end]
    above, below = start, len(lines) - end
    head = ["*" + _("… {n} above", n=above) + "*"] if above else []
    tail = ["*" + _("… {n} more — `/init list` shows them", n=below) + "*"] if below else []
    return "\n".join(head + shown + tail)


def ordered(encounter: Encounter) -> list[Combatant]:
    """Return the combatants in this round's order, newcomers and the unordered last."""
    place = {cid: i for i, cid in enumerate(encounter.order)}
    return sorted(
        encounter.combatants,
        key=lambda c: (place.get(c.id, len(place)), -(c.initiative or -999), c.id),
    )


def _lines(
    encounter: Encounter,
    gm_view: bool,
    *,
    ended: bool = False,
    parts: Sequence[str] | None = None,
) -> list[str]:
    """Return the tracker's lines: the order, then those waiting; hidden NPCs for the GM only.

    `parts`: each combatant's part of the encounter's stored text (`bot/store/texts.py`),
    in its order; given, a line is rendered again only when what it shows may differ.
    """
    actor = None if ended else current_actor(encounter)
    lines = []
    shown = [c for c in ordered(encounter) if gm_view or not c.hidden]
    waiting = [c for c in shown if c.waiting and not ended]
    line = _line_maker(encounter, parts)
    for combatant in shown:
        if combatant in waiting:
            continue
        acting = actor is not None and actor.id == combatant.id and (gm_view or not actor.hidden)
        lines.append(line(combatant, acting, gm_view, ended))
    if waiting:
        lines.append("")
        lines.append(_("**Waiting** — may `/act` at any moment this round:"))
        for combatant in waiting:
            acting = actor is not None and actor.id == combatant.id
            lines.append(line(combatant, acting, gm_view, False))
    if not shown:
        lines.append(
            "*"
            + _("No combatants yet — the GM adds them with `/init add`, players `/init join`.")
            + "*"
        )
    return lines


LineMaker = Callable[[Combatant, bool, bool, bool], str]  # combatant, acting, exact, ended


def _line_maker(encounter: Encounter, parts: Sequence[str] | None) -> LineMaker:
    """Return how `_lines` gets a combatant's line: rendered, or kept from an earlier tracker.

    A tracker is rendered after every change of its encounter, and most changes leave most
    lines as they were (a 10-combatant tracker's lines were half its rendering). A line is
    what its combatant, the scene (`LINE_SCENE`), the language and the view make it; the
    combatant's stored part stands for all of it, and an unchanged combatant's part is the
    very text it had before (no need to compare it).
    """
    if parts is None or len(parts) != len(encounter.combatants):
        return lambda c, acting, exact, ended: combatant_line(
            c, encounter, acting=acting, exact=exact, ended=ended
        )
    part_of = {id(c): part for c, part in zip(encounter.combatants, parts, strict=True)}
    # One string: its hash is computed once per render, not once per line (as a tuple's is).
    scene = repr((_scene(encounter), spoken()))

    def line(combatant: Combatant, acting: bool, exact: bool, ended: bool) -> str:
        key = (part_of[id(combatant)], scene, acting, exact, ended)
        found = _kept_lines.get(key)
        if found is not None:
            _kept_lines.move_to_end(key)
            return found
        made = _kept_lines[key] = combatant_line(
            combatant, encounter, acting=acting, exact=exact, ended=ended
        )
        if len(_kept_lines) > LINE_CACHE:
            _kept_lines.popitem(last=False)
        return made

    return line


def _footer(encounter: Encounter, gm_view: bool) -> str:
    """Return the footer: how the order is found, the flow, and whose view this is."""
    if gm_view:
        view = _("GM view: exact Grit, hidden NPCs marked 👁")
    else:
        view = _("NPCs' Grit shown as level and die")
    flow = _("{flow} flow", flow=_(encounter.flow))
    return f"{_(MODE_TEXT[encounter.mode])} · {flow} · {view}"


def _embed(
    encounter: Encounter, description: str, *, gm_view: bool, page: str = ""
) -> discord.Embed:
    """Frame tracker lines: round and phase, who acts now, the mode and whose view it is."""
    actor = current_actor(encounter)
    embed = discord.Embed(
        title=phase_title(encounter) + page, description=description, colour=TRACKER_COLOUR
    )
    if actor is not None and (gm_view or not actor.hidden):
        name = name_text(actor.name)
        if encounter.acting_now == actor.id:
            note = _("**{name}** acting out of turn", name=name)
        else:
            note = _("**{name}** to act", name=name)
        embed.add_field(name=_("Now"), value=note, inline=False)
    elif actor is not None:  # a hidden NPC's turn: the table waits for the GM, who was pinged
        embed.add_field(name=_("Now"), value=_("The GM's turn"), inline=False)
    embed.set_footer(text=_footer(encounter, gm_view))
    return embed


def _with_legend(lines: list[str], mode: str, limit: int, keep: int = 0) -> str:
    """Fit the lines within `limit` with their legend as the last line."""
    key = legend(lines, mode)
    text = fit_lines(lines, limit - len(key) - 2, keep=keep)
    return f"{text}\n\n{key}" if key else text


def tracker_embed(
    encounter: Encounter, *, gm_view: bool = False, parts: Sequence[str] | None = None
) -> discord.Embed:
    """Render the tracker: round, phase, the order with the actor marked, marks and Grit.

    A long one shows a window around the actor; `tracker_pages` has every line. `parts`:
    each combatant's part of the stored text, when known (see `_lines`).
    """
    lines = _lines(encounter, gm_view, parts=parts)
    acting_at = next((i for i, line in enumerate(lines) if line.startswith(ACTING)), 0)
    description = _with_legend(lines, encounter.mode, DESCRIPTION_LIMIT, keep=acting_at)
    return _embed(encounter, description, gm_view=gm_view)


def tracker_pages(encounter: Encounter, *, gm_view: bool) -> list[discord.Embed]:
    """Render the whole tracker as pages (/init list): every line, none cut."""
    lines = _lines(encounter, gm_view)
    key = legend(lines, encounter.mode)
    pieces = split_text("\n".join(lines), DESCRIPTION_LIMIT - len(key) - 2)
    pieces = [f"{piece}\n\n{key}" if key else piece for piece in pieces]
    if len(pieces) == 1:
        return [_embed(encounter, pieces[0], gm_view=gm_view)]
    return [
        _embed(
            encounter, piece, gm_view=gm_view, page=" · " + _("page {n}/{of}", n=n, of=len(pieces))
        )
        for n, piece in enumerate(pieces, start=1)
    ]


def actor_page(pages: list[discord.Embed]) -> int:
    """Return the index of the page that shows who acts now (the first if nobody does)."""
    return next((i for i, p in enumerate(pages) if f"\n{ACTING}" in f"\n{p.description}"), 0)


def standings_lines(encounter: Encounter) -> list[str]:
    """Return who is standing and who is Broken when the fight ends, as the players may read it."""
    shown = [c for c in encounter.combatants if not c.hidden]
    standing = [c for c in shown if not is_broken(c)]
    broken = [c for c in shown if is_broken(c)]
    lines = []
    if standing:
        names = ", ".join(
            f"{name_text(c.name)} ({grit_text(c, exact=not c.is_npc)})" for c in standing
        )
        lines.append(_("Standing: {names}", names=names))
    if broken:
        lines.append(_("Broken: {names}", names=", ".join(name_text(c.name) for c in broken)))
    return lines


def ended_embed(encounter: Encounter) -> discord.Embed:
    """Render the tracker once the encounter has ended: nobody acts, the standings below."""
    lines = _lines(encounter, False, ended=True)
    embed = discord.Embed(
        title=_("Encounter ended after round {round}", round=encounter.round),
        description=_with_legend(lines, encounter.mode, DESCRIPTION_LIMIT),
        colour=ENDED_COLOUR,
    )
    standings = "\n".join(standings_lines(encounter))
    if len(standings) > FIELD_LIMIT:  # every name is in the final standings posted below
        shown = [c for c in encounter.combatants if not c.hidden]
        broken = sum(1 for c in shown if is_broken(c))
        standings = _(
            "{standing} standing, {broken} Broken: every name is in the final standings below.",
            standing=len(shown) - broken,
            broken=broken,
        )
    if standings:
        embed.add_field(name=_("Summary"), value=standings, inline=False)
    embed.set_footer(text=_("This encounter is over; /init start opens a new one."))
    return embed
