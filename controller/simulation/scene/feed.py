"""The simulated table's overhead camera as the table service sees a real one: a FrameSource.

`ServiceCamera` renders each settled scene of the physical table (TableCamera.frames_of) into the frames
a camera takes while it lies still, hands them to `SceneFeed`, the source the service's own watcher reads
(its detector and tracker, calibrated as the table is), waits until the service has judged what they
showed, and reports the camera observations it judged (heard through the service's `on_step`), so the
stage's players can straighten a card the table did not take in, as at a real table. In an open deal a
second one, over the deal reader's slot, is the service's reader camera: each keeps only what its own
camera saw (the reader's observations are in the zone `reader`, the table camera's never are).
"""
from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Collection
from typing import Any

import numpy as np

from controller.simulation.scene.camera import TableCamera
from controller.table.session import Step
from vision.observations import READER, CameraStatus, DuplicateCard, TableChange, observation_from_json
from vision.sources import Frame
from vision.synthetic import PlacedCard

CAMERA_LINES = ("placed", "removed", "face_down", "unknown", "duplicate")  # what a scene change makes


class SceneFeed:
    """A FrameSource fed frame by frame: `read()` waits for the next frame handed over by `show()`. Once
    closed it is exhausted, and the watcher reading it ends."""

    def __init__(self) -> None:
        self._frames: deque[np.ndarray] = deque()
        self._changed = threading.Condition()
        self._asking = False  # the reader waits for a frame: it has reported on every earlier one
        self._closed = False
        self._index = 0
        self.exhausted = False
        self.last_error: str | None = None

    @property
    def online(self) -> bool:
        return not self._closed

    def read(self) -> Frame | None:
        with self._changed:
            self._asking = True
            self._changed.notify_all()
            self._changed.wait_for(lambda: bool(self._frames) or self._closed)
            self._asking = False
            if not self._frames:
                self.exhausted = True
                return None
            image = self._frames.popleft()
            self._index += 1
            return Frame(image, time.time(), self._index)  # the watcher keeps the camera's pace (its fps)

    def show(self, frames: Collection[np.ndarray]) -> None:
        with self._changed:
            self._frames.extend(frames)
            self._changed.notify_all()

    def drained(self, timeout: float) -> bool:
        """Wait until the reader took every frame handed over and asks for the next one."""
        with self._changed:
            return self._changed.wait_for(lambda: self._closed or (self._asking and not self._frames), timeout)

    def close(self) -> None:
        with self._changed:
            self._closed = True
            self._changed.notify_all()


class ServiceCamera:
    """The stage's camera (stage.Camera) over the service: frames to the feed, observations back."""

    def __init__(self, renderer: TableCamera, feed: SceneFeed, settled: Callable[[float], bool],
                 timeout: float = 60.0) -> None:
        self.renderer, self.feed, self._settled, self.timeout = renderer, feed, settled, timeout
        self._reader = READER in renderer.calibration.zones
        self._judged: list[TableChange] = []
        self._lock = threading.Lock()

    @property
    def frames(self) -> int:
        return self.renderer.frames

    def heard(self, line: dict[str, Any], step: Step) -> None:
        """The service's `on_step` (its owner thread): keep the camera's observations it judged."""
        if line.get("type") not in CAMERA_LINES:
            return
        observation = observation_from_json(line)[1]
        if not isinstance(observation, CameraStatus) and (READER in _zones(observation)) == self._reader:
            with self._lock:
                self._judged.append(observation)

    def show(self, scene: list[PlacedCard], glared: Collection[int] = ()) -> list[TableChange]:
        self.feed.show(list(self.renderer.frames_of(scene, glared)))
        if not (self.feed.drained(self.timeout) and self._settled(self.timeout)):
            raise TimeoutError(f"the table service did not take in a scene within {self.timeout:g} s")
        with self._lock:
            seen, self._judged = self._judged, []
        return seen


def _zones(observation: TableChange) -> tuple[str, ...]:
    return observation.zones if isinstance(observation, DuplicateCard) else (observation.zone,)
