"""Exact distribution of show scores over all 12,994,800 (4 cards + starter) combinations.

Instead of scoring 13 million hands, the enumeration walks the 6,175 multisets of 5 ranks, and for
each the rank the starter has. Fifteens, pairs and runs come from the rank table; flush and nobs
depend only on suits and are counted exactly per (hand ranks, starter rank) with closed formulas:

* suit assignments T = prod_r C(4, hand cards of rank r) * (4 - hand cards of the starter's rank);
* nobs: the hand's j jacks hold a uniform j-subset of suits, independent of the starter's suit
  (different rank), so j/4 of the assignments score nobs (none when the starter is a jack);
* flush: only with 4 distinct hand ranks; 4 one-suit hands, then 1 starter suit matching (5-flush,
  impossible if the starter's rank is in the hand) and 3 not matching (4-flush, hands only).
  A 5-flush with a jack in hand always has nobs; a 4-flush never does.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import comb

import numpy as np

from .rank_table import RANKS, rank_table

MAX_SCORE = 29
JACK_INDEX = 10  # rank 11 at index 10
_SUITS = 4
_CHOOSE_SUITS = np.array([comb(_SUITS, n) for n in range(_SUITS + 1)], dtype=np.int64)


@dataclass(frozen=True)
class ShowHistogram:
    """How many (4 cards + starter) combinations score 0..29, with points per scoring component."""

    counts: tuple[int, ...]          # index = score 0..29
    component_points: dict[str, int]  # fifteens, pairs, runs, flush, nobs: points summed over all

    @property
    def combinations(self) -> int:
        return sum(self.counts)

    @property
    def total_points(self) -> int:
        return sum(score * n for score, n in enumerate(self.counts))

    @property
    def mean(self) -> float:
        return self.total_points / self.combinations


@dataclass(frozen=True)
class _SuitCounts:
    """Per (rank multiset, starter rank): suit assignments by flush/nobs outcome."""

    rows: np.ndarray        # rank-table row of the 5-rank multiset
    total: np.ndarray       # all suit assignments
    nobs: np.ndarray        # assignments with nobs (any flush state)
    flush5: np.ndarray      # hand + starter one suit
    flush4: np.ndarray      # hand one suit, starter not
    flush5_nobs: np.ndarray  # 5-flush holding the starter-suit jack


def _suit_counts() -> _SuitCounts:
    counts = rank_table(5).counts
    parts: list[tuple[np.ndarray, ...]] = []
    for starter in range(RANKS):
        rows = np.flatnonzero(counts[:, starter] > 0)
        hand = counts[rows].copy()
        hand[:, starter] -= 1
        same_rank = hand[:, starter]          # hand cards sharing the starter's rank
        jacks = hand[:, JACK_INDEX]
        total = _CHOOSE_SUITS[hand].prod(axis=1) * (_SUITS - same_rank)
        nobs = np.zeros_like(total) if starter == JACK_INDEX else total * jacks // _SUITS
        distinct = hand.max(axis=1) <= 1
        flush5 = np.where(distinct & (same_rank == 0), _SUITS, 0)
        flush4 = np.where(distinct, _SUITS * (_SUITS - 1), 0)
        flush5_nobs = np.where(jacks == 1, flush5, 0) if starter != JACK_INDEX else np.zeros_like(total)
        parts.append((rows, total, nobs, flush5, flush4, flush5_nobs))
    return _SuitCounts(*(np.concatenate(column) for column in zip(*parts)))


def _histogram(points: np.ndarray, outcomes: list[tuple[int, np.ndarray]]) -> tuple[int, ...]:
    """Histogram of points + bonus, each (bonus, number of combinations) outcome weighted."""
    counts = np.zeros(MAX_SCORE + 1, dtype=np.int64)
    for bonus, weight in outcomes:
        occurs = weight > 0  # e.g. no 4-flush for 5-5-5-J: 28 + 4 must not be counted
        np.add.at(counts, points[occurs] + bonus, weight[occurs])
    return tuple(counts.tolist())


def show_histograms() -> tuple[ShowHistogram, ShowHistogram]:
    """(hand, crib) score histograms over all C(52,4) x 48 combinations; nobs in, his heels out.

    A hand scores a 4-card flush (4, or 5 with the starter); a crib only the 5-card flush (5).
    """
    table = rank_table(5)
    s = _suit_counts()
    points = table.points[s.rows]
    nobs_only = s.nobs - s.flush5_nobs          # nobs never goes with a 4-flush
    flush5_plain = s.flush5 - s.flush5_nobs
    rank_parts = {name: int((getattr(table, name)[s.rows] * s.total).sum())
                  for name in ("fifteens", "pairs", "runs")}
    nobs_points = int(s.nobs.sum())

    hand_none = s.total - s.flush5 - s.flush4 - nobs_only
    hand = ShowHistogram(
        _histogram(points, [(0, hand_none), (1, nobs_only), (4, s.flush4), (5, flush5_plain),
                            (6, s.flush5_nobs)]),
        {**rank_parts, "flush": int((5 * s.flush5 + 4 * s.flush4).sum()), "nobs": nobs_points})
    crib_none = s.total - s.flush5 - nobs_only
    crib = ShowHistogram(
        _histogram(points, [(0, crib_none), (1, nobs_only), (5, flush5_plain), (6, s.flush5_nobs)]),
        {**rank_parts, "flush": int((5 * s.flush5).sum()), "nobs": nobs_points})
    return hand, crib
