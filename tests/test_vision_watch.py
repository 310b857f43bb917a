"""`cardtable vision watch` and its `Watcher`: real sources (synthetic game, image folder, video file, a
missing camera) through the real detector and tracker, statuses instead of crashes, exit codes, signals."""
from __future__ import annotations

import importlib.util
import json
import signal
import subprocess
import sys
import threading
import time
from itertools import count
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.cli import main
from vision.detect import Detection, Detector
from vision.sources import Frame, ImageFolderSource, ReconnectingSource, VideoCaptureSource
from vision.synthetic import SyntheticSceneSource, render, scene_calibration
from vision.observations import CameraStatus
from vision.tracking import TableTracker
from vision.watch import SYNTHETIC_STYLE, Watcher, open_source, synthetic_game


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[dict[str, object]], str]:
    code = main(["vision", "watch", *argv])
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()], err


def brief(events: list[dict[str, object]]) -> list[tuple[object, ...]]:
    """Each JSON event without its timestamp and text, as a comparable tuple."""
    return [tuple(v for k, v in e.items() if k not in ("t", "text")) for e in events]


def no_detection(frame: np.ndarray) -> Detection:
    return Detection()


def test_cli_synthetic_game_with_calibration(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    scene_calibration(SYNTHETIC_STYLE).save(tmp_path / "cal.json")
    assert [[c.card for c in scene if c.face_up] for scene in synthetic_game(0)] == [
        ["AH"], ["AH", "3S"], ["AH", "3S", "5H"], ["5H"]]
    code, events, _ = run(capsys, "--source", "synthetic", "--calibration", str(tmp_path / "cal.json"))
    assert code == 0
    assert brief(events) == [
        ("camera", "online", None),
        ("placed", "AH", "seat-1"),
        ("placed", "3S", "seat-1"),
        ("face_down", "crib", 2), ("placed", "5H", "starter"),  # the crib laid and the starter turned at once
        ("removed", "3S", "seat-1"), ("removed", "AH", "seat-1"),
    ]
    assert events[1]["text"] == "AH placed in seat-1" and events[3]["text"] == "2 face-down cards in crib"
    times = [float(e["t"]) for e in events]  # type: ignore[arg-type]
    assert times == sorted(times) and abs(times[-1] - time.time()) < 60


def write_scenes(folder: Path, scenes: list[np.ndarray], hold: int) -> None:
    folder.mkdir()
    for i, image in enumerate(scenes):
        for j in range(hold):
            cv2.imwrite(str(folder / f"{i:02d}_{j}.png"), image)


def test_watcher_on_a_folder_without_calibration_uses_one_zone(tmp_path: Path) -> None:
    script = synthetic_game(0)
    scenes = [render(script[i], SYNTHETIC_STYLE, seed=i)[0] for i in (1, 3)]  # AH and 3S; the starter 5H and the crib
    write_scenes(tmp_path / "frames", scenes, hold=5)
    tracker = TableTracker(Detector().detect, {}, k=2, n=3)
    events = list(Watcher(ImageFolderSource(tmp_path / "frames"), tracker))
    assert [str(e) for _, e in events] == [
        "camera online", "3S placed in table", "AH placed in table",
        # face-down cards are not counted without a calibration (no table colour, no card size)
        "3S removed from table", "AH removed from table", "5H placed in table"]  # what left, then what came
    assert tracker.recognitions == 6  # three reads per scene (2 of 3 votes), reported after the third


def test_corrupt_and_empty_files_are_reported_once_and_skipped(tmp_path: Path) -> None:
    for name in ("a.png", "c.png", "e.png"):
        cv2.imwrite(str(tmp_path / name), np.full((30, 40, 3), 90, np.uint8))
    (tmp_path / "b.png").write_bytes(b"\x89PNG truncated")
    (tmp_path / "d.jpg").write_bytes(b"")
    src = ImageFolderSource(tmp_path)
    events = [e for _, e in Watcher(src, TableTracker(no_detection, {}))]
    assert events == [CameraStatus("online"),
                      CameraStatus("bad_frame", f"cannot decode image: {tmp_path / 'b.png'}"),
                      CameraStatus("bad_frame", f"cannot decode image: {tmp_path / 'd.jpg'}")]
    assert src.exhausted


class ListSource:
    """Serves prepared images, e.g. a malformed one no real source lets through."""

    def __init__(self, images: list[np.ndarray]) -> None:
        self.images = images
        self.index = -1
        self.exhausted = False
        self.closed = False

    @property
    def online(self) -> bool:
        return not self.exhausted

    def read(self) -> Frame | None:
        if not self.images:
            self.exhausted = True
            return None
        self.index += 1
        return Frame(self.images.pop(0), 0.0, self.index)

    def close(self) -> None:
        self.closed = True


def test_zero_size_frames_reported_once_per_run() -> None:
    good, empty = np.full((30, 40, 3), 90, np.uint8), np.zeros((0, 0, 3), np.uint8)
    src = ListSource([good, empty, empty, empty, good, empty])
    tracker = TableTracker(no_detection, {})
    events = [e for _, e in Watcher(src, tracker)]
    assert events == [CameraStatus("online"), CameraStatus("bad_frame", "frame 1: empty or malformed frame"),
                      CameraStatus("bad_frame", "frame 5: empty or malformed frame")]
    assert src.closed


def test_frames_of_another_size_than_the_calibration_are_bad_frames_not_misplaced_cards() -> None:
    """A camera set to another resolution than the table was calibrated at would put every card in the wrong
    zone at the wrong scale: each run of such frames is one bad_frame line, the others are read."""
    detector = Detector(calibration=scene_calibration(SYNTHETIC_STYLE))  # 960x540
    right, other = render([], SYNTHETIC_STYLE)[0], np.full((720, 1280, 3), 90, np.uint8)
    src = ListSource([right, other, other, right])
    events = [e for _, e in Watcher(src, TableTracker(no_detection, {}), check=detector.check)]
    assert events == [CameraStatus("online"), CameraStatus(
        "bad_frame", "frame 1: frame is 1280x720 px but the table was calibrated at 960x540: calibrate again at "
                     "this resolution")]
    with pytest.raises(ValueError, match="frame is 1280x720 px but the table was calibrated at 960x540"):
        detector.detect(other)


def test_capture_saves_one_frame_of_the_watched_source(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["vision", "capture", "--source", "synthetic", "--out", str(tmp_path / "empty.png")]) == 0
    assert cv2.imread(str(tmp_path / "empty.png")).shape == (540, 960, 3)  # the size watch reads it at
    assert "960x540 frame -> " in capsys.readouterr().out
    recorded = tmp_path / "recorded"
    recorded.mkdir()
    for k in range(3):
        cv2.imwrite(str(recorded / f"{k}.png"), np.full((40, 60, 3), 50 * k, np.uint8))
    folder = ["--source", str(recorded), "--out", str(tmp_path / "out.png")]
    assert main(["vision", "capture", *folder, "--skip", "1"]) == 0
    assert int(cv2.imread(str(tmp_path / "out.png")).mean()) == 50  # the frame after the one skipped
    assert main(["vision", "capture", *folder, "--skip", "5", "--force"]) == 2
    assert "the source ended after 3 frames, before the one wanted" in capsys.readouterr().err
    started = time.monotonic()
    assert main(["vision", "capture", "--source", "/dev/video99", "--out", str(tmp_path / "x.png"),
                 "--timeout", "0.3"]) == 2
    assert time.monotonic() - started < 5
    assert "no frame from the camera within 0.3 s (open failed: " in capsys.readouterr().err


def test_missing_camera_reports_offline_once_and_keeps_polling() -> None:
    src = VideoCaptureSource("/dev/video99")
    watcher = Watcher(src, TableTracker(no_detection, {}), poll_s=0.01)
    threading.Timer(0.3, watcher.stop).start()
    events = [e for _, e in watcher]  # ends only through stop()
    assert events == [CameraStatus("offline", "open failed: device did not open")]
    assert not src.online


class UnpluggedCamera:
    """Delivers two frames, then fails like a USB webcam pulled out."""

    def __init__(self) -> None:
        self.left = 2

    def read(self) -> tuple[bool, np.ndarray | None]:
        self.left -= 1
        return (True, np.full((30, 40, 3), 90, np.uint8)) if self.left >= 0 else (False, None)

    def release(self) -> None:
        pass


def test_status_lines_only_on_changes_through_a_reconnect() -> None:
    attempts = count()

    def opener() -> UnpluggedCamera:
        if next(attempts) == 1:  # the first reconnect finds no camera yet
            raise OSError("no such device")
        return UnpluggedCamera()

    ticks = count()
    src = ReconnectingSource(opener, retry_s=1.0, clock=lambda: next(ticks) * 0.25)
    events = [e for _, e in Watcher(src, TableTracker(no_detection, {}), max_frames=4, poll_s=0)]
    assert events == [CameraStatus("online"), CameraStatus("offline", "no frame from the camera"),
                      CameraStatus("online")]
    assert src.reconnects == 2 and not src.online  # closed after the fourth frame


def test_fps_throttles_and_max_frames_stops(tmp_path: Path) -> None:
    write_scenes(tmp_path / "f", [np.full((30, 40, 3), 90, np.uint8)], hold=6)
    tracker = TableTracker(no_detection, {})
    started = time.monotonic()
    list(Watcher(ImageFolderSource(tmp_path / "f"), tracker, max_frames=4, fps=20))
    assert time.monotonic() - started >= 0.15  # four frames at 20 per second
    assert tracker.recognitions == 2  # frames 3 and 4 of 6: max_frames stopped it
    with pytest.raises(ValueError, match="fps"):
        Watcher(ImageFolderSource(tmp_path / "f"), tracker, fps=0)


def test_cli_video_file_ends_and_max_frames(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    frame = cv2.resize(render(synthetic_game(0)[1], SYNTHETIC_STYLE)[0], (480, 270), interpolation=cv2.INTER_AREA)
    video = tmp_path / "game.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"MJPG"), 10, (480, 270))
    for _ in range(6):
        writer.write(frame)
    writer.release()
    code, events, _ = run(capsys, "--source", str(video), "--k", "2", "--n", "3")
    assert code == 0  # the file ended: not replayed as a camera would be reconnected
    assert brief(events) == [("camera", "online", None), ("placed", "3S", "table"), ("placed", "AH", "table")]
    code, events, _ = run(capsys, "--source", str(video), "--k", "2", "--n", "3", "--max-frames", "3")
    assert code == 0 and brief(events) == [("camera", "online", None)]  # one read only: no vote yet


@pytest.mark.parametrize("argv, message", [
    (["--source", "bogus"], "unknown source 'bogus'"),
    (["--source", "synthetic:x"], "whole-number seed"),
    (["--source", "picamera2"], "picamera2 is not installed"),
    (["--source", "{text}"], "cannot open video file"),
    (["--source", "synthetic", "--calibration", "{text}"], "bad calibration file"),
    (["--source", "synthetic", "--model", "{missing}.json"], "cannot load card model"),
    (["--source", "synthetic", "--k", "4", "--n", "3"], "need 1 <= k <= n"),
    (["--source", "synthetic", "--max-frames", "0"], "max frames"),
])
def test_cli_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str],
                                  message: str) -> None:
    if "picamera2" in argv and importlib.util.find_spec("picamera2"):
        pytest.skip("picamera2 is installed here")
    (tmp_path / "notes.txt").write_text("not a video, not JSON")
    argv = [a.format(text=tmp_path / "notes.txt", missing=tmp_path / "missing") for a in argv]
    code, events, err = run(capsys, *argv)
    assert code == 2 and events == []
    assert err.startswith("cardtable vision watch: error: ") and message in err and err.count("\n") == 1


def test_open_source_specs(tmp_path: Path) -> None:
    assert isinstance(open_source("3"), VideoCaptureSource) and isinstance(open_source("/dev/video7"),
                                                                          VideoCaptureSource)
    assert isinstance(open_source(str(tmp_path)), ImageFolderSource)
    src = open_source("synthetic:5")
    assert isinstance(src, SyntheticSceneSource) and src.script == synthetic_game(5) and src.seed == 5


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_signal_stops_cleanly(signum: int) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "vision", "watch", "--source", "/dev/video99"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    first = json.loads(proc.stdout.readline())  # the loop is running and polling the missing camera
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=10)
    assert proc.returncode == 0 and out == "" and "Traceback" not in err
    assert first["type"] == "camera" and first["status"] == "offline"


def test_reader_going_away_ends_quietly() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "vision", "watch", "--source", "synthetic"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stderr is not None
    assert json.loads(proc.stdout.readline())["status"] == "online"
    proc.stdout.close()  # like `| head -1`: the next observation line hits a closed pipe
    assert proc.wait(timeout=30) == 0 and proc.stderr.read() == ""
