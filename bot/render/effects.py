"""Specials in words: what /effect and /move did, and what ticked at a turn's start or end."""

from __future__ import annotations

from collections.abc import Callable

from bot.catalogue.models import Special
from bot.i18n import N_, _, n_, p_
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

TIER_TEXT = {
    "first": N_("first move"),
    "half": N_("beyond half Mobility"),
    "full": N_("beyond full Mobility"),
}
OUT_OF_TURN = N_("Out of turn: forced by the GM.")


def special_text(active: ActiveSpecial) -> str:
    """Return a carried Special as the tracker shows it: "Ruin 3", "Stunned"."""
    return active.name if active.x is None else f"{active.name} {active.x}"


def lowered_text(lowered: Lowered) -> str:
    """Return "Ruin 3 → 2", "Ruin 1 → 0 (ends)" or "Stunned (ends)"."""
    if lowered.before is None:
        return _("{special} (ends)", special=lowered.special)
    if lowered.after is None:
        return _("{special} {x} (ends)", special=lowered.special, x=lowered.before)
    text = f"{lowered.special} {lowered.before} → {lowered.after}"
    return _("{special} (ends)", special=text) if lowered.ended else text


def _decays(decays: list[Lowered]) -> str:
    return ", ".join(lowered_text(d) for d in decays) + "."


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
                _(
                    "{label}: {name} takes {x} Stress (Stress {before} → {after}).",
                    label=label,
                    name=name,
                    x=tick.x,
                    before=tick.stress_before,
                    after=tick.stress_after,
                )
            )
        elif tick.untouched_because:
            parts.append(
                _(
                    "{label}: no effect ({name} is not {tag}).",
                    label=label,
                    name=name,
                    tag=tick.untouched_because,
                )
            )
    if effects.stunned is not None:
        parts.append(
            _(
                "Stunned: {name} loses an action ({left} left) and may react again; Stunned ends.",
                name=name,
                left=effects.stunned.actions_after,
            )
        )
    if effects.decays:
        parts.append(_decays(effects.decays))
    return _("{name}'s Specials — {effects}", name=name, effects=" ".join(parts))


def turn_end_text(effects: TurnEndEffects | None, *, gm_view: bool) -> str | None:
    """Return one line for what a combatant's Specials did at its turn end, if anything."""
    if effects is None or effects.empty:
        return None
    parts = []
    if effects.slow is not None:
        grit = grit_change_text(effects.slow.grit, gm_view=gm_view)
        parts.append(
            _("Slow {x}: it did not move 1 m this turn; {grit}", x=effects.slow.x, grit=grit)
        )
    if effects.decays:
        parts.append(_decays(effects.decays))
    return _(
        "{name}'s Specials at turn end — {effects}",
        name=name_text(effects.combatant),
        effects=" ".join(parts),
    )


def applied_text(applied: Applied) -> str:
    """Return what /effect apply did, in one line (in the language spoken now)."""
    name, special = name_text(applied.combatant), applied.special
    label = special if applied.x_after is None else f"{special} {applied.x_after}"
    fields = dict(
        name=name,
        special=special,
        label=label,
        source=name_text(applied.source or ""),
        previous=name_text(applied.previous_source or ""),
        before=applied.x_before,
        given=applied.x_given,
        after=applied.x_after,
    )
    match applied.outcome:
        case "new":
            if special == "Prone":
                return _("{name} is knocked prone.", **fields)
            if applied.source:
                return _("{name} now has {label} (from {source}).", **fields)
            return _("{name} now has {label}.", **fields)
        case "stacked":
            if applied.source:
                return _(
                    "{special} on {name} stacks: {before} + {given} → {after} (from {source}).",
                    **fields,
                )
            return _("{special} on {name} stacks: {before} + {given} → {after}.", **fields)
        case "raised":
            return _(
                "{special} on {name} is refreshed at the higher X: {before} → {after}.", **fields
            )
        case "kept":
            return _("{special} on {name} is refreshed and keeps its higher X {before}.", **fields)
        case "replaced":
            return _(
                "{source} replaces {previous} as {name}'s challenger: "
                "{special} {before} → {after}.",
                **fields,
            )
        case "resisted":
            return _(
                "{name} keeps {previous}'s {special} {before}: a different challenger "
                "replaces it only with a higher X (got {given}).",
                **fields,
            )
    if special == "Prone":
        return _("{name} is already prone.", **fields)
    return _("{name} is already {special}: it does not stack, nothing changes.", **fields)


def cleansed_text(combatant: str, x: int, lowered: Lowered) -> str:
    """Return "Cleanse 2 on Goblin: Ruin 5 → 3."."""
    return _(
        "Cleanse {x} on {name}: {lowered}.",
        x=x,
        name=name_text(combatant),
        lowered=lowered_text(lowered),
    )


def stood_text(combatant: str, stood: StoodUp) -> str:
    """Return "Mira stands up (one action; 1 left)."."""
    text = _(
        "{name} stands up (Prone removed; one action, {left} left).",
        name=name_text(combatant),
        left=stood.actions_left,
    )
    return f"{text} {_(OUT_OF_TURN)}" if stood.forced else text


def removed_text(combatant: str, lowered: Lowered) -> str:
    """Return what /effect remove did: "Goblin's Ruin 3 is removed." or "Bulwark 3 → 2"."""
    combatant = name_text(combatant)
    if lowered.special == "Prone":
        return _("{name} stands up (Prone removed).", name=combatant)
    if lowered.reason == "remove" and lowered.after is None:
        shown = lowered.special if lowered.before is None else f"{lowered.special} {lowered.before}"
        return _("{name}'s {special} is removed.", name=combatant, special=shown)
    return f"{combatant}: {lowered_text(lowered)}."


def mobility_text(allowed: Mobility) -> str:
    """Return "Mobility 8 m", "Mobility 8 m − Slow 2 = 6 m", "prone: 2 m" or "Speed 0 m (Root 3)"."""
    if allowed.stopped_by is not None:
        return _("Speed 0 m ({special})", special=allowed.stopped_by)
    text = _("Mobility {m} m", m=allowed.normal_m)
    if allowed.slow:
        left = max(0, allowed.normal_m - allowed.slow)
        text += f" − Slow {allowed.slow} = {left} m"
    if allowed.prone:
        text += _(", prone: {m} m", m=allowed.limit_m)
    return text


def _cost(moved: Moved) -> str:
    """Return what a move cost in actions."""
    if moved.actions_spent:
        return n_(
            "{n} action spent, {left} left",
            "{n} actions spent, {left} left",
            moved.actions_spent,
            left=moved.actions_left,
        )
    if moved.movement.moved_after <= FREE_MOVE_M:
        return _("the free space: no action")
    return _("no further action")


def movement_text(moved: Moved, lacerate: GritChange | None, *, gm_view: bool) -> str:
    """Return what /move did: metres, Mobility, the actions it cost, Lacerate, Slow satisfied."""
    movement = moved.movement
    name = name_text(movement.combatant)
    parts = [
        _(
            "{name} moves {m} m ({total} m this turn; {mobility}; {cost}).",
            name=name,
            m=movement.metres,
            total=movement.moved_after,
            mobility=mobility_text(movement.mobility),
            cost=_cost(moved),
        )
    ]
    if moved.exposed:
        parts.append(_("{name} leaves full cover.", name=name))
    if moved.forced:
        parts.append(_(OUT_OF_TURN))
    if movement.lacerate and lacerate is not None:
        tiers = ", ".join(_(TIER_TEXT[hit.tier]) for hit in movement.lacerate)
        grit = grit_change_text(lacerate, gm_view=gm_view)
        parts.append(f"Lacerate {movement.lacerate[0].x} ({tiers}): {grit}")
    if movement.slow_satisfied:
        parts.append(_("Slow is satisfied: no Slow damage at the end of this turn."))
    return " ".join(parts)


def moved_log(movement: Movement, lacerate: GritChange | None) -> Callable[[bool], str]:
    """Return the round log's line for a move: "Mira moves 6 m through Lacerate 2 (…)."."""

    def line(gm_view: bool) -> str:
        name = name_text(movement.combatant)
        if not movement.lacerate or lacerate is None:
            return _("{name} moves {m} m.", name=name, m=movement.metres)
        grit = grit_change_text(lacerate, gm_view=gm_view)
        return _(
            "{name} moves {m} m through Lacerate: {grit}", name=name, m=movement.metres, grit=grit
        )

    return line


def situation_marks(combatant: Combatant, names: dict[int, str]) -> list[str]:
    """Return a combatant's situation in words: hidden, cover, engaged, grappling, essence."""
    marks = []
    if combatant.stealth:
        marks.append(_("hidden (+4 to its actions)"))
    if combatant.full_cover:
        marks.append(_("in full cover"))
    if combatant.engaged_with:
        seen = [name_text(names[i]) for i in combatant.engaged_with if i in names]
        if seen:
            marks.append(_("engaged with {names}", names=", ".join(seen)))
    if combatant.grapple is not None:
        partner = name_text(names.get(combatant.grapple.partner_id, p_("grappled", "someone")))
        item = combatant.grapple.item
        if item:
            marks.append(_("grappling {name} for {item}", name=partner, item=name_text(item)))
        else:
            marks.append(_("grappling {name}", name=partner))
    if combatant.guarding:
        marks.append(_("guarding"))
    if combatant.essence is not None:
        essence = combatant.essence
        marks.append(_("essence: {name} ({kind})", name=name_text(essence.name), kind=essence.kind))
    if combatant.injuries:
        if combatant.leg_injury:
            marks.append(_("Injuries {n} (legs)", n=combatant.injuries))
        else:
            marks.append(_("Injuries {n}", n=combatant.injuries))
    if combatant.fixed_object:
        marks.append(_("fixed object"))
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
        shown = special_text(active)
        if active.source:
            shown = _("{special} (from {source})", special=shown, source=name_text(active.source))
        carried.append((shown, book.get(active.name), active))
    header = _(
        "**{name}** — {specials}",
        name=name_text(combatant.name),
        specials=", ".join(text for text, _d, _a in carried) if carried else _("no Specials"),
    )
    extras = [
        mobility_text(mobility(combatant, book)),
        _("moved {m} m this turn", m=combatant.moved_m),
    ]
    if combatant.stress:
        extras.append(_("Stress {n}", n=combatant.stress))
    extras += situation_marks(combatant, names)
    lines = [header + " · " + " · ".join(extras)]
    if detail:
        for text, definition, _active in carried:
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
        return _("{name}'s {buff} ends: its Mastery Rank rounds are over.", name=name, buff=buff)
    healed = _("{name}'s {buff} heals {n}.", name=name, buff=buff, n=turn.healed)
    if turn.grit is None:
        return healed
    return f"{healed} {grit_change_text(turn.grit, gm_view=gm_view)}"


def _cleanse_note(special: Special) -> str:
    return _("Cleanse can lower it.") if special.cleanse else _("Cleanse cannot touch it.")
