"""Money rules of Färbeln, as pure functions: amount bounds, response rounds, side pots, who takes a pot.

Every live player who can still pay has paid the same amount after a completed response round (FB-R31);
a player who went all-in (table stakes, FB-R39) stays in with less and can win only the pots he reached.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

from ..engine import IllegalEvent
from .hands import HandValue
from .options import FerbliOptions


@dataclass
class Round:
    """One response round (FB-R13, R16, R21, R27): `reason` names the payment ("mus", "stake", ...)."""

    reason: str
    bettor: int
    queue: list[int]  # the seats still to answer, in order
    joined: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class SidePot:
    amount: int
    eligible: tuple[int, ...]  # live seats that paid up to this pot's level, in deal order


def clockwise_after(order: Sequence[int], seat: int) -> list[int]:
    """The seats of `order` (a clockwise deal order) starting after `seat` and ending before it."""
    at = order.index(seat)
    return [*order[at + 1:], *order[:at]]


def amount_range(options: FerbliOptions, balance: int) -> tuple[int, int] | None:
    """The stakes, bets and raises a seat may make (FB-R3), or None when it cannot make any.

    With all-in table stakes a seat short of `min` may still bet its whole balance (poker's all-in).
    """
    if options.all_in:
        return None if balance == 0 else (min(options.min, balance), min(options.max, balance))
    return None if balance < options.min else (options.min, min(options.max, balance))


def check_amount(options: FerbliOptions, seat: int, balance: int, amount: int) -> None:
    bounds = amount_range(options, balance)
    if bounds is None:
        raise IllegalEvent(f"seat {seat} holds {balance} chips, less than a stake can cost: it can only show")
    low, high = bounds
    if not low <= amount <= high:
        note = f" (seat {seat} holds {balance} chips)" if (low, high) != (options.min, options.max) else ""
        raise IllegalEvent(f"amount {amount} is outside [{low}, {high}]{note}")


def join_payment(options: FerbliOptions, seat: int, need: int, balance: int) -> int:
    """What joining costs: the amount due, or everything left when all-in; must_fold forbids the short join."""
    if balance >= need:
        return need
    if options.all_in:
        return balance
    raise IllegalEvent(f"seat {seat} holds {balance} chips, cannot pay {need}: it must fold")


def side_pots(committed: Sequence[int], live: Sequence[int]) -> list[SidePot]:
    """Split what was paid into the main pot and side pots by the live players' levels (poker rules)."""
    levels = sorted({committed[seat] for seat in live})
    pots: list[SidePot] = []
    floor = 0
    for index, top in enumerate(levels):
        # The last pot sweeps anything above it (a folded player can never have paid more than it).
        ceiling = max(committed) if index == len(levels) - 1 else top
        amount = sum(min(paid, ceiling) - min(paid, floor) for paid in committed)
        if amount:
            pots.append(SidePot(amount, tuple(seat for seat in live if committed[seat] >= top)))
        floor = top
    return pots


def pot_winner(pot: SidePot, values: Mapping[int, HandValue]) -> int | None:
    """The best hand among the eligible seats; ties go to the seat nearest the dealer's left (FB-R35),
    i.e. the first in deal order, which max() keeps. None when every eligible hand is worthless (FB-R37)."""
    if len(pot.eligible) == 1:
        return pot.eligible[0]
    best = max(pot.eligible, key=lambda seat: values[seat])
    return None if values[best].worthless else best
