"""Character sheets outside the fight: finding the caller's own, and holding one to change it.

A character belongs to one player on one server [GAME.md §1]. `/character` and `/grit`
both read and write sheets through here, and the store holds each sheet's lock and
writes only what changed (`Store.sheet`). A character is in at most one fight; while it
is, its sheet's Grit belongs to the fight and is written back when it leaves or the
fight ends (the store refuses a change of it meanwhile).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.errors import Ambiguous, NotFound, RuleViolation
from bot.i18n import L_, N_, Sentence, _
from bot.render.text import name_list
from bot.rules.models import Character, Combatant
from bot.rules.names import clean_name, close_names, name_key
from bot.store import SheetState, Store
from bot.table import name_choices

if TYPE_CHECKING:
    from bot.app import Tablehand


async def fight_holding(store: Store, character_id: int) -> int | None:
    """Return the channel whose fight holds this character's sheet, if any."""
    return await store.character_fight(character_id)


async def as_played(store: Store, character: Character) -> Character | Combatant:
    """Return the character as it plays now: its combatant while in a fight, else its sheet."""
    assert character.id is not None
    channel_id = await fight_holding(store, character.id)
    encounter = None if channel_id is None else await store.peek(channel_id)
    if encounter is None:
        return character
    playing = (c for c in encounter.combatants if c.character_id == character.id)
    return next(playing, character)  # the fight's Grit is the live one [GAME.md §1]


async def own_named(store: Store, guild_id: int, owner_id: int, name: str) -> Character | None:
    """Return the caller's character of that name (normalised, any case), if they have one."""
    wanted = name_key(name)
    own = await store.list_characters(guild_id, owner_id)  # a player has at most 25
    return next((c for c in own if name_key(c.name) == wanted), None)


async def find_own(store: Store, guild_id: int, owner_id: int, name: str) -> Character:
    """Return the caller's character of that name, or refuse: they have none."""
    character = await own_named(store, guild_id, owner_id, name)
    if character is None:
        typed = clean_name(name)
        near = await own_near(store, guild_id, owner_id, typed)
        if near:
            # Said apart from the sentence: Babel does not extract a message nested in another.
            names = name_list(near, _("or"), translated=True)
            raise Ambiguous(
                L_(
                    "You have no character named {typed!r}. Did you mean {names}?",
                    typed=typed,
                    names=names,
                ),
                near,
                typed=name,
            )
        raise NotFound("You have no character named {name!r} on this server.", name=typed)
    return character


async def no_active_character(
    store: Store, guild_id: int, owner_id: int, option: str, *, otherwise: str = ""
) -> Ambiguous | NotFound:
    """Return the error for a caller with no active character: which to choose, or to create one.

    `option` is the command's option a chosen character fills; `otherwise` says what else
    the command takes (", or join with a name and stats": a message id, translated
    where the sentence is, else the whole sentence is said in English).
    """
    own = await store.list_characters(guild_id, owner_id)
    if not own:
        return NotFound(
            Sentence(
                N_(
                    "You have no character on this server: `/character create` makes one{otherwise}."
                ),
                {"otherwise": otherwise},
            )
        )
    names = [c.name for c in own]
    return Ambiguous(
        Sentence(
            N_(
                "You have no active character: name one (`{option}`), or make one active with "
                "`/character use name:{first}` (yours: {names}){otherwise}."
            ),
            {"otherwise": otherwise},
            option=option,
            first=names[0],
            names=name_list(names, _("and"), translated=True),
        ),
        names,
        option=option,
    )


async def own_near(store: Store, guild_id: int, owner_id: int, name: str) -> list[str]:
    """Return the caller's character names close to one that fits none ("did you mean")."""
    own = await store.list_characters(guild_id, owner_id)
    return close_names(name, [c.name for c in own])


@asynccontextmanager
async def own_sheet(
    store: Store, guild_id: int, owner_id: int, name: str
) -> AsyncIterator[SheetState]:
    """Hold the caller's named sheet under the store's lock; write what changed on a clean exit."""
    found = await find_own(store, guild_id, owner_id, name)
    assert found.id is not None
    async with store.sheet(found.id) as sheet:  # the sheet as it is now, under its lock
        yield sheet


async def refuse_in_fight(store: Store, character: Character, doing: str) -> None:
    """Refuse something that must wait until the character has left its fight.

    `doing` is a message id (`N_("delete them")`), translated where the sentence is.
    """
    assert character.id is not None
    channel_id = await fight_holding(store, character.id)
    if channel_id is not None:
        raise RuleViolation(
            Sentence(
                N_("{name} is in the fight in {channel}; {doing} after they leave it."),
                {"doing": doing},
                name=character.name,
                channel=f"<#{channel_id}>",
            )
        )


async def character_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Autocomplete the caller's own character names on this server."""
    bot: Tablehand = interaction.client  # type: ignore[assignment]
    own = await bot.store.character_names(interaction.guild_id or 0, interaction.user.id)
    return name_choices(own, current)
