"""What the table session is fed, one input at a time: camera observations, buttons and the dealer console."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Union

from vision.observations import (READER, UNKNOWN_CARD as UNKNOWN, CameraStatus, CardPlaced, CardRemoved,
                                 DuplicateCard, FaceDownCount, Observation, UnknownCards)

from ..cards import Card

__all__ = ["READER", "UNKNOWN", "CardPlaced", "CardRemoved", "FaceDownCount", "UnknownCards", "DuplicateCard",
           "CameraStatus", "Observation", "Button", "ConsoleEvent", "Resolve", "Relay", "ConsoleUndo", "TableInput"]

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


CAMERA_TYPES = (CardPlaced, CardRemoved, FaceDownCount, UnknownCards, DuplicateCard, CameraStatus)
TableInput = Union[Observation, Button, ConsoleEvent, Resolve, Relay, ConsoleUndo]
