"""Where the 32 cards of one Färbeln deal are: the hands, the buying discards and the talon.

Cards may be unread (`None`): an unread card still takes a slot, and becomes known when the player lays
it face up (expose), discards it by name or reveals his hand. A read card can be in one place only.
"""
from __future__ import annotations

from typing import Sequence

from dataclasses import dataclass, field

from ..cards import Card, piquet_deck
from ..engine import Effect, Event, IllegalEvent, TalonReshuffled
from ..events import event_type, parse_card_field
from .hands import DECK, HandError, check_in_deck

LISTING_ORDER = piquet_deck()  # the deck in a fixed order (DECK is a set)
Slot = tuple[int, Card | None]  # (index in the hand, the card named for it or None)


@dataclass
class CardBook:
    hands: list[list[Card | None]]
    pile: list[tuple[int, Card | None]] = field(default_factory=list)  # (seat, card) discarded while buying
    talon: int = len(DECK)
    seen: set[Card] = field(default_factory=set)  # the read cards in the hands and the pile: fast look-up

    @classmethod
    def fresh(cls, players: int) -> CardBook:
        return cls([[] for _ in range(players)])

    def copy(self) -> CardBook:
        return CardBook([list(hand) for hand in self.hands], list(self.pile), self.talon, set(self.seen))

    def known(self, seat: int) -> bool:
        return None not in self.hands[seat]

    def location(self, card: Card) -> str | None:
        for seat, hand in enumerate(self.hands):
            if card in hand:
                return f"seat {seat}'s hand"
        if any(discarded == card for _, discarded in self.pile):
            return "the discards"
        return None

    def check_unseen(self, card: Card) -> None:
        try:
            check_in_deck(card)
        except HandError as error:
            raise IllegalEvent(str(error)) from None
        if card in self.seen:
            raise IllegalEvent(f"card {card} is already in {self.location(card)}")

    def dealable(self, serving: int | None) -> list[Card]:
        """The cards the next card dealt may be: unseen ones, and once the talon is spent, the discards
        that the reshuffle would bring back (GAP-FB-9)."""
        back = {card for seat, card in self.pile if seat != serving} if self.talon == 0 else set()
        return [card for card in LISTING_ORDER if card not in self.seen or card in back]

    def deal(self, cards: list[tuple[int, Card | None]], serving: int | None) -> list[Effect]:
        """Deal in order, all or nothing: a trial copy takes the cards, then replaces this book."""
        if len(cards) == 1 and self.talon:  # one card, no reshuffle: _deal_one checks before it changes anything
            return self._deal_one(*cards[0], serving)
        trial = self.copy()
        effects: list[Effect] = []
        for seat, card in cards:
            effects += trial._deal_one(seat, card, serving)
        self.hands, self.pile, self.talon, self.seen = trial.hands, trial.pile, trial.talon, trial.seen
        return effects

    def _deal_one(self, seat: int, card: Card | None, serving: int | None) -> list[Effect]:
        effects = [self._reshuffle(serving)] if self.talon == 0 else []
        if card is not None:
            self.check_unseen(card)
            self.seen.add(card)
        self.hands[seat].append(card)
        self.talon -= 1
        return effects

    def _reshuffle(self, serving: int | None) -> Effect:
        """GAP-FB-9: the buying discards, except those of the buyer being served, become the new talon.
        Talon plus earlier buyers' discards always equals the first talon (>= 4), so this never runs dry."""
        back = [entry for entry in self.pile if entry[0] != serving]
        if not back:
            raise IllegalEvent("the talon is empty and there are no discards to reshuffle")
        self.pile = [entry for entry in self.pile if entry[0] == serving]
        self.seen.difference_update(card for _, card in back)
        self.talon = len(back)
        return TalonReshuffled(len(back))

    def match_held(self, seat: int, cards: Sequence[Card | None]) -> list[Slot]:
        """The hand slots the named cards occupy; an unread slot can stand for any card not seen elsewhere."""
        hand = self.hands[seat]
        unread = [index for index, held in enumerate(hand) if held is None]
        slots: list[Slot] = []
        for card in cards:
            if card is not None and card in hand:
                slots.append((hand.index(card), card))
                continue
            if not unread:
                raise IllegalEvent(f"card {card} is not in seat {seat}'s hand" if card is not None
                                   else f"seat {seat}'s cards are all known: name the cards")
            if card is not None:
                self._check_could_hold(seat, card)
            slots.append((unread.pop(0), card))
        return slots

    def _check_could_hold(self, seat: int, card: Card) -> None:
        try:
            self.check_unseen(card)
        except IllegalEvent as error:
            raise IllegalEvent(f"card {card} is not in seat {seat}'s hand ({error})") from None

    def learn(self, seat: int, slots: list[Slot]) -> None:
        for index, card in slots:
            if card is not None:
                self.hands[seat][index] = card
                self.seen.add(card)

    def discard(self, seat: int, slots: list[Slot]) -> None:
        self.learn(seat, slots)
        hand = self.hands[seat]
        for index in sorted((index for index, _ in slots), reverse=True):
            self.pile.append((seat, hand.pop(index)))


def event_optional_cards(event: Event, name: str) -> list[Card | None]:
    """A list of cards where `null` stands for a card that was not read; no card twice."""
    values = event.get(name, [])
    if not isinstance(values, list):
        raise IllegalEvent(f"malformed {event_type(event)} event: '{name}' must be a list of cards")
    cards = [None if value is None else parse_card_field(value, f"{event_type(event)} event '{name}'")
             for value in values]
    named = [card for card in cards if card is not None]
    if len(set(named)) != len(named):
        raise IllegalEvent(f"the same card is listed twice in '{name}'")
    return cards
