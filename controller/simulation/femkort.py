"""A random *legal* Femkort table: it holds the true cards, deals them (some unread, sometimes one card at a
time, now and then a misdeal), and the players pick among the legal cards of their true hands.

Between hands it may assert the dealer, call time (FK-R17) or, with V1, ask for a redeal and vote on it.
Used by the mixed-evening benchmark and the property tests (which add illegal events of their own).
"""
from __future__ import annotations

import random
from typing import Any

from controller.cards import Card, full_deck
from controller.femkort.game import FemkortGame
from controller.femkort.hand import dealt_count
from controller.femkort.options import HAND_SIZE
from controller.femkort.state import Phase
from controller.femkort.tricks import legal_cards
from controller.history import Header
from controller.simulation.table import Move, SimulatedTable


def header(players: int = 3, dealer: int = 0, chips: list[int] | None = None, **options: Any) -> Header:
    return Header("femkort", tuple(f"P{i}" for i in range(players)), dealer, options,
                  tuple(chips or [20] * players))


class FemkortTable(SimulatedTable[FemkortGame]):
    """Chooses legal events for `game` from the true cards: `choose()` then apply, or `step()` for both."""

    def __init__(self, game: FemkortGame, rng: random.Random, unread: float = 0.0, shorthand: float = 0.5,
                 misdeal: float = 0.02, redeal: float = 0.1, time_up: float = 0.02, new_hand: float = 0.2) -> None:
        self.game, self.rng = game, rng
        self.unread, self.shorthand, self.misdeal = unread, shorthand, misdeal
        self.redeal, self.time_up, self.new_hand = redeal, time_up, new_hand
        self.hands: list[list[Card]] = [[] for _ in range(game.state.players)]  # the truth, this deal
        self.short = False  # this deal gave a seat too few cards: the hand will have no winner
        self.pending = []

    @property
    def dealing(self) -> bool:
        """Whether the events of a deal are still being emitted."""
        return bool(self.pending)

    def choose(self) -> Move | None:
        """The next legal event, or None when the match is over."""
        if self.pending:
            return self._pending_move()
        state = self.game.state
        if state.phase is Phase.MATCH_OVER:
            return None
        if state.phase is Phase.BETWEEN_HANDS:
            return self._between_hands()
        if state.phase is Phase.REDEAL_VOTE:
            return self._answer()
        if not dealt_count(state.hand):
            return self._deal()
        if (state.phase is Phase.DEALING and state.options.redeal_on_request and not self.short
                and self.rng.random() < self.redeal):
            return Move({"type": "redeal_request", "seat": self.rng.choice(state.hand.seats)})
        return self._play()

    def play_move(self, seat: int, card: Card) -> Move:
        """Lay `card` for `seat` (legal or not: the commit runs only once the engine has accepted it)."""
        def commit() -> None:
            if card in self.hands[seat]:
                self.hands[seat].remove(card)
        return Move({"type": "play", "seat": seat, "card": str(card)}, commit)

    # ----- choosing events -----

    def _between_hands(self) -> Move:
        state, roll = self.game.state, self.rng.random()
        if roll < self.time_up and not state.time_up:
            return Move({"type": "time_up"})
        if roll < self.time_up + self.new_hand:
            event: dict[str, Any] = {"type": "new_hand"}
            if self.rng.random() < 0.5:
                event["dealer"] = state.hand.dealer
            return Move(event)
        return self._deal()

    def _deal(self) -> Move:
        """Shuffle and deal five cards to each seat of the hand, in deal order (FK-R7)."""
        hand, options = self.game.state.hand, self.game.state.options
        deck = full_deck()
        self.rng.shuffle(deck)
        self.hands = [[] for _ in self.hands]
        for i, seat in enumerate(hand.seats):
            self.hands[seat] = deck[HAND_SIZE * i:HAND_SIZE * (i + 1)]
        self.short = self.rng.random() < self.misdeal
        if self.short:
            self.hands[self.rng.choice(hand.seats)].pop()
        names = [[self._read(card, options.trump and seat == hand.dealer and position == HAND_SIZE - 1)
                  for position, card in enumerate(cards)] for seat, cards in enumerate(self.hands)]
        if self.short or self.rng.random() < self.shorthand:  # a wrong hand size is entered at the console
            self.pending = [{"type": "deal", "hands": names}]
        else:
            self.pending = [{"type": "deal", "seat": seat, "card": names[seat][position]}
                            for position in range(HAND_SIZE) for seat in hand.seats if position < len(names[seat])]
        return self.choose()  # type: ignore[return-value]

    def _read(self, card: Card, must_read: bool) -> str | None:
        """V5: the dealer's fifth card is turned up, so it is always read."""
        return str(card) if must_read or self.rng.random() >= self.unread else None

    def _answer(self) -> Move:
        hand = self.game.state.hand
        waiting = [seat for seat in hand.seats if seat != hand.redeal_by and seat not in hand.agreed]
        return Move({"type": "redeal_answer", "seat": self.rng.choice(waiting), "agree": self.rng.random() < 0.8})

    def _play(self) -> Move:
        hand = self.game.state.hand
        seat = hand.order[len(hand.trick)]
        return self.play_move(seat, self.rng.choice(legal_cards(self.hands[seat], hand.trick, hand.rules)))
