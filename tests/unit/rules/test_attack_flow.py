"""An attack between /attack and its resolution: choices, pending attacks, counters."""

from __future__ import annotations

import random

import pytest

from bot.errors import BadInput, DiceError, NotFound, RuleViolation
from bot.rules.attack_flow import (
    apply_except_grit,
    can_sacrifice,
    counter_style,
    expire_counters,
    find_pending,
    new_pending,
    no_choice_reason,
    offer_counter,
    parse_extra_dice,
    pending_on,
    pending_roll,
    pending_spec,
    strategies,
    take_counter,
    take_pending,
    use_sacrifice,
)
from bot.rules.attacks import AttackRoll, AttackSpec, resolve_attack, roll_attack
from bot.rules.long_actions import start_long_action
from bot.rules.models import ActiveSpecial, Combatant, Declaration, Encounter, PendingAttack
from tests.unit.rules.factories import combatant


def open_attack(encounter: Encounter, **fields: object) -> PendingAttack:
    """Record an attack that waits for its defender, as declare_attack does."""
    pending = new_pending(**fields)  # type: ignore[arg-type]
    encounter.pending_attacks.append(pending)
    return pending


def _encounter(*combatants: Combatant) -> Encounter:
    return Encounter(channel_id=1, gm_id=9, combatants=list(combatants))


def _roll(attacker: Combatant, spec: AttackSpec, natural: int) -> AttackRoll:
    """Roll until the attack's natural face is the one wanted (seeds are cheap)."""
    for seed in range(10_000):
        roll = roll_attack(attacker, spec, random.Random(seed))
        if roll.core.natural == natural:
            return roll
    raise AssertionError(f"no seed rolls a natural {natural}")


def _pair() -> tuple[Combatant, Combatant]:
    return combatant("Mira", id=1, physical=4), combatant("Goblin", id=2, physical=3)


# Who is asked.


@pytest.mark.parametrize("natural", [10, 20, 1])
def test_the_defender_is_asked_whatever_the_dice(natural: int) -> None:
    """A Critical or a natural 1 settled at once: the defender chooses blind [GAME.md §10]."""
    mira, goblin = _pair()
    spec = AttackSpec()
    _roll(mira, spec, natural)  # the roll exists, and nothing about the choice depends on it
    assert no_choice_reason(goblin, spec) is None
    assert strategies(goblin, spec) == ["block", "dodge", "break_away"]


@pytest.mark.parametrize(
    ("spec", "reason"),
    [
        (AttackSpec(surprised=True), "surprised"),
        (AttackSpec(counter=True), "counter"),
        (AttackSpec(stealth=True), "perception"),
        (AttackSpec(fixed_object=True, style="ranged", distance=2), "fixed_object"),
    ],
)
def test_the_defender_is_not_asked_when_nothing_depends_on_it(
    spec: AttackSpec, reason: str
) -> None:
    """A surprised defender, a counter's target, a stealth attack's target or an object was asked."""
    _mira, goblin = _pair()
    assert no_choice_reason(goblin, spec) == reason


@pytest.mark.parametrize(
    ("kind", "reason"),
    [("focused", "focused_long_action"), ("cumulative", "cumulative_long_action")],
)
def test_a_long_action_being_performed_leaves_no_choice(kind: str, reason: str) -> None:
    """A defender performing a long action this round was asked for a defense [000]."""
    _mira, goblin = _pair()
    start_long_action(goblin, "Ritual", kind, 3)  # type: ignore[arg-type]
    assert no_choice_reason(goblin, AttackSpec()) is None  # not performed this round
    goblin.declaration = Declaration(text="Ritual", kind="long")
    assert no_choice_reason(goblin, AttackSpec()) == reason


def test_a_broken_defender_is_not_asked() -> None:
    """A Broken defender was asked for a defense."""
    _mira, goblin = _pair()
    goblin.grit = 0
    assert no_choice_reason(goblin, AttackSpec()) == "broken"


def test_a_stunned_defender_cannot_react() -> None:
    """A Stunned defender was asked for a defense or offered a sacrifice [GAME.md §7]."""
    _mira, goblin = _pair()
    goblin.specials.append(ActiveSpecial(name="Stunned"))
    assert no_choice_reason(goblin, AttackSpec()) == "stunned"
    assert strategies(goblin, AttackSpec()) == []
    assert not can_sacrifice(goblin, AttackSpec())


@pytest.mark.parametrize(
    ("spec", "stamina", "expected"),
    [
        (AttackSpec(style="melee"), None, ["block", "dodge", "break_away"]),
        (AttackSpec(style="ranged", distance=3), None, ["block", "dodge"]),
        (AttackSpec(style="ranged", distance=3, cover=2), None, ["block", "dodge", "take_cover"]),
        (AttackSpec(style="ranged", distance=3, cover=2), 0, ["block", "take_cover"]),
        (AttackSpec(style="melee"), 0, ["block", "dodge", "break_away"]),
    ],
)
def test_the_strategies_offered(spec: AttackSpec, stamina: int | None, expected: list[str]) -> None:
    """The defense buttons did not match the style, the cover and the stamina left."""
    assert strategies(combatant(stamina=stamina), spec) == expected


def test_sacrifice_needs_an_action_and_a_die() -> None:
    """A defender without an action left, or Broken, was offered a sacrifice."""
    spec = AttackSpec()
    assert can_sacrifice(combatant(actions_left=1), spec)
    assert not can_sacrifice(combatant(actions_left=0), spec)
    assert not can_sacrifice(combatant(grit=0), spec)


# Bonus and penalty dice.


@pytest.mark.parametrize(
    ("text", "bonus", "penalty"),
    [
        (None, (), ()),
        ("+1d10", ("1d10",), ()),
        ("+1d10 -1d6", ("1d10",), ("1d6",)),
        ("2d4, -d6", ("2d4",), ("1d6",)),
        ("+ 1d8", ("1d8",), ()),
        ("+600d6 -400d6", ("600d6",), ("400d6",)),  # 1000 dice: the limit [GAME.md §3]
    ],
)
def test_bonus_and_penalty_dice_are_read(
    text: str | None, bonus: tuple[str, ...], penalty: tuple[str, ...]
) -> None:
    """Bonus and penalty dice were not read as written."""
    assert parse_extra_dice(text) == (bonus, penalty)


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("+1d10 x", BadInput),
        ("3", BadInput),
        ("1d1001", DiceError),
        ("+1d6 " * 11, BadInput),
        ("+600d6 -401d6", DiceError),  # 1,001 dice in one roll [GAME.md §3: at most 1000]
    ],
)
def test_bad_bonus_dice_are_refused(text: str, error: type[Exception]) -> None:
    """Malformed, oversized or too many bonus dice were accepted."""
    with pytest.raises(error):
        parse_extra_dice(text)


# Pending attacks.


def test_a_pending_attack_survives_the_encounters_json() -> None:
    """A pending attack's spec and roll did not come back from the stored JSON unchanged."""
    mira, goblin = _pair()
    encounter = _encounter(mira, goblin)
    spec = AttackSpec(style="ranged", distance=7, bonus_dice=("1d10",), advantage="advantage")
    roll = _roll(mira, spec, 12)
    open_attack(
        encounter,
        attack_id="42",
        attacker=mira,
        defender=goblin,
        spec=spec,
        roll=roll,
        now=100.0,
        timeout=60,
    )
    stored = Encounter.model_validate_json(encounter.model_dump_json())
    pending = find_pending(stored, "42")
    assert (pending.due_at, pending.sacrifice_offered) == (160.0, True)
    assert pending_spec(pending) == spec
    assert pending_roll(pending) == roll


def test_a_pending_attack_is_taken_once() -> None:
    """A pending attack could be taken (resolved) twice."""
    mira, goblin = _pair()
    encounter = _encounter(mira, goblin)
    spec = AttackSpec()
    open_attack(
        encounter,
        attack_id="1",
        attacker=mira,
        defender=goblin,
        spec=spec,
        roll=_roll(mira, spec, 9),
        now=0,
        timeout=60,
    )
    assert take_pending(encounter, "1").id == "1"
    with pytest.raises(NotFound, match="already been resolved"):
        take_pending(encounter, "1")


def test_pending_attacks_on_a_defender_oldest_first() -> None:
    """The attacks waiting on a defender were not listed oldest first, or included others'."""
    mira, goblin = _pair()
    encounter = _encounter(mira, goblin)
    spec = AttackSpec()
    roll = _roll(mira, spec, 9)
    for attack_id, now in (("late", 50.0), ("early", 10.0)):
        open_attack(
            encounter,
            attack_id=attack_id,
            attacker=mira,
            defender=goblin,
            spec=spec,
            roll=roll,
            now=now,
            timeout=60,
        )
    assert [p.id for p in pending_on(encounter, {goblin.id})] == ["early", "late"]
    assert pending_on(encounter, {mira.id}) == []


def test_a_sacrifice_is_made_once_per_attack() -> None:
    """A defender could sacrifice twice against one attack, or without an action offered."""
    mira, goblin = _pair()
    encounter = _encounter(mira, goblin)
    spec = AttackSpec()
    pending = open_attack(
        encounter,
        attack_id="1",
        attacker=mira,
        defender=goblin,
        spec=spec,
        roll=_roll(mira, spec, 9),
        now=0,
        timeout=60,
    )
    use_sacrifice(pending)
    with pytest.raises(RuleViolation, match="already sacrificed"):
        use_sacrifice(pending)
    pending.sacrifice_offered = False
    pending.sacrificed = False
    with pytest.raises(RuleViolation, match="no action to sacrifice"):
        use_sacrifice(pending)


# Counter-attacks.


def _fumble(encounter: Encounter, spec: AttackSpec) -> None:
    mira, goblin = encounter.combatants
    roll = _roll(mira, spec, 1)
    result = resolve_attack(roll, mira, goblin, None, spec, random.Random(0))
    assert offer_counter(encounter, "7", result, spec) is not None


@pytest.mark.parametrize(
    ("style", "counter"),
    [("melee", "melee"), ("targeted", "melee"), ("unarmed", "melee"), ("ranged", "ranged")],
)
def test_a_counter_strikes_back_in_kind(style: str, counter: str) -> None:
    """A counter-attack's style did not follow the fumbled attack's: melee, else ranged."""
    assert counter_style(style) == counter  # type: ignore[arg-type]


def test_a_natural_one_opens_a_counter_for_the_defender() -> None:
    """A natural 1 did not open a counter-attack by the defender on the attacker, at its range."""
    encounter = _encounter(*_pair())
    _fumble(encounter, AttackSpec(style="ranged", distance=6))
    offer = take_counter(encounter, attack_id="7")
    assert (offer.counterer_id, offer.target_id, offer.style, offer.distance) == (
        2,
        1,
        "ranged",
        6,
    )
    with pytest.raises(NotFound, match="no longer open"):
        take_counter(encounter, attack_id="7")


def test_a_risk_failure_above_one_opens_no_counter() -> None:
    """A Risk failure that was not a natural 1 opened a counter-attack."""
    mira, goblin = _pair()
    encounter = _encounter(mira, goblin)
    spec = AttackSpec(base_risk=4)
    result = resolve_attack(_roll(mira, spec, 3), mira, goblin, None, spec, random.Random(0))
    assert offer_counter(encounter, "7", result, spec) is None
    assert encounter.counter_offers == []


def test_a_counter_is_open_only_this_round() -> None:
    """A counter-attack was still open after the round ended."""
    encounter = _encounter(*_pair())
    _fumble(encounter, AttackSpec())
    encounter.round += 1
    expire_counters(encounter)
    assert encounter.counter_offers == []


def test_a_counter_is_found_by_who_strikes_whom() -> None:
    """A counter-attack was not found by counterer and target, or a wrong pair found one."""
    mira, goblin = _pair()
    encounter = _encounter(mira, goblin)
    _fumble(encounter, AttackSpec())
    with pytest.raises(RuleViolation, match="no counter-attack against Goblin"):
        take_counter(encounter, counterer=mira, target=goblin)
    assert take_counter(encounter, counterer=goblin, target=mira).id == "7"


# Applying.


def test_applying_writes_stamina_durability_and_long_action_but_not_grit() -> None:
    """Applying an attack's side effects changed Grit, or missed stamina, durability or a long action."""
    mira = combatant("Mira", id=1, finesse=30)
    goblin = combatant("Goblin", id=2, durability=3, stamina=2)
    start_long_action(goblin, "Ritual", "focused", 3)
    goblin.declaration = Declaration(text="Ritual", kind="long")
    goblin.long_action.progress = 2  # type: ignore[union-attr]
    spec = AttackSpec(style="ranged", penetration=5, distance=2)
    roll = _roll(mira, spec, 10)
    result = resolve_attack(roll, mira, goblin, None, spec, random.Random(0))
    assert result.hit
    effects = apply_except_grit(result, goblin)
    assert goblin.grit == 30
    assert effects.long_action is not None
    assert (effects.long_action.progress_before, effects.long_action.progress_after) == (2, 0)
    assert goblin.long_action.progress == 0  # type: ignore[union-attr]


def test_a_ranged_block_wears_the_item_and_a_dodge_spends_stamina() -> None:
    """A blocked hit with penetration did not wear the item, or a ranged dodge spent no stamina."""
    mira = combatant("Mira", id=1, finesse=40)
    goblin = combatant("Goblin", id=2, durability=3, stamina=2)
    spec = AttackSpec(style="ranged", penetration=5, distance=2)
    blocked = resolve_attack(_roll(mira, spec, 10), mira, goblin, "block", spec, random.Random(0))
    assert apply_except_grit(blocked, goblin).durability_after == 2
    dodged = resolve_attack(_roll(mira, spec, 10), mira, goblin, "dodge", spec, random.Random(0))
    assert apply_except_grit(dodged, goblin).stamina_after == 1
    assert goblin.grit == 30
