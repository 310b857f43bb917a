"""Table service benchmark: start to READY of `cardtable run`, as systemd sees it.

    python bench/service_start.py [--runs 5]

Each run starts `cardtable run` in a fresh process (mock pins, the synthetic camera, no peg board, a fresh
state directory) and times the READY=1 on its notify socket (target: 3 s). The peer, measured in the same
run, is the same interpreter importing the service's modules and loading the ONNX models, and nothing
else: the floor a start-up cannot go under without loading less.
"""
from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).parents[1]
ENV = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock", "GPIOZERO_MOCK_PIN_CLASS": "mockpwmpin"}
PEER = ("from controller.service.loop import TableService; from controller.service.camera import build_watcher; "
        "from controller.service.config import CameraConfig; build_watcher(CameraConfig(source='synthetic'))")


def start_to_ready() -> float:
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "config.toml"
        config.write_text('state_directory = "state"\n[camera]\nsource = "synthetic"\n[pegboard]\nenabled = false\n')
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notify:
            notify.bind(f"{tmp}/notify")
            notify.settimeout(120)
            started = time.perf_counter()
            child = subprocess.Popen([sys.executable, "-m", "controller.cli", "run", "--config", str(config)],
                                     cwd=ROOT, env={**ENV, "NOTIFY_SOCKET": f"{tmp}/notify"},
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                while not notify.recv(4096).startswith(b"READY=1"):
                    pass
                return time.perf_counter() - started
            finally:
                child.terminate()
                child.wait(30)


def peer() -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", PEER], cwd=ROOT, env=ENV, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    ready = [start_to_ready() for _ in range(args.runs)]
    floor = [peer() for _ in range(args.runs)]
    print(f"start to READY over {args.runs} runs: median {statistics.median(ready):.2f} s, "
          f"best {min(ready):.2f} s, worst {max(ready):.2f} s (target 3 s: "
          f"{'met' if statistics.median(ready) <= 3.0 else 'MISSED'})")
    print(f"peer (imports and the ONNX models only): median {statistics.median(floor):.2f} s; "
          f"ratio {statistics.median(ready) / statistics.median(floor):.2f}")


if __name__ == "__main__":
    main()
