"""Independent copies of stored state: what a parse of its JSON gives, without the parse.

A channel block changes its own encounter; the committed one stays with the readers
(`Store.glimpse`). Parsing the stored text again for every block cost about a fifth of a
command; copying the committed encounter costs a fraction of that. The copy shares only
what nothing can change (numbers, strings, None, booleans) and rebuilds every model,
list and dict, so changing it — down to a power's list of Specials — never reaches the
encounter it came from, nor the other way round.
"""

from __future__ import annotations

import copy
import types
from collections.abc import Callable
from itertools import repeat
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)
# Who each model of a block's copy was copied from: id(copy) -> (copy, its source). The
# pairs keep both alive, so no id is reused while the block may ask.
Origins = dict[int, tuple[BaseModel, BaseModel]]

_SHARED = frozenset({int, str, float, bool, type(None)})  # immutable: kept, never copied
# How a field that may hold something changeable is copied and compared.
_FLAT = "flat"  # a list or dict of immutables: a shallow copy is a whole copy
_MODEL = "model"  # one model
_MODELS = "models"  # a list of models
_DEEP = "deep"  # anything else (`Any`: what JSON gives): copied to the bottom, never compared
# Per model class: each field that may hold something changeable, and its kind.
_PLANS: dict[type[BaseModel], tuple[tuple[str, str], ...]] = {}


def copy_state(model: M, origins: Origins | None = None) -> M:
    """Return an independent copy of a state model, equal to a parse of its JSON.

    `origins`, if given, learns where each model of the copy came from (see `unchanged`).
    """
    return _COPIERS[type(model)](model, origins)


def unchanged(model: BaseModel, origins: Origins) -> bool:
    """Return whether a model is a copy (see `copy_state`) that nothing has changed since.

    Every assignment marks its field as set (pydantic's validation on assignment), and a
    copy starts with none marked: a field that was not assigned still holds what the copy
    put there. What may have changed in place is compared with the source: a list or dict
    of immutables by value, a model (alone or in a list) by this same rule, and by being
    the copy of the source's model at its place.
    """
    entry = origins.get(id(model))
    return entry is not None and entry[0] is model and _SAME[type(model)](model, entry[1], origins)


def _copied(model: BaseModel, source: BaseModel, origins: Origins) -> bool:
    """Return whether a model is an unchanged copy of this source."""
    entry = origins.get(id(model))
    return (
        entry is not None
        and entry[0] is model
        and entry[1] is source
        and _SAME[type(model)](model, source, origins)
    )


class _PerClass(dict[type[BaseModel], Callable[..., Any]]):
    """A function per model class, written for that class's fields when first asked for."""

    def __init__(self, write: Callable[[type[BaseModel]], Callable[..., Any]]) -> None:
        super().__init__()
        self._write = write

    def __missing__(self, cls: type[BaseModel]) -> Callable[..., Any]:
        made = self[cls] = self._write(cls)
        return made


def _plan_of(cls: type[BaseModel]) -> tuple[tuple[str, str], ...]:
    plan = _PLANS.get(cls)
    if plan is None:
        plan = _PLANS[cls] = _plan(cls)
    return plan


def _compiled(source: str, name: str, scope: dict[str, Any]) -> Callable[..., Any]:
    """Return the function `name` that `source` defines, its globals `scope`."""
    exec(compile(source, f"<bot.store.copies {name}>", "exec"), scope)
    return scope[name]


# Copying and comparing walk every model of an encounter (about 30 for 10 combatants) on
# every command block; a loop over each class's plan cost more than the work itself. So
# each class gets its own function, its fields spelled out, as dataclasses and pydantic
# write theirs: `_copier_source` and `_sameness_source` show what they do.
def _copier_source(plan: tuple[tuple[str, str], ...]) -> str:
    """Return the source of `copy(model, origins)` for a model class of this plan."""
    lines = ["def copy(model, origins):", "    values = model.__dict__.copy()"]
    for name, kind in plan:
        if kind is _FLAT:
            made = "value.copy()"
        elif kind is _MODELS:
            made = "[copiers[type(item)](item, origins) for item in value] if value else []"
        elif kind is _MODEL:
            made = "copiers[type(value)](value, origins)"
        else:
            made = "copy_value(value)"
        lines += [
            f"    value = values[{name!r}]",
            "    if value is not None:",
            f"        values[{name!r}] = {made}",
        ]
    lines += [
        "    new = new_model(cls)",
        "    set_dict(new, values)",
        # A parse leaves no field marked as set (`Model.model_post_init` forgets them).
        "    set_fields_set(new, set())",
        "    extra = model.__pydantic_extra__",
        "    set_extra(new, None if extra is None else copy_value(extra))",
        "    private = model.__pydantic_private__",
        "    set_private(new, None if private is None else copy_value(private))",
        "    if origins is not None:",
        "        origins[id(new)] = (new, model)",
        "    return new",
    ]
    return "\n".join(lines)


def _write_copier(cls: type[BaseModel]) -> Callable[..., Any]:
    scope = {
        "cls": cls,
        "new_model": cls.__new__,
        "copiers": _COPIERS,
        "copy_value": _copy_value,
        "set_dict": _set_dict,
        "set_fields_set": _set_fields_set,
        "set_extra": _set_extra,
        "set_private": _set_private,
    }
    return _compiled(_copier_source(_plan_of(cls)), "copy", scope)


def _sameness_source(plan: tuple[tuple[str, str], ...]) -> str:
    """Return the source of `same(model, source, origins)`: is the copy still its source?"""
    lines = [
        "def same(model, source, origins):",
        "    if model.__pydantic_fields_set__:",
        "        return False",
    ]
    if any(kind is _DEEP for _, kind in plan):
        return "\n".join([*lines, "    return False"])  # `Any` is not compared: changed
    lines.append("    values, before = model.__dict__, source.__dict__")
    flat = [name for name, kind in plan if kind is _FLAT]
    if flat:
        differs = " or ".join(f"values[{name!r}] != before[{name!r}]" for name in flat)
        lines += [f"    if {differs}:", "        return False"]
    for name, kind in plan:
        if kind is _MODEL:  # None stays None unless assigned
            lines += [
                f"    value = values[{name!r}]",
                f"    if value is not None and not copied(value, before[{name!r}], origins):",
                "        return False",
            ]
        elif kind is _MODELS:
            lines += [
                f"    value, old = values[{name!r}], before[{name!r}]",
                "    if (value or old) and (len(value) != len(old) or not all(map(copied,"
                " value, old, repeat(origins)))):",
                "        return False",
            ]
    return "\n".join([*lines, "    return True"])


def _write_sameness(cls: type[BaseModel]) -> Callable[..., Any]:
    scope = {"copied": _copied, "repeat": repeat}
    return _compiled(_sameness_source(_plan_of(cls)), "same", scope)


_COPIERS = _PerClass(_write_copier)
_SAME = _PerClass(_write_sameness)


# BaseModel's slots, set as pydantic's own copies set them (its __setattr__ validates).
_set_dict = BaseModel.__dict__["__dict__"].__set__
_set_fields_set = BaseModel.__pydantic_fields_set__.__set__
_set_extra = BaseModel.__pydantic_extra__.__set__
_set_private = BaseModel.__pydantic_private__.__set__


def _copy_value(value: Any) -> Any:
    """Copy anything a field may hold (`Any`: what JSON gives, or models), down to the bottom."""
    kind = type(value)
    if kind in _SHARED:
        return value
    if kind is list:
        return [item if type(item) in _SHARED else _copy_value(item) for item in value]
    if kind is dict:
        # Keys are numbers or strings (JSON object keys): shared like any immutable.
        return {
            key: item if type(item) in _SHARED else _copy_value(item) for key, item in value.items()
        }
    if isinstance(value, BaseModel):
        return copy_state(value)
    return copy.deepcopy(value)  # nothing of the stored state's kinds: copied the slow way


def _plan(cls: type[BaseModel]) -> tuple[tuple[str, str], ...]:
    """Return each field of a model class whose values are not always immutable, and its kind."""
    plan = []
    for name, info in cls.model_fields.items():
        if not _immutable(info.annotation):
            plan.append((name, _kind(info.annotation)))
    return tuple(plan)


def _kind(annotation: Any) -> str:
    """Return how a (not None) value of a changeable type is copied and compared."""
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is Annotated:
        return _kind(args[0])
    if origin is Union or origin is types.UnionType:
        members = [member for member in args if member is not type(None)]
        if len(members) == 1:
            return _kind(members[0])  # None is never copied
    if origin is list and _immutable(args[0]):
        return _FLAT
    if origin is dict and _immutable(args[0]) and _immutable(args[1]):
        return _FLAT
    if origin is list and _is_model(args[0]):
        return _MODELS
    if _is_model(annotation):
        return _MODEL
    return _DEEP


def _is_model(annotation: Any) -> bool:
    """Return whether every value of this type is a pydantic model."""
    if get_origin(annotation) is Annotated:
        return _is_model(get_args(annotation)[0])
    if get_origin(annotation) in (Union, types.UnionType):
        return all(_is_model(member) for member in get_args(annotation))
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def _immutable(annotation: Any) -> bool:
    """Return whether every value a field of this type can hold is immutable."""
    if annotation in _SHARED or annotation is None:
        return True
    origin = get_origin(annotation)
    if origin is Literal:
        return all(type(choice) in _SHARED for choice in get_args(annotation))
    if origin is Annotated:
        return _immutable(get_args(annotation)[0])
    if origin is Union or origin is types.UnionType:
        return all(_immutable(member) for member in get_args(annotation))
    return False


_LEAVES = frozenset({str, int, float, bool, type(None)})  # most of a state: compared in place


def same_state(a: Any, b: Any, where: str = "encounter") -> str | None:
    """Return where two states differ — in value or in Python type — or None if they do not."""
    if type(a) is not type(b):
        return f"{where}: {type(a).__name__} vs {type(b).__name__}"
    if type(a) in _LEAVES:
        return None if a == b else f"{where}: {a!r} vs {b!r}"
    if isinstance(a, BaseModel):
        if a.__pydantic_extra__ != b.__pydantic_extra__:
            return f"{where}: extra fields"
        return same_state(a.__dict__, b.__dict__, where)
    if type(a) is dict:
        if list(a) != list(b):
            return f"{where}: keys {list(a)} vs {list(b)}"
        # The key lists are equal, so b's key at the same place is the one equal to a's.
        for (key, value), b_key in zip(a.items(), b, strict=True):
            if type(key) is not type(b_key):
                return f"{where}[{key!r}]: key type"
            other = b[b_key]
            if type(value) is type(other) and type(value) in _LEAVES:  # no call, no path built
                if value != other:
                    return f"{where}.{key}: {value!r} vs {other!r}"
                continue
            found = same_state(value, other, f"{where}.{key}")
            if found:
                return found
        return None
    if type(a) is list:
        if len(a) != len(b):
            return f"{where}: {len(a)} vs {len(b)} items"
        for index, (left, right) in enumerate(zip(a, b, strict=True)):
            if type(left) is type(right) and type(left) in _LEAVES:
                if left != right:
                    return f"{where}[{index}]: {left!r} vs {right!r}"
                continue
            found = same_state(left, right, f"{where}[{index}]")
            if found:
                return found
        return None
    return None if a == b else f"{where}: {a!r} vs {b!r}"
