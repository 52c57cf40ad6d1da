"""/character: each player's characters on a server, reused across fights [GAME.md §1].

`/character create` with no options, and `/character edit` without a field, open a form
(a Discord modal); typed options create or change a sheet at once, for those who prefer.

A character belongs to one player on one server; nobody else can show, edit, use or
delete it. `/init join` plays the active character: the fight holds the sheet and plays
a copy, and its Grit is written back to the sheet when the character leaves or the
fight ends. While the fight holds it, changes to the sheet's Grit are refused (the
fight's Grit is the live one); other edits apply to the next fight. An edit writes only
the fields it changes (the store's `sheet` block), so it never undoes a write-back.
"""

import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import loadouts, options, sheet_files
from bot.character_fields import (
    FORM_BOXES,
    GRIT_FIELDS,
    MORE_FIELDS,
    NAME_MAX,
    NEW_SHEET_MORE,
    EditableField,
    change_line,
    character_name,
    more_text,
    parse_field,
    parse_grit,
    parse_more,
)
from bot.errors import BadInput, NotFound, RuleViolation
from bot.i18n import N_, _, speaking
from bot.i18n.commands import speak_for
from bot.permissions import is_gm_here
from bot.power_options import (
    BuiltKind,
    catalogue_entry,
    catalogue_power_choices,
    trigger_choices,
)
from bot.power_requests import PowerRequest, PowerRequestButton, request_message
from bot.render.characters import character_list, character_sheet
from bot.render.grit import grit_change_text
from bot.render.known_powers import power_line, powers_embed
from bot.render.loadout import loadout_reply, stowed_text
from bot.render.text import name_text
from bot.replies import report_error
from bot.rules.grit import GritChange, change_grit, require_grit_within, starting_grit
from bot.rules.loadout import check_weapon, stow, unstow
from bot.rules.models import (
    Armor,
    Character,
    Item,
    KnownPower,
    RangeKind,
    Shield,
    Stats,
    UseLimit,
    Weapon,
)
from bot.rules.names import clean_name
from bot.rules.powers import built_power, catalogue_power, find_power, learn
from bot.sheets import (
    character_choices,
    fight_holding,
    find_own,
    no_active_character,
    own_named,
    own_sheet,
    refuse_in_fight,
)
from bot.store import SheetState, Store
from bot.table import channel_language, name_choices
from bot.views import ConfirmButton, confirm_template

if TYPE_CHECKING:
    from bot.app import Tablehand

CHARACTER_HELP = "Your character (default: active)"
MAX_CHARACTERS = 25  # per player per server: one autocomplete page [bot]


class DeleteConfirm(ConfirmButton, template=confirm_template("delete_character")):
    """Confirm of /character delete: the sheet is gone for good."""

    what = "delete_character"
    cancelled = N_("Nothing was deleted.")

    async def confirmed(self, interaction: discord.Interaction) -> None:
        store: Store = interaction.client.store  # type: ignore[attr-defined]
        user_id = interaction.user.id
        character = await store.character_by_id(int(self.ref or 0))
        if (
            character is None
            or character.owner_id != user_id
            or character.guild_id != interaction.guild_id
        ):
            await interaction.response.edit_message(
                content=_("That character is already gone."), view=None
            )
            return
        assert character.id is not None
        async with store.sheet(character.id) as sheet:
            sheet.delete()  # refused while a fight holds the character
        text = _("**{name}** is deleted.", name=name_text(character.name))
        if await store.active_character(character.guild_id, user_id) is None:
            # The active one is gone: another becomes active, so /init join keeps working.
            left = await store.list_characters(character.guild_id, user_id)
            if left:
                assert left[0].id is not None
                await store.set_active_character(character.guild_id, user_id, left[0].id)
                text = _(
                    "**{name}** is deleted. **{active}** is your active character now.",
                    name=name_text(character.name),
                    active=name_text(left[0].name),
                )
        await interaction.response.edit_message(content=text, view=None)


class CharacterForm(discord.ui.Modal):
    """/character create or edit as a form, filled in with the sheet's current values."""

    def __init__(self, cog: "Characters", character: Character | None) -> None:
        editing = character is not None
        title = _("Edit {name}", name=character.name) if character else _("New character")
        super().__init__(title=title[:45])  # a modal's title: 45 characters [Discord]
        self.cog = cog
        self.character_id = character.id if character else None
        sheet: Stats = character if character is not None else Stats()
        more = MORE_FIELDS if editing else NEW_SHEET_MORE
        self.allowed = more
        # The sheet as the form shows it: a submit changes only what the player changed
        # here, never a field the sheet has changed in since (a fight's Grit written back).
        self.shown = {f: getattr(character, f) for f in (*FORM_BOXES, *more)} if character else {}
        boxes = (
            ("name", _("Name"), character.name if character else None, NAME_MAX),
            ("physical", _("Physical"), str(sheet.physical), 4),
            ("finesse", _("Finesse"), str(sheet.finesse), 4),
            ("grit", _("Grit: current/max"), f"{sheet.grit}/{sheet.max_grit}", 7),
        )
        for custom_id, label, default, length in boxes:
            self.add_item(
                discord.ui.TextInput(
                    label=label, custom_id=custom_id, default=default, max_length=length
                )
            )
        self.add_item(
            discord.ui.TextInput(
                label=_("More: one field: value a line"),
                custom_id="more",
                style=discord.TextStyle.paragraph,
                default=more_text(sheet, more),
                required=False,
                max_length=1000,
            )
        )

    def values(self, current_max: int | None) -> dict[str, Any]:
        """Return the form's fields, each read as its field's type (or refuse in one line)."""
        typed = {item.custom_id: item.value for item in self.children}  # type: ignore[attr-defined]
        grit, max_grit = parse_grit(typed["grit"], current_max)
        return {
            "name": character_name(typed["name"]),
            "physical": parse_field("physical", typed["physical"]),
            "finesse": parse_field("finesse", typed["finesse"]),
            "grit": grit,
            "max_grit": max_grit,
            **parse_more(typed["more"] or "", self.allowed),
        }

    async def on_submit(self, interaction: discord.Interaction) -> None:
        speak_for(interaction)  # the submit's task speaks its user's language
        if self.character_id is None:
            await self.cog.create_sheet(interaction, self.values(None))
        else:
            await self.cog.edit_sheet(interaction, self.character_id, self)

    def changed(self) -> dict[str, Any]:
        """Return the fields the player changed in the form, each read as its field's type."""
        fields = self.values(self.shown.get("max_grit"))
        return {f: v for f, v in fields.items() if self.shown.get(f) != v}

    async def on_error(self, interaction: discord.Interaction, error: Exception, /) -> None:
        await report_error(interaction, error)


@app_commands.guild_only()
class Characters(
    commands.GroupCog, group_name="character", group_description="Your characters on this server"
):
    """Create, show, edit, use, list and delete your characters."""

    def __init__(self, bot: "Tablehand") -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(DeleteConfirm, PowerRequestButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(DeleteConfirm)

    @property
    def store(self) -> Store:
        return self.bot.store

    def _mention(self, command: str, guild_id: int) -> str:
        """Return a clickable mention of a command (plain `/command` when its id is unknown)."""
        return self.bot.help.mention(command, guild_id)

    @staticmethod
    def _owner(interaction: discord.Interaction) -> tuple[int, int]:
        if interaction.guild_id is None:
            raise BadInput("Characters belong to a server: use /character in a server channel.")
        return interaction.guild_id, interaction.user.id

    @app_commands.command(
        name="create", description="Create a character (leave every option out to fill in a form)"
    )
    @app_commands.describe(
        name=f"Unique among your characters here, at most {NAME_MAX} characters",
        **options.STAT_HELP_OF_SHEET,
    )
    async def create(
        self,
        interaction: discord.Interaction,
        name: options.Name | None = None,
        physical: options.Physical = 0,
        finesse: options.Finesse = 0,
        grit: options.Grit | None = None,
        max_grit: options.MaxGrit | None = None,
        risk: options.Risk = 0,
        initiative_bonus: options.InitiativeBonus = 0,
        mastery_rank: options.MasteryRank = 1,
    ) -> None:
        self._owner(interaction)
        if name is None:
            if any(True for _ in interaction.namespace):
                raise BadInput(
                    "A new character needs a name (or leave every option out for a form)."
                )
            await interaction.response.send_modal(CharacterForm(self, None))
            return
        grit, max_grit = starting_grit(grit, max_grit)
        fields = {
            "name": character_name(name),
            "physical": physical,
            "finesse": finesse,
            "grit": grit,
            "max_grit": max_grit,
            "risk": risk,
            "initiative_bonus": initiative_bonus,
            "mastery_rank": mastery_rank,
        }
        await self.create_sheet(interaction, fields)

    async def create_sheet(self, interaction: discord.Interaction, fields: dict[str, Any]) -> None:
        """Create the caller's character from checked fields; the first one becomes active."""
        guild_id, owner_id = self._owner(interaction)
        require_grit_within(fields["grit"], fields["max_grit"])
        existing = await own_named(self.store, guild_id, owner_id, fields["name"])
        if existing is not None:
            raise BadInput("You already have a character named {name}.", name=existing.name)
        if len(await self.store.list_characters(guild_id, owner_id)) >= MAX_CHARACTERS:
            raise RuleViolation(
                "You have {most} characters on this server, the most allowed; delete one first.",
                most=MAX_CHARACTERS,
            )
        character = await self.store.create_character(
            Character(guild_id=guild_id, owner_id=owner_id, **fields)
        )
        assert character.id is not None
        # The first character (or the first after the active one was deleted) becomes active.
        active = await self.store.active_character(guild_id, owner_id)
        if active is None:
            await self.store.set_active_character(guild_id, owner_id, character.id)
            text = _(
                "Created **{name}**. It is your active character: {join} plays it.",
                name=name_text(character.name),
                join=self._mention("init join", guild_id),
            )
        else:
            text = _(
                "Created **{name}**. Your active character is still {active} ({use} changes it).",
                name=name_text(character.name),
                active=name_text(active.name),
                use=self._mention("character use", guild_id),
            )
        await interaction.response.send_message(
            text,
            embed=character_sheet(character, active=active is None),
            ephemeral=True,
        )

    @app_commands.command(name="show", description="Show one of your characters (only to you)")
    @app_commands.describe(name="Your character (default: your active one)")
    @app_commands.autocomplete(name=character_choices)
    async def show(self, interaction: discord.Interaction, name: str | None = None) -> None:
        guild_id, owner_id = self._owner(interaction)
        active = await self.store.active_character(guild_id, owner_id)
        if name:
            character = await find_own(self.store, guild_id, owner_id, name)
        elif active is not None:
            character = active
        else:
            raise await no_active_character(self.store, guild_id, owner_id, "name")
        assert character.id is not None
        fight = await fight_holding(self.store, character.id)
        await interaction.response.send_message(
            embed=character_sheet(
                character,
                active=active is not None and active.id == character.id,
                fight_channel_id=fight,
            ),
            ephemeral=True,
        )

    @app_commands.command(
        name="edit", description="Change your character (leave field out to edit it in a form)"
    )
    @app_commands.describe(
        name="Your character (default: your active one)",
        field="What to change (leave it out to edit every field in a form)",
        value="The new value: a whole number, a name, comma-separated tags, or none to clear",
    )
    @app_commands.autocomplete(name=character_choices)
    async def edit(
        self,
        interaction: discord.Interaction,
        name: str | None = None,
        field: EditableField | None = None,
        value: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        guild_id, owner_id = self._owner(interaction)
        if field is None and value is None:
            character = await self._named_or_active(guild_id, owner_id, name)
            await interaction.response.send_modal(CharacterForm(self, character))
            return
        if field is None or value is None:
            raise BadInput("Give both field and value, or leave both out to edit in a form.")
        new = parse_field(field, value)  # before any look-up: a bad value changes nothing
        name = name or (await self._named_or_active(guild_id, owner_id, None)).name
        async with own_sheet(self.store, guild_id, owner_id, name) as sheet:
            character = sheet.character
            old = getattr(character, field)
            change = await self._change(sheet, {field: new}, guild_id, owner_id)
        if change is not None:
            # A Grit change is the table's business: announced like /grit, in its language.
            with speaking(await channel_language(interaction)):
                text = grit_change_text(change, gm_view=True)
            await interaction.response.send_message(text)
            return
        await interaction.response.send_message(
            _(
                "**{name}**: {change}.",
                name=name_text(character.name),
                change=change_line(field, old, new),
            ),
            ephemeral=True,
        )

    async def _named_or_active(self, guild_id: int, owner_id: int, name: str | None) -> Character:
        """Return the caller's named character, else their active one, or refuse."""
        if name:
            return await find_own(self.store, guild_id, owner_id, name)
        active = await self.store.active_character(guild_id, owner_id)
        if active is None:
            raise await no_active_character(self.store, guild_id, owner_id, "name")
        return active

    async def _change(
        self, sheet: SheetState, changed: dict[str, Any], guild_id: int, owner_id: int
    ) -> GritChange | None:
        """Apply checked field values to a held sheet; return the Grit change, if any."""
        character = sheet.character
        if any(field in GRIT_FIELDS for field in changed):
            sheet.require_own_grit()
            if "grit" in changed:
                require_grit_within(changed["grit"], changed.get("max_grit", character.max_grit))
        if "name" in changed:
            clash = await own_named(self.store, guild_id, owner_id, changed["name"])
            if clash is not None and clash.id != character.id:
                raise BadInput("You already have a character named {name}.", name=clash.name)
        for field, new in changed.items():
            if field not in GRIT_FIELDS:
                setattr(character, field, new)
        if not any(field in GRIT_FIELDS for field in changed):
            return None
        return change_grit(character, set_to=changed.get("grit"), max_grit=changed.get("max_grit"))

    async def edit_sheet(
        self, interaction: discord.Interaction, character_id: int, form: CharacterForm
    ) -> None:
        """Apply a submitted form to the caller's sheet: every field that changed, at once."""
        guild_id, owner_id = self._owner(interaction)
        current = await self.store.character_by_id(character_id)
        if current is None or (current.guild_id, current.owner_id) != (guild_id, owner_id):
            raise NotFound("That character is gone.")
        changed = form.changed()
        async with self.store.sheet(character_id) as sheet:
            character = sheet.character
            changed = {f: v for f, v in changed.items() if getattr(character, f) != v}
            before = {f: getattr(character, f) for f in changed}
            change = await self._change(sheet, changed, guild_id, owner_id)
        name = name_text(character.name)
        lines = [change_line(f, before[f], v) for f, v in changed.items() if f not in GRIT_FIELDS]
        if change is None:
            text = (
                _("**{name}**: {change}.", name=name, change="; ".join(lines))
                if lines
                else _("**{name}**: nothing changed.", name=name)
            )
            await interaction.response.send_message(text, ephemeral=True)
            return
        with speaking(await channel_language(interaction)):  # the table's business
            told = grit_change_text(change, gm_view=True)
        await interaction.response.send_message(told)
        if lines:
            summary = _("**{name}**: {change}.", name=name, change="; ".join(lines))
            await interaction.followup.send(summary, ephemeral=True)

    @app_commands.command(name="use", description="Make a character your active one")
    @app_commands.describe(name="Your character that /init join plays from now on")
    @app_commands.autocomplete(name=character_choices)
    async def use(self, interaction: discord.Interaction, name: str) -> None:
        guild_id, owner_id = self._owner(interaction)
        character = await find_own(self.store, guild_id, owner_id, name)
        assert character.id is not None
        await self.store.set_active_character(guild_id, owner_id, character.id)
        await interaction.response.send_message(
            _(
                "**{name}** is your active character: {join} plays it.",
                name=name_text(character.name),
                join=self._mention("init join", guild_id),
            ),
            ephemeral=True,
        )

    @app_commands.command(name="list", description="List your characters on this server")
    async def list(self, interaction: discord.Interaction) -> None:
        guild_id, owner_id = self._owner(interaction)
        characters = await self.store.list_characters(guild_id, owner_id)
        active = await self.store.active_character(guild_id, owner_id)
        await interaction.response.send_message(
            embed=character_list(characters, active.id if active else None), ephemeral=True
        )

    @app_commands.command(name="delete", description="Delete one of your characters (asks first)")
    @app_commands.describe(name="Your character to delete for good")
    @app_commands.autocomplete(name=character_choices)
    async def delete(self, interaction: discord.Interaction, name: str) -> None:
        guild_id, owner_id = self._owner(interaction)
        character = await find_own(self.store, guild_id, owner_id, name)
        assert character.id is not None
        await refuse_in_fight(self.store, character, N_("delete them"))
        await interaction.response.send_message(
            _("Delete **{name}** for good?", name=name_text(character.name)),
            view=DeleteConfirm.view(owner_id, str(character.id)),
            ephemeral=True,
        )

    # The loadout: weapons, armor and a shield on the sheet [GAME.md §9] -------------------

    weapon = app_commands.Group(name="weapon", description="Your loadout: weapons, armor, shield")

    async def _loadout(
        self, interaction: discord.Interaction, character: str | None
    ) -> tuple[int, int, str]:
        """Return the caller's server, id and the named (or active) character's name."""
        guild_id, owner_id = self._owner(interaction)
        return guild_id, owner_id, (await self._named_or_active(guild_id, owner_id, character)).name

    async def _stow(
        self, interaction: discord.Interaction, character: str | None, item: Item
    ) -> None:
        """Add an item to the caller's sheet (same name, worn armor, held shield: replaced)."""
        guild_id, owner_id, name = await self._loadout(interaction, character)
        async with own_sheet(self.store, guild_id, owner_id, name) as sheet:
            stowed = stow(sheet.character.items, item)
            text = stowed_text(sheet.character.name, stowed) + _next_fight(sheet.fight_channel)
        await interaction.response.send_message(text, ephemeral=True)

    @weapon.command(name="add", description="Add or change a weapon")
    @app_commands.rename(range_kind="range")
    @app_commands.describe(**loadouts.WEAPON_HELP, character=CHARACTER_HELP)
    @app_commands.autocomplete(character=character_choices)
    async def weapon_add(
        self,
        interaction: discord.Interaction,
        name: loadouts.ItemName,
        damage: loadouts.Damage,
        style: loadouts.ArmedStyle = "melee",
        base_risk: loadouts.BaseRisk = 1,
        penetration: loadouts.Penetration | None = None,
        weight: loadouts.Weight | None = None,
        range_kind: RangeKind | None = None,
        reach: loadouts.Reach = 1,
        braced: bool = False,
        character: options.Name | None = None,
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
        check_weapon(weapon)  # before any look-up: a bad weapon changes nothing
        await self._stow(interaction, character, weapon)

    @weapon.command(name="list", description="List your loadout")
    @app_commands.describe(character=CHARACTER_HELP)
    @app_commands.autocomplete(character=character_choices)
    async def weapon_list(
        self, interaction: discord.Interaction, character: options.Name | None = None
    ) -> None:
        guild_id, owner_id, name = await self._loadout(interaction, character)
        sheet = await find_own(self.store, guild_id, owner_id, name)
        await interaction.response.send_message(
            loadout_reply(sheet.name, sheet.items), ephemeral=True
        )

    @weapon.command(name="remove", description="Take off a weapon, armor or shield")
    @app_commands.describe(name=loadouts.ITEM_HELP, character=CHARACTER_HELP)
    @app_commands.autocomplete(name=loadouts.sheet_item_choices, character=character_choices)
    async def weapon_remove(
        self,
        interaction: discord.Interaction,
        name: loadouts.ItemName,
        character: options.Name | None = None,
    ) -> None:
        guild_id, owner_id, own = await self._loadout(interaction, character)
        async with own_sheet(self.store, guild_id, owner_id, own) as sheet:
            removed = unstow(sheet.character.items, name)
            text = _(
                "**{name}** no longer carries **{item}**.",
                name=name_text(sheet.character.name),
                item=name_text(removed.name),
            ) + _next_fight(sheet.fight_channel)
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="armor", description="Wear armor (replaces any)")
    @app_commands.describe(**loadouts.ARMOR_HELP, character=CHARACTER_HELP)
    @app_commands.autocomplete(character=character_choices)
    async def armor(
        self,
        interaction: discord.Interaction,
        name: loadouts.ItemName,
        absorb: loadouts.ItemNumber = 0,
        crit_guard: app_commands.Range[int, 0, 10] = 0,
        character: options.Name | None = None,
    ) -> None:
        armor = loadouts.built(Armor, name=name, absorb=absorb, crit_guard=crit_guard)
        await self._stow(interaction, character, armor)

    @app_commands.command(name="shield", description="Hold a shield (replaces any)")
    @app_commands.describe(**loadouts.SHIELD_HELP, character=CHARACTER_HELP)
    @app_commands.autocomplete(character=character_choices)
    async def shield(
        self,
        interaction: discord.Interaction,
        name: loadouts.ItemName,
        block: loadouts.ItemNumber = 0,
        guard: loadouts.ItemNumber = 0,
        durability: loadouts.Durability | None = None,
        character: options.Name | None = None,
    ) -> None:
        shield = loadouts.built(Shield, name=name, block=block, guard=guard, durability=durability)
        await self._stow(interaction, character, shield)

    # Sheets that travel: a JSON file and back ---------------------------------------------

    @app_commands.command(name="export", description="Your sheet as a file")
    @app_commands.describe(character=CHARACTER_HELP)
    @app_commands.autocomplete(character=character_choices)
    async def export(
        self, interaction: discord.Interaction, character: options.Name | None = None
    ) -> None:
        guild_id, owner_id = self._owner(interaction)
        sheet = await self._named_or_active(guild_id, owner_id, character)
        data = sheet_files.sheet_file(sheet)
        await interaction.response.send_message(
            _(
                "**{name}**'s sheet: {command} reads it back.",
                name=name_text(sheet.name),
                command=self._mention("character import", guild_id),
            ),
            file=discord.File(io.BytesIO(data), filename=sheet_files.file_name(sheet.name)),
            ephemeral=True,
        )

    @app_commands.command(name="import", description="A character from a sheet file")
    @app_commands.describe(
        file="A file from /character export",
        name="A new name (default: the file's)",
    )
    async def import_(
        self,
        interaction: discord.Interaction,
        file: discord.Attachment,
        name: options.Name | None = None,
    ) -> None:
        self._owner(interaction)
        if file.size > sheet_files.MAX_FILE_BYTES:
            raise BadInput(
                "That file is {size} bytes; a sheet is at most {most} KiB.",
                size=file.size,
                most=sheet_files.MAX_FILE_BYTES // 1024,
            )
        fields = sheet_files.read_sheet_file(await file.read())
        if name is not None:
            fields["name"] = character_name(name)
        await self.create_sheet(interaction, fields)

    # /character power ----------------------------------------------------------------

    power = app_commands.Group(name="power", description="Powers on your character's sheet")

    @power.command(
        name="add", description="Add a catalogue power at a level your Mastery Rank allows"
    )
    @app_commands.describe(
        name="A catalogue Active, Active Buff, Reaction, Passive or Movement",
        level="Its level, 1–16 (default 1)",
        limit="Limited use: once per turn, round, combat or day",
        trigger="A Reaction's trigger (default: attack, being attacked)",
        spell="It is a Spell (Hex adds to its hits)",
        character="Your character (default: your active one)",
    )
    @app_commands.autocomplete(
        name=catalogue_power_choices, trigger=trigger_choices, character=character_choices
    )
    async def power_add(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 80],
        level: app_commands.Range[int, 1, 16] = 1,
        limit: UseLimit | None = None,
        trigger: app_commands.Range[str, 1, 40] | None = None,
        spell: bool = False,
        character: str | None = None,
    ) -> None:
        entry = catalogue_entry(self.bot, name)
        power = catalogue_power(
            self.bot.catalogue, entry, level, limit=limit, trigger=trigger, spell=spell
        )
        await self._learn(interaction, character, power)

    @power.command(name="build", description="Save a custom power, priced as /pp price prices it")
    @app_commands.describe(
        name="The power's name",
        power_type="Active, Active Buff, Reaction or Passive",
        level="Its level, 1–16",
        components="e.g. damage:2d8 range:16 radius:3 ruin:2",
        limit="Limited use: once per turn, round, combat or day",
        trigger="A Reaction's trigger (default: attack, being attacked)",
        spell="It is a Spell (Hex adds to its hits)",
        over_curve="Over its curve: a GM adds it, a player asks the GM",
        character="Your character (default: your active one)",
    )
    @app_commands.rename(power_type="type")
    @app_commands.autocomplete(trigger=trigger_choices, character=character_choices)
    async def power_build(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 60],
        power_type: BuiltKind,
        level: app_commands.Range[int, 1, 16],
        components: app_commands.Range[str, 1, 500],
        limit: UseLimit | None = None,
        trigger: app_commands.Range[str, 1, 40] | None = None,
        spell: bool = False,
        over_curve: bool = False,
        character: str | None = None,
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
            allow_over_curve=over_curve,
        )
        if built.power.over_curve and not await is_gm_here(interaction):
            await self._ask_the_gm(interaction, character, built.power)
            return
        await self._learn(interaction, character, built.power)

    @power.command(name="list", description="Your character's powers: type, level and PP")
    @app_commands.describe(character="Your character (default: your active one)")
    @app_commands.autocomplete(character=character_choices)
    async def power_list(
        self, interaction: discord.Interaction, character: str | None = None
    ) -> None:
        guild_id, owner_id = self._owner(interaction)
        sheet = await self._named_or_active(guild_id, owner_id, character)
        await interaction.response.send_message(
            embed=powers_embed(sheet.name, sheet.powers), ephemeral=True
        )

    @power.command(name="remove", description="Take a power off your character's sheet")
    @app_commands.describe(
        name="The power to remove", character="Your character (default: your active one)"
    )
    @app_commands.autocomplete(character=character_choices)
    async def power_remove(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 60],
        character: str | None = None,
    ) -> None:
        guild_id, owner_id = self._owner(interaction)
        found = await self._named_or_active(guild_id, owner_id, character)
        async with own_sheet(self.store, guild_id, owner_id, found.name) as sheet:
            held = sheet.character
            power = find_power(held.powers, name)
            if power is None:
                raise NotFound(
                    "{name} has no power named {power!r}.", name=held.name, power=clean_name(name)
                )
            held.powers = [p for p in held.powers if p is not power]
            fight = sheet.fight_channel
        text = _(
            "**{name}** no longer has {power}.",
            name=name_text(held.name),
            power=name_text(power.name),
        )
        await interaction.response.send_message(text + _next_fight(fight), ephemeral=True)

    @power_remove.autocomplete("name")
    async def _own_power_choices(
        self, interaction: discord.Interaction, current: str
    ) -> "list[app_commands.Choice[str]]":  # quoted: `list` here is the command above
        guild_id, owner_id = interaction.guild_id or 0, interaction.user.id
        named = getattr(interaction.namespace, "character", None)
        sheet = (
            await own_named(self.store, guild_id, owner_id, named)
            if named
            else await self.store.active_character(guild_id, owner_id)
        )
        return name_choices([p.name for p in sheet.powers] if sheet else [], current)

    async def _ask_the_gm(
        self, interaction: discord.Interaction, character: str | None, power: KnownPower
    ) -> None:
        """Post a power over its curve for the GM to allow: checked now, added on Allow."""
        guild_id, owner_id = self._owner(interaction)
        sheet = await self._named_or_active(guild_id, owner_id, character)
        assert sheet.id is not None
        learn(self.bot.catalogue, list(sheet.powers), power, sheet.mastery_rank)  # fits? now
        request = PowerRequest(
            character_id=sheet.id, owner_id=owner_id, character=sheet.name, power=power
        )
        await interaction.response.send_message(  # the channel's to read: its language
            **await request_message(interaction, request),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def _learn(
        self, interaction: discord.Interaction, character: str | None, power: KnownPower
    ) -> None:
        """Add a checked power to the caller's sheet under its lock, and say what it is."""
        guild_id, owner_id = self._owner(interaction)
        found = await self._named_or_active(guild_id, owner_id, character)
        async with own_sheet(self.store, guild_id, owner_id, found.name) as sheet:
            held = sheet.character
            power = learn(self.bot.catalogue, held.powers, power, held.mastery_rank)
            held.powers = list(held.powers)  # a new list: the sheet writes what changed
            fight = sheet.fight_channel
        text = _(
            "**{name}** has a new power:\n{power}",
            name=name_text(held.name),
            power=power_line(power),
        )
        await interaction.response.send_message(text + _next_fight(fight), ephemeral=True)


def _next_fight(fight_channel: int | None) -> str:
    """Say that a fight holding the sheet keeps the loadout it joined with."""
    if fight_channel is None:
        return ""
    channel = f"<#{fight_channel}>"
    return " " + _(
        "The fight in {channel} keeps what they joined with; this is for the next.",
        channel=channel,
    )


async def setup(bot: "Tablehand") -> None:
    await bot.add_cog(Characters(bot))
