"""Typed game options from a history header's `options` object: unknown names and wrong types are errors."""
from __future__ import annotations

import dataclasses
import functools
import types
import typing
from typing import Any, TypeVar

from .engine import SetupError

OptionsT = TypeVar("OptionsT")


def parse_options(options_type: type[OptionsT], raw: dict[str, Any] | None) -> OptionsT:
    """Build the frozen options dataclass `options_type` from `raw`, checking every name and type."""
    raw = raw or {}
    if not isinstance(raw, dict):
        raise SetupError("'options' must be an object")
    hints, known = _fields(options_type)  # type: ignore[arg-type]  # classes are hashable
    unknown = sorted(set(raw) - known)
    if unknown:
        raise SetupError(f"unknown option(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    for name, value in raw.items():
        _check_type(name, value, hints[name])
    try:
        return options_type(**raw)
    except (TypeError, ValueError) as error:
        raise SetupError(f"bad options: {error}") from None


@functools.cache
def _fields(options_type: type) -> tuple[dict[str, Any], frozenset[str]]:
    """The type hints and field names of an options class: evaluated once (a replay starts many games)."""
    return typing.get_type_hints(options_type), frozenset(f.name for f in dataclasses.fields(options_type))


def _check_type(name: str, value: Any, hint: Any) -> None:
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        if value not in typing.get_args(hint):
            choices = ", ".join(repr(a) for a in typing.get_args(hint))
            raise SetupError(f"option {name} must be one of {choices}, got {value!r}")
        return
    if origin in (typing.Union, types.UnionType):
        if any(_matches(value, arg) for arg in typing.get_args(hint)):
            return
    elif _matches(value, hint):
        return
    raise SetupError(f"option {name} must be {getattr(hint, '__name__', hint)}, got {value!r}")


def _matches(value: Any, hint: Any) -> bool:
    if hint is type(None):
        return value is None
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is bool:
        return isinstance(value, bool)
    if typing.get_origin(hint) is typing.Literal:
        return value in typing.get_args(hint)
    return isinstance(value, hint)
