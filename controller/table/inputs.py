"""What the table session is fed, one input at a time: camera observations, buttons and the dealer console."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Union

from vision.tracking import CardPlaced, CardRemoved, DuplicateCard, FaceDownCount, UnknownCards
from vision.watch import CameraStatus

from ..cards import Card

READER = "reader"  # the deal reader's slot: an open deal's cards, in the order they are dealt
UNKNOWN = "unknown"  # the card name the camera gives an unreadable card

ButtonAction = Literal["go", "confirm", "next", "undo"]
SEAT_BUTTONS = ("go", "confirm")  # one of each per seat; NEXT and UNDO are the dealer's


@dataclass(frozen=True)
class Button:
    action: ButtonAction
    seat: int | None  # the seat whose GO or CONFIRM was pressed; None for the dealer's NEXT and UNDO


@dataclass(frozen=True)
class ConsoleEvent:
    """A hand-history event typed at the dealer console (amounts, answers, claims, time up)."""

    event: dict[str, Any]


@dataclass(frozen=True)
class Resolve:
    """The dealer names the held card."""

    card: Card


@dataclass(frozen=True)
class Relay:
    """The dealer asks the player to lay the held card again."""


@dataclass(frozen=True)
class ConsoleUndo:
    """The dealer takes back the last accepted event."""


Camera = Union[CardPlaced, CardRemoved, FaceDownCount, UnknownCards, DuplicateCard, CameraStatus]
TableInput = Union[Camera, Button, ConsoleEvent, Resolve, Relay, ConsoleUndo]
