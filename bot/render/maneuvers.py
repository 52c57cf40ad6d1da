"""Maneuvers in words: hiding, full cover, engaging, breaking away, guarding, essences."""

from __future__ import annotations

from bot.i18n import N_, _, n_
from bot.i18n.terms import term
from bot.render.attacks import core_text
from bot.render.text import name_text
from bot.rules.cover import TookCover
from bot.rules.essences import EssenceEnded, EssenceUsed
from bot.rules.items import Guarded
from bot.rules.melee import BrokeAway, Engaged
from bot.rules.opposed import Opposed
from bot.rules.stealth import Hid

FORCED = N_("Out of turn: forced by the GM.")


def forced_note(forced: bool) -> str:
    return " " + _(FORCED) if forced else ""


def _signed(value: int) -> str:
    return f"{value:+d}"


def opposed_text(roll: Opposed) -> str:
    """Return one side of an opposed roll: "d20 **12** · Finesse +3 · Hidden +4 → **19**"."""
    if roll.core is None:
        return _("no roll (cannot react) → **0**")
    terms = [core_text(roll.core)]
    if roll.core.risk_failure:
        terms.append(_("Risk failure: only modifiers count"))
    else:
        terms.append(f"{_(roll.trait)} {_signed(roll.trait_value)}")
    terms += [f"{term(m.name)} {_signed(m.value)}" for m in roll.modifiers]
    return " · ".join(terms) + f" → **{roll.value}**"


def hid_text(name: str, hid: Hid, perceiver: str | None) -> str:
    """Return a Hide action: the roll against the highest Perception, and the outcome."""
    name, perceiver = name_text(name), perceiver and name_text(perceiver)
    if perceiver:
        against = _(
            "{perceiver}'s Perception {perception}", perceiver=perceiver, perception=hid.perception
        )
    else:
        against = _("no one watching")
    if hid.success:
        verdict = _(
            "**{name} is hidden**: +4 to its actions until it attacks or is spotted.", name=name
        )
    else:
        verdict = _("{name} is seen: not hidden.", name=name)
    return _(
        "🫥 {name} tries to hide (one action): {roll} vs {against} — {verdict}",
        name=name,
        roll=opposed_text(hid.roll),
        against=against,
        verdict=verdict,
    ) + forced_note(hid.forced)


def hid_log(name: str, hid: Hid) -> str:
    """Return the round log's line for a Hide action (what players may read)."""
    name = name_text(name)
    if hid.success:
        return _("{name} hides.", name=name)
    return _("{name} tries to hide and is seen.", name=name)


def cover_text(name: str, took: TookCover) -> str:
    """Return Full Cover taken: cover 4 against ranged attacks until it attacks or moves."""
    return _(
        "🛡 {name} takes full cover (one action, {left} left): cover 4 (+20) "
        "against ranged attacks until it attacks or moves.",
        name=name_text(name),
        left=took.actions_left,
    ) + forced_note(took.forced)


def engaged_text(name: str, target: str, engaged: Engaged) -> str:
    """Return an /engage: locked onto one space, or a close-in that failed."""
    name, target = name_text(name), name_text(target)
    forced = forced_note(engaged.forced)
    if engaged.close_in is None or engaged.threat is None:
        return (
            _(
                "⚔ {name} engages {target}: they share a space, locked until one breaks away.",
                name=name,
                target=target,
            )
            + forced
        )
    roll = _(
        "{name} closes in on {target}'s longer reach — dodge {roll} vs {target}'s {threat}",
        name=name,
        target=target,
        roll=opposed_text(engaged.close_in),
        threat=opposed_text(engaged.threat),
    )
    if engaged.engaged:
        return _("⚔ {roll}: **in** — engaged, no reach advantage between them.", roll=roll) + forced
    return _("⚔ {roll}: **kept at bay** (one try a round).", roll=roll) + forced


def broke_away_text(name: str, broke: BrokeAway, names: dict[int, str]) -> str:
    """Return a break away: its roll against the best holder's, and who it is free of."""
    forced = forced_note(broke.forced)
    cost = _("one action") if broke.action_spent else _("its one try this round")
    best = broke.best
    if best is not None:
        against = _(
            "{holder}'s {roll}",
            holder=name_text(names.get(best.combatant_id, "?")),
            roll=opposed_text(best),
        )
    else:
        against = _("nobody")
    head = _(
        "↩ {name} breaks away ({cost}): {roll} vs {against}",
        name=name_text(name),
        cost=cost,
        roll=opposed_text(broke.roll),
        against=against,
    )
    if broke.success:
        freed = ", ".join(name_text(names.get(i, "?")) for i in broke.freed_from)
        return _("{head} — **free** of {freed}.", head=head, freed=freed) + forced
    return _("{head} — **held** (ties go to the holder).", head=head) + forced


def guarded_text(name: str, guarded: Guarded) -> str:
    """Return a guard: the shield raised until the combatant's next turn."""
    return _(
        "🛡 {name} raises {shield} (one action, {left} left): "
        "+{bonus} to every defense until its next turn.",
        name=name_text(name),
        shield=name_text(guarded.shield),
        left=guarded.actions_left,
        bonus=guarded.bonus,
    )


def essence_used_text(name: str, used: EssenceUsed) -> str:
    """Return an essence made active, and how long it lasts."""
    essence = used.essence
    if essence.rounds_left is not None:
        lasts = n_("for {n} round", "for {n} rounds", essence.rounds_left)
    elif essence.attacks_left is not None:
        lasts = n_("for {n} attack", "for {n} attacks", essence.attacks_left)
    else:
        lasts = _("until it is ended")
    return _(
        "🧪 {name} uses {essence} ({kind}): active {lasts} — one essence at a time.",
        name=name_text(name),
        essence=name_text(essence.name),
        kind=_(essence.kind),
        lasts=lasts,
    ) + forced_note(used.forced)


def essence_ended_text(name: str, ended: EssenceEnded) -> str:
    """Return an essence that ended, or ran out."""
    fields = {"name": name_text(name), "essence": name_text(ended.essence.name)}
    if ended.reason == "ran_out":
        return _("🧪 {name}'s {essence} runs out.", **fields)
    return _("🧪 {name}'s {essence} ends.", **fields)
