"""Camera sources behind one interface. A source that loses its camera reports `offline` and keeps
trying to reconnect; it never raises out of `read()` for a vanished device.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from vision.image_header import encoded_size, is_truncated_jpeg

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}


@dataclass(frozen=True)
class Frame:
    image: np.ndarray
    timestamp: float
    index: int


class FrameSource(Protocol):
    @property
    def online(self) -> bool: ...

    def read(self) -> Frame | None:
        """The next frame, or None when offline / exhausted (check `online` / `exhausted`)."""

    def close(self) -> None: ...


# The largest frame read (a 4096x4096 frame is 48 MB as BGR and the detector needs several times that; a
# 20000x20000 photo took 260 s and 7.6 GB): the Pi HQ camera's 4056x3040 and a 4K webcam fit.
MAX_FRAME_PIXELS = 4096 * 4096
MAX_FRAME_SIDE = 8192
MAX_IMAGE_BYTES = 256 << 20  # an image file larger than this is refused before it is read


def load_image(path: str | Path) -> np.ndarray:
    """Read a colour image or raise ValueError saying why (missing, too large, truncated, unreadable). The
    size is checked from the file's header before decoding (PNG, JPEG, BMP), and again after."""
    p = Path(path)
    if not p.is_file():
        raise ValueError(f"image not found: {p}")
    if p.stat().st_size > MAX_IMAGE_BYTES:
        raise ValueError(f"image too large: {p} is {p.stat().st_size:,} bytes (the limit is {MAX_IMAGE_BYTES:,})")
    data = p.read_bytes()
    size = encoded_size(data)
    if size is not None:
        check_frame_size(*size, what=f"image {p}")
    if not data:
        raise ValueError(f"cannot decode image: {p}")  # an empty file
    if is_truncated_jpeg(data):
        raise ValueError(f"truncated JPEG: {p} ends before its end marker (an interrupted copy or download?)")
    try:
        img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    except cv2.error as exc:  # e.g. OpenCV's own pixel limit on a format whose header is not read above
        raise ValueError(f"cannot decode image: {p} ({str(exc).strip().splitlines()[-1][:200]})") from None
    if img is None or img.size == 0:
        raise ValueError(f"cannot decode image: {p}")
    try:
        return check_frame(img)
    except ValueError as exc:
        raise ValueError(f"image {p}: {exc}") from None


# A frame with a side shorter than this holds no readable card (the outline finder works at 1/4 size, where a
# 1 px frame has no pixel left); a camera misconfigured so, or a truncated file, is a bad frame.
MIN_FRAME_SIDE = 16


def check_frame_size(width: int, height: int, what: str = "frame") -> None:
    """A ValueError unless a frame of width x height px is within the documented limits."""
    if min(width, height) < MIN_FRAME_SIDE:
        raise ValueError(f"{what} too small: {width}x{height} px (at least {MIN_FRAME_SIDE} px a side)")
    if max(width, height) > MAX_FRAME_SIDE or width * height > MAX_FRAME_PIXELS:
        raise ValueError(f"{what} too large: {width}x{height} px (at most {MAX_FRAME_SIDE} px a side and "
                         f"{MAX_FRAME_PIXELS:,} px, 4096x4096; resize it)")


def check_frame(image: np.ndarray | None) -> np.ndarray:
    """`image` if it is a frame the detector can read (8-bit grey or BGR, each side MIN_FRAME_SIDE or more,
    within MAX_FRAME_SIDE and MAX_FRAME_PIXELS); a ValueError saying what is wrong with it otherwise."""
    if image is None or not isinstance(image, np.ndarray) or image.size == 0 or image.ndim not in (2, 3):
        raise ValueError("empty or malformed frame")
    if image.dtype != np.uint8 or image.ndim == 3 and image.shape[2] != 3:
        raise ValueError(f"not an 8-bit grey or BGR frame: {image.dtype}, shape {image.shape}")
    h, w = image.shape[:2]
    check_frame_size(w, h)
    return image


class ImageFolderSource:
    """Images of a folder in name order (for replaying a recorded session)."""

    def __init__(self, folder: str | Path, loop: bool = False) -> None:
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise ValueError(f"not a folder: {self.folder}")
        self.paths = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        self.loop = loop
        self._i = 0
        self.exhausted = False
        self.last_error: str | None = None

    @property
    def online(self) -> bool:
        return not self.exhausted

    def read(self) -> Frame | None:
        while self._i < len(self.paths) or (self.loop and self.paths):
            path = self.paths[self._i % len(self.paths)]
            self._i += 1
            try:
                return Frame(load_image(path), time.monotonic(), self._i - 1)
            except ValueError as exc:  # a broken file is skipped, not fatal
                self.last_error = str(exc)
        self.exhausted = True
        return None

    def close(self) -> None:
        self.exhausted = True


class ReconnectingSource:
    """Wraps a device opener; on a failed read it goes offline and retries the opener with backoff.

    `open_device` returns an object with `read() -> (ok, image)` and `release()`, as cv2.VideoCapture
    does. `clock` is injectable so tests need no sleeping.
    """

    def __init__(self, open_device: Callable[[], Any], retry_s: float = 1.0, max_retry_s: float = 10.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._open = open_device
        self._retry_s = retry_s
        self._max_retry_s = max_retry_s
        self._clock = clock
        self._dev: Any = None
        self._next_try = 0.0
        self._backoff = retry_s
        self._count = 0
        self.last_error: str | None = None
        self.reconnects = 0

    @property
    def online(self) -> bool:
        return self._dev is not None

    def _try_open(self) -> None:
        now = self._clock()
        if now < self._next_try:
            return
        try:
            dev = self._open()
            if dev is None or (hasattr(dev, "isOpened") and not dev.isOpened()):
                raise OSError("device did not open")
            self._dev = dev
            self._backoff = self._retry_s
            self.reconnects += 1
        except Exception as exc:  # any driver failure means offline, never a crash
            self.last_error = f"open failed: {exc}"
            self._next_try = now + self._backoff
            self._backoff = min(self._backoff * 2, self._max_retry_s)

    def read(self) -> Frame | None:
        if self._dev is None:
            self._try_open()
            if self._dev is None:
                return None
        try:
            ok, image = self._dev.read()
            image = check_frame(image) if ok else None
        except Exception as exc:
            ok, image, self.last_error = False, None, f"read failed: {exc}"
        if not ok or image is None:
            self._drop()
            return None
        self._count += 1
        return Frame(image, self._clock(), self._count - 1)

    def _drop(self) -> None:
        try:
            self._dev.release()
        except Exception:  # releasing a dead device may fail too; we are dropping it anyway
            pass
        self._dev = None
        self._next_try = self._clock() + self._backoff

    def close(self) -> None:
        if self._dev is not None:
            self._drop()


class VideoCaptureSource(ReconnectingSource):
    """USB webcams (V4L2 index or /dev path) and video files through OpenCV."""

    def __init__(self, device: int | str, width: int | None = None, height: int | None = None, **kw: Any) -> None:
        def open_capture() -> cv2.VideoCapture:
            cap = cv2.VideoCapture(device)
            if width and height:
                cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
                cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
            return cap
        super().__init__(open_capture, **kw)


class _Picamera2Device:
    """Adapts picamera2 to the (ok, image) read protocol; BGR like OpenCV."""

    def __init__(self, size: tuple[int, int]) -> None:
        from picamera2 import Picamera2  # optional extra `cardtable[pi]`: imported only when used

        self.cam = Picamera2()
        # libcamera names formats as DRM fourccs, little-endian: "RGB888" lies in memory as B, G, R, which is
        # OpenCV's BGR (picamera2's maintainers, issue #191); "BGR888" is R, G, B, and would turn every red
        # suit blue for the colour check
        self.cam.configure(self.cam.create_video_configuration(main={"size": size, "format": "RGB888"}))
        self.cam.start()

    def read(self) -> tuple[bool, np.ndarray]:
        return True, self.cam.capture_array("main")

    def release(self) -> None:
        self.cam.stop()
        self.cam.close()


class Picamera2Source(ReconnectingSource):
    """The Pi's CSI camera (OpenCV cannot open it: libcamera)."""

    def __init__(self, size: tuple[int, int] = (1280, 720), **kw: Any) -> None:
        super().__init__(lambda: _Picamera2Device(size), **kw)


def frames(source: FrameSource, limit: int | None = None, offline_poll_s: float = 0.1) -> Iterator[Frame]:
    """Frames until the source is exhausted (folders, synthetic scripts) or `limit` is reached; an
    offline camera is polled gently while it reconnects."""
    n = 0
    while limit is None or n < limit:
        frame = source.read()
        if frame is None:
            if getattr(source, "exhausted", False):
                return
            time.sleep(offline_poll_s)
            continue
        n += 1
        yield frame


def grab(source: FrameSource, skip: int = 0, timeout_s: float = 10.0, poll_s: float = 0.1,
         clock: Callable[[], float] = time.monotonic) -> np.ndarray:
    """One good frame from `source`, after `skip` good ones (a camera's exposure and white balance settle
    over its first frames); a ValueError when the source ends first, or stays offline for `timeout_s`."""
    deadline = clock() + timeout_s
    seen = 0
    while True:
        frame = source.read()
        if frame is not None:
            if seen == skip:
                return check_frame(frame.image)
            seen += 1
            continue
        if getattr(source, "exhausted", False):
            raise ValueError(f"the source ended after {seen} frames, before the one wanted")
        if clock() >= deadline:
            why = getattr(source, "last_error", None) or "no frame"
            raise ValueError(f"no frame from the camera within {timeout_s:g} s ({why})")
        time.sleep(poll_s)
