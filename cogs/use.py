"""/use: play a power from the sheet by its type [COMMANDS.md Additions; GAME.md §9].

An Active attacks through the ordinary attack flow (one roll; an area power checks it
against each target's own defense, each target choosing its defense); an Active Buff is
taken up for Mastery Rank rounds; a Movement power is the turn's movement; a Reaction is
used out of turn on its trigger; a Passive is always on. The rules are
`bot.rules.powers` and `bot.rules.power_play`; `bot.attacks` shows the attacks.
"""

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import attacks, options
from bot.errors import BadInput, RuleViolation
from bot.i18n import N_, _, speaking
from bot.render.effects import moved_log, movement_text
from bot.render.known_powers import buff_started_text, reacted_text
from bot.render.text import name_text
from bot.rules.acting import on_turn
from bot.rules.attack_flow import pending_on
from bot.rules.models import Combatant, KnownPower
from bot.rules.power_play import MAX_AREA_TARGETS, TOO_MANY_TARGETS, use_active
from bot.rules.powers import BEING_ATTACKED, known, start_buff, use_movement
from bot.rules.powers import use_reaction as react_with
from bot.table import Table, at_table, combatant_choices, glance, name_choices

if TYPE_CHECKING:
    from bot.app import Tablehand

# A power that is not an Active named with a target: one sentence per type (its article).
NO_TARGET = {
    "active_buff": N_("{power} is an Active Buff: it takes no target or distance."),
    "movement": N_("{power} is a Movement power: it takes no target or distance."),
    "reaction": N_("{power} is a Reaction: it takes no target or distance."),
    "passive": N_("{power} is a Passive: it takes no target or distance."),
}
# What the table reads when an Active is used: with or without Spell, one target or an area.
USED = {
    (False, False): N_("{name} uses {power}."),
    (True, False): N_("{name} uses {power} (a Spell)."),
    (False, True): N_("{name} uses {power}: one roll, against each target's own defense."),
    (True, True): N_("{name} uses {power} (a Spell): one roll, against each target's own defense."),
}


def area_targets(table: Table, target: str | None, targets: str | None) -> list[Combatant]:
    """Return the named targets: `target`, then each of `targets` (comma-separated)."""
    names = [target] if target else []
    names += [n.strip() for n in (targets or "").split(",") if n.strip()]
    if len(names) > MAX_AREA_TARGETS:
        raise BadInput(TOO_MANY_TARGETS, most=MAX_AREA_TARGETS)
    return [table.named(name) for name in names]


class Use(commands.Cog):
    """Play powers: Actives, Active Buffs, Movement, Reactions."""

    def __init__(self, bot: "Tablehand") -> None:
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
                raise BadInput(NO_TARGET[played.kind], power=played.name)
            if played.kind == "active":
                prompts = self._active(
                    table, interaction, user, played, target, targets, distance, force
                )
            elif played.kind == "active_buff":
                started = start_buff(table.encounter, user, played, forced=table.forcing(force))
                table.say(lambda gm_view: buff_started_text(started), about=user)
            elif played.kind == "movement":
                self._movement(table, user, played, force)
            elif played.kind == "reaction":
                self._reaction(table, user, played)
            else:
                raise RuleViolation(
                    "{power} is a Passive: always on, shown on the sheet and applied where it "
                    "maps to a number the bot tracks; there is nothing to use.",
                    power=played.name,
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
        with speaking(table.language):  # the prompt and the result are the table's to read
            used = _(
                USED[power.spell, len(declared) > 1],
                name=name_text(user.name),
                power=name_text(power.name),
            )
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
            lambda gm_view: _(
                "{name} uses {power}: {movement}",
                name=name_text(user.name),
                power=name_text(power.name),
                movement=movement_text(moved, lacerate, gm_view=gm_view),
            ),
            about=user,
            log=moved_log(moved.movement, lacerate),
        )

    def _reaction(self, table: Table, user: Combatant, power: KnownPower) -> None:
        """Use a Reaction out of turn, when its trigger has occurred [001 §2]."""
        encounter = table.encounter
        if on_turn(encounter, user):
            raise RuleViolation(
                "A Reaction is used outside {name}'s own turn, on its trigger.", name=user.name
            )
        attacked = pending_on(encounter, {user.id})
        if power.trigger == BEING_ATTACKED and not attacked:
            raise RuleViolation(
                "{power} answers being attacked, and no attack on {name} is waiting.",
                power=power.name,
                name=user.name,
            )
        reacted = react_with(encounter, user, power)
        attacker = None
        if attacked:
            by = next(c for c in encounter.combatants if c.id == attacked[0].attacker_id)
            attacker = by.name
        table.say(lambda gm_view: reacted_text(reacted, attacker=attacker), about=user)

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


async def setup(bot: "Tablehand") -> None:
    await bot.add_cog(Use(bot))
