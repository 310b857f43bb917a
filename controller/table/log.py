"""Table logs `cardtable-table-log/1`: what the table sensed, in order, before the session judged it.

JSON Lines: a header (a hand-history header plus `"deal": "closed" | "open"`), then one line per camera
observation, button press or console action, each with `"t"` (seconds, never decreasing) and `"type"`.
Blank and `#` lines are skipped but counted, so line numbers are the file's. A malformed line raises
TableLogError naming it; nothing is judged here.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, NamedTuple

from vision.observations import (DuplicateCard, Observation, ObservationError, is_seat_zone, observation_from_json,
                                 observation_to_json, seat_of)

from ..cards import Card, CardError
from ..history import FORMAT as HISTORY_FORMAT, Header, HistoryError
from ..jsonlines import JsonLineError, bounded_lines, json_lines
from .inputs import CAMERA_TYPES, SEAT_BUTTONS, Button, ConsoleEvent, ConsoleUndo, Relay, Resolve, TableInput

FORMAT = "cardtable-table-log/1"
DEALS = ("closed", "open")
CAMERA_LINES = ("placed", "removed", "face_down", "unknown", "duplicate", "camera")


class TableLogError(ValueError):
    """The table log itself is unreadable: bad JSON, a bad header or a malformed line. Names the line."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


class LineError(ValueError):
    """A malformed line; the parser adds the line number."""


@dataclass(frozen=True)
class TableLogHeader:
    header: Header  # the game, as a hand history's header says it
    deal: str  # "closed": dealt cards are unread; "open": a deal reader reads each one

    def to_json(self) -> dict[str, Any]:
        return {**self.header.to_json(), "format": FORMAT, "deal": self.deal}

    @classmethod
    def from_json(cls, data: Any, line: int = 1) -> TableLogHeader:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise TableLogError(line, f"bad header: the first object must have \"format\": \"{FORMAT}\"")
        deal = data.get("deal", "closed")
        if deal not in DEALS:
            raise TableLogError(line, f"bad header: deal must be \"closed\" or \"open\", got {deal!r}")
        try:
            history = {key: value for key, value in data.items() if key != "deal"}  # the deal is the table's
            header = Header.from_json({**history, "format": HISTORY_FORMAT}, line)
        except HistoryError as error:
            raise TableLogError(line, str(error).split(": ", 1)[1]) from None
        return cls(header, deal)


class LogLine(NamedTuple):
    number: int  # 1-based, counting every line of the file
    t: float
    input: TableInput
    data: dict[str, Any]  # the line as read (the journal keeps it as sensed)


def input_from_json(data: Any, players: int) -> tuple[float, TableInput]:
    """One table-log line as a session input; raises LineError naming the bad field."""
    if not isinstance(data, dict):
        raise LineError("each line must be a JSON object")
    kind = data.get("type")
    if kind in CAMERA_LINES:
        try:
            t, observation = observation_from_json(data)
        except ObservationError as error:
            raise LineError(str(error)) from None
        _check_seats(observation, players)
        return t, observation
    when = data.get("t")
    if isinstance(when, bool) or not isinstance(when, (int, float)) or not 0 <= when < math.inf:
        raise LineError(f"'t' must be a non-negative number of seconds, got {when!r}")
    parse = _PARSERS.get(kind)  # type: ignore[arg-type]
    if parse is None:
        raise LineError(f"unknown line type {kind!r} (expected {', '.join((*CAMERA_LINES, *_PARSERS))})")
    return float(when), parse(data, players)


def input_to_json(t: float, item: TableInput) -> dict[str, Any]:
    """The table-log line of an input (what the table writes as it senses)."""
    if isinstance(item, CAMERA_TYPES):
        return observation_to_json(t, item)
    head: dict[str, Any] = {"t": round(t, 3)}
    if isinstance(item, Button):
        return {**head, "type": "button", "action": item.action, "seat": item.seat}
    if isinstance(item, ConsoleEvent):
        return {**head, "type": "console", "event": item.event}
    if isinstance(item, Resolve):
        return {**head, "type": "console", "action": "resolve", "card": str(item.card)}
    return {**head, "type": "console", "action": "relay" if isinstance(item, Relay) else "undo"}


def _check_seats(observation: Observation, players: int) -> None:
    """A seat zone beyond the table's players does not exist at this table."""
    zones = observation.zones if isinstance(observation, DuplicateCard) else (getattr(observation, "zone", None),)
    for zone in zones:
        if zone is not None and is_seat_zone(zone) and seat_of(zone) >= players:
            raise LineError(f"no zone {zone!r} at this table of {players} (seat-1..seat-{players})")


def _button(data: dict[str, Any], players: int) -> TableInput:
    action, seat = data.get("action"), data.get("seat")
    if action in SEAT_BUTTONS:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
            raise LineError(f"a {action} button needs the 0-based 'seat' (0..{players - 1}), got {seat!r}")
        return Button(action, seat)
    if action in ("next", "undo"):
        if seat is not None:
            raise LineError(f"the {action} button is the dealer's: 'seat' must be null, got {seat!r}")
        return Button(action, None)
    raise LineError(f"button 'action' must be go, confirm, next or undo, got {action!r}")


def _console(data: dict[str, Any], players: int) -> TableInput:
    if "event" in data:
        event = data["event"]
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise LineError(f"console 'event' must be a hand-history event with a 'type', got {event!r}")
        return ConsoleEvent(event)
    action = data.get("action")
    if action == "resolve":
        return Resolve(_named_card(data.get("card")))
    if action == "relay":
        return Relay()
    if action == "undo":
        return ConsoleUndo()
    raise LineError(f"a console line has an 'event', or an 'action' resolve, relay or undo; got {action!r}")


def _named_card(text: Any) -> Card:
    if not isinstance(text, str):
        raise LineError(f"'card' must be a card like \"QS\", got {text!r}")
    try:
        return Card.parse(text)
    except CardError as error:
        raise LineError(f"'card': {error}") from None


_PARSERS: dict[str, Callable[[dict[str, Any], int], TableInput]] = {"button": _button, "console": _console}


def parse_table_log(stream: Iterable[bytes | str]) -> tuple[TableLogHeader, list[LogLine]]:
    """Read a whole table log; raises TableLogError for an unreadable one. Nothing is judged here."""
    header: TableLogHeader | None = None
    lines: list[LogLine] = []
    last_t = 0.0
    for number, data in _values(stream):
        if header is None:
            header = TableLogHeader.from_json(data, number)
            continue
        try:
            t, item = input_from_json(data, len(header.header.players))
        except LineError as error:
            raise TableLogError(number, str(error)) from None
        if t < last_t:
            raise TableLogError(number, f"'t' goes back in time ({t} after {last_t})")
        last_t = t
        lines.append(LogLine(number, t, item, data))
    if header is None:
        raise TableLogError(1, "empty file: no header")
    return header, lines


def _values(stream: Iterable[bytes | str]) -> Iterator[tuple[int, Any]]:
    """The JSON value of each line, within the limits every JSON Lines file is read with (jsonlines.py)."""
    try:
        yield from json_lines(stream)
    except JsonLineError as error:
        raise TableLogError(error.line, error.reason) from None


def read_table_log(path: str | Path) -> tuple[TableLogHeader, list[LogLine]]:
    try:
        with open(path, "rb") as stream:
            return parse_table_log(bounded_lines(stream))
    except OSError as error:
        raise TableLogError(0, f"cannot read {path}: {error.strerror}") from None
