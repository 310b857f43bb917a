"""Show totals without the breakdown, for bulk work (statistics, discard advice, benchmarks).

`scoring.score_show` builds the CR-12 breakdown players see; these functions give the same totals
from one rank-multiset lookup (fifteens + pairs + runs) plus the suit-dependent flush and nobs, so
they are cheap enough to score every starter for every keep. They trust their input (distinct
cards, a hand of 3 or 4): validate at the edges.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..cards import Card
from .rank_table import RANK_KEY, points_by_key, rank_table

JACK = 11
_RANK_KEYS = np.array(RANK_KEY, dtype=np.int64)


def score_show_total(hand: Sequence[Card], starter: Card, crib: bool = False) -> int:
    """The CR-11 show total of a hand (4 cards, or 3 in five-card cribbage) or crib with the starter."""
    key = RANK_KEY[starter.rank]
    first_suit = hand[0].suit
    flush = True
    nobs = 0
    for card in hand:
        key += RANK_KEY[card.rank]
        if card.suit is not first_suit:
            flush = False
        if card.rank == JACK and card.suit is starter.suit:
            nobs = 1
    total = points_by_key()[key] + nobs
    if flush:
        if starter.suit is first_suit:
            total += len(hand) + 1
        elif not crib:
            total += len(hand)
    return total


def show_totals(ranks: np.ndarray, suits: np.ndarray, crib: bool = False) -> np.ndarray:
    """Vectorised `score_show_total`: row i is a hand (all columns but the last) plus its starter.

    ranks: (n, 4 or 5) ints 1..13; suits: same shape, any consistent suit codes.
    """
    table = rank_table(ranks.shape[1])
    points = table.points[table.rows(_RANK_KEYS[ranks].sum(axis=1))]
    hand_ranks, hand_suits, starter_suit = ranks[:, :-1], suits[:, :-1], suits[:, -1:]
    nobs = ((hand_ranks == JACK) & (hand_suits == starter_suit)).any(axis=1)
    flush = (hand_suits == hand_suits[:, :1]).all(axis=1)
    with_starter = flush & (suits[:, -1] == suits[:, 0])
    hand_size = hand_ranks.shape[1]
    flush_points = np.where(with_starter, hand_size + 1, 0 if crib else np.where(flush, hand_size, 0))
    return points + nobs + flush_points
