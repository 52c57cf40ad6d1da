"""NPC templates as embeds: one template's sheet, and the server's list [GAME.md §9]."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.i18n import _, n_
from bot.render.characters import add_stats
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
        title=_("{name} (NPC template)", name=name_text(template.name)),
        description=_(
            "`/init add name:{name}` brings it; stats typed there win.", name=template.name
        ),
        colour=TEMPLATE_COLOUR,
    )
    embed.add_field(name="Grit", value=f"{template.grit}/{template.max_grit}")
    add_stats(embed, template)
    if template.tags:
        embed.add_field(name=_("Tags"), value=name_text(", ".join(template.tags)))
    add_loadout(embed, template.items)
    if template.powers:
        embed.add_field(name=_("Powers"), value=powers_text(template.powers), inline=False)
    return embed


def npc_list(templates: Sequence[NpcTemplate]) -> discord.Embed:
    """Render the server's templates, a line each: name, Grit, Physical / Finesse, items."""
    lines = [
        n_(
            "**{name}** · Grit {grit} · Physical {physical} · Finesse {finesse} · {n} item",
            "**{name}** · Grit {grit} · Physical {physical} · Finesse {finesse} · {n} items",
            len(t.items),
            name=name_text(t.name),
            grit=t.max_grit,
            physical=_signed(t.physical),
            finesse=_signed(t.finesse),
        )
        for t in templates
    ]
    text = "\n".join(lines) or _("None yet: `/npc create name`.")
    if len(text) > 4096:  # 100 templates of long names: the embed's description limit
        text = text[:4095] + "…"
    return discord.Embed(
        title=_("NPC templates on this server"), description=text, colour=TEMPLATE_COLOUR
    )
