"""What the camera shows now, zone by zone: the face-up cards, the face-down count, the unreadable count."""
from __future__ import annotations

from dataclasses import dataclass, field

from vision.observations import is_seat_zone, seat_of

from ..cards import Card
from .inputs import READER, UNKNOWN


def zone_seat(zone: str) -> int | None:
    """The 0-based seat of a seat zone, None for the shared zones."""
    return seat_of(zone) if is_seat_zone(zone) else None


@dataclass
class TablePicture:
    faces: dict[str, list[str]] = field(default_factory=dict)  # face-up card names ("unknown" too), in arrival order
    face_down: dict[str, int] = field(default_factory=dict)
    unreadable: dict[str, int] = field(default_factory=dict)

    def place(self, card: str, zone: str) -> None:
        self.faces.setdefault(zone, []).append(card)

    def remove(self, card: str, zone: str) -> bool:
        """Take a card out of a zone; False when the picture did not have it there."""
        cards = self.faces.get(zone, [])
        if card not in cards:
            return False
        cards.remove(card)
        return True

    def cards(self, zone: str) -> list[Card]:
        """The named face-up cards of a zone."""
        return [Card.parse(name) for name in self.faces.get(zone, []) if name != UNKNOWN]

    def face_up(self) -> set[Card]:
        """Every named card face up on the table (the deal reader's slot is not the table)."""
        return {card for zone in self.faces if zone != READER for card in self.cards(zone)}
