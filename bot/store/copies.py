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
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)
Copier = Callable[[Any], Any]

_SHARED = frozenset({int, str, float, bool, type(None)})  # immutable: kept, never copied
# Per model class: each field that may hold something changeable, and how to copy it.
_PLANS: dict[type[BaseModel], tuple[tuple[str, Copier], ...]] = {}


def copy_state(model: M) -> M:
    """Return an independent copy of a state model, equal to a parse of its JSON."""
    cls = type(model)
    plan = _PLANS.get(cls)
    if plan is None:
        plan = _PLANS[cls] = _plan(cls)
    values = model.__dict__.copy()
    for name, copier in plan:
        value = values[name]
        if value is not None:
            values[name] = copier(value)
    new = cls.__new__(cls)
    _set_dict(new, values)
    # A parse leaves no field marked as set (`Model.model_post_init` forgets them).
    _set_fields_set(new, set())
    extra, private = model.__pydantic_extra__, model.__pydantic_private__
    _set_extra(new, None if extra is None else _copy_value(extra))
    _set_private(new, None if private is None else _copy_value(private))
    return new


# BaseModel's slots, set as pydantic's own copies set them (its __setattr__ validates).
_set_dict = BaseModel.__dict__["__dict__"].__set__
_set_fields_set = BaseModel.__pydantic_fields_set__.__set__
_set_extra = BaseModel.__pydantic_extra__.__set__
_set_private = BaseModel.__pydantic_private__.__set__


def _copy_models(models: list[Any]) -> list[Any]:
    return list(map(copy_state, models))  # map: no comprehension frame per list


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


def _plan(cls: type[BaseModel]) -> tuple[tuple[str, Copier], ...]:
    """Return how to copy each field of a model class whose values are not always immutable."""
    plan = []
    for name, info in cls.model_fields.items():
        copier = _copier(info.annotation)
        if copier is not None:
            plan.append((name, copier))
    return tuple(plan)


def _copier(annotation: Any) -> Copier | None:
    """Return how to copy a (not None) value of this type; None: it is immutable."""
    if _immutable(annotation):
        return None
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is Annotated:
        return _copier(args[0])
    if origin is Union or origin is types.UnionType:
        members = [member for member in args if member is not type(None)]
        if len(members) == 1:
            return _copier(members[0])  # None is never copied
        if all(_is_model(member) for member in members):
            return copy_state
    if origin is list and _immutable(args[0]):
        return list.copy  # a list of numbers or names: a shallow copy is a whole copy
    if origin is dict and _immutable(args[0]) and _immutable(args[1]):
        return dict.copy
    if origin is list and _is_model(args[0]):
        return _copy_models
    if _is_model(annotation):
        return copy_state
    return _copy_value


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


def same_state(a: Any, b: Any, where: str = "encounter") -> str | None:
    """Return where two states differ — in value or in Python type — or None if they do not."""
    if type(a) is not type(b):
        return f"{where}: {type(a).__name__} vs {type(b).__name__}"
    if isinstance(a, BaseModel):
        if a.__pydantic_extra__ != b.__pydantic_extra__:
            return f"{where}: extra fields"
        return same_state(a.__dict__, b.__dict__, where)
    if type(a) is dict:
        if list(a) != list(b):
            return f"{where}: keys {list(a)} vs {list(b)}"
        for key, value in a.items():
            if type(key) is not type(next(k for k in b if k == key)):
                return f"{where}[{key!r}]: key type"
            found = same_state(value, b[key], f"{where}.{key}")
            if found:
                return found
        return None
    if type(a) is list:
        if len(a) != len(b):
            return f"{where}: {len(a)} vs {len(b)} items"
        for index, (left, right) in enumerate(zip(a, b, strict=True)):
            found = same_state(left, right, f"{where}[{index}]")
            if found:
                return found
        return None
    return None if a == b else f"{where}: {a!r} vs {b!r}"
