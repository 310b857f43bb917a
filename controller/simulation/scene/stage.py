"""The simulated table as the table service senses it: card moves made on the physical table, rendered
and read by the real vision (the overhead camera, and the deal reader in an open deal); button presses
and console entries as they are; every input as its table-log line, timed by the camera's frames.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from controller.simulation.scene.actions import Action, Console, Press, Read
from controller.simulation.scene.camera import TableCamera
from controller.simulation.scene.table import PhysicalTable, ZoneBox
from vision.synthetic import SceneStyle
from vision.observations import READER, TableChange, observation_to_json

FPS = 15.0  # the camera's frame rate: the table log's clock
READER_STYLE = SceneStyle(size=(180, 220), card_width=100, tilt=0.0)  # a slot the size of one card


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
        self.slot = PhysicalTable({READER: ZoneBox(0, 0, w, h)}, READER_STYLE)
        self.camera = TableCamera(self.slot.calibration(), READER_STYLE, reads, votes, seed)

    def deal(self, card: str, sensed: Sensed) -> None:
        """`card` passes over the reader: it lies there until the camera has read it, then goes on."""
        for move in (self.slot.lay, self.slot.take):
            sensed.truth.extend(move(READER, card))
            sensed.seen.extend(self.camera.show(self.slot.scene()))


class Stage:
    def __init__(self, table: PhysicalTable, camera: TableCamera, reader: DealReader | None = None) -> None:
        self.table, self.camera, self.reader = table, camera, reader

    @property
    def now(self) -> float:
        """Seconds since the table started: the frames both cameras took, at FPS."""
        frames = self.camera.frames + (self.reader.camera.frames if self.reader else 0)
        return round(frames / FPS, 3)

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
            sensed.seen = self.camera.show(self.table.scene())
        sensed.lines.extend(observation_to_json(self.now, obs) for obs in sensed.seen)
        return sensed
