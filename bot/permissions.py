"""Who may do what [COMMANDS.md "Who may do what"].

The GM of a channel's encounter is whoever ran /init start, anyone with Manage
Channels, and members of the server's GM role. A player acts for the combatants
they control; anything else, and every NPC, needs GM rights.
"""

from __future__ import annotations

from dataclasses import dataclass

import discord

from bot.errors import NotAllowed
from bot.i18n import N_, Phrase
from bot.rules.models import Combatant, Encounter
from bot.store import GuildSettings

GM_ONLY = N_("Only the GM can {doing}.")


@dataclass(frozen=True)
class Caller:
    """The user behind an interaction, reduced to what permission checks need."""

    user_id: int
    role_ids: frozenset[int] = frozenset()
    manage_channels: bool = False
    manage_guild: bool = False

    @classmethod
    def of(cls, interaction: discord.Interaction) -> Caller:
        """Read the caller from an interaction (permissions as Discord computed them)."""
        user = interaction.user
        roles = getattr(user, "roles", None) or []
        permissions = interaction.permissions
        return cls(
            user_id=user.id,
            role_ids=frozenset(role.id for role in roles),
            manage_channels=permissions.manage_channels,
            manage_guild=permissions.manage_guild,
        )


def is_gm(caller: Caller, encounter: Encounter | None, settings: GuildSettings) -> bool:
    """Return whether the caller has GM rights in this channel."""
    if encounter is not None and encounter.gm_id == caller.user_id:
        return True
    if caller.manage_channels:
        return True
    return settings.gm_role_id is not None and settings.gm_role_id in caller.role_ids


def controls(caller: Caller, combatant: Combatant) -> bool:
    """Return whether the caller is the player controlling this combatant."""
    return combatant.controller_id is not None and combatant.controller_id == caller.user_id


def may_act_for(
    caller: Caller, combatant: Combatant, encounter: Encounter, settings: GuildSettings
) -> bool:
    """Return whether the caller may act for this combatant: its player, or the GM."""
    return controls(caller, combatant) or is_gm(caller, encounter, settings)


async def is_gm_here(interaction: discord.Interaction) -> bool:
    """Return whether the caller is a GM in this channel: its encounter's, or by the server."""
    store = interaction.client.store  # type: ignore[attr-defined]
    encounter = await store.peek(interaction.channel_id or 0)
    settings = await store.settings(interaction.guild_id)
    return is_gm(Caller.of(interaction), encounter, settings)


async def require_gm_here(interaction: discord.Interaction, doing: str) -> None:
    """Refuse unless the caller is a GM in this channel; `doing` completes "Only the GM can …"."""
    if not await is_gm_here(interaction):
        raise NotAllowed(Phrase(GM_ONLY, "doing", doing))


def require_gm(
    caller: Caller, encounter: Encounter | None, settings: GuildSettings, doing: str
) -> None:
    """Refuse unless the caller is the GM; `doing` (an English message id) completes "Only the GM can …"."""
    if not is_gm(caller, encounter, settings):
        raise NotAllowed(Phrase(GM_ONLY, "doing", doing))
