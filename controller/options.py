"""Typed game options from a history header's `options` object: unknown names and wrong types are errors."""
from __future__ import annotations

import dataclasses
import json
import functools
import types
import typing
from typing import Any, TypeVar

from .engine import SetupError

OptionsT = TypeVar("OptionsT")


def parse_options(options_type: type[OptionsT], raw: dict[str, Any] | None) -> OptionsT:
    """Build the frozen options dataclass `options_type` from `raw`, checking every name and type."""
    if raw is None:
        raw = {}
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
    if not _matches(value, hint):
        raise SetupError(f"option {name} must be {_describe(hint)}, got {json.dumps(value)[:40]}")


def _alternatives(hint: Any) -> tuple[Any, ...]:
    return typing.get_args(hint) if typing.get_origin(hint) in (typing.Union, types.UnionType) else (hint,)


def _matches(value: Any, hint: Any) -> bool:
    for alternative in _alternatives(hint):
        if alternative is type(None):
            if value is None:
                return True
        elif typing.get_origin(alternative) is typing.Literal:
            # equal and of the same type: 121.0 is not the target 121, nor true the integer 1
            if any(value == arg and type(value) is type(arg) for arg in typing.get_args(alternative)):
                return True
        elif alternative in (int, bool, str):
            if type(value) is alternative:  # bool is an int subclass: true is no count of anything
                return True
        elif isinstance(value, alternative):
            return True
    return False


def _describe(hint: Any) -> str:
    """The accepted values in the history's own (JSON) terms: "one of 121, 61 or null"."""
    words = {int: "an integer", bool: "true or false", str: "text", float: "a number", type(None): "null"}
    parts = []
    for alternative in _alternatives(hint):
        if typing.get_origin(alternative) is typing.Literal:
            parts.append("one of " + ", ".join(json.dumps(arg) for arg in typing.get_args(alternative)))
        else:
            parts.append(words.get(alternative, getattr(alternative, "__name__", str(alternative))))
    return " or ".join(parts)
