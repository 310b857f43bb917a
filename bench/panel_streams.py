"""200 phones following the table: the panel's stream delivery, the console meanwhile, and memory,
with the panel's waitress server against Flask's default threaded server (werkzeug, a thread per
connection) measured in the same run.

    python bench/panel_streams.py [--streams 200] [--updates 40] [--interval 0.1]

Each server runs in a child process with a real hub and app; this process opens `--streams` stream
clients on loopback (non-blocking sockets on one selector, so the clients cost the server nothing), waits
until each has its first frame, then the child publishes `--updates` changes `--interval` apart. Figures:
delivery (publish to the frame's arrival at a client, every client and update: median, p99, max), the
console's answers meanwhile (a signed-in GET of the dealer document and a POST, p99 and max), and the
server's resident memory before the streams, with them open, and after the updates. Targets: p99
delivery <= 100 ms, console <= 50 ms, memory growth <= 50 MB.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import selectors
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PIN = "2468"


# ----- the child: one server with a hub, publishing on command -------------------------------------
def serve_child(kind: str) -> None:
    sys.path.insert(0, str(ROOT))
    from controller.service.hub import StateHub, TableStatus
    from controller.service.pin import hash_pin
    from web_panel import ConsoleAnswer, GameStart, create_app, make_server
    from web_panel.settings import PanelSettings

    class Console:  # the service's side, answering at once: the panel's own cost is measured
        def start_game(self, start: GameStart) -> ConsoleAnswer:
            return ConsoleAnswer(True, "started")

        def console_event(self, event: dict[str, Any]) -> ConsoleAnswer:
            return ConsoleAnswer(True, "accepted")

        def resolve_hold(self, card: str) -> ConsoleAnswer:
            return ConsoleAnswer(True, "resolved")

        def relay(self) -> ConsoleAnswer:
            return ConsoleAnswer(True, "asked again")

        def undo(self) -> ConsoleAnswer:
            return ConsoleAnswer(True, "undone")

        def end_game(self) -> ConsoleAnswer:
            return ConsoleAnswer(True, "ended")

        def hold_crop(self) -> bytes | None:
            return None

        def deck_check(self, step: str, deck: str | None = None) -> ConsoleAnswer:
            return ConsoleAnswer(True, "checking")

        def enrolment(self, step: str, answer: str | None = None) -> ConsoleAnswer:
            return ConsoleAnswer(True, "enrolling")

    hub = StateHub()
    view = {"game": "cribbage", "players": ["Ann", "Bo"], "scores": [0, 0], "count": 0, "series": []}
    hub.publish(view, view, TableStatus())
    app = create_app(hub, Console(), settings=PanelSettings(pin_hash=hash_pin(PIN)))
    if kind == "waitress":
        server = make_server(app, "127.0.0.1", 0)
        port, run = server.effective_port, server.run
    else:
        import logging
        from werkzeug.serving import make_server as werkzeug_server
        logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
        peer = werkzeug_server("127.0.0.1", 0, app, threaded=True)
        port, run = peer.port, peer.serve_forever
    threading.Thread(target=run, daemon=True).start()
    print(f"ready {port} {rss_mb():.1f}", flush=True)
    for line in sys.stdin:
        command = line.split()
        if command[0] == "rss":
            print(f"rss {rss_mb():.1f}", flush=True)
        elif command[0] == "publish":
            updates, interval = int(command[1]), float(command[2])
            for number in range(1, updates + 1):
                time.sleep(interval)
                hub.publish({**view, "scores": [number, 0]}, view, TableStatus())
            print("published", flush=True)
        elif command[0] == "stop":
            hub.close()
            return


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


# ----- the clients ---------------------------------------------------------------------------------
class Streams:
    """`count` stream clients on one selector; each frame's delivery time is recorded on arrival."""

    def __init__(self, port: int, count: int) -> None:
        self.selector = selectors.DefaultSelector()
        self.buffers: dict[socket.socket, bytes] = {}
        self.frames: dict[socket.socket, int] = {}
        self.delays: list[float] = []
        for _ in range(count):
            client = socket.create_connection(("127.0.0.1", port))
            client.sendall(b"GET /api/events HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n")
            client.setblocking(False)
            self.selector.register(client, selectors.EVENT_READ)
            self.buffers[client], self.frames[client] = b"", 0
        self.stopping = False

    def pump(self, until: float, want_frames: int | None = None) -> None:
        while time.time() < until and not self.stopping:
            if want_frames is not None and min(self.frames.values()) >= want_frames:
                return
            for key, _ in self.selector.select(0.05):
                client: socket.socket = key.fileobj  # type: ignore[assignment]
                data = client.recv(65536)
                arrived = time.time()
                self.buffers[client] += data
                while b"\n\n" in self.buffers[client]:
                    block, self.buffers[client] = self.buffers[client].split(b"\n\n", 1)
                    at = block.find(b'"at":')
                    if at >= 0:
                        self.frames[client] += 1
                        if self.frames[client] > 1:  # the first is the state on connecting, not an update
                            published = float(block[at + 5:block.index(b",", at)])
                            self.delays.append(arrived - published)

    def close(self) -> None:
        for client in self.buffers:
            client.close()


def sign_in(port: int) -> tuple[http.client.HTTPConnection, dict[str, str]]:
    """A dealer's connection, signed in, and the headers its requests carry (cookie, CSRF token)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", "/console")
    page = connection.getresponse()
    cookie = page.getheader("Set-Cookie", "").split(";")[0]
    token = page.read().decode().split('name="csrf-token" content="')[1].split('"')[0]
    connection.request("POST", "/console/sign-in", json.dumps({"pin": PIN}),
                       {"Content-Type": "application/json", "X-CSRF-Token": token, "Cookie": cookie})
    signed = connection.getresponse()
    cookie = signed.getheader("Set-Cookie", cookie).split(";")[0]
    token = json.loads(signed.read())["csrf"]
    return connection, {"Cookie": cookie, "X-CSRF-Token": token, "Content-Type": "application/json"}


def console_timings(connection: http.client.HTTPConnection, headers: dict[str, str],
                    stop: threading.Event) -> list[float]:
    """The dealer document then a POST, over and over until `stop`: each answer's time."""
    timings = []
    while not stop.is_set():
        for method, path in (("GET", "/console/api/state"), ("POST", "/console/api/relay")):
            started = time.perf_counter()
            connection.request(method, path, b"{}" if method == "POST" else None, headers)
            reply = connection.getresponse()
            reply.read()
            timings.append(time.perf_counter() - started)
            assert reply.status == 200, (path, reply.status)
        time.sleep(0.02)
    return timings


def run(kind: str, streams: int, updates: int, interval: float) -> dict[str, Any]:
    child = subprocess.Popen([sys.executable, __file__, "--serve", kind], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True, cwd=ROOT)
    assert child.stdin and child.stdout

    def ask(command: str) -> list[str]:
        child.stdin.write(command + "\n")  # type: ignore[union-attr]
        child.stdin.flush()  # type: ignore[union-attr]
        return child.stdout.readline().split()  # type: ignore[union-attr]

    _, port_text, _ = child.stdout.readline().split()
    port = int(port_text)
    dealer, headers = sign_in(port)  # before measuring: checking the PIN takes scrypt's 16 MB once
    rss_start = float(ask("rss")[1])
    clients = Streams(port, streams)
    clients.pump(time.time() + 30, want_frames=1)
    connected = sum(1 for n in clients.frames.values() if n >= 1)
    rss_open = float(ask("rss")[1])
    stop = threading.Event()
    timings: list[float] = []
    console = threading.Thread(target=lambda: timings.extend(console_timings(dealer, headers, stop)))
    console.start()
    child.stdin.write(f"publish {updates} {interval}\n")
    child.stdin.flush()
    clients.pump(time.time() + updates * interval + 5, want_frames=updates + 1)
    stop.set()
    console.join()
    child.stdout.readline()  # "published"
    rss_end = float(ask("rss")[1])
    child.stdin.write("stop\n")
    child.stdin.flush()
    clients.close()
    child.wait(10)
    delays = sorted(clients.delays)
    missing = streams * updates - len(delays)
    return {"kind": kind, "connected": connected, "missing": missing, "delays": delays, "console": sorted(timings),
            "rss": (rss_start, rss_open, rss_end)}


def p(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(q * len(values)))] * 1000 if values else float("nan")


def report(result: dict[str, Any]) -> None:
    d, c, (start, opened, end) = result["delays"], result["console"], result["rss"]
    print(f"{result['kind']:>9}: {result['connected']} streams served, {result['missing']} frames missing; "
          f"delivery median {p(d, 0.5):.1f} ms, p99 {p(d, 0.99):.1f} ms, max {p(d, 1.0):.1f} ms; "
          f"console median {p(c, 0.5):.1f} ms, p99 {p(c, 0.99):.1f} ms, max {p(c, 1.0):.1f} ms ({len(c)} answers); "
          f"memory {start:.0f} MB, +{opened - start:.1f} MB with the streams, +{end - start:.1f} MB after")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=200)
    parser.add_argument("--updates", type=int, default=40)
    parser.add_argument("--interval", type=float, default=0.1)
    parser.add_argument("--serve", choices=("waitress", "werkzeug"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve_child(args.serve)
        return
    print(f"{args.streams} streams, {args.updates} updates {args.interval} s apart, load {os.getloadavg()[0]:.1f}")
    results = [run(kind, args.streams, args.updates, args.interval) for kind in ("waitress", "werkzeug")]
    for result in results:
        report(result)
    ours, peer = results
    print(f"p99 delivery, werkzeug / waitress: {p(peer['delays'], 0.99) / p(ours['delays'], 0.99):.2f}x; "
          f"console p99: {p(peer['console'], 0.99) / p(ours['console'], 0.99):.2f}x")


if __name__ == "__main__":
    main()
