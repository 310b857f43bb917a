"""Reading the fields of a hand-history event, with specific errors for malformed ones."""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TypeVar

from .cards import Card, CardError
from .engine import Event, IllegalEvent


def event_type(event: Event) -> str:
    kind = event.get("type")
    if isinstance(kind, str):
        return kind
    if "type" not in event:
        raise IllegalEvent("malformed event: missing 'type'")
    raise IllegalEvent(f"malformed event: 'type' must be text such as \"play\", got {json.dumps(kind)[:40]}")


Handler = TypeVar("Handler")


def event_handler(handlers: Mapping[str, Handler], event: Event, game: str) -> Handler:
    """The engine's handler for this event's type; an unknown type is named with the ones the game knows."""
    kind = event_type(event)
    handler = handlers.get(kind)
    if handler is None:
        raise IllegalEvent(f"unknown event type {kind!r} for {game} (it knows {', '.join(sorted(handlers))})")
    return handler


def require_int(event: Event, field: str) -> int:
    value = event.get(field)
    if type(value) is int:  # the usual case, checked first: this runs on nearly every event
        return value
    # bool is an int subclass in Python; `true` is never a valid seat or amount.
    if not isinstance(value, int) or isinstance(value, bool):
        raise IllegalEvent(f"malformed {event_type(event)} event: '{field}' must be an integer, got {value!r}")
    return value


def event_seat(event: Event, players: int) -> int:
    seat = require_int(event, "seat")
    if not 0 <= seat < players:
        raise IllegalEvent(f"no seat {seat} at this table (seats 0..{players - 1})")
    return seat


def parse_card_field(value: Any, what: str) -> Card:
    try:
        return Card.parse(value)
    except CardError as error:
        raise IllegalEvent(f"malformed {what}: {error}") from None


def event_card(event: Event, field: str = "card") -> Card:
    # Parse first and build the error text only on failure: this runs on every play of every game.
    try:
        return Card.parse(event.get(field))  # type: ignore[arg-type]
    except CardError as error:
        raise IllegalEvent(f"malformed {event_type(event)} event '{field}': {error}") from None


def optional_card(event: Event, field: str = "card") -> Card | None:
    """A card that may be unread (`null`); the field itself must be there."""
    if field not in event:
        raise IllegalEvent(f"malformed {event_type(event)} event: missing '{field}' (null when the card is unread)")
    if event[field] is None:
        return None
    return event_card(event, field)


def event_cards(event: Event, field: str = "cards") -> list[Card]:
    values = event.get(field)
    if not isinstance(values, list):
        raise IllegalEvent(f"malformed {event_type(event)} event: '{field}' must be a list of cards")
    cards = [parse_card_field(v, f"{event_type(event)} event '{field}'") for v in values]
    if len(set(cards)) != len(cards):
        raise IllegalEvent(f"the same card is listed twice in '{field}'")
    return cards


def event_hands(event: Event, players: int) -> list[list[Card | None]]:
    """The `deal` shorthand: one list per seat, `null` for an unread card."""
    hands = event.get("hands")
    if not isinstance(hands, list) or len(hands) != players or not all(isinstance(h, list) for h in hands):
        raise IllegalEvent(f"malformed deal: 'hands' must hold one list of cards per seat ({players})")
    return [[None if v is None else parse_card_field(v, "deal 'hands'") for v in hand] for hand in hands]
