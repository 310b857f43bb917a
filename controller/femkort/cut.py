"""FK-R4: the first dealer is found by cutting; the highest card deals (ace high, suits equal).

The engine starts from the header's `dealer`; the table session uses this to find that seat.
"""
from __future__ import annotations

from typing import Mapping

from ..cards import Card, highest_seats
from .tricks import rank_value


def cut_for_deal(cuts: Mapping[int, Card]) -> int | tuple[int, ...]:
    """The seat that deals, or (GAP-FK-1) the tied seats, who cut again among themselves."""
    if not cuts:
        raise ValueError("nobody cut")
    tied = tuple(highest_seats(cuts, rank_value))
    return tied[0] if len(tied) == 1 else tied
