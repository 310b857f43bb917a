"""What every game engine offers, and the vocabulary of its answers.

An engine is a pure, deterministic state machine: `apply(event)` either returns the effects of an
accepted event or raises `IllegalEvent` *before changing anything*. No I/O, no clock, no threads.
Every engine answers the same questions with the same names (`Engine` below), so the replay, the
journal, the table session and the panel treat the three games alike.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Iterable, Protocol

Event = dict[str, Any]
"""One hand-history event, as read from JSON (see controller/HISTORY.md)."""



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

    def public_view(self) -> dict[str, Any]:
        """JSON-ready: what a spectator may see at this moment; never a card that is hidden now."""
        ...

    def dealer_view(self) -> dict[str, Any]:
        """JSON-ready: the public view and every card the engine knows (hands read at the deal, ...)."""
        ...


def table_view(engine: Engine) -> dict[str, Any]:
    """The part of every view that all games share."""
    return {"game": engine.game, "phase": engine.phase.value, "dealer": engine.dealer, "to_act": engine.to_act(),
            "hand_over": engine.hand_over, "game_over": engine.game_over}


# ----- effects: what an accepted event caused ------------------------------------------------------
# One class per kind; `to_json()` is the effect as the replay prints it (the hand-history contract).


@dataclass(frozen=True)
class Points:
    """Points pegged by one seat (cribbage): a card's points, a go, a part of a show, heels, a claim."""

    seat: int
    points: int
    reason: str  # "fifteen", "pair", "run", "go", "last_card", "flush", "nobs", "heels", "claim", "muggins", ...
    cards: tuple[str, ...] | None = None
    count: int | None = None  # the pegging count after the card
    show: str | None = None  # "hand" or "crib", for the points of a show
    owner: int | None = None  # muggins: the seat whose count missed the points
    breakdown: tuple[dict[str, Any], ...] | None = None  # muggins: the parts that were missed

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "points": self.points, "reason": self.reason}
        if self.cards is not None:
            out["cards"] = list(self.cards)
        if self.count is not None:
            out["count"] = self.count
        if self.show is not None:
            out["show"] = self.show
        if self.owner is not None:
            out["owner"] = self.owner
        if self.breakdown is not None:
            out["breakdown"] = list(self.breakdown)
        return out


@dataclass(frozen=True)
class ChipMove:
    """A signed chip movement for one seat: negative = paid (into the pot), positive = won."""

    seat: int
    chips: int
    reason: str  # "stake", "mus", "raise", "bet", "pot", "side_pot", "carry", "kitty", ...

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "chips": self.chips, "reason": self.reason}


@dataclass(frozen=True)
class Violation:
    """A broken rule proven after the fact (a false go, a revoke in an unread hand): nothing is undone."""

    kind: str  # "false_go", "revoke", "failure_to_head"
    seat: int
    details: dict[str, Any] = field(default_factory=dict)  # the card, the count or trick, the rule

    def to_json(self) -> dict[str, Any]:
        return {"violation": self.kind, "seat": self.seat, **self.details}


@dataclass(frozen=True)
class Note:
    """What happened that moves no chips or points (Femkort): a trick won, the trump, a hand or match result."""

    kind: str  # "trick", "trump", "contenders", "hand_won", "no_winner", "redeal_requested", ...
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"note": self.kind, **self.details}


@dataclass(frozen=True)
class ShownHand:
    seat: int
    cards: tuple[str, ...]
    hand: str  # its name: "three-flush 31 in spades", "pair of aces", "worthless"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "cards": list(self.cards), "hand": self.hand}


@dataclass(frozen=True)
class Showdown:
    """Färbeln: every hand still in, face up, with its name, before the pots are awarded."""

    hands: tuple[ShownHand, ...]

    def to_json(self) -> dict[str, Any]:
        return {"showdown": [hand.to_json() for hand in self.hands]}


@dataclass(frozen=True)
class Carried:
    """Chips that go to the carry for a later deal (Färbeln: every hand worthless, a misdeal)."""

    amount: int
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"carry": self.amount, "reason": self.reason}


@dataclass(frozen=True)
class TalonReshuffled:
    """Färbeln: the talon ran out; the earlier buyers' discards were shuffled into a new one."""

    cards: int

    def to_json(self) -> dict[str, Any]:
        return {"talon": "reshuffled", "cards": self.cards}


@dataclass(frozen=True)
class DealOver:
    """Färbeln: the deal is over, and how: "showdown", "uncalled", "void_mus" or "all_worthless"."""

    how: str
    hand_winner: int | None

    def to_json(self) -> dict[str, Any]:
        return {"deal_over": self.how, "hand_winner": self.hand_winner}


@dataclass(frozen=True)
class Misdeal:
    """Färbeln: the deal was declared a misdeal; the same dealer deals again."""

    def to_json(self) -> dict[str, Any]:
        return {"misdeal": True}


@dataclass(frozen=True)
class MatchOver:
    """Färbeln: the match is over, fewer than three seats being able to play: the winner is the last one,
    or of two left the one holding more chips (None on a tie)."""

    winner: int | None
    players_left: tuple[int, ...] | None = None  # the two seats still able to play, when two are left

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"match_over": True, "winner": self.winner}
        if self.players_left is not None:
            out["players_left"] = list(self.players_left)
        return out


Effect = Points | ChipMove | Violation | Note | Showdown | Carried | TalonReshuffled | DealOver | Misdeal | MatchOver
"""What an event caused. Consumers match on the class, never on JSON keys."""


def effects_json(effects: Iterable[Effect]) -> list[dict[str, Any]]:
    """The effects as the replay prints them."""
    return [effect.to_json() for effect in effects]


@dataclass(frozen=True)
class Judged:
    """One event as an engine judged it: its effects when accepted, the reason when refused."""

    event: Event
    effects: tuple[Effect, ...] = ()
    error: str | None = None  # None: accepted

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_json(self) -> dict[str, Any]:
        """As `cardtable replay` and `cardtable session` report it."""
        if self.error is not None:
            return {"event": self.event, "ok": False, "error": self.error}
        return {"event": self.event, "ok": True, "effects": effects_json(self.effects)}


def note(kind: str, **details: Any) -> Note:
    return Note(kind, details)


def violation(kind: str, seat: int, **details: Any) -> Violation:
    return Violation(kind, seat, details)
