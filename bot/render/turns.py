"""Turn announcements and round summaries: one renderer for what a Step did."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import discord

from bot.outbox import DESCRIPTION_LIMIT, split_text
from bot.render.effects import effect_text
from bot.render.maneuvers import essence_ended_text
from bot.render.text import PHASE_NAMES, die_text, name_text
from bot.rules import encounter as flow
from bot.rules.encounter import RoundEnd, Step
from bot.rules.grit import die_of
from bot.rules.initiative import Ambush, InitiativeEntry
from bot.rules.models import Combatant, Encounter, LogEntry
from bot.rules.results import Result

SUMMARY_COLOUR = discord.Colour.blurple()
SKIP_TEXT = {
    "broken": "is Broken — turn skipped",
    "waiting": "waits",
    "held": "is holding — turn passed",
    "surprised": "is surprised — no turn",
    "acted": "already acted this round (/act) — turn passed",
}


Text = str | Callable[[bool], str]  # a line, or one rendered per audience (gm_view)


@dataclass(frozen=True)
class Line:
    """One thing to say: who it is about (a hidden one keeps it from players) and its round."""

    text: Text
    about: tuple[Combatant, ...] = ()
    round: int | None = None  # the round whose log gets it; None: the current one


@dataclass
class Announcement:
    """A step in words: lines for the table (the pipeline decides who sees each) and a ping."""

    lines: list[Line] = field(default_factory=list)
    ping: int | None = None  # the player whose turn it is
    summary_round: int | None = None


def _known(encounter: Encounter, ids: Iterable[int]) -> tuple[Combatant, ...]:
    wanted = set(ids)
    return tuple(c for c in encounter.combatants if c.id in wanted)


def _name(encounter: Encounter, combatant_id: int) -> str:
    for combatant in encounter.combatants:
        if combatant.id == combatant_id:
            return name_text(combatant.name)
    return "someone who left"


def _names(combatants: Sequence[Combatant]) -> str:
    names = [name_text(c.name) for c in combatants]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" and {names[-1]}"


def _split(combatants: Sequence[Combatant]) -> tuple[list[Combatant], list[Combatant]]:
    """Return (seen by everyone, hidden NPCs): one line each, so neither leaks the other."""
    return [c for c in combatants if not c.hidden], [c for c in combatants if c.hidden]


Say = Callable[[Text, Iterable[Combatant]], None]


def initiative_text(entry: InitiativeEntry) -> str:
    """Return "Mira **17** (d20 11 · Finesse +3 · Haste +3)"."""
    name = name_text(entry.name)
    if entry.total is None:
        return f"{name} — Broken"
    if not entry.faces:
        if entry.front is not None:
            return f"{name} ({entry.front}: first)"
        return f"{name} {entry.total}" + (" (kept)" if entry.kept else "")
    parts = [f"d{entry.die} {entry.faces[0]}"]
    if entry.finesse:
        parts.append(f"Finesse {entry.finesse:+d}")
    parts.extend(f"{b.name} {b.value:+d}" for b in entry.bonuses)
    text = f"{name} **{entry.total}** ({' · '.join(parts)})"
    if entry.rolloff:
        text += f" roll-off {'/'.join(map(str, entry.rolloff))}"
    return text


def turn_text(combatant: Combatant) -> str:
    """Return "**Mira**'s turn — d20, 2 actions"."""
    actions = combatant.actions_left
    return (
        f"**{name_text(combatant.name)}**'s turn — rolls {die_text(die_of(combatant))}, "
        f"{actions} action{'s' if actions != 1 else ''}"
    )


def announce(encounter: Encounter, step: Step) -> Announcement:
    """Put a Step into words; each line says who it is about, so hidden NPCs stay hidden."""
    out = Announcement(summary_round=step.summary_round)
    # Lines belong to the round that ended, until the new round opens.
    log_round = step.round_end.round if step.round_end is not None else step.round

    def say(text: Text, about: Iterable[Combatant] = ()) -> None:
        out.lines.append(Line(text, tuple(about), log_round))

    if step.ambush is not None:
        _ambush_lines(encounter, step.ambush, say)
    if step.initiative:
        rolled = _known(encounter, [e.combatant_id for e in step.initiative])
        seen, hidden = _split(rolled)
        for group, label in ((seen, "Initiative"), (hidden, "Hidden initiative")):
            ids = {c.id for c in group}
            entries = [e for e in step.initiative if e.combatant_id in ids]
            if entries:
                say(f"{label}: " + ", ".join(initiative_text(e) for e in entries), group)
    # What ended a turn comes before what starts the next one.
    for end in step.turn_ends:
        _effect_lines(encounter, end.combatant_id, end.effects, say)
    for start in step.turn_starts:
        _effect_lines(encounter, start.combatant_id, start.effects, say)
    for skip in step.skipped:
        say(
            f"{_name(encounter, skip.combatant_id)} {SKIP_TEXT[skip.reason]}.",
            _known(encounter, [skip.combatant_id]),
        )
    if step.round_end is not None:
        _round_end_lines(encounter, step.round_end, say)
    if step.new_round is not None:
        log_round = step.new_round
        opening = PHASE_NAMES[encounter.phase]
        say(
            f"**Round {step.new_round}** opens ({opening}): declare Haste now; "
            "the GM's `/init next` starts the turns."
        )
    elif step.phase != "initiative" and step.current is None and not step.initiative:
        say(f"Phase: **{PHASE_NAMES[step.phase]}**.")
    if step.current is not None:
        actor = flow.by_id(encounter, step.current)
        say(_turn_line(encounter, actor, resumed=step.resumed), [actor])
        if not actor.hidden:
            out.ping = actor.controller_id
    return out


def _turn_line(encounter: Encounter, actor: Combatant, *, resumed: bool) -> str:
    if resumed:
        text = f"Back to {turn_text(actor)}"
    elif encounter.acting_now == actor.id:
        text = f"**{name_text(actor.name)}** acts now, out of turn"
    else:
        text = turn_text(actor)
    if actor.hidden:
        return f"{text} (hidden: players see nothing; `/init next` when done)."
    return text


def _ambush_lines(encounter: Encounter, ambush: Ambush, say: Say) -> None:
    """Say the ambush roll: the visible ambushers' rolls, and the hidden ones' to the GM."""
    rollers = _known(encounter, [r.combatant_id for r in ambush.rolls])
    for group in _split(rollers):
        ids = {c.id for c in group}
        rolls = ", ".join(
            f"{_name(encounter, r.combatant_id)} d{r.die} {r.face} {'✓' if r.success else '✗'}"
            for r in ambush.rolls
            if r.combatant_id in ids
        )
        if rolls:
            say(f"Ambush against Perception {ambush.perception}: {rolls}", group)


def _effect_lines(
    encounter: Encounter, combatant_id: int, effects: Sequence[Result], say: Say
) -> None:
    about = _known(encounter, [combatant_id])
    for effect in effects:
        if effect_text(effect, gm_view=True) is not None:
            say(functools.partial(_effect_text, effect), about)


def _effect_text(effect: Result, gm_view: bool) -> str:
    return effect_text(effect, gm_view=gm_view) or ""


def _round_end_lines(encounter: Encounter, end: RoundEnd, say: Say) -> None:
    """Say how the round ended and who holds: hidden holders are the GM's business."""
    seen, hidden = _split(_known(encounter, end.held))
    if end.all_waiting and seen:
        verb = "holds" if len(seen) == 1 else "hold"
        say(
            f"Everyone left was waiting: round {end.round} passes, and {_names(seen)} {verb}.", seen
        )
    elif seen:
        verb = "holds" if len(seen) == 1 else "hold"
        say(f"Round {end.round} ends; {_names(seen)} {verb} into the next round.", seen)
    else:
        say(f"Round {end.round} ends.")
    if hidden:
        verb = "holds" if len(hidden) == 1 else "hold"
        say(f"{_names(hidden)} {verb} into the next round.", hidden)
    for ended in end.essences_ended:  # an essence whose rounds ran out [002]
        who = _known(encounter, [ended.combatant_id])
        raw = who[0].name if who else "someone who left"  # the renderer escapes it
        say(essence_ended_text(raw, ended), who)


def summary_embeds(round: int, entries: list[LogEntry]) -> list[discord.Embed]:
    """Render a round's summary from its action log, in order: in several embeds if long."""
    lines = [f"• {entry.text}" for entry in entries] or ["• Nothing was recorded this round."]
    pieces = split_text("\n".join(lines), DESCRIPTION_LIMIT)
    title = f"Round {round} summary"
    return [
        discord.Embed(
            title=title if len(pieces) == 1 else f"{title} ({n}/{len(pieces)})",
            description=piece,
            colour=SUMMARY_COLOUR,
        )
        for n, piece in enumerate(pieces, start=1)
    ]
