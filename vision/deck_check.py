"""The deck check, as bridge dealing machines run a test deal: the dealer spreads the deck face up and the
table must read every card of the deck in play once and none twice. Otherwise it says what failed (cards
not read, read twice, seen but not read, not of this deck), so that the dealer can re-spread, enrol the
deck, or take the stray card out. Pure: card names in, verdict out.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from vision.deck import Deck
from vision.model import RANKS, SUITS
from vision.readings import UNKNOWN


@dataclass(frozen=True)
class DeckCheck:
    deck: Deck
    missing: tuple[str, ...]  # cards of the deck not read at all
    twice: tuple[tuple[str, int], ...]  # (card, times read) for cards read more than once
    unread: int  # cards seen but not named
    foreign: tuple[str, ...]  # named cards outside the deck (another deck's, or the 52's on a 32-card table)

    @property
    def passed(self) -> bool:
        return not (self.missing or self.twice or self.unread or self.foreign)

    def summary(self) -> str:
        size = self.deck.size
        if self.passed:
            return f"deck check passed: all {size} cards read once"
        parts = [f"not read: {', '.join(self.missing)}" if self.missing else "",
                 "read twice: " + ", ".join(f"{card} ({n} times)" for card, n in self.twice) if self.twice else "",
                 f"{self.unread} card{'s' * (self.unread != 1)} seen but not read" if self.unread else "",
                 f"not of the {size}-card deck: {', '.join(self.foreign)}" if self.foreign else ""]
        return (f"deck check failed ({size - len(self.missing)} of {size} read): " + "; ".join(p for p in parts if p)
                + ". Spread the cards apart and check again, or enrol the deck (cardtable vision enroll)")

    def to_json(self) -> dict[str, object]:
        return {"passed": self.passed, "deck": self.deck.name, "missing": list(self.missing),
                "twice": {card: n for card, n in self.twice}, "unread": self.unread, "foreign": list(self.foreign)}


def check_deck(cards: Iterable[str], deck: Deck) -> DeckCheck:
    """The verdict on one spread of the deck: `cards` are the names read (UNKNOWN for a card seen but not
    named), over all the frames the spread was photographed in (each card in one of them)."""
    read = Counter(cards)
    unread = read.pop(UNKNOWN, 0)
    in_deck = [r + s for s in SUITS for r in RANKS if r in deck.ranks]
    for card in read:
        if card[:-1] not in RANKS or card[-1:] not in SUITS:
            raise ValueError(f"not a card name: {card!r} (expected e.g. QS, 10H, or {UNKNOWN!r})")
    return DeckCheck(deck,
                     missing=tuple(c for c in in_deck if c not in read),
                     twice=tuple((c, read[c]) for c in in_deck if read[c] > 1),
                     unread=unread,
                     foreign=tuple(sorted(c for c in read if not deck.allows(c))))
