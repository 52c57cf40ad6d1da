"""Reactions to an attack: Protect and Support, and only the highest reaction counts [000, 002].

- **Protect** [000]: another combatant declares, before the attack is processed, that it
  protects the target. It must block; it takes the attack in the target's place. If it is
  engaged with someone else, it must break away first.
- **Support** [002]: an ally of the attacker rolls to enhance the attack; the supporting
  roll must match or exceed the ally's roll to enhance it.
- **Several reactions** to one event: only the highest reaction roll applies [002].

Both are declared on a waiting attack (blind, like the defense: nobody has seen its
dice) and rolled when it settles. The numbers the documents leave open are [bot]
rulings: a reaction costs one action; a support that holds adds +3 to the attack, the
size of every other +3 in [003]; with several protectors the best block applies and
its protector is the one hit.
"""

import random
from collections.abc import Sequence
from typing import Literal

from bot.errors import RuleViolation
from bot.i18n import L_, Lazy
from bot.rules import encounter as flow
from bot.rules.attacks import AttackRoll, Attribute, DefenseRoll
from bot.rules.dice import CoreRoll, roll_action
from bot.rules.initiative import spend_action
from bot.rules.models import Combatant, Encounter, PendingAttack
from bot.rules.results import Modifier, Result
from bot.rules.specials import can_react

REACTION_COST = 1  # actions a Protect or a Support spends [bot]
SUPPORT_BONUS = 3  # a support that matches or beats the ally's roll [bot, after 003's +3]

ReactionKind = Literal["protect", "support"]


def reaction_refusal(
    encounter: Encounter, reactor: Combatant, pending: PendingAttack, kind: ReactionKind
) -> Lazy | None:
    """Return why this combatant cannot make this reaction to the attack, or None if it can."""
    taken = _in_it_already(reactor, pending)
    if taken is not None:
        return taken
    attacker = flow.by_id(encounter, pending.attacker_id)
    defender = flow.by_id(encounter, pending.defender_id)
    return _refusal(encounter, reactor, kind, attacker, defender)


def _in_it_already(reactor: Combatant, pending: PendingAttack) -> Lazy | None:
    """Return why a combatant already in the attack (a party, or reacting) cannot react to it."""
    name = reactor.name
    if reactor.id in (pending.attacker_id, pending.defender_id):
        return L_(
            "{name} is in this attack already; a reaction comes from someone else.", name=name
        )
    if reactor.id in pending.protectors or reactor.id in pending.supporters:
        return L_("{name} already reacts to this attack.", name=name)
    return None


def _refusal(
    encounter: Encounter,
    reactor: Combatant,
    kind: ReactionKind,
    attacker: Combatant,
    defender: Combatant,
) -> Lazy | None:
    """Return why a combatant outside the attack cannot make this reaction to it, or None."""
    name = reactor.name
    ally = defender if kind == "protect" else attacker
    if reactor.side != ally.side:
        return L_("{name} is not on {ally}'s side.", name=name, ally=ally.name)
    if reactor.fixed_object:
        return L_("{name} is a fixed object.", name=name)
    if flow.is_broken(reactor):
        return L_("{name} is Broken and cannot act.", name=name)
    if flow.surprised(encounter, reactor):
        return L_("{name} is surprised: in round zero it takes no actions.", name=name)
    if not can_react(reactor):
        return L_("{name} is Stunned and cannot react until its next turn.", name=name)
    if reactor.grapple is not None:
        return L_("{name} is grappling: Break Away is its only action.", name=name)
    if reactor.actions_left < REACTION_COST:
        return L_("{name} has no action left this round to react with.", name=name)
    if kind == "protect":
        others = [i for i in reactor.engaged_with if i != defender.id]
        if others:
            other = flow.by_id(encounter, others[0])
            return L_(
                "{name} is engaged with {other}: break away first (/breakaway).",
                name=name,
                other=other.name,
            )
    return None


def eligible(encounter: Encounter, pending: PendingAttack, kind: ReactionKind) -> list[Combatant]:
    """Return every combatant that may make this reaction to the attack now."""
    # reaction_refusal for each, with the attack's two parties looked up once: in a fight
    # of 100, two scans of the encounter per combatant were a quarter of an /attack.
    found: list[Combatant] = []
    parties: tuple[Combatant, Combatant] | None = None
    for reactor in encounter.combatants:
        if _in_it_already(reactor, pending) is not None:
            continue
        if parties is None:
            parties = (
                flow.by_id(encounter, pending.attacker_id),
                flow.by_id(encounter, pending.defender_id),
            )
        if _refusal(encounter, reactor, kind, *parties) is None:
            found.append(reactor)
    return found


class Reacted(Result):
    """A reaction declared on a waiting attack: its action is spent; it rolls at settlement."""

    combatant_id: int
    kind: ReactionKind
    attack_id: str
    actions_left: int
    revealed: bool = False  # a hidden NPC gave itself away [bot]


def react(
    encounter: Encounter, reactor: Combatant, pending: PendingAttack, kind: ReactionKind
) -> Reacted:
    """Declare a Protect or a Support on a waiting attack: spend an action, join the attack."""
    refusal = reaction_refusal(encounter, reactor, pending, kind)
    if refusal is not None:
        raise RuleViolation(refusal)
    left = spend_action(reactor, REACTION_COST)
    (pending.protectors if kind == "protect" else pending.supporters).append(reactor.id)
    revealed = reactor.hidden
    # Stepping into an attack shows the reactor: a hidden NPC, a combatant in hiding [bot].
    reactor.hidden = False
    reactor.stealth = False
    return Reacted(
        combatant_id=reactor.id,
        kind=kind,
        attack_id=pending.id,
        actions_left=left,
        revealed=revealed,
    )


# Supporting rolls [002].


class SupportRoll(Result):
    """One supporter's roll: its core die and the attack's attribute."""

    combatant_id: int
    core: CoreRoll | None  # None: it could no longer roll (Broken or gone)
    attribute: Attribute
    attribute_value: int = 0

    @property
    def value(self) -> int:
        """Return the supporting roll's value (0 on a Risk failure: it supports nothing)."""
        if self.core is None or self.core.risk_failure:
            return 0
        return self.core.total + self.attribute_value


class Support(Result):
    """The supports of one attack: every roll, the best, and whether it enhanced the attack."""

    rolls: list[SupportRoll]
    against: int  # the ally's roll it must match or exceed
    bonus: int  # +3 when the best roll holds, else 0

    @property
    def best(self) -> SupportRoll | None:
        """Return the highest supporting roll: only the highest reaction applies [002]."""
        return max(self.rolls, key=lambda r: r.value, default=None)

    @property
    def modifiers(self) -> list[Modifier]:
        """Return what the support adds to the attack."""
        return [Modifier(name="Support", value=self.bonus)] if self.bonus else []


def roll_support(
    supporters: Sequence[Combatant], attack: AttackRoll, rng: random.Random
) -> Support:
    """Roll each supporter's core die + the attack's attribute against the ally's roll [002]."""
    attribute = attack.attribute  # the attack's own: Physical in melee, Finesse at range
    rolls = []
    for supporter in supporters:
        able = not flow.is_broken(supporter)
        rolls.append(
            SupportRoll(
                combatant_id=supporter.id,
                core=roll_action(supporter, rng) if able else None,
                attribute=attribute,
                attribute_value=getattr(supporter, attribute) if able else 0,
            )
        )
    best = max((r.value for r in rolls), default=0)
    holds = bool(rolls) and best >= attack.value  # "must match or exceed" [002]
    return Support(rolls=rolls, against=attack.value, bonus=SUPPORT_BONUS if holds else 0)


# Protect [000].


def best_protection(defenses: Sequence[DefenseRoll]) -> int:
    """Return the index of the block that applies: the highest; the first declared on a tie."""
    if not defenses:
        raise RuleViolation("Nobody protects this attack.")
    best = max(d.value for d in defenses)
    return next(i for i, d in enumerate(defenses) if d.value == best)
