"""Färbeln at the table: which event each moment makes (the deal, the betting, exposing, buying, showdown).

* deal: open, each reader card goes to the seat the engine says is due (face up or down as due);
  closed, NEXT deals the face-down cards due (a round of two cards each, a buyer's face-down cards).
  Before the first card is dealt, the first face-down card the camera counts in a seat's zone is dealt
  at once: dealing has begun, so a late mus is refused.
* upcard: the card turned face up into the buyer's zone, when a face-up card is due there. Face-up
  cards in `deck` or `centre` make no event.
* betting: the console enters mus, stake, raise, bet, show with their amounts; the seat to answer may
  press CONFIRM (join) or GO (fold).
* expose: the two cards forehand lays face up in his zone. They stay there until the showdown.
* buy: the console enters the option; unless it lists the discard, the discard is the cards seen
  leaving the buyer's zone face up, then one unread card for each other card counted face down into
  `centre` since the last buy of the deal (open deal too: the engine keeps a read hand's candidates).
* showdown: a hand is revealed once its zone shows all its cards face up (upcards and exposed cards
  included). NEXT after the hand is `new_hand`.
"""
from __future__ import annotations

from vision.observations import seat_zone

from ..cards import Card, piquet_deck
from ..engine import Effect, Event
from ..ferbli.game import FerbliGame
from ..ferbli.phases import DEALING, Phase
from ..hardware.buzzer import Sound
from ..pegboard.state import BoardState
from .mapping import Reading, SeatMapper, TableView, Unfit
from .picture import zone_seat

CENTRE = "centre"
ANSWERS = {"confirm": "join", "go": "fold"}  # a seat's buttons while it answers a bet


class FerbliMapper(SeatMapper[FerbliGame]):
    deck = piquet_deck()

    def __init__(self, view: TableView) -> None:
        super().__init__(view)
        self.left_face_up: dict[int, list[Card]] = {}  # cards seen leaving a seat's zone face up

    def placed(self, card: Card, zone: str) -> Reading:
        game, seat = self.game, zone_seat(zone)
        if seat is None:
            return []
        if card in game.book.hands[seat]:
            return self.due()  # a card the engine knows there, shown: perhaps the last of a hand
        if self._due_card() == (seat, True):
            return [{"type": "deal", "seat": seat, "card": str(card), "up": True}]
        if game.phase in (Phase.EXPOSE, Phase.SHOWDOWN):
            return self.due()
        if game.phase is Phase.HAND_OVER:
            return []  # hands shown after the deal is settled
        return Unfit(f"a card face up in seat {seat}'s zone, where no event fits now")

    def removed(self, card: Card, zone: str) -> list[Event]:
        seat = zone_seat(zone)
        if seat is not None and card in self.game.book.hands[seat]:
            self.left_face_up.setdefault(seat, []).append(card)
        return []

    def face_down(self, zone: str, before: int) -> list[Event]:
        game, table = self.game, self.view.table
        dealing_begins = game.phase is Phase.MUS_DECISION and not any(game.book.hands)
        if dealing_begins and not self.view.open_deal and zone_seat(zone) is not None \
                and table.face_down.get(zone, 0) > before:
            return [{"type": "deal", "seat": game.to_deal[0][0], "card": None}]
        return []

    def button(self, action: str, seat: int) -> list[Event] | None:
        answer = {"type": ANSWERS[action], "seat": seat}
        return [answer] if answer in self.game.legal_actions() else None

    def next(self) -> list[Event] | None:
        game = self.game
        if game.phase is Phase.HAND_OVER:
            self.left_face_up = {}
            return [{"type": "new_hand"}]
        if self.view.open_deal or game.phase not in DEALING:
            return None
        return [{"type": "deal", "seat": seat, "card": None} for seat in self._face_down_due()] or None

    def console(self, event: Event) -> Event:
        if event.get("type") != "buy" or "discard" in event or not isinstance(event.get("seat"), int):
            return event
        return {**event, "discard": self._discard(event["seat"])}

    def due(self) -> list[Event]:
        game, table = self.game, self.view.table
        if game.phase is Phase.EXPOSE:
            shown = table.cards(seat_zone(game.forehand))
            return [{"type": "expose", "seat": game.forehand, "cards": [str(c) for c in shown]}] \
                if len(shown) >= 2 else []
        if game.phase is not Phase.SHOWDOWN:
            return []
        for action in game.legal_actions():
            if action["type"] == "reveal":
                shown = table.cards(seat_zone(action["seat"]))
                if len(shown) >= len(action["cards"]):
                    return [{"type": "reveal", "seat": action["seat"], "cards": [str(c) for c in shown]}]
        return []

    def board(self) -> BoardState | None:
        return None

    def fanfare(self, effects: list[Effect]) -> list[Sound]:
        return []

    def _due_card(self) -> tuple[int, bool] | None:
        game = self.game
        return game.to_deal[0] if game.to_deal and game.phase in DEALING else None

    def _face_down_due(self) -> list[int]:
        """The seats of the face-down cards due before the next face-up one."""
        seats = []
        for seat, face_up in self.game.to_deal if self.game.phase in DEALING else []:
            if face_up:
                break
            seats.append(seat)
        return seats

    def _discard(self, seat: int) -> list[str | None]:
        """The buyer's discard as the table saw it (see the module's docstring)."""
        held = self.game.book.hands[seat]
        named = [card for card in self.left_face_up.pop(seat, []) if card in held]
        counted = self.view.table.face_down.get(CENTRE, 0)
        before = sum(len(event.get("discard", [])) for event in self.view.hand_events() if event.get("type") == "buy")
        return [str(card) for card in named] + [None] * max(0, counted - before - len(named))
