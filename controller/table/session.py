"""The table session: what the table senses, one input at a time, becomes judged hand-history events.

Pure: no threads, no clock, no I/O. `feed(input) -> Step` with the events judged (as `cardtable replay`
reports them), the hold the table now waits on, and the outputs (sound, light, peg board, panel notice)
derived from the engine. The per-game mappers (cribbage.py, femkort.py, ferbli.py) say which events an
input means; the engine judges every one; this module keeps the camera's picture of the table, the
holds, UNDO and the games of a match.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable

from vision.observations import CameraStatus, CardPlaced, CardRemoved, DuplicateCard, FaceDownCount, UnknownCards

from ..cards import Card
from ..engine import Engine, Event, IllegalEvent, Judged
from ..games import new_game
from ..history import Header
from ..replay import judge
from .holds import Hold
from .inputs import READER, UNKNOWN, Button, ConsoleEvent, ConsoleUndo, Relay, Resolve, TableInput
from .mapping import GameMapper, Unfit
from .outputs import Outputs, derive_outputs
from .picture import TablePicture, zone_seat

DEALS = ("closed", "open")
HAND_STARTS = ("new_hand", "misdeal")  # events after which a new hand's cards are dealt


@dataclass
class PlayedGame:
    """One game of the match: how it started and its accepted events (less those undone)."""

    setup: Header
    events: list[Event] = field(default_factory=list)


@dataclass
class Step:
    """What one input did: the events judged (with the engine's typed effects), the hold now, and what
    the table shows."""

    judged: list[Judged]
    hold: Hold | None
    outputs: Outputs

    @property
    def events(self) -> list[dict[str, Any]]:
        """The events judged as JSON, each {"event", "ok", "effects" | "error"}, as replay reports them."""
        return [judged.to_json() for judged in self.judged]

    @property
    def accepted(self) -> list[Event]:
        return [judged.event for judged in self.judged if judged.ok]

    def to_json(self, number: int) -> dict[str, Any]:
        return {"n": number, "events": self.events, "hold": None if self.hold is None else self.hold.to_json()}


class TableSession:
    engine: Engine  # the current game's, rebuilt without the undone event on UNDO
    mapper: GameMapper

    def __init__(self, setup: Header, deal: str = "closed") -> None:
        if deal not in DEALS:
            raise ValueError(f"deal must be \"closed\" or \"open\", not {deal!r}")
        self.deal = deal
        self.games: list[PlayedGame] = []
        self.table = TablePicture()
        self.hold: Hold | None = None
        self._waiting: list[TableInput] = []  # inputs that came while on hold, judged once it is resolved
        self._judged: list[Judged] = []  # what the input being fed made
        self._refused_press: str | None = None
        self._notice: str | None = None
        self._start_game(setup)

    # ----- what a mapper may look at -------------------------------------------------------------

    @property
    def open_deal(self) -> bool:
        return self.deal == "open"

    @property
    def setup(self) -> Header:
        return self.games[-1].setup

    @property
    def history(self) -> list[Event]:
        """The current game's accepted events, less those undone."""
        return self.games[-1].events

    def hand_events(self) -> list[Event]:
        events = self.history
        starts = [i for i, event in enumerate(events) if event.get("type") in HAND_STARTS]
        return events[starts[-1] + 1:] if starts else list(events)

    # ----- feeding -------------------------------------------------------------------------------

    def feed(self, item: TableInput) -> Step:
        self._judged, self._refused_press, self._notice = [], None, None
        won_before = self.engine.game_over
        if isinstance(item, CardRemoved):
            item = self.table.as_named(item)
        if self.hold is None:
            self._handle(item)
        else:
            self._while_held(item)
        effects = [effect for judged in self._judged for effect in judged.effects]
        outputs = derive_outputs(self.mapper.board(), self._judged, self.hold, self.mapper.fanfare(effects),
                                 self._refused_press, self._notice, self.engine.game_over and not won_before,
                                 secret=isinstance(item, CardPlaced) and item.zone == READER)
        return Step(self._judged, self.hold, outputs)

    def _handle(self, item: TableInput) -> None:
        handler = _HANDLERS.get(type(item))
        assert handler is not None, f"not a table input: {item!r}"
        handler(self, item)

    def _while_held(self, item: TableInput) -> None:
        """Only what resolves the hold is judged now; everything else waits, in order, for it to end."""
        hold = self.hold
        assert hold is not None
        if isinstance(item, ConsoleUndo) or (isinstance(item, Button) and item.action == "undo"):
            self._notice = f"resolve the hold first ({hold.describe()})"
            return
        if isinstance(item, Resolve) and hold.reason != "camera":
            self.hold = None
            self._resolve(hold, item.card)
        elif isinstance(item, Relay) and hold.reason in ("unknown", "duplicate"):
            self.hold = None
            if hold.zone is not None and hold.reason == "unknown":
                self.table.remove(UNKNOWN, hold.zone)
        elif hold.dealt_unread(item):
            self.hold = replace(hold, dealt_on=True)  # the deal waits for its name
            self._queue(item)
            return
        elif hold.resolved_by(item):
            self.hold = None
            if hold.reason == "unknown" and isinstance(item, CardPlaced):
                self.table.remove(UNKNOWN, item.zone)  # the re-laid card, read this time
            self._handle(item)
        else:
            self._queue(item)
            return
        self._run_waiting()

    def _queue(self, item: TableInput) -> None:
        """A card placed and taken away again during a hold never happened, as far as the game goes."""
        if isinstance(item, CardRemoved):
            placed = CardPlaced(item.card, item.zone)
            if placed in self._waiting:
                self._waiting.remove(placed)
                return
        self._waiting.append(item)

    def _run_waiting(self) -> None:
        while self._waiting and self.hold is None:
            item = self._waiting.pop(0)
            if isinstance(item, CardRemoved):
                item = self.table.as_named(item)  # the dealer may have named it while it waited
            self._handle(item)

    def _resolve(self, hold: Hold, card: Card) -> None:
        """The dealer named the held card: it is judged as if the camera had read it so."""
        zone = hold.zone
        assert zone is not None
        old = hold.card if hold.card is not None else UNKNOWN
        self.table.remove(old, zone)
        self._placed(CardPlaced(str(card), zone), seen_as=old)

    # ----- camera --------------------------------------------------------------------------------

    def _placed(self, item: CardPlaced, seen_as: str | None = None) -> None:
        """A card laid face up; `seen_as` what the camera calls it when the dealer named it."""
        if seen_as is None:
            self.table.place(item.card, item.zone)
        else:
            self.table.place_named(item.card, item.zone, seen_as)
        if self.engine.game_over:
            return  # shown, not scored
        if item.card == UNKNOWN:
            if item.zone == READER or self.mapper.watches(item.zone):
                self.hold = Hold("unknown", zone=item.zone, seat=zone_seat(item.zone))
            return
        card = Card.parse(item.card)
        reading = self.mapper.dealt(card) if item.zone == READER else self.mapper.placed(card, item.zone)
        if isinstance(reading, Unfit):
            self.hold = Hold("misplaced", zone=item.zone, card=item.card, seat=zone_seat(item.zone),
                             error=reading.reason)
            return
        error = self._judge(reading)
        if error is not None:
            self.hold = Hold("refused", zone=item.zone, card=item.card, seat=zone_seat(item.zone), error=error)

    def _removed(self, item: CardRemoved) -> None:
        self.table.remove(item.card, item.zone)
        if item.card != UNKNOWN and item.zone != READER and not self.engine.game_over:
            self._judge(self.mapper.removed(Card.parse(item.card), item.zone))

    def _face_down(self, item: FaceDownCount) -> None:
        before = self.table.face_down.get(item.zone, 0)
        self.table.face_down[item.zone] = item.count
        if self.engine.game_over or item.count == before:
            return
        error = self._judge(self.mapper.face_down(item.zone, before))
        if error is not None and item.count > before:
            self.hold = Hold("refused", zone=item.zone, seat=zone_seat(item.zone), error=error, below=item.count)

    def _unknown(self, item: UnknownCards) -> None:
        before = self.table.unreadable.get(item.zone, 0)
        self.table.unreadable[item.zone] = item.count
        if item.count > before and not self.engine.game_over and self.mapper.watches(item.zone):
            self.hold = Hold("unknown", zone=item.zone, seat=zone_seat(item.zone), count=item.count)

    def _duplicate(self, item: DuplicateCard) -> None:
        if not self.engine.game_over:
            self.hold = Hold("duplicate", zone=item.zones[-1], card=item.card, zones=item.zones)

    def _camera(self, item: CameraStatus) -> None:
        if item.status == "offline" and not self.engine.game_over:
            self.hold = Hold("camera", error="the camera is offline: nothing it misses is guessed")

    # ----- buttons and console -------------------------------------------------------------------

    def _button(self, item: Button) -> None:
        if item.action == "undo":
            self._undo()
            return
        if self.engine.game_over:
            if item.action == "next":
                self._next_game()
            else:
                self._refused_press = "the game is over"
            return
        events = self.mapper.next() if item.action == "next" else self.mapper.button(item.action, item.seat or 0)
        if events is None:
            self._refused_press = f"{item.action.upper()} means nothing now"
            return
        self._judge(events)

    def _console(self, item: ConsoleEvent) -> None:
        """A console entry the engine refuses changes nothing and holds nothing."""
        self._judge([self.mapper.console(dict(item.event))])

    def _console_undo(self, item: ConsoleUndo) -> None:
        self._undo()

    def _unheld(self, item: Resolve | Relay) -> None:
        self._notice = "nothing is held"

    # ----- judging, undo, the next game ----------------------------------------------------------

    def _judge(self, events: list[Event]) -> str | None:
        """Each event to the engine in turn; returns the reason of the first refused one (the rest are
        dropped). After accepted events, what the table already shows may be due."""
        while events:
            for event in events:
                try:
                    effects = judge(self.engine, self.setup.game, event)
                except IllegalEvent as error:
                    self._judged.append(Judged(event, error=str(error)))
                    return str(error)
                self.history.append(event)
                self._judged.append(Judged(event, tuple(effects)))
            events = [] if self.engine.game_over else self.mapper.due()
        return None

    def _undo(self) -> None:
        if not self.history:
            self._notice = "nothing to undo"
            return
        undone = self.history.pop()
        self.engine = replayed(self.setup, self.history)
        self._notice = f"the last {undone['type']} was undone"

    def _next_game(self) -> None:
        """NEXT once the game is won: the next game of the match, dealt first by the next seat."""
        setup = self.setup
        self._start_game(replace(setup, dealer=(setup.dealer + 1) % len(setup.players)))

    def _start_game(self, setup: Header) -> None:
        self.games.append(PlayedGame(setup))
        self.engine = new_game(setup)
        self.mapper = MAPPERS[setup.game](self)

    # ----- the dealer's view ---------------------------------------------------------------------

    def possible_cards(self) -> list[Card]:
        """The cards the held card can be, most likely first: the held seat's read cards not yet seen
        elsewhere (open deal), then every other card nobody has seen this hand."""
        events = self.hand_events()
        shown = self.table.face_up() | {card for event in events if event.get("type") != "deal"
                                           for card in _named_cards(event)}
        seat = None if self.hold is None else self.hold.seat
        read = [card for event in events if event.get("type") == "deal" and event.get("seat") == seat
                for card in _named_cards(event)]
        likely = [card for card in read if card not in shown]
        dealt = {card for event in events if event.get("type") == "deal" for card in _named_cards(event)}
        return likely + [card for card in self.mapper.deck if card not in shown | dealt]

    def dealer_hold(self) -> dict[str, Any] | None:
        """The hold as the dealer console shows it: with the cards the held card can be."""
        if self.hold is None:
            return None
        return {**self.hold.to_json(), "possible": [str(card) for card in self.possible_cards()]}


def replayed(setup: Header, events: list[Event]) -> Engine:
    """A fresh engine that has judged `events` (accepted ones: a game's history)."""
    engine = new_game(setup)
    for event in events:
        engine.apply(event)
    return engine


def game_summary(game: PlayedGame) -> dict[str, Any]:
    return replayed(game.setup, game.events).summary()


def _named_cards(event: Event) -> list[Card]:
    """Every card an event names (a card, a card list, a deal's hands, a buy's discards)."""
    values: list[Any] = [event.get("card"), *event.get("cards", []), *event.get("discard", [])]
    for hand in event.get("hands", []):
        values += hand
    return [Card.parse(value) for value in values if isinstance(value, str)]


_HANDLERS: dict[type, Callable[[TableSession, Any], None]] = {
    CardPlaced: TableSession._placed, CardRemoved: TableSession._removed, FaceDownCount: TableSession._face_down,
    UnknownCards: TableSession._unknown, DuplicateCard: TableSession._duplicate, CameraStatus: TableSession._camera,
    Button: TableSession._button, ConsoleEvent: TableSession._console, ConsoleUndo: TableSession._console_undo,
    Resolve: TableSession._unheld, Relay: TableSession._unheld,
}


def _mappers() -> dict[str, Callable[[TableSession], GameMapper]]:
    from .cribbage import CribbageMapper
    from .femkort import FemkortMapper
    from .ferbli import FerbliMapper
    return {"cribbage": CribbageMapper, "femkort": FemkortMapper, "ferbli": FerbliMapper}


MAPPERS = _mappers()
