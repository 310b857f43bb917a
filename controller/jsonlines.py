"""Reading JSON Lines files (hand histories, table logs) safely: bounded, streamed, errors naming the line.

A line is read as bytes with a length limit (a file without newlines, or /dev/zero, cannot grow one line
without end), decoded as UTF-8 (a bad byte is named by line and column, a UTF-8 byte-order mark before
the first line is skipped, as spreadsheets and Windows editors write one) and parsed as JSON within
limits on nesting and on numbers: every integer must fit a double exactly (I-JSON, RFC 7493), so any
JSON tool reads it as written and it always prints; NaN and Infinity are not JSON and are refused.
"""
from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator
from typing import Any, BinaryIO

MAX_LINE_BYTES = 1 << 20  # 1 MiB: a history's longest line (a whole deal) is well under 1 kB
MAX_NESTING = 16  # arrays and objects inside each other; histories use 3
MAX_INTEGER = 2 ** 53 - 1  # the largest integer a double holds exactly
_MAX_INTEGER_CHARS = len(str(MAX_INTEGER)) + 1  # a sign and 16 digits
UTF8_BOM = b"\xef\xbb\xbf"


class JsonLineError(ValueError):
    """A line that is not a readable JSON value within the limits; `line` is its 1-based number."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.reason = message


class _LimitExceeded(ValueError):
    """Raised from inside json.loads by the number hooks; turned into a JsonLineError with the line."""


def bounded_lines(stream: BinaryIO, max_bytes: int = MAX_LINE_BYTES) -> Iterator[bytes]:
    """The lines of a binary stream, each at most `max_bytes` long without its newline, read as they come."""
    number = 0
    while True:
        raw = stream.readline(max_bytes + 1)
        if not raw:
            return
        number += 1
        if len(raw) > max_bytes and not raw.endswith(b"\n"):
            raise JsonLineError(number, f"longer than {max_bytes:,} bytes (the limit on a line)")
        if number == 1 and raw.startswith(UTF8_BOM):
            raw = raw[len(UTF8_BOM):]
        yield raw


def json_lines(lines: Iterable[bytes | str]) -> Iterator[tuple[int, Any]]:
    """(line number, value) for every line that is not blank or a `#` comment."""
    for number, line in enumerate(lines, start=1):
        text = _decoded(line, number)
        stripped = text.strip()
        if stripped and not stripped.startswith("#"):
            yield number, parse_json_line(stripped, number)


def _decoded(line: bytes | str, number: int) -> str:
    if isinstance(line, str):
        if len(line) > MAX_LINE_BYTES:
            raise JsonLineError(number, f"longer than {MAX_LINE_BYTES:,} characters (the limit on a line)")
        return line.removeprefix("\ufeff") if number == 1 else line
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError as error:
        column = len(line[:error.start].decode("utf-8", errors="replace")) + 1
        raise JsonLineError(number, f"not UTF-8: byte 0x{line[error.start]:02x} at column {column} "
                                    f"(save the file as UTF-8)") from None


def parse_json_line(text: str, number: int) -> Any:
    """One JSON value within the nesting and number limits."""
    try:
        value = json.loads(text, parse_int=_integer, parse_float=_finite_float, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise JsonLineError(number, f"bad JSON: {error.msg} (column {error.colno})") from None
    except _LimitExceeded as error:
        raise JsonLineError(number, str(error)) from None
    except RecursionError:
        raise JsonLineError(number, _too_deep()) from None
    # brackets in the text bound the depth: only a line with many of them needs the walk
    if text.count("[") + text.count("{") > MAX_NESTING and nesting(value) > MAX_NESTING:
        raise JsonLineError(number, _too_deep())
    return value


def nesting(value: Any) -> int:
    """How many arrays and objects lie inside each other in `value` (0 for a number or a string)."""
    deepest = 0
    pending = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is not None:
            deepest = max(deepest, depth)
            pending.extend((child, depth + 1) for child in children)
    return deepest


def _too_deep() -> str:
    return f"arrays and objects nested more than {MAX_NESTING} deep (the limit)"


def _integer(text: str) -> int:
    value = int(text) if len(text) <= _MAX_INTEGER_CHARS else None
    if value is None or abs(value) > MAX_INTEGER:
        shown = text if len(text) <= 24 else f"{text[:12]}...({len(text)} digits)"
        raise _LimitExceeded(f"integer {shown} is too large (the limit is ±{MAX_INTEGER:,}, 2^53 - 1)")
    return value


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _LimitExceeded(f"number {text[:24]} is too large for a double")
    return value


def _no_constant(name: str) -> Any:
    raise _LimitExceeded(f"{name} is not a JSON number")
