"""Femkort at the table: which event each moment makes (the deal, the tricks, the variants' moments).

* deal: open, each reader card goes to the engine's next seat due; closed, NEXT deals every card
  unread (the match's first hand and a redeal need one NEXT; any other hand needs NEXT for `new_hand`
  once the table is cleared, then NEXT again once dealt).
* trump (V5): the dealer turns his fifth card face up in his zone before NEXT; it is read as the trump
  (the only card named in a closed deal) and taken back into his hand: neither is an event.
* tricks: a card newly laid in a seat's zone is that seat's `play`, whatever else lies there; the
  engine says when a trick is complete; the winner gathering it is no event.
* redeal (V1): GO asks for a redeal before the first card is played; while a request waits, CONFIRM
  agrees and GO declines. Misdeals (hand sizes) and time up come from the console.
"""
from __future__ import annotations

from vision.observations import seat_zone

from ..cards import Card, full_deck
from ..engine import Effect, Event
from ..femkort.game import FemkortGame
from ..femkort.hand import dealt_count
from ..femkort.options import HAND_SIZE
from ..femkort.state import Phase
from ..hardware.buzzer import Sound
from ..pegboard.state import BoardState
from .mapping import Reading, SeatMapper
from .picture import zone_seat


class FemkortMapper(SeatMapper[FemkortGame]):
    deck = full_deck()

    def placed(self, card: Card, zone: str) -> Reading:
        seat = zone_seat(zone)
        if seat is None:
            return []
        if self._shows_trump(card, seat):
            return []
        return [{"type": "play", "seat": seat, "card": str(card)}]

    def removed(self, card: Card, zone: str) -> list[Event]:
        return []  # tricks gathered, the trump taken back, a played card removed early: never an event

    def face_down(self, zone: str, before: int) -> list[Event]:
        return []  # tricks gathered face down

    def button(self, action: str, seat: int) -> list[Event] | None:
        game = self.game
        if game.phase is Phase.REDEAL_VOTE:
            return [{"type": "redeal_answer", "seat": seat, "agree": action == "confirm"}]
        if action == "go" and game.state.options.redeal_on_request and self._dealt_unplayed():
            return [{"type": "redeal_request", "seat": seat}]
        return None

    def next(self) -> list[Event] | None:
        game = self.game
        state = game.state
        first_deal = state.hands_finished == 0 and not state.hand.started
        if game.phase is Phase.BETWEEN_HANDS and not first_deal:
            return [{"type": "new_hand"}]
        if game.phase in (Phase.BETWEEN_HANDS, Phase.DEALING) and not dealt_count(state.hand):
            return None if self.view.open_deal else [self._unread_deal()]
        return None

    def console(self, event: Event) -> Event:
        return event

    def due(self) -> list[Event]:
        return []

    def board(self) -> BoardState | None:
        return None

    def fanfare(self, effects: list[Effect]) -> list[Sound]:
        return []

    def _unread_deal(self) -> Event:
        """Every card unread, but the trump (V5) the dealer turned face up in his zone."""
        hand = self.game.state.hand
        hands: list[list[str | None]] = [[None] * HAND_SIZE if seat in hand.seats else []
                                         for seat in range(self.game.state.players)]
        shown = self.view.table.cards(seat_zone(self.game.dealer))
        if self.game.state.options.trump and shown:
            hands[self.game.dealer][-1] = str(shown[-1])
        return {"type": "deal", "hands": hands}

    def _shows_trump(self, card: Card, seat: int) -> bool:
        """V5: the dealer's fifth card shown face up before the play is the trump, not a play."""
        state = self.game.state
        if not state.options.trump or seat != self.game.dealer or self.game.phase is Phase.PLAYING:
            return False
        return card == state.hand.trump_card or not dealt_count(state.hand)

    def _dealt_unplayed(self) -> bool:
        return self.game.phase is Phase.DEALING and bool(dealt_count(self.game.state.hand))
