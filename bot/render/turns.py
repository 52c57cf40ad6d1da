"""Turn announcements and round summaries: one renderer for what a Step did."""

from __future__ import annotations

from dataclasses import dataclass, field

import discord

from bot.render.text import PHASE_NAMES, die_text
from bot.rules import encounter as flow
from bot.rules.encounter import Step
from bot.rules.grit import die_of
from bot.rules.initiative import InitiativeEntry
from bot.rules.models import Combatant, Encounter, LogEntry

SUMMARY_COLOUR = discord.Colour.blurple()
SKIP_TEXT = {
    "broken": "is Broken — turn skipped",
    "waiting": "waits",
    "held": "is holding — turn passed",
    "surprised": "is surprised — no turn",
    "acted": "already acted this round (/act) — turn passed",
}


@dataclass
class Announcement:
    """A step in words: public lines, a private note for the GM, lines for the log."""

    public: list[str] = field(default_factory=list)
    gm_note: list[str] = field(default_factory=list)
    log: list[tuple[int, str]] = field(default_factory=list)  # (round, line) for the log
    ping: int | None = None  # the user whose turn it is
    summary_round: int | None = None


def _name(encounter: Encounter, combatant_id: int) -> str:
    for combatant in encounter.combatants:
        if combatant.id == combatant_id:
            return combatant.name
    return "someone who left"


def _hidden(encounter: Encounter, combatant_id: int) -> bool:
    return any(c.id == combatant_id and c.hidden for c in encounter.combatants)


def initiative_text(entry: InitiativeEntry) -> str:
    """Return "Mira **17** (d20 11 · Finesse +3 · Haste +3)"."""
    if entry.total is None:
        return f"{entry.name} — Broken"
    if not entry.faces:
        if entry.front is not None:
            return f"{entry.name} ({entry.front}: first)"
        return f"{entry.name} {entry.total}" + (" (kept)" if entry.kept else "")
    parts = [f"d{entry.die} {entry.faces[0]}"]
    if entry.finesse:
        parts.append(f"Finesse {entry.finesse:+d}")
    parts.extend(f"{b.name} {b.value:+d}" for b in entry.bonuses)
    text = f"{entry.name} **{entry.total}** ({' · '.join(parts)})"
    if entry.rolloff:
        text += f" roll-off {'/'.join(map(str, entry.rolloff))}"
    return text


def turn_text(combatant: Combatant) -> str:
    """Return "**Mira**'s turn — d20, 2 actions"."""
    actions = combatant.actions_left
    return (
        f"**{combatant.name}**'s turn — rolls {die_text(die_of(combatant))}, "
        f"{actions} action{'s' if actions != 1 else ''}"
    )


def announce(encounter: Encounter, step: Step) -> Announcement:
    """Put a Step into words; hidden NPCs appear only in the GM's note."""
    out = Announcement(summary_round=step.summary_round)
    # Lines belong to the round that ended, until the new round opens.
    log_round = step.round_end.round if step.round_end is not None else step.round

    def say(text: str, *, secret: bool = False) -> None:
        (out.gm_note if secret else out.public).append(text)
        if not secret:
            out.log.append((log_round, text))

    if step.ambush is not None:
        rolls = ", ".join(
            f"{_name(encounter, r.combatant_id)} d{r.die} {r.face} {'✓' if r.success else '✗'}"
            for r in step.ambush.rolls
        )
        say(f"Ambush against Perception {step.ambush.perception}: {rolls}")
    if step.initiative:
        shown = [e for e in step.initiative if not _hidden(encounter, e.combatant_id)]
        say("Initiative: " + ", ".join(initiative_text(e) for e in shown))
        secret = [e for e in step.initiative if _hidden(encounter, e.combatant_id)]
        if secret:
            say("Hidden: " + ", ".join(initiative_text(e) for e in secret), secret=True)
    # What ended a turn comes before what starts the next one.
    ended_hidden = step.ended is not None and _hidden(encounter, step.ended)
    for line in step.turn_end_lines:
        say(line, secret=ended_hidden)
    for start in step.turn_starts:
        for line in start.lines:
            say(line, secret=_hidden(encounter, start.combatant_id))
    for skip in step.skipped:
        say(
            f"{_name(encounter, skip.combatant_id)} {SKIP_TEXT[skip.reason]}.",
            secret=_hidden(encounter, skip.combatant_id),
        )
    if step.round_end is not None:
        end = step.round_end
        held = ", ".join(_name(encounter, cid) for cid in end.held)
        if end.all_waiting:
            say(f"Everyone left was waiting: round {end.round} passes, and {held} hold.")
        elif held:
            say(f"Round {end.round} ends; {held} hold into the next round.")
        else:
            say(f"Round {end.round} ends.")
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
        if step.resumed:
            text = f"Back to {turn_text(actor)}"
        elif encounter.acting_now == actor.id:
            text = f"**{actor.name}** acts now, out of turn"
        else:
            text = turn_text(actor)
        if actor.hidden:
            say(f"{text} (hidden: players see nothing; `/init next` when done).", secret=True)
        else:
            say(text)
            out.ping = actor.controller_id
    return out


def summary_embed(round: int, entries: list[LogEntry]) -> discord.Embed:
    """Render a round's summary from its action log, in order."""
    lines = [f"• {entry.text}" for entry in entries] or ["• Nothing was recorded this round."]
    text = "\n".join(lines)
    if len(text) > 4000:
        text = text[:3990] + " …"
    return discord.Embed(title=f"Round {round} summary", description=text, colour=SUMMARY_COLOUR)
