"""Camera sources: image folders, bad input, a camera that vanishes and comes back, synthetic scenes."""
from __future__ import annotations

import importlib.machinery
import re
import sys
import types
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.sources import (ImageFolderSource, ReconnectingSource, VideoCaptureSource, check_frame, frames,
                            load_image)
from vision.synthetic import PlacedCard, SceneStyle, SyntheticSceneSource, random_layout, render
from vision.watch import open_source


class FlakyCamera:
    """A device that delivers `good` frames and then fails, like an unplugged USB webcam."""

    def __init__(self, good: int) -> None:
        self.left = good
        self.released = False

    def read(self) -> tuple[bool, np.ndarray | None]:
        if self.left <= 0:
            return False, None
        self.left -= 1
        return True, np.full((16, 16, 3), 7, np.uint8)

    def release(self) -> None:
        self.released = True


def test_folder_source_skips_broken_files(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "a.png"), np.zeros((16, 20, 3), np.uint8))
    (tmp_path / "b.png").write_bytes(b"not a png")
    cv2.imwrite(str(tmp_path / "c.png"), np.full((16, 20, 3), 255, np.uint8))
    src = ImageFolderSource(tmp_path)
    got = list(frames(src))
    assert [int(f.image.mean()) for f in got] == [0, 255]
    assert "cannot decode image" in (src.last_error or "")
    assert not src.online


@pytest.mark.parametrize("content", [None, b"", b"\x89PNG garbage"])
def test_load_image_bad_input(tmp_path: Path, content: bytes | None) -> None:
    path = tmp_path / "x.jpg"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(ValueError, match="not found|cannot decode"):
        load_image(path)


def test_zero_size_frame_rejected() -> None:
    with pytest.raises(ValueError, match="empty"):
        check_frame(np.zeros((0, 0, 3), np.uint8))


@pytest.mark.parametrize(("frame", "why"), [
    (np.zeros((1, 1, 3), np.uint8), "frame too small: 1x1 px"),
    (np.zeros((8, 640), np.uint8), "frame too small: 640x8 px"),
    (np.zeros((64, 64, 3), np.uint16), "not an 8-bit grey or BGR frame: uint16"),
    (np.zeros((64, 64, 4), np.uint8), "not an 8-bit grey or BGR frame: uint8, shape (64, 64, 4)"),
])
def test_a_frame_no_card_can_be_read_from_is_refused_with_the_reason(frame: np.ndarray, why: str) -> None:
    """(A 1x1 frame used to crash the outline finder, which works at a quarter of the size.)"""
    with pytest.raises(ValueError, match=re.escape(why)):
        check_frame(frame)
    assert check_frame(np.zeros((16, 16), np.uint8)).shape == (16, 16)


class _Picamera2:
    """Stands in for picamera2.Picamera2 (which needs libcamera and a CSI camera): it lays a frame of the
    scene out in memory as libcamera's format names mean it, little-endian ("RGB888": B, G, R per pixel)."""

    def __init__(self) -> None:
        self.config: dict[str, dict[str, object]] = {}

    def create_video_configuration(self, main: dict[str, object]) -> dict[str, dict[str, object]]:
        return {"main": main}

    def configure(self, config: dict[str, dict[str, object]]) -> None:
        self.config = config

    def start(self) -> None: ...

    def capture_array(self, stream: str) -> np.ndarray:
        w, h = self.config[stream]["size"]  # type: ignore[misc]
        rgb = np.zeros((h, w, 3), np.uint8)
        rgb[:, : w // 2] = (200, 20, 30)  # a red heart on the left half
        return {"RGB888": rgb[..., ::-1], "BGR888": rgb}[str(self.config[stream]["format"])].copy()

    def stop(self) -> None: ...

    def close(self) -> None: ...


def test_the_pi_camera_hands_the_detector_bgr(monkeypatch: pytest.MonkeyPatch) -> None:
    module = types.ModuleType("picamera2")
    module.__spec__ = importlib.machinery.ModuleSpec("picamera2", None)
    module.Picamera2 = _Picamera2  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", module)
    frame = open_source("picamera2", (64, 48)).read()  # as `watch --source picamera2 --size 64x48` opens it
    assert frame is not None and frame.image.shape == (48, 64, 3)
    b, g, r = frame.image[0, 0]
    assert (r, g, b) == (200, 20, 30)  # red stays red for the suit colour check


def test_camera_goes_offline_and_reconnects() -> None:
    now = [0.0]
    devices: list[FlakyCamera] = []
    failures = [1]  # the first reconnect attempt fails too

    def opener() -> FlakyCamera:
        if devices and failures[0]:
            failures[0] -= 1
            raise OSError("no such device")
        devices.append(FlakyCamera(good=2))
        return devices[-1]

    src = ReconnectingSource(opener, retry_s=1.0, clock=lambda: now[0])
    assert src.read() is not None and src.read() is not None and src.online
    assert src.read() is None and not src.online and devices[0].released  # unplugged
    assert src.read() is None  # within backoff: no retry yet
    now[0] = 1.5
    assert src.read() is None and "no such device" in (src.last_error or "")  # retry fails
    now[0] = 2.0
    assert src.read() is None  # backoff doubled to 2 s
    now[0] = 3.6
    frame = src.read()
    assert frame is not None and src.online and len(devices) == 2 and src.reconnects == 2


def test_missing_usb_camera_is_offline_not_a_crash() -> None:
    src = VideoCaptureSource("/dev/video-does-not-exist")
    assert src.read() is None
    assert not src.online and src.last_error


def test_synthetic_scene_ground_truth_and_script() -> None:
    style = SceneStyle(size=(640, 360), card_width=80)
    cards = [PlacedCard("QS", 200, 180, 30), PlacedCard("", 450, 180, -10, face_up=False)]
    img, quads = render(cards, style, seed=1)
    assert img.shape == (360, 640, 3)
    for quad in quads:  # the card pixels are light (face) or red (back), the table green
        cx, cy = quad.mean(0).astype(int)
        b, g, r = img[cy, cx].astype(int)
        assert not (g > r and g > b)
    assert abs(np.linalg.norm(quads[0][0] - quads[0][1]) - 80) < 12  # scale follows the style
    src = SyntheticSceneSource([cards, cards[:1]], style, hold=3)
    got = list(frames(src))
    assert len(got) == 6 and not src.online
    assert not np.array_equal(got[0].image, got[1].image)  # fresh sensor noise per frame
    assert len(random_layout(8, seed=3, face_down=2)) == 10
