"""An attack between /attack and its resolution: who must answer, pending attacks, counters.

`bot.rules.attacks` rolls and resolves; this module keeps what waits in between on the
encounter (so it survives a restart) and decides when the defender has a choice at all.
Nothing here sends anything or reads a clock: the caller passes the time in.
"""

from __future__ import annotations

import re
from typing import Literal

from bot.errors import BadInput, NotFound, RuleViolation
from bot.rules.attacks import (
    MELEE_STYLES,
    RANGED_STYLES,
    AttackResult,
    AttackRoll,
    AttackSpec,
    defense_options,
)
from bot.rules.dice import parse_dice_spec
from bot.rules.grit import die_of
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

# Why the defender is not asked for a strategy.
NoChoice = Literal[
    "critical",  # an automatic hit [000]
    "risk_failure",  # an automatic miss [002]
    "surprised",  # round zero: defense 6 + range [003]
    "counter",  # a counter-attack's target gets no defense [000]
    "focused_long_action",  # no chance to respond [000]
    "cumulative_long_action",  # hit automatically [000]
    "broken",  # a Broken defender cannot act [002]
]

MAX_EXTRA_DICE = 10  # bonus and penalty dice terms in one attack [bot]
_DICE_TERM = re.compile(r"[\s,]*([+-]?)\s*(\d*)\s*[dD]\s*(\d+)\s*")


def no_choice_reason(defender: Combatant, spec: AttackSpec, roll: AttackRoll) -> NoChoice | None:
    """Return why the defender has no strategy to choose, or None when it must be asked."""
    if roll.critical:
        return "critical"
    if roll.risk_failure:
        return "risk_failure"
    if spec.surprised:
        return "surprised"
    if spec.counter:
        return "counter"
    match long_action_defense(defender):
        case "no_defense":
            return "focused_long_action"
        case "auto_hit":
            return "cumulative_long_action"
    if die_of(defender) is None:
        return "broken"
    return None


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
    position = 0
    while position < len(text):
        match = _DICE_TERM.match(text, position)
        if match is None:
            raise BadInput(
                f"Bonus and penalty dice look like +1d10 -1d6, not {text[position:].strip()!r}."
            )
        sign, count, sides = match.groups()
        spec = f"{count or 1}d{sides}"
        parse_dice_spec(spec)  # the dice limits [GAME.md §3]
        (penalty if sign == "-" else bonus).append(spec)
        if len(bonus) + len(penalty) > MAX_EXTRA_DICE:
            raise BadInput(f"Give at most {MAX_EXTRA_DICE} bonus or penalty dice.")
        position = match.end()
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
