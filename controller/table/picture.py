"""What the camera shows now, zone by zone: the face-up cards, the face-down count, the unreadable count."""
from __future__ import annotations

from dataclasses import dataclass, field

from vision.observations import CardRemoved, is_seat_zone, seat_of

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
    # Cards the dealer named at the console, per zone, with what the camera still calls them ("unknown",
    # or its misreading): when the camera sees that card go, the named card is what leaves.
    named: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # zone -> [(seen as, named)]

    def place(self, card: str, zone: str) -> None:
        self.faces.setdefault(zone, []).append(card)

    def place_named(self, card: str, zone: str, seen_as: str) -> None:
        """A card the dealer named, lying where the camera saw `seen_as`."""
        self.place(card, zone)
        self.named.setdefault(zone, []).append((seen_as, card))

    def remove(self, card: str, zone: str) -> bool:
        """Take a card out of a zone; False when the picture did not have it there."""
        cards = self.faces.get(zone, [])
        if card not in cards:
            return False
        cards.remove(card)
        aliases = self.named.get(zone, [])
        for alias in aliases:
            if alias[1] == card:
                aliases.remove(alias)
                break
        return True

    def as_named(self, removed: CardRemoved) -> CardRemoved:
        """The card that leaves when the camera sees `removed` go: a dealer-named card the camera never
        read goes as its name (else the picture would keep it, and a later show in its zone list it)."""
        if removed.card in self.faces.get(removed.zone, []):
            return removed
        for seen_as, card in self.named.get(removed.zone, []):
            if seen_as == removed.card:
                return CardRemoved(card, removed.zone)
        return removed

    def cards(self, zone: str) -> list[Card]:
        """The named face-up cards of a zone."""
        return [Card.parse(name) for name in self.faces.get(zone, []) if name != UNKNOWN]

    def face_up(self) -> set[Card]:
        """Every named card face up on the table (the deal reader's slot is not the table)."""
        return {card for zone in self.faces if zone != READER for card in self.cards(zone)}
