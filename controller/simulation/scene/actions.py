"""What simulated players do at the table, as data: moves of cards the cameras see, presses of a button,
entries at the dealer console."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Lay:
    """Lay `card` into `zone`, face up (at the next place of the zone's row) or face down (on its pile).
    Not `readable`: glare or a smudge hides its indices from the camera."""

    zone: str
    card: str
    face_up: bool = True
    readable: bool = True


@dataclass(frozen=True)
class Take:
    """Take `card` back out of `zone`."""

    zone: str
    card: str


@dataclass(frozen=True)
class TurnUp:
    """Turn `zone`'s face-down pile face up, spread (the dealer shows the crib)."""

    zone: str


@dataclass(frozen=True)
class Gather:
    """Pick up the face-up cards of `zones` and put them face down on `to`'s pile (a trick won)."""

    zones: tuple[str, ...]
    to: str


@dataclass(frozen=True)
class Clear:
    """Every card off the table."""


@dataclass(frozen=True)
class Read:
    """Deal `card` over the deal reader (an open deal)."""

    card: str


@dataclass(frozen=True)
class Press:
    """Press a button: `go` / `confirm` with the seat's 0-based index, `next` / `undo` (the dealer's)."""

    action: str
    seat: int | None = None


@dataclass(frozen=True)
class Console:
    """An entry at the dealer console: the fields of its table-log line (`event`, or `action` ...)."""

    entry: dict[str, Any] = field(default_factory=dict)


CardMove = Lay | Take | TurnUp | Gather | Clear
Action = CardMove | Read | Press | Console
