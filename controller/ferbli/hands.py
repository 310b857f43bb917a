"""The Färbeln hand evaluator (FB-R7..FB-R10): a pure function from four cards to a comparable value.

Only the best combination counts and leftover cards never break ties (GAP-FB-3, no kickers), so a hand's
value is just (category, number): the pip sum of the suited cards for a flush, the rank for a set.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Iterable

from ..cards import Card, piquet_deck

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
    candidates = [*_sets(hand), *_flushes(hand)]
    return max(candidates, default=_value(Category.WORTHLESS, 0, "worthless"))


def _check_hand(hand: list[Card]) -> None:
    if len(hand) != HAND_SIZE:
        raise HandError(f"a Färbeln hand has {HAND_SIZE} cards, got {len(hand)}")
    if len(set(hand)) != len(hand):
        raise HandError("the same card is listed twice")
    for card in hand:
        check_in_deck(card)


def _sets(hand: list[Card]) -> list[HandValue]:
    """Three or four of a rank, and the pair of aces (the only pair that counts, seed note a)."""
    values = []
    for rank, count in Counter(card.rank for card in hand).items():
        if count >= 3:
            category = Category.FOUR_OF_A_RANK if count == 4 else Category.THREE_OF_A_RANK
            values.append(_value(category, rank_strength(rank), f"{_COUNT_WORDS[count]} {_RANK_WORDS[rank]}s"))
        elif count == 2 and rank == 1:
            values.append(_value(Category.PAIR_OF_ACES, 14, "pair of aces"))
    return values


_FLUSH_CATEGORY = {2: Category.TWO_FLUSH, 3: Category.THREE_FLUSH, 4: Category.FOUR_FLUSH}


def _flushes(hand: list[Card]) -> list[HandValue]:
    """Every suit held two or more times; a 2-2 hand yields both two-flushes and max() keeps the better."""
    values = []
    for suit, count in Counter(card.suit for card in hand).items():
        if count >= 2:
            total = sum(pips(card) for card in hand if card.suit is suit)
            values.append(_value(_FLUSH_CATEGORY[count], total, f"{_COUNT_WORDS[count]}-flush {total} in {suit.word}"))
    return values


def _value(category: Category, number: int, name: str) -> HandValue:
    return HandValue((int(category), number), category, name)
