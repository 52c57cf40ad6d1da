"""A character sheet's fields as players type and read them: /character edit and its form.

Each field has its bounds from the model, its words in the reader's language, and one
parser for a typed value (an option, a form's box, the form's "more" lines).
"""

from __future__ import annotations

import re
from typing import Any, Literal, get_args

from bot.errors import BadInput
from bot.i18n import N_, Lp_, _, p_
from bot.render.characters import defense_text
from bot.rules.models import MAX_NAME_LENGTH, MAX_TAGS, SHEET_BOUNDS, DefaultDefense, Stats
from bot.rules.names import clean_name

NAME_MAX = MAX_NAME_LENGTH

# /character edit's fields are the sheet's own (`Stats`), and its name.
EDITABLE_FIELDS: tuple[str, ...] = ("name", *Stats.model_fields)
EditableField = Literal[EDITABLE_FIELDS]  # type: ignore[valid-type]
GRIT_FIELDS = ("grit", "max_grit")

# Whole-number fields: (lowest, highest, may be cleared with "none"), from the model.
NUMBER_FIELDS: dict[str, tuple[int, int, bool]] = {
    name: (*SHEET_BOUNDS[name], Stats.model_fields[name].default is None)
    for name in EDITABLE_FIELDS
    if name in SHEET_BOUNDS
}
CLEARED = {"none", "auto", "-", "clear", "keine", "leer"}  # German clients type theirs
# A field as a reply names it ("max grit 20 → 24").
FIELD_LABELS = {
    "name": N_("name"),
    "physical": N_("physical"),
    "finesse": N_("finesse"),
    "grit": N_("grit"),
    "max_grit": N_("max grit"),
    "risk": N_("risk"),
    "crit_range": N_("crit range"),
    "perception_m": N_("perception m"),
    "initiative_bonus": N_("initiative bonus"),
    "default_defense": N_("default defense"),
    "durability": N_("durability"),
    "stamina": N_("stamina"),
    "mastery_rank": N_("mastery rank"),
    "tags": N_("tags"),
}
# What /character power add takes from the catalogue, and what /character power build prices.
_INTEGER = re.compile(r"^[+-]?\d+$")

# Parsing -------------------------------------------------------------------------------


def form_key(name: str) -> str:
    """Return a field's (or a choice's) word as the reader types it: `crit_range`, `kritbereich`.

    It is the field's name among /character edit's choices, so the form and the refusals
    use the words a German player picks there; the English name is always understood too.
    """
    return "_".join(p_("choice", name).casefold().split())


def character_name(text: str) -> str:
    """Return a character's name, trimmed, or refuse an empty or overlong one."""
    name = clean_name(text)
    if not name:
        raise BadInput("A character needs a name.")
    if len(name) > NAME_MAX:
        raise BadInput(
            "A character's name has at most {most} characters ({given} given).",
            most=NAME_MAX,
            given=len(name),
        )
    return name


def parse_field(field: str, text: str) -> Any:
    """Read `/character edit`'s text value as the field's type, or refuse it in one line."""
    if field not in EDITABLE_FIELDS:
        raise BadInput(
            "There is no field {field!r}; editable: {fields}.",
            field=field,
            fields=", ".join(EDITABLE_FIELDS),
        )
    value = text.strip()
    if field == "name":
        return character_name(value)
    if field == "tags":
        tags = [tag.strip() for tag in value.split(",") if tag.strip()]
        if value.casefold() in CLEARED:
            return []
        if len(tags) > MAX_TAGS or any(len(tag) > NAME_MAX for tag in tags):
            raise BadInput(
                "Tags: at most {most}, each at most {length} characters.",
                most=MAX_TAGS,
                length=NAME_MAX,
            )
        return tags
    if field == "default_defense":
        return parse_defense(value)
    low, high, clearable = NUMBER_FIELDS[field]
    if clearable and value.casefold() in CLEARED:
        return None
    if not _INTEGER.match(value) and clearable:
        raise BadInput(
            "{field} takes a whole number from {low} to {high} (or none), not {value!r}.",
            field=Lp_("choice", field),
            low=low,
            high=high,
            value=value,
        )
    if not _INTEGER.match(value):
        raise BadInput(
            "{field} takes a whole number from {low} to {high}, not {value!r}.",
            field=Lp_("choice", field),
            low=low,
            high=high,
            value=value,
        )
    number = int(value)
    if not low <= number <= high:
        raise BadInput(
            "{field} must be from {low} to {high} (got {number}).",
            field=Lp_("choice", field),
            low=low,
            high=high,
            number=number,
        )
    return number


# The form: name, Physical, Finesse and Grit have a box each; the rest share one, a line each.
FORM_BOXES = ("name", "physical", "finesse", "grit", "max_grit")
NEW_SHEET_MORE = ("risk", "initiative_bonus", "mastery_rank")
MORE_FIELDS = tuple(f for f in EDITABLE_FIELDS if f not in FORM_BOXES)


def parse_defense(value: str) -> str:
    """Read a default defense, by its English key or its name in the reader's language."""
    choices = get_args(DefaultDefense)
    typed = {form_key(choice): choice for choice in choices}
    chosen = value.casefold().replace(" ", "_")
    chosen = typed.get(chosen, chosen)
    if chosen not in choices:
        raise BadInput(
            "default_defense is one of {choices}, not {value!r}.",
            choices=", ".join(typed),
            value=value,
        )
    return chosen


def parse_grit(text: str, current_max: int | None) -> tuple[int, int]:
    """Read the form's Grit box: `24/30` (current/max), or one number (a new sheet: both)."""
    current, slash, maximum = text.partition("/")
    grit = parse_field("grit", current)
    if slash:
        return grit, parse_field("max_grit", maximum)
    return grit, current_max if current_max is not None else max(grit, 1)


def parse_more(text: str, allowed: tuple[str, ...]) -> dict[str, Any]:
    """Read the form's `field: value` lines (or `;`-separated), each as its field's type."""
    values: dict[str, Any] = {}
    for entry in text.replace(";", "\n").splitlines():
        if not entry.strip():
            continue
        key, colon, value = entry.partition(":")
        typed = "_".join(key.strip().casefold().split())
        field = {form_key(f): f for f in allowed}.get(typed, typed)
        if not colon or field not in allowed:
            raise BadInput(
                "Write each line as field: value, with a field of {fields}.",
                fields=", ".join(form_key(f) for f in allowed),
            )
        if field in values:
            raise BadInput("{field} is given twice.", field=form_key(field))
        values[field] = parse_field(field, value)
    return values


def more_text(sheet: Stats, fields: tuple[str, ...]) -> str:
    """Return the form's `field: value` lines for a sheet, in the reader's words."""
    return "\n".join(f"{form_key(f)}: {form_value(f, getattr(sheet, f))}" for f in fields)


def form_value(field: str, value: Any) -> str:
    """Return a field's value as the form shows it, in words the form reads back."""
    if value is None or value == []:
        return _("none")
    if field == "default_defense":
        return form_key(value)
    return shown(value)


def shown(value: Any) -> str:
    """Return a field's value as the form shows it (the words the form reads back)."""
    if value is None:
        return "none"
    if isinstance(value, list):
        return ", ".join(value) or "none"
    return str(value)


def said(value: Any, field: str = "") -> str:
    """Return a field's value as a reply says it, in the reader's language."""
    if value is None or value == []:
        return _("none")
    if field == "default_defense":
        return defense_text(value)
    return shown(value)


def change_line(field: str, before: Any, after: Any) -> str:
    """Return one changed field as a reply says it: "max grit 20 → 24"."""
    label = _(FIELD_LABELS[field]) if field in FIELD_LABELS else field
    return _(
        "{field} {before} → {after}",
        field=label,
        before=said(before, field),
        after=said(after, field),
    )


# The cog -------------------------------------------------------------------------------
