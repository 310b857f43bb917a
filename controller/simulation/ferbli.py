"""A random *legal* Färbeln table: the real cards dealt the way a dealer would, players picking among the
engine's `legal_actions()`. Some cards are dealt unread; the whole round may come as the `hands` shorthand.

Used by the mixed-evening benchmark and the property tests (which add illegal events of their own).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from controller.cards import Card, piquet_deck
from controller.engine import Event
from controller.ferbli.game import FerbliGame
from controller.ferbli.phases import Phase
from controller.history import Header
from controller.simulation.table import Move, SimulatedTable


def header(players: int = 3, dealer: int = 0, chips: list[int] | None = None, **options: Any) -> Header:
    return Header("ferbli", tuple(f"P{i}" for i in range(players)), dealer, {"min": 1, "max": 10, **options},
                  tuple(chips or [50] * players))


@dataclass
class PhysicalTable:
    """The real cards, dealt the way a dealer would, talon reshuffle included (GAP-FB-9)."""

    rng: random.Random
    players: int
    unread_rate: float = 0.15  # a card dealt face down that the camera did not read
    shorthand_rate: float = 0.3  # a deal round given as the `hands` shorthand
    talon: list[Card] = field(default_factory=list)
    hands: list[list[Card]] = field(default_factory=list)
    pile: list[tuple[int, Card]] = field(default_factory=list)
    unread: set[Card] = field(default_factory=set)
    serving: int | None = None

    def shuffle(self) -> None:
        self.talon = piquet_deck()
        self.rng.shuffle(self.talon)
        self.hands = [[] for _ in range(self.players)]
        self.pile, self.unread, self.serving = [], set(), None

    def draw(self, seat: int, face_up: bool = False) -> str | None:
        if not self.talon:
            back = [c for s, c in self.pile if s != self.serving]
            self.pile = [(s, c) for s, c in self.pile if s == self.serving]
            self.talon = back
            self.rng.shuffle(self.talon)
        dealt = self.talon.pop()
        self.hands[seat].append(dealt)
        if not face_up and self.rng.random() < self.unread_rate:  # a card dealt face up is always seen
            self.unread.add(dealt)
            return None
        return str(dealt)

    def name(self, cards: list[Card]) -> list[str]:
        self.unread.difference_update(cards)
        return [str(c) for c in cards]

    def discard(self, seat: int, count: int) -> list[str | None]:
        chosen = self.rng.sample(self.hands[seat], count)
        texts: list[str | None] = []
        for picked in chosen:
            self.hands[seat].remove(picked)
            self.pile.append((seat, picked))
            # an unread card may be discarded unread too
            texts.append(None if picked in self.unread and self.rng.random() < 0.5 else self.name([picked])[0])
        self.serving = seat
        return texts


def action_kind(action: Event) -> tuple[object, ...]:
    """What a player chooses: the event type and seat (and a buy's option and number of cards); the
    amount and the cards come after (the amount at random, the cards from the table)."""
    return action["type"], action.get("seat"), action.get("option"), len(action.get("discard", ()))


def legal_event(game: FerbliGame, action: Event, cards: PhysicalTable) -> Event:
    """The event that makes the legal `action` with the real cards (they leave the talon as the event is
    written)."""
    rng = cards.rng
    kind = action["type"]
    if kind == "deal":
        if len(game.to_deal) > 1 and rng.random() < cards.shorthand_rate:
            hands: list[list[str | None]] = [[] for _ in range(cards.players)]
            for seat, face_up in game.to_deal:
                hands[seat].append(cards.draw(seat, face_up))
            return {"type": "deal", "hands": hands}
        seat, face_up = game.to_deal[0]  # FB-R24: the upcard and the fourth card of "all" are dealt face up
        return {"type": "deal", "seat": seat, "card": cards.draw(seat, face_up), **({"up": True} if face_up else {})}
    event = dict(action)
    seat = action.get("seat", -1)  # the card moves below are all made by a seat
    if kind == "buy":
        event["discard"] = cards.discard(seat, len(action["discard"]))
    elif kind == "expose":
        event["cards"] = cards.name(rng.sample(cards.hands[seat], 2))
    elif kind == "reveal":
        event["cards"] = cards.name(cards.hands[seat])
    return event


class FerbliTable(SimulatedTable[FerbliGame]):
    """Chooses among the kinds of `game.legal_actions()` (a misdeal only rarely), an amount at random, and
    plays it with the real cards."""

    def __init__(self, game: FerbliGame, rng: random.Random, unread: float = 0.15, shorthand: float = 0.3,
                 misdeal: float = 0.01) -> None:
        self.game, self.rng, self.misdeal = game, rng, misdeal
        self.cards = PhysicalTable(rng, game.players, unread, shorthand)
        self.cards.shuffle()

    def choose(self) -> Move | None:
        kinds: dict[tuple[object, ...], list[Event]] = {}
        for action in self.game.legal_actions():
            kinds.setdefault(action_kind(action), []).append(action)
        if not kinds:
            return None
        weights = [self.misdeal if kind[0] == "misdeal" else 1.0 for kind in kinds]
        chosen = self.rng.choices(list(kinds.values()), weights)[0]
        return Move(legal_event(self.game, self.rng.choice(chosen), self.cards), self.follow)

    def follow(self) -> None:
        """After any accepted event: a new deal (new_hand or misdeal) means the dealer gathers and shuffles."""
        if self.game.phase is Phase.MUS_DECISION and not any(self.game.book.hands):
            self.cards.shuffle()
