"""A random *legal* cribbage table: it holds the true cards and picks among the legal actions.

The engine may know less than the driver (unread deals); the driver names a card only when a real table
would show it (laid, revealed, dealt read). Used by the demo, the benchmarks and the property tests.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from controller.cards import Card, full_deck
from controller.cribbage.game import CribbageGame, Phase
from controller.cribbage.pegging import fits
from controller.cribbage.scoring import score_show
from controller.history import Header
from controller.simulation.table import Move, SimulatedTable


def header(players: int = 2, dealer: int = 0, **options: Any) -> Header:
    return Header("cribbage", tuple(f"P{i}" for i in range(players)), dealer, dict(options), None)


@dataclass
class Truth:
    """The real cards of the current hand."""

    holding: list[list[Card]]
    played: list[list[Card]]
    crib: list[Card] = field(default_factory=list)
    deck: list[Card] = field(default_factory=list)  # undealt cards, top first
    unread: set[Card] = field(default_factory=set)  # dealt face down and not read
    starter: Card | None = None

    def hand(self, seat: int) -> list[Card]:
        return self.played[seat] + self.holding[seat]

    def count_cards(self, count: tuple[int, bool]) -> list[Card]:
        seat, crib = count
        return list(self.crib) if crib else self.hand(seat)


class Driver(SimulatedTable[CribbageGame]):
    """Chooses legal events for `game` from the truth: `choose()` then apply, or `step()` for both."""

    def __init__(self, game: CribbageGame, rng: random.Random, unread: float = 0.0,
                 shorthand: float = 0.5, undercall: float = 0.2, face_down: float = 0.0) -> None:
        self.game, self.rng = game, rng
        self.unread, self.shorthand, self.undercall = unread, shorthand, undercall
        self.face_down = face_down  # a read hand's discard sent as the camera sees it: unnamed cards
        self.truth = self._new_truth()
        self.pending = []

    def _new_truth(self) -> Truth:
        deck = full_deck()
        self.rng.shuffle(deck)
        players = self.game.players
        return Truth([[] for _ in range(players)], [[] for _ in range(players)], deck=deck)

    def _read(self, card: Card) -> str | None:
        if self.rng.random() < self.unread:
            self.truth.unread.add(card)
            return None
        return str(card)

    def choose(self) -> Move | None:
        """The next legal event, or None when the game is over."""
        if self.pending:
            return self._pending_move()
        phase = self.game.phase
        if phase is Phase.GAME_OVER:
            return None
        return {Phase.DEAL: self._deal, Phase.DISCARD: self._discard, Phase.STARTER: self._starter,
                Phase.PLAY: self._play, Phase.SHOW: self._show, Phase.HAND_OVER: self._hand_over}[phase]()

    # ----- choosing events -----

    def _deal(self) -> Move:
        layout, truth = self.game.layout, self.truth
        dealer = self.game.state.hand.dealer
        order = [(dealer + 1 + i) % layout.players for i in range(layout.players)]
        events: list[dict[str, Any]] = []
        for _ in range(layout.dealt):
            for seat in order:
                card = truth.deck.pop(0)
                truth.holding[seat].append(card)
                events.append({"type": "deal", "seat": seat, "card": self._read(card)})
        crib_events = []
        for _ in range(layout.to_crib):
            card = truth.deck.pop(0)
            truth.crib.append(card)
            crib_events.append({"type": "deal", "to": "crib", "card": self._read(card)})
        if self.rng.random() < self.shorthand:
            events = [{"type": "deal", "hands": [[None if c in truth.unread else str(c) for c in truth.holding[s]]
                                                 for s in range(layout.players)]}]
        # The crib card of three-hand cribbage may come at any point of the deal.
        for crib_event in crib_events:
            events.insert(self.rng.randrange(len(events) + 1), crib_event)
        self.pending = events
        return self.choose()  # type: ignore[return-value]

    def _discard(self) -> Move:
        hand = self.game.state.hand
        seat = self.rng.choice([s for s in range(self.game.players) if not hand.seats[s].discarded])
        chosen = self.rng.sample(self.truth.holding[seat], self.game.layout.discard)
        names = [None if c in self.truth.unread and self.rng.random() < 0.5 else str(c) for c in chosen]
        if self.face_down and not set(self.truth.holding[seat]) & self.truth.unread \
                and self.rng.random() < self.face_down:
            names = [None] * len(chosen)

        def commit() -> None:
            for card in chosen:
                self.truth.holding[seat].remove(card)
                self.truth.crib.append(card)
        return Move({"type": "discard", "seat": seat, "cards": names}, commit)

    def _starter(self) -> Move:
        def commit() -> None:
            self.truth.starter = self.truth.deck.pop(0)
        return Move({"type": "starter", "card": str(self.truth.deck[0])}, commit)

    def _play(self) -> Move:
        seat = self.game.to_act()
        assert seat is not None
        count = self.game.state.hand.count
        fitting = [c for c in self.truth.holding[seat] if fits(c, count)]
        if not fitting:
            return Move({"type": "go", "seat": seat})
        card = self.rng.choice(fitting)

        def commit() -> None:
            self.truth.holding[seat].remove(card)
            self.truth.played[seat].append(card)
        return Move({"type": "play", "seat": seat, "card": str(card)}, commit)

    def _show(self) -> Move:
        count = self.game.next_count()
        assert count is not None
        seat, crib = count
        _, unknown = self.game.show_cards(count)
        cards = self.truth.count_cards(count)
        if unknown or not self.game.options.muggins:
            return Move(reveal_event(count, cards))
        true = score_show(cards, self.truth.starter, crib=crib).total  # type: ignore[arg-type]
        claim = self.rng.randint(0, true) if true and self.rng.random() < self.undercall else true
        event = {"type": "claim", "seat": seat, "points": claim, **({"crib": True} if crib else {})}
        return Move(event)

    def _hand_over(self) -> Move:
        if self.rng.random() < 0.2:  # a late reveal of a counted hand: accepted without effects
            count = self.rng.choice(self.game.counting_order())
            return Move(reveal_event(count, self.truth.count_cards(count)))
        event: dict[str, Any] = {"type": "new_hand"}
        if self.rng.random() < 0.5:
            event["dealer"] = (self.game.state.hand.dealer + 1) % self.game.players

        def commit() -> None:
            self.truth = self._new_truth()
        return Move(event, commit)


def reveal_event(count: tuple[int, bool], cards: list[Card]) -> dict[str, Any]:
    seat, crib = count
    return {"type": "reveal", "seat": seat, "cards": [str(c) for c in cards], **({"crib": True} if crib else {})}
