"""The live loop: frames from a camera source through the tracker, as timestamped observations plus
camera status changes. No printing here: `cardtable vision watch` prints the events as JSON lines, the
table service can consume the same `Watcher`.
"""
from __future__ import annotations

import importlib.util
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.sources import (Frame, FrameSource, ImageFolderSource, Picamera2Source, VideoCaptureSource,
                            check_frame)
from vision.calibration import default_zones
from vision.synthetic import PlacedCard, SceneStyle, SyntheticSceneSource, card_names, cards_in_zone
from vision.observations import CameraStatus, Observation, seat_zone
from vision.tracking import TableTracker

# The scripted game's look: smaller than a real 1280x720 camera, since the source adds fresh sensor noise
# to every frame (the main cost of a synthetic frame), with cards large enough to read well.
SYNTHETIC_STYLE = SceneStyle(size=(960, 540), card_width=100)
# Frames per scripted scene: settling (2) plus up to 6 reads, so any k <= 6 of the vote is reached.
SYNTHETIC_HOLD = 8


def synthetic_game(seed: int = 0, style: SceneStyle = SYNTHETIC_STYLE) -> list[list[PlacedCard]]:
    """A short scripted hand on the default zones of four seats (calibration.default_zones): two cards
    played in seat 1, two face down to the crib and the starter turned, then seat 1's cards gathered.
    The seed picks the cards."""
    zones = default_zones(style.size)
    a, b, starter = (str(c) for c in np.random.default_rng(seed).permutation(card_names())[:3])
    first, second = cards_in_zone([a, b], zones[seat_zone(0)], style, spread=1.2)
    crib = cards_in_zone(["", ""], zones["crib"], style, face_up=False)
    turned = cards_in_zone([starter], zones["starter"], style)
    return [[first], [first, second], [first, second, *crib, *turned], [*crib, *turned]]


class VideoFileSource(VideoCaptureSource):
    """A video file plays once and is then exhausted (reconnecting would replay it from the start)."""

    def __init__(self, path: Path) -> None:
        probe = cv2.VideoCapture(str(path))
        opened = probe.isOpened()
        probe.release()
        if not opened:
            raise ValueError(f"cannot open video file: {path}")
        super().__init__(str(path))
        self.exhausted = False

    def read(self) -> Frame | None:
        frame = super().read()
        self.exhausted = frame is None
        return frame


def open_source(spec: str, size: tuple[int, int] | None = None) -> FrameSource:
    """`picamera2`, a V4L2 index or /dev path, a video file, a folder of images, or `synthetic[:SEED]`.
    `size` (width, height) is asked of a camera (default: 1280x720 for picamera2, the webcam's own)."""
    if spec == "picamera2":
        if importlib.util.find_spec("picamera2") is None:
            raise ValueError("picamera2 is not installed (on the Pi: pip install 'cardtable[pi]')")
        return Picamera2Source(size) if size else Picamera2Source()
    name, _, seed_text = spec.partition(":")
    if name == "synthetic":
        if not (seed_text or "0").isdigit():
            raise ValueError(f"synthetic source wants a whole-number seed, got {spec!r}")
        seed = int(seed_text or 0)
        return SyntheticSceneSource(synthetic_game(seed), SYNTHETIC_STYLE, SYNTHETIC_HOLD, seed)
    width, height = size or (None, None)
    if spec.isdigit():
        return VideoCaptureSource(int(spec), width, height)
    if spec.startswith("/dev/"):  # a camera that may be plugged in later: offline until then
        return VideoCaptureSource(spec, width, height)
    path = Path(spec)
    if path.is_dir():
        return ImageFolderSource(path)
    if path.is_file():
        return VideoFileSource(path)
    raise ValueError(f"unknown source {spec!r}: expected picamera2, a camera index, /dev/videoN, a video file, "
                     "a folder of images or synthetic[:SEED]")


class Watcher:
    """Iterate for `(timestamp, event)`: the tracker's observations, and a `CameraStatus` whenever the
    camera goes online or offline or a corrupt frame is skipped (once per run of bad frames). Ends when
    a finite source is exhausted, after `max_frames` good frames, or on `stop()`; closes the source."""

    def __init__(self, source: FrameSource, tracker: TableTracker, max_frames: int | None = None,
                 fps: float | None = None, poll_s: float = 0.1, clock: Callable[[], float] = time.time,
                 check: Callable[[np.ndarray], np.ndarray] = check_frame) -> None:
        """`check`: a frame the tracker can use, or a ValueError (a bad frame; `Detector.check` also wants
        the calibrated size)."""
        if max_frames is not None and max_frames < 1:
            raise ValueError("max frames must be at least 1")
        if fps is not None and fps <= 0:
            raise ValueError("fps must be positive")
        self.source = source
        self.tracker = tracker
        self.max_frames = max_frames
        self.period = 1.0 / fps if fps else 0.0
        self.poll_s = poll_s  # while offline; the source's own backoff decides when to reopen
        self.clock = clock
        self.check = check
        self._stop = threading.Event()

    def stop(self) -> None:
        """End the loop at its next step (safe from a signal handler or another thread)."""
        self._stop.set()

    def __iter__(self) -> Iterator[tuple[float, Observation]]:
        status: str | None = None
        last_error = getattr(self.source, "last_error", None)
        bad_run = False
        good = 0
        try:
            while not self._stop.is_set() and (self.max_frames is None or good < self.max_frames):
                started = time.monotonic()
                frame = self.source.read()
                now = self.clock()
                error = getattr(self.source, "last_error", None)
                # sources keep their last error; only a changed one is news from this read
                fresh, last_error = (error if error != last_error else None), error
                if frame is None:
                    if getattr(self.source, "exhausted", False):
                        if fresh:  # the last file of a folder was broken
                            yield now, CameraStatus("bad_frame", fresh)
                        return
                    if status != "offline":
                        status = "offline"
                        yield now, CameraStatus("offline", fresh or "no frame from the camera")
                    self._stop.wait(self.poll_s)
                    continue
                if status != "online":
                    status = "online"
                    yield now, CameraStatus("online")
                if fresh:  # e.g. a folder skipped a file it could not decode
                    yield now, CameraStatus("bad_frame", fresh)
                try:
                    image = self.check(frame.image)
                except ValueError as exc:
                    if not bad_run:
                        yield now, CameraStatus("bad_frame", f"frame {frame.index}: {exc}")
                    bad_run = True
                    continue
                bad_run = False
                good += 1
                for obs in self.tracker.process(image):
                    yield now, obs
                if self.period:
                    self._stop.wait(max(0.0, started + self.period - time.monotonic()))
        finally:
            self.source.close()


@contextmanager
def stop_on_signals(watcher: Watcher) -> Iterator[None]:
    """SIGINT/SIGTERM stop the watcher cleanly; a second signal acts as it normally would (for a read
    that hangs). Main thread only, as Python signal handlers are."""
    signals = (signal.SIGINT, signal.SIGTERM)
    previous = {s: signal.getsignal(s) for s in signals}

    def restore() -> None:
        for s, handler in previous.items():
            signal.signal(s, handler if handler is not None else signal.SIG_DFL)

    def on_signal(signum: int, frame: Any) -> None:
        watcher.stop()
        restore()

    for s in signals:
        signal.signal(s, on_signal)
    try:
        yield
    finally:
        restore()
