"""An attack as a flow of data-returning steps: declare it, then settle it [GAME.md §4].

`declare_attack` checks that the attacker may attack, rolls, spends the action, reveals
a hidden attacker, and either settles at once (a Critical, a Risk failure, a defender
that cannot respond) or keeps a `PendingAttack` on the encounter (so a restart loses
nothing) until the defender answers. `settle_attack` resolves it and writes it onto the
defender — Grit through the fight's one Grit rule. `bot.rules.attacks` rolls and
resolves; nothing here sends anything or reads a clock: the caller passes the time in.
"""

from __future__ import annotations

import random
import re

from pydantic import Field

from bot.errors import BadInput, DiceError, NotFound, RuleViolation
from bot.rules import encounter as flow
from bot.rules.attacks import (
    MELEE_STYLES,
    RANGED_STYLES,
    AttackResult,
    AttackRoll,
    AttackSpec,
    NoChoice,
    default_strategy,
    defense_options,
    no_roll_reason,
    resolve_attack,
    roll_attack,
    validate_spec,
)
from bot.rules.combatant_grit import change_combatant_grit
from bot.rules.dice import MAX_DICE, parse_dice_spec
from bot.rules.fortune import sacrifice_action
from bot.rules.grit import GritChange, die_of
from bot.rules.hit_bonus import HitBonus, hit_bonus
from bot.rules.initiative import spend_action
from bot.rules.long_actions import (
    LongActionInterrupted,
    long_action_attacked,
    long_action_defense,
)
from bot.rules.models import (
    AttackStyle,
    Combatant,
    CounterOffer,
    DefenseStrategy,
    Encounter,
    PendingAttack,
)
from bot.rules.results import Result

MAX_EXTRA_DICE = 10  # bonus and penalty dice terms in one attack [bot]
_DICE_TERM = re.compile(r"[\s,]*([+-]?)\s*(\d*)\s*[dD]\s*(\d+)\s*")


def no_choice_reason(defender: Combatant, spec: AttackSpec, roll: AttackRoll) -> NoChoice | None:
    """Return why the defender has no strategy to choose, or None when it must be asked."""
    if roll.critical:
        return "critical"  # an automatic hit [000]
    if roll.risk_failure:
        return "risk_failure"  # an automatic miss [002]
    blocked = no_roll_reason(defender, spec)
    if blocked in ("surprised", "counter"):
        return blocked  # defense 6 + range [003]; a counter's target gets none [000]
    if long_action_defense(defender) == "auto_hit":
        return "cumulative_long_action"  # hit automatically [000]
    return blocked


def strategies(defender: Combatant, spec: AttackSpec) -> list[DefenseStrategy]:
    """Return the strategies the defender may pick: the style's, less a dodge it cannot pay for."""
    options = defense_options(spec.style, spec.cover)
    if spec.ranged and defender.stamina is not None and defender.stamina <= 0:
        options = [o for o in options if o != "dodge"]  # a ranged dodge costs stamina [000]
    return options


def can_sacrifice(defender: Combatant) -> bool:
    """Return whether the defender may give up an action for +3 defense [003]."""
    return die_of(defender) is not None and defender.actions_left >= 1


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
                f"Bonus and penalty dice look like +1d10 -1d6, not {text[position:].strip()!r}."
            )
        sign, count, sides = match.groups()
        spec = f"{count or 1}d{sides}"
        dice += parse_dice_spec(spec)[0]  # the dice limits [GAME.md §3]
        (penalty if sign == "-" else bonus).append(spec)
        if len(bonus) + len(penalty) > MAX_EXTRA_DICE:
            raise BadInput(f"Give at most {MAX_EXTRA_DICE} bonus or penalty dice.")
        position = match.end()
    if dice > MAX_DICE:  # they are one roll's dice, as an expression's are [GAME.md §3]
        raise DiceError(
            f"Bonus and penalty dice can be at most {MAX_DICE} in all (these ask for {dice})."
        )
    return tuple(bonus), tuple(penalty)


# Pending attacks.


def open_attack(
    encounter: Encounter,
    *,
    attack_id: str,
    attacker: Combatant,
    defender: Combatant,
    spec: AttackSpec,
    roll: AttackRoll,
    now: float,
    timeout: float,
    spell: bool = False,
) -> PendingAttack:
    """Record an attack that waits for the defender's strategy until `now + timeout`."""
    pending = PendingAttack(
        id=attack_id,
        attacker_id=attacker.id,
        defender_id=defender.id,
        spec=spec.model_dump(mode="json"),
        roll=roll.model_dump(mode="json"),
        spell=spell,
        created_at=now,
        due_at=now + timeout,
        sacrifice_offered=can_sacrifice(defender),
    )
    encounter.pending_attacks.append(pending)
    return pending


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
    pending.sacrificed = True


class Effects(Result):
    """What an attack did to its defender besides Grit."""

    durability_after: int | None = None
    stamina_after: int | None = None
    long_action: LongActionInterrupted | None = None


def apply_except_grit(result: AttackResult, defender: Combatant) -> Effects:
    """Write an attack's result onto its defender except the damage: stamina, durability, long action."""
    # As `apply_attack` does, less Grit: Grit has one writer for attacks, Specials and /grit
    # alike (the cog's Table.change_grit), which also words and logs the change.
    if result.defender_id != defender.id:
        raise BadInput("That attack result is for another defender.")
    if result.stamina_spent and defender.stamina is not None:
        defender.stamina = max(0, defender.stamina - result.stamina_spent)
    if result.durability_loss and defender.durability is not None:
        defender.durability = max(0, defender.durability - result.durability_loss)
    return Effects(
        durability_after=defender.durability,
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
            f"{counterer.name} has no counter-attack against {target.name} this round "
            "(only a natural 1 opens one)."
        )
    raise NotFound("That counter-attack is no longer open.")


# The flow: declare, then settle.


def require_can_attack(
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


class Settled(Result):
    """A resolved attack and everything it wrote onto its defender."""

    attack_id: str
    attacker_id: int
    defender_id: int
    spec: AttackSpec
    result: AttackResult
    strategy: DefenseStrategy | None  # what the defender used; None without a choice
    no_choice: NoChoice | None = None  # why the defender was not asked, if it was not
    sacrificed: bool = False  # the defender gave up an action for +3 [003]
    bonuses: list[HitBonus] = Field(default_factory=list)  # Hex / Sundered on a hit
    grit: GritChange | None = None  # None when nothing hit
    durability_after: int | None = None
    stamina_after: int | None = None
    long_action: LongActionInterrupted | None = None
    counter: CounterOffer | None = None  # a natural 1 opened a counter-attack


class Declared(Result):
    """An attack as made: revealed attacker, and either a pending defense or its settlement."""

    attacker_id: int
    defender_id: int
    revealed: bool = False  # a hidden attacker gave itself away [bot]
    pending: PendingAttack | None = None  # the defender must choose
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
) -> Declared:
    """Make an attack: check, roll, spend the action; settle it now or wait for the defender."""
    expire_counters(encounter)
    require_can_attack(encounter, attacker, defender, counter=spec.counter)
    validate_spec(spec, attacker)  # every refusal comes before anything changes
    if spec.counter:
        take_counter(encounter, counterer=attacker, target=defender)
    roll = roll_attack(attacker, spec, rng)
    if not spec.counter:
        spend_action(attacker)
    revealed = attacker.hidden
    attacker.hidden = False  # a hidden NPC that attacks gives itself away [bot]
    common = {"attacker_id": attacker.id, "defender_id": defender.id, "revealed": revealed}
    reason = no_choice_reason(defender, spec, roll)
    if reason is None:
        pending = open_attack(
            encounter,
            attack_id=attack_id,
            attacker=attacker,
            defender=defender,
            spec=spec,
            roll=roll,
            now=now,
            timeout=timeout,
            spell=spell,
        )
        return Declared(**common, pending=pending)
    settled = settle_attack(
        encounter, attack_id, attacker, defender, spec, roll, rng, no_choice=reason, spell=spell
    )
    return Declared(**common, settled=settled)


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
) -> Settled:
    """Resolve a rolled attack and write it onto the defender: Grit, item, stamina, long action."""
    bonuses = hit_bonus(defender, spell=spell)
    result = resolve_attack(
        roll, attacker, defender, strategy, spec, rng, extra_damage_dice=[b.dice for b in bonuses]
    )
    effects = apply_except_grit(result, defender)
    grit = None
    if result.hit:
        grit = change_combatant_grit(encounter, defender, damage=result.damage_dealt)
    return Settled(
        attack_id=attack_id,
        attacker_id=attacker.id,
        defender_id=defender.id,
        spec=spec,
        result=result,
        strategy=strategy if no_choice is None else None,
        no_choice=no_choice,
        sacrificed=sacrificed,
        bonuses=bonuses if result.hit else [],
        grit=grit,
        durability_after=effects.durability_after,
        stamina_after=effects.stamina_after,
        long_action=effects.long_action,
        counter=offer_counter(encounter, attack_id, result, spec),
    )


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
    chosen = default_strategy(defender, spec.style, spec.cover) if strategy is None else strategy
    return settle_attack(
        encounter,
        pending.id,
        attacker,
        defender,
        spec,
        roll,
        rng,
        strategy=chosen,
        spell=pending.spell,
        sacrificed=pending.sacrificed,
    )


def sacrifice_for_defense(encounter: Encounter, pending: PendingAttack) -> Combatant:
    """Give up one of the defender's actions for +3 defense this round [003]; return it."""
    defender = flow.by_id(encounter, pending.defender_id)
    # The same checks as /sacrifice (round zero, a closing round, Broken, actions left).
    sacrifice_action(encounter, defender, "defense")
    use_sacrifice(pending)
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
    require_can_attack(encounter, counterer, target, counter=True)
    take_counter(encounter, attack_id=offer_id)
    spec = AttackSpec(style=offer.style, distance=offer.distance, counter=True)
    roll = roll_attack(counterer, spec, rng)
    reason = no_choice_reason(target, spec, roll) or "counter"
    return settle_attack(encounter, attack_id, counterer, target, spec, roll, rng, no_choice=reason)


def counter_offer(encounter: Encounter, offer_id: str) -> CounterOffer:
    """Return an open counter-attack by the fumbled attack's id, or refuse: it is gone."""
    expire_counters(encounter)
    offer = next((o for o in encounter.counter_offers if o.id == offer_id), None)
    if offer is None:
        raise NotFound("That counter-attack is no longer open.")
    return offer
