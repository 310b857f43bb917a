"""The simulated table as the table service senses it: card moves made on the physical table, rendered
and read by the real vision (the overhead camera, and the deal reader in an open deal); button presses
and console entries as they are; every input as its table-log line, timed by the camera's frames.
"""
from __future__ import annotations

import random
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from controller.simulation.scene.actions import Action, Console, Lay, Press, Read, TurnUp
from controller.simulation.scene.camera import TableCamera
from controller.simulation.scene.table import PhysicalTable, ZoneBox, seats_fit
from vision.synthetic import PlacedCard, SceneStyle
from vision.watch import SYNTHETIC_STYLE
from vision.observations import READER, UNKNOWN_CARD, CardPlaced, TableChange, observation_to_json

FPS = 15.0  # the camera's frame rate: the table log's clock
NUDGES = 3  # how often a player straightens a card the table did not read before giving up
READER_STYLE = SceneStyle(size=(180, 220), card_width=100, tilt=0.0)  # a slot the size of one card
WIDE_STYLE = replace(SYNTHETIC_STYLE, size=(1280, 720))  # seven or eight players: the camera sees more table


@dataclass
class Sensed:
    """What one action made the table sense: the observations the cameras reported, the physical change
    they should have seen (the truth), and the table-log lines of it all."""

    seen: list[TableChange] = field(default_factory=list)
    truth: list[TableChange] = field(default_factory=list)
    lines: list[dict[str, Any]] = field(default_factory=list)


class DealReader:
    """The deal reader: a small camera at the dealer's place that sees each card dealt over it."""

    def __init__(self, reads: int, votes: int, seed: int = 0) -> None:
        w, h = READER_STYLE.size
        # each card lies a little off the slot's middle, drawn from the seed: a table of one seed reads alike
        self.slot = PhysicalTable({READER: ZoneBox(0, 0, w, h)}, READER_STYLE, random.Random(seed))
        self.camera: Camera = TableCamera(self.slot.calibration(), READER_STYLE, reads, votes, seed)  # or the service's

    def deal(self, card: str, sensed: Sensed) -> None:
        """`card` passes over the reader: it lies there until the camera has read it, then goes on (the next
        card laid on its place would hide it, and the tracker keeps a card hidden under another)."""
        for move in (self.slot.lay, self.slot.take):
            sensed.truth.extend(move(READER, card))
            sensed.seen.extend(self.camera.show(self.slot.scene()))


class Camera(Protocol):
    """The overhead camera as the stage uses it: a settled scene shown, what the table took in from it."""

    @property
    def frames(self) -> int: ...

    def show(self, scene: list[PlacedCard], glared: Collection[int] = ()) -> list[TableChange]: ...


class Stage:
    def __init__(self, table: PhysicalTable, camera: Camera, reader: DealReader | None = None) -> None:
        self.table, self.camera, self.reader = table, camera, reader

    @property
    def frames(self) -> int:
        """The frames both cameras took."""
        return self.camera.frames + (self.reader.camera.frames if self.reader else 0)

    @property
    def now(self) -> float:
        """Seconds since the table started, at FPS."""
        return round(self.frames / FPS, 3)

    def _until_seen(self, zone: str, cards: list[str], sensed: Sensed) -> None:
        """Cards turned or laid face up that the table did not take in (not read, or not seen at all):
        their player nudges them straight, as at a real table, a few times at most. A card under glare
        is taken in as unknown."""
        glared = set(self.table.glared_in(zone))
        for _ in range(NUDGES):
            missed = [card for card in cards
                      if CardPlaced(UNKNOWN_CARD if card in glared else card, zone) not in sensed.seen]
            if not missed:
                return
            for card in missed:
                self.table.nudge(zone, card)
            sensed.seen.extend(self.camera.show(self.table.scene(), self.table.glared()))

    def perform(self, action: Action) -> Sensed:
        sensed = Sensed()
        if isinstance(action, Press):
            sensed.lines.append({"t": self.now, "type": "button", "action": action.action, "seat": action.seat})
        elif isinstance(action, Console):
            sensed.lines.append({"t": self.now, "type": "console", **action.entry})
        elif isinstance(action, Read):
            if self.reader is None:
                raise ValueError("this table has no deal reader (a closed deal)")
            self.reader.deal(action.card, sensed)
        else:
            sensed.truth = self.table.make(action)
            sensed.seen = self.camera.show(self.table.scene(), self.table.glared())
            if isinstance(action, Lay) and action.face_up:
                self._until_seen(action.zone, [action.card], sensed)
            elif isinstance(action, TurnUp):
                self._until_seen(action.zone, [o.card for o in sensed.truth if isinstance(o, CardPlaced)], sensed)
        sensed.lines.extend(observation_to_json(self.now, obs) for obs in sensed.seen)
        return sensed


def table_style(seats: int) -> SceneStyle:
    """The camera look for `seats` players: `--source synthetic`'s, or a wider frame (the cards as large)
    for more players than it seats."""
    return SYNTHETIC_STYLE if seats_fit(SYNTHETIC_STYLE, seats) else WIDE_STYLE


def table_stage(seats: int, open_deal: bool, seed: int = 0, reads: int = 3) -> Stage:
    """The demo's table for `seats` players (controller.simulation.scene.table.table_layout) seen by the
    camera look of `cardtable vision watch --source synthetic` (a wider frame, the cards as large, when
    more players than it seats sit down); each settled scene read `reads` times, a card counted when seen
    in most of them; with the deal reader when `open_deal`."""
    style = table_style(seats)
    table = PhysicalTable.laid_out(style, seats, seed)
    votes = reads // 2 + 1
    camera = TableCamera(table.calibration(), style, reads, votes, seed)
    return Stage(table, camera, DealReader(reads, votes, seed) if open_deal else None)
