"""The card model: ranks, suits, cards and decks, with the hand-history card notation.

Input accepts `10H`, `TH`, `10♥` and lower case; output is always canonical (`10H`, `QS`).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Iterable

RANK_NAMES: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


class CardError(ValueError):
    """Card text that is not a card."""


class Suit(Enum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def word(self) -> str:
        return self.name.lower()

    def __str__(self) -> str:
        return self.value


_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_BY_TEXT = {**{s.value: s for s in Suit}, **{sym: s for s, sym in _SUIT_SYMBOLS.items()},
                 "♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS}
_RANK_BY_TEXT = {name: i + 1 for i, name in enumerate(RANK_NAMES)} | {"T": 10}
# Fixed suit order for the 0..51 card index (spades, hearts, diamonds, clubs).
SUITS: tuple[Suit, ...] = tuple(Suit)


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """A playing card. `rank` is 1 (ace) .. 13 (king); games map it to their own orders and values."""

    rank: int
    suit: Suit

    def __post_init__(self) -> None:
        if not 1 <= self.rank <= 13:
            raise CardError(f"rank must be 1..13, got {self.rank}")

    @classmethod
    def parse(cls, text: str) -> Card:
        if not isinstance(text, str):
            raise CardError(f"card must be text like 'QS', got {text!r}")
        cleaned = text.strip().upper()
        if len(cleaned) < 2:
            raise CardError(f"not a card: {text!r} (expected rank then suit, e.g. 10H, QS)")
        rank_text, suit_text = cleaned[:-1], cleaned[-1]
        suit = _SUIT_BY_TEXT.get(suit_text)
        rank = _RANK_BY_TEXT.get(rank_text)
        if suit is None:
            raise CardError(f"not a card: {text!r} (unknown suit {suit_text!r}; use S H D C)")
        if rank is None:
            raise CardError(f"not a card: {text!r} (unknown rank {rank_text!r}; use A 2..10 J Q K)")
        return cls(rank, suit)

    @property
    def rank_name(self) -> str:
        return RANK_NAMES[self.rank - 1]

    @property
    def index(self) -> int:
        """0..51, suit-major: a compact key for tables and bit masks."""
        return SUITS.index(self.suit) * 13 + self.rank - 1

    @classmethod
    def from_index(cls, index: int) -> Card:
        return cls(index % 13 + 1, SUITS[index // 13])

    def __str__(self) -> str:
        return f"{self.rank_name}{self.suit.value}"

    def __repr__(self) -> str:
        return f"Card({self})"


def parse_cards(texts: Iterable[str]) -> list[Card]:
    return [Card.parse(t) for t in texts]


def format_cards(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def full_deck() -> list[Card]:
    """The 52-card French deck (cribbage, femkort)."""
    return [Card(rank, suit) for suit in SUITS for rank in range(1, 14)]


def piquet_deck() -> list[Card]:
    """The 32-card deck, 7..10 J Q K A in four suits (Färbeln)."""
    return [Card(rank, suit) for suit in SUITS for rank in (1, 7, 8, 9, 10, 11, 12, 13)]
