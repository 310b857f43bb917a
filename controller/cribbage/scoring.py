"""Show scoring (CR-11, CR-12): the total and the breakdown players and spectators see."""
from __future__ import annotations

import functools
from itertools import combinations, product
from typing import Any, NamedTuple, Sequence

from ..cards import Card

JACK = 11


def count_value(card: Card) -> int:
    """CR-2: A = 1, 2..10 face value, J Q K = 10."""
    return min(card.rank, 10)


class ShowPart(NamedTuple):  # a tuple: a show builds a dozen of these, on every count of every hand
    reason: str  # fifteen | pair | run | flush | nobs
    cards: tuple[Card, ...]
    points: int

    def to_json(self) -> dict[str, Any]:
        return {"reason": self.reason, "points": self.points, "cards": [str(c) for c in self.cards]}


class ShowScore(NamedTuple):
    total: int
    parts: tuple[ShowPart, ...]

    def points_for(self, reason: str) -> int:
        return sum(p.points for p in self.parts if p.reason == reason)


def score_show(hand: Sequence[Card], starter: Card, crib: bool = False) -> ShowScore:
    """Score a hand (4 cards, or 3 in five-card cribbage) or a crib with the starter.

    The breakdown lists every fifteen, pair, run, flush and nobs with its cards; parts sum to the total.
    """
    if len(set(hand) | {starter}) != len(hand) + 1:
        raise ValueError("a card appears twice in the hand and starter")
    cards = (*hand, starter)
    parts = [*_fifteens(cards), *_pairs(cards), *_runs(cards), *_flush(hand, starter, crib), *_nobs(hand, starter)]
    return ShowScore(sum(p.points for p in parts), tuple(parts))


def _fifteens(cards: tuple[Card, ...]) -> list[ShowPart]:
    masks = _fifteen_masks(tuple(min(c.rank, 10) for c in cards))
    return [ShowPart("fifteen", tuple(c for i, c in enumerate(cards) if mask >> i & 1), 2) for mask in masks]


@functools.lru_cache(maxsize=8192)
def _fifteen_masks(values: tuple[int, ...]) -> tuple[int, ...]:
    """Bit masks of the card subsets summing to 15; cached, since hands repeat their count values often."""
    # Subset sums by bit mask: each mask's sum extends the mask without its lowest card.
    sums = [0] * (1 << len(values))
    for mask in range(1, len(sums)):
        sums[mask] = sums[mask & (mask - 1)] + values[(mask & -mask).bit_length() - 1]
    return tuple(mask for mask, total in enumerate(sums) if total == 15 and mask & (mask - 1))


def _pairs(cards: tuple[Card, ...]) -> list[ShowPart]:
    return [ShowPart("pair", (a, b), 2) for a, b in combinations(cards, 2) if a.rank == b.rank]


def _runs(cards: tuple[Card, ...]) -> list[ShowPart]:
    """Every combination making the longest run; shorter runs inside it do not count again."""
    by_rank: dict[int, list[Card]] = {}
    for card in cards:
        by_rank.setdefault(card.rank, []).append(card)
    # With at most 5 cards only one sequence of 3+ distinct consecutive ranks can exist.
    for low in sorted(by_rank):
        if low - 1 in by_rank:
            continue
        high = low
        while high + 1 in by_rank:
            high += 1
        size = high - low + 1
        if size >= 3:
            return [ShowPart("run", combo, size) for combo in product(*(by_rank[r] for r in range(low, high + 1)))]
    return []


def _flush(hand: Sequence[Card], starter: Card, crib: bool) -> list[ShowPart]:
    """All hand cards of one suit; the crib only with the starter too. The starter never completes one."""
    if len({c.suit for c in hand}) != 1:
        return []
    if starter.suit == hand[0].suit:
        return [ShowPart("flush", (*hand, starter), len(hand) + 1)]
    return [] if crib else [ShowPart("flush", tuple(hand), len(hand))]


def _nobs(hand: Sequence[Card], starter: Card) -> list[ShowPart]:
    return [ShowPart("nobs", (c,), 1) for c in hand if c.rank == JACK and c.suit == starter.suit]
