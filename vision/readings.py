"""What the recognizer reports: an index reading (one corner index) and a card reading (a card, its quad and
the index readings it was named from), and what a card's corner readings say of it."""
from __future__ import annotations

from dataclasses import dataclass, field

from vision.glyphs import IndexCandidate

UNKNOWN = "unknown"


@dataclass(frozen=True)
class IndexReading:
    candidate: IndexCandidate
    card: str  # "QS" or UNKNOWN
    confidence: float  # probability of `card`; for UNKNOWN, of the best guess (below the threshold)
    # the suit verifier (suits.py) named another suit, or the rank verifier (ranks.py) another rank: `card` is
    # UNKNOWN, and so is its card, unless the suit the suit verifier sees is that of the card its other corners
    # name
    doubted: bool = False
    # an UNKNOWN reading's best guess, if the card's other corner may confirm it; a doubted reading's rank
    # with the suit the verifier sees (which may support the card its other corner names)
    guess: str | None = None


@dataclass
class CardReading:
    card: str
    confidence: float
    quad: list[list[float]]
    corners: list[IndexReading] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        return {"card": self.card, "confidence": round(self.confidence, 4),
                "quad": [[round(x, 1), round(y, 1)] for x, y in self.quad]}


def number_on_one_corner(card: CardReading) -> bool:
    """Is `card` a number card named so by one corner only?"""
    return card.card[:-1].isdigit() and corners_naming(card) < 2


def court_on_both_corners(card: CardReading) -> bool:
    """Is `card` a court or an ace, named so by two of its corners? (A number card read as a jack on one
    corner was bellot's; on two, none on the 32 designs.)"""
    return card.card[:-1] in ("J", "Q", "K", "A") and corners_naming(card) >= 2


def corners_naming(card: CardReading) -> int:
    """How many of `card`'s corner readings name it."""
    return sum(rd.card == card.card for rd in card.corners)


def either(*confidences: float) -> float:
    """The confidence of a card named alike by independent readings: 1 - the chance that all are wrong."""
    wrong = 1.0
    for c in confidences:
        wrong *= 1 - c
    return 1 - wrong

