"""/character: each player's characters on a server, reused across fights [GAME.md §1].

A character belongs to one player on one server; nobody else can show, edit, use or
delete it. `/init join` plays the active character: the fight takes a copy, and its
Grit is written back to the sheet when the character leaves or the fight ends. While
the fight holds that copy, changes to the sheet's Grit are refused (they would be
overwritten by the write-back); other edits apply to the next fight.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Literal, get_args

import discord
from discord import app_commands
from discord.ext import commands

from bot import options
from bot.errors import BadInput, NotFound, RuleViolation
from bot.render.characters import character_list, character_sheet
from bot.render.grit import grit_change_text
from bot.rules.grit import change_grit
from bot.rules.models import (
    DEFAULT_MAX_GRIT,
    MAX_NAME_LENGTH,
    MAX_TAGS,
    SHEET_BOUNDS,
    Character,
    DefaultDefense,
    Stats,
)
from bot.sheets import (
    SHEET_LOCKS,
    character_choices,
    fight_holding,
    find_own,
    own_sheet,
    refuse_grit_in_fight,
    refuse_in_fight,
)
from bot.store import Store
from bot.views import ConfirmButton, confirm_template

if TYPE_CHECKING:
    from bot.app import Tablehand

NAME_MAX = MAX_NAME_LENGTH
MAX_CHARACTERS = 25  # per player per server: one autocomplete page [bot]

# /character edit's fields are the sheet's own (`Stats`), and its name.
EDITABLE_FIELDS: tuple[str, ...] = ("name", *Stats.model_fields)
EditableField = Literal[EDITABLE_FIELDS]  # type: ignore[valid-type]
GRIT_FIELDS = ("grit", "max_grit")

# Whole-number fields: (lowest, highest, may be cleared with "none"), from the model.
NUMBER_FIELDS: dict[str, tuple[int, int, bool]] = {
    name: (*SHEET_BOUNDS[name], Stats.model_fields[name].default is None)
    for name in EDITABLE_FIELDS
    if name in SHEET_BOUNDS
}
CLEARED = {"none", "auto", "-", "clear"}
_INTEGER = re.compile(r"^[+-]?\d+$")

# Parsing -------------------------------------------------------------------------------


def character_name(text: str) -> str:
    """Return a character's name, trimmed, or refuse an empty or overlong one."""
    name = " ".join(text.split())
    if not name:
        raise BadInput("A character needs a name.")
    if len(name) > NAME_MAX:
        raise BadInput(f"A character's name has at most {NAME_MAX} characters ({len(name)} given).")
    return name


def parse_field(field: str, text: str) -> Any:
    """Read `/character edit`'s text value as the field's type, or refuse it in one line."""
    if field not in EDITABLE_FIELDS:
        raise BadInput(f"There is no field {field!r}; editable: {', '.join(EDITABLE_FIELDS)}.")
    value = text.strip()
    if field == "name":
        return character_name(value)
    if field == "tags":
        tags = [tag.strip() for tag in value.split(",") if tag.strip()]
        if value.casefold() in CLEARED:
            return []
        if len(tags) > MAX_TAGS or any(len(tag) > NAME_MAX for tag in tags):
            raise BadInput(f"Tags: at most {MAX_TAGS}, each at most {NAME_MAX} characters.")
        return tags
    if field == "default_defense":
        choices = get_args(DefaultDefense)
        chosen = value.casefold().replace(" ", "_")
        if chosen not in choices:
            raise BadInput(f"default_defense is one of {', '.join(choices)}, not {value!r}.")
        return chosen
    low, high, clearable = NUMBER_FIELDS[field]
    if clearable and value.casefold() in CLEARED:
        return None
    if not _INTEGER.match(value):
        also = " (or none)" if clearable else ""
        raise BadInput(f"{field} takes a whole number from {low} to {high}{also}, not {value!r}.")
    number = int(value)
    if not low <= number <= high:
        raise BadInput(f"{field} must be from {low} to {high} (got {number}).")
    return number


def shown(value: Any) -> str:
    """Return a field's value as the reply shows it."""
    if value is None:
        return "none"
    if isinstance(value, list):
        return ", ".join(value) or "none"
    return str(value)


# The cog -------------------------------------------------------------------------------


class DeleteConfirm(ConfirmButton, template=confirm_template("delete_character")):
    """Confirm of /character delete: the sheet is gone for good."""

    what = "delete_character"
    cancelled = "Nothing was deleted."

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
                content="That character is already gone.", view=None
            )
            return
        assert character.id is not None
        async with SHEET_LOCKS.hold(character.id):
            await refuse_in_fight(store, character, "delete them")
            await store.delete_character(character.guild_id, user_id, character.name)
        await interaction.response.edit_message(
            content=f"**{discord.utils.escape_markdown(character.name)}** is deleted.", view=None
        )


class Characters(
    commands.GroupCog, group_name="character", group_description="Your characters on this server"
):
    """Create, show, edit, use, list and delete your characters."""

    def __init__(self, bot: Tablehand) -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(DeleteConfirm)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(DeleteConfirm)

    @property
    def store(self) -> Store:
        return self.bot.store

    @staticmethod
    def _owner(interaction: discord.Interaction) -> tuple[int, int]:
        if interaction.guild_id is None:
            raise BadInput("Characters belong to a server: use /character in a server channel.")
        return interaction.guild_id, interaction.user.id

    @app_commands.command(name="create", description="Create a character (yours, on this server)")
    @app_commands.describe(
        name=f"Unique among your characters here, at most {NAME_MAX} characters",
        grit="Current Grit (default: max_grit)",
        max_grit="Maximum Grit (default 30)",
    )
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
    ) -> None:
        guild_id, owner_id = self._owner(interaction)
        name = character_name(name)
        if grit is not None and grit > max_grit:
            raise BadInput(f"Grit {grit} is above max_grit {max_grit}.")
        existing = await self.store.get_character(guild_id, owner_id, name)
        if existing is not None:
            raise BadInput(f"You already have a character named {existing.name}.")
        if len(await self.store.list_characters(guild_id, owner_id)) >= MAX_CHARACTERS:
            raise RuleViolation(
                f"You have {MAX_CHARACTERS} characters on this server, the most allowed; "
                "delete one first."
            )
        character = await self.store.save_character(
            Character(
                guild_id=guild_id,
                owner_id=owner_id,
                name=name,
                physical=physical,
                finesse=finesse,
                grit=max_grit if grit is None else grit,
                max_grit=max_grit,
                risk=risk,
                initiative_bonus=initiative_bonus,
                mastery_rank=mastery_rank,
            )
        )
        assert character.id is not None
        # The first character (or the first after the active one was deleted) becomes active.
        active = await self.store.active_character(guild_id, owner_id)
        if active is None:
            await self.store.set_active_character(guild_id, owner_id, character.id)
            note = " It is your active character: `/init join` plays it."
        else:
            note = f" Your active character is still {active.name} (`/character use` changes it)."
        await interaction.response.send_message(
            f"Created **{discord.utils.escape_markdown(name)}**.{note}",
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
            raise NotFound(
                "You have no active character here: /character create one, or /character use one."
            )
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

    @app_commands.command(name="edit", description="Change one field of your character")
    @app_commands.describe(
        name="Your character",
        field="What to change",
        value="The new value: a whole number, a name, comma-separated tags, or none to clear",
    )
    @app_commands.autocomplete(name=character_choices)
    async def edit(
        self,
        interaction: discord.Interaction,
        name: str,
        field: EditableField,
        value: app_commands.Range[str, 1, 200],
    ) -> None:
        guild_id, owner_id = self._owner(interaction)
        new = parse_field(field, value)  # before any look-up: a bad value changes nothing
        async with own_sheet(self.store, guild_id, owner_id, name) as character:
            old = getattr(character, field)
            if field in GRIT_FIELDS:
                await refuse_grit_in_fight(self.store, character)
                if field == "grit" and new > character.max_grit:
                    raise BadInput(f"Grit {new} is above max_grit {character.max_grit}.")
                change = change_grit(
                    character,
                    set_to=new if field == "grit" else None,
                    max_grit=new if field == "max_grit" else None,
                )
            else:
                change = None
                if field == "name":
                    clash = await self.store.get_character(guild_id, owner_id, new)
                    if clash is not None and clash.id != character.id:
                        raise BadInput(f"You already have a character named {clash.name}.")
                setattr(character, field, new)
        if change is not None:
            # A Grit change is the table's business: announced like /grit.
            await interaction.response.send_message(grit_change_text(change, gm_view=True))
            return
        label = field.replace("_", " ")
        await interaction.response.send_message(
            f"**{discord.utils.escape_markdown(character.name)}**: {label} "
            f"{shown(old)} → {shown(new)}.",
            ephemeral=True,
        )

    @app_commands.command(name="use", description="Make a character your active one")
    @app_commands.autocomplete(name=character_choices)
    async def use(self, interaction: discord.Interaction, name: str) -> None:
        guild_id, owner_id = self._owner(interaction)
        character = await find_own(self.store, guild_id, owner_id, name)
        assert character.id is not None
        await self.store.set_active_character(guild_id, owner_id, character.id)
        await interaction.response.send_message(
            f"**{discord.utils.escape_markdown(character.name)}** is your active character: "
            "`/init join` plays it.",
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
    @app_commands.autocomplete(name=character_choices)
    async def delete(self, interaction: discord.Interaction, name: str) -> None:
        guild_id, owner_id = self._owner(interaction)
        character = await find_own(self.store, guild_id, owner_id, name)
        assert character.id is not None
        await refuse_in_fight(self.store, character, "delete them")
        await interaction.response.send_message(
            f"Delete **{discord.utils.escape_markdown(character.name)}** for good?",
            view=DeleteConfirm.view(owner_id, str(character.id)),
            ephemeral=True,
        )


async def setup(bot: Tablehand) -> None:
    await bot.add_cog(Characters(bot))
