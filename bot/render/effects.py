"""Specials in words: what /effect and /move did, and what ticked at a turn's start or end."""

from __future__ import annotations

from collections.abc import Callable

from bot.catalogue.models import Special
from bot.render.grit import grit_change_text
from bot.render.text import name_text
from bot.rules.grit import GritChange
from bot.rules.models import ActiveSpecial, Combatant
from bot.rules.movement import FREE_MOVE_M, Moved, StoodUp
from bot.rules.powers import BuffTurn
from bot.rules.specials import (
    Applied,
    Lowered,
    Mobility,
    Movement,
    SpecialBook,
    TurnEndEffects,
    TurnStartEffects,
    mobility,
)

TIER_TEXT = {"first": "first move", "half": "beyond half Mobility", "full": "beyond full Mobility"}


def special_text(active: ActiveSpecial) -> str:
    """Return a carried Special as the tracker shows it: "Ruin 3", "Stunned"."""
    return active.name if active.x is None else f"{active.name} {active.x}"


def lowered_text(lowered: Lowered) -> str:
    """Return "Ruin 3 → 2", "Ruin 1 → 0 (ends)" or "Stunned (ends)"."""
    if lowered.before is None:
        return f"{lowered.special} (ends)"
    if lowered.after is None:
        return f"{lowered.special} {lowered.before} (ends)"
    text = f"{lowered.special} {lowered.before} → {lowered.after}"
    return f"{text} (ends)" if lowered.ended else text


def turn_start_text(effects: TurnStartEffects, *, gm_view: bool) -> str | None:
    """Return one line for what a combatant's Specials did at its turn start, if anything."""
    if effects.empty:
        return None
    name = name_text(effects.combatant)
    parts = []
    for tick in effects.ticks:
        label = f"{tick.special} {tick.x}"
        if tick.grit is not None:
            parts.append(f"{label}: {grit_change_text(tick.grit, gm_view=gm_view)}")
        elif tick.kind == "stress":
            parts.append(
                f"{label}: {name} takes {tick.x} Stress "
                f"(Stress {tick.stress_before} → {tick.stress_after})."
            )
        elif tick.untouched_because:
            parts.append(f"{label}: no effect ({name} is {tick.untouched_because}).")
    if effects.stunned is not None:
        left = effects.stunned.actions_after
        parts.append(
            f"Stunned: {name} loses an action ({left} left) and may react again; Stunned ends."
        )
    if effects.decays:
        parts.append(", ".join(lowered_text(d) for d in effects.decays) + ".")
    return f"{name}'s Specials — " + " ".join(parts)


def turn_end_text(effects: TurnEndEffects | None, *, gm_view: bool) -> str | None:
    """Return one line for what a combatant's Specials did at its turn end, if anything."""
    if effects is None or effects.empty:
        return None
    parts = []
    if effects.slow is not None:
        grit = grit_change_text(effects.slow.grit, gm_view=gm_view)
        parts.append(f"Slow {effects.slow.x}: it did not move 1 m this turn; {grit}")
    if effects.decays:
        parts.append(", ".join(lowered_text(d) for d in effects.decays) + ".")
    return f"{name_text(effects.combatant)}'s Specials at turn end — " + " ".join(parts)


def applied_text(applied: Applied) -> str:
    """Return what /effect apply did, in one line."""
    name, special = name_text(applied.combatant), applied.special
    label = special if applied.x_after is None else f"{special} {applied.x_after}"
    source = f" (from {name_text(applied.source)})" if applied.source else ""
    match applied.outcome:
        case "new":
            if special == "Prone":
                return f"{name} is knocked prone."
            return f"{name} now has {label}{source}."
        case "stacked":
            return (
                f"{special} on {name} stacks: {applied.x_before} + {applied.x_given} → "
                f"{applied.x_after}{source}."
            )
        case "raised":
            return (
                f"{special} on {name} is refreshed at the higher X: "
                f"{applied.x_before} → {applied.x_after}."
            )
        case "kept":
            return f"{special} on {name} is refreshed and keeps its higher X {applied.x_before}."
        case "replaced":
            return (
                f"{name_text(applied.source or '')} replaces "
                f"{name_text(applied.previous_source or '')} as {name}'s challenger: "
                f"{special} {applied.x_before} → {applied.x_after}."
            )
        case "resisted":
            return (
                f"{name} keeps {name_text(applied.previous_source or '')}'s {special} "
                f"{applied.x_before}: a "
                f"different challenger replaces it only with a higher X (got {applied.x_given})."
            )
    if special == "Prone":
        return f"{name} is already prone."
    return f"{name} is already {special}: it does not stack, nothing changes."


def cleansed_text(combatant: str, x: int, lowered: Lowered) -> str:
    """Return "Cleanse 2 on Goblin: Ruin 5 → 3."."""
    return f"Cleanse {x} on {name_text(combatant)}: {lowered_text(lowered)}."


def stood_text(combatant: str, stood: StoodUp) -> str:
    """Return "Mira stands up (one action; 1 left)."."""
    forced = " Out of turn: forced by the GM." if stood.forced else ""
    name = name_text(combatant)
    return f"{name} stands up (Prone removed; one action, {stood.actions_left} left).{forced}"


def removed_text(combatant: str, lowered: Lowered) -> str:
    """Return what /effect remove did: "Goblin's Ruin 3 is removed." or "Bulwark 3 → 2"."""
    combatant = name_text(combatant)
    if lowered.special == "Prone":
        return f"{combatant} stands up (Prone removed)."
    if lowered.reason == "remove" and lowered.after is None:
        shown = lowered.special if lowered.before is None else f"{lowered.special} {lowered.before}"
        return f"{combatant}'s {shown} is removed."
    return f"{combatant}: {lowered_text(lowered)}."


def mobility_text(allowed: Mobility) -> str:
    """Return "Mobility 8 m", "Mobility 8 m − Slow 2 = 6 m", "prone: 2 m" or "Speed 0 m (Root 3)"."""
    if allowed.stopped_by is not None:
        return f"Speed 0 m ({allowed.stopped_by})"
    text = f"Mobility {allowed.normal_m} m"
    if allowed.slow:
        text += f" − Slow {allowed.slow} = {max(0, allowed.normal_m - allowed.slow)} m"
    if allowed.prone:
        text += f", prone: {allowed.limit_m} m"
    return text


def _actions(count: int) -> str:
    return f"{count} action{'s' if count != 1 else ''}"


def movement_text(moved: Moved, lacerate: GritChange | None, *, gm_view: bool) -> str:
    """Return what /move did: metres, Mobility, the actions it cost, Lacerate, Slow satisfied."""
    movement = moved.movement
    name = name_text(movement.combatant)
    if moved.actions_spent:
        cost = f"{_actions(moved.actions_spent)} spent, {moved.actions_left} left"
    elif movement.moved_after <= FREE_MOVE_M:
        cost = "the free space: no action"
    else:
        cost = "no further action"
    text = (
        f"{name} moves {movement.metres} m ({movement.moved_after} m this turn; "
        f"{mobility_text(movement.mobility)}; {cost})."
    )
    if moved.exposed:
        text += f" {name} leaves full cover."
    if moved.forced:
        text += " Out of turn: forced by the GM."
    if movement.lacerate and lacerate is not None:
        tiers = ", ".join(TIER_TEXT[hit.tier] for hit in movement.lacerate)
        grit = grit_change_text(lacerate, gm_view=gm_view)
        text += f" Lacerate {movement.lacerate[0].x} ({tiers}): {grit}"
    if movement.slow_satisfied:
        text += " Slow is satisfied: no Slow damage at the end of this turn."
    return text


def moved_log(movement: Movement, lacerate: GritChange | None) -> Callable[[bool], str]:
    """Return the round log's line for a move: "Mira moves 6 m through Lacerate 2 (…)."."""

    def line(gm_view: bool) -> str:
        name = name_text(movement.combatant)
        if not movement.lacerate or lacerate is None:
            return f"{name} moves {movement.metres} m."
        grit = grit_change_text(lacerate, gm_view=gm_view)
        return f"{name} moves {movement.metres} m through Lacerate: {grit}"

    return line


def situation_marks(combatant: Combatant, names: dict[int, str]) -> list[str]:
    """Return a combatant's situation in words: hidden, cover, engaged, grappling, essence."""
    marks = []
    if combatant.stealth:
        marks.append("hidden (+4 to its actions)")
    if combatant.full_cover:
        marks.append("in full cover")
    if combatant.engaged_with:
        seen = [name_text(names[i]) for i in combatant.engaged_with if i in names]
        if seen:
            marks.append("engaged with " + ", ".join(seen))
    if combatant.grapple is not None:
        partner = name_text(names.get(combatant.grapple.partner_id, "someone"))
        item = combatant.grapple.item
        held = f" for {name_text(item)}" if item else ""
        marks.append(f"grappling {partner}{held}")
    if combatant.guarding:
        marks.append("guarding")
    if combatant.essence is not None:
        marks.append(f"essence: {name_text(combatant.essence.name)} ({combatant.essence.kind})")
    if combatant.injuries:
        marks.append(f"Injuries {combatant.injuries}" + (" (legs)" if combatant.leg_injury else ""))
    if combatant.fixed_object:
        marks.append("fixed object")
    return marks


def effect_lines(
    combatant: Combatant,
    book: SpecialBook,
    *,
    detail: bool = False,
    names: dict[int, str] | None = None,
) -> list[str]:
    """Return a combatant's Specials and situation for /effect list; with detail, each effect."""
    names = names or {}
    carried = []
    if combatant.prone:
        carried.append(("Prone", book.get("prone"), None))
    for active in combatant.specials:
        source = f" (from {name_text(active.source)})" if active.source else ""
        carried.append((special_text(active) + source, book.get(active.name), active))
    header = f"**{name_text(combatant.name)}** — " + (
        ", ".join(text for text, _, _ in carried) if carried else "no Specials"
    )
    extras = [mobility_text(mobility(combatant, book)), f"moved {combatant.moved_m} m this turn"]
    if combatant.stress:
        extras.append(f"Stress {combatant.stress}")
    extras += situation_marks(combatant, names)
    lines = [header + " · " + " · ".join(extras)]
    if detail:
        for text, definition, _ in carried:
            if definition is not None:
                lines.append(f"• {text}: {definition.effect} {_cleanse_note(definition)}")
    return lines


def effect_text(effects: object, *, gm_view: bool) -> str | None:
    """Return one line for what a turn hook returned (a turn start's or a turn end's effects)."""
    if isinstance(effects, TurnStartEffects):
        return turn_start_text(effects, gm_view=gm_view)
    if isinstance(effects, TurnEndEffects):
        return turn_end_text(effects, gm_view=gm_view)
    if isinstance(effects, BuffTurn):
        return buff_turn_text(effects, gm_view=gm_view)
    return None


def buff_turn_text(turn: BuffTurn, *, gm_view: bool) -> str:
    """Return a maintained buff at its user's turn start: it ends, or it heals."""
    name, buff = name_text(turn.combatant), name_text(turn.buff)
    if turn.ended:
        return f"{name}'s {buff} ends: its Mastery Rank rounds are over."
    grit = f" {grit_change_text(turn.grit, gm_view=gm_view)}" if turn.grit is not None else ""
    return f"{name}'s {buff} heals {turn.healed}.{grit}"


def _cleanse_note(special: Special) -> str:
    return "Cleanse can lower it." if special.cleanse else "Cleanse cannot touch it."
