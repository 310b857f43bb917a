"""The card model: ranks, suits, cards and decks, with the hand-history card notation.

Input accepts `10H`, `TH`, `10♥` (also with the emoji variation selector a phone adds, `10♥️`) and lower case;
output is always canonical (`10H`, `QS`).
"""
from __future__ import annotations

import functools
from enum import Enum
from typing import Callable, Iterable, Mapping

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


@functools.total_ordering
class Card:
    """A playing card. `rank` is 1 (ace) .. 13 (king); games map it to their own orders and values.

    The 52 cards are interned: `Card(5, Suit.HEARTS)` always returns the same object, so equality and
    hashing are identity checks at C speed — the engines compare and hash cards on every event.
    """

    __slots__ = ("rank", "suit", "index", "text")
    rank: int
    suit: Suit
    index: int  # 0..51, suit-major: a compact key for tables and bit masks
    text: str  # the canonical notation, made once: effects name cards on every event

    def __new__(cls, rank: int, suit: Suit) -> Card:
        card = _INTERNED.get((rank, suit))
        if card is None:
            raise CardError(f"no such card: rank {rank!r}, suit {suit!r} (rank 1..13, a Suit)")
        return card

    @classmethod
    def _create(cls, rank: int, suit: Suit) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "index", SUITS.index(suit) * 13 + rank - 1)
        object.__setattr__(card, "text", f"{RANK_NAMES[rank - 1]}{suit.value}")
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    # Copies and pickles resolve to the interned card, keeping identity equality valid.
    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_index, (self.index,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        return self

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return (self.rank, self.index) < (other.rank, other.index)

    @classmethod
    def parse(cls, text: str) -> Card:
        try:
            return _PARSED[text]  # a text seen before: one dict lookup on the hot path
        except (KeyError, TypeError):  # first sight of this text, or not a string at all (unhashable)
            pass
        if not isinstance(text, str):
            raise CardError(f"card must be text like 'QS', got {text!r}")
        card = _parse_text(text)
        if len(text) <= 3:  # only plain spellings ("10H", "th", "Q♠"): a finite set, so the cache stays small
            _PARSED[text] = card
        return card

    @property
    def rank_name(self) -> str:
        return RANK_NAMES[self.rank - 1]

    @classmethod
    def from_index(cls, index: int) -> Card:
        return _BY_INDEX[index]

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card({self})"


# Variation selectors: a phone's keyboard types ♥ as "♥\ufe0f" (the emoji form of the same symbol).
_VARIATION_SELECTORS = str.maketrans("", "", "\ufe0e\ufe0f")


def _parse_text(text: str) -> Card:
    cleaned = text.strip().translate(_VARIATION_SELECTORS).upper()
    if len(cleaned) < 2:
        raise CardError(f"not a card: {text!r} (expected rank then suit, e.g. 10H, QS)")
    rank_text, suit_text = cleaned[:-1], cleaned[-1]
    suit = _SUIT_BY_TEXT.get(suit_text)
    rank = _RANK_BY_TEXT.get(rank_text)
    if suit is None:
        raise CardError(f"not a card: {text!r} (unknown suit {suit_text!r}; use S H D C)")
    if rank is None:
        raise CardError(f"not a card: {text!r} (unknown rank {rank_text!r}; use A 2..10 J Q K)")
    return Card(rank, suit)


_BY_INDEX: tuple[Card, ...] = tuple(Card._create(i % 13 + 1, SUITS[i // 13]) for i in range(52))
_INTERNED: dict[tuple[int, Suit], Card] = {(c.rank, c.suit): c for c in _BY_INDEX}
# Plain card texts seen so far (a small, finite set): parsing on the hot path is one dict lookup.
_PARSED: dict[str, Card] = {}


def parse_cards(texts: Iterable[str]) -> list[Card]:
    return [Card.parse(t) for t in texts]


def format_cards(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def full_deck() -> list[Card]:
    """The 52-card French deck (cribbage, femkort)."""
    return list(_BY_INDEX)


def piquet_deck() -> list[Card]:
    """The 32-card deck, 7..10 J Q K A in four suits (Färbeln)."""
    return [Card(rank, suit) for suit in SUITS for rank in (1, 7, 8, 9, 10, 11, 12, 13)]


def highest_seats(drawn: Mapping[int, Card], strength: Callable[[Card], int]) -> list[int]:
    """Cutting or drawing for the deal: the seats holding the highest card by `strength`, in seat order
    (more than one on a tie, who then cut or draw again)."""
    top = max(strength(card) for card in drawn.values())
    return sorted(seat for seat, card in drawn.items() if strength(card) == top)
