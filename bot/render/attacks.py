"""Attacks, rolls and checks in words: the attack prompt, the resolution, /roll and /check.

One renderer for each: the flow hands over results (data) and gets back what to send.
The buttons that go with them live beside their handlers, in `bot.attacks`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import discord

from bot.i18n import _
from bot.render.effects import applied_text
from bot.render.grit import grit_change_text
from bot.render.text import die_text, name_text, roll_breakdown
from bot.rules.attack_flow import Settled
from bot.rules.attacks import AttackResult, AttackRoll, AttackSpec, DefenseRoll, NoChoice
from bot.rules.checks import CheckResult, level_name
from bot.rules.dice import CoreRoll, ExpressionRoll
from bot.rules.hit_bonus import HitBonus
from bot.rules.models import DefenseStrategy
from bot.rules.results import Modifier

HIT_COLOUR = discord.Colour.red()
CRITICAL_COLOUR = discord.Colour.gold()
MISS_COLOUR = discord.Colour.light_grey()
PROMPT_COLOUR = discord.Colour.orange()
FIELD_LIMIT = 1024
EXTRA_FACES_LISTED = 300  # characters of bonus and penalty faces a roll lists; beyond, totals

STRATEGY_NAMES: dict[DefenseStrategy, str] = {
    "block": "Block",
    "dodge": "Dodge",
    "break_away": "Break Away",
    "take_cover": "Take Cover",
}
STYLE_NAMES = {
    "melee": "melee",
    "targeted": "targeted melee",
    "ranged": "ranged",
    "thrown": "thrown",
    "unarmed": "unarmed",
}
# Why the defender was not asked, as the result's description says it (and the defense
# line, for a defense with no roll).
NO_CHOICE_NOTES: dict[NoChoice, str] = {
    "surprised": "surprised in round zero: defense 6 + range",
    "counter": "a counter-attack: no defense",
    "perception": "from stealth: the target's Perception is its defense",
    "focused_long_action": "focused on a long action: no defense",
    "cumulative_long_action": "busy with a cumulative long action: hit automatically",
    "broken": "Broken: no defense",
    "stunned": "Stunned: it cannot react, no defense",
    "grappling": "grappling: Break Away is its only defense, none against ranged",
    "fixed_object": "a fixed object: defense 3 + range",
}
NO_DEFENSE: dict[NoChoice, str] = {
    "counter": "counter-attacked",
    "focused_long_action": "focused on a long action",
    "broken": "Broken",
    "stunned": "Stunned",
    "grappling": "grappling",
}
# The automatic outcomes a blind defense meets only in the result [GAME.md §10].
AUTO_NOTES = {
    "critical": "no defense roll: a Critical hits automatically",
    "risk_failure": "no defense roll: a Risk failure misses automatically",
}
DOUBLING_TEXT = {"stealth": "×2 melee from stealth", "surprised": "×2 melee surprise attack"}


# Numbers.


def _signed(value: int) -> str:
    return f"{value:+d}"


def _modifier(modifier: Modifier) -> str:
    return f"{modifier.name} {_signed(modifier.value)}"


def core_text(core: CoreRoll) -> str:
    """Return a core roll: "d20 **14**", with advantage faces, explosions and extra dice."""
    text = f"d{core.die} **{core.natural}**"
    if core.advantage is not None:
        text += f" ({_(core.advantage)}: {', '.join(map(str, core.faces))})"
    if core.explosions:
        explosions = " ".join(_signed(face) for face in core.explosions)
        text += " · " + _("explodes {faces}", faces=explosions)
    return text + _extra_dice_text(core)


def _extra_dice_text(core: CoreRoll) -> str:
    groups = [("Bonus", g, g.total) for g in core.bonus]
    groups += [("Penalty", g, -g.total) for g in core.penalty]
    listed = "".join(
        f" · {name} {g.spec} {_signed(value)} ({', '.join(map(str, g.faces))})"
        for name, g, value in groups
    )
    if len(listed) <= EXTRA_FACES_LISTED:
        return listed
    # Up to 1000 faces would not fit a field's 1,024 characters: their totals only.
    return "".join(f" · {name} {g.spec} {_signed(value)}" for name, g, value in groups)


def risk_text(core: CoreRoll) -> str:
    """Return "Risk 1 · Critical 20" (or a range of critical faces)."""
    low = core.die - core.crit_range + 1
    critical = str(core.die) if low >= core.die else f"{max(low, 1)}–{core.die}"
    return f"Risk {core.risk} · Critical {critical}"


def attack_text(roll: AttackRoll, late: Sequence[Modifier] = ()) -> str:
    """Return the attack value with every number: die, attribute, modifiers, Risk, Critical."""
    terms = [core_text(roll.core), f"{roll.attribute.capitalize()} {_signed(roll.attribute_value)}"]
    terms += [_modifier(m) for m in (*roll.modifiers, *late)]
    value = roll.value + sum(m.value for m in late)
    text = " · ".join(terms) + f" → **{value}**\n{risk_text(roll.core)}"
    if roll.beyond_perception:
        text += " · beyond Perception: one die lower"
    return text


def defense_text(defense: DefenseRoll) -> str:
    """Return the defense value with every number, or why there was no roll."""
    terms: list[str] = []
    if defense.strategy is not None:
        terms.append(STRATEGY_NAMES[defense.strategy])
    elif defense.no_roll == "surprised":
        terms.append(f"Surprised (round zero) · base {defense.base}")
    elif defense.no_roll == "fixed_object":
        terms.append(f"Fixed object · base {defense.base}")
    elif defense.no_roll == "perception":
        terms.append(f"Perception (passive) · base {defense.base}")
    elif defense.no_roll is not None:
        terms.append(f"No defense ({NO_DEFENSE[defense.no_roll]})")
    if defense.core is not None:
        terms.append(core_text(defense.core))
        if defense.risk_failure:
            terms.append("Risk failure: only modifiers count")
        elif defense.attribute is not None:
            terms.append(f"{defense.attribute.capitalize()} {_signed(defense.attribute_value)}")
    if defense.cover and not defense.risk_failure:
        doubled = " ×2" if defense.strategy == "take_cover" else ""
        terms.append(f"Cover{doubled} {_signed(defense.cover)}")
    terms += [_modifier(m) for m in defense.modifiers]
    text = " · ".join(terms) + f" → **{defense.value}**"
    if defense.core is not None:
        text += f"\n{risk_text(defense.core)}"
    return text


def outcome_text(result: AttackResult, attacker: str, defender: str) -> str:
    """Return the outcome: the values compared, or why it was automatic."""
    natural = result.attack.core.natural
    match result.auto_reason:
        case "critical":
            return f"Critical (natural {natural}) — **automatic hit**"
        case "cumulative_long_action":
            return f"{defender} is busy with a cumulative long action — **automatic hit**"
        case "risk_failure":
            text = (
                f"Risk failure (natural {natural} ≤ Risk {result.attack.core.risk}) — "
                "**automatic miss**"
            )
            if result.counter_opportunity:
                text += (
                    f"\nNatural 1: {defender} may counter-attack now "
                    f"(no action; {attacker} gets no defense)."
                )
            return text
    attack, defense = result.attack_value, result.defense_value
    challenge = result.defense is not None and result.defense.challenge
    if result.hit:
        reached = (
            " (a challenge level is hit when reached)" if challenge and attack == defense else ""
        )
        return f"**{attack}** vs **{defense}** — **hit**{reached}"
    tie = " (ties go to the defender)" if attack == defense else ""
    return f"**{attack}** vs **{defense}** — **miss**{tie}"


def damage_text(result: AttackResult, bonuses: Sequence[HitBonus]) -> str:
    """Return the damage with every addend, reduction, momentum and doubling."""
    damage = result.damage
    if damage is None:
        return "none"
    labels = iter(f"{b.special} {b.x}" for b in bonuses)
    terms = []
    for part in damage.parts:
        name = next(labels, part.name) if part.name == "Extra" else part.name
        term = f"{name} {part.value}"
        if part.expression is not None and part.faces:
            term += f" ({part.expression}: {', '.join(map(str, part.faces))})"
        elif len(part.faces) > 1:
            term += f" ({' + '.join(map(str, part.faces))})"
        terms.append(term)
    if damage.stopped:
        terms.append(f"stopped: penetration {damage.penetration} ≤ durability {damage.durability}")
    elif damage.reduced_by:
        terms.append(
            f"Durability {_signed(-damage.reduced_by)} "
            f"(penetration {damage.penetration} > {damage.durability})"
        )
    terms += [_modifier(m) for m in damage.momentum]
    if damage.absorbed:
        terms.append(f"Armor ({damage.armor}) {_signed(-damage.absorbed)}")
    if damage.doubled:
        terms.append(DOUBLING_TEXT[damage.doubled])
    text = " · ".join(terms) + f" → **{damage.total}**"
    if damage.withering:
        text += "\nAltitude: the GM adjudicates a Withering roll."
    return text


# The prompt.


@dataclass
class Prompt:
    """An attack waiting for the defender: what the prompt message shows (never its dice)."""

    attack_id: str
    attacker: str
    defender: str
    spec: AttackSpec
    strategies: list[DefenseStrategy]  # empty: the defender cannot respond
    default: DefenseStrategy | None
    due_at: float
    ping: int | None
    no_choice: NoChoice | None = None
    sacrifice_offered: bool = False
    sacrificed: bool = False
    protectors: list[str] = field(default_factory=list)
    supporters: list[str] = field(default_factory=list)
    can_protect: bool = False  # an ally of the defender may still protect it
    can_support: bool = False  # an ally of the attacker may still support the attack
    forced: bool = False
    notes: list[str] = field(default_factory=list)  # in the text: "Shade is revealed."
    power_reactions: list[tuple[int, str]] = field(default_factory=list)  # offered: index, name
    reactions: list[str] = field(default_factory=list)  # power Reactions used on it

    @property
    def resolvable(self) -> bool:
        """Return whether the prompt settles with one press (Resolve), not a strategy."""
        return not self.strategies or bool(self.protectors)


def _choices(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" or {names[-1]}"


def prompt_content(prompt: Prompt) -> str:
    """Return the prompt's text, pinging the defender's controller."""
    ping = f"<@{prompt.ping}> " if prompt.ping is not None else ""
    lines = [f"{ping}**{prompt.defender}** is attacked by **{prompt.attacker}**!", *prompt.notes]
    return "\n".join(lines)


def style_text(spec: AttackSpec) -> str:
    """Return "Melee", or "Melee with Greataxe" for an attack with a loadout's weapon."""
    style = STYLE_NAMES[spec.style].capitalize()
    return style if spec.weapon is None else f"{style} with {name_text(spec.weapon)}"


def situation_text(spec: AttackSpec) -> str:
    """Return what the defender knows of the attack before the dice: style, weapon, range, cover."""
    parts = [style_text(spec)]
    if spec.ranged:
        parts.append(
            "point-blank (defended as melee)" if spec.point_blank else f"{spec.distance} spaces"
        )
    if spec.cover and not spec.point_blank:
        parts.append(f"cover {spec.cover}")
    if spec.charge_spaces:
        parts.append(f"a charge of {spec.charge_spaces} spaces")
    if spec.grapple:
        item = spec.grapple_item
        parts.append("a grapple" + (f" for {name_text(item)}" if item else ""))
    return " · ".join(parts)


def _prompt_lines(prompt: Prompt) -> list[str]:
    defender = prompt.defender
    due = int(prompt.due_at)
    deadline = f"<t:{due}:T> (<t:{due}:R>)"
    lines = [situation_text(prompt.spec) + ". Its dice are rolled and shown with the result."]
    if prompt.protectors:
        lines.append(
            f"{_choices(prompt.protectors)} protect{'s' if len(prompt.protectors) == 1 else ''} {defender}: blocking in its place."
        )
        lines.append(f"**Resolve** settles it; without it by {deadline} it settles by itself.")
    elif not prompt.strategies:
        note = NO_CHOICE_NOTES[prompt.no_choice] if prompt.no_choice else "no defense"
        lines.append(f"{defender} cannot respond ({note}).")
        lines.append(f"**Resolve** settles it; without it by {deadline} it settles by itself.")
    else:
        names = [STRATEGY_NAMES[s] for s in prompt.strategies]
        lines.append(f"{defender}, choose a defense: {_choices(names)}.")
        if prompt.sacrificed:
            lines.append(f"{defender} sacrifices an action: +3 defense.")
        elif prompt.sacrifice_offered:
            lines.append("Sacrifice an action first for +3 defense this round.")
        default = STRATEGY_NAMES[prompt.default] if prompt.default else "no defense"
        lines.append(f"Without an answer by {deadline}, {defender} uses **{default}**.")
    if prompt.supporters:
        lines.append(
            f"{_choices(prompt.supporters)} support{'s' if len(prompt.supporters) == 1 else ''} {prompt.attacker}'s attack."
        )
    offers = []
    if prompt.can_protect:
        offers.append(f"**Protect** {defender} (an action; the protector must block)")
    if prompt.can_support:
        offers.append(
            f"**Support** {prompt.attacker} (an action; +3 if the roll matches the attack's)"
        )
    if offers:
        lines.append("Allies may " + " or ".join(offers) + ".")
    if prompt.power_reactions:
        names = [name_text(name) for _, name in prompt.power_reactions]
        lines.append(f"{defender} may react with {_choices(names)} (its Reaction this round).")
    lines += prompt.reactions
    if prompt.forced:
        lines.append("Out of turn: forced by the GM.")
    return lines


def prompt_embed(prompt: Prompt) -> discord.Embed:
    """Render the waiting attack without its numbers: the choice, the default, the deadline."""
    return discord.Embed(
        title=f"{prompt.attacker} attacks {prompt.defender} — {STYLE_NAMES[prompt.spec.style]}",
        description="\n".join(_prompt_lines(prompt)),
        colour=PROMPT_COLOUR,
    )


def answered_text(defender: str, how: str) -> str:
    """Return the answer to /defend: the attack's prompt now shows the result."""
    return f"**{defender}** defends: {how.split(',')[0]}. The attack above now shows the result."


# The resolution.


@dataclass
class Resolution:
    """A settled attack as the result shows it: names, how it was defended, extra notes."""

    attacker: str
    defender: str  # whom the attack was aimed at
    settled: Settled
    how: str  # "Block, chosen by bob", "Block, the default after the timeout", why no choice
    notes: list[str] = field(default_factory=list)
    names: dict[int, str] = field(default_factory=dict)  # reactors' names by id

    @property
    def spec(self) -> AttackSpec:
        return self.settled.spec

    @property
    def result(self) -> AttackResult:
        return self.settled.result

    @property
    def took_it(self) -> str:
        """Return who took the attack: the target, or the protector whose block applied."""
        return self.names.get(self.settled.defender_id, self.defender)


def _title(resolution: Resolution) -> tuple[str, discord.Colour]:
    result = resolution.result
    if result.critical:
        verdict, colour = "Critical hit", CRITICAL_COLOUR
    elif result.hit and resolution.spec.grapple:
        verdict, colour = "Grappled", HIT_COLOUR
    elif result.hit:
        verdict, colour = "Hit", HIT_COLOUR
    else:
        verdict, colour = "Miss", MISS_COLOUR
    counter = "counter-attacks" if resolution.spec.counter else "attacks"
    if resolution.spec.grapple:
        counter = "grapples"
    power = resolution.settled.power
    with_power = f" with {name_text(power)}" if power else ""
    return f"{resolution.attacker} {counter} {resolution.defender}{with_power} — {verdict}", colour


def support_text(resolution: Resolution) -> str | None:
    """Return each supporting roll against the ally's roll, and whether it enhanced it [002]."""
    support = resolution.settled.support
    if support is None:
        return None
    lines = []
    best = support.best
    for roll in support.rolls:
        name = resolution.names.get(roll.combatant_id, "someone who left")
        if roll.core is None:
            lines.append(f"{name}: could not roll")
            continue
        text = f"{name}: {core_text(roll.core)} · {roll.attribute.capitalize()} {_signed(roll.attribute_value)} → **{roll.value}**"
        if roll.core.risk_failure:
            text += " (Risk failure)"
        lines.append(text)
    verdict = (
        f"matches or beats {resolution.attacker}'s roll {support.against}: **+{support.bonus}**"
        if support.bonus
        else f"below {resolution.attacker}'s roll {support.against}: no help"
    )
    who = resolution.names.get(best.combatant_id, "") if best is not None else ""
    lines.append(f"Highest: {who} — {verdict}")
    return "\n".join(lines)


def _defense_field(resolution: Resolution) -> str | None:
    result, settled = resolution.result, resolution.settled
    if not settled.protected:
        return None if result.defense is None else defense_text(result.defense)
    lines = []
    blocks = settled.protections or ([result.defense] if result.defense else [])
    for block in blocks:
        name = resolution.names.get(block.defender_id or 0, "someone")
        text = defense_text(block)
        if len(blocks) > 1 and block.defender_id == settled.defender_id:
            head, _, risk = text.partition("\n")  # only the highest applies [002]
            text = f"{head} (the highest: it applies)" + (f"\n{risk}" if risk else "")
        lines.append(f"{name} protects — {text}")
    if not lines:
        lines.append(f"{resolution.took_it} protects — no defense roll")
    return "\n".join(lines)


def resolution_embed(resolution: Resolution, *, gm_view: bool) -> discord.Embed:
    """Render the resolution: dice, attribute, modifiers, Risk, defense, outcome, damage, Grit."""
    result = resolution.result
    title, colour = _title(resolution)
    style = style_text(resolution.spec)
    embed = discord.Embed(title=title, description=f"{style} · {resolution.how}", colour=colour)
    embed.add_field(
        name="Attack", value=attack_text(result.attack, result.attack_modifiers), inline=False
    )
    if (support := support_text(resolution)) is not None:
        embed.add_field(name="Support", value=support[:FIELD_LIMIT], inline=False)
    if (defense := _defense_field(resolution)) is not None:
        embed.add_field(name="Defense", value=defense[:FIELD_LIMIT], inline=False)
    embed.add_field(
        name="Outcome",
        value=outcome_text(result, resolution.attacker, resolution.took_it),
        inline=False,
    )
    if result.damage is not None:
        bonuses = resolution.settled.bonuses
        embed.add_field(
            name="Damage", value=damage_text(result, bonuses)[:FIELD_LIMIT], inline=False
        )
    if resolution.settled.grit is not None:
        grit = grit_change_text(resolution.settled.grit, gm_view=gm_view)
        embed.add_field(name="Grit", value=grit, inline=False)
    notes = _notes(resolution)
    if notes:
        embed.add_field(name="Notes", value="\n".join(notes)[:FIELD_LIMIT], inline=False)
    return embed


def _notes(resolution: Resolution) -> list[str]:
    result, settled = resolution.result, resolution.settled
    took = resolution.took_it
    notes = list(resolution.notes)
    if result.durability_loss and settled.durability_after is not None:
        notes.append(
            f"{took}'s blocking item loses {result.durability_loss} durability "
            f"(now {settled.durability_after})."
        )
    if result.stamina_spent and settled.stamina_after is not None:
        notes.append(
            f"{took} spends {result.stamina_spent} stamina to dodge (now {settled.stamina_after})."
        )
    interrupted = settled.long_action
    if interrupted is not None:
        if interrupted.kind == "focused":
            notes.append(
                f"{took}'s focused long action {interrupted.name} goes back to "
                f"{interrupted.progress_after} (was {interrupted.progress_before})."
            )
        else:
            notes.append(f"{took} adds no progress to {interrupted.name} this round.")
    if settled.grappled is not None:
        item = (
            f" — {name_text(settled.grappled.item)} is held and cannot be used"
            if settled.grappled.item
            else ""
        )
        notes.append(
            f"{resolution.attacker} and {took} are locked in a grapple{item}: neither acts; "
            "Break Away is the only way out (/breakaway)."
        )
    if settled.broke_free:
        notes.append(f"{took} breaks away from {resolution.attacker}.")
    notes += power_notes(settled)
    if settled.forced:
        notes.append("Out of turn: forced by the GM.")
    return notes


def power_notes(settled: Settled) -> list[str]:
    """Return what a power's Specials did: applied on a hit, nothing on a miss [GAME.md §9]."""
    if settled.power is None:
        return []
    notes = [applied_text(applied) for applied in settled.applied]
    if settled.not_applied:
        why = "" if settled.result.hit else " (a miss applies nothing)"
        notes.append(f"Not applied{why}: {', '.join(settled.not_applied)}.")
    return notes


def resolution_log(resolution: Resolution) -> str:
    """Return the resolution's line for the round's log."""
    result = resolution.result
    verb = "counter-attacks" if resolution.spec.counter else "attacks"
    if resolution.spec.grapple:
        verb = "grapples"
    weapon = resolution.spec.weapon
    style = resolution.spec.style + ("" if weapon is None else f", {name_text(weapon)}")
    head = f"{resolution.attacker} {verb} {resolution.defender} ({style})"
    if resolution.settled.protected:
        head += f", {resolution.took_it} protecting"
    if result.auto_reason == "critical":
        outcome = "a Critical hit"
    elif result.auto_reason == "risk_failure":
        outcome = "a Risk failure, miss"
        if result.counter_opportunity:
            outcome += "; a natural 1 opens a counter-attack"
    elif result.auto_reason == "cumulative_long_action":
        outcome = "an automatic hit"
    else:
        outcome = f"{result.attack_value} vs {result.defense_value}, {result.outcome}"
    damage = f" for {result.damage_dealt}" if result.damage is not None else ""
    if resolution.settled.power:
        head += f" with {name_text(resolution.settled.power)}"
        applied = [
            f"{a.special} {a.x_after}" if a.x_after else a.special
            for a in resolution.settled.applied
        ]
        damage += f"; applies {', '.join(applied)}" if applied else ""
    return f"{head}: {outcome}{damage}."


# /roll and /check.


def roll_text(who: str, roll: ExpressionRoll, core: int | None, *, label: str | None = None) -> str:
    """Return a free-form roll: "alice rolls 1d20 (14) + 3 = `17`", and what `core` stood for."""
    fields = {"who": name_text(who), "roll": roll_breakdown(roll)}
    if label:
        text = _("🎲 **{who}** rolls for {label}: {roll}", label=name_text(label), **fields)
    else:
        text = _("🎲 **{who}** rolls {roll}", **fields)
    if roll.resolved != roll.expression and core is not None:
        text += " " + _("(core = {die})", die=die_text(core))
    return text


def check_text(check: CheckResult) -> str:
    """Return a check: the roll, trait and modifiers against the level, and the verdict."""
    core = check.core
    trait = _(check.trait_name or "Trait")
    terms = [core_text(core), f"{trait} {_signed(check.trait)}"]
    terms += [f"{_(m.name)} {_signed(m.value)}" for m in check.modifiers]
    named = level_name(check.level)
    level = f"{_(named)} {check.level}" if named else str(check.level)
    target = level
    if check.level_raise:
        target = _(
            "{target} ({level} +{raise_} {time} time)",
            target=check.target,
            level=level,
            raise_=check.level_raise,
            time=_(check.time),
        )
    if core.risk_failure:
        verdict = _(
            "Risk failure (natural {natural} ≤ Risk {risk}) — **failure**",
            natural=core.natural,
            risk=core.risk,
        )
    elif core.critical and check.success:
        verdict = _("Critical (natural {natural}) — **success**", natural=core.natural)
    elif core.critical:
        verdict = _(
            "Critical (natural {natural}), but the total falls short — **failure**",
            natural=core.natural,
        )
    else:
        verdict = _("**success**") if check.success else _("**failure**")
    fields = {
        "who": name_text(check.roller),
        "target": target,
        "terms": " · ".join(terms),
        "total": check.total,
        "verdict": verdict,
    }
    if check.jump:
        return _("🎯 **{who}** jumps against {target}: {terms} → **{total}** — {verdict}", **fields)
    return _("🎯 **{who}** checks against {target}: {terms} → **{total}** — {verdict}", **fields)
