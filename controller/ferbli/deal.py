"""Where the 32 cards of one Färbeln deal are: the hands, the buying discards and the talon.

Cards may be unread (`None`): an unread card still takes a slot, and becomes known when the player lays
it face up (expose), discards it by name or reveals his hand. A read card can be in one place only.

A read hand's buying discard may come unnamed (the camera counts cards going face down, not which): the
hand then keeps its remaining slots unread and a pool, the read cards those slots and the unnamed discards
are among. Whatever the seat later shows comes from the pool; a pool card dealt after the reshuffle
(GAP-FB-9) was one of the discards; once the pool's cards can only be in one place they are named there.
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
    seen: set[Card] = field(default_factory=set)  # the read cards in the hands, the pile and the pools
    # seat -> the read cards its unread slots, its unnamed discards and those reshuffled into the talon are
    pools: dict[int, list[Card]] = field(default_factory=dict)

    @classmethod
    def fresh(cls, players: int) -> CardBook:
        return cls([[] for _ in range(players)])

    def copy(self) -> CardBook:
        return CardBook([list(hand) for hand in self.hands], list(self.pile), self.talon, set(self.seen),
                        {seat: list(pool) for seat, pool in self.pools.items()})

    def known(self, seat: int) -> bool:
        return None not in self.hands[seat]

    def location(self, card: Card) -> str | None:
        for seat, hand in enumerate(self.hands):
            if card in hand:
                return f"seat {seat}'s hand"
        if any(discarded == card for _, discarded in self.pile):
            return "the discards"
        owner = next((seat for seat, pool in self.pools.items() if card in pool), None)
        return None if owner is None else f"seat {owner}'s hand or its unnamed discards"

    def check_unseen(self, card: Card) -> None:
        try:
            check_in_deck(card)
        except HandError as error:
            raise IllegalEvent(str(error)) from None
        if card in self.seen:
            raise IllegalEvent(f"card {card} is already in {self.location(card)}")

    def dealable(self, serving: int | None) -> list[Card]:
        """The cards the next card dealt may be: unseen ones and those of the pools in the talon, judged
        after the reshuffle (GAP-FB-9) that an empty talon needs first."""
        book = self
        if self.talon == 0:
            book = self.copy()
            book._reshuffle(serving)
        pooled = {card for seat in book._pools_in_talon() for card in book.pools[seat]}
        if book.talon == book._pooled_in_talon():  # the talon is all unnamed discards
            return [card for card in LISTING_ORDER if card in pooled]
        return [card for card in LISTING_ORDER if card not in book.seen or card in pooled]

    def deal(self, cards: list[tuple[int, Card | None]], serving: int | None) -> list[Effect]:
        """Deal in order, all or nothing: a trial copy takes the cards, then replaces this book."""
        if len(cards) == 1 and self.talon:  # one card, no reshuffle: _deal_one checks before it changes anything
            return self._deal_one(*cards[0], serving)
        trial = self.copy()
        effects: list[Effect] = []
        for seat, card in cards:
            effects += trial._deal_one(seat, card, serving)
        self.hands, self.pile, self.talon, self.seen, self.pools = \
            trial.hands, trial.pile, trial.talon, trial.seen, trial.pools
        return effects

    def _deal_one(self, seat: int, card: Card | None, serving: int | None) -> list[Effect]:
        effects = [self._reshuffle(serving)] if self.talon == 0 else []
        if card is None:
            # an unread card may be a pool's from the talon, and a pool seat's new slot is none of its pool's
            for owner in [owner for owner in self._pools_in_talon() if owner != seat] + [seat]:
                self._forget(owner)
        else:
            self._draw_read(card)
        self.hands[seat].append(card)
        self.talon -= 1
        return effects

    def _draw_read(self, card: Card) -> None:
        """A read card leaves the talon: one of a pool's reshuffled discards, or a card not seen yet."""
        owner = next((owner for owner in self._pools_in_talon() if card in self.pools[owner]), None)
        if owner is not None:
            self.pools[owner].remove(card)  # still seen: it is in the hand it is dealt to now
            self._settle(owner)
            return
        self.check_unseen(card)
        if self.talon == self._pooled_in_talon():
            among = " ".join(str(c) for owner in self._pools_in_talon() for c in self.pools[owner])
            raise IllegalEvent(f"card {card} cannot come from the talon: it holds only unnamed discards, "
                               f"among {among}")
        self.seen.add(card)

    def _unnamed_discards(self, seat: int) -> int:
        return sum(1 for owner, card in self.pile if owner == seat and card is None)

    def _in_talon(self, seat: int) -> int:
        """How many of the seat's pool cards are in the talon (unnamed discards reshuffled into it)."""
        return len(self.pools[seat]) - self.hands[seat].count(None) - self._unnamed_discards(seat)

    def _pools_in_talon(self) -> list[int]:
        return [seat for seat in self.pools if self._in_talon(seat)]

    def _pooled_in_talon(self) -> int:
        return sum(self._in_talon(seat) for seat in self.pools)

    def _forget(self, seat: int) -> None:
        """The pool can no longer be told apart from unread cards: its slots and discards are just unread."""
        if seat in self.pools:
            self.seen.difference_update(self.pools.pop(seat))

    def _settle(self, seat: int) -> None:
        """Name a pool's cards once they can be in one place only: the hand's unread slots when no pool card
        is elsewhere, the unnamed discards when the hand holds none and the talon none either."""
        pool, hand = self.pools[seat], self.hands[seat]
        unread = hand.count(None)
        cards = iter(pool)
        if len(pool) == unread:
            self.hands[seat] = [next(cards) if held is None else held for held in hand]
        elif unread == 0 and self._unnamed_discards(seat) == len(pool):
            self.pile = [(owner, next(cards) if owner == seat and card is None else card) for owner, card in self.pile]
        else:
            return
        del self.pools[seat]

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
                                   else f"seat {seat} has no unread card left for a null: name the cards")
            if card is not None:
                self._check_could_hold(seat, card)
            slots.append((unread.pop(0), card))
        return slots

    def _check_could_hold(self, seat: int, card: Card) -> None:
        pool = self.pools.get(seat)
        if pool is not None:
            if card not in pool:
                raise IllegalEvent(f"card {card} is not in seat {seat}'s hand: its {self.hands[seat].count(None)} "
                                   f"unread card(s) are among {' '.join(map(str, pool))}")
            return
        try:
            self.check_unseen(card)
        except IllegalEvent as error:
            raise IllegalEvent(f"card {card} is not in seat {seat}'s hand ({error})") from None

    def learn(self, seat: int, slots: list[Slot]) -> None:
        pool = self.pools.get(seat)
        for index, card in slots:
            if card is not None and self.hands[seat][index] is None:
                self.hands[seat][index] = card
                self.seen.add(card)
                if pool is not None:
                    pool.remove(card)
        if pool is not None:
            self._settle(seat)

    def discard(self, seat: int, cards: Sequence[Card | None]) -> None:
        """A buyer's discard, all or nothing. Unnamed cards from a read hand are some of its read cards:
        the rest of the hand becomes unread slots with those cards as their pool."""
        unnamed = cards.count(None)
        pooling = unnamed and self.known(seat)
        slots = self.match_held(seat, [card for card in cards if card is not None] if pooling else cards)
        self.learn(seat, slots)
        hand = self.hands[seat]
        for index in sorted((index for index, _ in slots), reverse=True):
            self.pile.append((seat, hand.pop(index)))
        if pooling:
            self.pools[seat] = [card for card in hand if card is not None]  # all of them: the hand was read
            self.hands[seat] = [None] * (len(hand) - unnamed)
            self.pile += [(seat, None)] * unnamed
            self._settle(seat)


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
