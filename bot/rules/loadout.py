"""A loadout: the weapons, armor and shield a sheet keeps, and what a weapon attacks with [GAME.md §9].

A character sheet and an NPC template carry the same list of items (`Sheet.items`); a
combatant takes a copy into its fight. The first armor is worn and the first shield held
(`bot.rules.items`), so a loadout keeps one of each: a new one replaces the old. Names
are unique within a loadout, compared as the game compares names; adding an item under a
name the loadout has replaces that item (that is how a weapon is changed).

`/attack weapon:Greataxe` takes everything the weapon carries — style, damage, base
Risk, penetration, weight, range band — and any option typed with it wins [bot]. A
weapon's style-bound values go only into an attack of a style that has them: a thrown
dagger's weight is not a melee stab's.
"""

from typing import Any

from bot.errors import BadInput, NotFound, RuleViolation
from bot.i18n import L_, N_
from bot.rules.attacks import MELEE_STYLES, RANGED_STYLES, AttackSpec, check_style_options
from bot.rules.grappling import item_usable
from bot.rules.models import (
    MAX_ITEMS,
    Armor,
    AttackStyle,
    Combatant,
    Item,
    Sheet,
    Shield,
    Stats,
    Weapon,
)
from bot.rules.names import clean_name, name_key
from bot.rules.results import Result

BRACING_STYLES: frozenset[AttackStyle] = frozenset(
    {"melee", "targeted"}
)  # set against a charge [003]
# A weapon of another style braced [003].
UNBRACED = {
    "ranged": N_("Only a melee weapon can be braced against a charge, not a ranged one."),
    "thrown": N_("Only a melee weapon can be braced against a charge, not a thrown one."),
}
# An item named as one of another kind: (the loadout's, the new one's) [bot].
KIND_CLASH = {
    ("weapon", "armor"): N_("{name} is already a weapon here; give the armor another name."),
    ("weapon", "shield"): N_("{name} is already a weapon here; give the shield another name."),
    ("armor", "weapon"): N_("{name} is already armor here; give the weapon another name."),
    ("armor", "shield"): N_("{name} is already armor here; give the shield another name."),
    ("shield", "weapon"): N_("{name} is already a shield here; give the weapon another name."),
    ("shield", "armor"): N_("{name} is already a shield here; give the armor another name."),
}
# The attack options a weapon carries, by the names an attack (`AttackSpec`) gives them.
WEAPON_OPTIONS = ("style", "damage", "base_risk", "penetration", "weight", "range_kind")
# What a sheet or a template carries into a fight besides its stats (powers join here).
CARRIED = ("items", "powers")  # what a sheet or template brings into a fight


class Stowed(Result):
    """An item added to a loadout, and what it took the place of."""

    item: Item
    replaced: Item | None = None


def find_item(items: list[Item], name: str) -> Item | None:
    """Return the loadout's item of that name (compared as names are), if any."""
    wanted = name_key(name)
    return next((item for item in items if name_key(item.name) == wanted), None)


def check_weapon(weapon: Weapon) -> None:
    """Refuse a weapon whose values contradict its style, as an attack with them would be."""
    if weapon.style == "unarmed":
        raise BadInput("An unarmed attack needs no weapon: its damage is the attacker's Physical.")
    if weapon.braced and weapon.style not in BRACING_STYLES:
        raise BadInput(
            UNBRACED.get(weapon.style, N_("Only a melee weapon can be braced against a charge."))
        )
    check_style_options(AttackSpec(**weapon.model_dump(include=set(WEAPON_OPTIONS))))


def stow(items: list[Item], item: Item) -> Stowed:
    """Add an item to a loadout (in place): the same name, or the worn armor / held shield, is replaced."""
    if isinstance(item, Weapon):
        check_weapon(item)
    same = find_item(items, item.name)
    if same is not None and same.kind != item.kind:
        raise BadInput(KIND_CLASH[(same.kind, item.kind)], name=same.name)
    replaced = same
    if replaced is None and isinstance(item, Armor | Shield):
        # One armor worn and one shield held [bot]: a second takes the first one's place.
        replaced = next((i for i in items if i.kind == item.kind), None)
    if replaced is None and len(items) >= MAX_ITEMS:
        raise RuleViolation(
            "A loadout holds at most {most} items; remove one first.", most=MAX_ITEMS
        )
    if replaced is None:
        items.append(item)
    else:
        items[items.index(replaced)] = item
    return Stowed(item=item, replaced=replaced)


def check_loadout(items: list[Item]) -> None:
    """Refuse a whole loadout (an imported one) that stowing its items one by one would not make."""
    kept: list[Item] = []
    for item in items:
        replaced = stow(kept, item).replaced
        if replaced is not None and name_key(replaced.name) == name_key(item.name):
            raise BadInput("The loadout has two items named {name}.", name=item.name)
        if isinstance(replaced, Armor):
            raise BadInput(
                "The loadout has a second armor ({name}): one at a time.", name=item.name
            )
        if replaced is not None:
            raise BadInput(
                "The loadout has a second shield ({name}): one at a time.", name=item.name
            )


def unstow(items: list[Item], name: str) -> Item:
    """Take the named item out of a loadout (in place) and return it, or refuse: none has that name."""
    found = find_item(items, name)
    if found is None and not items:
        raise NotFound("There is no {name!r} here; the loadout is empty.", name=clean_name(name))
    if found is None:
        raise NotFound(
            "There is no {name!r} here; the loadout: {items}.",
            name=clean_name(name),
            items=", ".join(item.name for item in items),
        )
    items.remove(found)
    return found


def weapons(items: list[Item]) -> list[Weapon]:
    """Return a loadout's weapons, in order."""
    return [item for item in items if isinstance(item, Weapon)]


def find_weapon(combatant: Combatant, name: str) -> Weapon:
    """Return the combatant's weapon of that name, or refuse: not one it has, or held in a grapple."""
    found = find_item(combatant.items, name)
    if isinstance(found, Weapon):
        if not item_usable(combatant, found.name):
            raise RuleViolation(
                "{name}'s {item} is held in a grapple: it cannot be used "
                "until the grapple ends [000].",
                name=combatant.name,
                item=found.name,
            )
        return found
    own = weapons(combatant.items)
    has = ", ".join(w.name for w in own) if own else L_("none")
    if found is not None:
        raise NotFound(
            "{name}'s {item} is not a weapon (its weapons: {weapons}).",
            name=combatant.name,
            item=found.name,
            weapons=has,
        )
    raise NotFound(
        "{name} has no weapon {weapon!r} (its weapons: {weapons}).",
        name=combatant.name,
        weapon=clean_name(name),
        weapons=has,
    )


def weapon_options(weapon: Weapon, style: AttackStyle) -> dict[str, Any]:
    """Return the attack options a weapon gives an attack of this style (its name too)."""
    options: dict[str, Any] = {"weapon": weapon.name, "base_risk": weapon.base_risk}
    if style != "unarmed":
        options["damage"] = weapon.damage
    if style in RANGED_STYLES:
        options["penetration"] = weapon.penetration
        if weapon.range_kind != "bow" or style == "ranged":
            options["range_kind"] = weapon.range_kind
    if style == "thrown":
        options["weight"] = weapon.weight
    return {"style": style, **{k: v for k, v in options.items() if v is not None}}


def armed_attack(weapon: Weapon | None, typed: dict[str, Any]) -> dict[str, Any]:
    """Return an attack's options: those typed, else the weapon's, else the defaults [bot]."""
    chosen = {key: value for key, value in typed.items() if value is not None}
    style: AttackStyle = chosen.get("style") or (weapon.style if weapon else "melee")
    given = weapon_options(weapon, style) if weapon is not None else {"style": style}
    return {**given, **chosen}


def ready_reach(items: list[Item]) -> int | None:
    """Return the reach of the melee weapon held ready — the loadout's first — if it has one [bot]."""
    ready = next((w for w in weapons(items) if w.style in MELEE_STYLES), None)
    return None if ready is None else ready.reach


def fight_fields(sheet: Sheet) -> dict[str, Any]:
    """Return what a combatant takes from a sheet or template: stats, loadout and powers, copied."""
    return sheet.model_dump(include={*Stats.model_fields, *CARRIED})


def take_into_fight(combatant: Combatant) -> Combatant:
    """Ready a combatant's loadout as it enters a fight: its reach is its ready weapon's [bot]."""
    reach = ready_reach(combatant.items)
    if reach is not None:
        combatant.reach = reach
    return combatant
