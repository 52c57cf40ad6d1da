"""Characters and Grit cards as embeds: the sheet, the list, the Grit card [GAME.md §1–§2]."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import discord

from bot.render.known_powers import powers_text
from bot.render.loadout import add_loadout
from bot.render.text import die_text, grit_bar, name_text
from bot.rules.grit import GRIT_TABLE, GritLevel, GritRow, core_die, grit_level, perception_m
from bot.rules.models import Character

LEVEL_COLOURS = {
    GritLevel.PRIME: discord.Colour.green(),
    GritLevel.REDUCED: discord.Colour.gold(),
    GritLevel.FRAIL: discord.Colour.orange(),
    GritLevel.BROKEN: discord.Colour.red(),
}
SHIFT_WORDS = {1: "one level down", 2: "two levels down"}


class GritHolder(Protocol):
    """A Character or a Combatant: whatever has a Grit track and a sheet."""

    name: str
    grit: int
    max_grit: int
    injuries: int
    perception_m: int | None


def grit_table_text(row: GritRow, perception: int | None = None) -> str:
    """Return the Grit table's row: "Threat 20 m · Mobility 8 m · Vigor 10 m · Perception 10 m"."""
    threat = "—" if row.threat_m is None else f"{row.threat_m} m"
    seen = row.perception_m if perception is None else perception
    return (
        f"Threat {threat} · Mobility {row.mobility_m} m · Vigor {row.vigor_m} m · "
        f"Perception {seen} m"
    )


def level_text(holder: GritHolder) -> str:
    """Return "**Reduced** — rolls d12", with a standing die shift spelled out."""
    level = grit_level(holder.grit)
    shift = getattr(holder, "die_shift", 0)
    die = core_die(holder.grit, shift)
    text = f"**{level.display}** — " + ("cannot act" if die is None else f"rolls {die_text(die)}")
    if shift and die is not None:
        natural = die_text(core_die(holder.grit))
        text += f" (modifier: {SHIFT_WORDS.get(shift, f'{shift} levels down')} from {natural})"
    return text


def grit_lines(holder: GritHolder, *, exact: bool) -> str:
    """Return the bar and numbers (exact) and the level with its die."""
    if not exact:
        return level_text(holder)
    bar = grit_bar(holder.grit, holder.max_grit)
    return f"`{bar}` {holder.grit}/{holder.max_grit}\n{level_text(holder)}"


def grit_card(holder: GritHolder, *, exact: bool) -> discord.Embed:
    """Render a Grit card: level, die, bar and the Grit table's row for the level.

    Without `exact` (an NPC shown to a player) only the level and die are shown, as on
    the tracker; the table row follows from the level, so it is shown too.
    """
    level = grit_level(holder.grit)
    embed = discord.Embed(
        title=f"{name_text(holder.name)} — Grit",
        description=grit_lines(holder, exact=exact),
        colour=LEVEL_COLOURS[level],
    )
    own = holder.perception_m if exact else None
    embed.add_field(
        name=f"Grit table ({level.display})",
        value=grit_table_text(GRIT_TABLE[level], own),
        inline=False,
    )
    if exact and holder.injuries:
        embed.add_field(name="Injuries", value=str(holder.injuries))
    return embed


def _stat(value: int) -> str:
    return f"{value:+d}" if value else "0"


def character_sheet(
    character: Character, *, active: bool, fight_channel_id: int | None = None
) -> discord.Embed:
    """Render a character's sheet: stats, Grit and the Grit table's row for its level."""
    level = grit_level(character.grit)
    notes = []
    if active:
        notes.append("Your active character (`/init join` uses it).")
    if fight_channel_id is not None:
        notes.append(f"In the fight in <#{fight_channel_id}>: its Grit is written back there.")
    embed = discord.Embed(
        title=name_text(character.name),
        description="\n".join(notes) or None,
        colour=LEVEL_COLOURS[level],
    )
    embed.add_field(name="Grit", value=grit_lines(character, exact=True), inline=False)
    embed.add_field(
        name=f"Grit table ({level.display})",
        value=grit_table_text(GRIT_TABLE[level], perception_m(character)),
        inline=False,
    )
    embed.add_field(name="Physical", value=_stat(character.physical))
    embed.add_field(name="Finesse", value=_stat(character.finesse))
    embed.add_field(name="Risk", value=_stat(character.risk))
    embed.add_field(name="Initiative bonus", value=_stat(character.initiative_bonus))
    embed.add_field(name="Mastery Rank", value=str(character.mastery_rank))
    embed.add_field(name="Crit range", value=str(character.crit_range))
    embed.add_field(name="Default defense", value=character.default_defense.replace("_", " "))
    if character.perception_m is not None:
        embed.add_field(name="Perception", value=f"{character.perception_m} m (own)")
    if character.durability is not None:
        embed.add_field(name="Durability", value=str(character.durability))
    if character.stamina is not None:
        embed.add_field(name="Stamina", value=str(character.stamina))
    if character.tags:
        embed.add_field(name="Tags", value=name_text(", ".join(character.tags)))
    if character.injuries:
        embed.add_field(name="Injuries", value=str(character.injuries))
    if character.items:
        add_loadout(embed, character.items)
    if character.powers:
        embed.add_field(name="Powers", value=powers_text(character.powers), inline=False)
    return embed


def character_list(characters: Sequence[Character], active_id: int | None) -> discord.Embed:
    """Render a player's characters on this server, the active one marked."""
    lines = []
    for character in characters:
        marker = "▶" if character.id == active_id else "▫"
        level = grit_level(character.grit).display
        die = die_text(core_die(character.grit))
        lines.append(
            f"{marker} **{name_text(character.name)}** · Grit {character.grit}/"
            f"{character.max_grit} {level} {die}" + (" · active" if marker == "▶" else "")
        )
    return discord.Embed(
        title="Your characters on this server",
        description="\n".join(lines) or "None yet: `/character create name`.",
        colour=discord.Colour.blurple(),
    )
