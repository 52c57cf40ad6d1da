"""A block's copy of a committed encounter: a parse's equal, sharing nothing changeable."""

from __future__ import annotations

from typing import Any

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
