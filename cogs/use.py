"""/use: play a power from the sheet by its type [COMMANDS.md Additions; GAME.md §9].

An Active attacks through the ordinary attack flow (one roll; an area power checks it
against each target's own defense, each target choosing its defense); an Active Buff is
taken up for Mastery Rank rounds; a Movement power is the turn's movement; a Reaction is
used out of turn on its trigger; a Passive is always on. The rules are
`bot.rules.powers` and `bot.rules.power_play`; `bot.attacks` shows the attacks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import attacks, options
from bot.errors import BadInput, RuleViolation
from bot.render.effects import moved_log, movement_text
from bot.render.known_powers import buff_started_text, reacted_text
from bot.render.text import name_text
from bot.rules.acting import on_turn
from bot.rules.attack_flow import pending_on
from bot.rules.models import Combatant, KnownPower
from bot.rules.power_play import MAX_AREA_TARGETS, use_active
from bot.rules.powers import BEING_ATTACKED, KIND_NAMES, known, start_buff, use_movement
from bot.rules.powers import use_reaction as react_with
from bot.table import Table, at_table, combatant_choices, glance, name_choices

if TYPE_CHECKING:
    from bot.app import Tablehand


def area_targets(table: Table, target: str | None, targets: str | None) -> list[Combatant]:
    """Return the named targets: `target`, then each of `targets` (comma-separated)."""
    names = [target] if target else []
    names += [n.strip() for n in (targets or "").split(",") if n.strip()]
    if len(names) > MAX_AREA_TARGETS:
        raise BadInput(f"An area power takes at most {MAX_AREA_TARGETS} targets.")
    return [table.named(name) for name in names]


class Use(commands.Cog):
    """Play powers: Actives, Active Buffs, Movement, Reactions."""

    def __init__(self, bot: Tablehand) -> None:
        self.bot = bot

    @app_commands.guild_only()
    @app_commands.command(name="use", description="Play a power from your sheet by its type")
    @app_commands.describe(
        power="The power (from the user's sheet)",
        target="Whom an Active targets",
        targets="An area Active's targets, comma-separated (each defends on its own)",
        combatant="Who uses it (default: yours; the GM names NPCs)",
        distance="Spaces to the target, for a ranged Active",
        force="GM: let it act out of its turn (the result says so)",
    )
    @app_commands.autocomplete(target=combatant_choices, combatant=combatant_choices)
    async def use(
        self,
        interaction: discord.Interaction,
        power: app_commands.Range[str, 1, 60],
        target: options.Name | None = None,
        targets: app_commands.Range[str, 1, 400] | None = None,
        combatant: options.Name | None = None,
        distance: app_commands.Range[int, 0, 1000] = 0,
        force: bool = False,
    ) -> None:
        prompts = []
        async with at_table(interaction) as table:
            user = table.pick(combatant, "act")
            played = known(user, power)
            if played.kind != "active" and (target or targets or distance):
                raise BadInput(f"{played.name} is {_kind(played)}: it takes no target or distance.")
            if played.kind == "active":
                prompts = self._active(
                    table, interaction, user, played, target, targets, distance, force
                )
            elif played.kind == "active_buff":
                started = start_buff(table.encounter, user, played, forced=table.forcing(force))
                table.say(buff_started_text(started), about=user)
            elif played.kind == "movement":
                self._movement(table, user, played, force)
            elif played.kind == "reaction":
                self._reaction(table, user, played)
            else:
                raise RuleViolation(
                    f"{played.name} is a Passive: always on, shown on the sheet and applied "
                    "where it maps to a number the bot tracks; there is nothing to use."
                )
        for pending, prompt in prompts:
            attacks.arm(self.bot, table.channel_id, pending)
            await attacks.show_prompt(interaction, table.channel_id, prompt)

    def _active(
        self,
        table: Table,
        interaction: discord.Interaction,
        user: Combatant,
        power: KnownPower,
        target: str | None,
        targets: str | None,
        distance: int,
        force: bool,
    ) -> list:
        """Attack with an Active; return the prompts of the attacks still waiting for defenders."""
        bot = self.bot
        declared = use_active(
            table.encounter,
            user,
            power,
            area_targets(table, target, targets),
            bot.rng,
            bot.book,
            attack_id=str(interaction.id),
            now=bot.scheduler.clock(),
            timeout=table.settings.defense_timeout * bot.scheduler.time_scale,
            distance=distance,
            forced=table.forcing(force),
        )
        spell = " (a Spell)" if power.spell else ""
        area = ": one roll, against each target's own defense" if len(declared) > 1 else ""
        used = f"{name_text(user.name)} uses {name_text(power.name)}{spell}{area}."
        notes = [used, *attacks.declared_notes(user, declared[0])]
        for note in notes:
            table.note(note)
        prompts = []
        for each in declared:
            pending = attacks.settle_declared(table, each, notes)
            if pending is not None:
                prompts.append(
                    (
                        pending,
                        attacks.prompt_of(table.encounter, pending, notes, interaction.user.id),
                    )
                )
        return prompts

    def _movement(self, table: Table, user: Combatant, power: KnownPower, force: bool) -> None:
        """Move the power's distance as the turn's movement (Lacerate and Slow as /move)."""
        moved = use_movement(
            table.encounter, user, power, self.bot.book, forced=table.forcing(force)
        )
        lacerate = None
        if moved.movement.lacerate_damage:
            lacerate = table.change_grit(user, damage=moved.movement.lacerate_damage, say=False)
        table.say(
            lambda gm_view: (
                f"{name_text(user.name)} uses {name_text(power.name)}: "
                + movement_text(moved, lacerate, gm_view=gm_view)
            ),
            about=user,
            log=moved_log(moved.movement, lacerate),
        )

    def _reaction(self, table: Table, user: Combatant, power: KnownPower) -> None:
        """Use a Reaction out of turn, when its trigger has occurred [001 §2]."""
        encounter = table.encounter
        if on_turn(encounter, user):
            raise RuleViolation(
                f"A Reaction is used outside {user.name}'s own turn, on its trigger."
            )
        attacked = pending_on(encounter, {user.id})
        if power.trigger == BEING_ATTACKED and not attacked:
            raise RuleViolation(
                f"{power.name} answers being attacked, and no attack on {user.name} is waiting."
            )
        reacted = react_with(encounter, user, power)
        about = None
        if attacked:
            attacker = next(c for c in encounter.combatants if c.id == attacked[0].attacker_id)
            about = f"{name_text(attacker.name)}'s attack"
        table.say(reacted_text(reacted, about=about), about=user)

    @use.autocomplete("power")
    async def _power_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        seen = await glance(interaction)
        if seen is None:
            return []
        named = getattr(interaction.namespace, "combatant", None)
        users = [seen.named(named)] if named else seen.actable()
        powers = [p.name for c in users if c is not None for p in c.powers]
        return name_choices(sorted(set(powers)), current)


def _kind(power: KnownPower) -> str:
    name = KIND_NAMES[power.kind]
    return f"an {name}" if name[0] in "AEIOU" else f"a {name}"


async def setup(bot: Tablehand) -> None:
    await bot.add_cog(Use(bot))
