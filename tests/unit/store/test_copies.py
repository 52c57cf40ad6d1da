"""A block's copy of a committed encounter: a parse's equal, sharing nothing changeable."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from bot.rules.models import (
    ActiveEssence,
    ActiveSpecial,
    Armor,
    Combatant,
    CounterOffer,
    Declaration,
    Encounter,
    GrappleHold,
    KnownPower,
    LongAction,
    MaintainedBuff,
    PendingAttack,
    PowerSpecial,
    RoundSnapshot,
    Shield,
    Weapon,
)
from bot.store.copies import copy_state, same_state


def full_encounter(channel_id: int = 5, guild_id: int = 6) -> Encounter:
    """Return an encounter with something in every changeable field a fight can have."""
    mira = Combatant(
        id=1,
        name="Mira",
        side="party",
        controller_id=9,
        tags=["Stealth"],
        specials=[ActiveSpecial(name="Ruin", x=3, source="Goblin 2")],
        long_action=LongAction(name="Ritual", kind="focused", rounds=3, progress=1),
        engaged_with=[2],
        grapple=GrappleHold(partner_id=2, role="grappler"),
        items=[
            Weapon(name="Sword", damage="1d8+1"),
            Armor(name="Mail", absorb=2),
            Shield(name="Buckler", block=1, durability=12),
        ],
        essence=ActiveEssence(name="Elixir", kind="elixir", rounds_left=2),
        powers=[
            KnownPower(
                name="Bolt",
                kind="active",
                level=2,
                pp=25.0,
                damage="1d8",
                specials=[PowerSpecial(name="Ruin", x=2)],
            )
        ],
        power_uses={"Bolt": 1},
        buff=MaintainedBuff(name="Ward", until_round=3),
        declaration=Declaration(text="Attack the goblin"),
        sacrifices={"defense": 1},
        free_tries={"close_in": 1},
    )
    goblin = Combatant(id=2, name="Goblin 2", engaged_with=[1])
    return Encounter(
        channel_id=channel_id,
        guild_id=guild_id,
        gm_id=7,
        combatants=[mira, goblin],
        order=[1, 2],
        turn=0,
        pending_attacks=[
            PendingAttack(
                id="a1",
                attacker_id=2,
                defender_id=1,
                spec={"style": "melee", "dice": ["1d8", 1], "nested": {"list": [1, 2.5]}},
                roll={"total": 14, "faces": [10, 4]},
                created_at=1.5,
                due_at=61.5,
                protectors=[3],
                on_hit=[{"special": {"name": "Ruin"}, "x": 2, "source": "Goblin 2"}],
                reactions=["Parry"],
            )
        ],
        counter_offers=[CounterOffer(id="a0", counterer_id=1, target_id=2, round=1, style="melee")],
        previous_round=RoundSnapshot(
            round=1, order=[2, 1], turn=1, combatants={1: {"actions_left": 0, "sacrifices": {}}}
        ),
    )


def parsed(encounter: Encounter) -> Encounter:
    return Encounter.model_validate_json(encounter.model_dump_json())


def change_everything(encounter: Encounter) -> None:
    """Change every changeable thing an encounter holds, in place, down to the bottom."""
    mira = encounter.combatants[0]
    mira.grit = 3
    mira.tags.append("Undead")
    mira.specials[0].x = 9
    mira.long_action.progress = 2  # type: ignore[union-attr]
    mira.engaged_with.append(5)
    mira.grapple.item = "Sword"  # type: ignore[union-attr]
    mira.items[2].durability = 1  # type: ignore[union-attr]
    mira.essence.rounds_left = 1  # type: ignore[union-attr]
    mira.powers[0].specials.append(PowerSpecial(name="Stunned"))
    mira.powers[0].level = 3
    mira.power_uses["Bolt"] = 2
    mira.buff.until_round = 9  # type: ignore[union-attr]
    mira.declaration.text = "Run"  # type: ignore[union-attr]
    mira.sacrifices["attack"] = 1
    mira.free_tries["close_in"] = 2
    encounter.combatants.append(Combatant(id=3, name="Newcomer"))
    encounter.order.reverse()
    pending = encounter.pending_attacks[0]
    pending.spec["nested"]["list"].append(3)
    pending.spec["dice"][1] = 2
    pending.roll["faces"].pop()
    pending.protectors.clear()
    pending.on_hit[0]["special"]["name"] = "Hex"
    pending.reactions.append("Dodge")
    encounter.counter_offers[0].distance = 4
    encounter.previous_round.combatants[1]["sacrifices"]["check"] = 1  # type: ignore[union-attr]
    encounter.previous_round.order.append(9)  # type: ignore[union-attr]
    encounter.round = 5


def test_a_copy_is_what_a_parse_of_the_stored_text_gives() -> None:
    """A copy differed from a parse of the encounter's JSON, in a value or a Python type."""
    encounter = parsed(full_encounter())
    assert same_state(copy_state(encounter), parsed(encounter)) is None
    assert copy_state(encounter).model_dump_json() == encounter.model_dump_json()


def test_changing_a_copy_never_reaches_its_original_nor_the_other_way() -> None:
    """A change of a copy, down to a power's Specials or a pending attack's spec, showed elsewhere."""
    original = parsed(full_encounter())
    stored = original.model_dump_json()
    copy = copy_state(original)
    change_everything(copy)
    assert original.model_dump_json() == stored
    changed = copy.model_dump_json()
    change_everything(original)
    assert copy.model_dump_json() == changed


def test_a_copy_still_validates_what_is_assigned_and_marks_nothing_set() -> None:
    """A copy lost the models' checks on assignment, or remembered fields as set."""
    copy = copy_state(parsed(full_encounter()))
    assert copy.model_fields_set == set() and copy.combatants[0].model_fields_set == set()
    try:
        copy.combatants[0].reach = 99  # the model's bound: at most 10
    except ValueError:
        pass
    else:
        raise AssertionError("an out-of-bounds reach was accepted")


def test_a_copy_of_a_combatant_for_init_add_is_its_deep_copy() -> None:
    """/init add count:n's copies (copy_state, then the name) differed from deep copies."""
    model = full_encounter().combatants[0]  # built and assigned to, as /init add builds it
    model.hidden, model.side = True, "foes"
    copy = copy_state(model)
    copy.name = "Mira 2"
    assert same_state(copy, model.model_copy(update={"name": "Mira 2"}, deep=True)) is None
    copy.specials[0].x = 9
    copy.powers[0].specials.append(PowerSpecial(name="Hex"))
    copy.power_uses["Bolt"] = 2
    assert model.specials[0].x == 3 and len(model.powers[0].specials) == 1
    assert model.power_uses == {"Bolt": 1}


def test_same_state_names_where_two_states_differ() -> None:
    """same_state missed a difference of value, of type, or of a dict key's type."""
    encounter = parsed(full_encounter())
    other = parsed(full_encounter())
    other.combatants[0].powers[0].pp = 26.0
    assert same_state(encounter, other) == "encounter.combatants[0].powers[0].pp: 25.0 vs 26.0"
    ints: dict[Any, int] = {1: 1}
    assert same_state({"1": 1}, ints) == "encounter: keys ['1'] vs [1]"
    assert same_state([1], [1.0]) == "encounter[0]: int vs float"
    assert same_state(encounter, parsed(encounter)) is None


def reference_same_state(a: Any, b: Any, where: str = "encounter") -> str | None:
    """same_state as it was before its leaves were compared in place (the oracle)."""
    if type(a) is not type(b):
        return f"{where}: {type(a).__name__} vs {type(b).__name__}"
    if isinstance(a, BaseModel):
        if a.__pydantic_extra__ != b.__pydantic_extra__:
            return f"{where}: extra fields"
        return reference_same_state(a.__dict__, b.__dict__, where)
    if type(a) is dict:
        if list(a) != list(b):
            return f"{where}: keys {list(a)} vs {list(b)}"
        for key, value in a.items():
            if type(key) is not type(next(k for k in b if k == key)):
                return f"{where}[{key!r}]: key type"
            found = reference_same_state(value, b[key], f"{where}.{key}")
            if found:
                return found
        return None
    if type(a) is list:
        if len(a) != len(b):
            return f"{where}: {len(a)} vs {len(b)} items"
        for index, (left, right) in enumerate(zip(a, b, strict=True)):
            found = reference_same_state(left, right, f"{where}[{index}]")
            if found:
                return found
        return None
    return None if a == b else f"{where}: {a!r} vs {b!r}"


# Leaves that are equal across types (1, 1.0, True) and keys that collide the same way.
LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 2),
    st.sampled_from([0.0, 1.0, 2.5, float("nan")]),
    st.sampled_from(["", "a", "b"]),
    st.tuples(st.integers(0, 1)),
)
STATES = st.recursive(
    LEAVES,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(
            st.one_of(st.booleans(), st.integers(0, 2), st.just("a")), inner, max_size=3
        ),
    ),
    max_leaves=12,
)


@settings(max_examples=400, deadline=None)
@given(STATES, STATES)
def test_same_state_says_what_it_said_before_its_leaves_were_compared_in_place(
    a: Any, b: Any
) -> None:
    """The faster same_state found another difference, or none where there was one."""
    assert same_state(a, b) == reference_same_state(a, b)
    assert same_state(a, a) == reference_same_state(a, a)


def test_same_state_tells_equal_keys_of_another_type_apart() -> None:
    """Keys equal across types (1, True, 1.0) passed as the same key."""
    for a, b, said in [
        ({1: 1}, {True: 1}, "encounter[1]: key type"),
        ({"x": {0: "a"}}, {"x": {False: "a"}}, "encounter.x[0]: key type"),
        ([{2: None}], [{2.0: None}], "encounter[0][2]: key type"),
        ({"x": [1, True]}, {"x": [1, 1]}, "encounter.x[1]: bool vs int"),
    ]:
        assert same_state(a, b) == reference_same_state(a, b) == said


def test_same_state_of_a_full_encounter_says_what_it_said_before() -> None:
    """The faster same_state named another place for a changed field of a full encounter."""
    encounter = parsed(full_encounter())
    for change in (lambda e: setattr(e.combatants[0], "name", "Other"), change_everything):
        other = parsed(full_encounter())
        change(other)
        assert same_state(encounter, other) == reference_same_state(encounter, other)
        assert same_state(encounter, other) is not None
