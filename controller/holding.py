"""The cards one seat (or the crib) holds when some were dealt face down and not read."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .cards import Card


@dataclass
class Holding:
    """The known cards, and how many unread ones: an unread card becomes known when it is laid or shown."""

    known: list[Card] = field(default_factory=list)
    unknown: int = 0

    @property
    def size(self) -> int:
        return len(self.known) + self.unknown

    def add(self, card: Card | None) -> None:
        if card is None:
            self.unknown += 1
        else:
            self.known.append(card)

    def to_json(self) -> dict[str, Any]:
        """For the dealer's view: the cards read, and how many were not."""
        return {"known": [str(card) for card in self.known], "unread": self.unknown}

    def take(self, card: Card | None) -> None:
        """Remove a card the caller has validated: a known one, or (None, or not known) one of the unread ones."""
        if card is not None and card in self.known:
            self.known.remove(card)
        else:
            self.unknown -= 1
