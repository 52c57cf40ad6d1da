"""The initiative tracker: one renderer for the pinned message and /init list."""

from __future__ import annotations

import discord

from bot.outbox import DESCRIPTION_LIMIT, FIELD_LIMIT, split_text
from bot.render.fortune import declaration_mark
from bot.render.text import actions_pips, grit_text, name_text, phase_title
from bot.rules.declarations import shows_declarations
from bot.rules.encounter import current_actor, is_broken, turns_running
from bot.rules.initiative import sacrifice_bonus
from bot.rules.models import Combatant, Encounter

TRACKER_COLOUR = discord.Colour.dark_gold()
ENDED_COLOUR = discord.Colour.dark_grey()


def marks(combatant: Combatant, encounter: Encounter) -> list[str]:
    """Return the tracker's marks for a combatant: Haste, Wait, Hold, Prone, Broken…"""
    found = []
    if is_broken(combatant):
        found.append("✖ Broken")
    if combatant.hasted:
        found.append("⚡ Haste")
    if combatant.waiting:
        found.append("⏸ Waiting")
    if combatant.holding:
        found.append("⏩ Hold")
    if combatant.acted_out_of_turn:
        found.append("↪ Acted (/act)")
    for target in combatant.sacrifices:
        found.append(f"✚ +{sacrifice_bonus(combatant, target)} {target}")
    if combatant.prone:
        found.append("Prone")
    for special in combatant.specials:
        found.append(special.name if special.x is None else f"{special.name} {special.x}")
    if combatant.long_action is not None:
        action = combatant.long_action
        found.append(f"⏳ {name_text(action.name)} {action.progress}/{action.rounds}")
    return found


def combatant_line(combatant: Combatant, encounter: Encounter, *, acting: bool, exact: bool) -> str:
    """Return one line of the tracker."""
    pointer = "▶" if acting else "▫"
    initiative = "—" if combatant.initiative is None else str(combatant.initiative)
    name = f"**{name_text(combatant.name)}**"
    if combatant.hidden:
        name += " 👁"
    parts = [
        f"{pointer} `{initiative:>3}` {name}",
        grit_text(combatant, exact=exact or not combatant.is_npc),
    ]
    if turns_running(encounter) or combatant.actions_left != 2:
        parts.append(actions_pips(combatant.actions_left))
    parts.extend(marks(combatant, encounter))
    if combatant.declaration is not None and shows_declarations(encounter):
        parts.append(declaration_mark(combatant.declaration))
    return " · ".join(parts)


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
    head = [f"*… {above} above*"] if above else []
    tail = [f"*… {below} more — `/init list` shows them*"] if below else []
    return "\n".join(head + shown + tail)


def ordered(encounter: Encounter) -> list[Combatant]:
    """Return the combatants in this round's order, newcomers and the unordered last."""
    place = {cid: i for i, cid in enumerate(encounter.order)}
    return sorted(
        encounter.combatants,
        key=lambda c: (place.get(c.id, len(place)), -(c.initiative or -999), c.id),
    )


def _lines(encounter: Encounter, gm_view: bool) -> list[str]:
    """Return the tracker's lines: the order, then those waiting; hidden NPCs for the GM only."""
    actor = current_actor(encounter)
    lines = []
    shown = [c for c in ordered(encounter) if gm_view or not c.hidden]
    waiting = [c for c in shown if c.waiting]
    for combatant in shown:
        if combatant.waiting:
            continue
        acting = actor is not None and actor.id == combatant.id and (gm_view or not actor.hidden)
        lines.append(combatant_line(combatant, encounter, acting=acting, exact=gm_view))
    if waiting:
        lines.append("")
        lines.append("**Waiting** — may `/act` at any moment this round:")
        for combatant in waiting:
            acting = actor is not None and actor.id == combatant.id
            lines.append(combatant_line(combatant, encounter, acting=acting, exact=gm_view))
    if not shown:
        lines.append(
            "*No combatants yet — the GM adds them with `/init add`, players `/init join`.*"
        )
    return lines


def _embed(
    encounter: Encounter, description: str, *, gm_view: bool, page: str = ""
) -> discord.Embed:
    """Frame tracker lines: round and phase, who acts now, the mode and whose view it is."""
    actor = current_actor(encounter)
    embed = discord.Embed(
        title=phase_title(encounter) + page, description=description, colour=TRACKER_COLOUR
    )
    if actor is not None and (gm_view or not actor.hidden):
        note = "acting out of turn" if encounter.acting_now == actor.id else "to act"
        embed.add_field(name="Now", value=f"**{name_text(actor.name)}** {note}", inline=False)
    embed.set_footer(
        text=f"mode {encounter.mode} · flow {encounter.flow} · "
        + ("GM view: exact values, hidden NPCs 👁" if gm_view else "Grit levels for NPCs")
    )
    return embed


def tracker_embed(encounter: Encounter, *, gm_view: bool = False) -> discord.Embed:
    """Render the tracker: round, phase, the order with the actor marked, marks and Grit.

    A long one shows a window around the actor; `tracker_pages` has every line.
    """
    lines = _lines(encounter, gm_view)
    acting_at = next((i for i, line in enumerate(lines) if line.startswith("▶")), 0)
    description = fit_lines(lines, DESCRIPTION_LIMIT, keep=acting_at)
    return _embed(encounter, description, gm_view=gm_view)


def tracker_pages(encounter: Encounter, *, gm_view: bool) -> list[discord.Embed]:
    """Render the whole tracker as pages (/init list): every line, none cut."""
    pieces = split_text("\n".join(_lines(encounter, gm_view)), DESCRIPTION_LIMIT)
    if len(pieces) == 1:
        return [_embed(encounter, pieces[0], gm_view=gm_view)]
    return [
        _embed(encounter, piece, gm_view=gm_view, page=f" · page {n}/{len(pieces)}")
        for n, piece in enumerate(pieces, start=1)
    ]


def actor_page(pages: list[discord.Embed]) -> int:
    """Return the index of the page that shows who acts now (the first if nobody does)."""
    return next((i for i, p in enumerate(pages) if "\n▶" in f"\n{p.description}"), 0)


def standings_lines(encounter: Encounter) -> list[str]:
    """Return who is standing and who is Broken when the fight ends, as the players may read it."""
    shown = [c for c in encounter.combatants if not c.hidden]
    standing = [c for c in shown if not is_broken(c)]
    broken = [c for c in shown if is_broken(c)]
    lines = []
    if standing:
        lines.append(
            "Standing: "
            + ", ".join(
                f"{name_text(c.name)} ({grit_text(c, exact=not c.is_npc)})" for c in standing
            )
        )
    if broken:
        lines.append("Broken: " + ", ".join(name_text(c.name) for c in broken))
    return lines


def ended_embed(encounter: Encounter) -> discord.Embed:
    """Render the tracker's last state once the encounter has ended, with the standings."""
    embed = tracker_embed(encounter)
    embed.title = f"Encounter ended after round {encounter.round}"
    embed.colour = ENDED_COLOUR
    standings = "\n".join(standings_lines(encounter))
    if len(standings) > FIELD_LIMIT:  # every name is in the final standings posted below
        shown = [c for c in encounter.combatants if not c.hidden]
        broken = sum(1 for c in shown if is_broken(c))
        standings = (
            f"{len(shown) - broken} standing, {broken} Broken: every name is in the final "
            "standings below."
        )
    if standings:
        embed.add_field(name="Summary", value=standings, inline=False)
    return embed
