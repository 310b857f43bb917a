"""The Färbeln hand evaluator (FB-R7..FB-R10): a pure function from four cards to a comparable value.

Only the best combination counts and leftover cards never break ties (GAP-FB-3, no kickers), so a hand's
value is just (category, number): the pip sum of the suited cards for a flush, the rank for a set.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Iterable

from ..cards import Card, Suit, piquet_deck

HAND_SIZE = 4
DECK: frozenset[Card] = frozenset(piquet_deck())

_RANK_WORDS = {1: "ace", 7: "seven", 8: "eight", 9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king"}
_COUNT_WORDS = {2: "two", 3: "three", 4: "four"}


class HandError(ValueError):
    """Cards that are not a Färbeln hand (wrong count, a repeated card, a card outside the 32-card deck)."""


class Category(IntEnum):
    """FB-R8, low to high: the IntEnum order is the ranking."""

    WORTHLESS = 0
    TWO_FLUSH = 1
    PAIR_OF_ACES = 2
    THREE_FLUSH = 3
    THREE_OF_A_RANK = 4
    FOUR_FLUSH = 5
    FOUR_OF_A_RANK = 6


@dataclass(frozen=True, order=True)
class HandValue:
    """Compares by `key` only: equal keys are a tie (FB-R35 decides it by seat position)."""

    key: tuple[int, int]
    category: Category = field(compare=False)
    name: str = field(compare=False)

    @property
    def worthless(self) -> bool:
        return self.category is Category.WORTHLESS


def rank_strength(rank: int) -> int:
    """Rank order A > K > Q > J > 10 > 9 > 8 > 7 (FB-R4, FB-R9): the ace counts 14."""
    return 14 if rank == 1 else rank


def strength(card: Card) -> int:
    return rank_strength(card.rank)


def pips(card: Card) -> int:
    """FB-R7: A = 11; K, Q, J, 10 = 10; 9, 8, 7 at face value."""
    return 11 if card.rank == 1 else min(card.rank, 10)


def check_in_deck(card: Card) -> None:
    if card not in DECK:
        raise HandError(f"card {card} is not in the 32-card Färbeln deck (A K Q J 10 9 8 7)")


def evaluate(cards: Iterable[Card]) -> HandValue:
    """The value of a four-card hand: its single best combination (FB-R10), or worthless."""
    hand = list(cards)
    _check_hand(hand)
    ranks: dict[int, int] = {}
    suits: dict[Suit, list[int]] = {}  # suit -> [cards held, pip sum]
    for card in hand:
        ranks[card.rank] = ranks.get(card.rank, 0) + 1
        held = suits.setdefault(card.suit, [0, 0])
        held[0] += 1
        held[1] += pips(card)
    candidates = [*_sets(ranks), *_flushes(suits), (Category.WORTHLESS, 0, None)]
    # A 2-2 hand offers two two-flushes; max() keeps the better (and the first of equal ones).
    category, number, detail = max(candidates, key=lambda candidate: candidate[:2])
    return HandValue((int(category), number), category, _name(category, number, detail))


def _check_hand(hand: list[Card]) -> None:
    if len(hand) != HAND_SIZE:
        raise HandError(f"a Färbeln hand has {HAND_SIZE} cards, got {len(hand)}")
    if len(set(hand)) != len(hand):  # cards are interned: equal cards are the same object
        repeated = sorted({str(card) for card in hand if hand.count(card) > 1})
        raise HandError(f"card {', '.join(repeated)} is listed twice")
    for card in hand:
        if card.rank not in _RANK_WORDS:
            check_in_deck(card)


Candidate = tuple[Category, int, "int | Suit | None"]  # category, number compared, rank or suit named


def _sets(ranks: dict[int, int]) -> list[Candidate]:
    """Three or four of a rank, and the pair of aces (the only pair that counts, FB-R8)."""
    found: list[Candidate] = []
    for rank, count in ranks.items():
        if count >= 3:
            found.append((Category.FOUR_OF_A_RANK if count == 4 else Category.THREE_OF_A_RANK,
                          rank_strength(rank), rank))
        elif count == 2 and rank == 1:
            found.append((Category.PAIR_OF_ACES, rank_strength(rank), rank))
    return found


_FLUSH_CATEGORY = {2: Category.TWO_FLUSH, 3: Category.THREE_FLUSH, 4: Category.FOUR_FLUSH}


def _flushes(suits: dict[Suit, list[int]]) -> list[Candidate]:
    return [(_FLUSH_CATEGORY[count], total, suit) for suit, (count, total) in suits.items() if count >= 2]


def _name(category: Category, number: int, detail: int | Suit | None) -> str:
    if isinstance(detail, Suit):
        length = {Category.TWO_FLUSH: 2, Category.THREE_FLUSH: 3, Category.FOUR_FLUSH: 4}[category]
        return f"{_COUNT_WORDS[length]}-flush {number} in {detail.word}"
    if category is Category.PAIR_OF_ACES:
        return "pair of aces"
    if detail is None:
        return "worthless"
    count = 4 if category is Category.FOUR_OF_A_RANK else 3
    return f"{_COUNT_WORDS[count]} {_RANK_WORDS[detail]}s"
