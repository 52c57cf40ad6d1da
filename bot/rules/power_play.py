"""An Active power played as an attack [GAME.md §9, 001 §2, §11.15].

An Active spends the attack action and attacks with the power's damage dice, range and
area through the ordinary attack flow (`bot.rules.attack_flow`): a Spell is tagged so
(Hex adds to it, Sundered to the others); its Specials go with the attack and land on
whoever takes a hit, with the user as source. An area Active rolls once and checks that
roll against each target's own defense, each resolved on its own [001 §11.15 "Instant
Attack AoEs use one roll against each target's individual defense, resolve every
creature independently"]: each target chooses its defense as usual.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from bot.errors import BadInput, RuleViolation
from bot.i18n import N_
from bot.rules.attack_flow import (
    Declared,
    _attacking,
    attack_situation,
    declare_rolled,
    expire_counters,
    require_can_attack,
)
from bot.rules.attacks import AttackSpec, roll_attack, validate_spec
from bot.rules.models import Combatant, Encounter, KnownPower
from bot.rules.powers import attack_options, check_active, count_use
from bot.rules.specials import SpecialBook

MAX_AREA_TARGETS = 10  # targets of one area power [bot]
TOO_MANY_TARGETS = N_("An area power takes at most {most} targets.")


def on_hit(power: KnownPower, user: Combatant, book: SpecialBook) -> list[dict[str, Any]]:
    """Return a power's Specials as an attack carries them: definition, X, the user as source."""
    carried = []
    for special in power.specials:
        definition = book.get(special.name)
        if definition is None:
            raise BadInput(
                "{power}'s Special {special} is not in the catalogue.",
                power=power.name,
                special=special.name,
            )
        carried.append(
            {"special": definition.model_dump(mode="json"), "x": special.x, "source": user.name}
        )
    return carried


def check_targets(power: KnownPower, user: Combatant, targets: Sequence[Combatant]) -> None:
    """Refuse targets an Active cannot take: none, several without an area, repeats, itself."""
    if not targets:
        raise BadInput(
            "Name whom {power} targets (target:, or targets: for an area).", power=power.name
        )
    if len(targets) > 1 and power.radius_m is None:
        raise RuleViolation("{power} has no area: it takes one target.", power=power.name)
    if len(targets) > MAX_AREA_TARGETS:
        raise BadInput(TOO_MANY_TARGETS, most=MAX_AREA_TARGETS)
    if len({t.id for t in targets}) != len(targets):
        raise BadInput("A target is named twice; an area power checks each creature once.")
    if any(t.id == user.id for t in targets):
        raise RuleViolation(
            "{name} cannot target themself with {power}.", name=user.name, power=power.name
        )


def use_active(
    encounter: Encounter,
    user: Combatant,
    power: KnownPower,
    targets: Sequence[Combatant],
    rng: random.Random,
    book: SpecialBook,
    *,
    attack_id: str,
    now: float,
    timeout: float,
    distance: int = 0,
    forced: bool = False,
) -> list[Declared]:
    """Play an Active: one attack roll, then each target defended and resolved on its own."""
    if power.kind != "active":
        raise BadInput("{power} is not an Active.", power=power.name)
    check_targets(power, user, targets)
    options = attack_options(power, distance)
    check_active(encounter, user, power)
    expire_counters(encounter)
    specs = []
    for target in targets:  # every refusal before anything changes
        situation = attack_situation(encounter, user, target)
        spec = AttackSpec(**{**situation, **options})
        validate_spec(spec, user)
        forced = require_can_attack(encounter, user, target, spec, forced=forced)
        specs.append(spec)
    carried = on_hit(power, user, book)
    # One roll for the area [001 §11.15]: the crit range is the user's own, not narrowed
    # by any one target's armor [bot].
    roll = roll_attack(user, specs[0], rng, target=targets[0] if len(targets) == 1 else None)
    common = {**_attacking(user, specs[0]), "forced": forced}
    count_use(encounter, user, power)
    declared = []
    for index, (target, spec) in enumerate(zip(targets, specs, strict=True)):
        declared.append(
            declare_rolled(
                encounter,
                user,
                target,
                spec,
                roll,
                rng,
                common={**common, "defender_id": target.id},
                attack_id=attack_id if len(targets) == 1 else f"{attack_id}-{index + 1}",
                now=now,
                timeout=timeout,
                spell=power.spell,
                power=power.name,
                on_hit=carried,
            )
        )
    return declared
