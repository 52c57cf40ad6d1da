"""The round state machine [GAME.md §5]: turns, phases, Wait / act-now / Hold, round ends."""

from __future__ import annotations

import random

import pytest

from bot.errors import BadInput, RuleViolation
from bot.rules import encounter as flow
from bot.rules.models import Combatant, Encounter, LongAction
from bot.rules.results import Result
from tests.unit.rules.factories import combatant, fight


class Started(Result):
    """What the counting hooks return for a turn start."""

    name: str


class CountingHooks:
    """Turn hooks that record every turn start and end."""

    def __init__(self) -> None:
        self.starts: list[tuple[int, str]] = []
        self.ends: list[tuple[int, str]] = []

    def turn_start(self, encounter: Encounter, combatant: Combatant) -> list[Result]:
        self.starts.append((encounter.round, combatant.name))
        return [Started(name=combatant.name)]

    def turn_end(self, encounter: Encounter, combatant: Combatant) -> list[Result]:
        self.ends.append((encounter.round, combatant.name))
        return []


def make(mode: str = "fortune", flow_: str = "compact", **kw: object) -> Encounter:
    return Encounter(channel_id=1, gm_id=99, mode=mode, flow=flow_, **kw)


def add(
    encounter: Encounter, name: str, rng: random.Random | None = None, **stats: object
) -> Combatant:
    combatant = Combatant(id=0, name=name, **stats)
    flow.add_combatant(encounter, combatant, rng or random.Random(0))
    return combatant


def names(encounter: Encounter) -> list[str]:
    return [flow.by_id(encounter, cid).name for cid in encounter.order]


def actor(encounter: Encounter) -> str | None:
    current = flow.current_actor(encounter)
    return None if current is None else current.name


def finesse_fight() -> Encounter:
    """Three combatants ordered by Finesse 5, 3, 1 (finesse mode: no dice)."""
    encounter = make("finesse")
    add(encounter, "Mira", finesse=5, is_npc=False, side="party", controller_id=1)
    add(encounter, "Goblin", finesse=3)
    add(encounter, "Orc", finesse=1)
    return encounter


def test_the_first_next_of_a_round_rolls_fortune_initiative_and_starts_the_first_turn() -> None:
    """Fortune initiative is not core die + Finesse + bonus, or the first turn did not start."""
    encounter = make()
    add(encounter, "Mira", finesse=2, initiative_bonus=2, is_npc=False, side="party")
    add(encounter, "Goblin", finesse=1)
    assert encounter.phase == "declaration"
    step = flow.advance(encounter, random.Random(11))
    expected = random.Random(11)
    mira_face, goblin_face = expected.randint(1, 20), expected.randint(1, 20)
    totals = {e.name: e.total for e in step.initiative}
    assert totals == {"Mira": mira_face + 2 + 2, "Goblin": goblin_face + 1}
    assert encounter.phase == "initiative"
    assert step.current == encounter.order[0]
    assert names(encounter)[0] == max(totals, key=lambda n: totals[n])


def test_turns_follow_the_order_and_the_round_ends_after_the_last() -> None:
    """/init next did not walk the order, or the round did not close after the last turn."""
    encounter = finesse_fight()
    flow.advance(encounter, random.Random(0))
    assert names(encounter) == ["Mira", "Goblin", "Orc"]
    assert actor(encounter) == "Mira"
    flow.advance(encounter, random.Random(0))
    assert actor(encounter) == "Goblin"
    flow.advance(encounter, random.Random(0))
    step = flow.advance(encounter, random.Random(0))
    assert step.summary_round == 1
    assert step.new_round == 2
    assert (encounter.round, encounter.phase, actor(encounter)) == (2, "declaration", None)


def test_a_combatant_broken_mid_round_is_skipped_and_marked() -> None:
    """A combatant at 0 Grit got a turn instead of being skipped as Broken."""
    encounter = finesse_fight()
    flow.advance(encounter, random.Random(0))
    flow.by_name(encounter, "Goblin").grit = 0
    step = flow.advance(encounter, random.Random(0))
    assert actor(encounter) == "Orc"
    assert [(s.combatant_id, s.reason) for s in step.skipped] == [
        (flow.by_name(encounter, "Goblin").id, "broken")
    ]


def test_broken_combatants_are_ordered_last() -> None:
    """A Broken combatant (no die to roll) was not listed last in the order [bot]."""
    encounter = finesse_fight()
    flow.by_name(encounter, "Mira").grit = 0
    flow.advance(encounter, random.Random(0))
    assert names(encounter) == ["Goblin", "Orc", "Mira"]
    assert actor(encounter) == "Goblin"


def test_turn_starts_run_once_per_round_even_after_prev() -> None:
    """Stepping back and forth ran a combatant's turn-start effects twice in one round."""
    encounter = finesse_fight()
    hooks = CountingHooks()
    flow.advance(encounter, random.Random(0), hooks)
    flow.advance(encounter, random.Random(0), hooks)
    flow.retreat(encounter)
    assert actor(encounter) == "Mira"
    flow.advance(encounter, random.Random(0), hooks)
    flow.advance(encounter, random.Random(0), hooks)
    assert hooks.starts == [(1, "Mira"), (1, "Goblin"), (1, "Orc")]


def test_turn_starts_run_for_broken_and_waiting_combatants_too() -> None:
    """A Broken or waiting combatant's turn start did not run (Specials must still tick)."""
    encounter = finesse_fight()
    hooks = CountingHooks()
    flow.advance(encounter, random.Random(0), hooks)
    flow.by_name(encounter, "Goblin").grit = 0
    flow.wait(encounter, flow.by_name(encounter, "Orc"))
    step = flow.advance(encounter, random.Random(0), hooks)
    assert hooks.starts == [(1, "Mira"), (1, "Goblin"), (1, "Orc")]
    assert [s.reason for s in step.skipped] == ["broken", "waiting"]


def test_prev_on_round_ones_first_turn_has_nothing_to_go_back_to() -> None:
    """/init prev on round 1's first turn did something other than refuse."""
    encounter = finesse_fight()
    flow.advance(encounter, random.Random(0))
    with pytest.raises(RuleViolation, match="start of round 1; there is no turn before it"):
        flow.retreat(encounter)


def test_prev_steps_back_into_the_last_turn_of_the_previous_round() -> None:
    """/init prev at round 2's first turn did not reopen round 1's last turn as it was [bot]."""
    encounter = finesse_fight()
    hooks = CountingHooks()
    for _ in range(4):  # Mira, Goblin, Orc, and round 2 opens
        flow.advance(encounter, random.Random(0), hooks)
    flow.advance(encounter, random.Random(0), hooks)  # round 2: Mira's turn
    step = flow.retreat(encounter)
    assert (encounter.round, encounter.phase, actor(encounter)) == (1, "initiative", "Orc")
    assert step.current == flow.by_name(encounter, "Orc").id
    assert names(encounter) == ["Mira", "Goblin", "Orc"]
    acted = {c.name: c.acted_this_round for c in encounter.combatants}
    assert acted == {"Mira": True, "Goblin": True, "Orc": False}  # Orc's turn is open again
    # Forward again: round 1 closes, round 2 opens; no turn start runs a second time.
    flow.advance(encounter, random.Random(0), hooks)
    assert (encounter.round, encounter.phase) == (2, "declaration")
    flow.advance(encounter, random.Random(0), hooks)
    assert actor(encounter) == "Mira"
    assert hooks.starts == [(1, "Mira"), (1, "Goblin"), (1, "Orc"), (2, "Mira")]


def test_prev_brings_back_who_waited_and_steps_back_one_round_only() -> None:
    """Stepping back into round 1 lost a wait (it stayed a Hold), or went back two rounds."""
    encounter = finesse_fight()
    flow.advance(encounter, random.Random(0))  # Mira
    flow.wait(encounter, flow.by_name(encounter, "Orc"))
    flow.advance(encounter, random.Random(0))  # Goblin
    flow.advance(encounter, random.Random(0))  # Orc waits: round 1 ends, Orc holds
    orc = flow.by_name(encounter, "Orc")
    assert orc.holding and not orc.waiting
    flow.retreat(encounter)  # from round 2's Declaration
    assert (encounter.round, actor(encounter)) == (1, "Goblin")
    assert orc.waiting and not orc.holding and orc.actions_left == 2  # it may still /act
    flow.advance(encounter, random.Random(0))  # round 1 ends again: Orc holds again
    assert orc.holding and encounter.round == 2
    for _ in range(5):  # round 2's turns (Orc first: it held), and round 3's first turn
        flow.advance(encounter, random.Random(0))
    assert (encounter.round, actor(encounter)) == (3, "Mira")
    for _ in range(3):  # back into round 2's last turn, then to its first
        flow.retreat(encounter)
    assert encounter.round == 2
    with pytest.raises(RuleViolation, match="steps back one round at most"):
        flow.retreat(encounter)


def test_cleanup_runs_once_across_prev() -> None:
    """Going back into a round and ending it again ran its Cleanup a second time."""
    encounter = finesse_fight()
    for _ in range(4):
        flow.advance(encounter, random.Random(0))
    assert encounter.cleaned_round == 1
    flow.retreat(encounter)
    mira = flow.by_name(encounter, "Mira")
    mira.long_action = LongAction(
        name="Ritual", kind="cumulative", rounds=3, attacked_this_round=True
    )
    flow.advance(encounter, random.Random(0))  # round 1 ends again
    assert mira.long_action.attacked_this_round  # Cleanup, which clears it, did not run again


def test_prev_in_the_full_flow_goes_back_from_the_phases_to_the_last_turn() -> None:
    """/init prev during Reaction refused instead of reopening the round's last turn."""
    encounter = finesse_fight()
    encounter.flow = "full"
    encounter.phase = "declaration"
    for _ in range(4):  # the three turns, then Reaction
        flow.advance(encounter, random.Random(0))
    assert encounter.phase == "reaction"
    flow.retreat(encounter)
    assert (encounter.phase, actor(encounter)) == ("initiative", "Orc")


def test_haste_gives_plus_three_and_one_action_before_initiative_only() -> None:
    """Haste did not add +3 and leave one action, or was allowed after initiative [003]."""
    encounter = make()
    mira = add(encounter, "Mira", finesse=0)
    flow.haste(encounter, mira)
    assert mira.actions_left == 1
    step = flow.advance(encounter, random.Random(5))
    face = random.Random(5).randint(1, 20)
    assert step.initiative[0].total == face + 3
    with pytest.raises(RuleViolation, match="before initiative is rolled"):
        flow.haste(encounter, mira)


def test_haste_outside_fortune_goes_to_the_front() -> None:
    """In finesse mode a hasted combatant was not put at the front of the order [bot]."""
    encounter = finesse_fight()
    flow.haste(encounter, flow.by_name(encounter, "Orc"))
    flow.advance(encounter, random.Random(0))
    assert names(encounter) == ["Orc", "Mira", "Goblin"]


def test_waiting_passes_the_turn_and_act_inserts_it_inside_the_current_turn() -> None:
    """/wait did not pass the turn, or /act did not return to the interrupted actor."""
    encounter = finesse_fight()
    flow.advance(encounter, random.Random(0))
    step = flow.wait(encounter, flow.by_name(encounter, "Mira"))
    assert actor(encounter) == "Goblin"
    assert step.skipped[0].reason == "waiting"
    flow.act_now(encounter, flow.by_name(encounter, "Mira"))
    assert actor(encounter) == "Mira"
    step = flow.advance(encounter, random.Random(0))
    assert step.resumed
    assert actor(encounter) == "Goblin"
    flow.advance(encounter, random.Random(0))
    assert actor(encounter) == "Orc"


def test_act_needs_a_waiting_combatant() -> None:
    """/act by a combatant that is not waiting was allowed."""
    encounter = finesse_fight()
    flow.advance(encounter, random.Random(0))
    with pytest.raises(RuleViolation, match="not waiting"):
        flow.act_now(encounter, flow.by_name(encounter, "Orc"))


def test_when_everyone_left_waits_the_round_passes_and_they_hold_plus_ten() -> None:
    """All-waiting did not pass the round, or the holders did not get +10 next round [003]."""
    encounter = make()
    add(encounter, "Mira", finesse=30, is_npc=False, side="party")
    add(encounter, "Goblin", finesse=0)
    flow.advance(encounter, random.Random(3))  # Mira (Finesse 30) acts first
    assert actor(encounter) == "Mira"
    flow.advance(encounter, random.Random(3))
    step = flow.wait(encounter, flow.by_name(encounter, "Goblin"))
    assert step.round_end is not None and step.round_end.all_waiting
    assert step.new_round == 2
    goblin = flow.by_name(encounter, "Goblin")
    assert goblin.holding
    step = flow.advance(encounter, random.Random(4))
    rolled = {e.name: e for e in step.initiative}
    assert [b.value for b in rolled["Goblin"].bonuses] == [10]
    assert rolled["Goblin"].total == rolled["Goblin"].faces[0] + 10
    assert not goblin.holding


def test_hold_needs_waiting_and_spends_the_rest_of_the_round() -> None:
    """/hold without waiting was allowed, or a holder kept actions this round."""
    encounter = finesse_fight()
    orc = flow.by_name(encounter, "Orc")
    with pytest.raises(RuleViolation, match="must be waiting"):
        flow.hold(encounter, orc)
    flow.wait(encounter, orc)
    flow.hold(encounter, orc)
    assert (orc.holding, orc.waiting, orc.actions_left) == (True, False, 0)


def test_a_round_that_ends_with_combatants_waiting_makes_them_hold() -> None:
    """A combatant still waiting at the round's end did not hold into the next round."""
    encounter = finesse_fight()
    flow.advance(encounter, random.Random(0))
    flow.wait(encounter, flow.by_name(encounter, "Orc"))
    step = flow.end_round(encounter)
    orc = flow.by_name(encounter, "Orc")
    assert step.round_end is not None and step.round_end.held == [orc.id]
    assert orc.holding
    flow.advance(encounter, random.Random(0))
    assert names(encounter)[0] == "Orc"  # first next round in the other modes [bot]


def test_once_mode_keeps_the_first_roll_for_the_whole_fight() -> None:
    """In once mode initiative was rolled again in a later round."""
    encounter = make("once")
    add(encounter, "Mira", finesse=1)
    add(encounter, "Goblin", finesse=1)
    first = flow.advance(encounter, random.Random(9))
    flow.end_round(encounter)
    second = flow.advance(encounter, random.Random(1234))
    assert [e.total for e in second.initiative] == [e.total for e in first.initiative]
    assert all(e.kept for e in second.initiative)


def test_ties_go_to_finesse_then_player_characters() -> None:
    """Equal initiative did not go to the higher Finesse, then the player character [000]."""
    encounter = make("finesse")
    add(encounter, "Goblin", finesse=3)
    add(encounter, "Mira", finesse=3, is_npc=False, side="party")
    add(encounter, "Orc", finesse=4)
    flow.advance(encounter, random.Random(0))
    assert names(encounter) == ["Orc", "Mira", "Goblin"]


def test_an_ambush_round_zero_lets_only_the_ambushers_act() -> None:
    """In round zero a surprised combatant got a turn [003]."""
    encounter = make("finesse", ambush="party", round=0)
    add(encounter, "Mira", finesse=1, is_npc=False, side="party")
    add(encounter, "Goblin", finesse=9)
    flow.advance(encounter, random.Random(0))
    assert names(encounter) == ["Mira"]
    assert flow.surprised(encounter, flow.by_name(encounter, "Goblin"))
    step = flow.advance(encounter, random.Random(0))
    assert step.new_round == 1
    flow.advance(encounter, random.Random(0))
    assert names(encounter) == ["Goblin", "Mira"]


def test_a_rolled_ambush_gives_the_free_round_only_to_those_who_beat_perception() -> None:
    """A rolled ambush let an ambusher act whose d10 did not beat the targets' Perception."""
    encounter = make("finesse", ambush="foes", ambush_roll=True, round=0)
    add(encounter, "Mira", is_npc=False, side="party")  # Prime: Perception 10 m [002]
    add(encounter, "Goblin 1")
    add(encounter, "Goblin 2")
    step = flow.advance(encounter, random.Random(2))
    assert step.ambush is not None and step.ambush.perception == 10
    # d10 faces can never beat Perception 10: nobody gets the free round, round zero passes.
    assert step.ambush.succeeded == []
    assert step.new_round == 1


def test_a_combatant_added_mid_round_takes_its_place_by_initiative() -> None:
    """A newcomer was not placed by initiative, or the current actor changed."""
    encounter = finesse_fight()
    flow.advance(encounter, random.Random(0))
    flow.advance(encounter, random.Random(0))  # Goblin acts
    add(encounter, "Scout", finesse=2)
    assert names(encounter) == ["Mira", "Goblin", "Scout", "Orc"]
    assert actor(encounter) == "Goblin"
    add(encounter, "Ace", finesse=9)  # its place is past: it acts next round
    assert names(encounter)[0] == "Ace"
    assert actor(encounter) == "Goblin"


def test_removing_the_current_actor_starts_the_next_turn() -> None:
    """Removing the combatant whose turn it was left nobody acting."""
    encounter = finesse_fight()
    flow.advance(encounter, random.Random(0))
    flow.advance(encounter, random.Random(0))
    flow.remove_combatant(encounter, flow.by_name(encounter, "Goblin"), flow.NoHooks())
    assert actor(encounter) == "Orc"
    assert names(encounter) == ["Mira", "Orc"]


def test_move_reorders_and_keeps_whose_turn_it_is() -> None:
    """/init move changed whose turn it is, or took a turn still to come (Orc to passed place 1)."""
    encounter = finesse_fight()
    flow.advance(encounter, random.Random(0))
    assert flow.move_combatant(encounter, flow.by_name(encounter, "Orc"), 1) == 2
    assert names(encounter) == ["Mira", "Orc", "Goblin"]
    assert actor(encounter) == "Mira"
    assert flow.move_combatant(encounter, flow.by_name(encounter, "Orc"), 3) == 3
    assert names(encounter) == ["Mira", "Goblin", "Orc"]
    with pytest.raises(BadInput, match="between 1 and 3"):
        flow.move_combatant(encounter, flow.by_name(encounter, "Orc"), 4)


def test_move_gives_nobody_a_second_turn() -> None:
    """/init move put Mira (her turn over) or the actor at a place still to come."""
    encounter = finesse_fight()
    flow.advance(encounter, random.Random(0))
    flow.advance(encounter, random.Random(0))  # the Goblin's turn
    with pytest.raises(RuleViolation, match="Mira has had its turn"):
        flow.move_combatant(encounter, flow.by_name(encounter, "Mira"), 3)
    with pytest.raises(RuleViolation, match="Goblin is taking its turn now"):
        flow.move_combatant(encounter, flow.by_name(encounter, "Goblin"), 1)
    assert names(encounter) == ["Mira", "Goblin", "Orc"] and actor(encounter) == "Goblin"


def test_the_full_flow_steps_through_every_phase_in_order() -> None:
    """The full flow skipped or reordered a phase of GAME.md §5."""
    encounter = make("finesse", "full", phase="start")
    add(encounter, "Mira", finesse=1)
    seen = [encounter.phase]
    while encounter.round == 1:
        flow.advance(encounter, random.Random(0))
        seen.append(encounter.phase)
    assert seen == [
        "start",
        "question",
        "declaration",
        "initiative",
        "reaction",
        "resolution",
        "counter",
        "cleanup",
        "summary",
        "start",
    ]


@pytest.mark.parametrize(("count", "error"), [(0, "at least one"), (101, "at most 100")])
def test_counts_outside_one_to_a_hundred_are_refused(count: int, error: str) -> None:
    """An add with count 0 or beyond the 100-combatant cap was accepted."""
    with pytest.raises(BadInput, match=error):
        flow.numbered_names(make(), "Goblin", count)


def test_numbered_names_and_duplicates() -> None:
    """count did not make Goblin 1..n, or a duplicate name was accepted."""
    encounter = make()
    assert flow.numbered_names(encounter, "Goblin", 3) == ["Goblin 1", "Goblin 2", "Goblin 3"]
    add(encounter, "Goblin 2")
    with pytest.raises(BadInput, match="already a combatant named Goblin 2"):
        flow.numbered_names(encounter, "goblin", 3)


def act_inside_goblins_turn() -> Encounter:
    """Mira (5) waits, the Goblin (3) takes its turn, and Mira acts inside it; Orc (1) is next."""
    encounter = finesse_fight()
    flow.advance(encounter, random.Random(0))
    flow.wait(encounter, flow.by_name(encounter, "Mira"))
    flow.act_now(encounter, flow.by_name(encounter, "Mira"))
    assert actor(encounter) == "Mira" and names(encounter)[encounter.turn or 0] == "Goblin"
    return encounter


def test_removing_the_interrupted_actor_makes_the_acts_end_start_the_next_turn() -> None:
    """With the Goblin removed during Mira's /act, the act's end went back to a turn already had."""
    encounter = act_inside_goblins_turn()
    flow.remove_combatant(encounter, flow.by_name(encounter, "Goblin"), flow.NoHooks())
    assert actor(encounter) == "Mira"  # the act goes on
    step = flow.advance(encounter, random.Random(0))
    assert not step.resumed and actor(encounter) == "Orc"
    assert [e.combatant_id for e in step.turn_ends] == [flow.by_name(encounter, "Mira").id]


def test_removing_the_first_interrupted_actor_gives_the_last_no_turn() -> None:
    """With the first in order removed mid-act, turn −1 handed the last combatant a turn."""
    encounter = finesse_fight()
    flow.advance(encounter, random.Random(0))  # Mira's turn
    flow.wait(encounter, flow.by_name(encounter, "Orc"))
    flow.act_now(encounter, flow.by_name(encounter, "Orc"))
    flow.remove_combatant(encounter, flow.by_name(encounter, "Mira"), flow.NoHooks())
    flow.advance(encounter, random.Random(0))
    assert actor(encounter) == "Goblin"
    step = flow.advance(encounter, random.Random(0))
    assert step.summary_round == 1  # Orc used /act: its own place passes, the round ends


def test_removing_the_actor_after_its_turns_owner_left_starts_the_next_turn() -> None:
    """With the Goblin gone and then Mira removed mid-act, nobody was acting."""
    encounter = act_inside_goblins_turn()
    flow.remove_combatant(encounter, flow.by_name(encounter, "Goblin"), flow.NoHooks())
    flow.remove_combatant(encounter, flow.by_name(encounter, "Mira"), flow.NoHooks())
    assert actor(encounter) == "Orc"


def test_waiting_in_ones_interrupted_turn_passes_it_when_the_act_ends() -> None:
    """The Goblin's /wait during Mira's /act gave it its turn back after the act, and a Hold."""
    encounter = act_inside_goblins_turn()
    flow.wait(encounter, flow.by_name(encounter, "Goblin"))
    flow.advance(encounter, random.Random(0))
    assert actor(encounter) == "Orc"
    flow.act_now(encounter, flow.by_name(encounter, "Goblin"))  # still waiting: may act later
    assert actor(encounter) == "Goblin"


def test_a_fixed_object_takes_no_turn() -> None:
    """A fixed object (a door, a wall) got a place in the round's order [003, bot]."""
    door = combatant("Door", id=0, fixed_object=True, finesse=9)
    goblin = combatant("Goblin", id=0)
    encounter = fight(door, goblin)
    assert encounter.order == [goblin.id]
    late = combatant("Gate", id=0, fixed_object=True)
    assert flow.add_combatant(encounter, late, random.Random(0)) is None
    assert encounter.order == [goblin.id]
