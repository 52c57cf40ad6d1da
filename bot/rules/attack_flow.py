"""An attack as a flow of data-returning steps: declare it, then settle it [GAME.md §4].

`declare_attack` checks that the attacker may attack (on its turn, or forced by the GM
[GAME.md §10]), rolls, spends the action, reveals a hidden attacker, and keeps a
`PendingAttack` on the encounter (so a restart loses nothing) until the defender answers:
the defender chooses blind, without the attack's numbers, which are shown only with the
result [GAME.md §10]. Allies may react on a waiting attack: protect the defender, or
support the attacker (`bot.rules.reactions`). An attack with nobody to ask — a surprised
target, a fixed object, an attack from stealth (Perception is a passive defense), a
counter-attack, or a defender who cannot respond and has no ally to protect it — settles
at once. `settle_attack` resolves it and writes it onto whoever took it — Grit through
the fight's one Grit rule. Nothing here sends anything or reads a clock: the caller
passes the time in.
"""

import json
import random
import re
from collections.abc import Sequence
from typing import Any

from pydantic import Field

from bot.catalogue.models import Special
from bot.errors import BadInput, DiceError, NotFound, RuleViolation
from bot.rules import encounter as flow
from bot.rules.acting import on_turn, require_able, require_turn
from bot.rules.attacks import (
    MELEE_STYLES,
    RANGED_STYLES,
    AttackResult,
    AttackRoll,
    AttackSpec,
    DefenseRoll,
    NoChoice,
    default_strategy,
    defense_options,
    no_roll_reason,
    resolve_attack,
    roll_attack,
    roll_defense,
    validate_spec,
)
from bot.rules.combatant_grit import change_combatant_grit
from bot.rules.cover import expose
from bot.rules.dice import MAX_DICE, parse_dice_spec
from bot.rules.essences import EssenceEnded, essence_attack_made
from bot.rules.fortune import sacrifice_action
from bot.rules.grappling import Grappled, grapple_refusal, hold, release
from bot.rules.grit import GritChange, die_of
from bot.rules.hit_bonus import HitBonus, hit_bonus
from bot.rules.initiative import Sacrifice, sacrifice_bonus, spend_action
from bot.rules.items import wear_blocking_item
from bot.rules.long_actions import (
    LongActionInterrupted,
    long_action_attacked,
    long_action_defense,
)
from bot.rules.melee import disengage_pair, require_reach
from bot.rules.models import (
    AttackStyle,
    Combatant,
    CounterOffer,
    DefenseStrategy,
    Encounter,
    PendingAttack,
    SacrificeFor,
)
from bot.rules.powers import extra_damage_dice
from bot.rules.reactions import Support, best_protection, eligible, roll_support
from bot.rules.results import Result
from bot.rules.specials import Applied, apply_special, can_react
from bot.rules.stealth import in_stealth, reveal

MAX_EXTRA_DICE = 10  # bonus and penalty dice terms in one attack [bot]
_DICE_TERM = re.compile(r"[\s,]*([+-]?)\s*(\d*)\s*[dD]\s*(\d+)\s*")

# Defenders who cannot respond but whom an ally may still protect [000 Protect]. Not a
# surprised one (its allies are surprised too), a fixed object, the target of an unseen
# attack from stealth, or of a counter-attack ([002]: counters trigger no reactions).
PROTECTABLE: frozenset[NoChoice] = frozenset(
    {"broken", "focused_long_action", "stunned", "grappling", "cumulative_long_action"}
)


def no_choice_reason(defender: Combatant, spec: AttackSpec) -> NoChoice | None:
    """Return why the defender has no strategy to choose, or None when it must be asked."""
    # The attack's dice never decide this: the defender chooses blind [GAME.md §10].
    blocked = no_roll_reason(defender, spec)
    if blocked is not None:
        return blocked
    if long_action_defense(defender) == "auto_hit":
        return "cumulative_long_action"  # hit automatically [000]
    if not defense_options(defender, spec):
        return "grappling"
    return None


def strategies(defender: Combatant, spec: AttackSpec) -> list[DefenseStrategy]:
    """Return the strategies the defender may pick now (none when it cannot respond)."""
    if no_choice_reason(defender, spec) is not None:
        return []
    return defense_options(defender, spec)


def can_sacrifice(defender: Combatant, spec: AttackSpec) -> bool:
    """Return whether the defender may give up an action for +3 defense [003]."""
    return (
        die_of(defender) is not None
        and defender.actions_left >= 1
        and no_choice_reason(defender, spec) is None
    )


def attack_situation(encounter: Encounter, attacker: Combatant, defender: Combatant) -> dict:
    """Return what the fight says about an attack before its options: stealth, surprise, object."""
    # A hidden attacker attacks from stealth unless told otherwise [000, bot].
    return {
        "stealth": in_stealth(attacker),
        "surprised": flow.surprised(encounter, defender),
        "fixed_object": defender.fixed_object,
    }


def parse_extra_dice(text: str | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Read bonus and penalty dice such as "+1d10 -1d6" (a term without a sign is a bonus)."""
    bonus: list[str] = []
    penalty: list[str] = []
    text = (text or "").strip()
    position = dice = 0
    while position < len(text):
        match = _DICE_TERM.match(text, position)
        if match is None:
            raise BadInput(
                "Bonus and penalty dice look like +1d10 -1d6, not {typed!r}.",
                typed=text[position:].strip(),
            )
        sign, count, sides = match.groups()
        spec = f"{count or 1}d{sides}"
        dice += parse_dice_spec(spec)[0]  # the dice limits [GAME.md §3]
        (penalty if sign == "-" else bonus).append(spec)
        if len(bonus) + len(penalty) > MAX_EXTRA_DICE:
            raise BadInput("Give at most {n} bonus or penalty dice.", n=MAX_EXTRA_DICE)
        position = match.end()
    if dice > MAX_DICE:  # they are one roll's dice, as an expression's are [GAME.md §3]
        raise DiceError(
            "Bonus and penalty dice can be at most {most} in all (these ask for {dice}).",
            most=MAX_DICE,
            dice=dice,
        )
    return tuple(bonus), tuple(penalty)


# Pending attacks.


def new_pending(
    *,
    attack_id: str,
    attacker: Combatant,
    defender: Combatant,
    spec: AttackSpec,
    roll: AttackRoll,
    now: float,
    timeout: float,
    spell: bool = False,
    forced: bool = False,
    power: str | None = None,
    on_hit: Sequence[dict[str, Any]] = (),
) -> PendingAttack:
    """Return an attack that waits for its defender until `now + timeout` (not yet recorded)."""
    return PendingAttack(
        id=attack_id,
        attacker_id=attacker.id,
        defender_id=defender.id,
        spec=spec.model_dump(mode="json"),
        roll=roll.model_dump(mode="json"),
        spell=spell,
        created_at=now,
        due_at=now + timeout,
        sacrifice_offered=can_sacrifice(defender, spec),
        forced=forced,
        power=power,
        on_hit=list(on_hit),
    )


def find_pending(encounter: Encounter, attack_id: str) -> PendingAttack:
    """Return the pending attack with this id, or refuse: it was resolved already."""
    for pending in encounter.pending_attacks:
        if pending.id == attack_id:
            return pending
    raise NotFound("That attack has already been resolved.")


def take_pending(encounter: Encounter, attack_id: str) -> PendingAttack:
    """Remove and return a pending attack, so that it resolves exactly once."""
    pending = find_pending(encounter, attack_id)
    encounter.pending_attacks = [p for p in encounter.pending_attacks if p.id != attack_id]
    return pending


def pending_on(encounter: Encounter, defender_ids: set[int]) -> list[PendingAttack]:
    """Return the attacks waiting on these defenders, oldest first."""
    waiting = [p for p in encounter.pending_attacks if p.defender_id in defender_ids]
    return sorted(waiting, key=lambda p: p.created_at)


def pending_spec(pending: PendingAttack) -> AttackSpec:
    """Return a pending attack's spec."""
    return AttackSpec.model_validate(pending.spec)


def pending_roll(pending: PendingAttack) -> AttackRoll:
    """Return a pending attack's roll."""
    return AttackRoll.model_validate(pending.roll)


def use_sacrifice(pending: PendingAttack) -> None:
    """Mark the defender's sacrifice for this attack as made; refuse a second one."""
    if not pending.sacrifice_offered:
        raise RuleViolation("The defender has no action to sacrifice against this attack.")
    if pending.sacrificed:
        raise RuleViolation("An action is already sacrificed for this defense.")
    if pending.protectors:
        raise RuleViolation("The defender is protected: its protector blocks in its place.")
    pending.sacrificed = True


def visible_reactors(encounter: Encounter, pending: PendingAttack, kind: str) -> list[Combatant]:
    """Return the combatants the table may see offered a reaction (hidden NPCs are the GM's)."""
    return [c for c in eligible(encounter, pending, kind) if not c.hidden]  # type: ignore[arg-type]


class Effects(Result):
    """What an attack did to whoever took it, besides Grit."""

    durability_after: int | None = None
    stamina_after: int | None = None
    long_action: LongActionInterrupted | None = None


def apply_except_grit(result: AttackResult, defender: Combatant) -> Effects:
    """Write an attack's result onto its defender except the damage: stamina, durability, long action."""
    # Grit has one writer for attacks, Specials and /grit alike (change_combatant_grit).
    if result.defender_id != defender.id:
        raise BadInput("That attack result is for another defender.")
    if result.stamina_spent and defender.stamina is not None:
        defender.stamina = max(0, defender.stamina - result.stamina_spent)
    durability = defender.durability
    if result.durability_loss:
        durability = wear_blocking_item(defender, result.durability_loss)
    return Effects(
        durability_after=durability,
        stamina_after=defender.stamina,
        long_action=long_action_attacked(defender),
    )


# Counter-attacks after a natural 1 [000].


def counter_style(style: AttackStyle) -> AttackStyle:
    """Return the style of a counter-attack: melee against melee, ranged otherwise [bot]."""
    return "melee" if style in MELEE_STYLES else "ranged"


def offer_counter(
    encounter: Encounter, attack_id: str, result: AttackResult, spec: AttackSpec
) -> CounterOffer | None:
    """Open a counter-attack for the defender of a natural 1, until the round ends."""
    if not result.counter_opportunity or result.defender_id is None:
        return None
    offer = CounterOffer(
        id=attack_id,
        counterer_id=result.defender_id,
        target_id=result.attacker_id,
        round=encounter.round,
        style=counter_style(spec.style),
        distance=spec.distance if spec.style in RANGED_STYLES else 0,
    )
    encounter.counter_offers.append(offer)
    return offer


def expire_counters(encounter: Encounter) -> None:
    """Drop counter-attacks offered in earlier rounds."""
    encounter.counter_offers = [o for o in encounter.counter_offers if o.round == encounter.round]


def take_counter(
    encounter: Encounter,
    *,
    attack_id: str | None = None,
    counterer: Combatant | None = None,
    target: Combatant | None = None,
) -> CounterOffer:
    """Remove and return an open counter-attack, by the fumbled attack's id or by who and whom."""
    expire_counters(encounter)
    for offer in encounter.counter_offers:
        by_id = attack_id is not None and offer.id == attack_id
        by_pair = (
            attack_id is None
            and counterer is not None
            and target is not None
            and (offer.counterer_id, offer.target_id) == (counterer.id, target.id)
        )
        if by_id or by_pair:
            encounter.counter_offers = [o for o in encounter.counter_offers if o is not offer]
            return offer
    if attack_id is None and counterer is not None and target is not None:
        raise RuleViolation(
            "{name} has no counter-attack against {target} this round "
            "(only a natural 1 opens one).",
            name=counterer.name,
            target=target.name,
        )
    raise NotFound("That counter-attack is no longer open.")


# The flow: declare, then settle.


def require_can_attack(
    encounter: Encounter,
    attacker: Combatant,
    defender: Combatant,
    spec: AttackSpec,
    *,
    forced: bool = False,
) -> bool:
    """Refuse an attack the situation forbids; return whether the GM forced it out of turn."""
    # A counter-attack is made out of turn by nature, and costs no action [000].
    if defender.id == attacker.id:
        raise RuleViolation("{name} cannot attack themself.", name=attacker.name)
    if spec.counter:
        require_able(encounter, attacker)
        forced = False
    else:
        forced = require_turn(encounter, attacker, "attack", forced=forced)
        if attacker.actions_left < 1:
            raise RuleViolation("{name} has no actions left this round.", name=attacker.name)
    if spec.melee:
        require_reach(attacker, defender, sneak=spec.stealth)
    if spec.grapple and (refusal := grapple_refusal(attacker, defender)) is not None:
        raise RuleViolation(refusal)
    return forced


class Settled(Result):
    """A resolved attack and everything it wrote onto whoever took it."""

    attack_id: str
    attacker_id: int
    defender_id: int  # who took the attack: the target, or the protector whose block applied
    target_id: int  # whom the attack was aimed at
    spec: AttackSpec
    result: AttackResult
    strategy: DefenseStrategy | None  # what the defender used; None without a choice
    no_choice: NoChoice | None = None  # why the defender was not asked, if it was not
    sacrificed: bool = False  # the defender gave up an action for +3 [003]
    protections: list[DefenseRoll] = Field(default_factory=list)  # each protector's block
    support: Support | None = None  # the attacker's allies' rolls [002]
    bonuses: list[HitBonus] = Field(default_factory=list)  # Hex / Sundered on a hit
    grit: GritChange | None = None  # None when nothing hit
    durability_after: int | None = None
    stamina_after: int | None = None
    long_action: LongActionInterrupted | None = None
    counter: CounterOffer | None = None  # a natural 1 opened a counter-attack
    grappled: Grappled | None = None  # a grapple took hold [000]
    broke_free: bool = False  # a successful Break Away ended the engagement or grapple [000]
    forced: bool = False  # out of turn, because the GM forced it [GAME.md §10]
    power: str | None = None  # the power it played [GAME.md §9]
    applied: list[Applied] = Field(default_factory=list)  # the power's Specials, on a hit
    not_applied: list[str] = Field(default_factory=list)  # its Specials that did not land

    @property
    def protected(self) -> bool:
        """Return whether someone took the attack in the target's place."""
        return self.defender_id != self.target_id


class Declared(Result):
    """An attack as made: what it did to the attacker, and a pending defense or its settlement."""

    attacker_id: int
    defender_id: int
    revealed: bool = False  # a hidden attacker gave itself away [bot]
    exposed: bool = False  # it left Full Cover to attack [002]
    essence_ended: EssenceEnded | None = None  # a balm's last attack [002]
    forced: bool = False
    pending: PendingAttack | None = None  # the defender (or an ally) must choose
    settled: Settled | None = None  # settled at once: nobody had a choice


def declare_attack(
    encounter: Encounter,
    attacker: Combatant,
    defender: Combatant,
    spec: AttackSpec,
    rng: random.Random,
    *,
    attack_id: str,
    now: float,
    timeout: float,
    spell: bool = False,
    forced: bool = False,
    power: str | None = None,
    on_hit: Sequence[dict[str, Any]] = (),
) -> Declared:
    """Make an attack: check, roll, spend the action; wait for the defender or settle it now."""
    expire_counters(encounter)
    validate_spec(spec, attacker)  # a malformed attack is told first; no refusal changes anything
    forced = require_can_attack(encounter, attacker, defender, spec, forced=forced)
    if spec.counter:
        take_counter(encounter, counterer=attacker, target=defender)
    roll = roll_attack(attacker, spec, rng, target=defender)
    common = {"defender_id": defender.id, **_attacking(attacker, spec), "forced": forced}
    return declare_rolled(
        encounter,
        attacker,
        defender,
        spec,
        roll,
        rng,
        common=common,
        attack_id=attack_id,
        now=now,
        timeout=timeout,
        spell=spell,
        power=power,
        on_hit=on_hit,
    )


def declare_rolled(
    encounter: Encounter,
    attacker: Combatant,
    defender: Combatant,
    spec: AttackSpec,
    roll: AttackRoll,
    rng: random.Random,
    *,
    common: dict[str, Any],
    attack_id: str,
    now: float,
    timeout: float,
    spell: bool = False,
    power: str | None = None,
    on_hit: Sequence[dict[str, Any]] = (),
) -> Declared:
    """Wait for the defender of a rolled attack, or settle it now when nobody can choose."""
    forced = bool(common.get("forced"))
    pending = new_pending(
        attack_id=attack_id,
        attacker=attacker,
        defender=defender,
        spec=spec,
        roll=roll,
        now=now,
        timeout=timeout,
        spell=spell,
        forced=forced,
        power=power,
        on_hit=on_hit,
    )
    reason = no_choice_reason(defender, spec)
    if reason is None or (
        reason in PROTECTABLE and visible_reactors(encounter, pending, "protect")
    ):
        encounter.pending_attacks.append(pending)
        return Declared(**common, pending=pending)
    settled = settle_attack(
        encounter,
        attack_id,
        attacker,
        defender,
        spec,
        roll,
        rng,
        no_choice=reason,
        spell=spell,
        forced=forced,
        power=power,
        on_hit=on_hit,
    )
    return Declared(**common, settled=settled)


def _attacking(attacker: Combatant, spec: AttackSpec) -> dict[str, object]:
    """Write onto the attacker what making an attack does; return it for `Declared`."""
    if not spec.counter:
        spend_action(attacker)  # a counter-attack costs no action [000]
    if spec.charge_spaces:
        attacker.charged_spaces = max(attacker.charged_spaces, spec.charge_spaces)
    done = {
        "attacker_id": attacker.id,
        "revealed": attacker.hidden,  # a hidden NPC that attacks gives itself away [bot]
        "exposed": expose(attacker),  # attacking exposes a combatant in Full Cover [002]
        "essence_ended": essence_attack_made(attacker),
    }
    reveal(attacker)  # hidden status ends when it attacks an enemy [000]
    return done


def _protect(
    attacker: Combatant,
    protectors: Sequence[Combatant],
    spec: AttackSpec,
    roll: AttackRoll,
    rng: random.Random,
) -> tuple[Combatant, list[DefenseRoll]]:
    """Roll each protector's block (it must block [000]); return who took it and every block."""
    # An automatic outcome needs no block: the first protector stepped in and takes it.
    if not roll.needs_defense:
        return protectors[0], []
    blocks = [roll_defense(attacker, p, "block", spec, rng) for p in protectors]
    return protectors[best_protection(blocks)], blocks


def settle_attack(
    encounter: Encounter,
    attack_id: str,
    attacker: Combatant,
    defender: Combatant,
    spec: AttackSpec,
    roll: AttackRoll,
    rng: random.Random,
    *,
    strategy: DefenseStrategy | None = None,
    no_choice: NoChoice | None = None,
    spell: bool = False,
    sacrificed: bool = False,
    protectors: Sequence[Combatant] = (),
    supporters: Sequence[Combatant] = (),
    forced: bool = False,
    power: str | None = None,
    on_hit: Sequence[dict[str, Any]] = (),
) -> Settled:
    """Resolve a rolled attack with its reactions and write it onto whoever took it."""
    # Dice in order: supporting rolls, then the protectors' blocks (or the defense), then
    # damage. Supports and blocks are rolled only when the outcome is not automatic.
    support = roll_support(supporters, roll, rng) if supporters and roll.needs_defense else None
    target, blocks = defender, []
    if protectors:
        target, blocks = _protect(attacker, protectors, spec, roll, rng)
    bonuses = hit_bonus(target, spell=spell)
    result = resolve_attack(
        roll,
        attacker,
        target,
        None if protectors else strategy,
        spec,
        rng,
        extra_damage_dice=[b.dice for b in bonuses] + extra_damage_dice(attacker),
        attack_bonuses=support.modifiers if support is not None else (),
        defense=blocks[protectors.index(target)] if blocks else None,
    )
    effects = apply_except_grit(result, target)
    grit = _take_damage(encounter, target, result)
    grappled = hold(attacker, target, spec.grapple_item) if spec.grapple and result.hit else None
    return Settled(
        attack_id=attack_id,
        attacker_id=attacker.id,
        defender_id=target.id,
        target_id=defender.id,
        spec=spec,
        result=result,
        strategy="block" if protectors else strategy,  # a protector must block [000]
        no_choice=None if protectors else no_choice,
        sacrificed=sacrificed,
        protections=blocks,
        support=support,
        bonuses=bonuses if result.hit else [],
        grit=grit,
        **dict(effects),  # durability, stamina, the long action
        counter=offer_counter(encounter, attack_id, result, spec),
        grappled=grappled,
        broke_free=_broke_free(encounter, attacker, target, result),
        forced=forced,
        **_apply_on_hit(target, power, on_hit, result.hit),
    )


def _take_damage(
    encounter: Encounter, target: Combatant, result: AttackResult
) -> GritChange | None:
    """Lower the target's Grit by a hit's damage, through the fight's one Grit rule."""
    if result.damage is None:
        return None
    return change_combatant_grit(encounter, target, damage=result.damage_dealt)


def _apply_on_hit(
    target: Combatant, power: str | None, on_hit: Sequence[dict[str, Any]], hit: bool
) -> dict[str, Any]:
    """Apply a power's Specials to whoever took a hit, with its user as source [GAME.md §9]."""
    applied: list[Applied] = []
    missed: list[str] = []
    for item in on_hit:
        special = Special.model_validate_json(json.dumps(item["special"]))  # tuples from JSON
        label = special.name if item["x"] is None else f"{special.name} {item['x']}"
        if not hit:
            missed.append(label)
            continue
        try:  # stacking as /effect apply does [GAME.md §7]
            applied.append(apply_special(target, special, item["x"], item["source"]))
        except RuleViolation as refused:  # Exorcism on a creature that is no Fiend
            missed.append(f"{label}: {refused}")
    return {"power": power, "applied": applied, "not_applied": missed}


def _broke_free(
    encounter: Encounter, attacker: Combatant, target: Combatant, result: AttackResult
) -> bool:
    """End an engagement or grapple between the two when a Break Away defense held [000]."""
    if result.hit or result.defense is None or result.defense.strategy != "break_away":
        return False
    freed = disengage_pair(attacker, target)
    if target.grapple is not None and target.grapple.partner_id == attacker.id:
        release(encounter, target)
        freed = True
    return freed


def _present(encounter: Encounter, ids: Sequence[int]) -> list[Combatant]:
    present = {c.id: c for c in encounter.combatants}
    return [present[i] for i in ids if i in present]


def answer_attack(
    encounter: Encounter, attack_id: str, strategy: DefenseStrategy | None, rng: random.Random
) -> Settled | None:
    """Settle a pending attack with a strategy (None: the defender's default), exactly once.

    Returns None when the attack is called off because a combatant in it left the fight.
    """
    pending = take_pending(encounter, attack_id)
    present = {c.id for c in encounter.combatants}
    if not {pending.attacker_id, pending.defender_id} <= present:
        return None
    attacker = flow.by_id(encounter, pending.attacker_id)
    defender = flow.by_id(encounter, pending.defender_id)
    spec, roll = pending_spec(pending), pending_roll(pending)
    protectors = _present(encounter, pending.protectors)
    reason = no_choice_reason(defender, spec)
    chosen = None
    if reason is None and not protectors:
        chosen = strategy or default_strategy(defender, spec)
    return settle_attack(
        encounter,
        pending.id,
        attacker,
        defender,
        spec,
        roll,
        rng,
        strategy=chosen,
        no_choice=reason,
        spell=pending.spell,
        sacrificed=pending.sacrificed,
        protectors=protectors,
        supporters=_present(encounter, pending.supporters),
        forced=pending.forced,
        power=pending.power,
        on_hit=pending.on_hit,
    )


def sacrifice_for_defense(encounter: Encounter, pending: PendingAttack) -> Combatant:
    """Give up one of the defender's actions for +3 defense this round [003]; return it."""
    defender = flow.by_id(encounter, pending.defender_id)
    if not can_react(defender):
        raise RuleViolation(
            "{name} is Stunned and cannot react until its next turn.", name=defender.name
        )
    use_sacrifice(pending)
    # The same checks as /sacrifice (round zero, a closing round, Broken, actions left).
    sacrifice_action(encounter, defender, "defense")
    return defender


def counter_attack(
    encounter: Encounter, offer_id: str, attack_id: str, rng: random.Random
) -> Settled:
    """Strike back after a natural 1: free, and its target gets no defense [000]."""
    expire_counters(encounter)
    offer = next((o for o in encounter.counter_offers if o.id == offer_id), None)
    if offer is None:
        raise NotFound("That counter-attack is no longer open.")
    counterer = flow.by_id(encounter, offer.counterer_id)
    target = flow.by_id(encounter, offer.target_id)
    spec = AttackSpec(style=offer.style, distance=offer.distance, counter=True)
    require_can_attack(encounter, counterer, target, spec)
    take_counter(encounter, attack_id=offer_id)
    roll = roll_attack(counterer, spec, rng, target=target)
    reason = no_choice_reason(target, spec) or "counter"
    return settle_attack(encounter, attack_id, counterer, target, spec, roll, rng, no_choice=reason)


def counter_offer(encounter: Encounter, offer_id: str) -> CounterOffer:
    """Return an open counter-attack by the fumbled attack's id, or refuse: it is gone."""
    expire_counters(encounter)
    offer = next((o for o in encounter.counter_offers if o.id == offer_id), None)
    if offer is None:
        raise NotFound("That counter-attack is no longer open.")
    return offer


def sacrifice(
    encounter: Encounter,
    combatant: Combatant,
    target: SacrificeFor | None = None,
    *,
    forced: bool = False,
) -> tuple[Sacrifice, PendingAttack | None]:
    """Sacrifice an action for +3 (/sacrifice): on its turn for anything; out of turn, to defend.

    A combatant attacked before its turn sacrifices in answer to the attack waiting for its
    defense, before the dice are seen [003]; that attack is returned with the sacrifice.
    """
    own_turn = on_turn(encounter, combatant)
    waiting = pending_on(encounter, {combatant.id})
    if waiting and (target == "defense" or (target is None and not own_turn)):
        sacrifice_for_defense(encounter, waiting[0])
        done = Sacrifice(
            combatant_id=combatant.id,
            target="defense",
            actions_left=combatant.actions_left,
            bonus=sacrifice_bonus(combatant, "defense"),
        )
        return done, waiting[0]
    require_able(encounter, combatant)
    if not own_turn and not forced:
        raise RuleViolation(
            "It is not {name}'s turn: out of its turn it sacrifices only against an "
            "attack waiting for its defense; the GM may force it (force:true).",
            name=combatant.name,
        )
    return sacrifice_action(encounter, combatant, target), None
