"""Armor, shields and braced weapons: what a carried item does in a fight [002, 003, 000].

The documents give armor and shields their jobs without numbers [002 "Armor: Absorbs
damage, lowers critical hit chance. Shields: Provide block reactions and guard actions"];
the numbers live on the item (`bot.rules.models.Armor`, `Shield`, `Weapon`), which the
GM or a loadout sets, and these rules read them. A combatant carries its items in
`Combatant.items`: the first armor is worn, the first shield is held.
"""

from bot.errors import RuleViolation
from bot.rules.acting import require_turn
from bot.rules.initiative import spend_action
from bot.rules.models import Armor, Combatant, Encounter, Shield
from bot.rules.results import Modifier, Result

MOMENTUM_SPACES = 3  # +1 damage per 3 spaces of charge [003]


def armor_of(combatant: Combatant) -> Armor | None:
    """Return the armor a combatant wears, if any."""
    return next((i for i in combatant.items if isinstance(i, Armor)), None)


def shield_of(combatant: Combatant) -> Shield | None:
    """Return the shield a combatant holds, if any."""
    return next((i for i in combatant.items if isinstance(i, Shield)), None)


def crit_range_against(attacker_crit_range: int, target: Combatant) -> int:
    """Return the attacker's critical range against the target's armor: narrowed, at least 1."""
    # Armor lowers the critical chance [002]; the die's top face always stays a Critical
    # [bot], so a crit range of 1 is never narrowed away.
    armor = armor_of(target)
    guard = armor.crit_guard if armor is not None else 0
    return max(1, attacker_crit_range - guard)


def blocking_durability(defender: Combatant) -> int | None:
    """Return the durability a Block puts against penetration: the shield's, else its item's [000]."""
    shield = shield_of(defender)
    if shield is not None and shield.durability is not None:
        return shield.durability
    return defender.durability


def wear_blocking_item(defender: Combatant, loss: int) -> int | None:
    """Take durability off the blocking item (the shield, else the held item); return what is left."""
    shield = shield_of(defender)
    if shield is not None and shield.durability is not None:
        shield.durability = max(0, shield.durability - loss)
        return shield.durability
    if defender.durability is not None:
        defender.durability = max(0, defender.durability - loss)
    return defender.durability


def block_modifiers(defender: Combatant) -> list[Modifier]:
    """Return what a held shield adds to a Block [002 "block reactions"]."""
    shield = shield_of(defender)
    if shield is None or not shield.block:
        return []
    return [Modifier(name=f"Shield ({shield.name})", value=shield.block)]


def guard_modifiers(defender: Combatant) -> list[Modifier]:
    """Return what a raised shield adds to every defense until the guard's next turn [002]."""
    shield = shield_of(defender)
    if not defender.guarding or shield is None or not shield.guard:
        return []
    return [Modifier(name=f"Guard ({shield.name})", value=shield.guard)]


class Guarded(Result):
    """A guard action: the shield raised until the combatant's next turn [002]."""

    combatant_id: int
    shield: str
    bonus: int
    actions_left: int


def guard(encounter: Encounter, combatant: Combatant, *, forced: bool = False) -> Guarded:
    """Raise a held shield: one action; +its guard to every defense until the next turn [002]."""
    # "Guarding" is one of [000]'s sub actions, and [003] gives two actions a round: a
    # guard spends one of them [bot]. Its end is the combatant's next turn start.
    shield = shield_of(combatant)
    if shield is None:
        raise RuleViolation("{name} holds no shield to guard with.", name=combatant.name)
    if combatant.guarding:
        raise RuleViolation(
            "{name} is already guarding with {shield}.", name=combatant.name, shield=shield.name
        )
    require_turn(encounter, combatant, "guard", forced=forced)
    left = spend_action(combatant)
    combatant.guarding = True
    return Guarded(
        combatant_id=combatant.id, shield=shield.name, bonus=shield.guard, actions_left=left
    )


def momentum(spaces: int) -> int:
    """Return the momentum of a charge: +1 damage per 3 spaces moved [003]."""
    return spaces // MOMENTUM_SPACES
