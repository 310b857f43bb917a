"""What the camera tells the table: the observation types, the zones they name, and their JSON lines.

One definition each, shared by the tracker (which makes them), `cardtable vision watch` (which prints
them) and the table session (which reads them back from a table log). The JSON is the table log's
camera line: `{"t": 3.2, "type": "placed", "card": "QS", "zone": "seat-2", "text": "QS placed in seat-2"}`.
`text` is for people; reading a line ignores it, and any field it does not know.

Pure: no OpenCV, no numpy, no game: the session imports this without the vision stack.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Union

MAX_SEATS = 8
SEAT_ZONES: tuple[str, ...] = tuple(f"seat-{n}" for n in range(1, MAX_SEATS + 1))
# the deal-reader camera: a second source whose whole frame is this zone
READER = "reader"
TABLE_ZONES: tuple[str, ...] = (*SEAT_ZONES, "starter", "crib", "centre", "deck")
ZONES: tuple[str, ...] = (*TABLE_ZONES, READER)
# where a card lies outside every zone; the whole frame of a camera without a calibration
OFF_ZONE = "table"
UNKNOWN_CARD = "unknown"  # a card seen but not read (placed / removed)

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
CARD_NAMES: frozenset[str] = frozenset(rank + suit for rank in RANKS for suit in SUITS)
CAMERA_STATUSES: tuple[str, ...] = ("online", "offline", "bad_frame")


def is_seat_zone(zone: str) -> bool:
    return zone in SEAT_ZONES


def seat_zone(seat: int) -> str:
    """The zone in front of the 0-based `seat` ("seat-1" for seat 0)."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < MAX_SEATS:
        raise ValueError(f"seat must be a whole number 0..{MAX_SEATS - 1}, got {seat!r}")
    return SEAT_ZONES[seat]


def seat_of(zone: str) -> int:
    """The 0-based seat whose zone this is ("seat-3" -> 2)."""
    if not is_seat_zone(zone):
        raise ValueError(f"{zone!r} is not a seat zone (seat-1 .. seat-{MAX_SEATS})")
    return SEAT_ZONES.index(zone)


@dataclass(frozen=True)
class CardPlaced:
    """A card settled in a zone; `card` is "unknown" when it could not be read."""
    card: str
    zone: str

    def __str__(self) -> str:
        return f"{self.card} placed in {self.zone}"


@dataclass(frozen=True)
class CardRemoved:
    card: str
    zone: str

    def __str__(self) -> str:
        return f"{self.card} removed from {self.zone}"


@dataclass(frozen=True)
class FaceDownCount:
    """The number of face-down cards in a zone changed to `count`."""
    zone: str
    count: int

    def __str__(self) -> str:
        return f"{self.count} face-down cards in {self.zone}"


@dataclass(frozen=True)
class UnknownCards:
    """The number of unreadable face-up cards in a zone changed to `count`."""
    zone: str
    count: int

    def __str__(self) -> str:
        return f"{self.count} unreadable cards in {self.zone}"


@dataclass(frozen=True)
class DuplicateCard:
    """The same card seen twice at once: a misread or a second deck on the table."""
    card: str
    zones: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.card} seen twice ({', '.join(self.zones)}): misread or second deck"


@dataclass(frozen=True)
class CameraStatus:
    status: str  # "online", "offline", or "bad_frame" (a corrupt frame or file, skipped)
    detail: str | None = None

    def __str__(self) -> str:
        return f"camera {self.status}" + (f": {self.detail}" if self.detail else "")


# what the tracker sees on the table
TableChange = Union[CardPlaced, CardRemoved, FaceDownCount, UnknownCards, DuplicateCard]
# a camera line of the table log
Observation = Union[TableChange, CameraStatus]

_TYPE_NAMES: dict[type, str] = {CardPlaced: "placed", CardRemoved: "removed", FaceDownCount: "face_down",
                                UnknownCards: "unknown", DuplicateCard: "duplicate", CameraStatus: "camera"}


class ObservationError(ValueError):
    """A camera line that is not one: the message names the bad field and value."""


def observation_to_json(t: float, obs: Observation) -> dict[str, Any]:
    """The table-log camera line for `obs` seen at `t` seconds (kept to the millisecond), with its `text`."""
    line: dict[str, Any] = {"t": round(t, 3), "type": _TYPE_NAMES[type(obs)]}
    if isinstance(obs, (CardPlaced, CardRemoved)):
        line.update(card=obs.card, zone=obs.zone)
    elif isinstance(obs, (FaceDownCount, UnknownCards)):
        line.update(zone=obs.zone, count=obs.count)
    elif isinstance(obs, DuplicateCard):
        line.update(card=obs.card, zones=list(obs.zones))
    else:
        line.update(status=obs.status, detail=obs.detail)
    line["text"] = str(obs)
    return line


def observation_from_json(data: object) -> tuple[float, Observation]:
    """`(t, observation)` from one camera line (a parsed JSON object), or an ObservationError naming what
    is wrong. Strict: numbers are not booleans, counts are whole and not negative, zones are the table's
    (or "table", off every zone), cards are named like "QS" / "10H" (or "unknown" where allowed)."""
    if not isinstance(data, dict):
        raise ObservationError(f"a camera line is a JSON object, got {_show(data)}")
    t = _field(data, "t", (int, float), "a number of seconds")
    if not math.isfinite(t) or t < 0:
        raise ObservationError(f"field 't' must be finite and not negative, got {_show(t)}")
    kind = _field(data, "type", str, "a string")
    read = _READERS.get(kind)
    if read is None:
        raise ObservationError(f"field 'type' must be one of {', '.join(_READERS)}, got {_show(kind)}")
    return float(t), read(data)


def _show(value: object) -> str:
    return repr(value) if isinstance(value, (str, bool, int, float)) or value is None else type(value).__name__


def _field(data: dict[str, Any], name: str, kind: type | tuple[type, ...], wanted: str) -> Any:
    if name not in data:
        raise ObservationError(f"missing field {name!r}")
    value = data[name]
    if isinstance(value, bool) or not isinstance(value, kind):  # JSON true is not a number
        raise ObservationError(f"field {name!r} must be {wanted}, got {_show(value)}")
    return value


def _zone(data: dict[str, Any]) -> str:
    return _known_zone("zone", _field(data, "zone", str, "a zone name"))


def _known_zone(name: str, zone: object) -> str:
    if not isinstance(zone, str) or (zone not in ZONES and zone != OFF_ZONE):
        raise ObservationError(f"field {name!r}: unknown zone {_show(zone)} (zones: {', '.join(ZONES)}, {OFF_ZONE})")
    return zone


def _card(data: dict[str, Any], unknown_allowed: bool) -> str:
    card = _field(data, "card", str, "a card name")
    if card in CARD_NAMES or (unknown_allowed and card == UNKNOWN_CARD):
        return str(card)
    also = f' or "{UNKNOWN_CARD}"' if unknown_allowed else ""
    raise ObservationError(f"field 'card': {_show(card)} is not a card "
                           f"(rank A 2..10 J Q K, suit S H D C: QS, 10H){also}")


def _count(data: dict[str, Any]) -> int:
    count = _field(data, "count", int, "a whole number")
    if count < 0:
        raise ObservationError(f"field 'count' must not be negative, got {count}")
    return int(count)


def _placed(data: dict[str, Any]) -> Observation:
    return CardPlaced(_card(data, unknown_allowed=True), _zone(data))


def _removed(data: dict[str, Any]) -> Observation:
    return CardRemoved(_card(data, unknown_allowed=True), _zone(data))


def _face_down(data: dict[str, Any]) -> Observation:
    return FaceDownCount(_zone(data), _count(data))


def _unknown(data: dict[str, Any]) -> Observation:
    return UnknownCards(_zone(data), _count(data))


def _duplicate(data: dict[str, Any]) -> Observation:
    card = _card(data, unknown_allowed=False)
    zones = _field(data, "zones", list, "a list of zone names")
    if len(zones) < 2:
        raise ObservationError(f"field 'zones' must name the two or more zones the card was seen in, got {zones!r}")
    return DuplicateCard(card, tuple(_known_zone("zones", zone) for zone in zones))


def _camera(data: dict[str, Any]) -> Observation:
    status = _field(data, "status", str, "a string")
    if status not in CAMERA_STATUSES:
        raise ObservationError(f"field 'status' must be one of {', '.join(CAMERA_STATUSES)}, got {_show(status)}")
    detail = data.get("detail")
    if detail is not None and not isinstance(detail, str):
        raise ObservationError(f"field 'detail' must be a string or null, got {_show(detail)}")
    return CameraStatus(status, detail)


_READERS = {"placed": _placed, "removed": _removed, "face_down": _face_down, "unknown": _unknown,
            "duplicate": _duplicate, "camera": _camera}
