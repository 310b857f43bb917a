"""The camera watcher thread: frames -> the real detector and tracker -> observations on the service's queue.

The recognizer's ONNX models load once, when the feed is built (before the service says READY). A camera
that vanishes is the vision source's business: it reports `offline`, reconnects with backoff and reports
`online` again; the feed only forwards what the watcher yields.
"""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from vision.calibration import Calibration
from vision.deck import deck_named
from vision.detect import Detector
from vision.model_files import DEFAULT_MODEL, load_model
from vision.recognize import Recognizer
from vision.sources import FrameSource
from vision.synthetic import scene_calibration
from vision.tracking import TableTracker
from vision.observations import CameraStatus
from vision.watch import SYNTHETIC_STYLE, Watcher, open_source

from .config import CameraConfig, ConfigError

log = logging.getLogger(__name__)

Post = Callable[[float, Any], None]  # (when it was seen, the observation or camera status)


def build_watcher(camera: CameraConfig, source: FrameSource | None = None) -> Watcher:
    """The live loop the config describes (its own `source` unless one is given, e.g. by a test); a
    calibration, an enrolled deck or a source that cannot be used is a ConfigError naming its key."""
    with _blaming("camera.calibration"):
        calibration = (scene_calibration(SYNTHETIC_STYLE) if camera.calibration is None
                       else Calibration.load(camera.calibration))
    with _blaming("camera.enrolment"):
        model = load_model(camera.enrolment or DEFAULT_MODEL)
    recognizer = Recognizer(model, glyph_px=calibration.glyph_px(), card_area=calibration.card_area,
                            deck=deck_named(camera.deck))
    detector = Detector(recognizer, calibration)
    tracker = TableTracker(detector.detect, calibration.zones)
    with _blaming("camera.source"):
        source = source or open_source(camera.source, camera.size)
    return Watcher(source, tracker, fps=camera.fps, check=detector.check)


@contextmanager
def _blaming(key: str) -> Iterator[None]:
    """vision's ValueErrors (a broken calibration file, ...) as the config key that named the thing."""
    try:
        yield
    except ValueError as error:
        raise ConfigError(key, str(error)) from None


class CameraFeed:
    def __init__(self, watcher: Watcher, post: Post) -> None:
        self.watcher = watcher
        self._post = post
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)

    def start(self) -> None:
        self._thread.start()

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
            log.exception("the camera watcher failed")
            self._post(self.watcher.clock(), CameraStatus("offline", "the camera watcher failed (see the log)"))
