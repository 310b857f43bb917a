"""Memory and time of `cardtable replay` on a long history, against the way it worked before (issue 28).

    python bench/replay_memory.py [--megabytes 20] [--seed 1]

Writes a history of about N MB: a whole simulated Färbeln match (controller.simulation, five players,
~3 % of its events refused), then its events again and again, each refused once the match is over but
still read, judged and printed like any line. Then runs in child processes, each measured alone (peak
resident memory, the child's own VmHWM from /proc at its exit; wall time to the first output line and to
the end):

* streamed: `python -m controller.cli replay FILE` as it is now (each line read, judged and printed in
  turn; only the replay command's module imported);
* peer, whole file first: the earlier command, measured in the same run: read every line into a list,
  judge them all into a list of results, then print (and, as the CLI did, every command module imported).

Target: <= 50 MB resident and the first line out at once (under a second), whatever the file's size.
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

from controller.ferbli.game import new_game as new_ferbli
from controller.history import write_history
from controller.simulation import ferbli
from controller.simulation.evening import play_journal

TARGET_MB = 50.0

# Runs the code after it in the measured child, then reports the child's peak resident memory on stderr.
# VmHWM belongs to the process's own memory map (made anew at exec), unlike ru_maxrss, which a child
# inherits from the process that forked it.
REPORT_PEAK = """
import atexit, sys
def report():
    with open("/proc/self/status") as status:
        peak = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
    sys.stderr.write(f"PEAK_KB {peak}\\n")
atexit.register(report)
"""

STREAMED = REPORT_PEAK + """
import runpy
sys.argv = ["cardtable", "replay", sys.argv[1]]
runpy.run_module("controller.cli", run_name="__main__")
"""

WHOLE_FILE_FIRST = REPORT_PEAK + """
import json
from controller import cli
for module in cli.COMMAND_MODULES:  # the CLI imported every command module before parsing
    __import__(module)
from controller.history import read_history
from controller.replay import replay
header, lines = read_history(sys.argv[1])
results = list(replay(header, lines))
for result in results:
    print(json.dumps(result, ensure_ascii=False))
"""


class Run(NamedTuple):
    peak_mb: float
    first_line_s: float
    total_s: float
    lines: int


def write_match(path: Path, megabytes: float, seed: int) -> tuple[int, int]:
    """(events of the match, lines written in all)."""
    rng = random.Random(seed)
    head = ferbli.header(5, 0, [100] * 5, min=1, max=3)
    journal = play_journal(head, ferbli.FerbliTable(new_ferbli(head), rng), 100_000, rng, mistakes=0.03)
    with open(path, "w", encoding="utf-8") as out:
        write_history(out, journal.header, journal.events)
        block = "".join(json.dumps(event, ensure_ascii=False) + "\n" for event in journal.events)
        written = 1 + len(journal.events)
        while out.tell() < megabytes * 1e6:
            out.write(block)
            written += len(journal.events)
    return len(journal.events), written


def measure(code: str, path: Path) -> Run:
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", code, str(path)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    first = time.perf_counter() - started
    lines = 1 + sum(1 for _ in proc.stdout)
    err = proc.stderr.read()
    if proc.wait() != 0 or "PEAK_KB" not in err:
        raise SystemExit(f"the replay failed ({proc.returncode}): {err[-500:]}")
    peak_kb = int(err.rsplit("PEAK_KB", 1)[1].split()[0])
    return Run(peak_kb / 1024, first, time.perf_counter() - started, lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=float, default=20.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "long_match.jsonl"
        match, lines = write_match(path, args.megabytes, args.seed)
        size_mb = path.stat().st_size / 1e6
        print(f"history: {size_mb:.1f} MB, {lines - 1:,} events (a Färbeln match of {match} events, "
              f"then its events again)")
        streamed = measure(STREAMED, path)
        whole = measure(WHOLE_FILE_FIRST, path)
    assert streamed.lines == whole.lines, (streamed.lines, whole.lines)
    for name, run in (("streamed (now)", streamed), ("peer: whole file first", whole)):
        print(f"  {name:<24} peak {run.peak_mb:7.1f} MB  first line {run.first_line_s:6.2f} s  "
              f"all {run.lines:,} lines {run.total_s:6.1f} s")
    verdict = "OK" if streamed.peak_mb <= TARGET_MB else "OVER"
    print(f"  peak memory: {streamed.peak_mb:.1f} MB against the <= {TARGET_MB:.0f} MB target ({verdict}); "
          f"whole-file-first / streamed = {whole.peak_mb / streamed.peak_mb:.1f}x memory, "
          f"{whole.first_line_s / streamed.first_line_s:.0f}x time to the first line")


if __name__ == "__main__":
    main()
