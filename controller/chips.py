"""Chips for the pot games: balances per seat, the pot and the carry, moved only through `move`.

The total of balances, pot and carry never changes; `total` lets tests assert it after every event.
"""
from __future__ import annotations

from dataclasses import dataclass

from .engine import ChipMove, Effect

POT = "pot"
CARRY = "carry"
Place = int | str  # a seat index, POT or CARRY


class ChipError(ValueError):
    """A payment the payer cannot cover."""


@dataclass
class Chips:
    balances: list[int]
    pot: int = 0
    carry: int = 0

    @property
    def total(self) -> int:
        return sum(self.balances) + self.pot + self.carry

    def amount_at(self, place: Place) -> int:
        if place == POT:
            return self.pot
        if place == CARRY:
            return self.carry
        return self.balances[place]  # type: ignore[index]

    def move(self, source: Place, target: Place, amount: int, reason: str) -> list[Effect]:
        """Move `amount` chips; returns the effects for the seats involved (signed per seat)."""
        if amount < 0:
            raise ValueError("a chip movement is never negative; swap source and target")
        if self.amount_at(source) < amount:
            raise ChipError(f"{_name(source)} holds {self.amount_at(source)} chips, cannot pay {amount}")
        self._add(source, -amount)
        self._add(target, amount)
        effects: list[Effect] = []
        if isinstance(source, int):
            effects.append(ChipMove(source, -amount, reason))
        if isinstance(target, int):
            effects.append(ChipMove(target, amount, reason))
        return effects

    def _add(self, place: Place, amount: int) -> None:
        if place == POT:
            self.pot += amount
        elif place == CARRY:
            self.carry += amount
        else:
            self.balances[place] += amount  # type: ignore[index]


def _name(place: Place) -> str:
    return f"seat {place}" if isinstance(place, int) else f"the {place}"
