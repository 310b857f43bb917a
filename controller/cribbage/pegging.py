"""Points in the play (CR-6..CR-8), as pure functions of the current series.

A *series* is the list of cards laid since the last reset, oldest first; combinations never span a reset,
so nothing here looks further back than the series.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..cards import Card
from .scoring import count_value

LIMIT = 31
FIFTEEN = 15


@dataclass(frozen=True)
class PegPart:
    reason: str  # fifteen | thirty_one | pair | run
    cards: tuple[Card, ...]
    points: int


def series_count(series: Sequence[Card]) -> int:
    return sum(count_value(c) for c in series)


def fits(card: Card, count: int) -> bool:
    """CR-6: the card may be laid without passing 31."""
    return count + count_value(card) <= LIMIT


def pair_length(series: Sequence[Card]) -> int:
    """How many cards of the last card's rank end the series in an unbroken row (1 = no pair)."""
    if not series:
        return 0
    rank = series[-1].rank
    length = 0
    for card in reversed(series):
        if card.rank != rank:
            break
        length += 1
    return length


def run_length(series: Sequence[Card]) -> int:
    """The longest k >= 3 such that the last k cards are k distinct consecutive ranks, else 0.

    Every k is checked, longest first: 4-2-5-3 is a run of 4 although 2-5-3 is none.
    """
    for k in range(len(series), 2, -1):
        ranks = {c.rank for c in series[-k:]}
        if len(ranks) == k and max(ranks) - min(ranks) == k - 1:
            return k
    return 0


def play_points(series: Sequence[Card], count: int | None = None) -> list[PegPart]:
    """What the player who laid `series[-1]` pegs for it (CR-8), go and last card excepted.

    `count` is the series' count when the caller keeps it already (the engine does, on every card)."""
    parts: list[PegPart] = []
    if count is None:
        count = series_count(series)
    if count == FIFTEEN:
        parts.append(PegPart("fifteen", tuple(series), 2))
    elif count == LIMIT:
        parts.append(PegPart("thirty_one", tuple(series), 2))
    pairs = pair_length(series)
    if pairs >= 2:
        # 2 cards: a pair (2); 3: pair royal (6); 4: double pair royal (12) = 2 points per pair of cards.
        parts.append(PegPart("pair", tuple(series[-pairs:]), pairs * (pairs - 1)))
    run = run_length(series)
    if run:
        parts.append(PegPart("run", tuple(series[-run:]), run))
    return parts
