"""A club evening under load: N tables each playing two inputs a second, one real Mosquitto, the hall.

    python bench/hall_latency.py [--tables 10 50] [--seconds 20] [--rate 2]

For each N, a child process runs N simulated tables (tests/club_tables.py: a real journal and journaled
session each, on a thread of its own, its hub published after every input, its ClubPublisher sending to
the broker); `cardtable hall` runs as its own process, as in the club. This process follows the hall's
page stream (/api/events) and, as the peer measured in the same run, the broker directly (a plain MQTT
subscriber of the tables' state). Figures:

* hall page update: from the table's hub publish (the document's `at`) to the stream frame that first
  shows that version of that table arriving here (median, p99, max); the direct subscriber's delay for
  the same state messages, and the ratio;
* resident memory of the broker and of the hall process after the run, per N, and the ratio between the
  largest and the smallest N against the ratio of the table counts.

Target: 50 tables at 2 events/s, hall page update p99 <= 200 ms.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from club_broker import Broker, free_port  # noqa: E402  (the tests' real-Mosquitto helper)

CLUB = "bench"


# ----- the child: N tables playing ------------------------------------------------------------------
def tables_child(count: int, rate: float, seconds: float, port: int, folder: Path) -> None:
    from club_tables import ClubTable, game_log

    class Settings:  # what ClubTable needs of the broker: its port and each table's password
        def __init__(self) -> None:
            self.port = port

        def settings(self, user: str) -> Any:
            from club_broker import password
            from controller.club.connection import BrokerSettings
            return BrokerSettings("127.0.0.1", port, user, password(user))

    stop_at = time.monotonic() + seconds

    def play(index: int) -> None:
        lines = game_log(index, "closed")
        table = ClubTable(folder / f"t{index:02d}", f"t{index:02d}", lines[0], Settings(), club=CLUB)  # type: ignore[arg-type]
        table.publisher.start()
        while not table.publisher.connected:
            time.sleep(0.05)
        start = time.monotonic() + (index % 10) / 10 / rate  # spread the tables over the interval
        for number, line in enumerate(lines[1:]):
            due = start + number / rate
            if due > stop_at:
                break
            time.sleep(max(0.0, due - time.monotonic()))
            table.feed(line)
        table.publisher.stop()
        table.close()

    threads = [threading.Thread(target=play, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


# ----- this process: the hall's stream and the broker, followed -----------------------------------
def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for {pid}")


class StreamFollower(threading.Thread):
    """The hall page's stream: for each table version, when the first frame showing it arrived."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.port, self.delays = port, []  # type: ignore[var-annotated]
        self.seen: dict[str, int] = {}
        self.recording = False

    def run(self) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        connection.request("GET", "/api/events")
        reply = connection.getresponse()
        while True:
            line = reply.readline()
            if not line:
                return
            if not line.startswith(b"data: "):
                continue
            arrived = time.time()
            for table in json.loads(line[6:])["tables"]:
                version = table.get("version")
                if version is not None and version > self.seen.get(table["table"], 0):
                    self.seen[table["table"]] = version
                    if self.recording:
                        self.delays.append(arrived - table["at"])


def direct_subscriber(broker: Broker, delays: list[float], recording: threading.Event) -> Any:
    from controller.club.connection import make_client

    client = make_client(broker.hall_settings(), "bench-direct")

    def on_message(client: Any, userdata: Any, message: Any) -> None:
        if message.topic.endswith("/state") and recording.is_set() and not message.retain:
            delays.append(time.time() - json.loads(message.payload)["at"])

    client.on_message = on_message
    client.on_connect = lambda c, *args: c.subscribe(f"cardtable/{CLUB}/+/state", qos=1)
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    return client


def figures(delays: list[float]) -> dict[str, float]:
    ms = sorted(d * 1000 for d in delays)
    return {"n": len(ms), "median": statistics.median(ms), "p99": ms[int(0.99 * (len(ms) - 1))], "max": ms[-1]}


def run(count: int, rate: float, seconds: float, folder: Path) -> dict[str, Any]:
    names = [f"t{i:02d}" for i in range(count)]
    broker = Broker(folder / "broker", names)
    broker.start()
    web = free_port()
    secret = folder / "hall-password"
    from club_broker import HALL_PASSWORD
    secret.write_text(HALL_PASSWORD + "\n")
    (folder / "hall.toml").write_text(
        f'club = "{CLUB}"\ndatabase = "hall.sqlite3"\n[broker]\nhost = "127.0.0.1"\nport = {broker.port}\n'
        f'username = "hall"\npassword_file = "hall-password"\n[web]\nhost = "127.0.0.1"\nport = {web}\n')
    hall = subprocess.Popen([sys.executable, "-m", "controller.cli", "hall", "--config", str(folder / "hall.toml")],
                            cwd=ROOT, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                http.client.HTTPConnection("127.0.0.1", web, timeout=1).request("GET", "/api/board")
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        follower = StreamFollower(web)
        follower.start()
        direct: list[float] = []
        recording = threading.Event()
        client = direct_subscriber(broker, direct, recording)
        assert broker.process is not None
        idle = {"broker": rss_mb(broker.process.pid), "hall": rss_mb(hall.pid)}
        child = subprocess.Popen([sys.executable, __file__, "--child", str(count), "--rate", str(rate),
                                  "--seconds", str(seconds), "--port", str(broker.port), "--folder", str(folder)])
        time.sleep(3)  # the tables connect and publish their first state: not measured
        follower.recording = True
        recording.set()
        child.wait()
        time.sleep(1)
        memory = {"broker": rss_mb(broker.process.pid), "hall": rss_mb(hall.pid)}
        client.disconnect()
        return {"tables": count, "hall": figures(follower.delays), "direct": figures(direct),
                "idle": idle, "memory": memory}
    finally:
        hall.terminate()
        hall.wait(10)
        broker.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[10, 50])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rate", type=float, default=2.0, help="inputs per second per table")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--folder", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        tables_child(args.child, args.rate, args.seconds, args.port, args.folder)
        return
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    results = []
    for count in args.tables:
        with tempfile.TemporaryDirectory() as folder:
            result = run(count, args.rate, args.seconds, Path(folder))
        results.append(result)
        hall, direct, memory, idle = result["hall"], result["direct"], result["memory"], result["idle"]
        print(f"{count:3d} tables at {args.rate:g}/s: hall page update median {hall['median']:.1f} ms, "
              f"p99 {hall['p99']:.1f} ms, max {hall['max']:.1f} ms ({hall['n']} updates); broker direct "
              f"median {direct['median']:.1f} ms, p99 {direct['p99']:.1f} ms ({direct['n']}); "
              f"p99 ratio hall/direct {hall['p99'] / direct['p99']:.1f}")
        print(f"    memory: broker {idle['broker']:.1f} -> {memory['broker']:.1f} MB, "
              f"hall {idle['hall']:.1f} -> {memory['hall']:.1f} MB")
    if len(results) > 1:
        small, large = results[0], results[-1]
        print(f"{large['tables']} vs {small['tables']} tables ({large['tables'] / small['tables']:.1f}x): "
              f"broker memory {large['memory']['broker'] / small['memory']['broker']:.2f}x, "
              f"hall memory {large['memory']['hall'] / small['memory']['hall']:.2f}x")
    print(f"load average at end: {os.getloadavg()[0]:.1f}")
    worst = results[-1]["hall"]["p99"]
    print(f"target: p99 <= 200 ms at {results[-1]['tables']} tables: {'met' if worst <= 200 else 'NOT met'}")


if __name__ == "__main__":
    main()
