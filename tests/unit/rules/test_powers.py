"""Powers on sheets and in play: the SRD's numbers [001 §2, Temporal Segments, Power Level Cap]."""

from __future__ import annotations

import pytest

from bot.catalogue.lookup import Lookup
from bot.catalogue.models import Catalogue, load_catalogue
from bot.errors import RuleViolation
from bot.rules.models import KnownPower
from bot.rules.powers import (
    buff_turn_start,
    built_power,
    catalogue_power,
    check_uses,
    count_use,
    learn,
    level_cap,
    start_buff,
    use_reaction,
)
from bot.rules.specials import SpecialBook
from bot.specials_hooks import SpecialHooks
from tests.unit.rules.factories import combatant, fight


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return load_catalogue()


@pytest.fixture(scope="module")
def lookup(catalogue: Catalogue) -> Lookup:
    return Lookup(catalogue)


@pytest.mark.parametrize(("rank", "cap"), [(1, 4), (2, 4), (3, 8), (4, 12), (5, 16), (10, 16)])
def test_the_level_cap_is_the_srds_power_level_cap(catalogue, rank, cap) -> None:
    """[001 Power Level Cap]: MR 1-2 → Level 4, MR 3 → 8, MR 4 → 12, MR 5+ → 16."""
    assert level_cap(catalogue, rank) == cap


def test_passive_slots_follow_the_mastery_rank(catalogue, lookup) -> None:
    """[001 Passive Loadout]: MR 2 has 2 Passive slots; a third Passive is refused."""
    powers: list[KnownPower] = []
    for key in ("passive:initiative", "passive:armor"):
        learn(catalogue, powers, catalogue_power(catalogue, lookup.get(key), 1), 2)
    with pytest.raises(RuleViolation, match="Mastery Rank 2 has 2 Passive slots"):
        learn(catalogue, powers, catalogue_power(catalogue, lookup.get("passive:evade"), 1), 2)


def test_a_catalogue_level_gives_the_srds_numbers(catalogue, lookup) -> None:
    """[001 §10.2]: Active L3 targets 90 PP, which buys 6d8 of Pure Output at 15 PP per d8."""
    power = catalogue_power(catalogue, lookup.get("active:pure_output"), 3)
    assert (power.damage, power.pp, power.target_pp) == ("6d8", 90.0, 90.0)
    initiative = catalogue_power(catalogue, lookup.get("passive:initiative"), 3)
    assert initiative.initiative == 6  # [001 Initiative Passive: +2 per level]


def test_a_build_is_priced_as_pp_price_and_refused_over_its_curve(catalogue) -> None:
    """[001 §10.3]: 2d8 (30) + range 16 m (10) + radius 3 m (50) + Ruin 2 (4 × 3 = 12) = 102 PP."""
    built = built_power(catalogue, "Hellfire", "active", 4, "damage:2d8 range:16 radius:3 ruin:2")
    assert built.power.pp == 102.0 and built.power.target_pp == 120.0
    with pytest.raises(RuleViolation, match="102 PP against a target of 90 PP, 12 PP over"):
        built_power(catalogue, "Hellfire", "active", 3, "damage:2d8 range:16 radius:3 ruin:2")
    allowed = built_power(
        catalogue,
        "Hellfire",
        "active",
        3,
        "damage:2d8 range:16 radius:3 ruin:2",
        allow_over_curve=True,
    )
    assert allowed.power.over_curve


def test_a_buff_lasts_mastery_rank_rounds_and_one_is_maintained(catalogue, lookup) -> None:
    """[001 §2 Active Buffs]: "Duration: Typically Mastery Rank Rounds"; "only one Active Buff"."""
    mira = combatant("Mira", finesse=5, mastery_rank=3)
    encounter = fight(mira, combatant("Goblin"))
    damage = catalogue_power(catalogue, lookup.get("active_buff:damage"), 1)
    healing = catalogue_power(catalogue, lookup.get("active_buff:healing"), 1)
    first = start_buff(encounter, mira, damage)
    assert (first.rounds, first.buff.until_round, first.replaced) == (3, 4, None)
    second = start_buff(encounter, mira, healing)
    assert second.replaced == "Damage" and mira.buff is not None and mira.buff.name == "Healing"
    encounter.round = 3
    assert buff_turn_start(encounter, mira).ended is False
    encounter.round = 4
    assert buff_turn_start(encounter, mira).ended is True
    assert mira.buff is None


@pytest.mark.parametrize(
    ("limit", "later_round", "again"),
    [
        ("round", 1, False),
        ("round", 2, True),  # "Refreshes when the next Round begins" [001]
        ("combat", 2, False),  # "Refreshes when the fight ends"
    ],
)
def test_a_limited_power_is_refused_in_its_spent_segment(limit, later_round, again) -> None:
    """[001 Temporal Segments]: once per Round refreshes with the round; per Combat does not."""
    mira = combatant("Mira", finesse=5)
    encounter = fight(mira)
    power = KnownPower(name="Jab", kind="active", level=1, limit=limit, damage="1d8")
    check_uses(encounter, mira, power)
    count_use(encounter, mira, power)
    encounter.round = later_round
    if again:
        check_uses(encounter, mira, power)
    else:
        with pytest.raises(RuleViolation, match="Jab is once per"):
            check_uses(encounter, mira, power)


def test_one_reaction_a_round(catalogue, lookup) -> None:
    """[001 §1 System Meta]: "1 Movement • 1 Attack Action • 1 Reaction per round"."""
    mira = combatant("Mira")
    encounter = fight(mira, combatant("Goblin", finesse=9))
    evade = catalogue_power(catalogue, lookup.get("reaction:evade"), 1)
    assert use_reaction(encounter, mira, evade).effect == "Evade +4"  # 20 PP ÷ 5 PP per +1
    with pytest.raises(RuleViolation, match="one per round"):
        use_reaction(encounter, mira, evade)


def test_namesakes_of_other_types_are_told_apart(catalogue, lookup) -> None:
    """Armor is an Active Buff and a Passive [001 §9.1, Passive catalogue]: the second was refused."""
    powers: list[KnownPower] = []
    learn(catalogue, powers, catalogue_power(catalogue, lookup.get("active_buff:armor"), 1), 2)
    learn(catalogue, powers, catalogue_power(catalogue, lookup.get("passive:armor"), 1), 2)
    assert [p.name for p in powers] == ["Armor", "Armor (Passive)"]


def test_a_healing_passive_heals_at_each_turn_start(catalogue, lookup) -> None:
    """Passive Healing L1: 20 PP at 8 PP per unconditional HP = 2 a turn [001 Passive curve]."""
    mira = combatant("Mira", grit=20)
    mira.powers = [catalogue_power(catalogue, lookup.get("passive:healing"), 1)]
    encounter = fight(mira, start=False)
    hooks = SpecialHooks(SpecialBook(catalogue.specials.specials))
    (healed,) = hooks.turn_start(encounter, mira)
    assert healed.healed == 2 and mira.grit == 22
