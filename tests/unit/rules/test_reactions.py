"""Reactions to an attack: Protect [000], Support and the highest reaction [002], blind [§10]."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.errors import RuleViolation
from bot.rules import encounter as flow
from bot.rules.attack_flow import answer_attack, declare_attack, visible_reactors
from bot.rules.attacks import AttackSpec
from bot.rules.models import ActiveSpecial, Combatant, Encounter, PendingAttack
from bot.rules.reactions import eligible, react, reaction_refusal
from tests.scripted import ScriptedRandom, d20


def fight() -> Encounter:
    """The Goblin's turn: Goblin (Physical 3) and Orc (2) against Mira (4), Brom (6), Tor (1)."""
    encounter = Encounter(channel_id=1, gm_id=9, mode="finesse")
    roster = [
        ("Goblin", "foes", 3, 9),
        ("Orc", "foes", 2, 0),
        ("Mira", "party", 4, 1),
        ("Brom", "party", 6, 0),
        ("Tor", "party", 1, 0),
    ]
    for name, side, physical, finesse in roster:
        combatant = Combatant(
            id=0, name=name, side=side, physical=physical, finesse=finesse, is_npc=side == "foes"
        )
        flow.add_combatant(encounter, combatant, random.Random(0))
    flow.advance(encounter, random.Random(0))  # by Finesse: the Goblin first
    return encounter


def who(encounter: Encounter, name: str) -> Combatant:
    return flow.by_name(encounter, name)


def goblin_attacks_mira(encounter: Encounter, natural: int) -> PendingAttack:
    declared = declare_attack(
        encounter,
        who(encounter, "Goblin"),
        who(encounter, "Mira"),
        AttackSpec(),
        ScriptedRandom([d20(natural)]),
        attack_id="a1",
        now=0,
        timeout=60,
    )
    assert declared.pending is not None  # Mira may choose: she is asked, blind
    return declared.pending


def test_a_protector_takes_the_attack_and_must_block() -> None:
    """Brom protecting Mira did not block in her place and take the hit himself [000]."""
    encounter = fight()
    pending = goblin_attacks_mira(encounter, 12)  # 12 + Physical 3 = 15
    reacted = react(encounter, who(encounter, "Brom"), pending, "protect")
    assert (reacted.kind, reacted.actions_left) == ("protect", 1)  # a reaction costs an action
    settled = answer_attack(encounter, "a1", "dodge", ScriptedRandom([d20(8)]))  # Brom's block
    assert settled is not None
    assert settled.protected and (settled.target_id, settled.strategy) == (3, "block")
    block = settled.result.defense
    assert block is not None and (block.attribute, block.value) == ("physical", 8 + 6)
    assert (settled.result.attack_value, settled.result.outcome) == (15, "hit")
    assert (who(encounter, "Brom").grit, who(encounter, "Mira").grit) == (30 - 12, 30)


def test_of_several_protectors_only_the_highest_block_applies() -> None:
    """Two protectors' blocks did not leave only the highest (Tor's 16) to apply [002]."""
    encounter = fight()
    pending = goblin_attacks_mira(encounter, 12)  # 15
    react(encounter, who(encounter, "Brom"), pending, "protect")
    react(encounter, who(encounter, "Tor"), pending, "protect")
    settled = answer_attack(encounter, "a1", None, ScriptedRandom([d20(5), d20(15)]))
    assert settled is not None
    assert [b.value for b in settled.protections] == [5 + 6, 15 + 1]
    assert settled.defender_id == who(encounter, "Tor").id
    assert settled.result.outcome == "miss"  # 15 against 16
    assert settled.grit is None


def test_a_support_that_matches_the_allys_roll_adds_three() -> None:
    """The Orc's supporting roll of 15 against the Goblin's 15 did not add +3 [002, bot]."""
    encounter = fight()
    pending = goblin_attacks_mira(encounter, 12)  # 15
    react(encounter, who(encounter, "Orc"), pending, "support")
    # Orc's support d20 13 + Physical 2 = 15; Mira's block d20 14 + 4 = 18; damage: the face
    settled = answer_attack(encounter, "a1", "block", ScriptedRandom([d20(13), d20(14)]))
    assert settled is not None and settled.support is not None
    assert (settled.support.against, settled.support.bonus) == (15, 3)
    assert settled.result.attack_value == 18
    assert settled.result.outcome == "miss"  # 18 against 18: ties go to the defender


def test_a_support_below_the_allys_roll_does_nothing() -> None:
    """A supporting roll of 14 against the ally's 15 still enhanced the attack [002]."""
    encounter = fight()
    pending = goblin_attacks_mira(encounter, 12)
    react(encounter, who(encounter, "Orc"), pending, "support")
    settled = answer_attack(encounter, "a1", "block", ScriptedRandom([d20(12), d20(2)]))
    assert settled is not None and settled.support is not None
    assert (settled.support.best.value, settled.support.bonus) == (14, 0)  # type: ignore[union-attr]
    assert settled.result.attack_value == 15


def test_a_critical_needs_no_block_and_the_first_protector_takes_it() -> None:
    """A Critical rolled protectors' blocks or supports, or hit the target behind its protector."""
    encounter = fight()
    pending = goblin_attacks_mira(encounter, 20)
    react(encounter, who(encounter, "Brom"), pending, "protect")
    react(encounter, who(encounter, "Orc"), pending, "support")
    settled = answer_attack(encounter, "a1", None, ScriptedRandom([d20(7)]))  # the Critical's die
    assert settled is not None
    assert (settled.result.auto_reason, settled.protections, settled.support) == (
        "critical",
        [],
        None,
    )
    assert who(encounter, "Brom").grit == 30 - 20 - 7


@pytest.mark.parametrize(
    ("name", "change", "refusal"),
    [
        ("Orc", {}, "Orc is not on Mira's side."),
        ("Brom", {"actions_left": 0}, "Brom has no action left this round to react with."),
        ("Brom", {"grit": 0}, "Brom is Broken and cannot act."),
        ("Brom", {"specials": [ActiveSpecial(name="Stunned")]}, "Brom is Stunned and cannot react"),
        ("Brom", {"engaged_with": [2]}, "Brom is engaged with Orc: break away first"),
        ("Mira", {}, "Mira is in this attack already"),
    ],
    ids=["foe", "no-action", "broken", "stunned", "engaged", "the-target"],
)
def test_who_cannot_protect(name: str, change: dict, refusal: str) -> None:
    """A foe, someone without an action, Broken, Stunned, engaged elsewhere, or the target protected."""
    encounter = fight()
    pending = goblin_attacks_mira(encounter, 12)
    reactor = who(encounter, name)
    for key, value in change.items():
        setattr(reactor, key, value)
    assert reaction_refusal(encounter, reactor, pending, "protect") is not None
    with pytest.raises(RuleViolation, match=refusal):
        react(encounter, reactor, pending, "protect")
    assert pending.protectors == []


def test_hidden_npcs_are_not_offered_to_the_table() -> None:
    """A hidden NPC made the table's prompt offer a reaction, betraying it."""
    encounter = fight()
    pending = goblin_attacks_mira(encounter, 12)
    who(encounter, "Orc").hidden = True
    assert visible_reactors(encounter, pending, "support") == []
    assert [c.name for c in visible_reactors(encounter, pending, "protect")] == ["Brom", "Tor"]


def test_a_defender_who_cannot_respond_waits_for_an_ally_to_protect() -> None:
    """A Stunned Mira with allies at hand was hit at once, or alone was kept waiting."""
    encounter = fight()
    who(encounter, "Mira").specials.append(ActiveSpecial(name="Stunned"))
    goblin, mira = who(encounter, "Goblin"), who(encounter, "Mira")
    declared = declare_attack(
        encounter,
        goblin,
        mira,
        AttackSpec(),
        ScriptedRandom([d20(9)]),
        attack_id="a",
        now=0,
        timeout=60,
    )
    assert declared.pending is not None  # Brom and Tor may still protect her [000]
    for ally in ("Brom", "Tor"):
        who(encounter, ally).actions_left = 0
    alone = declare_attack(
        encounter,
        goblin,
        mira,
        AttackSpec(),
        ScriptedRandom([d20(9)]),
        attack_id="b",
        now=0,
        timeout=60,
    )
    assert alone.pending is None and alone.settled is not None
    assert alone.settled.no_choice == "stunned"
    defense = alone.settled.result.defense
    assert defense is not None and (defense.core, defense.value) == (None, 0)


reactor_states = st.fixed_dictionaries(
    {
        "side": st.sampled_from(["party", "foes"]),
        "fixed_object": st.booleans(),
        "grit": st.sampled_from([0, 5, 30]),
        "actions_left": st.integers(0, 2),
        "stunned": st.booleans(),
        "grappling": st.booleans(),
        "engaged": st.booleans(),
    }
)


@given(
    st.lists(reactor_states, min_size=2, max_size=8),
    st.sampled_from(["protect", "support"]),
    st.lists(st.integers(1, 8), max_size=3),
    st.booleans(),
)
def test_eligible_is_everyone_reaction_refusal_lets_react(
    states: list[dict[str, object]], kind: str, reacting: list[int], ambush: bool
) -> None:
    """eligible (the parties looked up once) disagreed with reaction_refusal on a combatant."""
    encounter = Encounter(channel_id=1, gm_id=9, round=0 if ambush else 1, ambush="foes")
    for n, state in enumerate(states, start=1):
        encounter.combatants.append(
            Combatant(
                id=n,
                name=f"C{n}",
                side=state["side"],
                fixed_object=state["fixed_object"],
                grit=state["grit"],
                actions_left=state["actions_left"],
                specials=[ActiveSpecial(name="Stunned")] if state["stunned"] else [],
                grapple={"partner_id": 1, "role": "held"} if state["grappling"] else None,
                engaged_with=[1, 2] if state["engaged"] else [],
            )
        )
    pending = PendingAttack(
        id="a1",
        attacker_id=1,
        defender_id=2,
        spec={},
        roll={},
        created_at=0,
        due_at=60,
        protectors=[i for i in reacting if i % 2],
        supporters=[i for i in reacting if not i % 2],
    )
    expected = [
        c for c in encounter.combatants if reaction_refusal(encounter, c, pending, kind) is None
    ]
    assert eligible(encounter, pending, kind) == expected
