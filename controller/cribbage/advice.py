"""Discard advice: rank the 15 ways to keep 4 of 6 cards by expected show points.

hand EV: exact average of the kept four's show over the 46 starters not in your six cards.
crib EV: the expected crib for the two discarded cards from the shipped table (see crib_table for the
assumption: the opponent discards uniformly at random from the unseen cards). The dealer owns the
crib, so it is added; the pone's discard feeds the opponent's crib, so it is subtracted.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np

from ..cards import Card, CardError, SUITS, full_deck
from .crib_table import expected_crib
from .fast_score import show_totals

DEAL = 6
KEEP = 4


class AdviceError(ValueError):
    """The cards given cannot be a 6-card cribbage deal."""


@dataclass(frozen=True)
class KeepAdvice:
    keep: tuple[Card, ...]
    discard: tuple[Card, Card]
    hand_ev: float
    crib_ev: float   # expected points of the crib these discards go to (always >= 0)
    net: float       # hand_ev + crib_ev when dealing, hand_ev - crib_ev as pone

    def to_json(self) -> dict[str, Any]:
        return {"keep": [str(c) for c in self.keep], "discard": [str(c) for c in self.discard],
                "hand_ev": self.hand_ev, "crib_ev": self.crib_ev, "net": self.net}


def parse_deal(texts: Sequence[str]) -> list[Card]:
    """Six distinct cards from text; AdviceError says what is wrong."""
    if len(texts) != DEAL:
        raise AdviceError(f"need exactly {DEAL} cards, got {len(texts)}")
    try:
        cards = [Card.parse(t) for t in texts]
    except CardError as error:
        raise AdviceError(str(error)) from error
    _check_distinct(cards)
    return cards


def _check_distinct(cards: Sequence[Card]) -> None:
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise AdviceError(f"card {card} appears twice")
        seen.add(card)


def _hand_evs(six: Sequence[Card], keeps: list[tuple[int, ...]]) -> np.ndarray:
    """Mean show of each keep over the 46 starters, all 15 x 46 hands scored in one vector call."""
    starters = [c for c in full_deck() if c not in six]
    ranks = np.array([c.rank for c in six], dtype=np.int64)
    suits = np.array([SUITS.index(c.suit) for c in six], dtype=np.int64)
    starter_ranks = np.array([c.rank for c in starters], dtype=np.int64)
    starter_suits = np.array([SUITS.index(c.suit) for c in starters], dtype=np.int64)
    keep_index = np.array(keeps)                                   # (15, 4)
    shape = (len(keeps), len(starters), KEEP)
    hand_ranks = np.broadcast_to(ranks[keep_index][:, None, :], shape)
    hand_suits = np.broadcast_to(suits[keep_index][:, None, :], shape)
    starter_shape = (len(keeps), len(starters), 1)
    all_ranks = np.concatenate([hand_ranks, np.broadcast_to(starter_ranks[None, :, None], starter_shape)], 2)
    all_suits = np.concatenate([hand_suits, np.broadcast_to(starter_suits[None, :, None], starter_shape)], 2)
    totals = show_totals(all_ranks.reshape(-1, KEEP + 1), all_suits.reshape(-1, KEEP + 1))
    return totals.reshape(len(keeps), len(starters)).mean(axis=1)


def advise(six_cards: Sequence[Card], dealer: bool) -> list[KeepAdvice]:
    """All 15 keeps, best net expected points first (ties keep the deal order)."""
    if len(six_cards) != DEAL:
        raise AdviceError(f"need exactly {DEAL} cards, got {len(six_cards)}")
    _check_distinct(six_cards)
    keeps = list(combinations(range(DEAL), KEEP))
    hand_evs = _hand_evs(six_cards, keeps)
    sign = 1.0 if dealer else -1.0
    advice = []
    for keep, hand_ev in zip(keeps, hand_evs.tolist()):
        first, second = (six_cards[i] for i in range(DEAL) if i not in keep)
        crib_ev = expected_crib(first.rank, second.rank, first.suit is second.suit)
        advice.append(KeepAdvice(tuple(six_cards[i] for i in keep), (first, second),
                                 hand_ev, crib_ev, hand_ev + sign * crib_ev))
    return sorted(advice, key=lambda a: -a.net)
