"""Initiative modes, tie-breaks, actions, sacrifice and the ambush [GAME.md §5]."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.errors import BadInput, RuleViolation
from bot.rules.initiative import (
    actions_per_round,
    declare_minor_act,
    order_for_round,
    roll_ambush,
    sacrifice,
    sacrifice_bonus,
    spend_action,
    stand_up,
)
from bot.rules.models import Combatant
from tests.scripted import ScriptedRandom, d10
from tests.unit.rules.factories import combatant


def _names(entries) -> list[str]:
    return [e.name for e in entries]


def test_fortune_adds_finesse_bonus_haste_hold_and_minor_acts() -> None:
    """Seed 3's 8 + Finesse 4 + bonus 2 + Haste 3 + Hold 10 − 2×2 minor acts is not 23."""
    mira = combatant(finesse=4, initiative_bonus=2, hasted=True, holding=True, minor_acts=2)
    (entry,) = order_for_round([mira], "fortune", random.Random(3))
    assert (entry.die, entry.faces, entry.total) == (20, [8], 23)
    assert [(b.name, b.value) for b in entry.bonuses] == [
        ("Initiative bonus", 2),
        ("Haste", 3),
        ("Hold", 10),
        ("Minor acts ×2", -4),
    ]


def test_fortune_rolls_the_combatants_current_core_die() -> None:
    """A Reduced combatant's initiative is not rolled on a d12."""
    (entry,) = order_for_round([combatant(grit=15)], "fortune", random.Random(0))
    assert entry.die == 12


def test_higher_initiative_acts_first() -> None:
    """Seed 1's order is not by total, highest first."""
    entries = order_for_round(
        [combatant("A", finesse=3), combatant("B", finesse=0), combatant("C", finesse=1)],
        "fortune",
        random.Random(1),
    )
    totals = [e.total for e in entries]
    assert totals == sorted(totals, reverse=True)


def test_finesse_mode_orders_by_finesse_without_a_roll() -> None:
    """Finesse mode rolled dice or did not order by Finesse."""
    entries = order_for_round(
        [combatant("Slow", finesse=1), combatant("Quick", finesse=5)], "finesse", random.Random(0)
    )
    assert _names(entries) == ["Quick", "Slow"]
    assert [e.faces for e in entries] == [[], []]
    assert [e.total for e in entries] == [5, 1]


def test_ties_go_to_higher_finesse() -> None:
    """Equal totals were not broken by higher Finesse [000]."""
    a, b = combatant("Low", id=1, finesse=1), combatant("High", id=2, finesse=4)
    entries = order_for_round([a, b], "fortune", random.Random(0), existing={1: 12, 2: 12})
    assert _names(entries) == ["High", "Low"]
    assert all(e.kept and not e.rolloff for e in entries)


def test_ties_then_go_to_player_characters() -> None:
    """Equal totals and Finesse did not put the player character before the NPC [000]."""
    npc = combatant("Goblin", id=1, finesse=2, is_npc=True)
    pc = combatant("Mira", id=2, finesse=2, is_npc=False, side="party")
    entries = order_for_round([npc, pc], "fortune", random.Random(0), existing={1: 12, 2: 12})
    assert _names(entries) == ["Mira", "Goblin"]


def test_ties_then_go_to_a_d20_roll_off() -> None:
    """Seed 1's roll-off (A 5, B 19) did not put B first and record the faces [000]."""
    a, b = combatant("A", id=1, finesse=2), combatant("B", id=2, finesse=2)
    entries = order_for_round([a, b], "fortune", random.Random(1), existing={1: 12, 2: 12})
    assert [(e.name, e.rolloff) for e in entries] == [("B", [19]), ("A", [5])]


def test_a_tied_roll_off_rolls_again() -> None:
    """Seed 26's tied roll-off (7, 7) was not rolled again (B 20, A 14)."""
    a, b = combatant("A", id=1, finesse=2), combatant("B", id=2, finesse=2)
    entries = order_for_round([a, b], "fortune", random.Random(26), existing={1: 12, 2: 12})
    assert [(e.name, e.rolloff) for e in entries] == [("B", [7, 20]), ("A", [7, 14])]


@pytest.mark.parametrize("mode", ["finesse", "sides", "once"])
def test_outside_fortune_haste_goes_to_the_front(mode: str) -> None:
    """A hasted combatant with the lowest Finesse was not placed first [GAME.md §5, bot]."""
    entries = order_for_round(
        [combatant("Quick", finesse=9), combatant("Hasty", finesse=0, hasted=True)],
        mode,
        random.Random(0),
    )
    assert entries[0].name == "Hasty"
    assert entries[0].front == "haste"


@pytest.mark.parametrize("mode", ["finesse", "sides", "once"])
def test_outside_fortune_hold_goes_first_before_haste(mode: str) -> None:
    """A holding combatant was not first next round, ahead of the hasted [GAME.md §5, bot]."""
    entries = order_for_round(
        [
            combatant("Quick", finesse=9),
            combatant("Hasty", finesse=5, hasted=True),
            combatant("Holder", finesse=0, holding=True),
        ],
        mode,
        random.Random(0),
    )
    assert _names(entries) == ["Holder", "Hasty", "Quick"]


def test_broken_combatants_are_listed_last_without_a_roll() -> None:
    """A Broken combatant rolled initiative or was not listed last."""
    entries = order_for_round(
        [combatant("Down", grit=0, finesse=9), combatant("Up", finesse=0)],
        "fortune",
        random.Random(0),
    )
    assert _names(entries) == ["Up", "Down"]
    assert (entries[1].broken, entries[1].total, entries[1].faces) == (True, None, [])


def test_sides_rolls_once_per_side_by_its_best_finesse() -> None:
    """Seed 5: foes (F1 20 + 4) did not beat the party (P2 9 + 5), one roll per side [002]."""
    entries = order_for_round(
        [
            combatant("P1", finesse=2, side="party", is_npc=False),
            combatant("P2", finesse=5, side="party", is_npc=False),
            combatant("F1", finesse=4),
            combatant("F2", finesse=1),
        ],
        "sides",
        random.Random(5),
    )
    assert [(e.name, e.total, e.faces) for e in entries] == [
        ("F1", 24, [20]),
        ("F2", 24, []),
        ("P2", 14, [9]),
        ("P1", 14, []),
    ]


def test_once_mode_keeps_earlier_totals() -> None:
    """Once mode re-rolled a combatant that already has a total for the fight."""
    a, b = combatant("A", id=1), combatant("B", id=2)
    entries = order_for_round([a, b], "once", random.Random(0), existing={1: 3})
    kept = next(e for e in entries if e.name == "A")
    assert (kept.total, kept.kept, kept.faces) == (3, True, [])
    assert next(e for e in entries if e.name == "B").faces


def test_only_rolls_the_named_combatants_afresh() -> None:
    """`only` did not re-roll the listed combatant while keeping the others."""
    a, b = combatant("A", id=1), combatant("B", id=2)
    entries = order_for_round([a, b], "fortune", random.Random(0), only=[2], existing={1: 3, 2: 4})
    by_name = {e.name: e for e in entries}
    assert by_name["A"].kept and by_name["A"].total == 3
    assert not by_name["B"].kept and by_name["B"].faces


def test_an_unknown_mode_is_refused() -> None:
    """An unknown initiative mode was accepted."""
    with pytest.raises(BadInput):
        order_for_round([combatant()], "chaos", random.Random(0))  # type: ignore[arg-type]


_combatants = st.lists(
    st.builds(
        lambda i, finesse, npc, side, grit, hasted, holding, bonus: Combatant(
            id=i,
            name=f"C{i}",
            finesse=finesse,
            is_npc=npc,
            side=side,
            grit=grit,
            hasted=hasted,
            holding=holding,
            initiative_bonus=bonus,
        ),
        st.integers(1, 10_000),
        st.integers(0, 4),
        st.booleans(),
        st.sampled_from(["party", "foes"]),
        st.sampled_from([0, 5, 15, 30]),
        st.booleans(),
        st.booleans(),
        st.integers(0, 2),
    ),
    max_size=12,
    unique_by=lambda c: c.id,
)


@given(_combatants, st.sampled_from(["fortune", "finesse", "sides", "once"]), st.integers(0, 2**32))
def test_initiative_is_a_total_order_respecting_the_tie_breaks(combatants, mode, seed) -> None:
    """The order lost or repeated someone, or broke a tie against Finesse, PCs or the roll-off."""
    entries = order_for_round(combatants, mode, random.Random(seed))
    assert sorted(e.combatant_id for e in entries) == sorted(c.id for c in combatants)
    for first, second in pairwise(entries):
        assert (first.sort_key, first.combatant_id) < (second.sort_key, second.combatant_id)
        if first.broken or second.broken:
            assert second.broken
            continue
        if (first.front, first.side_rank, first.total) == (
            second.front,
            second.side_rank,
            second.total,
        ):
            # Equal totals: higher Finesse, then PCs, then the roll-off decided.
            assert (-first.finesse, first.is_npc) <= (-second.finesse, second.is_npc)
            if (first.finesse, first.is_npc) == (second.finesse, second.is_npc):
                assert first.rolloff > second.rolloff


@pytest.mark.parametrize(("fields", "actions"), [({}, 2), ({"hasted": True}, 1), ({"grit": 0}, 0)])
def test_actions_per_round(fields: dict, actions: int) -> None:
    """A combatant does not get 2 actions, 1 when Hasted, 0 when Broken [003]."""
    assert actions_per_round(combatant(**fields)) == actions


def test_spending_more_actions_than_left_is_refused() -> None:
    """A third action in a round was allowed."""
    mira = combatant(actions_left=1)
    assert spend_action(mira) == 0
    with pytest.raises(RuleViolation, match="0 actions left"):
        spend_action(mira)


def test_sacrifice_costs_an_action_and_gives_plus_three() -> None:
    """Sacrificing twice for defense did not cost two actions and give +6 [003]."""
    mira = combatant()
    first = sacrifice(mira, "defense")
    second = sacrifice(mira, "defense")
    assert (first.bonus, second.bonus, second.actions_left) == (3, 6, 0)
    assert sacrifice_bonus(mira, "defense") == 6
    assert sacrifice_bonus(mira, "attack") == 0


def test_sacrifice_without_actions_left_is_refused() -> None:
    """A sacrifice with no actions left was allowed."""
    with pytest.raises(RuleViolation):
        sacrifice(combatant(actions_left=0), "attack")


def test_each_minor_act_costs_two_initiative() -> None:
    """Two minor acts before the turn did not cost −4 initiative [003]."""
    mira = combatant()
    declare_minor_act(mira)
    assert declare_minor_act(mira) == -4


def test_standing_up_costs_an_action() -> None:
    """Standing from prone did not cost one action [003]."""
    mira = combatant(prone=True)
    assert stand_up(mira) == 1
    assert not mira.prone


def test_ambush_rolls_d20_with_stealth_and_d10_without() -> None:
    """Seed 0: the Stealth ambusher's d20 13 did not beat Perception 12 while the d10 7 failed [002]."""
    sneak, brute = combatant("Ash", tags=["Stealth"]), combatant("Bo")
    watcher, other = combatant("Eyes", perception_m=12), combatant("Dull", grit=15)
    ambush = roll_ambush([sneak, brute], [other, watcher], random.Random(0))
    assert (ambush.perception, ambush.perceiver_id) == (12, watcher.id)
    assert [(r.die, r.face, r.success) for r in ambush.rolls] == [(20, 13, True), (10, 7, False)]
    assert (ambush.succeeded, ambush.failed) == ([sneak.id], [brute.id])


def test_an_ambush_roll_equal_to_perception_succeeds() -> None:
    """A roll equal to the highest Perception failed [bot: a roll that reaches it succeeds]."""
    sneak = combatant("Ash", tags=["stealth"])
    ambush = roll_ambush([sneak], [combatant(perception_m=13)], random.Random(0))
    assert ambush.rolls[0].face == 13
    assert ambush.rolls[0].success


@pytest.mark.parametrize(("face", "success"), [(10, True), (9, False)])
def test_a_d10_ambusher_without_stealth_can_surprise_a_prime_target(
    face: int, success: bool
) -> None:
    """A d10 ambusher could never surprise a Prime target's Perception 10 [002, bot]."""
    plain = combatant("Brute")  # no Stealth skill: d10 [002]
    prime = combatant("Guard", grit=30)  # Prime: Perception 10 m [002]
    ambush = roll_ambush([plain], [prime], ScriptedRandom([d10(face)]))
    assert (ambush.perception, ambush.rolls[0].die) == (10, 10)
    assert ambush.rolls[0].success is success
