"""Powers on sheets and in play, in words: the sheet's list, a buff taken up, a reaction."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.catalogue.pricing import format_pp
from bot.outbox import FIELD_LIMIT
from bot.render.text import name_text
from bot.rules.models import KnownPower, MaintainedBuff
from bot.rules.powers import KIND_NAMES, LIMIT_NAMES, BuffStarted, Reacted

POWERS_COLOUR = discord.Colour.dark_purple()


def power_numbers(power: KnownPower) -> list[str]:
    """Return the numbers the bot plays a power with: dice, range, area, Specials, distance."""
    parts = []
    if power.damage:
        extra = power.kind in ("active_buff", "passive")
        parts.append(f"+{power.damage} on own hits" if extra else f"damage {power.damage}")
    if power.range_m is not None:
        parts.append(f"range {power.range_m} m")
    if power.radius_m is not None:
        parts.append(f"radius {power.radius_m} m")
    parts += [f"{s.name} {s.x}" if s.x is not None else s.name for s in power.specials]
    if power.heal_per_turn:
        parts.append(f"heals {power.heal_per_turn} at turn start")
    if power.initiative:
        parts.append(f"initiative +{power.initiative}")
    if power.movement_m is not None:
        parts.append(f"moves {power.movement_m} m")
    if power.trigger is not None:
        parts.append(f"trigger: {power.trigger.replace('_', ' ')}")
    return parts


def power_line(power: KnownPower) -> str:
    """Return one power as a sheet lists it: type, level, PP, tags, what it does."""
    pp = "no PP curve" if power.pp is None else f"{format_pp(power.pp)} PP"
    if power.target_pp is not None and power.pp != power.target_pp:
        pp += f" (curve {format_pp(power.target_pp)})"
    tags = []
    if power.spell:
        tags.append("Spell")
    if power.limit is not None:
        tags.append(f"once per {LIMIT_NAMES[power.limit]}")
    if power.over_curve:
        tags.append("over curve, GM-allowed")
    if power.entry is None:
        tags.append("custom")
    head = f"**{name_text(power.name)}** — {KIND_NAMES[power.kind]} L{power.level} · {pp}"
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
        return "No powers yet: /character power add or /character power build."
    text = "\n".join(power_line(p) for p in powers)
    return text if len(text) <= FIELD_LIMIT else text[: FIELD_LIMIT - 1] + "…"


def powers_embed(name: str, powers: Sequence[KnownPower]) -> discord.Embed:
    """Render `/character power list`: each power with its type, level and PP."""
    embed = discord.Embed(title=f"{name_text(name)} — powers", colour=POWERS_COLOUR)
    if not powers:
        embed.description = powers_text(powers)
        return embed
    embed.description = "\n".join(power_line(p) for p in powers)[:4000]
    return embed


def buff_started_text(started: BuffStarted) -> str:
    """Return an Active Buff taken up: how long it lasts, what it replaced."""
    buff = started.buff
    name = name_text(started.combatant)
    rounds = f"{started.rounds} round{'s' if started.rounds != 1 else ''}"
    text = (
        f"{name} takes up {name_text(buff.name)} for {rounds} (Mastery Rank), "
        f"to round {buff.until_round - 1}: {buff_effect(buff)}."
    )
    if started.replaced:
        text += f" It replaces {name_text(started.replaced)}: one maintained buff at a time."
    if started.forced:
        text += " Out of turn: forced by the GM."
    return text


def buff_effect(buff: MaintainedBuff) -> str:
    """Return what a buff does: the numbers the bot applies, then what it only shows."""
    parts = []
    if buff.damage:
        parts.append(f"+{buff.damage} damage on own hits (applied)")
    if buff.heal_per_turn:
        parts.append(f"heals {buff.heal_per_turn} at each turn start (applied)")
    shown = name_text(buff.effect)
    if not parts:
        return f"{shown} (shown; the GM applies it)" if shown else "no tracked numbers"
    return ", ".join(parts)


def buff_mark(buff: MaintainedBuff, round_now: int) -> str:
    """Return the tracker's mark for a maintained buff: "Bulwark (2 rounds)"."""
    left = max(0, buff.until_round - round_now)
    return f"{name_text(buff.name)} ({left} round{'s' if left != 1 else ''})"


def reacted_text(reacted: Reacted, *, about: str | None = None) -> str:
    """Return a power Reaction used: its effect is shown for the GM to apply."""
    against = f" against {about}" if about else ""
    effect = f": {name_text(reacted.effect)}" if reacted.effect else ""
    return (
        f"{name_text(reacted.combatant)} reacts with {name_text(reacted.power)}{against}"
        f"{effect} (its Reaction this round; the GM applies what the bot does not track)."
    )
