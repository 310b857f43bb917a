"""The rank-only part of the show (fifteens, pairs, runs) for every multiset of ranks.

Fifteens, pairs and runs depend only on which ranks are present and how often, never on suits, so
they are computed once per rank multiset (1,820 of 4 cards, 6,175 of 5 cards, at most 4 of a rank)
instead of once per hand. The statistics, the fast scorer and the discard advice all look scores
up here; flush and nobs (the suit-dependent parts) are added by the callers.

A multiset is keyed by packing its 13 rank counts into 3 bits each: key = sum(8 ** (rank - 1)).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement

import numpy as np

RANKS = 13
MAX_OF_A_RANK = 4
# Key contribution of one card of rank r (1..13), index 0 unused so ranks index it directly.
RANK_KEY: tuple[int, ...] = (0, *(1 << (3 * i) for i in range(RANKS)))
# Counting value per rank index 0..12 (CR-2: A = 1, 2..10 face value, J Q K = 10).
_VALUES = np.minimum(np.arange(1, RANKS + 1), 10)
_BINOMIAL = np.array([[1, 0, 0, 0, 0, 0], [1, 1, 0, 0, 0, 0], [1, 2, 1, 0, 0, 0], [1, 3, 3, 1, 0, 0],
                      [1, 4, 6, 4, 1, 0], [1, 5, 10, 10, 5, 1]], dtype=np.int64)


@dataclass(frozen=True)
class RankTable:
    """All rank multisets of one size with their rank-only show points, rows sorted by key."""

    counts: np.ndarray     # (n, 13) int64: how many cards of each rank (index 0 = ace)
    keys: np.ndarray       # (n,) int64, ascending
    fifteens: np.ndarray   # (n,) points from fifteens
    pairs: np.ndarray      # (n,) points from pairs
    runs: np.ndarray       # (n,) points from runs

    @property
    def points(self) -> np.ndarray:
        return self.fifteens + self.pairs + self.runs

    def rows(self, keys: np.ndarray) -> np.ndarray:
        """Row index of each multiset key (vectorised lookup)."""
        return np.searchsorted(self.keys, keys)


def multiset_counts(size: int) -> np.ndarray:
    """Every multiset of `size` ranks with at most 4 of a rank, as an (n, 13) count matrix."""
    rows = []
    for combo in combinations_with_replacement(range(RANKS), size):
        row = [0] * RANKS
        for rank_index in combo:
            row[rank_index] += 1
        if max(row) <= MAX_OF_A_RANK:
            rows.append(row)
    return np.array(rows, dtype=np.int64)


def fifteen_points(counts: np.ndarray) -> np.ndarray:
    """2 per subset of cards summing to 15: the x^15 coefficient of prod_v (1 + x^v)^(cards of value v)."""
    by_value = np.zeros((len(counts), 11), dtype=np.int64)
    np.add.at(by_value.T, _VALUES, counts.T)  # J, Q, K fold into value 10
    ways = np.zeros((len(counts), 16), dtype=np.int64)  # ways[:, s]: subsets summing to s
    ways[:, 0] = 1
    for value in range(1, 11):
        n = by_value[:, value]
        grown = ways.copy()
        for k in range(1, min(5, 15 // value) + 1):
            grown[:, value * k:] += _BINOMIAL[n, k][:, None] * ways[:, :16 - value * k]
        ways = grown
    return 2 * ways[:, 15]


def pair_points(counts: np.ndarray) -> np.ndarray:
    """2 per pair of same-rank cards: n cards of a rank make n(n-1)/2 pairs."""
    return (counts * (counts - 1)).sum(axis=1)


def run_points(counts: np.ndarray) -> np.ndarray:
    """A maximal stretch of >= 3 consecutive present ranks scores its length once per card choice."""
    present = counts > 0
    padded = np.pad(present, ((0, 0), (1, 1)))  # absent sentinels left of ace and right of king
    points = np.zeros(len(counts), dtype=np.int64)
    for length in range(3, 6):
        for start in range(RANKS - length + 1):
            stretch = present[:, start:start + length].all(axis=1)
            maximal = stretch & ~padded[:, start] & ~padded[:, start + length + 1]
            combos = counts[:, start:start + length].prod(axis=1)
            points += np.where(maximal, length * combos, 0)
    return points


def build_table(size: int) -> RankTable:
    counts = multiset_counts(size)
    keys = counts @ np.array(RANK_KEY[1:], dtype=np.int64)
    order = np.argsort(keys)
    counts, keys = counts[order], keys[order]
    return RankTable(counts, keys, fifteen_points(counts), pair_points(counts), run_points(counts))


@cache
def rank_table(size: int) -> RankTable:
    """The table for 5 cards (4-card hand or crib + starter) or 4 cards (five-card cribbage hand)."""
    if size not in (4, 5):
        raise ValueError(f"show hands have 4 or 5 cards with the starter, not {size}")
    return build_table(size)


@cache
def points_by_key() -> dict[int, int]:
    """Multiset key -> rank-only points, for scalar lookups (both sizes; keys never collide)."""
    lookup: dict[int, int] = {}
    for size in (4, 5):
        table = rank_table(size)
        lookup.update(zip(table.keys.tolist(), table.points.tolist()))
    return lookup
