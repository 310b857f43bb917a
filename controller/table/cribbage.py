"""Cribbage at the table: which event each moment makes (the deal, the crib, the cut, the play, the show).

* deal: open, each reader card goes to the engine's next seat due (the three-hand crib card last);
  closed, NEXT deals every card unread.
* discards: once the crib zone counts the crib's full size face down, one `discard` of unread cards per
  seat from the dealer's left (the camera sees a count, not who laid them).
* cut: a card face up in `starter`. Pegging: a card laid in a seat's zone is that seat's `play`; GO is `go`.
* show: the hand being counted is revealed once its zone shows all its cards face up (played cards stay
  there, and the cards five-card's single series left in hand are laid beside them); the crib once the
  dealer has turned it face up in `crib`. Hands known from the play are scored by the engine when the
  play ends, so nothing more is sent for them.
* NEXT between hands is `new_hand`. Muggins claims come from the console; CONFIRM means nothing.
"""
from __future__ import annotations

from vision.observations import seat_zone

from ..cards import Card, full_deck
from ..cribbage.game import CribbageGame, Phase
from ..engine import Effect, Event, Points
from ..hardware.buzzer import Sound
from ..pegboard.state import BoardState
from .mapping import Reading, SeatMapper, Unfit
from .outputs import board_state
from .picture import zone_seat

CRIB, STARTER = "crib", "starter"
TWENTY_NINE = 29  # the best hand there is


class CribbageMapper(SeatMapper[CribbageGame]):
    deck = full_deck()

    def watches(self, zone: str) -> bool:
        return zone in (CRIB, STARTER) or super().watches(zone)

    def placed(self, card: Card, zone: str) -> Reading:
        seat = zone_seat(zone)
        if zone == STARTER:
            return [{"type": "starter", "card": str(card)}]
        if seat is not None and self.game.phase is not Phase.SHOW:
            return [{"type": "play", "seat": seat, "card": str(card)}]
        if seat is not None or (zone == CRIB and self.game.phase is Phase.SHOW):
            return self.due()
        if zone == CRIB and self.game.phase is not Phase.HAND_OVER:
            return Unfit("a card face up in the crib before the show")
        return []  # a crib already counted, shown; the deck and the centre make no cribbage event

    def removed(self, card: Card, zone: str) -> list[Event]:
        return []  # cards leave the table at the end of a hand, or after a refusal: never an event

    def face_down(self, zone: str, before: int) -> list[Event]:
        return self.due() if zone == CRIB else []

    def button(self, action: str, seat: int) -> list[Event] | None:
        return [{"type": "go", "seat": seat}] if action == "go" else None

    def next(self) -> list[Event] | None:
        game = self.game
        if game.phase is Phase.HAND_OVER:
            return [{"type": "new_hand"}]
        if game.phase is not Phase.DEAL or self.view.open_deal:
            return None
        layout = game.layout
        deal: list[Event] = [{"type": "deal", "hands": [[None] * layout.dealt for _ in range(game.players)]}]
        return deal + [{"type": "deal", "to": "crib", "card": None}] * layout.to_crib

    def console(self, event: Event) -> Event:
        return event

    def due(self) -> list[Event]:
        game, table = self.game, self.view.table
        if game.phase is Phase.DISCARD and table.face_down.get(CRIB, 0) >= self._crib_size():
            seats = dict.fromkeys(action["seat"] for action in game.legal_actions() if action["type"] == "discard")
            return [{"type": "discard", "seat": seat, "cards": [None] * game.layout.discard} for seat in seats]
        count = game.next_count()
        if count is None:
            return []
        seat, crib = count
        known, unread = game.show_cards(count)
        shown = table.cards(CRIB if crib else seat_zone(seat))
        if not unread or len(shown) < len(known) + unread:
            return []
        return [{"type": "reveal", "seat": seat, "cards": [str(card) for card in shown],
                 **({"crib": True} if crib else {})}]

    def board(self) -> BoardState | None:
        return board_state(self.game)

    def fanfare(self, effects: list[Effect]) -> list[Sound]:
        counts: dict[tuple[int, str], int] = {}
        for effect in effects:
            if isinstance(effect, Points) and effect.show is not None:
                key = (effect.seat, effect.show)
                counts[key] = counts.get(key, 0) + effect.points
        return [Sound.TWENTY_NINE] if TWENTY_NINE in counts.values() else []

    def _crib_size(self) -> int:
        layout = self.game.layout
        return layout.players * layout.discard + layout.to_crib
