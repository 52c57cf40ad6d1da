"""Maneuvers in words: hiding, full cover, engaging, breaking away, guarding, essences."""

from __future__ import annotations

from bot.render.attacks import core_text
from bot.render.text import name_text
from bot.rules.cover import TookCover
from bot.rules.essences import EssenceEnded, EssenceUsed
from bot.rules.items import Guarded
from bot.rules.melee import BrokeAway, Engaged
from bot.rules.opposed import Opposed
from bot.rules.stealth import Hid

FORCED = " Out of turn: forced by the GM."


def _signed(value: int) -> str:
    return f"{value:+d}"


def opposed_text(roll: Opposed) -> str:
    """Return one side of an opposed roll: "d20 **12** · Finesse +3 · Hidden +4 → **19**"."""
    if roll.core is None:
        return "no roll (cannot react) → **0**"
    terms = [core_text(roll.core)]
    if roll.core.risk_failure:
        terms.append("Risk failure: only modifiers count")
    else:
        terms.append(f"{roll.trait} {_signed(roll.trait_value)}")
    terms += [f"{m.name} {_signed(m.value)}" for m in roll.modifiers]
    return " · ".join(terms) + f" → **{roll.value}**"


def hid_text(name: str, hid: Hid, perceiver: str | None) -> str:
    """Return a Hide action: the roll against the highest Perception, and the outcome."""
    name, perceiver = name_text(name), perceiver and name_text(perceiver)
    against = f"{perceiver}'s Perception {hid.perception}" if perceiver else "no one watching"
    verdict = (
        f"**{name} is hidden**: +4 to its actions until it attacks or is spotted."
        if hid.success
        else f"{name} is seen: not hidden."
    )
    forced = FORCED if hid.forced else ""
    return f"🫥 {name} tries to hide (one action): {opposed_text(hid.roll)} vs {against} — {verdict}{forced}"


def hid_log(name: str, hid: Hid) -> str:
    """Return the round log's line for a Hide action (what players may read)."""
    name = name_text(name)
    return f"{name} hides." if hid.success else f"{name} tries to hide and is seen."


def cover_text(name: str, took: TookCover) -> str:
    """Return Full Cover taken: cover 4 against ranged attacks until it attacks or moves."""
    forced = FORCED if took.forced else ""
    return (
        f"🛡 {name_text(name)} takes full cover (one action, {took.actions_left} left): cover 4 (+20) "
        f"against ranged attacks until it attacks or moves.{forced}"
    )


def engaged_text(name: str, target: str, engaged: Engaged) -> str:
    """Return an /engage: locked onto one space, or a close-in that failed."""
    name, target = name_text(name), name_text(target)
    forced = FORCED if engaged.forced else ""
    if engaged.close_in is None or engaged.threat is None:
        return (
            f"⚔ {name} engages {target}: they share a space, locked until one breaks away.{forced}"
        )
    roll = (
        f"{name} closes in on {target}'s longer reach — dodge {opposed_text(engaged.close_in)} "
        f"vs {target}'s {opposed_text(engaged.threat)}"
    )
    if engaged.engaged:
        return f"⚔ {roll}: **in** — engaged, no reach advantage between them.{forced}"
    return f"⚔ {roll}: **kept at bay** (one try a round).{forced}"


def broke_away_text(name: str, broke: BrokeAway, names: dict[int, str]) -> str:
    """Return a break away: its roll against the best holder's, and who it is free of."""
    forced = FORCED if broke.forced else ""
    cost = "one action" if broke.action_spent else "its one try this round"
    best = broke.best
    against = (
        f"{name_text(names.get(best.combatant_id, '?'))}'s {opposed_text(best)}"
        if best is not None
        else "nobody"
    )
    head = f"↩ {name_text(name)} breaks away ({cost}): {opposed_text(broke.roll)} vs {against}"
    if broke.success:
        freed = ", ".join(name_text(names.get(i, "?")) for i in broke.freed_from)
        return f"{head} — **free** of {freed}.{forced}"
    return f"{head} — **held** (ties go to the holder).{forced}"


def guarded_text(name: str, guarded: Guarded) -> str:
    """Return a guard: the shield raised until the combatant's next turn."""
    return (
        f"🛡 {name_text(name)} raises {name_text(guarded.shield)} (one action, {guarded.actions_left} left): "
        f"+{guarded.bonus} to every defense until its next turn."
    )


def essence_used_text(name: str, used: EssenceUsed) -> str:
    """Return an essence made active, and how long it lasts."""
    essence = used.essence
    if essence.rounds_left is not None:
        lasts = f"for {essence.rounds_left} round{'s' if essence.rounds_left != 1 else ''}"
    elif essence.attacks_left is not None:
        lasts = f"for {essence.attacks_left} attack{'s' if essence.attacks_left != 1 else ''}"
    else:
        lasts = "until it is ended"
    forced = FORCED if used.forced else ""
    return (
        f"🧪 {name_text(name)} uses {name_text(essence.name)} ({essence.kind}): active {lasts} — one essence at a "
        f"time.{forced}"
    )


def essence_ended_text(name: str, ended: EssenceEnded) -> str:
    """Return an essence that ended, or ran out."""
    why = "runs out" if ended.reason == "ran_out" else "ends"
    return f"🧪 {name_text(name)}'s {name_text(ended.essence.name)} {why}."
