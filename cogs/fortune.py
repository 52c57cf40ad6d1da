"""Fortune options and declarations: /haste, /wait, /hold, /act, /sacrifice, /declare, /undeclare.

Each command loads the channel's state, checks who may act for the combatant, calls
`bot.rules.fortune` or `bot.rules.declarations`, saves once, and says what happened in
the channel and in the round log [COMMANDS.md, GAME.md §5]. A hidden NPC's choices are
told to the GM alone and kept out of the public log.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import BadInput, RuleViolation
from bot.permissions import controls
from bot.render.fortune import (
    declared_text,
    haste_text,
    hold_text,
    sacrifice_text,
    undeclared_text,
    wait_text,
)
from bot.render.turns import Announcement, announce
from bot.rules import declarations, fortune
from bot.rules.models import Combatant
from bot.table import Table, at_table, combatant_choices, glance, name_choices

if TYPE_CHECKING:
    from bot.app import Tablehand
    from cogs.initiative import Initiative

COMBATANT_HELP = "Who (default: your combatant; the GM may name any)"


def _said(table: Table, combatant: Combatant, line: str) -> Announcement:
    """Start an announcement with one line: public and logged, or the GM's alone if hidden."""
    said = Announcement()
    if combatant.hidden:
        said.gm_note.append(line)
    else:
        said.public.append(line)
        said.log.append((table.encounter.round, line))
    return said


def _then(said: Announcement, step: Announcement) -> Announcement:
    """Append what a step did to an announcement."""
    said.public.extend(step.public)
    said.gm_note.extend(step.gm_note)
    said.log.extend(step.log)
    said.ping = step.ping
    said.summary_round = step.summary_round
    return said


def _pick(table: Table, name: str | None, wanted: Callable[[Combatant], bool]) -> Combatant:
    """Return the named combatant, else the caller's one `wanted` combatant, else their own."""
    if name:
        return table.acting_for(name)
    gm = table.is_gm
    candidates = [
        c
        for c in table.encounter.combatants
        if wanted(c) and (controls(table.caller, c) or (gm and c.controller_id is None))
    ]
    if len(candidates) > 1:
        names = ", ".join(c.name for c in candidates)
        raise BadInput(f"Several of your combatants could ({names}); name one (`combatant`).")
    if candidates:
        return candidates[0]
    return table.acting_for(None)  # refuses with the reason, or the rule says why not


def _waiting(combatant: Combatant) -> bool:
    return combatant.waiting


async def _long_action_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Suggest the long actions under way of the combatants the caller may act for."""
    seen = await glance(interaction)
    if seen is None:
        return []
    names = [c.long_action.name for c in seen.actable() if c.long_action is not None]
    return name_choices(names, current)


class Fortune(commands.Cog):
    """Haste, Wait, Hold, act now, Sacrifice and declarations [GAME.md §5]."""

    def __init__(self, bot: Tablehand) -> None:
        self.bot = bot

    async def _send(
        self, interaction: discord.Interaction, table: Table, said: Announcement, gm: bool
    ) -> None:
        """Log the announcement, nudge the tracker and reply as /init next does."""
        self.bot.trackers.touch(table.channel_id)
        initiative: Initiative | None = self.bot.get_cog("Initiative")  # type: ignore[assignment]
        if initiative is None:
            raise RuleViolation("The initiative tracker is not available on this bot.")
        await initiative.send_announcement(interaction, table.channel_id, said, gm)

    @staticmethod
    def _log(table: Table, said: Announcement) -> None:
        for round_number, line in said.log:
            table.state.log(round_number, line)

    # Fortune options -----------------------------------------------------------------

    async def _haste(self, interaction: discord.Interaction, name: str | None) -> None:
        async with at_table(interaction) as table:
            combatant = table.acting_for(name)
            hasted = fortune.haste(table.encounter, combatant)
            said = _said(table, combatant, haste_text(combatant, hasted))
            self._log(table, said)
            gm = table.is_gm
        await self._send(interaction, table, said, gm)

    async def _wait(self, interaction: discord.Interaction, name: str | None) -> None:
        async with at_table(interaction) as table:
            combatant = table.acting_for(name)
            encounter = table.encounter
            waited = fortune.wait(encounter, combatant, self.bot.hooks)
            if waited.own_turn:
                said = announce(encounter, waited.step)  # "Mira waits." and the next turn
            else:
                said = _said(table, combatant, wait_text(combatant))
            self._log(table, said)
            gm = table.is_gm
        await self._send(interaction, table, said, gm)

    async def _act(self, interaction: discord.Interaction, name: str | None) -> None:
        async with at_table(interaction) as table:
            combatant = _pick(table, name, _waiting)
            encounter = table.encounter
            said = announce(encounter, fortune.act(encounter, combatant))
            self._log(table, said)
            gm = table.is_gm
        await self._send(interaction, table, said, gm)

    async def _hold(self, interaction: discord.Interaction, name: str | None) -> None:
        async with at_table(interaction) as table:
            combatant = _pick(table, name, _waiting)
            held = fortune.hold(table.encounter, combatant)
            said = _said(table, combatant, hold_text(combatant, held))
            self._log(table, said)
            gm = table.is_gm
        await self._send(interaction, table, said, gm)

    @app_commands.command(
        name="haste", description="Haste before initiative is rolled: +3 initiative, one action"
    )
    @app_commands.describe(combatant=COMBATANT_HELP)
    @app_commands.autocomplete(combatant=combatant_choices)
    async def haste(self, interaction: discord.Interaction, combatant: str | None = None) -> None:
        await self._haste(interaction, combatant)

    @app_commands.command(
        name="wait", description="Wait: pass your turn and /act at any later moment this round"
    )
    @app_commands.describe(combatant=COMBATANT_HELP)
    @app_commands.autocomplete(combatant=combatant_choices)
    async def wait_(self, interaction: discord.Interaction, combatant: str | None = None) -> None:
        await self._wait(interaction, combatant)

    @app_commands.command(
        name="act", description="A waiting combatant acts now, inside the current turn"
    )
    @app_commands.describe(combatant=COMBATANT_HELP)
    @app_commands.autocomplete(combatant=combatant_choices)
    async def act(self, interaction: discord.Interaction, combatant: str | None = None) -> None:
        await self._act(interaction, combatant)

    @app_commands.command(
        name="hold", description="A waiting combatant holds into next round: +10 initiative"
    )
    @app_commands.describe(combatant=COMBATANT_HELP)
    @app_commands.autocomplete(combatant=combatant_choices)
    async def hold(self, interaction: discord.Interaction, combatant: str | None = None) -> None:
        await self._hold(interaction, combatant)

    @app_commands.command(
        name="sacrifice", description="Give up an action for +3 to attack, defense or checks"
    )
    @app_commands.rename(for_="for")
    @app_commands.describe(
        for_="What gets +3 for the rest of the round (default: attack on your turn, else defense)",
        combatant=COMBATANT_HELP,
    )
    @app_commands.autocomplete(combatant=combatant_choices)
    async def sacrifice(
        self,
        interaction: discord.Interaction,
        for_: Literal["attack", "defense", "check"] | None = None,
        combatant: str | None = None,
    ) -> None:
        async with at_table(interaction) as table:
            chosen = table.acting_for(combatant)
            encounter = table.encounter
            result = fortune.sacrifice_action(encounter, chosen, for_)
            said = _said(table, chosen, sacrifice_text(chosen, result, encounter.round))
            self._log(table, said)
            gm = table.is_gm
        await self._send(interaction, table, said, gm)

    # Declarations --------------------------------------------------------------------

    @app_commands.command(
        name="declare",
        description="Declare what a combatant does this round (kind:long to persist)",
    )
    @app_commands.describe(
        action="What it does; for a long action under way, its name again to work on it",
        kind="primary, sub, movement, fast, or long (several rounds)",
        rounds="A new long action's count (set by the GM)",
        long_type="focused: full attention, reset when attacked; cumulative: +1 per main action",
        combatant=COMBATANT_HELP,
    )
    @app_commands.autocomplete(action=_long_action_choices, combatant=combatant_choices)
    async def declare(
        self,
        interaction: discord.Interaction,
        action: app_commands.Range[str, 1, 100],
        kind: Literal["primary", "sub", "movement", "fast", "long"] = "primary",
        rounds: app_commands.Range[int, 1, 100] | None = None,
        long_type: Literal["focused", "cumulative"] | None = None,
        combatant: str | None = None,
    ) -> None:
        async with at_table(interaction) as table:
            chosen = table.acting_for(combatant)
            declared = declarations.declare(
                table.encounter, chosen, action, kind, rounds=rounds, long_type=long_type
            )
            said = _said(table, chosen, declared_text(chosen, declared))
            self._log(table, said)
            gm = table.is_gm
        await self._send(interaction, table, said, gm)

    @app_commands.command(
        name="undeclare", description="Withdraw this round's declaration (abandons a long action)"
    )
    @app_commands.describe(combatant=COMBATANT_HELP)
    @app_commands.autocomplete(combatant=combatant_choices)
    async def undeclare(
        self, interaction: discord.Interaction, combatant: str | None = None
    ) -> None:
        async with at_table(interaction) as table:
            chosen = table.acting_for(combatant)
            undeclared = declarations.undeclare(table.encounter, chosen)
            said = _said(table, chosen, undeclared_text(chosen, undeclared))
            self._log(table, said)
            gm = table.is_gm
        await self._send(interaction, table, said, gm)

    # The tracker's buttons (routed here by Initiative.tracker_button) ----------------

    async def button_wait(self, interaction: discord.Interaction) -> None:
        """Wait for the clicker's combatant (the GM's: the NPC whose turn it is)."""
        await self._wait(interaction, None)

    async def button_hold(self, interaction: discord.Interaction) -> None:
        """Hold for the clicker's waiting combatant."""
        await self._hold(interaction, None)


async def setup(bot: Tablehand) -> None:
    await bot.add_cog(Fortune(bot))
