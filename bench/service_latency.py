"""Table service benchmark: frame -> hub snapshot latency at 15 fps, and an idle table's CPU and memory.

    python bench/service_latency.py [--seeds 10] [--idle-seconds 60]

Latency: the real service loop (journal on disk, session, mock pins, hub) watching scripted synthetic
hands at 15 fps; for every camera observation, from the moment its frame was read to the hub snapshot
that shows it (target: p99 <= 150 ms). The peer, measured on the same frames in the same run, is the
vision watcher alone (frame read -> observation yielded): the difference is what the service adds.
Idle: one scripted hand to warm up (the models' and ONNX arenas' first runs), then an empty table at 15
fps for --idle-seconds (600 for issue 25's ten minutes): over the empty table only, CPU seconds per
second and the resident memory's growth, against the watcher alone warmed and run the same way.
"""
from __future__ import annotations

import argparse
import bisect
import resource
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from collections.abc import Callable
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPWMPin

sys.path.insert(0, str(Path(__file__).parents[1]))

from controller.service.camera import build_watcher  # noqa: E402
from controller.service.config import CameraConfig, PegBoardConfig, ServiceConfig  # noqa: E402
from controller.service.hub import Snapshot, StateHub, TableStatus  # noqa: E402
from controller.service.loop import TableService  # noqa: E402
from controller.service.notify import Notifier  # noqa: E402
from controller.table.session import Step  # noqa: E402
from vision.observations import CameraStatus  # noqa: E402
from vision.sources import Frame  # noqa: E402
from vision.synthetic import SyntheticSceneSource  # noqa: E402
from vision.watch import SYNTHETIC_HOLD, SYNTHETIC_STYLE, synthetic_game  # noqa: E402

FPS = 15.0
CAMERA = CameraConfig(source="synthetic", fps=FPS)
# what a run gives: (when each observation's frame was read, its latency), the usage at the end
Usage = tuple[list[tuple[float, float]], tuple[int, float, float]]


class Scripted(SyntheticSceneSource):
    """Several scripted hands in a row, the table cleared between them; the first is a warm-up (the
    ONNX sessions' first runs), its observations left out of the figures. Notes when each frame was read."""

    def __init__(self, seeds: int) -> None:
        hands = [[*synthetic_game(seed), []] for seed in range(seeds + 1)]
        super().__init__([scene for hand in hands for scene in hand], SYNTHETIC_STYLE, SYNTHETIC_HOLD, seed=1)
        self.warm_up_frames = len(hands[0]) * SYNTHETIC_HOLD
        self.reads: list[float] = []

    def read(self) -> Frame | None:
        frame = super().read()
        self.reads.append(time.time())
        return frame

    def measured(self, samples: list[tuple[float, float]]) -> list[float]:
        """The latencies of observations from frames after the warm-up (t: when their frame was read)."""
        return [latency for t, latency in samples if bisect.bisect_right(self.reads, t) > self.warm_up_frames]


class WarmedIdle:
    """An idle table after a warm-up: one scripted hand (the detector's models and their ONNX arenas run
    for the first time, as at any table that has played a hand), then an empty table for `seconds`, one
    still scene. Notes the process's usage as the empty table begins: what the idle figures measure is
    that part alone, the instance already warm."""

    def __init__(self, seconds: float) -> None:
        self.warm_up = Scripted(0)
        self.empty = SyntheticSceneSource([[]], SYNTHETIC_STYLE, hold=int(seconds * FPS), seed=2)
        self.idle_from: tuple[int, float, float] | None = None

    @property
    def exhausted(self) -> bool:
        return self.empty.exhausted

    @property
    def online(self) -> bool:
        return not self.exhausted

    def read(self) -> Frame | None:
        if not self.warm_up.exhausted:
            frame = self.warm_up.read()
            if frame is not None:
                return frame
        if self.idle_from is None:
            self.idle_from = _usage()
        return self.empty.read()

    def close(self) -> None:
        self.warm_up.close()
        self.empty.close()


def idle_usage(run: Callable[[WarmedIdle], Usage], seconds: float) -> tuple[float, float, int]:
    """(CPU seconds, wall seconds, resident KiB growth) of `run` over the empty table after its warm-up."""
    source = WarmedIdle(seconds)
    _, end = run(source)
    start = source.idle_from
    assert start is not None, "the warm-up hand was never read through"
    return end[1] - start[1], end[2] - start[2], end[0] - start[0]


class TimedHub(StateHub):
    """Notes, for each snapshot that follows a camera observation, how long after its frame it came."""

    def __init__(self) -> None:
        super().__init__()
        self.samples: list[tuple[float, float]] = []  # (when the frame was read, latency)
        self.sensed_t: float | None = None

    def publish(self, public: dict[str, Any], dealer: dict[str, Any], status: TableStatus) -> Snapshot:
        snapshot = super().publish(public, dealer, status)
        if self.sensed_t is not None:
            self.samples.append((self.sensed_t, snapshot.at - self.sensed_t))
            self.sensed_t = None
        return snapshot


def run_service(source: Scripted | WarmedIdle) -> Usage:
    """The service watching `source` to its end."""
    with tempfile.TemporaryDirectory() as tmp:
        config = ServiceConfig(state_directory=Path(tmp), camera=CAMERA, pegboard=PegBoardConfig(enabled=False))
        hub = TimedHub()

        def heard(line: dict[str, Any], step: Step) -> None:  # the owner thread, before it publishes
            if line["type"] != "camera":
                hub.sensed_t = line["t"]  # when the observation's frame was read (the watcher's clock)

        service = TableService(config, notifier=Notifier(None), hub=hub, source=source,
                               pin_factory=MockFactory(pin_class=MockPWMPin), buzzer_tempo=20.0, on_step=heard)
        thread = threading.Thread(target=service.run)
        thread.start()
        assert hub.wait_for(0, 60) is not None, "the service did not start"
        while not source.exhausted:
            time.sleep(0.05)
        service.inbox.join()
        service.stop()
        thread.join()
        return hub.samples, _usage()


def run_watcher(source: Scripted | WarmedIdle) -> Usage:
    """The vision watcher alone on `source`."""
    watcher = build_watcher(CAMERA, source)
    samples = [(t, time.time() - t) for t, event in watcher if not isinstance(event, CameraStatus)]
    return samples, _usage()


def _usage() -> tuple[int, float, float]:
    """(resident KiB now, CPU seconds so far, monotonic seconds)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    resident_pages = int(Path("/proc/self/statm").read_text().split()[1])
    return resident_pages * resource.getpagesize() // 1024, usage.ru_utime + usage.ru_stime, time.monotonic()


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=10, help="scripted hands watched (default 10)")
    parser.add_argument("--idle-seconds", type=float, default=60.0, help="idle table duration (default 60)")
    args = parser.parse_args()
    print(f"frame -> hub snapshot at {FPS:g} fps, {args.seeds} scripted hands after a warm-up one ({SYNTHETIC_STYLE.size[0]}x"
          f"{SYNTHETIC_STYLE.size[1]} synthetic frames)")
    source = Scripted(args.seeds)
    service = source.measured(run_service(source)[0])
    source = Scripted(args.seeds)
    peer = source.measured(run_watcher(source)[0])
    for name, values in (("service (journal, session, hub)", service), ("peer: watcher alone", peer)):
        ms = [v * 1000 for v in values]
        print(f"  {name:<32} n={len(ms):>3}  p50 {percentile(ms, 50):6.1f} ms  p99 {percentile(ms, 99):6.1f} ms  "
              f"max {max(ms):6.1f} ms")
    added = statistics.median(service) - statistics.median(peer)
    print(f"  the service adds {added * 1000:.1f} ms at the median; p99 ratio service/peer "
          f"{percentile(service, 99) / percentile(peer, 99):.2f}; target p99 <= 150 ms: "
          f"{'met' if percentile(service, 99) <= 0.150 else 'MISSED'}")
    print(f"idle table, {args.idle_seconds:g} s of empty-table frames at {FPS:g} fps")
    print("  each run warmed first by one scripted hand (models, ONNX arenas); growth from the empty table's first frame")
    for name, (cpu, wall, rss) in (("service", idle_usage(run_service, args.idle_seconds)),
                                   ("peer: watcher alone", idle_usage(run_watcher, args.idle_seconds))):
        print(f"  {name:<32} CPU {cpu / wall * 100:5.1f} % of a core  resident memory growth {rss / 1024:6.1f} MiB")


if __name__ == "__main__":
    main()
