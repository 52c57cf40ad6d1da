"""NPC templates as embeds: one template's sheet, and the server's list [GAME.md §9]."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.render.known_powers import powers_text
from bot.render.loadout import add_loadout
from bot.render.text import name_text
from bot.rules.models import NpcTemplate

TEMPLATE_COLOUR = discord.Colour.dark_grey()


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def npc_sheet(template: NpcTemplate) -> discord.Embed:
    """Render a template: its stats, loadout and powers, as each copy `/init add` makes starts."""
    embed = discord.Embed(
        title=f"{name_text(template.name)} (NPC template)",
        description=f"`/init add name:{template.name}` brings it; stats typed there win.",
        colour=TEMPLATE_COLOUR,
    )
    embed.add_field(name="Grit", value=f"{template.grit}/{template.max_grit}")
    embed.add_field(name="Physical", value=_signed(template.physical))
    embed.add_field(name="Finesse", value=_signed(template.finesse))
    embed.add_field(name="Risk", value=_signed(template.risk))
    embed.add_field(name="Initiative bonus", value=_signed(template.initiative_bonus))
    embed.add_field(name="Mastery Rank", value=str(template.mastery_rank))
    embed.add_field(name="Crit range", value=str(template.crit_range))
    embed.add_field(name="Default defense", value=template.default_defense.replace("_", " "))
    if template.tags:
        embed.add_field(name="Tags", value=name_text(", ".join(template.tags)))
    add_loadout(embed, template.items)
    if template.powers:
        embed.add_field(name="Powers", value=powers_text(template.powers), inline=False)
    return embed


def npc_list(templates: Sequence[NpcTemplate]) -> discord.Embed:
    """Render the server's templates, a line each: name, Grit, Physical / Finesse, items."""
    lines = [
        f"**{name_text(t.name)}** · Grit {t.max_grit} · Physical {_signed(t.physical)} · "
        f"Finesse {_signed(t.finesse)} · {len(t.items)} item{'s' * (len(t.items) != 1)}"
        for t in templates
    ]
    text = "\n".join(lines) or "None yet: `/npc create name`."
    if len(text) > 4096:  # 100 templates of long names: the embed's description limit
        text = text[:4095] + "…"
    return discord.Embed(
        title="NPC templates on this server", description=text, colour=TEMPLATE_COLOUR
    )
