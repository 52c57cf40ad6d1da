"""Turn announcements and round summaries: one renderer for what a Step did."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import discord

from bot.i18n import N_, _, n_
from bot.i18n.terms import term
from bot.outbox import DESCRIPTION_LIMIT, split_text
from bot.render.effects import effect_text
from bot.render.maneuvers import essence_ended_text
from bot.render.text import PHASE_NAMES, die_text, name_text
from bot.rules import encounter as flow
from bot.rules.encounter import RoundEnd, Step
from bot.rules.grit import die_of
from bot.rules.initiative import Ambush, InitiativeEntry
from bot.rules.models import Combatant, Encounter, LogEntry, LogKind
from bot.rules.results import Result

SUMMARY_COLOUR = discord.Colour.blurple()
LOG_NOTE = N_("*Every line of the fight: `/init log` (GM), and the file `/init end` posts.*")
# What is said when the order passes a combatant by; a wait was said when it was declared.
SKIP_TEXT = {
    "broken": N_("{name} is Broken — turn skipped."),
    "waiting": None,
    "held": N_("{name} is holding — turn passed."),
    "surprised": N_("{name} is surprised — no turn."),
    "acted": N_("{name} already acted this round (`/act`) — turn passed."),
}
# What each phase of the `full` flow is for, and what to do now [000 The Flow Of Combat].
PHASE_GUIDE = {
    "start": N_("the GM describes the scene; `/init next` opens Question."),
    "question": N_(
        "players ask the GM about the scene before anyone commits; `/init next` opens Declaration."
    ),
    "declaration": N_(
        "declare what you will do (`/declare`) or Haste (`/haste`); "
        "the GM's `/init next` {order} and starts the turns."
    ),
    "reaction": N_(
        "those who waited may respond to what happened (`/act`); "
        "`/init next` moves on to Resolution."
    ),
    "resolution": N_(
        "what was declared this round is settled: answer any defense still open; "
        "`/init next` moves on to Counter."
    ),
    "counter": N_(
        "anyone still waiting may act now (`/act`), and open counter-attacks may be "
        "taken; `/init next` moves on to Cleanup."
    ),
    "cleanup": N_("long actions and holds are settled; `/init next` posts the round's summary."),
    "summary": N_("the round's summary is below; `/init next` opens round {next}."),
}
SUMMARY_GROUPS = {  # a round summary's groups, in order; details stay in the log file
    "attack": ("⚔️ ", N_("Attacks")),
    "grit": ("🩸 ", N_("Grit")),
    "effect": ("✨ ", N_("Specials")),
    "declare": ("📝 ", N_("Declared")),
    "turn": ("⏭️ ", N_("Turns")),
    "event": ("", N_("Also")),
}


Text = str | Callable[[bool], str]  # a line, or one rendered per audience (gm_view)


@dataclass(frozen=True)
class Line:
    """One thing to say: who it is about (a hidden one keeps it from players) and its round."""

    text: Text
    about: tuple[Combatant, ...] = ()
    round: int | None = None  # the round whose log gets it; None: the current one
    kind: LogKind = "event"  # what the line is about, for the round summary


@dataclass
class Announcement:
    """A step in words: lines for the table (the pipeline decides who sees each) and a ping."""

    lines: list[Line] = field(default_factory=list)
    ping: int | None = None  # the player whose turn it is
    summary_round: int | None = None
    gm_turn: bool = False  # the turn is a hidden NPC's: the GM must play it


def _known(encounter: Encounter, ids: Iterable[int]) -> tuple[Combatant, ...]:
    wanted = set(ids)
    return tuple(c for c in encounter.combatants if c.id in wanted)


def _name(encounter: Encounter, combatant_id: int) -> str:
    for combatant in encounter.combatants:
        if combatant.id == combatant_id:
            return name_text(combatant.name)
    return _("someone who left")


def _names(combatants: Sequence[Combatant]) -> str:
    names = [name_text(c.name) for c in combatants]
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " " + _("and") + " " + names[-1]


def _split(combatants: Sequence[Combatant]) -> tuple[list[Combatant], list[Combatant]]:
    """Return (seen by everyone, hidden NPCs): one line each, so neither leaks the other."""
    return [c for c in combatants if not c.hidden], [c for c in combatants if c.hidden]


Say = Callable[..., None]  # (text, about=(), kind="event")


def initiative_text(entry: InitiativeEntry) -> str:
    """Return "Mira **17** (d20 11 · Finesse +3 · Haste +3)", or "Mira (5)" when not rolled."""
    name = name_text(entry.name)
    if entry.total is None:
        return _("{name} — Broken", name=name)
    if not entry.faces:
        if entry.front is not None:
            return _("{name} ({front}: first)", name=name, front=entry.front)
        # In parentheses, so "Goblin 2 (1)" never reads as one name.
        if entry.kept:
            return _("{name} ({total}, kept)", name=name, total=entry.total)
        return f"{name} ({entry.total})"
    parts = [f"d{entry.die} {entry.faces[0]}"]
    if entry.finesse:
        parts.append(f"Finesse {entry.finesse:+d}")
    parts.extend(f"{term(b.name)} {b.value:+d}" for b in entry.bonuses)
    text = f"{name} **{entry.total}** ({' · '.join(parts)})"
    if entry.rolloff:
        text += " " + _("roll-off {faces}", faces="/".join(map(str, entry.rolloff)))
    return text


def turn_text(combatant: Combatant) -> str:
    """Return "**Mira**'s turn — d20, 2 actions"."""
    return n_(
        "**{name}**'s turn — rolls {die}, {n} action",
        "**{name}**'s turn — rolls {die}, {n} actions",
        combatant.actions_left,
        name=name_text(combatant.name),
        die=die_text(die_of(combatant)),
    )


def first_turn_text(encounter: Encounter, newcomer: Combatant) -> str | None:
    """Return when a combatant added mid-round first acts, or None before the turns begin."""
    if not flow.turns_running(encounter):
        return None  # it rolls (or takes its place) with everyone when the turns begin
    name = name_text(newcomer.name)
    rolled = (
        ""
        if newcomer.initiative is None
        else " " + _("(initiative {initiative})", initiative=newcomer.initiative)
    )
    following = encounter.round + 1
    if newcomer.id in encounter.order and encounter.phase == "initiative":
        place = encounter.order.index(newcomer.id)
        if encounter.turn is None or place > encounter.turn:
            return _("{name} acts later this round{rolled}.", name=name, rolled=rolled)
        return _(
            "{name} first acts in round {round}: its place{rolled} has passed.",
            name=name,
            round=following,
            rolled=rolled,
        )
    return _("{name} first acts in round {round}.", name=name, round=following)


def order_step(encounter: Encounter) -> str:
    """Return what the GM's next `/init next` does to the order: rolls initiative or sets it."""
    if encounter.mode == "finesse" or (encounter.mode == "once" and encounter.round > 1):
        return _("sets the order")
    return _("rolls initiative")


def phase_text(encounter: Encounter, phase: str) -> str:
    """Return what a phase is for and what to do now: "**Question** — players ask …"."""
    guide = _(PHASE_GUIDE[phase], order=order_step(encounter), next=encounter.round + 1)
    return f"**{_(PHASE_NAMES[phase])}** — {guide}"


def opening_text(encounter: Encounter) -> str:
    """Return the line that opens a round, naming its first phase and the real next step."""
    if encounter.round == 0:
        opens = _("**Round zero (the ambush)** opens.")
    else:
        opens = _("**Round {round}** opens.", round=encounter.round)
    return f"{opens} {phase_text(encounter, encounter.phase)}"


def announce(encounter: Encounter, step: Step) -> Announcement:
    """Put a Step into words; each line says who it is about, so hidden NPCs stay hidden."""
    out = Announcement(summary_round=step.summary_round)
    # Lines belong to the round that ended, until the new round opens.
    log_round = step.round_end.round if step.round_end is not None else step.round

    def say(
        text: Callable[[], str], about: Iterable[Combatant] = (), kind: LogKind = "event"
    ) -> None:
        # Rendered when the table says it, in the table's language (not the caller's).
        line: Text = text if _takes_gm_view(text) else (lambda gm_view, text=text: text())
        out.lines.append(Line(line, tuple(about), log_round, kind))

    if step.ambush is not None:
        _ambush_lines(encounter, step.ambush, say)
    if step.initiative:
        rolled = _known(encounter, [e.combatant_id for e in step.initiative])
        seen, hidden = _split(rolled)
        for group, label in (
            (seen, N_("Initiative: {rolls}")),
            (hidden, N_("Hidden initiative: {rolls}")),
        ):
            ids = {c.id for c in group}
            entries = [e for e in step.initiative if e.combatant_id in ids]
            if entries:
                say(functools.partial(_initiative_line, label, entries), group, "detail")
    # What ended a turn comes before what starts the next one.
    for end in step.turn_ends:
        _effect_lines(encounter, end.combatant_id, end.effects, say)
    for start in step.turn_starts:
        _effect_lines(encounter, start.combatant_id, start.effects, say)
    for skip in step.skipped:
        if SKIP_TEXT[skip.reason] is not None:
            who = _known(encounter, [skip.combatant_id])
            say(
                functools.partial(_skip_line, encounter, skip.combatant_id, skip.reason),
                who,
                "turn",
            )
    if step.round_end is not None:
        _round_end_lines(encounter, step.round_end, say)
    if step.new_round is not None:
        log_round = step.new_round
        say(functools.partial(opening_text, encounter), (), "detail")
    elif step.phase != "initiative" and step.current is None and not step.initiative:
        say(functools.partial(phase_text, encounter, step.phase), (), "detail")
    if step.current is not None:
        actor = flow.by_id(encounter, step.current)
        out_of_turn = encounter.acting_now == actor.id and not step.resumed
        kind: LogKind = "turn" if out_of_turn else "detail"  # an /act is news; a turn is not
        say(functools.partial(_turn_line, encounter, actor, resumed=step.resumed), [actor], kind)
        if actor.hidden:
            out.gm_turn = True
        else:
            out.ping = actor.controller_id
    return out


def _takes_gm_view(text: Callable[..., str]) -> bool:
    """Return whether a line's renderer is one of gm_view (an effect's), not of nothing."""
    return isinstance(text, functools.partial) and text.func is _effect_text


def _initiative_line(label: str, entries: list[InitiativeEntry]) -> str:
    return _(label, rolls=", ".join(initiative_text(e) for e in entries))


def _skip_line(encounter: Encounter, combatant_id: int, reason: str) -> str:
    return _(SKIP_TEXT[reason] or "", name=_name(encounter, combatant_id))


def _turn_line(encounter: Encounter, actor: Combatant, *, resumed: bool) -> str:
    if resumed:
        text = _("Back to {turn}", turn=turn_text(actor))
    elif encounter.acting_now == actor.id:
        text = _("**{name}** acts now, out of turn", name=name_text(actor.name))
    else:
        text = turn_text(actor)
    if actor.hidden:
        return _("{text} (hidden: players see nothing; `/init next` when done).", text=text)
    return text


def _ambush_lines(encounter: Encounter, ambush: Ambush, say: Say) -> None:
    """Say the ambush roll: the visible ambushers' rolls, and the hidden ones' to the GM."""
    rollers = _known(encounter, [r.combatant_id for r in ambush.rolls])
    for group in _split(rollers):
        ids = {c.id for c in group}
        rolls = [r for r in ambush.rolls if r.combatant_id in ids]
        if rolls:
            say(functools.partial(_ambush_line, encounter, ambush.perception, rolls), group, "turn")


def _ambush_line(encounter: Encounter, perception: int, rolls: list) -> str:
    shown = ", ".join(
        f"{_name(encounter, r.combatant_id)} d{r.die} {r.face} {'✓' if r.success else '✗'}"
        for r in rolls
    )
    return _("Ambush against Perception {perception}: {rolls}", perception=perception, rolls=shown)


def _effect_lines(
    encounter: Encounter, combatant_id: int, effects: Sequence[Result], say: Say
) -> None:
    about = _known(encounter, [combatant_id])
    for effect in effects:
        if effect_text(effect, gm_view=True) is not None:
            say(functools.partial(_effect_text, effect), about, "effect")


def _effect_text(effect: Result, gm_view: bool) -> str:
    return effect_text(effect, gm_view=gm_view) or ""


def _round_end_lines(encounter: Encounter, end: RoundEnd, say: Say) -> None:
    """Say how the round ended and who holds: hidden holders are the GM's business."""
    seen, hidden = _split(_known(encounter, end.held))
    number = end.round
    if end.all_waiting and seen:
        say(
            lambda: _(
                "Everyone left was waiting: round {round} passes, and {holds}.",
                round=number,
                holds=_holds(seen),
            ),
            seen,
            "turn",
        )
    elif seen:
        say(
            lambda: _("Round {round} ends; {holds}.", round=number, holds=_holds(seen)),
            seen,
            "turn",
        )
    else:
        say(lambda: _("Round {round} ends.", round=number), (), "detail")
    if hidden:
        say(lambda: _holds(hidden) + ".", hidden, "turn")
    for ended in end.essences_ended:  # an essence whose rounds ran out [002]
        who = _known(encounter, [ended.combatant_id])
        raw = who[0].name if who else None  # the renderer escapes it
        say(functools.partial(_essence_ended, raw, ended), who, "effect")


def _essence_ended(raw: str | None, ended: object) -> str:
    return essence_ended_text(raw if raw is not None else _("someone who left"), ended)  # type: ignore[arg-type]


def _holds(combatants: Sequence[Combatant]) -> str:
    """Return "Mira holds into the next round" or "Mira and Brom hold …"."""
    return n_(
        "{names} holds into the next round",
        "{names} hold into the next round",
        len(combatants),
        names=_names(combatants),
    )


def summary_lines(entries: list[LogEntry]) -> list[str]:
    """Return a round's summary: what happened, grouped, without the details (the log has them)."""
    groups: dict[str, list[str]] = {kind: [] for kind in SUMMARY_GROUPS}
    for entry in entries:
        if entry.kind != "detail" and entry.line not in groups[entry.kind]:
            groups[entry.kind].append(entry.line)
    lines = []
    for kind, (mark, title) in SUMMARY_GROUPS.items():
        if groups[kind]:
            lines.append(f"**{mark}{_(title)}**")
            lines.extend(f"• {line}" for line in groups[kind])
    return lines or [_("Nothing happened beyond the turns.")]


def summary_embeds(round: int, entries: list[LogEntry]) -> list[discord.Embed]:
    """Render a round's summary from its action log, grouped: in several embeds if long."""
    lines = [*summary_lines(entries), "", _(LOG_NOTE)]
    pieces = split_text("\n".join(lines), DESCRIPTION_LIMIT)
    title = _("Round {round} summary", round=round)
    return [
        discord.Embed(
            title=title if len(pieces) == 1 else f"{title} ({n}/{len(pieces)})",
            description=piece,
            colour=SUMMARY_COLOUR,
        )
        for n, piece in enumerate(pieces, start=1)
    ]
