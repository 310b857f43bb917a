"""What every game engine offers, and the vocabulary of its answers.

An engine is a pure, deterministic state machine: `apply(event)` either returns the effects of an
accepted event or raises `IllegalEvent` *before changing anything*. No I/O, no clock, no threads.
Every engine answers the same questions with the same names (`Engine` below), so the replay, the
journal, the table session and the panel treat the three games alike.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Protocol

Event = dict[str, Any]
"""One hand-history event, as read from JSON (see spec/hand-history.md)."""

Effect = dict[str, Any]
"""What an event caused, JSON-ready: a score, a chip movement, a violation, a phase change."""


class IllegalEvent(Exception):
    """The event breaks the rules or is malformed; the message is the reason shown to players."""


class SetupError(ValueError):
    """A game cannot start as described (player count, options, chips): the header is bad."""


@dataclass(frozen=True)
class GameSetup:
    """How a game starts: what a hand-history header says, without the file format."""

    game: str  # "cribbage", "femkort" or "ferbli"
    players: tuple[str, ...]  # the names, by seat
    dealer: int  # the first hand's dealer
    options: dict[str, Any] = field(default_factory=dict)
    chips: tuple[int, ...] | None = None  # starting balances, for the games played for chips


class Engine(Protocol):
    """The interface the replay, the journal and the table session drive."""

    @property
    def game(self) -> str:
        """"cribbage", "femkort" or "ferbli"."""
        ...

    @property
    def players(self) -> int:
        """The number of seats at the table (0 .. players - 1)."""
        ...

    @property
    def dealer(self) -> int:
        """The dealer of the current hand."""
        ...

    @property
    def phase(self) -> Enum:
        """Where the current hand stands: the engine's own Phase; `.value` is a JSON-ready string."""
        ...

    @property
    def hand_over(self) -> bool:
        """The current hand is finished (the next one starts with `new_hand`), or the game is over."""
        ...

    @property
    def game_over(self) -> bool:
        """The game (or match) is over: every further event is refused."""
        ...

    def apply(self, event: Event) -> list[Effect]:
        """Judge one event: return its effects, or raise IllegalEvent leaving the state unchanged."""
        ...

    def summary(self) -> dict[str, Any]:
        """The replay summary fields (`scores`, `chips`, `pot`, `carry`, `hand_over`, ...)."""
        ...

    def to_act(self) -> int | None:
        """The seat that must decide or play now; None when the table waits for the dealer (dealing,
        the next hand), the console, or nobody (the game is over)."""
        ...

    def legal_actions(self) -> list[Event]:
        """Hand-history events the engine would accept now (see each engine's README for what is listed
        when cards are unread)."""
        ...


def score_effect(seat: int, points: int, reason: str, **detail: Any) -> Effect:
    return {"seat": seat, "points": points, "reason": reason, **detail}


def chips_effect(seat: int, chips: int, reason: str, **detail: Any) -> Effect:
    """A signed chip movement for one seat: negative = paid."""
    return {"seat": seat, "chips": chips, "reason": reason, **detail}


def violation_effect(kind: str, seat: int, **detail: Any) -> Effect:
    return {"violation": kind, "seat": seat, **detail}
