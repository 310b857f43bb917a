"""What every game engine offers, and the vocabulary of its answers.

An engine is a pure, deterministic state machine: `apply(event)` either returns the effects of an
accepted event or raises `IllegalEvent` *before changing anything*. No I/O, no clock, no threads.
"""
from __future__ import annotations

from typing import Any, Protocol

Event = dict[str, Any]
"""One hand-history event, as read from JSON (see spec/hand-history.md)."""

Effect = dict[str, Any]
"""What an event caused, JSON-ready: a score, a chip movement, a violation, a phase change."""


class IllegalEvent(Exception):
    """The event breaks the rules or is malformed; the message is the reason shown to players."""


class Engine(Protocol):
    """The interface the replay, the journal and the table session drive."""

    def apply(self, event: Event) -> list[Effect]:
        """Judge one event: return its effects, or raise IllegalEvent leaving the state unchanged."""
        ...

    def summary(self) -> dict[str, Any]:
        """The replay summary fields (`scores`, `chips`, `pot`, `carry`, `hand_over`, ...)."""
        ...


def score_effect(seat: int, points: int, reason: str, **detail: Any) -> Effect:
    return {"seat": seat, "points": points, "reason": reason, **detail}


def chips_effect(seat: int, chips: int, reason: str, **detail: Any) -> Effect:
    """A signed chip movement for one seat: negative = paid."""
    return {"seat": seat, "chips": chips, "reason": reason, **detail}


def violation_effect(kind: str, seat: int, **detail: Any) -> Effect:
    return {"violation": kind, "seat": seat, **detail}


class SetupError(ValueError):
    """A game cannot start as described (player count, options, chips): the header is bad."""
