"""Loadouts: the items a sheet keeps, a weapon's attack, and what a weapon attacks with [GAME.md §9]."""

from __future__ import annotations

import pytest

from bot.errors import BadInput, NotFound, RuleViolation
from bot.rules.attacks import AttackSpec
from bot.rules.loadout import (
    armed_attack,
    check_loadout,
    check_weapon,
    fight_fields,
    find_weapon,
    ready_reach,
    stow,
    take_into_fight,
    unstow,
)
from bot.rules.models import MAX_ITEMS, Armor, GrappleHold, Item, Shield, Weapon
from tests.unit.rules.factories import character, combatant

GREATAXE = Weapon(name="Greataxe", damage="1d12", base_risk=3)  # a Great Axe has base Risk 3 [002]
DAGGER = Weapon(name="Dagger", damage="1d4", style="thrown", weight=0.5, range_kind="short")
BOW = Weapon(name="Longbow", damage="1d10", style="ranged", range_kind="bow", penetration=2)
PIKE = Weapon(name="Pike", damage="9+1", reach=2, braced=True)  # 1 Strength + 9 pike [003]
CHAIN = Armor(name="Chain", absorb=3, crit_guard=2)


def test_items_are_added_replaced_by_name_and_removed() -> None:
    """A loadout lost an item, kept two of one name, or removed the wrong one."""
    items: list[Item] = []
    assert stow(items, GREATAXE).replaced is None
    sharper = GREATAXE.model_copy(update={"name": "greataxe", "damage": "1d12+1"})
    assert stow(items, sharper).replaced == GREATAXE  # the same name, in any case, is a change
    stow(items, DAGGER)
    assert [i.name for i in items] == ["greataxe", "Dagger"]
    assert unstow(items, "DAGGER") == DAGGER
    with pytest.raises(NotFound, match=r"no 'Dagger' here; the loadout: greataxe"):
        unstow(items, "Dagger")
    with pytest.raises(BadInput, match="already a weapon"):
        stow(items, Shield(name="Greataxe"))


def test_one_armor_is_worn_and_one_shield_held() -> None:
    """A second armor or shield was kept beside the first instead of taking its place [bot]."""
    items: list[Item] = [CHAIN, Shield(name="Buckler", block=1)]
    plate = Armor(name="Plate", absorb=5)
    assert stow(items, plate).replaced == CHAIN
    tower = Shield(name="Tower", block=3)
    assert stow(items, tower).replaced == Shield(name="Buckler", block=1)
    assert items == [plate, tower]


def test_a_loadout_holds_at_most_ten_items() -> None:
    """An eleventh item was added [bot: MAX_ITEMS = 10]."""
    items: list[Item] = [Weapon(name=f"Knife {n}", damage="1d4") for n in range(MAX_ITEMS)]
    with pytest.raises(RuleViolation, match="at most 10 items"):
        stow(items, GREATAXE)
    stow(items, Weapon(name="Knife 3", damage="1d6"))  # a change of one still fits
    assert len(items) == MAX_ITEMS


@pytest.mark.parametrize(
    ("weapon", "refusal"),
    [
        (Weapon(name="Fist", style="unarmed"), "needs no weapon"),
        (Weapon(name="Javelin", style="thrown", damage="1d6"), "needs the weapon's weight"),
        (Weapon(name="Club", damage="1d6", weight=2), "weight is for thrown"),
        (Weapon(name="Sling", style="thrown", weight=1, range_kind="bow"), "Bow ranges"),
        (Weapon(name="Mace", damage="1d8", penetration=2), "Penetration is for ranged"),
        (Weapon(name="Spear", damage="1d8", range_kind="long"), "range kind is for ranged"),
        (Weapon(name="Bow", style="ranged", damage="1d8", braced=True), "Only a melee weapon"),
        (Weapon(name="Rod", damage="2d"), "2d"),
    ],
)
def test_a_weapon_that_contradicts_its_style_is_refused(weapon: Weapon, refusal: str) -> None:
    """A weapon no attack could use was accepted onto a loadout."""
    with pytest.raises(BadInput, match=refusal):
        check_weapon(weapon)
    with pytest.raises(BadInput):
        stow([], weapon)


def test_a_weapon_gives_an_attack_everything_it_carries() -> None:
    """`weapon:Greataxe` did not bring damage 1d12 and base Risk 3, or a bow its band and penetration."""
    assert AttackSpec(**armed_attack(GREATAXE, {})) == AttackSpec(
        style="melee", damage="1d12", base_risk=3, weapon="Greataxe"
    )
    assert armed_attack(BOW, {"style": None}) == {
        "style": "ranged",
        "weapon": "Longbow",
        "base_risk": 1,
        "damage": "1d10",
        "penetration": 2,
        "range_kind": "bow",
    }
    assert armed_attack(None, {"damage": None, "modifier": 2}) == {"style": "melee", "modifier": 2}


def test_typed_options_win_and_a_style_takes_only_what_fits_it() -> None:
    """A typed option lost to the weapon's, or a thrown dagger's weight followed it into melee [bot]."""
    typed = {"damage": "2d6", "base_risk": None, "style": None}
    assert armed_attack(GREATAXE, typed)["damage"] == "2d6"
    stab = armed_attack(DAGGER, {"style": "melee"})
    assert stab == {"style": "melee", "weapon": "Dagger", "base_risk": 1, "damage": "1d4"}
    AttackSpec(**stab)  # a valid melee attack: no weight, no range band
    shot = armed_attack(BOW, {"style": "thrown", "weight": 1.0})
    assert "range_kind" not in shot and shot["penetration"] == 2  # a bow band is not a throw's


def test_the_ready_weapon_sets_the_reach_a_combatant_fights_with() -> None:
    """A pike carried first did not give reach 2 on entering the fight [000 Reach, bot]."""
    assert ready_reach([BOW, PIKE, GREATAXE]) == 2  # the first melee weapon is held ready
    assert ready_reach([BOW]) is None
    keeps = take_into_fight(combatant("Archer", items=[BOW], reach=3))
    assert keeps.reach == 3
    assert take_into_fight(combatant("Guard", items=[PIKE])).reach == 2


def test_find_weapon_names_what_the_combatant_has() -> None:
    """An unknown weapon's refusal did not list the combatant's weapons."""
    brom = combatant("Brom", items=[GREATAXE, CHAIN])
    assert find_weapon(brom, "greataxe") == GREATAXE
    with pytest.raises(NotFound, match=r"Brom has no weapon 'Club' \(its weapons: Greataxe\)"):
        find_weapon(brom, "Club")
    with pytest.raises(NotFound, match="Chain is not a weapon"):
        find_weapon(brom, "Chain")


def test_a_weapon_held_in_a_grapple_cannot_be_used() -> None:
    """Grappling an item: "that item cannot be used while held" [000]; /attack weapon: used it."""
    brom = combatant("Brom", items=[GREATAXE, CHAIN])
    brom.grapple = GrappleHold(partner_id=2, role="held", item="greataxe")
    with pytest.raises(RuleViolation, match="Brom's Greataxe is held in a grapple"):
        find_weapon(brom, "Greataxe")


def test_a_combatant_takes_the_sheets_stats_and_a_copy_of_its_loadout() -> None:
    """A sheet's loadout did not follow it into the fight, or the fight's copy was the sheet's."""
    sheet = character("Brom", physical=4, items=[GREATAXE, CHAIN])
    taken = fight_fields(sheet)
    assert "name" not in taken and "owner_id" not in taken  # who it is, the fight says
    brom = take_into_fight(combatant("Brom", **taken))
    assert (brom.physical, brom.items, brom.reach) == (4, [GREATAXE, CHAIN], 1)
    brom.items.pop()
    assert sheet.items == [GREATAXE, CHAIN]


def test_a_whole_loadout_is_checked_as_if_stowed_item_by_item() -> None:
    """An imported loadout kept two armors, two items of one name, or a weapon no attack could use."""
    check_loadout([GREATAXE, DAGGER, CHAIN, Shield(name="Buckler")])
    with pytest.raises(BadInput, match=r"a second armor \(Plate\): one at a time"):
        check_loadout([CHAIN, Armor(name="Plate")])
    with pytest.raises(BadInput, match="two items named GREATAXE"):
        check_loadout([GREATAXE, GREATAXE.model_copy(update={"name": "GREATAXE"})])
    with pytest.raises(BadInput, match="needs the weapon's weight"):
        check_loadout([Weapon(name="Javelin", style="thrown", damage="1d6")])
