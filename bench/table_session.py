"""Table session throughput: the sample table logs through the session, against replaying their events.

    python bench/table_session.py [--runs 5]

For every sample log of tests/data/table-logs/ (all three games, both deal modes, with holds, refused
cards, undo, unknown cards and camera losses), best of N runs:

* session: every parsed input fed through a fresh TableSession (its events judged by the engine, the
  outputs derived);
* peer, replay: the session's accepted events (its history) judged by a fresh engine alone, the floor
  any session pays;
printed as inputs/s, events/s, µs per input, and the ratio session / replay. Then the same logs through
the JournaledTable (each input line and accepted event committed to a SQLite journal before the step is
returned), with synchronous FULL (the service's default: an fsync per commit) and NORMAL, on the disk of
--dir: ms per input, the worst input, and events/s — what a card laid costs between the camera's
observation and the event being accepted and journaled.
"""
from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from controller.games import new_game
from controller.journal import Journal
from controller.table.journaled import JournaledTable
from controller.table.log import read_table_log
from controller.table.session import TableSession

SAMPLES = Path(__file__).resolve().parent.parent / "tests" / "data" / "table-logs"


def best(runs: int, work: object) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--dir", help="where the journals are written (default: a temporary folder)")
    args = parser.parse_args()
    print(f"{'log':<24} {'inputs':>7} {'events':>7} {'session ms':>11} {'µs/input':>9} {'replay ms':>10} {'ratio':>6}")
    total_session = total_replay = 0.0
    total_inputs = total_events = 0
    for path in sorted(SAMPLES.glob("*.jsonl")):
        header, lines = read_table_log(path)
        inputs = [line.input for line in lines]

        def feed() -> TableSession:
            session = TableSession(header.header, header.deal)
            for item in inputs:
                session.feed(item)
            return session

        history = feed().history

        def judge() -> None:
            engine = new_game(header.header)
            for event in history:
                engine.apply(event)

        session_s, replay_s = best(args.runs, feed), best(args.runs, judge)
        total_session, total_replay = total_session + session_s, total_replay + replay_s
        total_inputs, total_events = total_inputs + len(inputs), total_events + len(history)
        print(f"{path.stem:<24} {len(inputs):>7} {len(history):>7} {session_s * 1000:>11.1f} "
              f"{session_s / len(inputs) * 1e6:>9.1f} {replay_s * 1000:>10.1f} {session_s / replay_s:>6.1f}")
    print(f"all: {total_inputs / total_session:,.0f} inputs/s, {total_events / total_session:,.0f} events/s "
          f"through the session; the engine alone judges {total_events / total_replay:,.0f} events/s "
          f"(session / replay {total_session / total_replay:.1f}x)")
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        for synchronous in ("FULL", "NORMAL"):
            journaled(Path(folder) / f"journal-{synchronous}.sqlite3", synchronous)


def journaled(path: Path, synchronous: str) -> None:
    """Every sample log through a JournaledTable: per input, the time to journal, judge and journal again."""
    times: list[float] = []
    events = 0
    with Journal.open(path, synchronous=synchronous) as journal:
        for sample in sorted(SAMPLES.glob("*.jsonl")):
            header, lines = read_table_log(sample)
            table = JournaledTable.start(journal, header)
            for line in lines:
                start = time.perf_counter()
                step = table.feed(json.loads(json.dumps(line.data)))
                times.append(time.perf_counter() - start)
                events += len(step.accepted)
    times.sort()
    print(f"journaled, synchronous {synchronous}: {len(times)} inputs, {events} events, "
          f"{sum(times) / len(times) * 1000:.2f} ms per input (median {times[len(times) // 2] * 1000:.2f}, "
          f"p99 {times[int(len(times) * 0.99)] * 1000:.2f}, worst {times[-1] * 1000:.1f}), "
          f"{events / sum(times):,.0f} events/s")


if __name__ == "__main__":
    main()
