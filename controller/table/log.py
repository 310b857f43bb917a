"""Table logs `cardtable-table-log/1`: what the table sensed, in order, before the session judged it.

JSON Lines: a header (a hand-history header plus `"deal": "closed" | "open"`), then one line per camera
observation, button press or console action, each with `"t"` (seconds, never decreasing) and `"type"`.
Blank and `#` lines are skipped but counted, so line numbers are the file's. A malformed line raises
TableLogError naming it; nothing is judged here.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, NamedTuple

from vision.tracking import CardPlaced, CardRemoved, DuplicateCard, FaceDownCount, UnknownCards
from vision.watch import CameraStatus

from ..cards import Card, CardError
from ..history import FORMAT as HISTORY_FORMAT, Header, HistoryError
from .inputs import READER, SEAT_BUTTONS, UNKNOWN, Button, ConsoleEvent, ConsoleUndo, Relay, Resolve, TableInput

FORMAT = "cardtable-table-log/1"
DEALS = ("closed", "open")
TABLE_ZONES = ("starter", "crib", "centre", "deck", READER)
MAX_SEATS = 8
CAMERA_STATUSES = ("online", "offline", "bad_frame")


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
            header = Header.from_json({**data, "format": HISTORY_FORMAT}, line)
        except HistoryError as error:
            raise TableLogError(line, str(error).split(": ", 1)[1]) from None
        return cls(header, deal)


class LogLine(NamedTuple):
    number: int  # 1-based, counting every line of the file
    t: float
    input: TableInput
    data: dict[str, Any]  # the line as read (the journal keeps it as sensed)


def zone_names(players: int) -> tuple[str, ...]:
    """The zones of a table of `players`: one seat zone each, then the shared zones."""
    return tuple(f"seat-{n}" for n in range(1, players + 1)) + TABLE_ZONES


def input_from_json(data: Any, players: int) -> tuple[float, TableInput]:
    """One table-log line as a session input; raises LineError naming the bad field."""
    if not isinstance(data, dict):
        raise LineError("each line must be a JSON object")
    t = data.get("t")
    if isinstance(t, bool) or not isinstance(t, (int, float)) or t < 0:
        raise LineError(f"'t' must be a non-negative number of seconds, got {t!r}")
    kind = data.get("type")
    parse = _PARSERS.get(kind)  # type: ignore[arg-type]
    if parse is None:
        raise LineError(f"unknown line type {kind!r} (expected {', '.join(_PARSERS)})")
    return float(t), parse(_Fields(data, players))


def input_to_json(t: float, item: TableInput) -> dict[str, Any]:
    """The table-log line of an input (what the table writes as it senses)."""
    head: dict[str, Any] = {"t": round(t, 3)}
    if isinstance(item, (CardPlaced, CardRemoved)):
        return {**head, "type": "placed" if isinstance(item, CardPlaced) else "removed", "card": item.card,
                "zone": item.zone}
    if isinstance(item, (FaceDownCount, UnknownCards)):
        return {**head, "type": "face_down" if isinstance(item, FaceDownCount) else "unknown", "zone": item.zone,
                "count": item.count}
    if isinstance(item, DuplicateCard):
        return {**head, "type": "duplicate", "card": item.card, "zones": list(item.zones)}
    if isinstance(item, CameraStatus):
        return {**head, "type": "camera", "status": item.status}
    if isinstance(item, Button):
        return {**head, "type": "button", "action": item.action, "seat": item.seat}
    if isinstance(item, ConsoleEvent):
        return {**head, "type": "console", "event": item.event}
    if isinstance(item, Resolve):
        return {**head, "type": "console", "action": "resolve", "card": str(item.card)}
    return {**head, "type": "console", "action": "relay" if isinstance(item, Relay) else "undo"}


class _Fields:
    """The fields of one line, each read with an error that names it."""

    def __init__(self, data: dict[str, Any], players: int) -> None:
        self.data, self.players = data, players

    def zone(self, name: str = "zone") -> str:
        zone = self.data.get(name)
        if zone not in zone_names(self.players):
            raise LineError(f"no zone {zone!r} at this table (zones: seat-1..seat-{self.players}, "
                            f"{', '.join(TABLE_ZONES)})")
        return zone

    def card(self, unknown: bool = True) -> str:
        text = self.data.get("card")
        if unknown and text == UNKNOWN:
            return UNKNOWN
        return str(self.named_card(text))

    @staticmethod
    def named_card(text: Any) -> Card:
        if not isinstance(text, str):
            raise LineError(f"'card' must be a card like \"QS\", got {text!r}")
        try:
            return Card.parse(text)
        except CardError as error:
            raise LineError(f"'card': {error}") from None

    def count(self) -> int:
        count = self.data.get("count")
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise LineError(f"'count' must be a non-negative integer, got {count!r}")
        return count


def _placed(fields: _Fields) -> TableInput:
    return CardPlaced(fields.card(), fields.zone())


def _removed(fields: _Fields) -> TableInput:
    return CardRemoved(fields.card(), fields.zone())


def _face_down(fields: _Fields) -> TableInput:
    return FaceDownCount(fields.zone(), fields.count())


def _unknown(fields: _Fields) -> TableInput:
    return UnknownCards(fields.zone(), fields.count())


def _duplicate(fields: _Fields) -> TableInput:
    zones = fields.data.get("zones")
    if not isinstance(zones, list) or len(zones) < 2:
        raise LineError(f"'zones' must list the two or more zones the card is seen in, got {zones!r}")
    checked = tuple(_Fields({"zone": zone}, fields.players).zone() for zone in zones)
    return DuplicateCard(fields.card(unknown=False), checked)


def _camera(fields: _Fields) -> TableInput:
    status = fields.data.get("status")
    if status not in CAMERA_STATUSES:
        raise LineError(f"camera 'status' must be one of {', '.join(CAMERA_STATUSES)}, got {status!r}")
    return CameraStatus(status)


def _button(fields: _Fields) -> TableInput:
    action, seat = fields.data.get("action"), fields.data.get("seat")
    if action in SEAT_BUTTONS:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < fields.players:
            raise LineError(f"a {action} button needs the 0-based 'seat' (0..{fields.players - 1}), got {seat!r}")
        return Button(action, seat)
    if action in ("next", "undo"):
        if seat is not None:
            raise LineError(f"the {action} button is the dealer's: 'seat' must be null, got {seat!r}")
        return Button(action, None)
    raise LineError(f"button 'action' must be go, confirm, next or undo, got {action!r}")


def _console(fields: _Fields) -> TableInput:
    data = fields.data
    if "event" in data:
        event = data["event"]
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise LineError(f"console 'event' must be a hand-history event with a 'type', got {event!r}")
        return ConsoleEvent(event)
    action = data.get("action")
    if action == "resolve":
        return Resolve(fields.named_card(data.get("card")))
    if action == "relay":
        return Relay()
    if action == "undo":
        return ConsoleUndo()
    raise LineError(f"a console line has an 'event', or an 'action' resolve, relay or undo; got {action!r}")


_PARSERS = {"placed": _placed, "removed": _removed, "face_down": _face_down, "unknown": _unknown,
            "duplicate": _duplicate, "camera": _camera, "button": _button, "console": _console}


def parse_table_log(stream: Iterable[str]) -> tuple[TableLogHeader, list[LogLine]]:
    """Read a whole table log; raises TableLogError for an unreadable one. Nothing is judged here."""
    header: TableLogHeader | None = None
    lines: list[LogLine] = []
    last_t = 0.0
    for number, text in enumerate(stream, start=1):
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            continue
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as error:
            raise TableLogError(number, f"bad JSON: {error.msg} (column {error.colno})") from None
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


def read_table_log(path: str | Path) -> tuple[TableLogHeader, list[LogLine]]:
    try:
        with open(path, encoding="utf-8") as stream:
            return parse_table_log(stream)
    except (OSError, UnicodeDecodeError) as error:
        raise TableLogError(0, f"cannot read {path}: {error}") from None
