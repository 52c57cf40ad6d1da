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
from itertools import repeat
from operator import itemgetter
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
    cls = type(model)
    plan = _PLANS.get(cls)
    if plan is None:
        plan = _PLANS[cls] = _plan(cls)
    values = model.__dict__.copy()
    for name, kind in plan:
        value = values[name]
        if value is None:
            continue
        if kind is _FLAT:
            values[name] = value.copy()
        elif kind is _MODELS:
            values[name] = [copy_state(item, origins) for item in value] if value else []
        elif kind is _MODEL:
            values[name] = copy_state(value, origins)
        else:
            values[name] = _copy_value(value)
    new = cls.__new__(cls)
    _set_dict(new, values)
    # A parse leaves no field marked as set (`Model.model_post_init` forgets them).
    _set_fields_set(new, set())
    extra, private = model.__pydantic_extra__, model.__pydantic_private__
    _set_extra(new, None if extra is None else _copy_value(extra))
    _set_private(new, None if private is None else _copy_value(private))
    if origins is not None:
        origins[id(new)] = (new, model)
    return new


def unchanged(model: BaseModel, origins: Origins) -> bool:
    """Return whether a model is a copy (see `copy_state`) that nothing has changed since.

    Every assignment marks its field as set (pydantic's validation on assignment), and a
    copy starts with none marked: a field that was not assigned still holds what the copy
    put there. What may have changed in place is compared with the source: a list or dict
    of immutables by value, a model (alone or in a list) by this same rule, and by being
    the copy of the source's model at its place.
    """
    entry = origins.get(id(model))
    if entry is None or entry[0] is not model or model.__pydantic_fields_set__:
        return False
    checks = _CHECKS.get(type(model))
    if checks is None:
        checks = _CHECKS[type(model)] = _Checks(_PLANS[type(model)])
    if checks.deep:
        return False  # what `Any` holds is not compared: taken as changed
    values, before = model.__dict__, entry[1].__dict__
    if checks.flat is not None and checks.flat(values) != checks.flat(before):
        return False
    for name in checks.models:
        value = values[name]  # None stays None unless assigned
        if value is not None and not _copied(value, before[name], origins):
            return False
    for name in checks.lists:
        value, old = values[name], before[name]
        if (value or old) and (
            len(value) != len(old) or not all(map(_copied, value, old, repeat(origins)))
        ):
            return False
    return True


class _Checks:
    """What `unchanged` compares of a model class: its changeable fields, by kind."""

    __slots__ = ("deep", "flat", "lists", "models")

    def __init__(self, plan: tuple[tuple[str, str], ...]) -> None:
        flat = [name for name, kind in plan if kind is _FLAT]
        # One itemgetter: the flat fields of the copy and of its source compared at once.
        self.flat = itemgetter(*flat) if flat else None
        self.models = tuple(name for name, kind in plan if kind is _MODEL)
        self.lists = tuple(name for name, kind in plan if kind is _MODELS)
        self.deep = any(kind is _DEEP for _, kind in plan)


_CHECKS: dict[type[BaseModel], _Checks] = {}


def _copied(model: BaseModel, source: BaseModel, origins: Origins) -> bool:
    """Return whether a model is an unchanged copy of this source."""
    entry = origins.get(id(model))
    return entry is not None and entry[1] is source and unchanged(model, origins)


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
