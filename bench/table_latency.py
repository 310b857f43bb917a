"""Card placed -> event accepted and journaled, against the vision alone, at 15 fps.

    python bench/table_latency.py [--hands 2] [--reads 3] [--fps 15] [--seed 1] [--synchronous FULL]

Plays simulated cribbage hands (2 players, closed deal) at the demo's physical table
(controller.simulation.scene): every card move is rendered beforehand into the frames the camera takes
of it, and the frames are then delivered at `--fps`, in real time, to the live pipeline: the tracker
(the real detector, calibrated), each observation as a table-log line to the journaled table session
(the journal on disk, SQLite WAL with `--synchronous`). A frame that arrives while the last is still
being worked on waits, as a camera's queue would. For each card laid that made an event, measured in
the same run:

* vision:   the time the vision (tracker and detector) took for the frame that reported the card;
* latency:  from that frame's arrival to the event accepted and journaled (its wait, the vision, the
            session, the journal);
* table:    from the vision's report to the event journaled: the session and the journal alone;
* ratio:    (vision + table) / vision, and latency / vision (with the frame's wait in the queue);
* placed:   from the first frame showing the card, which includes the frames the tracker waits for the
            table to settle and reads it (`settle + reads` frames at `--fps`): what a player waits.

The target is a latency <= 150 ms at 15 fps. Single core (cv2.setNumThreads(1)), as on the Pi.
"""
from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import cv2

from controller.cribbage.game import new_game
from controller.history import Header
from controller.journal import Journal
from controller.simulation.cribbage import Driver
from controller.simulation.scene.actions import Action, Lay
from controller.simulation.scene.cribbage import CribbagePlayers
from controller.simulation.scene.stage import Stage, table_stage
from controller.table.journaled import JournaledTable
from controller.table.log import TableLogHeader
from vision.observations import CardPlaced, observation_to_json

TARGET_MS = 150.0


@dataclass
class Sample:
    vision_ms: float
    table_ms: float  # from the vision's report to the event journaled: the session and the journal
    latency_ms: float
    placed_ms: float


def play(hands: int, reads: int, fps: float, seed: int, journal_path: Path, synchronous: str) -> list[Sample]:
    header = Header("cribbage", ("Ann", "Bo"), 0, {}, None)
    rng = random.Random(seed)
    driver = Driver(new_game(header), rng, shorthand=0.0)
    stage = table_stage(2, open_deal=False, seed=seed, reads=reads)
    players = CribbagePlayers(driver, stage.table, open_deal=False)
    journal = Journal.open(str(journal_path), synchronous=synchronous)
    table = JournaledTable.start(journal, TableLogHeader(header, "closed"))
    camera, period = stage.camera, 1.0 / fps
    stage.camera.show([])  # the empty table, and every lazy load, before the clock runs
    samples: list[Sample] = []
    try:
        played = 0
        while played < hands and (move := driver.choose()) is not None:
            for action in players.actions(move):
                samples.extend(_timed(action, stage, table, period))
            driver.game.apply(move.event)
            move.commit()
            played += move.event["type"] == "new_hand"
    finally:
        journal.close()
    return samples


def _timed(action: Action, stage: Stage, table: JournaledTable, period: float) -> list[Sample]:
    """Perform `action`; for a card laid face up, deliver its frames in real time and time the event."""
    if not (isinstance(action, Lay) and action.face_up):
        for line in stage.perform(action).lines:
            table.feed(line)
        return []
    stage.table.make(action)
    frames = list(stage.camera.frames_of(stage.table.scene()))  # the camera's frames, taken beforehand
    start = time.perf_counter()
    free = start  # when the pipeline is done with the last frame
    samples = []
    for index, frame in enumerate(frames):
        arrival = start + index * period
        time.sleep(max(0.0, arrival - time.perf_counter()))
        begun = max(arrival, free, time.perf_counter())
        seen = stage.camera.tracker.process(stage.camera.detector.check(frame))
        looked = time.perf_counter()
        for observation in seen:
            step = table.feed(observation_to_json(stage.now, observation))
            if isinstance(observation, CardPlaced) and step.accepted:
                done = time.perf_counter()
                samples.append(Sample((looked - begun) * 1000, (done - looked) * 1000, (done - arrival) * 1000,
                                      (done - start) * 1000))
        free = time.perf_counter()
    return samples


def _figures(label: str, values: list[float]) -> str:
    ranked = sorted(values)
    p95 = ranked[min(len(ranked) - 1, int(0.95 * len(ranked)))]
    return f"{label:<8} median {statistics.median(ranked):7.1f} ms   p95 {p95:7.1f} ms   max {ranked[-1]:7.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=2)
    parser.add_argument("--reads", type=int, default=3, help="frames the tracker reads per settled scene")
    parser.add_argument("--fps", type=float, default=15.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--synchronous", default="FULL", choices=("FULL", "NORMAL"))
    args = parser.parse_args()
    cv2.setNumThreads(1)
    with tempfile.TemporaryDirectory() as folder:
        samples = play(args.hands, args.reads, args.fps, args.seed, Path(folder) / "bench.journal", args.synchronous)
    if not samples:
        raise SystemExit("no card laid made an event")
    vision = [s.vision_ms for s in samples]
    latency = [s.latency_ms for s in samples]
    print(f"{len(samples)} cards laid and accepted over {args.hands} hands, {args.fps:g} fps, {args.reads} reads "
          f"a scene, journal synchronous={args.synchronous}")
    print(_figures("vision", vision))
    print(_figures("table", [s.table_ms for s in samples]))
    print(_figures("latency", latency))
    print(_figures("placed", [s.placed_ms for s in samples]))
    own = statistics.median((s.vision_ms + s.table_ms) / s.vision_ms for s in samples)
    waited = statistics.median(s.latency_ms / s.vision_ms for s in samples)
    print(f"ratio    (vision + table) / vision: median {own:.3f}; latency / vision: median {waited:.2f}")
    p95 = sorted(latency)[min(len(latency) - 1, int(0.95 * len(latency)))]
    print(f"target   latency <= {TARGET_MS:.0f} ms: {'met' if p95 <= TARGET_MS else 'NOT met'} (p95 {p95:.1f} ms)")


if __name__ == "__main__":
    main()
