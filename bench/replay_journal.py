"""Replay speed of a mixed evening's journal: `cardtable replay` over 5,000 events of all three games.

    python bench/replay_journal.py [--events 5000] [--runs 7] [--seed 1]

Writes the evening (controller.simulation.evening: cribbage 2-4 players, Femkort 3-8, Färbeln 3-7, a few
refused events) as JSONL files in a temporary folder, then times, best of N runs:

* parse:  read_history of every file (what `cardtable replay` reads);
* replay: controller.replay.replay over the parsed histories (every event judged, results built);
* both:   parse + replay, i.e. the whole command without printing;
and two peers measured in the same run:
* json:   json.loads of the same lines alone — the floor any replay pays;
* deepcopy rollback: the same replay where the engine is deep-copied before every event so that a
  rejected event can be rolled back — the naive way to meet "a rejected event changes nothing".
The target is <= 100 ms for 5,000 events (ENGINES.md); per-game cost per event is printed as well.
"""
from __future__ import annotations

import argparse
import copy
import json
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Callable, NamedTuple

from controller.engine import IllegalEvent
from controller.games import new_game
from controller.history import Header, HistoryLine, read_history, write_history
from controller.replay import replay
from controller.simulation.evening import evening_journal

TARGET_MS = 100.0
Parsed = list[tuple[Header, list[HistoryLine]]]


def write_evening(folder: Path, events: int, seed: int) -> list[Path]:
    paths = []
    for number, journal in enumerate(evening_journal(events, seed)):
        path = folder / f"{number:02d}_{journal.header.game}.jsonl"
        with open(path, "w", encoding="utf-8") as out:
            write_history(out, journal.header, journal.events)
        paths.append(path)
    return paths


class Timing(NamedTuple):
    """Best wall time and best CPU time in ms: on a loaded machine the CPU time is the steadier figure."""

    wall: float
    cpu: float

    def scaled(self, factor: float) -> Timing:
        return Timing(self.wall * factor, self.cpu * factor)

    def __str__(self) -> str:
        return f"{self.wall:7.1f} ms wall {self.cpu:7.1f} ms cpu"


def best_ms(run: Callable[[], object], runs: int) -> Timing:
    wall = cpu = float("inf")
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        run()
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    return Timing(wall * 1000, cpu * 1000)


def parse_all(paths: list[Path]) -> Parsed:
    return [read_history(path) for path in paths]


def replay_all(parsed: Parsed) -> int:
    results = 0
    for header, lines in parsed:
        for _ in replay(header, lines):
            results += 1
    return results


def json_floor(paths: list[Path]) -> int:
    objects = 0
    for path in paths:
        with open(path, encoding="utf-8") as stream:
            for text in stream:
                json.loads(text)
                objects += 1
    return objects


def deepcopy_replay(parsed: Parsed) -> None:
    """The naive rollback: snapshot the whole engine before every event, restore it on a rejection."""
    for header, lines in parsed:
        engine = new_game(header)
        for line in lines:
            snapshot = copy.deepcopy(engine)
            try:
                engine.apply(line.event)
            except IllegalEvent:
                engine = snapshot
        engine.summary()


def per_game_us(parsed: Parsed, runs: int) -> dict[str, float]:
    """Best microseconds per event for each game's share of the evening."""
    by_game: dict[str, Parsed] = defaultdict(list)
    for header, lines in parsed:
        by_game[header.game].append((header, lines))
    return {game: best_ms(lambda histories=histories: replay_all(histories), runs).cpu * 1000
            / sum(len(lines) for _, lines in histories) for game, histories in sorted(by_game.items())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        paths = write_evening(Path(folder), args.events, args.seed)
        parsed = parse_all(paths)
        events = sum(len(lines) for _, lines in parsed)
        rejected = sum(not result.get("ok", True) for header, lines in parsed for result in replay(header, lines))
        scale = 5000 / events  # report every figure for 5,000 events
        parse = best_ms(lambda: parse_all(paths), args.runs).scaled(scale)
        judged = best_ms(lambda: replay_all(parsed), args.runs).scaled(scale)
        both = best_ms(lambda: replay_all(parse_all(paths)), args.runs).scaled(scale)
        floor = best_ms(lambda: json_floor(paths), args.runs).scaled(scale)
        naive = best_ms(lambda: deepcopy_replay(parsed), max(1, args.runs // 3)).scaled(scale)
        games = per_game_us(parsed, args.runs)
    print(f"mixed evening: {len(paths)} histories, {events} events ({rejected} refused), best of {args.runs}")
    print(f"figures for 5,000 events (target <= {TARGET_MS:.0f} ms):")
    print(f"  parse (read_history)   {parse}")
    print(f"  replay (engines)       {judged}   {verdict(judged)}")
    print(f"  parse + replay         {both}   {verdict(both)}")
    print(f"  peer: json.loads alone {floor}   parse+replay / json = {both.cpu / floor.cpu:5.2f}x (cpu)")
    print(f"  peer: deepcopy rollback{naive}   deepcopy / replay = {naive.cpu / judged.cpu:5.2f}x (cpu)")
    for game, us in games.items():
        print(f"  {game:<9} {us:6.2f} us/event (cpu)")


def verdict(timing: Timing) -> str:
    return "OK" if timing.wall <= TARGET_MS else "OK on cpu" if timing.cpu <= TARGET_MS else "OVER"


if __name__ == "__main__":
    main()
