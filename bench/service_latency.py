"""Table service benchmark: frame -> hub snapshot latency at 15 fps, and an idle table's CPU and memory.

    python bench/service_latency.py [--seeds 10] [--idle-seconds 60]

Latency: the real service loop (journal on disk, session, mock pins, hub) watching scripted synthetic
hands at 15 fps; for every camera observation, from the moment its frame was read to the hub snapshot
that shows it (target: p99 <= 150 ms). The peer, measured on the same frames in the same run, is the
vision watcher alone (frame read -> observation yielded): the difference is what the service adds.
Idle: an empty table at 15 fps for --idle-seconds (600 for issue 25's ten minutes): CPU seconds per
second and the resident memory's growth, against the watcher alone on the same frames.
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


def idle(seconds: float) -> SyntheticSceneSource:
    return SyntheticSceneSource([[]], SYNTHETIC_STYLE, hold=int(seconds * FPS), seed=2)


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


def run_service(source: SyntheticSceneSource) -> tuple[list[tuple[float, float]], float, float, int]:
    """(latencies, CPU seconds, wall seconds, resident memory growth in KiB) of the service watching `source`."""
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
        rss, cpu, wall = _usage()
        while not source.exhausted:
            time.sleep(0.05)
        service.inbox.join()
        service.stop()
        thread.join()
        rss_after, cpu_after, wall_after = _usage()
        return hub.samples, cpu_after - cpu, wall_after - wall, rss_after - rss


def run_watcher(source: SyntheticSceneSource) -> tuple[list[tuple[float, float]], float, float, int]:
    watcher = build_watcher(CAMERA, source)
    rss, cpu, wall = _usage()
    samples = [(t, time.time() - t) for t, event in watcher if not isinstance(event, CameraStatus)]
    rss_after, cpu_after, wall_after = _usage()
    return samples, cpu_after - cpu, wall_after - wall, rss_after - rss


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
    for name, (_, cpu, wall, rss) in (("service", run_service(idle(args.idle_seconds))),
                                      ("peer: watcher alone", run_watcher(idle(args.idle_seconds)))):
        print(f"  {name:<32} CPU {cpu / wall * 100:5.1f} % of a core  resident memory growth {rss / 1024:6.1f} MiB")


if __name__ == "__main__":
    main()
