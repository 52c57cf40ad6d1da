"""/attack, /defend, /roll and /check [COMMANDS.md; GAME.md §3, §4, §6].

An attack is rolled when it is made. If the defender has a choice, the bot posts a
prompt with a button per strategy and keeps the attack on the encounter (so a restart
loses nothing); the defender's button, /defend, or the channel's defense timeout
resolves it, under the channel's lock, exactly once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import BadInput, NotAllowed, NotFound, RuleViolation
from bot.permissions import controls
from bot.render.attacks import (
    NO_CHOICE_NOTES,
    STRATEGY_NAMES,
    Prompt,
    Resolution,
    answered_text,
    check_text,
    counter_view,
    decided_text,
    prompt_content,
    prompt_embed,
    prompt_view,
    resolution_embed,
    resolution_log,
    roll_text,
)
from bot.replies import NETWORK_ERRORS
from bot.rules import encounter as flow
from bot.rules.attack_flow import (
    apply_except_grit,
    expire_counters,
    find_pending,
    no_choice_reason,
    offer_counter,
    open_attack,
    parse_extra_dice,
    pending_on,
    pending_roll,
    pending_spec,
    strategies,
    take_counter,
    take_pending,
    use_sacrifice,
)
from bot.rules.attacks import (
    AttackRoll,
    AttackSpec,
    default_strategy,
    resolve_attack,
    roll_attack,
    validate_spec,
)
from bot.rules.checks import ChallengeLevel, TimeTaken, roll_check
from bot.rules.dice import Roller, roll_expression
from bot.rules.fortune import sacrifice_action
from bot.rules.grit import die_of
from bot.rules.hit_bonus import hit_bonus
from bot.rules.initiative import spend_action
from bot.rules.models import Combatant, DefenseStrategy, Encounter, PendingAttack
from bot.table import Table, at_channel, at_table, combatant_choices, mention_allowed

if TYPE_CHECKING:
    from bot.app import Tablehand

log = logging.getLogger(__name__)

_CORE_TOKEN = re.compile(r"(?<![A-Za-z])core", re.IGNORECASE)  # as bot.rules.dice reads it
DIFFICULTIES = [
    app_commands.Choice(name=f"{level.display} ({level.value})", value=level.value)
    for level in ChallengeLevel
]

Strategy = Literal["block", "dodge", "break_away", "take_cover"]
CALLED_OFF = "That attack was called off: a combatant in it left the fight."


class Attacks(commands.Cog):
    """Attacks and defenses, free dice and checks."""

    def __init__(self, bot: Tablehand) -> None:
        self.bot = bot
        self.clock: Callable[[], float] = time.time  # Unix time: due times outlive a restart
        self.time_scale = 1.0  # real seconds per configured second (tests shrink it)
        self._timers: dict[str, asyncio.Task[None]] = {}
        self._rearm: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        # After ready, in the background: start-up does not wait for the scan.
        self._rearm = asyncio.create_task(self._rearm_after_ready(), name="attacks-rearm")

    async def cog_unload(self) -> None:
        tasks = [t for t in (self._rearm, *self._timers.values()) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._timers.clear()

    # /attack -------------------------------------------------------------------------

    @app_commands.command(name="attack", description="Attack a combatant; its defender chooses")
    @app_commands.autocomplete(target=combatant_choices, attacker=combatant_choices)
    @app_commands.rename(range_kind="range")
    @app_commands.describe(
        target="Who is attacked",
        style="melee (Physical), targeted melee, ranged, thrown (Finesse) or unarmed",
        attacker="The attacking combatant (default: yours; the GM names NPCs)",
        area="Targeted melee: the area aimed at (limbs −5, head −10, small −15, precise −20)",
        damage="Weapon damage as dice, e.g. 1d10+2 (default: the attack's core face)",
        modifier="Flat modifier to the attack value",
        risk="Situational Risk added to the attack's Risk",
        bonus="Bonus and penalty dice, e.g. +1d10 -1d6 (never cause Risk or Critical)",
        advantage="Roll two core dice and keep the better (or worse)",
        cover="The defender's cover level 1–4 (+5/10/15/20 against ranged)",
        distance="Spaces to the target (range adds to the defense)",
        stealth="From stealth: +4, and double melee damage (default: on for a hidden NPC)",
        explode="A maximum face rolls again and adds",
        altitude="Attacking from altitude 1–8 adds damage",
        charge="Spaces charged: +1 damage per 3",
        penetration="Penetration against the blocking item's or the cover's durability",
        weight="A thrown weapon's weight (range = Physical ÷ weight)",
        spell="The attack is a Spell (Hex adds to it; Sundered to the others)",
        targeting="Ranged special targeting level 1–4 (−5/10/15/20)",
        range_kind="Range band: short (thrown), long (missiles), bow",
        base_risk="The weapon's base Risk (a Great Axe has 3)",
        cover_durability="Durability of the defender's cover, against penetration",
        counter="Use the counter-attack a natural 1 opened against the target (no action)",
    )
    async def attack(
        self,
        interaction: discord.Interaction,
        target: app_commands.Range[str, 1, 32],
        style: Literal["melee", "targeted", "ranged", "thrown", "unarmed"] = "melee",
        attacker: app_commands.Range[str, 1, 32] | None = None,
        area: Literal["large", "limbs", "head", "small", "precise"] | None = None,
        damage: app_commands.Range[str, 1, 200] | None = None,
        modifier: app_commands.Range[int, -100, 100] = 0,
        risk: app_commands.Range[int, -20, 20] = 0,
        bonus: app_commands.Range[str, 1, 200] | None = None,
        advantage: Literal["advantage", "disadvantage"] | None = None,
        cover: app_commands.Range[int, 0, 4] = 0,
        distance: app_commands.Range[int, 0, 1000] = 0,
        stealth: bool | None = None,
        explode: bool = False,
        altitude: app_commands.Range[int, 0, 8] = 0,
        charge: app_commands.Range[int, 0, 100] = 0,
        penetration: app_commands.Range[int, 0, 100] | None = None,
        weight: app_commands.Range[float, 0.1, 1000.0] | None = None,
        spell: bool = False,
        targeting: app_commands.Range[int, 1, 4] | None = None,
        range_kind: Literal["short", "long", "bow"] | None = None,
        base_risk: app_commands.Range[int, 1, 20] = 1,
        cover_durability: app_commands.Range[int, 0, 100] | None = None,
        counter: bool = False,
    ) -> None:
        bonus_dice, penalty_dice = parse_extra_dice(bonus)
        attack_id = str(interaction.id)  # unique, and the same after a restart
        pending: PendingAttack | None = None
        async with at_table(interaction) as table:
            encounter = table.encounter
            expire_counters(encounter)
            striker = self._attacker(table, attacker)
            defender = table.combatant(target)
            _require_can_attack(encounter, striker, defender, counter=counter)
            spec = AttackSpec(
                style=style,
                target_size=area,
                special_targeting=targeting or 0,
                distance=distance,
                range_kind=range_kind,
                cover=cover,
                cover_durability=cover_durability,
                stealth=striker.hidden if stealth is None else stealth,
                charge_spaces=charge,
                penetration=penetration,
                altitude=altitude,
                explode=explode,
                advantage=advantage,
                bonus_dice=bonus_dice,
                penalty_dice=penalty_dice,
                modifier=modifier,
                base_risk=base_risk,
                situational_risk=risk,
                damage=damage,
                weight=weight,
                surprised=flow.surprised(encounter, defender),
                counter=counter,
            )
            validate_spec(spec, striker)  # every refusal comes before anything changes
            if counter:
                take_counter(encounter, counterer=striker, target=defender)
            roll = roll_attack(striker, spec, self.bot.rng)
            if not counter:
                spend_action(striker)
            notes = []
            if striker.hidden:
                # A hidden NPC that attacks gives itself away [bot].
                striker.hidden = False
                notes.append(f"{striker.name} attacks from hiding and is revealed.")
                table.log(notes[-1])
            reason = no_choice_reason(defender, spec, roll)
            if reason is None:
                pending = open_attack(
                    encounter,
                    attack_id=attack_id,
                    attacker=striker,
                    defender=defender,
                    spec=spec,
                    roll=roll,
                    now=self.clock(),
                    timeout=table.settings.defense_timeout * self.time_scale,
                    spell=spell,
                )
                prompt = self._prompt(encounter, pending, notes, table.caller.user_id)
            else:
                resolution = self._resolve(
                    table,
                    attack_id,
                    striker,
                    defender,
                    spec,
                    roll,
                    strategy=None,
                    how=NO_CHOICE_NOTES[reason],
                    spell=spell,
                )
                resolution.notes[:0] = notes
        self.bot.trackers.touch(table.channel_id)
        if pending is not None:
            self._arm(table.channel_id, pending)
            await self._show_prompt(interaction, table.channel_id, pending.id, prompt)
            return
        await interaction.response.send_message(**_resolution_message(resolution))

    async def _show_prompt(
        self, interaction: discord.Interaction, channel_id: int, attack_id: str, prompt: Prompt
    ) -> None:
        """Show a stored attack's prompt and record its message, under the channel's lock.

        The attack is committed before its prompt is shown, so a prompt the defender sees is
        never lost to a crash; the lock is held while it is shown, so an answer that comes
        at once waits until the prompt's message is recorded, and closes it.
        """
        async with at_channel(self.bot, channel_id) as table:
            encounter = None if table.state.damaged else table.state.encounter
            pending = next(
                (p for p in (encounter.pending_attacks if encounter else []) if p.id == attack_id),
                None,
            )
            buttons = {"view": prompt_view(prompt)} if pending is not None else {}
            sent = await interaction.response.send_message(
                prompt_content(prompt),
                embed=prompt_embed(prompt),
                allowed_mentions=mention_allowed(prompt.ping),
                **buttons,
            )
            if pending is not None:
                # The callback's answer names the message: no second call to ask for it.
                pending.prompt_message_id = sent.message_id or (
                    (await interaction.original_response()).id
                )

    # Defending -----------------------------------------------------------------------

    @app_commands.command(name="defend", description="Answer an attack waiting for your defense")
    @app_commands.autocomplete(combatant=combatant_choices)
    @app_commands.describe(
        strategy="Block, dodge, break away (melee) or take cover (ranged, behind cover)",
        combatant="The defender (default: yours with an attack waiting)",
        sacrifice="Give up an action first for +3 defense this round",
    )
    async def defend(
        self,
        interaction: discord.Interaction,
        strategy: Strategy,
        combatant: app_commands.Range[str, 1, 32] | None = None,
        sacrifice: bool = False,
    ) -> None:
        async with at_table(interaction) as table:
            encounter = table.encounter
            if combatant:
                defender = table.combatant(combatant)
                _require_defender(table, defender)
                waiting = pending_on(encounter, {defender.id})
                missing = f"No attack on {defender.name} is waiting for a defense."
            else:
                mine = {c.id for c in encounter.combatants if _may_defend(table, c)}
                waiting = pending_on(encounter, mine)
                missing = "No attack is waiting for your defense."
            if not waiting:
                raise NotFound(missing)
            pending = waiting[0]
            if sacrifice:
                self._sacrifice(table, pending)
            resolution = self._resolve_pending(
                table, pending, strategy, chosen_by=interaction.user.display_name
            )
        await self._answered(interaction, table.channel_id, pending, resolution)

    async def defense_button(
        self, interaction: discord.Interaction, attack_id: str, choice: str
    ) -> None:
        """Handle a defense button: the defender's controller picks a strategy or sacrifices."""
        prompt: Prompt | None = None
        async with at_table(interaction) as table:
            encounter = table.encounter
            pending = find_pending(encounter, attack_id)
            if pending.prompt_message_id is None and interaction.message is not None:
                pending.prompt_message_id = interaction.message.id  # shown, then the bot died
            defender = next((c for c in encounter.combatants if c.id == pending.defender_id), None)
            if defender is not None:
                _require_defender(table, defender)
            if choice == "sacrifice" and defender is not None:
                self._sacrifice(table, pending)
                prompt = self._prompt(encounter, pending, [], None)
            else:
                # A defender who left the fight calls the attack off, whoever pressed.
                strategy = None if choice == "sacrifice" else choice
                resolution = self._resolve_pending(
                    table, pending, strategy, chosen_by=interaction.user.display_name
                )
        if prompt is not None:
            self.bot.trackers.touch(table.channel_id)
            await interaction.response.edit_message(
                embed=prompt_embed(prompt), view=prompt_view(prompt)
            )
            return
        await self._answered(interaction, table.channel_id, pending, resolution)

    async def counter_button(self, interaction: discord.Interaction, attack_id: str) -> None:
        """Handle Counter: the fumbled attack's defender strikes back, free, against no defense."""
        async with at_table(interaction) as table:
            encounter = table.encounter
            expire_counters(encounter)
            offer = next((o for o in encounter.counter_offers if o.id == attack_id), None)
            if offer is None:
                raise NotFound("That counter-attack is no longer open.")
            counterer = flow.by_id(encounter, offer.counterer_id)
            target = flow.by_id(encounter, offer.target_id)
            if not _may_defend(table, counterer):
                raise NotAllowed("This is not your counter-attack.")
            _require_can_attack(encounter, counterer, target, counter=True)
            take_counter(encounter, attack_id=attack_id)
            spec = AttackSpec(style=offer.style, distance=offer.distance, counter=True)
            roll = roll_attack(counterer, spec, self.bot.rng)
            reason = no_choice_reason(target, spec, roll) or "counter"
            resolution = self._resolve(
                table,
                str(interaction.id),
                counterer,
                target,
                spec,
                roll,
                strategy=None,
                how=NO_CHOICE_NOTES[reason],
                spell=False,
            )
        self.bot.trackers.touch(table.channel_id)
        await interaction.response.send_message(**_resolution_message(resolution))
        if interaction.message is not None:
            with contextlib.suppress(discord.HTTPException):
                await interaction.message.edit(view=None)

    # /roll and /check ----------------------------------------------------------------

    @app_commands.command(
        name="roll", description="Roll dice, e.g. 2d20kh1+3; core is your core die"
    )
    @app_commands.describe(expression="A dice expression; `core` stands for your current core die")
    async def roll(
        self, interaction: discord.Interaction, expression: app_commands.Range[str, 1, 200]
    ) -> None:
        core = None
        if _CORE_TOKEN.search(expression):
            roller = await self._roller(interaction, None)
            if roller is None:
                raise NotFound(
                    "`core` is your core die: join this channel's fight (/init join) "
                    "or choose an active character (/character use)."
                )
            core = die_of(roller)
        result = roll_expression(expression, self.bot.rng, core=core)
        await interaction.response.send_message(
            roll_text(interaction.user.display_name, result, core)
        )

    @app_commands.command(name="check", description="Roll a check against a challenge level")
    @app_commands.autocomplete(combatant=combatant_choices)
    @app_commands.choices(difficulty=DIFFICULTIES)
    @app_commands.describe(
        trait="The trait's value added to the core die",
        difficulty="The challenge level to reach",
        time="Taking longer adds +3/+6; rushing raises the level by 3 per halving",
        modifier="The GM's modifier (fine tools +, improvised tools −)",
        combatant="Who checks (default: yours; the GM names NPCs)",
    )
    async def check(
        self,
        interaction: discord.Interaction,
        trait: app_commands.Range[int, -50, 100],
        difficulty: app_commands.Choice[int],
        time: Literal["normal", "double", "quadruple", "half", "quarter"] = "normal",
        modifier: app_commands.Range[int, -100, 100] = 0,
        combatant: app_commands.Range[str, 1, 32] | None = None,
    ) -> None:
        roller = await self._roller(interaction, combatant)
        if roller is None:
            raise NotFound(
                "A check rolls your core die: join this channel's fight (/init join) "
                "or choose an active character (/character use)."
            )
        taken: TimeTaken = time
        result = roll_check(
            roller, difficulty.value, self.bot.rng, trait=trait, modifier=modifier, time=taken
        )
        await interaction.response.send_message(check_text(result))

    # Resolution ----------------------------------------------------------------------

    def _resolve(
        self,
        table: Table,
        attack_id: str,
        attacker: Combatant,
        defender: Combatant,
        spec: AttackSpec,
        roll: AttackRoll,
        *,
        strategy: DefenseStrategy | None,
        how: str,
        spell: bool,
    ) -> Resolution:
        """Resolve an attack, apply it (Grit through the one Grit path) and log it."""
        bonuses = hit_bonus(defender, spell=spell)
        result = resolve_attack(
            roll,
            attacker,
            defender,
            strategy,
            spec,
            self.bot.rng,
            extra_damage_dice=[b.dice for b in bonuses],
        )
        effects = apply_except_grit(result, defender)
        counter = offer_counter(table.encounter, attack_id, result, spec)
        resolution = Resolution(
            attacker=attacker.name,
            defender=defender.name,
            spec=spec,
            result=result,
            how=how,
            bonuses=bonuses if result.hit else [],
            durability_after=effects.durability_after,
            stamina_after=effects.stamina_after,
            long_action=effects.long_action,
            counter_id=counter.id if counter else None,
        )
        secret = attacker.hidden or defender.hidden
        if not secret:
            table.log(resolution_log(resolution))
        if result.hit:
            _, resolution.grit_text = table.change_grit(defender, damage=result.damage_dealt)
        return resolution

    def _resolve_pending(
        self,
        table: Table,
        pending: PendingAttack,
        strategy: str | None,
        *,
        chosen_by: str | None,
    ) -> Resolution | None:
        """Resolve a pending attack with a strategy (None: the defender's default) once.

        Returns None when the attack is called off because a combatant left the fight.
        """
        encounter = table.encounter
        take_pending(encounter, pending.id)
        present = {c.id for c in encounter.combatants}
        if not {pending.attacker_id, pending.defender_id} <= present:
            return None
        attacker = flow.by_id(encounter, pending.attacker_id)
        defender = flow.by_id(encounter, pending.defender_id)
        spec, roll = pending_spec(pending), pending_roll(pending)
        chosen: DefenseStrategy = (
            default_strategy(defender, spec.style, spec.cover) if strategy is None else strategy  # type: ignore[assignment]
        )
        name = STRATEGY_NAMES[chosen]
        if chosen_by is None:
            how = f"{name}, the default after {table.settings.defense_timeout} s without an answer"
        else:
            how = f"{name}, chosen by {chosen_by}"
        if pending.sacrificed:
            how += ", with a sacrificed action (+3)"
        return self._resolve(
            table,
            pending.id,
            attacker,
            defender,
            spec,
            roll,
            strategy=chosen,
            how=how,
            spell=pending.spell,
        )

    def _sacrifice(self, table: Table, pending: PendingAttack) -> None:
        """Give up one of the defender's actions for +3 defense this round [003]."""
        encounter = table.encounter
        defender = flow.by_id(encounter, pending.defender_id)
        # The same checks as /sacrifice (round zero, a closing round, Broken, actions left).
        sacrifice_action(encounter, defender, "defense")
        use_sacrifice(pending)
        table.log(f"{defender.name} sacrifices an action: +3 defense this round.")

    async def _answered(
        self,
        interaction: discord.Interaction,
        channel_id: int,
        pending: PendingAttack,
        resolution: Resolution | None,
    ) -> None:
        """Post a resolution in answer to the defender, and close the prompt."""
        self._disarm(pending.id)
        self.bot.trackers.touch(channel_id)
        on_prompt = (
            interaction.type is discord.InteractionType.component
            and interaction.message is not None
            and interaction.message.id == pending.prompt_message_id
        )
        if on_prompt and resolution is not None:
            # A button on the prompt: the prompt becomes the result, through the click's own
            # answer. No channel edit is spent, so the tracker keeps the channel's edit budget.
            await interaction.response.edit_message(
                content=decided_text(resolution.defender, resolution.how),
                **_resolution_message(resolution, replacing=True),
            )
            return
        if resolution is None:
            await interaction.response.send_message(CALLED_OFF, ephemeral=True)
        else:
            await interaction.response.send_message(**_resolution_message(resolution))
        await self._close_prompt(channel_id, pending, resolution)

    async def _close_prompt(
        self, channel_id: int, pending: PendingAttack, resolution: Resolution | None
    ) -> None:
        """Take the buttons off an answered prompt and say how it was answered."""
        if pending.prompt_message_id is None:
            return
        messageable = self.bot.get_partial_messageable(channel_id)
        message = messageable.get_partial_message(pending.prompt_message_id)
        text = (
            CALLED_OFF if resolution is None else answered_text(resolution.defender, resolution.how)
        )
        # The defender has its answer already; a failed tidy-up of the prompt is no error.
        with contextlib.suppress(discord.HTTPException, *NETWORK_ERRORS):
            await message.edit(content=text, view=None)

    def _prompt(
        self, encounter: Encounter, pending: PendingAttack, notes: list[str], caller: int | None
    ) -> Prompt:
        """Describe a pending attack's prompt; it pings the defender's controller (not the caller)."""
        attacker = flow.by_id(encounter, pending.attacker_id)
        defender = flow.by_id(encounter, pending.defender_id)
        spec = pending_spec(pending)
        ping = defender.controller_id if defender.controller_id is not None else encounter.gm_id
        return Prompt(
            attack_id=pending.id,
            attacker=attacker.name,
            defender=defender.name,
            spec=spec,
            roll=pending_roll(pending),
            strategies=strategies(defender, spec),
            default=default_strategy(defender, spec.style, spec.cover),
            due_at=pending.due_at,
            ping=None if ping == caller else ping,
            sacrifice_offered=pending.sacrifice_offered,
            sacrificed=pending.sacrificed,
            notes=notes,
        )

    def _attacker(self, table: Table, name: str | None) -> Combatant:
        """Return the attacking combatant: the named one, else the caller's own."""
        if name is None and table.is_gm:
            encounter = table.encounter
            mine = any(controls(table.caller, c) for c in encounter.combatants)
            if not mine and flow.current_actor(encounter) is None:
                raise BadInput("Name the attacker (the `attacker` option).")
        return table.acting_for(name)

    async def _roller(self, interaction: discord.Interaction, name: str | None) -> Roller | None:
        """Return who rolls a core die: the caller's combatant here, else their active character."""
        async with at_table(interaction) as table:
            encounter = None if table.state.damaged else table.state.encounter
            if encounter is not None:
                if name:
                    return table.acting_for(name)
                mine = any(controls(table.caller, c) for c in encounter.combatants)
                if mine or (table.is_gm and flow.current_actor(encounter) is not None):
                    return table.own_combatant()
            elif name:
                raise NotFound("This channel has no encounter to find that combatant in.")
        return await self.bot.store.active_character(interaction.guild_id or 0, interaction.user.id)

    # Timers --------------------------------------------------------------------------

    def _arm(self, channel_id: int, pending: PendingAttack) -> None:
        """Resolve the attack with the defender's default when its due time comes."""
        if pending.id in self._timers:
            return
        self._timers[pending.id] = asyncio.create_task(
            self._expire(channel_id, pending.id, pending.due_at), name=f"defense-{pending.id}"
        )

    def _disarm(self, attack_id: str) -> None:
        timer = self._timers.pop(attack_id, None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()

    async def _expire(self, channel_id: int, attack_id: str, due_at: float) -> None:
        try:
            await asyncio.sleep(max(0.0, due_at - self.clock()))
            await self._resolve_by_default(channel_id, attack_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception(
                "defense timeout of attack %s in channel %s failed", attack_id, channel_id
            )
        finally:
            if self._timers.get(attack_id) is asyncio.current_task():
                del self._timers[attack_id]

    async def _resolve_by_default(self, channel_id: int, attack_id: str) -> None:
        """Resolve an unanswered attack with the defender's default strategy."""
        async with at_channel(self.bot, channel_id) as table:
            encounter = None if table.state.damaged else table.state.encounter
            pending = next(
                (p for p in (encounter.pending_attacks if encounter else []) if p.id == attack_id),
                None,
            )
            if pending is None:
                return  # answered (or the fight ended) meanwhile
            resolution = self._resolve_pending(table, pending, None, chosen_by=None)
        self.bot.trackers.touch(channel_id)
        if resolution is not None:
            messageable = self.bot.get_partial_messageable(channel_id)
            await messageable.send(**_resolution_message(resolution))
        await self._close_prompt(channel_id, pending, resolution)

    async def _rearm_after_ready(self) -> None:
        """Arm the timers of attacks stored before a restart; an overdue one resolves now."""
        await self.bot.wait_until_ready()
        for channel_id in await self.bot.store.pending_attack_channels():
            encounter = await self.bot.store.peek(channel_id)
            for pending in encounter.pending_attacks if encounter else []:
                self._arm(channel_id, pending)


def _may_defend(table: Table, combatant: Combatant) -> bool:
    """Return whether the caller answers for this combatant: its player, the GM for NPCs."""
    if combatant.controller_id is not None:
        return controls(table.caller, combatant)
    return table.is_gm


def _require_defender(table: Table, defender: Combatant) -> None:
    if not _may_defend(table, defender):
        raise NotAllowed("This is not your defense.")


def _require_can_attack(
    encounter: Encounter, attacker: Combatant, defender: Combatant, *, counter: bool
) -> None:
    """Refuse an attack the situation forbids: on oneself, surprised, Broken, out of actions."""
    if defender.id == attacker.id:
        raise RuleViolation(f"{attacker.name} cannot attack themself.")
    if flow.surprised(encounter, attacker):
        raise RuleViolation(f"{attacker.name} is surprised: in round zero only the ambushers act.")
    if flow.is_broken(attacker):
        raise RuleViolation(f"{attacker.name} is Broken and cannot act until Grit is restored.")
    if not counter and attacker.actions_left < 1:
        raise RuleViolation(f"{attacker.name} has no actions left this round.")


def _resolution_message(resolution: Resolution, *, replacing: bool = False) -> dict[str, Any]:
    """Return a resolution as message fields; `replacing` a prompt also clears its buttons."""
    message: dict[str, Any] = {"embed": resolution_embed(resolution)}
    if resolution.counter_id is not None:
        message["view"] = counter_view(resolution.counter_id)
    elif replacing:
        message["view"] = None
    return message


async def setup(bot: Tablehand) -> None:
    await bot.add_cog(Attacks(bot))
