"""Show scoring (CR-11, CR-12): the total and the breakdown players and spectators see."""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any, Sequence

from ..cards import Card

JACK = 11


def count_value(card: Card) -> int:
    """CR-2: A = 1, 2..10 face value, J Q K = 10."""
    return min(card.rank, 10)


@dataclass(frozen=True)
class ShowPart:
    reason: str  # fifteen | pair | run | flush | nobs
    cards: tuple[Card, ...]
    points: int

    def to_json(self) -> dict[str, Any]:
        return {"reason": self.reason, "points": self.points, "cards": [str(c) for c in self.cards]}


@dataclass(frozen=True)
class ShowScore:
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
    return [ShowPart("fifteen", combo, 2)
            for size in range(2, len(cards) + 1)
            for combo in combinations(cards, size)
            if sum(count_value(c) for c in combo) == 15]


def _pairs(cards: tuple[Card, ...]) -> list[ShowPart]:
    return [ShowPart("pair", (a, b), 2) for a, b in combinations(cards, 2) if a.rank == b.rank]


def _runs(cards: tuple[Card, ...]) -> list[ShowPart]:
    """Every combination making the longest run; shorter runs inside it do not count again."""
    ordered = sorted(cards, key=lambda c: c.rank)
    for size in range(len(cards), 2, -1):
        runs = [ShowPart("run", combo, size) for combo in combinations(ordered, size) if _is_run(combo)]
        if runs:
            return runs
    return []


def _is_run(ordered_cards: tuple[Card, ...]) -> bool:
    ranks = [c.rank for c in ordered_cards]
    return all(b - a == 1 for a, b in zip(ranks, ranks[1:]))


def _flush(hand: Sequence[Card], starter: Card, crib: bool) -> list[ShowPart]:
    """All hand cards of one suit; the crib only with the starter too. The starter never completes one."""
    if len({c.suit for c in hand}) != 1:
        return []
    if starter.suit == hand[0].suit:
        return [ShowPart("flush", (*hand, starter), len(hand) + 1)]
    return [] if crib else [ShowPart("flush", tuple(hand), len(hand))]


def _nobs(hand: Sequence[Card], starter: Card) -> list[ShowPart]:
    return [ShowPart("nobs", (c,), 1) for c in hand if c.rank == JACK and c.suit == starter.suit]
