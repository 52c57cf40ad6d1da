"""Specials on combatants [GAME.md §7, 001]: stacking, Cleanse, tick and decay, movement."""

from __future__ import annotations

import random

import pytest

from bot.catalogue.models import Catalogue, Special, load_catalogue
from bot.errors import BadInput, RuleViolation
from bot.rules import encounter as flow
from bot.rules import specials as rules
from bot.rules.hit_bonus import hit_bonus
from bot.rules.models import ActiveSpecial, Combatant, Encounter
from bot.rules.specials import SpecialBook
from bot.specials_hooks import SpecialHooks
from tests.unit.rules.factories import combatant


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return load_catalogue()


@pytest.fixture(scope="module")
def book(catalogue: Catalogue) -> SpecialBook:
    return SpecialBook(catalogue.specials.specials)


@pytest.fixture
def special(catalogue: Catalogue):
    """Return a Special definition by key: special("ruin")."""
    return catalogue.special


def fight(*combatants: Combatant) -> Encounter:
    """Return a round-1 encounter of these combatants (Grit changes need their fight)."""
    return Encounter(channel_id=1, gm_id=99, combatants=list(combatants))


def carried(target: Combatant) -> dict[str, int | None]:
    return {s.name: s.x for s in target.specials}


def turns(target: Combatant, book: SpecialBook, count: int) -> list[int]:
    """Run `count` turn starts; return the Grit after each."""
    grit = []
    for _ in range(count):
        rules.start_turn(fight(target), target, book)
        grit.append(target.grit)
    return grit


# Applying: the stacking rules.


def test_a_diminishing_special_from_a_separate_application_adds(special) -> None:
    """Ruin(2) then Ruin(3) did not stack to Ruin 5 (X → X+Y)."""
    goblin = combatant("Goblin")
    rules.apply_special(goblin, special("ruin"), 2)
    applied = rules.apply_special(goblin, special("ruin"), 3)
    assert applied.outcome == "stacked"
    assert carried(goblin) == {"Ruin": 5}


def test_reapplying_an_until_broken_special_keeps_the_higher_x(special) -> None:
    """Brace(3) over Brace(2), then Brace(1), did not leave Brace 3."""
    mira = combatant()
    rules.apply_special(mira, special("brace"), 2)
    assert rules.apply_special(mira, special("brace"), 3).outcome == "raised"
    assert rules.apply_special(mira, special("brace"), 1).outcome == "kept"
    assert carried(mira) == {"Brace": 3}


def test_stunned_never_stacks(special) -> None:
    """A second Stunned before the first was spent changed something."""
    goblin = combatant("Goblin")
    rules.apply_special(goblin, special("stunned"))
    applied = rules.apply_special(goblin, special("stunned"))
    assert applied.outcome == "no_effect" and not applied.changed
    assert carried(goblin) == {"Stunned": None}


@pytest.mark.parametrize("key", ["stunned", "prone", "immovable"])
def test_binary_specials_take_no_x(special, key: str) -> None:
    """A binary Special accepted an X."""
    with pytest.raises(BadInput, match="takes no X"):
        rules.apply_special(combatant(), special(key), 2)


def test_a_numeric_special_needs_an_x(special) -> None:
    """Ruin was applied without an X."""
    with pytest.raises(BadInput, match="needs an X"):
        rules.apply_special(combatant(), special("ruin"))


@pytest.mark.parametrize("x", [0, -1])
def test_x_must_be_at_least_one(special, x: int) -> None:
    """An X of zero or less was accepted."""
    with pytest.raises(BadInput, match="at least 1"):
        rules.apply_special(combatant(), special("ruin"), x)


def test_root_is_applied_at_least_at_two(special) -> None:
    """Root(1) was accepted, though Root is applied at least at Root(2) [001 §11.12]."""
    with pytest.raises(BadInput, match=r"at least at Root\(2\)"):
        rules.apply_special(combatant(), special("root"), 1)
    target = combatant()
    rules.apply_special(target, special("root"), 2)
    assert carried(target) == {"Root": 2}


def test_challenge_from_the_same_challenger_adds(special) -> None:
    """Challenge(2) then Challenge(1) from Mira did not stack to 3."""
    goblin = combatant("Goblin")
    rules.apply_special(goblin, special("challenge"), 2, "Mira")
    assert rules.apply_special(goblin, special("challenge"), 1, "Mira").outcome == "stacked"
    assert goblin.specials == [ActiveSpecial(name="Challenge", x=3, source="Mira")]


def test_a_different_challenger_needs_a_higher_value_to_replace(special) -> None:
    """Brom's Challenge(2) replaced Mira's Challenge(2), or Brom's (3) did not."""
    goblin = combatant("Goblin")
    rules.apply_special(goblin, special("challenge"), 2, "Mira")
    assert rules.apply_special(goblin, special("challenge"), 2, "Brom").outcome == "resisted"
    assert goblin.specials == [ActiveSpecial(name="Challenge", x=2, source="Mira")]
    assert rules.apply_special(goblin, special("challenge"), 3, "Brom").outcome == "replaced"
    assert goblin.specials == [ActiveSpecial(name="Challenge", x=3, source="Brom")]


def test_challenge_needs_its_challenger(special) -> None:
    """Challenge was applied without recording a challenger."""
    with pytest.raises(BadInput, match="challenger"):
        rules.apply_special(combatant("Goblin"), special("challenge"), 2)


def test_exorcism_is_only_applied_to_fiends(special) -> None:
    """Exorcism went onto a creature not tagged Fiend, or not onto a Fiend [001 §11.11]."""
    with pytest.raises(RuleViolation, match="only Fiend"):
        rules.apply_special(combatant("Goblin"), special("exorcism"), 2)
    imp = combatant("Imp", tags=["Fiend"])
    rules.apply_special(imp, special("exorcism"), 2)
    assert carried(imp) == {"Exorcism": 2}


def test_prone_is_the_combatants_prone_flag(special) -> None:
    """Prone was kept as a Special instead of the combatant's prone mark."""
    goblin = combatant("Goblin")
    rules.apply_special(goblin, special("prone"))
    assert goblin.prone and goblin.specials == []


def test_an_immovable_combatant_cannot_be_knocked_prone(special) -> None:
    """Prone went onto an Immovable combatant."""
    golem = combatant("Golem")
    rules.apply_special(golem, special("immovable"))
    with pytest.raises(RuleViolation, match="immune to Prone"):
        rules.apply_special(golem, special("prone"))
    assert not golem.prone


@pytest.mark.parametrize(("key", "why"), [("push", "Instant"), ("cleanse", "Support")])
def test_effects_that_leave_no_state_are_not_applied(special, key: str, why: str) -> None:
    """An Instant or Support effect was put on a combatant as a condition."""
    with pytest.raises(RuleViolation, match=why):
        rules.apply_special(combatant(), special(key), 2)


# Cleanse and remove.


def test_cleanse_lowers_one_special_by_x(special) -> None:
    """Cleanse(2) did not lower Ruin 5 to 3."""
    goblin = combatant("Goblin", specials=[ActiveSpecial(name="Ruin", x=5)])
    lowered = rules.cleanse_special(goblin, special("ruin"), 2)
    assert (lowered.before, lowered.after) == (5, 3)
    assert carried(goblin) == {"Ruin": 3}


def test_cleanse_past_zero_ends_the_special(special) -> None:
    """Cleanse(4) on Ruin 3 left something behind."""
    goblin = combatant("Goblin", specials=[ActiveSpecial(name="Ruin", x=3)])
    assert rules.cleanse_special(goblin, special("ruin"), 4).ended
    assert goblin.specials == []


@pytest.mark.parametrize(
    "key", ["regeneration", "prone", "stunned", "brace", "bulwark", "immovable"]
)
def test_cleanse_cannot_touch_these(special, key: str) -> None:
    """Cleanse lowered a Special the SRD marks Cleanse/Dispel: No."""
    with pytest.raises(RuleViolation, match="Cleanse cannot touch"):
        rules.cleanse_special(combatant(), special(key), 1)


@pytest.mark.parametrize("key", ["root", "slow", "challenge", "blight", "hex"])
def test_cleanse_reaches_the_others(special, key: str) -> None:
    """Cleanse refused an eligible Special."""
    target = combatant(specials=[ActiveSpecial(name=special(key).name, x=3, source="Mira")])
    assert rules.cleanse_special(target, special(key), 1).after == 2


def test_cleansing_a_special_the_target_does_not_have_is_refused(special) -> None:
    """Cleanse on a Special the target lacks did not say so."""
    with pytest.raises(RuleViolation, match="has no Ruin"):
        rules.cleanse_special(combatant("Goblin"), special("ruin"), 2)


def test_remove_with_x_spends_part_of_a_special(special) -> None:
    """Removing 1 Bulwark from 3 charges did not leave 2."""
    mira = combatant(specials=[ActiveSpecial(name="Bulwark", x=3)])
    rules.remove_special(mira, special("bulwark"), 1)
    assert carried(mira) == {"Bulwark": 2}


def test_removing_prone_stands_the_combatant_up(special) -> None:
    """Removing Prone left the combatant prone."""
    mira = combatant(prone=True)
    rules.remove_special(mira, special("prone"))
    assert not mira.prone


# Turn start: Tick, then Decay, then Root.


def test_ruin_deals_x_then_decays_until_it_ends(book) -> None:
    """Ruin(3) did not deal 3, 2, 1 on three turn starts and then end."""
    goblin = combatant("Goblin", specials=[ActiveSpecial(name="Ruin", x=3)])
    assert turns(goblin, book, 4) == [27, 25, 24, 24]
    assert goblin.specials == []


def test_the_tick_comes_before_the_decay(book) -> None:
    """Ruin(1) ended before it dealt its 1 damage."""
    goblin = combatant("Goblin", specials=[ActiveSpecial(name="Ruin", x=1)])
    effects = rules.start_turn(fight(goblin), goblin, book)
    assert goblin.grit == 29 and effects.decays[0].ended


def test_regeneration_heals_x(book) -> None:
    """Regeneration(3) did not heal 3 at the turn start."""
    mira = combatant(grit=20, specials=[ActiveSpecial(name="Regeneration", x=3)])
    rules.start_turn(fight(mira), mira, book)
    assert mira.grit == 23 and carried(mira) == {"Regeneration": 2}


def test_blight_records_its_x_as_stress(book) -> None:
    """Blight(2) did not record 2 Stress at its Tick."""
    mira = combatant(specials=[ActiveSpecial(name="Blight", x=2)])
    rules.start_turn(fight(mira), mira, book)
    assert mira.stress == 2 and carried(mira) == {"Blight": 1}


def test_blight_lowers_the_healing_regeneration_gives(book) -> None:
    """Regeneration(3) under Blight(2) healed more than 1."""
    mira = combatant(
        grit=20,
        specials=[ActiveSpecial(name="Blight", x=2), ActiveSpecial(name="Regeneration", x=3)],
    )
    effects = rules.start_turn(fight(mira), mira, book)
    assert mira.grit == 21 and effects.ticks[1].grit.blight == 2


@pytest.mark.parametrize(
    ("name", "tags", "grit"),
    [
        ("Exorcism", ["Fiend"], 27),
        ("Exorcism", ["Undead"], 30),
        ("Requiem", ["Undead"], 27),
        ("Requiem", [], 30),
    ],
)
def test_exorcism_and_requiem_hurt_only_their_creatures(
    book, name: str, tags: list[str], grit: int
) -> None:
    """Exorcism hurt a non-Fiend or Requiem a non-Undead, or missed its own kind."""
    target = combatant(tags=tags, specials=[ActiveSpecial(name=name, x=3)])
    rules.start_turn(fight(target), target, book)
    assert target.grit == grit and carried(target) == {name: 2}


def test_root_decays_by_the_mastery_rank(book) -> None:
    """Root(4) on a Mastery Rank 2 combatant did not go 4 → 2 → ended in two turns."""
    goblin = combatant("Goblin", mastery_rank=2, specials=[ActiveSpecial(name="Root", x=4)])
    rules.start_turn(fight(goblin), goblin, book)
    assert carried(goblin) == {"Root": 2}
    rules.start_turn(fight(goblin), goblin, book)
    assert goblin.specials == []


def test_stunned_costs_one_action_at_the_next_turn_start_and_ends(book) -> None:
    """Stunned did not take exactly one action at the turn start and then end."""
    goblin = combatant("Goblin", specials=[ActiveSpecial(name="Stunned")])
    assert not rules.can_react(goblin)
    effects = rules.start_turn(fight(goblin), goblin, book)
    assert goblin.actions_left == 1 and effects.stunned is not None
    assert goblin.specials == [] and rules.can_react(goblin)


@pytest.mark.parametrize(
    "name",
    ["Corrode", "Expose", "Disoriented", "Challenge", "Weaken", "Soulburn", "Mark", "Hex"],
)
def test_display_only_specials_decay_without_touching_grit(book, name: str) -> None:
    """A Special whose X the bot does not model changed Grit or did not decay by 1."""
    target = combatant(specials=[ActiveSpecial(name=name, x=2, source="Mira")])
    rules.start_turn(fight(target), target, book)
    assert target.grit == 30 and carried(target) == {name: 1}


@pytest.mark.parametrize("name", ["Slow", "Lacerate", "Sundered"])
def test_triggered_specials_still_decay_at_the_turn_start(book, name: str) -> None:
    """A triggered Diminishing Special did not decay by 1 at the turn start."""
    target = combatant(specials=[ActiveSpecial(name=name, x=3)])
    rules.start_turn(fight(target), target, book)
    assert carried(target) == {name: 2} and target.grit == 30


@pytest.mark.parametrize("name", ["Brace", "Bulwark", "Immovable"])
def test_until_broken_specials_do_not_decay_at_the_turn_start(book, name: str) -> None:
    """An Until-Broken Special decayed at the turn start."""
    x = None if name == "Immovable" else 2
    target = combatant(specials=[ActiveSpecial(name=name, x=x)])
    rules.start_turn(fight(target), target, book)
    assert carried(target) == {name: x}


def test_the_turn_start_forgets_last_turns_movement(book) -> None:
    """Movement from the previous turn still counted at a new turn start."""
    mira = combatant(moved_m=6)
    rules.start_turn(fight(mira), mira, book)
    assert mira.moved_m == 0


# Turn end: Slow, Brace.


def test_slow_deals_x_at_the_turn_end_without_movement(book) -> None:
    """Slow(2) did not deal 2 at the end of a turn without movement."""
    goblin = combatant("Goblin", specials=[ActiveSpecial(name="Slow", x=2)])
    effects = rules.end_turn(fight(goblin), goblin, book)
    assert goblin.grit == 28 and effects.slow.x == 2


def test_slow_deals_nothing_after_moving_one_metre(book) -> None:
    """Slow dealt damage though the combatant moved 1 m this turn."""
    goblin = combatant("Goblin", specials=[ActiveSpecial(name="Slow", x=2)])
    rules.move(goblin, 1, book)
    rules.end_turn(fight(goblin), goblin, book)
    assert goblin.grit == 30


def test_brace_decays_at_the_turn_end(book) -> None:
    """Brace(2) did not drop to 1 at the end of the turn."""
    mira = combatant(specials=[ActiveSpecial(name="Brace", x=2)])
    rules.end_turn(fight(mira), mira, book)
    assert carried(mira) == {"Brace": 1}


def test_a_turn_end_runs_once_per_round(book) -> None:
    """A turn ended twice in a round (/init prev, then next) dealt Slow twice."""
    goblin = combatant("Goblin", specials=[ActiveSpecial(name="Slow", x=2)])
    rules.end_turn(fight(goblin), goblin, book)
    assert rules.end_turn(fight(goblin), goblin, book) is None
    assert goblin.grit == 28


# Movement.


@pytest.mark.parametrize(
    ("grit", "slow", "limit"), [(30, 0, 8), (30, 3, 5), (15, 0, 4), (5, 0, 2), (5, 3, 0)]
)
def test_mobility_is_the_grit_tables_less_slow(book, grit: int, slow: int, limit: int) -> None:
    """Mobility was not Prime 8 / Reduced 4 / Frail 2 m less Slow's X."""
    specials = [ActiveSpecial(name="Slow", x=slow)] if slow else []
    assert rules.mobility(combatant(grit=grit, specials=specials), book).limit_m == limit


def test_a_prone_combatant_moves_one_space(book) -> None:
    """A prone combatant's Mobility was not 1 space = 2 m."""
    assert rules.mobility(combatant(prone=True), book).limit_m == 2


@pytest.mark.parametrize("name", ["Root", "Brace"])
def test_root_and_brace_stop_voluntary_movement(book, name: str) -> None:
    """A Rooted or Braced combatant could move."""
    target = combatant(specials=[ActiveSpecial(name=name, x=2)])
    with pytest.raises(RuleViolation, match="Speed to 0 m"):
        rules.move(target, 2, book)
    assert target.moved_m == 0


def test_moving_beyond_mobility_is_allowed_and_measured(book) -> None:
    """Moving 10 m at Mobility 8 m was refused or not reported as 2 m beyond."""
    assert rules.move(combatant(), 10, book).beyond_m == 2


@pytest.mark.parametrize(
    ("moves", "damage"),
    [
        ([1], [2]),  # the first move
        ([4], [2]),  # exactly half of 8 m is not beyond half
        ([5], [4]),  # first + beyond half
        ([9], [6]),  # first + beyond half + beyond full
        ([2, 3], [2, 2]),  # the second move crosses half: no second "first move"
        ([2, 2, 5], [2, 0, 4]),  # 4 m, then 9 m: beyond half, then beyond full
    ],
)
def test_lacerate_tiers(book, moves: list[int], damage: list[int]) -> None:
    """Lacerate(2) at Mobility 8 m did not deal X on the first move, +X beyond 4 m, +X beyond 8 m."""
    mira = combatant(specials=[ActiveSpecial(name="Lacerate", x=2)])
    assert [rules.move(mira, metres, book).lacerate_damage for metres in moves] == damage


def test_a_broken_combatant_cannot_move(book) -> None:
    """A Broken combatant could move."""
    with pytest.raises(RuleViolation, match="Broken"):
        rules.move(combatant(grit=0), 2, book)


# Through the round state machine.


def test_a_broken_combatant_still_ticks_at_its_turn_start(catalogue: Catalogue) -> None:
    """A Broken combatant's Ruin did not decay when its turn came up and was skipped."""
    encounter = Encounter(channel_id=1, gm_id=99, mode="finesse")
    flow.add_combatant(encounter, Combatant(id=0, name="Mira", finesse=3), random.Random(0))
    broken = Combatant(id=0, name="Goblin", grit=0, specials=[ActiveSpecial(name="Ruin", x=2)])
    flow.add_combatant(encounter, broken, random.Random(0))
    hooks = SpecialHooks(SpecialBook(catalogue.specials.specials))
    flow.advance(encounter, random.Random(0), hooks)  # Mira's turn
    step = flow.advance(encounter, random.Random(0), hooks)  # the Goblin's turn is skipped
    assert carried(broken) == {"Ruin": 1}
    [effects] = step.turn_starts[0].effects
    assert isinstance(effects, rules.TurnStartEffects)
    assert [(d.special, d.before, d.after) for d in effects.decays] == [("Ruin", 2, 1)]


def test_stepping_back_never_ticks_again(catalogue: Catalogue) -> None:
    """/init prev and next again ticked Ruin a second time in the round."""
    encounter = Encounter(channel_id=1, gm_id=99, mode="finesse")
    goblin = Combatant(id=0, name="Goblin", finesse=3, specials=[ActiveSpecial(name="Ruin", x=3)])
    flow.add_combatant(encounter, goblin, random.Random(0))
    flow.add_combatant(encounter, Combatant(id=0, name="Mira"), random.Random(0))
    hooks = SpecialHooks(SpecialBook(catalogue.specials.specials))
    flow.advance(encounter, random.Random(0), hooks)  # Goblin: Ruin 3
    flow.advance(encounter, random.Random(0), hooks)  # Mira
    flow.retreat(encounter)  # the Goblin again
    flow.advance(encounter, random.Random(0), hooks)  # Mira again
    assert goblin.grit == 27 and carried(goblin) == {"Ruin": 2}


def test_every_tracked_special_is_in_the_catalogue(book, catalogue: Catalogue) -> None:
    """A Special the rules key on is missing from the catalogue's definitions."""
    keys = {s.key for s in book.tracked()}
    named = {
        *rules.TICK_DAMAGE,
        *rules.TICK_HEAL,
        *rules.TICK_STRESS,
        *rules.SPEED_ZERO,
        rules.SOURCE_BOUND,
        rules.PRONE,
        rules.STUNNED,
        rules.SLOW,
        rules.LACERATE,
        rules.IMMUNE_TO_PRONE,
    }
    assert named <= keys
    assert all(isinstance(catalogue.special(key), Special) for key in named)


# Hex and Sundered: the attacks' helper `bot.rules.hit_bonus` adds their dice to hits.


@pytest.mark.parametrize(
    ("x", "dice"), [(1, "1d8"), (2, "1d8"), (3, "2d8"), (4, "2d8"), (5, "3d8")]
)
def test_hex_adds_one_d8_per_two_x_rounded_up_to_spell_hits(x: int, dice: str) -> None:
    """Hex(X) did not add 1d8 per 2 X, rounded up, to a Spell's hit (X=1 → 1d8, X=3 → 2d8)."""
    target = combatant(specials=[ActiveSpecial(name="Hex", x=x)])
    assert [bonus.dice for bonus in hit_bonus(target, spell=True)] == [dice]
    assert hit_bonus(target, spell=False) == []


def test_sundered_adds_its_dice_only_to_non_spell_hits() -> None:
    """Sundered(3) did not add 2d8 to a weapon hit, or added it to a Spell."""
    target = combatant(specials=[ActiveSpecial(name="Sundered", x=3)])
    assert [bonus.dice for bonus in hit_bonus(target, spell=False)] == ["2d8"]
    assert hit_bonus(target, spell=True) == []


def test_hex_applied_twice_counts_its_stacked_x(special) -> None:
    """Hex(1) twice did not stack to Hex 2 and 1d8."""
    target = combatant()
    rules.apply_special(target, special("hex"), 1)
    rules.apply_special(target, special("hex"), 1)
    assert [bonus.dice for bonus in hit_bonus(target, spell=True)] == ["1d8"]
    assert carried(target) == {"Hex": 2}
