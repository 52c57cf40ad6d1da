"""Characters and Grit cards as embeds: the sheet, the list, the Grit card [GAME.md §1–§2]."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import discord

from bot.i18n import N_, _, n_
from bot.render.known_powers import powers_text
from bot.render.loadout import add_loadout
from bot.render.text import die_text, grit_bar, name_text
from bot.rules.grit import GRIT_TABLE, GritLevel, GritRow, core_die, grit_level, perception_m
from bot.rules.models import Character, Stats

LEVEL_COLOURS = {
    GritLevel.PRIME: discord.Colour.green(),
    GritLevel.REDUCED: discord.Colour.gold(),
    GritLevel.FRAIL: discord.Colour.orange(),
    GritLevel.BROKEN: discord.Colour.red(),
}


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
    return _(
        "Threat {threat} · Mobility {mobility} m · Vigor {vigor} m · Perception {perception} m",
        threat=threat,
        mobility=row.mobility_m,
        vigor=row.vigor_m,
        perception=seen,
    )


def level_text(holder: GritHolder) -> str:
    """Return "**Reduced** — rolls d12", with a standing die shift spelled out."""
    level = grit_level(holder.grit)
    shift = getattr(holder, "die_shift", 0)
    die = core_die(holder.grit, shift)
    if die is None:
        return _("**{level}** — cannot act", level=level.display)
    if not shift:
        return _("**{level}** — rolls {die}", level=level.display, die=die_text(die))
    fields = {
        "level": level.display,
        "die": die_text(die),
        "natural": die_text(core_die(holder.grit)),
    }
    if shift == 1:
        return _("**{level}** — rolls {die} (modifier: one level down from {natural})", **fields)
    if shift == 2:
        return _("**{level}** — rolls {die} (modifier: two levels down from {natural})", **fields)
    return n_(
        "**{level}** — rolls {die} (modifier: {n} level down from {natural})",
        "**{level}** — rolls {die} (modifier: {n} levels down from {natural})",
        shift,
        **fields,
    )


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
        name=_("Grit table ({level})", level=level.display),
        value=grit_table_text(GRIT_TABLE[level], own),
        inline=False,
    )
    if exact and holder.injuries:
        embed.add_field(name=_("Injuries"), value=str(holder.injuries))
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
        notes.append(_("Your active character (`/init join` uses it)."))
    if fight_channel_id is not None:
        channel = f"<#{fight_channel_id}>"
        notes.append(
            _("In the fight in {channel}: its Grit is written back there.", channel=channel)
        )
    embed = discord.Embed(
        title=name_text(character.name),
        description="\n".join(notes) or None,
        colour=LEVEL_COLOURS[level],
    )
    embed.add_field(name="Grit", value=grit_lines(character, exact=True), inline=False)
    embed.add_field(
        name=_("Grit table ({level})", level=level.display),
        value=grit_table_text(GRIT_TABLE[level], perception_m(character)),
        inline=False,
    )
    add_stats(embed, character)
    if character.perception_m is not None:
        embed.add_field(
            name=_("Perception"), value=_("{metres} m (own)", metres=character.perception_m)
        )
    if character.durability is not None:
        embed.add_field(name=_("Durability"), value=str(character.durability))
    if character.stamina is not None:
        embed.add_field(name=_("Stamina"), value=str(character.stamina))
    if character.tags:
        embed.add_field(name=_("Tags"), value=name_text(", ".join(character.tags)))
    if character.injuries:
        embed.add_field(name=_("Injuries"), value=str(character.injuries))
    if character.items:
        add_loadout(embed, character.items)
    if character.powers:
        embed.add_field(name=_("Powers"), value=powers_text(character.powers), inline=False)
    return embed


def add_stats(embed: discord.Embed, sheet: Stats) -> None:
    """Add a sheet's stats to its embed, a field each (a character's or an NPC template's)."""
    embed.add_field(name=_("Physical"), value=_stat(sheet.physical))
    embed.add_field(name=_("Finesse"), value=_stat(sheet.finesse))
    embed.add_field(name=_("Risk"), value=_stat(sheet.risk))
    embed.add_field(name=_("Initiative bonus"), value=_stat(sheet.initiative_bonus))
    embed.add_field(name=_("Mastery Rank"), value=str(sheet.mastery_rank))
    embed.add_field(name=_("Crit range"), value=str(sheet.crit_range))
    embed.add_field(name=_("Default defense"), value=defense_text(sheet.default_defense))


DEFENSE_NAMES: dict[str, str] = {
    "auto": N_("auto"),
    "block": N_("block"),
    "dodge": N_("dodge"),
    "break_away": N_("break away"),
    "take_cover": N_("take cover"),
}


def defense_text(defense: str) -> str:
    """Return a default defense as a sheet shows it ("break away")."""
    return _(DEFENSE_NAMES[defense]) if defense in DEFENSE_NAMES else defense


def character_list(characters: Sequence[Character], active_id: int | None) -> discord.Embed:
    """Render a player's characters on this server, the active one marked."""
    lines = []
    for character in characters:
        fields = {
            "name": name_text(character.name),
            "grit": character.grit,
            "max": character.max_grit,
            "level": grit_level(character.grit).display,
            "die": die_text(core_die(character.grit)),
        }
        if character.id == active_id:
            lines.append(_("▶ **{name}** · Grit {grit}/{max} {level} {die} · active", **fields))
        else:
            lines.append(_("▫ **{name}** · Grit {grit}/{max} {level} {die}", **fields))
    return discord.Embed(
        title=_("Your characters on this server"),
        description="\n".join(lines) or _("None yet: `/character create name`."),
        colour=discord.Colour.blurple(),
    )
