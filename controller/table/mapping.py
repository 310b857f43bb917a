"""What a game's mapper is: the table's moments of one game turned into that game's events.

The session keeps the table's picture, the holds, UNDO and the outputs; a mapper only says which events
an input means for its game, asking the engine what is due. It never judges: the engine does.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from ..cards import Card
from ..engine import Effect, Engine, Event
from ..hardware.buzzer import Sound
from ..pegboard.state import BoardState
from .picture import TablePicture, zone_seat


@dataclass(frozen=True)
class Unfit:
    """A card where no event of this game fits: the table holds until it is taken back."""

    reason: str


Reading = list[Event] | Unfit  # the events an input makes (often none yet), or why it fits nothing


def next_deal(engine: Engine, card: Card) -> list[Event]:
    """The deal of `card` to where the engine says the next card goes (a seat, or the three-hand crib
    once the seats are dealt); to the dealer when none is due, for the engine to refuse with its reason."""
    slots = [action for action in engine.legal_actions() if action["type"] == "deal" and "hands" not in action]
    slot = {key: value for key, value in slots[0].items() if key != "card"} if slots else \
        {"type": "deal", "seat": engine.dealer}
    return [{**slot, "card": str(card)}]


class TableView(Protocol):
    """What a mapper may look at: the engine, the table's picture, and the deal mode."""

    @property
    def engine(self) -> Engine: ...

    @property
    def table(self) -> TablePicture: ...

    @property
    def open_deal(self) -> bool: ...

    def hand_events(self) -> list[Event]:
        """The accepted events of the hand in progress."""
        ...


class GameMapper(Protocol):
    deck: list[Card]  # the cards in play, for the dealer's list of possible cards

    def watches(self, zone: str) -> bool:
        """Whether a card in this zone can make an event (an unreadable one there holds the table)."""
        ...

    def dealt(self, card: Card) -> list[Event]:
        """Open deal: the deal reader read the next card dealt."""
        ...

    def placed(self, card: Card, zone: str) -> Reading:
        """A card settled face up in a zone (the picture already shows it)."""
        ...

    def removed(self, card: Card, zone: str) -> list[Event]:
        ...

    def face_down(self, zone: str, before: int) -> list[Event]:
        """The zone's face-down count changed from `before` to what the picture shows."""
        ...

    def button(self, action: str, seat: int) -> list[Event] | None:
        """A seat's GO or CONFIRM; None when it means nothing now (a refused press)."""
        ...

    def next(self) -> list[Event] | None:
        """The dealer's NEXT; None when it means nothing now."""
        ...

    def console(self, event: Event) -> Event:
        """A console entry, completed from what the table saw where the console leaves a field out."""
        ...

    def due(self) -> list[Event]:
        """Events the table already shows once the engine is ready for them (a complete crib, a hand
        laid face up): asked after every accepted event."""
        ...

    def board(self) -> BoardState | None:
        """What the peg board shows now (None for games without one)."""
        ...

    def fanfare(self, effects: list[Effect]) -> list[Sound]:
        """Sounds an input's effects deserve beyond the common ones (a 29 hand)."""
        ...


GameT = TypeVar("GameT", bound=Engine)


class SeatMapper(Generic[GameT]):
    """What every game's mapper shares: the view it asks the engine through, the seat zones it watches,
    and a reader card going to whoever the engine says is dealt next."""

    def __init__(self, view: TableView) -> None:
        self.view = view

    @property
    def game(self) -> GameT:
        return self.view.engine  # type: ignore[return-value]  # the session builds each mapper for its game

    def watches(self, zone: str) -> bool:
        return zone_seat(zone) is not None

    def dealt(self, card: Card) -> list[Event]:
        return next_deal(self.game, card)
