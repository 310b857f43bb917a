"""Journal appends per second, and µs per append, with synchronous FULL and NORMAL, against peers measured
in the same run on the same disk.

    python bench/journal_throughput.py [--appends 2000] [--dir FOLDER] [--seed 1]

The lines are a simulated cribbage evening's: each accepted event is journaled as its table-log line
(`append_input`) then the event (`append_event`); every append commits before returning. Peers:

* file + fsync: the same lines appended to a plain JSONL file, `write` then `fsync` per line — the
  floor of any per-line durable log on this disk (what FULL is compared against);
* sqlite OFF: one INSERT + COMMIT per line into a bare WAL table with synchronous=OFF (no fsync at
  all) — SQLite's own cost, so the journal's checks and bookkeeping show (what NORMAL is compared against).

Run it on the disk the table uses (`--dir /var/lib/cardtable` on the Pi: an SD card's fsync costs far
more than a laptop SSD's).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from controller.cribbage.game import new_game
from controller.journal import Journal
from controller.table.log import FORMAT as TABLE_LOG_FORMAT
from controller.simulation.cribbage import Driver, header

Line = tuple[str, dict[str, Any]]  # ("input" | "event", the JSON object)


def evening(appends: int, seed: int) -> tuple[dict[str, Any], list[Line]]:
    """The table-log header and `appends` lines: input, event, input, event, ... over as many games as it takes."""
    rng = random.Random(seed)
    head = header(2, 0)
    lines: list[Line] = []
    while len(lines) < appends:
        driver = Driver(new_game(head), rng, unread=0.2)
        for number, (event, _) in enumerate(driver.events()):
            lines += [("input", {"t": number * 0.8, "type": "console", "event": event}), ("event", event)]
    return {**head.to_json(), "format": TABLE_LOG_FORMAT, "deal": "closed"}, lines[:appends]


def journal_run(folder: Path, synchronous: str) -> Callable[[dict[str, Any], list[Line]], None]:
    def run(head: dict[str, Any], lines: list[Line]) -> None:
        with Journal.open(folder / f"journal-{synchronous}.sqlite3", synchronous=synchronous) as journal:
            game_id = journal.start_game(head)
            input_seq = None
            for kind, line in lines:
                if kind == "input":
                    input_seq = journal.append_input(game_id, line)
                else:
                    journal.append_event(game_id, line, input_seq)
    return run


def file_fsync_run(folder: Path) -> Callable[[dict[str, Any], list[Line]], None]:
    def run(head: dict[str, Any], lines: list[Line]) -> None:
        descriptor = os.open(folder / "log.jsonl", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            for _, line in [("header", head), *lines]:
                os.write(descriptor, (json.dumps(line, ensure_ascii=False) + "\n").encode())
                os.fsync(descriptor)
        finally:
            os.close(descriptor)
    return run


def sqlite_off_run(folder: Path) -> Callable[[dict[str, Any], list[Line]], None]:
    def run(head: dict[str, Any], lines: list[Line]) -> None:
        connection = sqlite3.connect(folder / "bare.sqlite3", isolation_level=None)
        connection.execute("PRAGMA journal_mode = WAL")
        connection.execute("PRAGMA synchronous = OFF")
        connection.execute("CREATE TABLE IF NOT EXISTS lines (seq INTEGER PRIMARY KEY, kind TEXT, line TEXT)")
        for kind, line in [("header", head), *lines]:
            connection.execute("BEGIN IMMEDIATE")
            connection.execute("INSERT INTO lines (kind, line) VALUES (?, ?)", (kind, json.dumps(line)))
            connection.execute("COMMIT")
        connection.close()
    return run


def measure(run: Callable[[dict[str, Any], list[Line]], None], head: dict[str, Any], lines: list[Line]) -> float:
    """µs per append of one run."""
    start = time.perf_counter()
    run(head, lines)
    return (time.perf_counter() - start) / len(lines) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--appends", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--dir", type=Path, default=None, help="where to write (default: a temporary folder)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    head, lines = evening(args.appends, args.seed)
    figures: dict[str, float] = {}
    makers: dict[str, Callable[[Path], Callable[[dict[str, Any], list[Line]], None]]] = {
        "journal FULL": lambda folder: journal_run(folder, "FULL"),
        "journal NORMAL": lambda folder: journal_run(folder, "NORMAL"),
        "peer: file write+fsync": file_fsync_run,
        "peer: sqlite OFF": sqlite_off_run,
    }
    for name, make in makers.items():
        best = float("inf")
        for _ in range(args.runs):
            with tempfile.TemporaryDirectory(dir=args.dir) as folder:
                best = min(best, measure(make(Path(folder)), head, lines))  # a fresh file each run
        figures[name] = best
    where = args.dir or Path(tempfile.gettempdir())
    print(f"{len(lines)} appends (table-log line, then its event), best of {args.runs}, in {where}")
    for name, us in figures.items():
        print(f"  {name:<24} {us:9.1f} us/append {1e6 / us:9.0f} appends/s")
    print(f"  FULL / file+fsync      {figures['journal FULL'] / figures['peer: file write+fsync']:6.2f}x")
    print(f"  NORMAL / sqlite OFF    {figures['journal NORMAL'] / figures['peer: sqlite OFF']:6.2f}x")
    print(f"  FULL / NORMAL          {figures['journal FULL'] / figures['journal NORMAL']:6.2f}x")


if __name__ == "__main__":
    main()
