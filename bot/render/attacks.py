"""Attacks, rolls and checks in words: the attack prompt, the resolution, /roll and /check.

One renderer for each: the flow hands over results (data) and gets back what to send.
The buttons that go with them live beside their handlers, in `bot.attacks`. Every text is
rendered in the language spoken when it is built: the table's for the prompt, the result
and the log (`bot.table` switches to it), the caller's for a private answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import discord

from bot.i18n import N_, Text, _, n_, p_
from bot.i18n.terms import term
from bot.render.effects import applied_text
from bot.render.grit import grit_change_text
from bot.render.text import die_text, name_text, roll_breakdown
from bot.rules.attack_flow import Settled
from bot.rules.attacks import AttackResult, AttackRoll, AttackSpec, DefenseRoll, NoChoice
from bot.rules.checks import CheckResult, level_name
from bot.rules.dice import CoreRoll, ExpressionRoll
from bot.rules.hit_bonus import HitBonus
from bot.rules.models import DefenseStrategy
from bot.rules.reactions import SupportRoll
from bot.rules.results import Modifier

HIT_COLOUR = discord.Colour.red()
CRITICAL_COLOUR = discord.Colour.gold()
MISS_COLOUR = discord.Colour.light_grey()
PROMPT_COLOUR = discord.Colour.orange()
FIELD_LIMIT = 1024
EXTRA_FACES_LISTED = 300  # characters of bonus and penalty faces a roll lists; beyond, totals

STRATEGY_NAMES: dict[DefenseStrategy, str] = {
    "block": N_("Block"),
    "dodge": N_("Dodge"),
    "break_away": N_("Break Away"),
    "take_cover": N_("Take Cover"),
}
STYLE_NAMES = {
    "melee": N_("melee"),
    "targeted": N_("targeted melee"),
    "ranged": N_("ranged"),
    "thrown": N_("thrown"),
    "unarmed": N_("unarmed"),
}
# The same, starting a sentence (a translation may not simply capitalise the first letter).
STYLE_TITLES = {
    "melee": N_("Melee"),
    "targeted": N_("Targeted melee"),
    "ranged": N_("Ranged"),
    "thrown": N_("Thrown"),
    "unarmed": N_("Unarmed"),
}
# Why the defender was not asked, as the result's description says it (and the defense
# line, for a defense with no roll).
NO_CHOICE_NOTES: dict[NoChoice, str] = {
    "surprised": N_("surprised in round zero: defense 6 + range"),
    "counter": N_("a counter-attack: no defense"),
    "perception": N_("from stealth: the target's Perception is its defense"),
    "focused_long_action": N_("focused on a long action: no defense"),
    "cumulative_long_action": N_("busy with a cumulative long action: hit automatically"),
    "broken": N_("Broken: no defense"),
    "stunned": N_("Stunned: it cannot react, no defense"),
    "grappling": N_("grappling: Break Away is its only defense, none against ranged"),
    "fixed_object": N_("a fixed object: defense 3 + range"),
}
NO_DEFENSE: dict[NoChoice, str] = {
    "counter": N_("counter-attacked"),
    "focused_long_action": N_("focused on a long action"),
    "broken": N_("Broken"),
    "stunned": N_("Stunned"),
    "grappling": N_("grappling"),
}
# The automatic outcomes a blind defense meets only in the result [GAME.md §10].
AUTO_NOTES = {
    "critical": N_("no defense roll: a Critical hits automatically"),
    "risk_failure": N_("no defense roll: a Risk failure misses automatically"),
}
DOUBLING_TEXT = {
    "stealth": N_("×2 melee from stealth"),
    "surprised": N_("×2 melee surprise attack"),
}
OUTCOMES = {"hit": N_("hit"), "miss": N_("miss")}
# The names the rules give an attack's modifiers and damage parts (`bot.rules.attacks`),
# shown with `bot.i18n.terms.term` (which also reads the numbered ones).
ATTACK_TERMS = (
    N_("Prone against ranged"),
    N_("Attacker prone"),
    N_("Target prone"),
    N_("Directions blocked"),
    N_("Target's momentum"),
    N_("Weapon"),
    N_("Attack roll"),
    N_("Critical"),
    N_("Physical"),
    N_("Extra"),
)
# Numbers.


def _signed(value: int) -> str:
    return f"{value:+d}"


def _modifier(modifier: Modifier) -> str:
    return f"{term(modifier.name)} {_signed(modifier.value)}"


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
    groups = [(_("Bonus"), g, g.total) for g in core.bonus]
    groups += [(_("Penalty"), g, -g.total) for g in core.penalty]
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
    return _("Risk {risk} · Critical {critical}", risk=core.risk, critical=critical)


def _attribute(name: str, value: int) -> str:
    return f"{_(name.capitalize())} {_signed(value)}"


def attack_text(roll: AttackRoll, late: Sequence[Modifier] = ()) -> str:
    """Return the attack value with every number: die, attribute, modifiers, Risk, Critical."""
    terms = [core_text(roll.core), _attribute(roll.attribute, roll.attribute_value)]
    terms += [_modifier(m) for m in (*roll.modifiers, *late)]
    value = roll.value + sum(m.value for m in late)
    text = " · ".join(terms) + f" → **{value}**\n{risk_text(roll.core)}"
    if roll.beyond_perception:
        text += " · " + _("beyond Perception: one die lower")
    return text


def _defense_head(defense: DefenseRoll) -> str | None:
    """Return how the defense was made: its strategy, or why there was no roll."""
    if defense.strategy is not None:
        return _(STRATEGY_NAMES[defense.strategy])
    match defense.no_roll:
        case None:
            return None
        case "surprised":
            return _("Surprised (round zero) · base {base}", base=defense.base)
        case "fixed_object":
            return _("Fixed object · base {base}", base=defense.base)
        case "perception":
            return _("Perception (passive) · base {base}", base=defense.base)
    return _("No defense ({why})", why=_(NO_DEFENSE[defense.no_roll]))


def defense_text(defense: DefenseRoll) -> str:
    """Return the defense value with every number, or why there was no roll."""
    head = _defense_head(defense)
    terms: list[str] = [] if head is None else [head]
    if defense.core is not None:
        terms.append(core_text(defense.core))
        if defense.risk_failure:
            terms.append(_("Risk failure: only modifiers count"))
        elif defense.attribute is not None:
            terms.append(_attribute(defense.attribute, defense.attribute_value))
    if defense.cover and not defense.risk_failure:
        value = _signed(defense.cover)
        if defense.strategy == "take_cover":
            terms.append(_("Cover ×2 {value}", value=value))
        else:
            terms.append(_("Cover {value}", value=value))
    terms += [_modifier(m) for m in defense.modifiers]
    text = " · ".join(terms) + f" → **{defense.value}**"
    if defense.core is not None:
        text += f"\n{risk_text(defense.core)}"
    return text


def outcome_text(result: AttackResult, attacker: Text, defender: Text) -> str:
    """Return the outcome: the values compared, or why it was automatic."""
    natural = result.attack.core.natural
    match result.auto_reason:
        case "critical":
            return _("Critical (natural {natural}) — **automatic hit**", natural=natural)
        case "cumulative_long_action":
            return _(
                "{defender} is busy with a cumulative long action — **automatic hit**",
                defender=defender,
            )
        case "risk_failure":
            text = _(
                "Risk failure (natural {natural} ≤ Risk {risk}) — **automatic miss**",
                natural=natural,
                risk=result.attack.core.risk,
            )
            if result.counter_opportunity:
                text += "\n" + _(
                    "Natural 1: {defender} may counter-attack now "
                    "(no action; {attacker} gets no defense).",
                    defender=defender,
                    attacker=attacker,
                )
            return text
    values = {"attack": result.attack_value, "defense": result.defense_value}
    challenge = result.defense is not None and result.defense.challenge
    tie = result.attack_value == result.defense_value
    if result.hit:
        if challenge and tie:
            return _(
                "**{attack}** vs **{defense}** — **hit** (a challenge level is hit when reached)",
                **values,
            )
        return _("**{attack}** vs **{defense}** — **hit**", **values)
    if tie:
        return _("**{attack}** vs **{defense}** — **miss** (ties go to the defender)", **values)
    return _("**{attack}** vs **{defense}** — **miss**", **values)


def _damage_terms(result: AttackResult, bonuses: Sequence[HitBonus]) -> list[str]:
    damage = result.damage
    assert damage is not None
    labels = iter(f"{b.special} {b.x}" for b in bonuses)  # Specials keep their SRD names
    terms = []
    for part in damage.parts:
        name = next(labels, term(part.name)) if part.name == "Extra" else term(part.name)
        text = f"{name} {part.value}"
        if part.expression is not None and part.faces:
            text += f" ({part.expression}: {', '.join(map(str, part.faces))})"
        elif len(part.faces) > 1:
            text += f" ({' + '.join(map(str, part.faces))})"
        terms.append(text)
    numbers = {"penetration": damage.penetration, "durability": damage.durability}
    if damage.stopped:
        terms.append(_("stopped: penetration {penetration} ≤ durability {durability}", **numbers))
    elif damage.reduced_by:
        terms.append(
            _(
                "Durability {value} (penetration {penetration} > {durability})",
                value=_signed(-damage.reduced_by),
                **numbers,
            )
        )
    terms += [_modifier(m) for m in damage.momentum]
    if damage.absorbed:
        terms.append(
            _("Armor ({armor}) {value}", armor=damage.armor, value=_signed(-damage.absorbed))
        )
    if damage.doubled:
        terms.append(_(DOUBLING_TEXT[damage.doubled]))
    return terms


def damage_text(result: AttackResult, bonuses: Sequence[HitBonus]) -> str:
    """Return the damage with every addend, reduction, momentum and doubling."""
    damage = result.damage
    if damage is None:
        return p_("damage", "none")
    text = " · ".join(_damage_terms(result, bonuses)) + f" → **{damage.total}**"
    if damage.withering:
        text += "\n" + _("Altitude: the GM adjudicates a Withering roll.")
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
    notes: Sequence[Text] = field(default_factory=list)  # in the text: "Shade is revealed."
    power_reactions: list[tuple[int, str]] = field(default_factory=list)  # offered: index, name
    reactions: list[str] = field(default_factory=list)  # power Reactions used on it

    @property
    def resolvable(self) -> bool:
        """Return whether the prompt settles with one press (Resolve), not a strategy."""
        return not self.strategies or bool(self.protectors)


def _choices(names: Sequence[str]) -> str:
    if len(names) == 1:
        return names[0]
    return _("{names} or {last}", names=", ".join(names[:-1]), last=names[-1])


def prompt_content(prompt: Prompt) -> str:
    """Return the prompt's text, pinging the defender's controller."""
    ping = f"<@{prompt.ping}> " if prompt.ping is not None else ""
    attacked = _(
        "**{defender}** is attacked by **{attacker}**!",
        defender=prompt.defender,
        attacker=prompt.attacker,
    )
    return "\n".join([ping + attacked, *map(str, prompt.notes)])


def style_text(spec: AttackSpec) -> str:
    """Return "Melee", or "Melee with Greataxe" for an attack with a loadout's weapon."""
    style = _(STYLE_TITLES[spec.style])
    if spec.weapon is None:
        return style
    return _("{style} with {weapon}", style=style, weapon=name_text(spec.weapon))


def situation_text(spec: AttackSpec) -> str:
    """Return what the defender knows of the attack before the dice: style, weapon, range, cover."""
    parts = [style_text(spec)]
    if spec.ranged:
        if spec.point_blank:
            parts.append(_("point-blank (defended as melee)"))
        else:
            parts.append(n_("{n} spaces", "{n} spaces", spec.distance))
    if spec.cover and not spec.point_blank:
        parts.append(_("cover {level}", level=spec.cover))
    if spec.charge_spaces:
        parts.append(n_("a charge of {n} spaces", "a charge of {n} spaces", spec.charge_spaces))
    if spec.grapple:
        item = spec.grapple_item
        if item:
            parts.append(_("a grapple for {item}", item=name_text(item)))
        else:
            parts.append(_("a grapple"))
    return " · ".join(parts)


def _answer_lines(prompt: Prompt, deadline: str) -> list[str]:
    """Return who may answer the prompt, how, and what happens without an answer."""
    defender = prompt.defender
    resolve = _(
        "**Resolve** settles it; without it by {deadline} it settles by itself.", deadline=deadline
    )
    if prompt.protectors:
        protect = n_(
            "{names} protects {defender}: blocking in its place.",
            "{names} protect {defender}: blocking in its place.",
            len(prompt.protectors),
            names=_choices(prompt.protectors),
            defender=defender,
        )
        return [protect, resolve]
    if not prompt.strategies:
        note = _(NO_CHOICE_NOTES[prompt.no_choice]) if prompt.no_choice else _("no defense")
        return [_("{defender} cannot respond ({note}).", defender=defender, note=note), resolve]
    names = [_(STRATEGY_NAMES[s]) for s in prompt.strategies]
    lines = [
        _("{defender}, choose a defense: {choices}.", defender=defender, choices=_choices(names))
    ]
    if prompt.sacrificed:
        lines.append(_("{defender} sacrifices an action: +3 defense.", defender=defender))
    elif prompt.sacrifice_offered:
        lines.append(_("Sacrifice an action first for +3 defense this round."))
    default = _(STRATEGY_NAMES[prompt.default]) if prompt.default else _("no defense")
    lines.append(
        _(
            "Without an answer by {deadline}, {defender} uses **{default}**.",
            deadline=deadline,
            defender=defender,
            default=default,
        )
    )
    return lines


def _offers(prompt: Prompt) -> str | None:
    """Return what the allies may still do: protect the defender, support the attacker."""
    names = {"defender": prompt.defender, "attacker": prompt.attacker}
    if prompt.can_protect and prompt.can_support:
        return _(
            "Allies may **Protect** {defender} (an action; the protector must block) or "
            "**Support** {attacker} (an action; +3 if the roll matches the attack's).",
            **names,
        )
    if prompt.can_protect:
        return _(
            "Allies may **Protect** {defender} (an action; the protector must block).", **names
        )
    if prompt.can_support:
        return _(
            "Allies may **Support** {attacker} (an action; +3 if the roll matches the attack's).",
            **names,
        )
    return None


def _prompt_lines(prompt: Prompt) -> list[str]:
    due = int(prompt.due_at)
    deadline = f"<t:{due}:T> (<t:{due}:R>)"
    situation = situation_text(prompt.spec)
    lines = [_("{situation}. Its dice are rolled and shown with the result.", situation=situation)]
    lines += _answer_lines(prompt, deadline)
    if prompt.supporters:
        lines.append(
            n_(
                "{names} supports {attacker}'s attack.",
                "{names} support {attacker}'s attack.",
                len(prompt.supporters),
                names=_choices(prompt.supporters),
                attacker=prompt.attacker,
            )
        )
    if (offers := _offers(prompt)) is not None:
        lines.append(offers)
    if prompt.power_reactions:
        names = [name_text(name) for _index, name in prompt.power_reactions]
        lines.append(
            _(
                "{defender} may react with {choices} (its Reaction this round).",
                defender=prompt.defender,
                choices=_choices(names),
            )
        )
    lines += prompt.reactions
    if prompt.forced:
        lines.append(_("Out of turn: forced by the GM."))
    return lines


def prompt_embed(prompt: Prompt) -> discord.Embed:
    """Render the waiting attack without its numbers: the choice, the default, the deadline."""
    return discord.Embed(
        title=_(
            "{attacker} attacks {defender} — {style}",
            attacker=prompt.attacker,
            defender=prompt.defender,
            style=_(STYLE_NAMES[prompt.spec.style]),
        ),
        description="\n".join(_prompt_lines(prompt)),
        colour=PROMPT_COLOUR,
    )


def answered_text(defender: Text, how: Text) -> str:
    """Return the answer to /defend: the attack's prompt now shows the result."""
    return _(
        "**{defender}** defends: {how}. The attack above now shows the result.",
        defender=defender,
        how=str(how).split(",")[0],
    )


# The resolution.


@dataclass
class Resolution:
    """A settled attack as the result shows it: names, how it was defended, extra notes.

    Names and notes may be `L_()` texts: they are rendered with the result, in the
    language spoken then.
    """

    attacker: Text
    defender: Text  # whom the attack was aimed at
    settled: Settled
    how: Text  # "Block, chosen by bob", "Block, the default after the timeout", why no choice
    notes: Sequence[Text] = field(default_factory=list)
    names: dict[int, str] = field(default_factory=dict)  # reactors' names by id

    @property
    def spec(self) -> AttackSpec:
        return self.settled.spec

    @property
    def result(self) -> AttackResult:
        return self.settled.result

    @property
    def took_it(self) -> Text:
        """Return who took the attack: the target, or the protector whose block applied."""
        return self.names.get(self.settled.defender_id, self.defender)


VERDICTS = {
    "critical": N_("Critical hit"),
    "grappled": N_("Grappled"),
    "hit": N_("Hit"),
    "miss": N_("Miss"),
}
# The result's title by what was done, without and with a power.
TITLES = {
    "attacks": N_("{attacker} attacks {defender} — {verdict}"),
    "counter-attacks": N_("{attacker} counter-attacks {defender} — {verdict}"),
    "grapples": N_("{attacker} grapples {defender} — {verdict}"),
}
POWER_TITLES = {
    "attacks": N_("{attacker} attacks {defender} with {power} — {verdict}"),
    "counter-attacks": N_("{attacker} counter-attacks {defender} with {power} — {verdict}"),
    "grapples": N_("{attacker} grapples {defender} with {power} — {verdict}"),
}


def _verb(spec: AttackSpec) -> str:
    if spec.grapple:
        return "grapples"
    return "counter-attacks" if spec.counter else "attacks"


def _title(resolution: Resolution) -> tuple[str, discord.Colour]:
    result = resolution.result
    if result.critical:
        verdict, colour = "critical", CRITICAL_COLOUR
    elif result.hit and resolution.spec.grapple:
        verdict, colour = "grappled", HIT_COLOUR
    elif result.hit:
        verdict, colour = "hit", HIT_COLOUR
    else:
        verdict, colour = "miss", MISS_COLOUR
    fields = {
        "attacker": resolution.attacker,
        "defender": resolution.defender,
        "verdict": _(VERDICTS[verdict]),
    }
    power = resolution.settled.power
    verb = _verb(resolution.spec)
    if power:
        return _(POWER_TITLES[verb], power=name_text(power), **fields), colour
    return _(TITLES[verb], **fields), colour


def _support_roll(name: str, roll: SupportRoll) -> str:
    if roll.core is None:
        return _("{name}: could not roll", name=name)
    attribute = _attribute(roll.attribute, roll.attribute_value)
    text = f"{name}: {core_text(roll.core)} · {attribute} → **{roll.value}**"
    if roll.core.risk_failure:
        text += f" ({_('Risk failure')})"
    return text


def support_text(resolution: Resolution) -> str | None:
    """Return each supporting roll against the ally's roll, and whether it enhanced it [002]."""
    support = resolution.settled.support
    if support is None:
        return None
    left = _("someone who left")
    lines = [
        _support_roll(resolution.names.get(roll.combatant_id, left), roll) for roll in support.rolls
    ]
    fields = {"attacker": resolution.attacker, "roll": support.against}
    if support.bonus:
        verdict = _(
            "matches or beats {attacker}'s roll {roll}: **+{bonus}**", bonus=support.bonus, **fields
        )
    else:
        verdict = _("below {attacker}'s roll {roll}: no help", **fields)
    best = support.best
    who = resolution.names.get(best.combatant_id, "") if best is not None else ""
    lines.append(_("Highest: {who} — {verdict}", who=who, verdict=verdict))
    return "\n".join(lines)


def _defense_field(resolution: Resolution) -> str | None:
    result, settled = resolution.result, resolution.settled
    if not settled.protected:
        return None if result.defense is None else defense_text(result.defense)
    lines = []
    blocks = settled.protections or ([result.defense] if result.defense else [])
    for block in blocks:
        name = resolution.names.get(block.defender_id or 0, _("someone"))
        text = defense_text(block)
        if len(blocks) > 1 and block.defender_id == settled.defender_id:
            head, _newline, risk = text.partition("\n")  # only the highest applies [002]
            text = _("{defense} (the highest: it applies)", defense=head) + (
                f"\n{risk}" if risk else ""
            )
        lines.append(_("{name} protects — {defense}", name=name, defense=text))
    if not lines:
        lines.append(_("{name} protects — no defense roll", name=resolution.took_it))
    return "\n".join(lines)


def resolution_embed(resolution: Resolution, *, gm_view: bool) -> discord.Embed:
    """Render the resolution: dice, attribute, modifiers, Risk, defense, outcome, damage, Grit."""
    result = resolution.result
    title, colour = _title(resolution)
    style = style_text(resolution.spec)
    embed = discord.Embed(title=title, description=f"{style} · {resolution.how}", colour=colour)
    embed.add_field(
        name=_("Attack"), value=attack_text(result.attack, result.attack_modifiers), inline=False
    )
    if (support := support_text(resolution)) is not None:
        embed.add_field(name=_("Support"), value=support[:FIELD_LIMIT], inline=False)
    if (defense := _defense_field(resolution)) is not None:
        embed.add_field(name=_("Defense"), value=defense[:FIELD_LIMIT], inline=False)
    embed.add_field(
        name=_("Outcome"),
        value=outcome_text(result, resolution.attacker, resolution.took_it),
        inline=False,
    )
    if result.damage is not None:
        bonuses = resolution.settled.bonuses
        embed.add_field(
            name=_("Damage"), value=damage_text(result, bonuses)[:FIELD_LIMIT], inline=False
        )
    if resolution.settled.grit is not None:
        grit = grit_change_text(resolution.settled.grit, gm_view=gm_view)
        embed.add_field(name=_("Grit"), value=grit, inline=False)
    notes = _notes(resolution)
    if notes:
        embed.add_field(name=_("Notes"), value="\n".join(notes)[:FIELD_LIMIT], inline=False)
    return embed


def _grapple_note(resolution: Resolution) -> str | None:
    grappled = resolution.settled.grappled
    if grappled is None:
        return None
    names = {"attacker": resolution.attacker, "defender": resolution.took_it}
    if grappled.item:
        return _(
            "{attacker} and {defender} are locked in a grapple — {item} is held and cannot be "
            "used: neither acts; Break Away is the only way out (/breakaway).",
            item=name_text(grappled.item),
            **names,
        )
    return _(
        "{attacker} and {defender} are locked in a grapple: neither acts; "
        "Break Away is the only way out (/breakaway).",
        **names,
    )


def _notes(resolution: Resolution) -> list[str]:
    result, settled = resolution.result, resolution.settled
    took = resolution.took_it
    notes = [str(note) for note in resolution.notes]
    if result.durability_loss and settled.durability_after is not None:
        notes.append(
            _(
                "{name}'s blocking item loses {loss} durability (now {now}).",
                name=took,
                loss=result.durability_loss,
                now=settled.durability_after,
            )
        )
    if result.stamina_spent and settled.stamina_after is not None:
        notes.append(
            _(
                "{name} spends {stamina} stamina to dodge (now {now}).",
                name=took,
                stamina=result.stamina_spent,
                now=settled.stamina_after,
            )
        )
    interrupted = settled.long_action
    if interrupted is not None:
        if interrupted.kind == "focused":
            notes.append(
                _(
                    "{name}'s focused long action {action} goes back to {after} (was {before}).",
                    name=took,
                    action=interrupted.name,
                    after=interrupted.progress_after,
                    before=interrupted.progress_before,
                )
            )
        else:
            notes.append(
                _(
                    "{name} adds no progress to {action} this round.",
                    name=took,
                    action=interrupted.name,
                )
            )
    if (grapple := _grapple_note(resolution)) is not None:
        notes.append(grapple)
    if settled.broke_free:
        notes.append(
            _("{name} breaks away from {attacker}.", name=took, attacker=resolution.attacker)
        )
    notes += power_notes(settled)
    if settled.forced:
        notes.append(_("Out of turn: forced by the GM."))
    return notes


def power_notes(settled: Settled) -> list[str]:
    """Return what a power's Specials did: applied on a hit, nothing on a miss [GAME.md §9]."""
    if settled.power is None:
        return []
    notes = [applied_text(applied) for applied in settled.applied]
    if settled.not_applied:
        specials = ", ".join(settled.not_applied)
        if settled.result.hit:
            notes.append(_("Not applied: {specials}.", specials=specials))
        else:
            notes.append(_("Not applied (a miss applies nothing): {specials}.", specials=specials))
    return notes


LOG_HEADS = {
    "attacks": N_("{attacker} attacks {defender} ({style})"),
    "counter-attacks": N_("{attacker} counter-attacks {defender} ({style})"),
    "grapples": N_("{attacker} grapples {defender} ({style})"),
}


def _log_outcome(result: AttackResult) -> str:
    if result.auto_reason == "critical":
        return _("a Critical hit")
    if result.auto_reason == "risk_failure":
        if result.counter_opportunity:
            return _("a Risk failure, miss; a natural 1 opens a counter-attack")
        return _("a Risk failure, miss")
    if result.auto_reason == "cumulative_long_action":
        return _("an automatic hit")
    return _(
        "{attack} vs {defense}, {outcome}",
        attack=result.attack_value,
        defense=result.defense_value,
        outcome=_(OUTCOMES[result.outcome]),
    )


def resolution_log(resolution: Resolution) -> str:
    """Return the resolution's line for the round's log."""
    result = resolution.result
    weapon = resolution.spec.weapon
    style = _(STYLE_NAMES[resolution.spec.style])
    if weapon is not None:
        style = f"{style}, {name_text(weapon)}"
    head = _(
        LOG_HEADS[_verb(resolution.spec)],
        attacker=resolution.attacker,
        defender=resolution.defender,
        style=style,
    )
    if resolution.settled.protected:
        head = _("{head}, {protector} protecting", head=head, protector=resolution.took_it)
    outcome = _log_outcome(result)
    if result.damage is not None:
        outcome = _("{outcome} for {damage}", outcome=outcome, damage=result.damage_dealt)
    if resolution.settled.power:
        head = _("{head} with {power}", head=head, power=name_text(resolution.settled.power))
        applied = [
            f"{a.special} {a.x_after}" if a.x_after else a.special
            for a in resolution.settled.applied
        ]
        if applied:
            outcome = _(
                "{outcome}; applies {specials}", outcome=outcome, specials=", ".join(applied)
            )
    return _("{head}: {outcome}.", head=head, outcome=outcome)


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
    terms += [f"{term(m.name)} {_signed(m.value)}" for m in check.modifiers]
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
