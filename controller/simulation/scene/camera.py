"""The camera over the simulated table: each settled scene of the physical table rendered (vision.synthetic)
into a few frames, each with its own sensor noise, and read by the real vision (detector and tracker,
calibrated as the table is), which reports what changed.
"""
from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from functools import cached_property

import cv2
import numpy as np

from vision.calibration import Calibration
from vision.detect import Detector
from vision.synthetic import PlacedCard, SceneStyle, render
from vision.observations import TableChange
from vision.tracking import TableTracker

NOISE_FIELDS = 4  # sensor noise patterns the frames take turns with (drawing fresh noise costs ~15 ms a frame)
SENSOR_NOISE = 1.5  # grey levels
GLARE = 0.8  # how far a glared card's face is washed towards white: no index or pip stays readable


@dataclass
class TableCamera:
    """Renders scenes and runs them through a `TableTracker`: `reads` frames recognised per settled scene,
    voted `votes` of `reads` (the live loop's defaults are 3 of 5; a test wants 1 of 1)."""

    calibration: Calibration
    style: SceneStyle
    reads: int = 5
    votes: int = 3
    seed: int = 0
    settle_frames: int = 2  # the tracker's: still frames before it reads a scene
    frames: int = field(default=0, init=False)  # frames shown so far

    @cached_property
    def detector(self) -> Detector:
        return Detector(calibration=self.calibration)

    @cached_property
    def tracker(self) -> TableTracker:
        return TableTracker(self.detector.detect, self.calibration.zones, k=self.votes, n=self.reads,
                            settle_frames=self.settle_frames)

    @cached_property
    def _noise(self) -> list[np.ndarray]:
        rng = np.random.default_rng(self.seed)
        w, h = self.style.size
        return [rng.normal(0, SENSOR_NOISE, (h, w, 3)).astype(np.float32) for _ in range(NOISE_FIELDS)]

    def frames_of(self, scene: list[PlacedCard], glared: Collection[int] = ()) -> Iterator[np.ndarray]:
        """The frames the camera takes of `scene` while it lies still: one as it lands (the tracker sees a
        change), then until the tracker has settled and read it `reads` times. The cards `glared` (their
        indices in `scene`) lie under a lamp's glare that washes their faces out."""
        image, quads = render(scene, self.style, self.seed)  # one table: its grain stays
        image = image.astype(np.float32)
        for index in glared:
            inside = np.zeros(image.shape[:2], np.uint8)
            cv2.fillConvexPoly(inside, np.rint(quads[index]).astype(np.int32), 255)
            washed = inside.astype(bool)
            image[washed] = image[washed] * (1 - GLARE) + 255 * GLARE
        for _ in range(1 + self.settle_frames + self.reads - 1):
            noise = self._noise[self.frames % NOISE_FIELDS]
            self.frames += 1
            yield np.clip(image + noise, 0, 255).astype(np.uint8)

    def show(self, scene: list[PlacedCard], glared: Collection[int] = ()) -> list[TableChange]:
        """What the vision reports once `scene` has settled."""
        seen: list[TableChange] = []
        for frame in self.frames_of(scene, glared):
            seen.extend(self.tracker.process(self.detector.check(frame)))
        return seen
