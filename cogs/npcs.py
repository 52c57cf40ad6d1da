"""/npc: a server's NPC templates, their stats and loadouts (GM only) [COMMANDS.md, GAME.md §9].

A template is a sheet the GM keeps for the server: `/init add name:Goblin count:3` brings
its stats and a copy of its loadout to each Goblin (stats typed with /init add win).
Only a GM sees or changes templates — the GM of this channel's encounter, anyone with
Manage Channels, or the server's GM role — and every answer is private: a template may
be the secret of a hidden NPC.
"""

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import loadouts, options
from bot.character_fields import FIELD_LABELS
from bot.errors import BadInput, NotFound, RuleViolation
from bot.i18n import N_, _
from bot.permissions import is_gm_here, require_gm_here
from bot.power_options import HELP as POWER_HELP
from bot.power_options import (
    BuiltKind,
    Components,
    Level,
    PowerName,
    Trigger,
    catalogue_entry,
    catalogue_power_choices,
    trigger_choices,
)
from bot.render.characters import defense_text
from bot.render.known_powers import power_line, powers_embed
from bot.render.loadout import loadout_reply, stowed_text
from bot.render.npcs import npc_list, npc_sheet
from bot.render.text import name_text
from bot.rules.grit import require_grit_within
from bot.rules.loadout import check_weapon, stow, unstow
from bot.rules.models import (
    DEFAULT_MAX_GRIT,
    MAX_NAME_LENGTH,
    MAX_TAGS,
    Armor,
    DefaultDefense,
    Item,
    KnownPower,
    NpcTemplate,
    RangeKind,
    Shield,
    UseLimit,
    Weapon,
)
from bot.rules.names import clean_name
from bot.rules.powers import built_power, catalogue_power, find_power, learn
from bot.table import name_choices

if TYPE_CHECKING:
    from bot.app import Tablehand

MAX_TEMPLATES = 100  # per server [bot]
NPC_HELP = "The NPC template"
STATS_HELP = {
    "tags": "Comma-separated tags, e.g. Undead, Stealth (none clears them)",
    "default_defense": "Used when the defender does not choose in time",
    **options.STAT_HELP,
}


def template_name(text: str) -> str:
    """Return a template's name, trimmed, or refuse an empty or overlong one."""
    name = clean_name(text)
    if not name:
        raise BadInput("An NPC template needs a name.")
    if len(name) > MAX_NAME_LENGTH:
        raise BadInput("A template's name has at most {most} characters.", most=MAX_NAME_LENGTH)
    return name


def tag_list(text: str) -> list[str]:
    """Read comma-separated tags, or refuse too many or too long ones."""
    tags = [tag.strip() for tag in text.split(",") if tag.strip()]
    if len(tags) > MAX_TAGS or any(len(tag) > MAX_NAME_LENGTH for tag in tags):
        raise BadInput(
            "Tags: at most {most}, each at most {length} characters.",
            most=MAX_TAGS,
            length=MAX_NAME_LENGTH,
        )
    return tags


def stat_fields(typed: dict[str, Any]) -> dict[str, Any]:
    """Return the stats typed (None: not typed), tags read from their text."""
    given = {field: value for field, value in typed.items() if value is not None}
    if "tags" in given:
        cleared = given["tags"].strip().casefold() in ("none", "-")
        given["tags"] = [] if cleared else tag_list(given["tags"])
    return given


async def template_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Autocomplete the server's template names, for a GM only (templates are secrets)."""
    bot: Tablehand = interaction.client  # type: ignore[assignment]
    if not await is_gm_here(interaction):
        return []
    found = await bot.store.list_npcs(interaction.guild_id or 0)
    return name_choices([t.name for t in found], current)


async def template_item_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Autocomplete the items of the template named in `npc`, for a GM only."""
    bot: Tablehand = interaction.client  # type: ignore[assignment]
    named = getattr(interaction.namespace, "npc", None)
    if not named or not await is_gm_here(interaction):
        return []
    found = await bot.store.get_npc(interaction.guild_id or 0, str(named))
    return name_choices([i.name for i in found.items] if found else [], current)


async def require_template_gm(interaction: discord.Interaction) -> None:
    """Refuse anyone but a GM: of this channel's encounter, with Manage Channels, or the GM role."""
    await require_gm_here(
        interaction,
        N_("manage NPC templates (a GM by /init start here, Manage Channels or the GM role)"),
    )


def value_text(field: str, value: Any) -> str:
    """Return a changed template value as a reply says it: "block" read, tags listed."""
    if field == "default_defense":
        return defense_text(value)
    if isinstance(value, list):
        return ", ".join(value) or _("none")
    return str(value)


@app_commands.guild_only()
class Npcs(commands.GroupCog, group_name="npc", group_description="NPC templates (GM)"):
    """Create, show, edit, list and delete the server's NPC templates and their loadouts."""

    def __init__(self, bot: "Tablehand") -> None:
        self.bot = bot
        super().__init__()

    @staticmethod
    async def _gm(interaction: discord.Interaction) -> int:
        """Return the server's id once the caller is known to be a GM here."""
        if interaction.guild_id is None:
            raise BadInput("NPC templates belong to a server: use /npc in a server channel.")
        await require_template_gm(interaction)
        return interaction.guild_id

    async def _reply(self, interaction: discord.Interaction, text: str) -> None:
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="create", description="Create an NPC template for this server")
    @app_commands.describe(name=f"Unique on this server, at most {MAX_NAME_LENGTH} characters")
    @app_commands.describe(**STATS_HELP)
    async def create(
        self,
        interaction: discord.Interaction,
        name: options.Name,
        physical: options.Physical = 0,
        finesse: options.Finesse = 0,
        grit: options.Grit | None = None,
        max_grit: options.MaxGrit = DEFAULT_MAX_GRIT,
        risk: options.Risk = 0,
        initiative_bonus: options.InitiativeBonus = 0,
        mastery_rank: options.MasteryRank = 1,
        crit_range: options.CritRange = 1,
        tags: app_commands.Range[str, 0, 200] | None = None,
        default_defense: DefaultDefense = "auto",
    ) -> None:
        guild_id = await self._gm(interaction)
        if grit is not None:
            require_grit_within(grit, max_grit)
        if len(await self.bot.store.list_npcs(guild_id)) >= MAX_TEMPLATES:
            raise RuleViolation(
                "This server has {most} NPC templates; delete one first.", most=MAX_TEMPLATES
            )
        template = NpcTemplate(
            guild_id=guild_id,
            name=template_name(name),
            physical=physical,
            finesse=finesse,
            grit=max_grit if grit is None else grit,
            max_grit=max_grit,
            risk=risk,
            initiative_bonus=initiative_bonus,
            mastery_rank=mastery_rank,
            crit_range=crit_range,
            tags=tag_list(tags or ""),
            default_defense=default_defense,
        )
        created = await self.bot.store.create_npc(template)
        await interaction.response.send_message(
            _(
                "Created the NPC template **{name}**: `/init add name:{typed}` brings it.",
                name=name_text(created.name),
                typed=created.name,
            ),
            embed=npc_sheet(created),
            ephemeral=True,
        )

    @app_commands.command(name="show", description="Show an NPC template (only to you)")
    @app_commands.describe(name=NPC_HELP)
    @app_commands.autocomplete(name=template_choices)
    async def show(self, interaction: discord.Interaction, name: options.Name) -> None:
        async with self.bot.store.npc(await self._gm(interaction), name) as npc:
            template = npc.template
        await interaction.response.send_message(embed=npc_sheet(template), ephemeral=True)

    @app_commands.command(name="edit", description="Change an NPC template's name or stats")
    @app_commands.describe(name=NPC_HELP, rename="A new name", **STATS_HELP)
    @app_commands.autocomplete(name=template_choices)
    async def edit(
        self,
        interaction: discord.Interaction,
        name: options.Name,
        rename: options.Name | None = None,
        physical: options.Physical | None = None,
        finesse: options.Finesse | None = None,
        grit: options.Grit | None = None,
        max_grit: options.MaxGrit | None = None,
        risk: options.Risk | None = None,
        initiative_bonus: options.InitiativeBonus | None = None,
        mastery_rank: options.MasteryRank | None = None,
        crit_range: options.CritRange | None = None,
        tags: app_commands.Range[str, 0, 200] | None = None,
        default_defense: DefaultDefense | None = None,
    ) -> None:
        changes = stat_fields(
            {
                "physical": physical,
                "finesse": finesse,
                "grit": grit,
                "max_grit": max_grit,
                "risk": risk,
                "initiative_bonus": initiative_bonus,
                "mastery_rank": mastery_rank,
                "crit_range": crit_range,
                "tags": tags,
                "default_defense": default_defense,
            }
        )
        if rename is not None:
            changes["name"] = template_name(rename)
        if not changes:
            raise BadInput("Give at least one thing to change (rename, a stat, tags …).")
        async with self.bot.store.npc(await self._gm(interaction), name) as npc:
            template = npc.template
            require_grit_within(
                changes.get("grit", template.grit), changes.get("max_grit", template.max_grit)
            )
            for field, value in changes.items():
                setattr(template, field, value)
        listed = ", ".join(
            _("{field} {value}", field=_(FIELD_LABELS.get(f, f)), value=value_text(f, value))
            for f, value in changes.items()
        )
        await self._reply(
            interaction, _("**{name}**: {changes}.", name=name_text(template.name), changes=listed)
        )

    @app_commands.command(name="list", description="List this server's NPC templates")
    async def list(self, interaction: discord.Interaction) -> None:
        found = await self.bot.store.list_npcs(await self._gm(interaction))
        await interaction.response.send_message(embed=npc_list(found), ephemeral=True)

    @app_commands.command(name="delete", description="Delete an NPC template")
    @app_commands.describe(name=NPC_HELP)
    @app_commands.autocomplete(name=template_choices)
    async def delete(self, interaction: discord.Interaction, name: options.Name) -> None:
        async with self.bot.store.npc(await self._gm(interaction), name) as npc:
            npc.delete()
        gone = name_text(npc.template.name)
        await self._reply(interaction, _("The NPC template **{name}** is deleted.", name=gone))

    # The loadout ----------------------------------------------------------------------

    weapon = app_commands.Group(
        name="weapon", description="Weapons (and armor, shields) of a template"
    )

    async def _stow(self, interaction: discord.Interaction, npc_name: str, item: Item) -> None:
        async with self.bot.store.npc(await self._gm(interaction), npc_name) as npc:
            stowed = stow(npc.template.items, item)
        await self._reply(interaction, stowed_text(npc.template.name, stowed))

    @weapon.command(
        name="add", description="Add a weapon to an NPC template (a name it has: changed)"
    )
    @app_commands.rename(range_kind="range")
    @app_commands.describe(npc=NPC_HELP, **loadouts.WEAPON_HELP)
    @app_commands.autocomplete(npc=template_choices)
    async def weapon_add(
        self,
        interaction: discord.Interaction,
        npc: options.Name,
        name: loadouts.ItemName,
        damage: loadouts.Damage,
        style: loadouts.ArmedStyle = "melee",
        base_risk: loadouts.BaseRisk = 1,
        penetration: loadouts.Penetration | None = None,
        weight: loadouts.Weight | None = None,
        range_kind: RangeKind | None = None,
        reach: loadouts.Reach = 1,
        braced: bool = False,
    ) -> None:
        weapon = loadouts.built(
            Weapon,
            name=name,
            damage=damage,
            style=style,
            base_risk=base_risk,
            penetration=penetration,
            weight=weight,
            range_kind=range_kind,
            reach=reach,
            braced=braced,
        )
        check_weapon(weapon)
        await self._stow(interaction, npc, weapon)

    @weapon.command(name="list", description="List an NPC template's weapons, armor and shield")
    @app_commands.describe(npc=NPC_HELP)
    @app_commands.autocomplete(npc=template_choices)
    async def weapon_list(self, interaction: discord.Interaction, npc: options.Name) -> None:
        async with self.bot.store.npc(await self._gm(interaction), npc) as held:
            template = held.template
        await self._reply(interaction, loadout_reply(template.name, template.items))

    @weapon.command(name="remove", description="Take a weapon, armor or shield off an NPC template")
    @app_commands.describe(npc=NPC_HELP, name=loadouts.ITEM_HELP)
    @app_commands.autocomplete(npc=template_choices, name=template_item_choices)
    async def weapon_remove(
        self, interaction: discord.Interaction, npc: options.Name, name: loadouts.ItemName
    ) -> None:
        async with self.bot.store.npc(await self._gm(interaction), npc) as held:
            removed = unstow(held.template.items, name)
        owner = name_text(held.template.name)
        await self._reply(
            interaction,
            _(
                "**{name}** no longer carries **{item}**.",
                name=owner,
                item=name_text(removed.name),
            ),
        )

    @app_commands.command(name="armor", description="Put armor on an NPC template (replaces any)")
    @app_commands.describe(npc=NPC_HELP, **loadouts.ARMOR_HELP)
    @app_commands.autocomplete(npc=template_choices)
    async def armor(
        self,
        interaction: discord.Interaction,
        npc: options.Name,
        name: loadouts.ItemName,
        absorb: loadouts.ItemNumber = 0,
        crit_guard: app_commands.Range[int, 0, 10] = 0,
    ) -> None:
        armor = loadouts.built(Armor, name=name, absorb=absorb, crit_guard=crit_guard)
        await self._stow(interaction, npc, armor)

    @app_commands.command(name="shield", description="Give an NPC template a shield (replaces any)")
    @app_commands.describe(npc=NPC_HELP, **loadouts.SHIELD_HELP)
    @app_commands.autocomplete(npc=template_choices)
    async def shield(
        self,
        interaction: discord.Interaction,
        npc: options.Name,
        name: loadouts.ItemName,
        block: loadouts.ItemNumber = 0,
        guard: loadouts.ItemNumber = 0,
        durability: loadouts.Durability | None = None,
    ) -> None:
        shield = loadouts.built(Shield, name=name, block=block, guard=guard, durability=durability)
        await self._stow(interaction, npc, shield)

    # Powers: as on a character's sheet, with a GM's say over the curve [GAME.md §9] ------

    power = app_commands.Group(name="power", description="Powers of a template")

    async def _learn(self, interaction: discord.Interaction, npc: str, power: KnownPower) -> None:
        async with self.bot.store.npc(await self._gm(interaction), npc) as held:
            template = held.template
            power = learn(self.bot.catalogue, template.powers, power, template.mastery_rank)
        await self._reply(
            interaction,
            _(
                "**{name}** has a new power:\n{power}",
                name=name_text(template.name),
                power=power_line(power),
            ),
        )

    @power.command(name="add", description="Add a catalogue power to an NPC template")
    @app_commands.describe(npc=NPC_HELP, name="A catalogue power", **POWER_HELP)
    @app_commands.autocomplete(
        npc=template_choices, name=catalogue_power_choices, trigger=trigger_choices
    )
    async def power_add(
        self,
        interaction: discord.Interaction,
        npc: options.Name,
        name: PowerName,
        level: Level = 1,
        limit: UseLimit | None = None,
        trigger: Trigger | None = None,
        spell: bool = False,
    ) -> None:
        entry = catalogue_entry(self.bot, name)
        known = catalogue_power(
            self.bot.catalogue, entry, level, limit=limit, trigger=trigger, spell=spell
        )
        await self._learn(interaction, npc, known)

    @power.command(name="build", description="Save a custom power on an NPC template")
    @app_commands.describe(
        npc=NPC_HELP,
        name="The power's name",
        power_type="Active, Active Buff, Reaction or Passive",
        components="e.g. damage:2d8 range:16 ruin:2",
        over_curve="Allow it over its curve",
        **POWER_HELP,
    )
    @app_commands.rename(power_type="type")
    @app_commands.autocomplete(npc=template_choices, trigger=trigger_choices)
    async def power_build(
        self,
        interaction: discord.Interaction,
        npc: options.Name,
        name: PowerName,
        power_type: BuiltKind,
        level: Level,
        components: Components,
        limit: UseLimit | None = None,
        trigger: Trigger | None = None,
        spell: bool = False,
        over_curve: bool = False,
    ) -> None:
        built = built_power(
            self.bot.catalogue,
            name,
            power_type,
            level,
            components,
            limit=limit,
            trigger=trigger,
            spell=spell,
            allow_over_curve=over_curve,  # only a GM gets here: the GM's say
        )
        await self._learn(interaction, npc, built.power)

    @power.command(name="list", description="An NPC template's powers")
    @app_commands.describe(npc=NPC_HELP)
    @app_commands.autocomplete(npc=template_choices)
    async def power_list(self, interaction: discord.Interaction, npc: options.Name) -> None:
        async with self.bot.store.npc(await self._gm(interaction), npc) as held:
            template = held.template
        await interaction.response.send_message(
            embed=powers_embed(template.name, template.powers), ephemeral=True
        )

    @power.command(name="remove", description="Take a power off an NPC template")
    @app_commands.describe(npc=NPC_HELP, name="The power to remove")
    @app_commands.autocomplete(npc=template_choices)
    async def power_remove(
        self, interaction: discord.Interaction, npc: options.Name, name: PowerName
    ) -> None:
        async with self.bot.store.npc(await self._gm(interaction), npc) as held:
            template = held.template
            found = find_power(template.powers, name)
            if found is None:
                raise NotFound(
                    "{name} has no power named {power!r}.",
                    name=template.name,
                    power=clean_name(name),
                )
            template.powers = [p for p in template.powers if p is not found]
        await self._reply(
            interaction,
            _(
                "**{name}** no longer has {power}.",
                name=name_text(template.name),
                power=name_text(found.name),
            ),
        )


async def setup(bot: "Tablehand") -> None:
    await bot.add_cog(Npcs(bot))
