"""Färbeln replay speed: events judged per second, against the cribbage engine on its own histories.

    python bench/ferbli_replay.py [--events N]

Replays the history files of tests/data/histories/<game>/ (accepted and rejected events alike) through
`controller.games.new_game` until at least N events were judged, best of 5 runs, and prints the cost per
event, the time for 5,000 events (the budget is 100 ms) and the ratio to the peer engine.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from controller.engine import IllegalEvent
from controller.games import new_game
from controller.history import Header, HistoryLine, read_history

HISTORIES = Path(__file__).resolve().parent.parent / "tests" / "data" / "histories"
BUDGET_MS = 100.0


def load(game: str) -> list[tuple[Header, list[HistoryLine]]]:
    return [read_history(path) for path in sorted((HISTORIES / game).glob("*.jsonl"))]


def run_once(journals: list[tuple[Header, list[HistoryLine]]], events: int) -> tuple[int, float]:
    """Judge whole journals until `events` were judged; returns (events judged, seconds)."""
    judged, elapsed = 0, 0.0
    while judged < events:
        for header, lines in journals:
            engine = new_game(header)
            start = time.perf_counter()
            for line in lines:
                try:
                    engine.apply(line.event)
                except IllegalEvent:
                    pass
            elapsed += time.perf_counter() - start
            judged += len(lines)
    return judged, elapsed


def per_event_us(game: str, events: int) -> float:
    journals = load(game)
    best = min(judged_and_time[1] / judged_and_time[0] for judged_and_time in
               (run_once(journals, events) for _ in range(5)))
    return best * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=5000)
    args = parser.parse_args()
    ferbli = per_event_us("ferbli", args.events)
    cribbage = per_event_us("cribbage", args.events)
    print(f"ferbli:   {ferbli:7.2f} us/event  -> 5,000 events in {ferbli * 5:6.1f} ms (budget {BUDGET_MS:.0f} ms)")
    print(f"cribbage: {cribbage:7.2f} us/event  -> 5,000 events in {cribbage * 5:6.1f} ms")
    print(f"ratio ferbli/cribbage: {ferbli / cribbage:.2f}")


if __name__ == "__main__":
    main()
