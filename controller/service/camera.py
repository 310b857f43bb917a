"""The camera watcher thread: frames -> the real detector and tracker -> observations on the service's queue.

The recognizer's ONNX models load once, when the feed is built (before the service says READY). A camera
that vanishes is the vision source's business: it reports `offline`, reconnects with backoff and reports
`online` again; the feed only forwards what the watcher yields. The feed keeps the latest frame read, so
the dealer console can be shown a zone as the camera sees it now (the crop of a held card).

With a deal reader (`[reader] source`) a second feed watches it (a ReaderTracker: its cards in the zone
`reader`), into the same inbox. The session hears one camera status for both (`CameraStatuses`): offline
while either camera is, so a lost reader holds the table as a lost table camera does.
"""
from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import cv2
import numpy as np

from vision.calibration import Calibration
from vision.deck import Deck, deck_named
from vision.detect import Detector
from vision.model import IndexModel
from vision.model_files import DEFAULT_MODEL, load_model
from vision.recognize import Recognizer
from vision.sources import Frame, FrameSource
from vision.synthetic import scene_calibration
from vision.tracking import ReaderTracker, TableTracker
from vision.observations import CameraStatus
from vision.watch import SYNTHETIC_STYLE, Watcher, open_source

from .config import CameraConfig, ConfigError, ReaderConfig

log = logging.getLogger(__name__)

Post = Callable[[float, Any], None]  # (when it was seen, the observation or camera status)


def build_watcher(camera: CameraConfig, source: FrameSource | None = None, enrolled: Path | None = None) -> Watcher:
    """The live loop the config describes (its own `source` unless one is given, e.g. by a test); a
    calibration, an enrolled deck or a source that cannot be used is a ConfigError naming its key.
    `enrolled`: the deck enrolled at the console, read with unless the config names one."""
    with _blaming("camera.calibration"):
        calibration = (scene_calibration(SYNTHETIC_STYLE) if camera.calibration is None
                       else Calibration.load(camera.calibration))
    if enrolled is not None and camera.enrolment is None:
        camera = replace(camera, enrolment=enrolled)
    detector = _detector(camera, calibration)
    tracker = TableTracker(detector.detect, calibration.zones, k=camera.votes, n=camera.reads)
    with _blaming("camera.source"):
        source = source or open_source(camera.source, camera.size)
    return Watcher(Keeping(source), tracker, fps=camera.fps, check=detector.check)


def build_reader_watcher(camera: CameraConfig, reader: ReaderConfig, source: FrameSource | None = None) -> Watcher:
    """The deal reader's live loop: the table camera's deck, votes and pace, its own source and card scale
    (its calibration; without one the recognizer finds the scale itself)."""
    with _blaming("reader.calibration"):
        calibration = None if reader.calibration is None else Calibration.load(reader.calibration)
    detector = _detector(camera, calibration)
    tracker = ReaderTracker(detector.detect, k=camera.votes, n=camera.reads)
    with _blaming("reader.source"):
        if source is None:
            assert reader.source is not None, "a reader watcher without a reader source"
            source = open_source(reader.source, reader.size)
    return Watcher(Keeping(source), tracker, fps=camera.fps, check=detector.check)


def _detector(camera: CameraConfig, calibration: Calibration | None) -> Detector:
    with _blaming("camera.enrolment"):
        model = load_model(camera.enrolment or DEFAULT_MODEL)
    return Detector(_recognizer(model, calibration, deck_named(camera.deck)), calibration)


def _recognizer(model: IndexModel, calibration: Calibration | None, deck: Deck) -> Recognizer:
    return Recognizer(model, glyph_px=calibration.glyph_px() if calibration else None,
                      card_area=calibration.card_area if calibration else None, deck=deck)


def read_with(watcher: Watcher, model: IndexModel) -> None:
    """The watcher reads with `model` from its next frame on (a deck enrolled at the console): its
    detector's recognizer is replaced whole, which the camera thread picks up at its next read."""
    detector = getattr(watcher.check, "__self__", None)  # build_watcher's frame check is its detector's
    assert isinstance(detector, Detector), "a watcher not built by build_watcher"
    detector.recognizer = _recognizer(model, detector.calibration, detector.recognizer.deck)


CROP_MARGIN = 12  # frame pixels around a zone's box in a crop


@dataclass
class Keeping:
    """A frame source that keeps the latest frame it read (the watcher's thread replaces it whole)."""

    source: FrameSource
    latest: Frame | None = None

    @property
    def online(self) -> bool:
        return self.source.online

    @property
    def exhausted(self) -> bool:
        return bool(getattr(self.source, "exhausted", False))

    @property
    def last_error(self) -> str | None:
        return getattr(self.source, "last_error", None)

    def read(self) -> Frame | None:
        frame = self.source.read()
        if frame is not None:
            self.latest = frame
        return frame

    def close(self) -> None:
        self.source.close()


@contextmanager
def _blaming(key: str) -> Iterator[None]:
    """vision's ValueErrors (a broken calibration file, ...) as the config key that named the thing."""
    try:
        yield
    except ValueError as error:
        raise ConfigError(key, str(error)) from None


class CameraStatuses:
    """The cameras' statuses as the one the session hears (thread-safe: each feed posts on its own thread):
    offline as soon as one camera is, online once every camera is; a bad frame and the observations are
    passed on as they are."""

    def __init__(self, post: Post, cameras: tuple[str, ...]) -> None:
        self._post = post
        self._status = dict.fromkeys(cameras, "starting")
        self._said: str | None = None
        self._lock = threading.Lock()

    def poster(self, camera: str) -> Post:
        """What the feed of `camera` posts to."""
        return lambda t, event: self._forward(camera, t, event)

    def _forward(self, camera: str, t: float, event: Any) -> None:
        with self._lock:  # posted under the lock: the inbox hears the statuses in the order they were merged
            if isinstance(event, CameraStatus) and event.status != "bad_frame":
                self._status[camera] = event.status
                statuses = self._status.values()
                merged = ("offline" if "offline" in statuses else
                          "online" if all(status == "online" for status in statuses) else None)
                if merged is None or merged == self._said:
                    return
                self._said = merged
            self._post(t, self._named(camera, event))

    def _named(self, camera: str, event: Any) -> Any:
        """A status of any camera but the first (the table's) says which camera it is about."""
        if isinstance(event, CameraStatus) and camera != next(iter(self._status)):
            return CameraStatus(event.status, f"the {camera}" + (f": {event.detail}" if event.detail else ""))
        return event


class CameraFeed:
    def __init__(self, watcher: Watcher, post: Post, name: str = "camera") -> None:
        self.watcher = watcher
        self._post = post
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def latest_image(self) -> np.ndarray | None:
        """The latest frame the camera read (the watcher's thread replaces it whole)."""
        source = self.watcher.source
        frame = source.latest if isinstance(source, Keeping) else None
        return None if frame is None else frame.image

    def crop(self, zone: str) -> bytes | None:
        """`zone` in the latest frame, as a PNG; None without a frame or for a zone the calibration lacks."""
        source, polygon = self.watcher.source, self.watcher.tracker.zones.get(zone)
        frame = source.latest if isinstance(source, Keeping) else None
        if frame is None or polygon is None:
            return None
        height, width = frame.image.shape[:2]
        x, y, w, h = cv2.boundingRect(np.rint(np.array(polygon)).astype(np.int32))
        x0, y0 = max(0, x - CROP_MARGIN), max(0, y - CROP_MARGIN)
        x1, y1 = min(width, x + w + CROP_MARGIN), min(height, y + h + CROP_MARGIN)
        if x1 <= x0 or y1 <= y0:
            return None
        ok, png = cv2.imencode(".png", frame.image[y0:y1, x0:x1])
        return png.tobytes() if ok else None

    def stop(self, timeout: float = 5.0) -> None:
        """Stop at the watcher's next step and close the camera."""
        self.watcher.stop()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def _run(self) -> None:
        try:
            for t, event in self.watcher:
                self._post(t, event)
        except Exception:  # a vision bug must not kill the table silently: the loop hears the camera is gone
            log.exception("the %s watcher failed", self._thread.name)
            self._post(self.watcher.clock(), CameraStatus("offline", "the camera watcher failed (see the log)"))
