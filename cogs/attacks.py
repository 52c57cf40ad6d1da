"""/attack and /defend [COMMANDS.md; GAME.md §4].

An attack is declared and settled by `bot.rules.attack_flow`; `bot.attacks` shows it: the
defense prompt and its buttons, /defend, the defense timeout and the result.
"""

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import attacks, options
from bot.loadouts import ItemName, attack_weapon_choices
from bot.rules.attacks import TargetSize
from bot.rules.dice import Advantage
from bot.rules.models import AttackStyle, DefenseStrategy, RangeKind
from bot.table import combatant_choices

if TYPE_CHECKING:
    from bot.app import Tablehand


ATTACK_HELP = dict(
    target="Who is attacked",
    style="melee (Physical; the default), targeted melee, ranged, thrown (Finesse) or unarmed",
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
    base_risk="The weapon's base Risk (default 1; a Great Axe has 3)",
    cover_durability="Durability of the defender's cover, against penetration",
    counter="Use the counter-attack a natural 1 opened against the target (no action)",
    force="GM: let the attacker act out of its turn (the result says so)",
    weapon="A weapon of the attacker's loadout: its values, unless typed here",
)


class Attacks(commands.Cog):
    """Attacks and defenses."""

    def __init__(self, bot: "Tablehand") -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(
            attacks.DefenseButton, attacks.CounterButton, attacks.PowerReactionButton
        )
        # After ready, in the background: start-up does not wait for the scan.
        self.bot.scheduler.schedule("defense-rearm", attacks.rearm_after_ready(self.bot))

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(
            attacks.DefenseButton, attacks.CounterButton, attacks.PowerReactionButton
        )

    @commands.Cog.listener()
    async def on_guilds_served(self, guild_ids: set[int] | None) -> None:
        """Arm the waiting defenses of guilds this process has just taken up (a shard's)."""
        await attacks.rearm(self.bot, guild_ids)

    @app_commands.guild_only()
    @app_commands.command(name="attack", description="Attack a combatant; its defender chooses")
    @app_commands.autocomplete(
        target=combatant_choices, attacker=combatant_choices, weapon=attack_weapon_choices
    )
    @app_commands.rename(range_kind="range")
    @app_commands.describe(**ATTACK_HELP)
    async def attack(
        self,
        interaction: discord.Interaction,
        target: options.Name,
        style: AttackStyle | None = None,
        attacker: options.Name | None = None,
        area: TargetSize | None = None,
        damage: app_commands.Range[str, 1, 200] | None = None,
        modifier: options.Modifier = 0,
        risk: options.Risk = 0,
        bonus: app_commands.Range[str, 1, 200] | None = None,
        advantage: Advantage | None = None,
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
        range_kind: RangeKind | None = None,
        base_risk: app_commands.Range[int, 1, 20] | None = None,
        cover_durability: app_commands.Range[int, 0, 100] | None = None,
        counter: bool = False,
        force: bool = False,
        weapon: ItemName | None = None,
    ) -> None:
        options = {
            "style": style,
            "target_size": area,
            "special_targeting": targeting or 0,
            "distance": distance,
            "range_kind": range_kind,
            "cover": cover,
            "cover_durability": cover_durability,
            "stealth": stealth,
            "charge_spaces": charge,
            "penetration": penetration,
            "altitude": altitude,
            "explode": explode,
            "advantage": advantage,
            "modifier": modifier,
            "base_risk": base_risk,
            "situational_risk": risk,
            "damage": damage,
            "weight": weight,
            "counter": counter,
        }
        await attacks.attack(
            interaction,
            target,
            attacker,
            options,
            bonus=bonus,
            spell=spell,
            force=force,
            weapon=weapon,
        )

    @app_commands.guild_only()
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
        strategy: DefenseStrategy,
        combatant: options.Name | None = None,
        sacrifice: bool = False,
    ) -> None:
        await attacks.defend(interaction, strategy, combatant, sacrifice)

    @app_commands.guild_only()
    @app_commands.command(
        name="grapple", description="Grapple a combatant (or an item it holds): Finesse, no damage"
    )
    @app_commands.autocomplete(target=combatant_choices, attacker=combatant_choices)
    @app_commands.describe(
        target="Who is grappled",
        item="Grapple an item the target holds: it cannot be used while held",
        attacker="The grappler (default: yours; the GM names NPCs)",
        modifier="Flat modifier to the grapple roll",
        force="GM: let the grappler act out of its turn (the result says so)",
    )
    async def grapple(
        self,
        interaction: discord.Interaction,
        target: options.Name,
        item: app_commands.Range[str, 1, 40] | None = None,
        attacker: options.Name | None = None,
        modifier: options.Modifier = 0,
        force: bool = False,
    ) -> None:
        grapple = {"style": "melee", "grapple": True, "grapple_item": item, "stealth": None}
        await attacks.attack(
            interaction, target, attacker, {**grapple, "modifier": modifier}, force=force
        )

    @app_commands.guild_only()
    @app_commands.command(
        name="protect", description="Protect an ally from the attack waiting on it (you block)"
    )
    @app_commands.autocomplete(ally=combatant_choices, combatant=combatant_choices)
    @app_commands.describe(
        ally="The attacked ally (default: the one attack waiting)",
        combatant="Who protects (default: yours that can)",
    )
    async def protect(
        self,
        interaction: discord.Interaction,
        ally: options.Name | None = None,
        combatant: options.Name | None = None,
    ) -> None:
        await attacks.react_to_attack(interaction, "protect", ally, combatant)

    @app_commands.guild_only()
    @app_commands.command(
        name="support", description="Support an ally's waiting attack: +3 if you match its roll"
    )
    @app_commands.autocomplete(ally=combatant_choices, combatant=combatant_choices)
    @app_commands.describe(
        ally="The attacking ally (default: the one attack waiting)",
        combatant="Who supports (default: yours that can)",
    )
    async def support(
        self,
        interaction: discord.Interaction,
        ally: options.Name | None = None,
        combatant: options.Name | None = None,
    ) -> None:
        await attacks.react_to_attack(interaction, "support", ally, combatant)


async def setup(bot: "Tablehand") -> None:
    await bot.add_cog(Attacks(bot))
