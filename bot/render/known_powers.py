"""Powers on sheets and in play, in words: the sheet's list, a buff taken up, a reaction.

Power types, tags (Spell), Specials and PP stay English in every language [001 §0.2].
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.catalogue.pricing import format_pp
from bot.i18n import N_, _, n_
from bot.outbox import FIELD_LIMIT
from bot.render.text import name_text
from bot.rules.models import KnownPower, MaintainedBuff
from bot.rules.powers import KIND_NAMES, BuffStarted, Reacted

POWERS_COLOUR = discord.Colour.dark_purple()
# A limited power's tag on the sheet: one whole phrase per segment.
ONCE_PER = {
    "turn": N_("once per Turn"),
    "round": N_("once per Round"),
    "combat": N_("once per Combat"),
    "day": N_("once per Day"),
}


def power_numbers(power: KnownPower) -> list[str]:
    """Return the numbers the bot plays a power with: dice, range, area, Specials, distance."""
    parts = []
    if power.damage:
        extra = power.kind in ("active_buff", "passive")
        if extra:
            parts.append(_("+{dice} on own hits", dice=power.damage))
        else:
            parts.append(_("damage {dice}", dice=power.damage))
    if power.range_m is not None:
        parts.append(_("range {metres} m", metres=power.range_m))
    if power.radius_m is not None:
        parts.append(_("radius {metres} m", metres=power.radius_m))
    parts += [f"{s.name} {s.x}" if s.x is not None else s.name for s in power.specials]
    if power.heal_per_turn:
        parts.append(_("heals {amount} at turn start", amount=power.heal_per_turn))
    if power.initiative:
        parts.append(_("initiative +{bonus}", bonus=power.initiative))
    if power.movement_m is not None:
        parts.append(_("moves {metres} m", metres=power.movement_m))
    if power.trigger is not None:
        parts.append(_("trigger: {trigger}", trigger=power.trigger.replace("_", " ")))
    return parts


def _pp(power: KnownPower) -> str:
    if power.pp is None:
        return _("no PP curve")
    if power.target_pp is not None and power.pp != power.target_pp:
        return _(
            "{pp} PP (curve {target})", pp=format_pp(power.pp), target=format_pp(power.target_pp)
        )
    return _("{pp} PP", pp=format_pp(power.pp))


def power_line(power: KnownPower) -> str:
    """Return one power as a sheet lists it: type, level, PP, tags, what it does."""
    tags = []
    if power.spell:
        tags.append("Spell")  # an SRD tag: English in every language [001 §0.2]
    if power.limit is not None:
        tags.append(_(ONCE_PER[power.limit]))
    if power.over_curve:
        tags.append(_("over curve, GM-allowed"))
    if power.entry is None:
        tags.append(_("custom"))
    head = _(
        "**{name}** — {kind} L{level} · {pp}",
        name=name_text(power.name),
        kind=KIND_NAMES[power.kind],
        level=power.level,
        pp=_pp(power),
    )
    if tags:
        head += " · " + ", ".join(tags)
    numbers = power_numbers(power)
    effect = name_text(power.effect)
    body = "; ".join(numbers) if numbers else effect
    if numbers and effect and power.entry is not None:
        body += f" ({effect})"
    return f"{head}\n{body}" if body else head


def powers_text(powers: Sequence[KnownPower]) -> str:
    """Return a sheet's powers, one entry each, within one embed field."""
    if not powers:
        return _("No powers yet: /character power add or /character power build.")
    text = "\n".join(power_line(p) for p in powers)
    return text if len(text) <= FIELD_LIMIT else text[: FIELD_LIMIT - 1] + "…"


def powers_embed(name: str, powers: Sequence[KnownPower]) -> discord.Embed:
    """Render `/character power list`: each power with its type, level and PP."""
    embed = discord.Embed(title=_("{name} — powers", name=name_text(name)), colour=POWERS_COLOUR)
    if not powers:
        embed.description = powers_text(powers)
        return embed
    embed.description = "\n".join(power_line(p) for p in powers)[:4000]
    return embed


def buff_started_text(started: BuffStarted) -> str:
    """Return an Active Buff taken up: how long it lasts, what it replaced."""
    buff = started.buff
    text = n_(
        "{name} takes up {buff} for {n} round (Mastery Rank), to round {last}: {effect}.",
        "{name} takes up {buff} for {n} rounds (Mastery Rank), to round {last}: {effect}.",
        started.rounds,
        name=name_text(started.combatant),
        buff=name_text(buff.name),
        last=buff.until_round - 1,
        effect=buff_effect(buff),
    )
    if started.replaced:
        text += " " + _(
            "It replaces {buff}: one maintained buff at a time.", buff=name_text(started.replaced)
        )
    if started.forced:
        text += " " + _("Out of turn: forced by the GM.")
    return text


def buff_effect(buff: MaintainedBuff) -> str:
    """Return what a buff does: the numbers the bot applies, then what it only shows."""
    parts = []
    if buff.damage:
        parts.append(_("+{dice} damage on own hits (applied)", dice=buff.damage))
    if buff.heal_per_turn:
        parts.append(_("heals {amount} at each turn start (applied)", amount=buff.heal_per_turn))
    shown = name_text(buff.effect)
    if not parts:
        if shown:
            return _("{effect} (shown; the GM applies it)", effect=shown)
        return _("no tracked numbers")
    return ", ".join(parts)


def buff_mark(buff: MaintainedBuff, round_now: int) -> str:
    """Return the tracker's mark for a maintained buff: "Bulwark (2 rounds)"."""
    left = max(0, buff.until_round - round_now)
    return n_("{buff} ({n} round)", "{buff} ({n} rounds)", left, buff=name_text(buff.name))


def reacted_text(reacted: Reacted, *, about: str | None = None, attacker: str | None = None) -> str:
    """Return a power Reaction used: its effect is shown for the GM to apply.

    `attacker` names whose attack it answers; `about` is that phrase already said.
    """
    if attacker is not None:
        about = _("{attacker}'s attack", attacker=name_text(attacker))
    fields = {"name": name_text(reacted.combatant), "power": name_text(reacted.power)}
    effect = name_text(reacted.effect)
    if about and effect:
        return _(
            "{name} reacts with {power} against {about}: {effect} (its Reaction this round; "
            "the GM applies what the bot does not track).",
            about=about,
            effect=effect,
            **fields,
        )
    if about:
        return _(
            "{name} reacts with {power} against {about} (its Reaction this round; the GM "
            "applies what the bot does not track).",
            about=about,
            **fields,
        )
    if effect:
        return _(
            "{name} reacts with {power}: {effect} (its Reaction this round; the GM applies "
            "what the bot does not track).",
            effect=effect,
            **fields,
        )
    return _(
        "{name} reacts with {power} (its Reaction this round; the GM applies what the bot "
        "does not track).",
        **fields,
    )
