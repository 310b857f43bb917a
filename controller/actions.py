"""Building blocks of the engines' `legal_actions()` lists: one event per card, amount or card subset.

The lists follow one convention in all three games. A card an event may name is listed card by card
(a deal: `null` and every unseen card; a play: every card that may be laid, unread ones included). Where an
event names cards from a hand holding unread cards (a discard, a buy, an expose, a reveal), each unread
card is listed as `null`: the event accepts it so, or, where a name is needed (expose, reveal), it stands
for any unseen card.
"""
from __future__ import annotations

from itertools import combinations
from typing import Any, Iterable, Sequence

from .cards import Card
from .engine import Event


def per_card(event: Event, cards: Iterable[Card | None], field: str = "card") -> list[Event]:
    """`event` once for each card, the card (or `null`) in `field`."""
    return [{**event, field: None if card is None else str(card)} for card in cards]


def per_amount(event: Event, low: int, high: int) -> list[Event]:
    """`event` once for each amount from `low` to `high` inclusive."""
    return [{**event, "amount": amount} for amount in range(low, high + 1)]


def card_subsets(known: Sequence[Card], unread: int, size: int) -> list[list[str | None]]:
    """Every choice of `size` cards from a hand of `known` cards and `unread` unnamed ones (`null`)."""
    choices: list[list[str | None]] = []
    for nulls in range(min(unread, size) + 1):
        for named in combinations(known, size - nulls):
            choices.append([str(card) for card in named] + [None] * nulls)
    return choices


def per_subset(event: Event, field: str, subsets: Iterable[list[Any]]) -> list[Event]:
    return [{**event, field: subset} for subset in subsets]


def new_hand_actions(dealer: int) -> list[Event]:
    """`new_hand`, plain and with its optional assertion of who deals next."""
    return [{"type": "new_hand"}, {"type": "new_hand", "dealer": dealer}]
