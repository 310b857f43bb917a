"""The deck a table plays with. Vision knows no game, but the table session knows which deck is in play
(Färbeln's 32 cards, 7..A; the 52 of cribbage and Femkort), and a card outside it is never on the table:
a reading naming one is a misread (or a stray card of another deck), so the recognizer names no card
outside its deck; such a card is `unknown`.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.model import RANKS, SUITS


@dataclass(frozen=True)
class Deck:
    name: str
    ranks: frozenset[str]

    @property
    def full(self) -> bool:
        return self.ranks == frozenset(RANKS)

    @property
    def size(self) -> int:
        """How many cards the deck has: 52 or 32."""
        return len(self.ranks) * len(SUITS)

    def allows(self, card: str) -> bool:
        """Is `card` ("QS", "10H") one of this deck's?"""
        return card[:-1] in self.ranks

    def restrict(self, rank_p: np.ndarray) -> np.ndarray:
        """Rank probabilities (N, 14: RANKS then junk) with those of ranks outside the deck set to 0.

        Not spread over the deck's ranks: a glyph that looks like a 6 on a 32-card table is no likelier a
        9 for it (spread, a 6 read at 0.95 beside 9 at 0.04 would be named 9), so no reading's confidence
        rises and the threshold means what it was calibrated to. Nor counted as junk: it is still an index,
        of a card on the table that cannot be named, which the recognizer reports as unknown."""
        if self.full:
            return rank_p
        out = rank_p.copy()
        out[:, [i for i, r in enumerate(RANKS) if r not in self.ranks]] = 0.0
        return out


FULL_DECK = Deck("52", frozenset(RANKS))
PIQUET_DECK = Deck("32", frozenset(("7", "8", "9", "10", "J", "Q", "K", "A")))
DECKS = {d.name: d for d in (FULL_DECK, PIQUET_DECK)}


def deck_named(name: str) -> Deck:
    """`52` (A..K, cribbage and Femkort) or `32` (7..A, Färbeln); a ValueError naming the choices otherwise."""
    try:
        return DECKS[name]
    except KeyError:
        raise ValueError(f"unknown deck {name!r}: choose {' or '.join(DECKS)}") from None
