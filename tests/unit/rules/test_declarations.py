"""Declarations and the long actions they start and work on [GAME.md §5, 000]."""

from __future__ import annotations

import random

import pytest

from bot.errors import BadInput, RuleViolation
from bot.rules import encounter as flow
from bot.rules.declarations import declare, shows_declarations, undeclare
from bot.rules.long_actions import long_action_attacked, long_action_defense
from bot.rules.models import Combatant, Encounter
from tests.scripted import ScriptedRandom, d20


def make(flow_: str = "compact", phase: str = "declaration") -> Encounter:
    return Encounter(channel_id=1, gm_id=99, mode="finesse", flow=flow_, phase=phase)


def add(encounter: Encounter, name: str, **stats: object) -> Combatant:
    combatant = Combatant(id=0, name=name, **stats)
    flow.add_combatant(encounter, combatant, random.Random(0))
    return combatant


@pytest.fixture
def encounter() -> Encounter:
    encounter = make()
    add(encounter, "Mira", finesse=5, is_npc=False, side="party")
    add(encounter, "Goblin", finesse=1)
    return encounter


@pytest.fixture
def mira(encounter: Encounter) -> Combatant:
    return flow.by_name(encounter, "Mira")


def test_a_declaration_is_primary_by_default_and_replaces_the_last(encounter, mira) -> None:
    """A declaration was not primary by default, or a second one did not replace the first."""
    declare(encounter, mira, "Attack the goblin")
    second = declare(encounter, mira, "  Run   for the door ", "movement")
    assert (mira.declaration.text, mira.declaration.kind) == ("Run for the door", "movement")
    assert second.replaced is not None and second.replaced.text == "Attack the goblin"


@pytest.mark.parametrize(
    ("text", "error"), [("   ", "Say what the combatant will do"), ("x" * 101, "at most 100")]
)
def test_empty_or_overlong_declarations_are_refused(encounter, mira, text, error) -> None:
    """An empty or overlong declaration was recorded."""
    with pytest.raises(BadInput, match=error):
        declare(encounter, mira, text)
    assert mira.declaration is None


def test_rounds_without_a_long_action_are_refused(encounter, mira) -> None:
    """A count was accepted on a declaration that is not a long action."""
    with pytest.raises(BadInput, match="belong to a long action"):
        declare(encounter, mira, "Attack", "primary", rounds=3)


def test_a_new_long_action_needs_its_count(encounter, mira) -> None:
    """A long action was started without a count."""
    with pytest.raises(BadInput, match="needs its count"):
        declare(encounter, mira, "Ritual", "long")
    assert mira.long_action is None


def test_a_long_action_starts_at_zero_and_focused_by_default(encounter, mira) -> None:
    """A declared long action did not start at 0, focused unless told [bot]."""
    declared = declare(encounter, mira, "Ritual", "long", rounds=2)
    assert declared.started is not None
    assert (declared.started.progress, declared.started.rounds, declared.started.kind) == (
        0,
        2,
        "focused",
    )
    assert mira.actions_left == 2  # starting it spends nothing


def test_a_cumulative_action_completes_after_its_count_of_main_actions(encounter, mira) -> None:
    """A cumulative long action did not gain 1 per main action, across rounds, to completion."""
    declare(encounter, mira, "Pick the lock", "long", rounds=3, long_type="cumulative")
    flow.advance(encounter, random.Random(0))  # Mira's turn
    assert declare(encounter, mira, "Pick the lock", "long").progress.progress == 1
    assert declare(encounter, mira, "pick the LOCK", "long").progress.progress == 2
    flow.end_round(encounter)  # round 2: the progress stays
    assert mira.long_action is not None and mira.long_action.progress == 2
    flow.advance(encounter, random.Random(0))
    done = declare(encounter, mira, "Pick the lock", "long").progress
    assert (done.progress, done.completed, mira.long_action, mira.actions_left) == (
        3,
        True,
        None,
        1,
    )


def test_a_focused_action_takes_the_rounds_actions_and_resets_when_attacked(
    encounter, mira
) -> None:
    """A focused long action did not take the round's actions, or kept progress when attacked."""
    declare(encounter, mira, "Ritual", "long", rounds=3)
    flow.advance(encounter, random.Random(0))  # Mira's turn
    step = declare(encounter, mira, "Ritual", "long").progress
    assert (step.progress, step.actions_spent, mira.actions_left) == (1, 2, 0)
    long_action_attacked(mira)
    assert mira.long_action.progress == 0


def test_no_progress_in_a_round_the_actor_was_attacked(encounter, mira) -> None:
    """A cumulative long action gained progress in a round its actor was attacked [000]."""
    declare(encounter, mira, "Dig", "long", rounds=2, long_type="cumulative")
    long_action_attacked(mira)
    flow.advance(encounter, random.Random(0))  # Mira's turn
    step = declare(encounter, mira, "Dig", "long").progress
    assert (step.added, step.progress, mira.actions_left) == (0, 0, 1)


def test_another_long_action_while_one_is_under_way_is_refused(encounter, mira) -> None:
    """A second long action replaced the one under way."""
    declare(encounter, mira, "Ritual", "long", rounds=3)
    with pytest.raises(RuleViolation, match="busy with Ritual"):
        declare(encounter, mira, "Dig", "long", rounds=2)
    assert mira.long_action.name == "Ritual"


def test_a_long_actions_count_cannot_be_given_again(encounter, mira) -> None:
    """The count of a long action under way was changed by declaring it again."""
    declare(encounter, mira, "Ritual", "long", rounds=3)
    with pytest.raises(BadInput, match="set when it starts"):
        declare(encounter, mira, "Ritual", "long", rounds=1)
    assert mira.long_action.rounds == 3


def test_working_with_no_actions_left_is_refused_and_changes_nothing(encounter, mira) -> None:
    """Work on a long action with no actions left was accepted or changed its progress."""
    declare(encounter, mira, "Dig", "long", rounds=3, long_type="cumulative")
    flow.advance(encounter, random.Random(0))  # Mira's turn
    mira.actions_left = 0
    with pytest.raises(RuleViolation, match="no actions left this round to work on Dig"):
        declare(encounter, mira, "Dig", "long")
    assert mira.long_action.progress == 0


def test_a_broken_combatant_cannot_declare(encounter, mira) -> None:
    """A Broken combatant (0 Grit) declared an action."""
    mira.grit = 0
    with pytest.raises(RuleViolation, match="Broken"):
        declare(encounter, mira, "Crawl away", "movement")


def test_undeclare_withdraws_the_declaration_only(encounter, mira) -> None:
    """/undeclare of an ordinary declaration abandoned the long action under way too."""
    declare(encounter, mira, "Dig", "long", rounds=3, long_type="cumulative")
    declare(encounter, mira, "Shout a warning", "sub")
    undone = undeclare(encounter, mira)
    assert undone.withdrawn.text == "Shout a warning" and undone.abandoned is None
    assert mira.declaration is None and mira.long_action is not None


def test_undeclaring_a_long_action_abandons_it(encounter, mira) -> None:
    """/undeclare of a long action kept it under way."""
    declare(encounter, mira, "Dig", "long", rounds=3, long_type="cumulative")
    flow.advance(encounter, random.Random(0))  # Mira's turn
    declare(encounter, mira, "Dig", "long")
    undone = undeclare(encounter, mira)
    assert undone.abandoned is not None and undone.abandoned.progress == 1
    assert mira.long_action is None and mira.declaration is None


def test_undeclare_with_nothing_declared_is_refused(encounter, mira) -> None:
    """/undeclare with nothing declared did something other than refuse."""
    with pytest.raises(RuleViolation, match="declared nothing"):
        undeclare(encounter, mira)


@pytest.mark.parametrize(
    ("flow_", "phase", "shown"),
    [
        ("full", "declaration", True),
        ("full", "initiative", False),
        ("compact", "declaration", False),
    ],
)
def test_the_tracker_shows_declarations_only_in_the_full_flows_declaration(
    flow_: str, phase: str, shown: bool
) -> None:
    """Declarations were shown outside the full flow's Declaration phase, or not in it."""
    assert shows_declarations(make(flow_, phase)) is shown


def test_a_long_action_declared_out_of_turn_is_planned_not_worked(encounter, mira) -> None:
    """Declaring a long action before its turn spent an action or added progress [000, §10]."""
    declare(encounter, mira, "Ritual", "long", rounds=3, long_type="cumulative")
    planned = declare(encounter, mira, "Ritual", "long")  # Declaration: not Mira's turn yet
    assert planned.planned is not None and planned.progress is None
    assert (mira.long_action.progress, mira.actions_left) == (0, 2)
    assert long_action_defense(mira) == "auto_hit"  # it performs the action this round


def test_a_long_action_not_declared_this_round_is_not_being_performed(encounter, mira) -> None:
    """A long action gave its no-defense or auto-hit in a round it was not worked on [000, §10]."""
    declare(encounter, mira, "Ritual", "long", rounds=3)
    assert long_action_defense(mira) == "no_defense"
    flow.advance(encounter, random.Random(0))
    flow.end_round(encounter)  # round 2: nothing declared yet
    assert long_action_defense(mira) is None
    assert long_action_attacked(mira) is None


def test_a_broken_combatant_performs_no_long_action(encounter, mira) -> None:
    """A Broken combatant's long action still gave the attacker its automatic hit [GAME.md §10]."""
    declare(encounter, mira, "Dig", "long", rounds=3, long_type="cumulative")
    mira.grit = 0
    assert long_action_defense(mira) is None


def test_a_cumulative_action_gains_one_per_main_action_only(encounter, mira) -> None:
    """A cumulative long action gained more than 1 for one main action [000]."""
    declare(encounter, mira, "Dig", "long", rounds=5, long_type="cumulative")
    flow.advance(encounter, random.Random(0))
    first = declare(encounter, mira, "Dig", "long").progress
    second = declare(encounter, mira, "Dig", "long").progress
    assert [(s.added, s.actions_spent) for s in (first, second)] == [(1, 1), (1, 1)]
    with pytest.raises(RuleViolation, match="no actions left"):
        declare(encounter, mira, "Dig", "long")
    assert mira.long_action.progress == 2


def test_a_minor_act_before_initiative_is_rolled_costs_two_in_the_roll() -> None:
    """A minor act declared before initiative was not −2 in that roll [003]."""
    encounter = Encounter(channel_id=1, gm_id=99, mode="fortune")
    mira = add(encounter, "Mira", finesse=5, is_npc=False, side="party")
    add(encounter, "Goblin", finesse=1)
    declared = declare(encounter, mira, "Draw a sword", "minor")
    again = declare(encounter, mira, "Shout to Brom", "minor")
    assert (declared.initiative_penalty, again.initiative_penalty) == (-2, -4)
    assert mira.declaration is None  # a minor act is not the round's declaration
    flow.advance(encounter, ScriptedRandom([d20(10), d20(10)]))
    assert mira.initiative == 10 + 5 - 4


def test_a_minor_act_after_the_roll_lowers_initiative_and_the_place() -> None:
    """A minor act before its turn, after the roll, did not cost −2 and move it down [003]."""
    encounter = Encounter(channel_id=1, gm_id=99, mode="fortune")
    mira = add(encounter, "Mira", finesse=0, is_npc=False, side="party")
    goblin = add(encounter, "Goblin", finesse=0)
    orc = add(encounter, "Orc", finesse=0)
    flow.advance(encounter, ScriptedRandom([d20(15), d20(14), d20(13)]))  # Mira's turn

    def order() -> list[str]:
        return [flow.by_id(encounter, i).name for i in encounter.order]

    assert order() == ["Mira", "Goblin", "Orc"]
    declared = declare(encounter, goblin, "Draw a blade", "minor")
    assert (declared.initiative_penalty, declared.initiative) == (-2, 12)
    assert order() == ["Mira", "Orc", "Goblin"]  # 12 now acts after the Orc's 13
    declare(encounter, mira, "Shout", "minor")  # on its own turn: free
    assert (mira.initiative, mira.minor_acts) == (15, 0)
    flow.advance(encounter, ScriptedRandom([]))  # the Orc's turn
    assert declare(encounter, orc, "Step aside", "minor").initiative_penalty is None
    assert orc.initiative == 13
