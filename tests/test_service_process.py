"""`cardtable run` as systemd runs it: a child process on mock pins with the synthetic camera and the real
firmware behind a pty. READY and the watchdog on a real notify socket, a clean SIGTERM, a SIGKILL the
journal survives, a corrupt config and a second service refused before they touch anything."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.journal import JOURNAL_NAME, Journal
from controller.pegboard import pegproto
from controller.pegboard.state import BoardState, Mode, Track
from controller.pegboard.virtual import VirtualPegBoard
from controller.service.lock import LOCK_NAME

ROOT = Path(__file__).parents[1]
START_TIMEOUT = 120  # a loaded CI machine; the target (3 s to READY) is measured by bench/service_start.py


def write_config(tmp_path: Path, board: VirtualPegBoard | None, extra: str = "", camera: str = "",
                 port: int = 0) -> Path:
    path = tmp_path / "config.toml"
    pegboard = f'port = "{board.port_path}"' if board else "enabled = false"
    path.write_text(f'state_directory = "state"\n[camera]\nsource = "synthetic:1"\nfps = 15\n{camera}'
                    f"[pegboard]\n{pegboard}\n[panel]\nhost = \"127.0.0.1\"\nport = {port}\n{extra}")
    return path


class Child:
    """`cardtable run --config PATH` with its own notify socket."""

    def __init__(self, tmp_path: Path, config: Path, watchdog_usec: int = 2_000_000) -> None:
        self.socket_path = tmp_path / f"notify-{time.monotonic_ns()}"
        self.notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.notify.bind(str(self.socket_path))
        env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock", "GPIOZERO_MOCK_PIN_CLASS": "mockpwmpin",
               "NOTIFY_SOCKET": str(self.socket_path), "WATCHDOG_USEC": str(watchdog_usec)}
        env.pop("WATCHDOG_PID", None)
        self.started = time.monotonic()
        self.process = subprocess.Popen([sys.executable, "-m", "controller.cli", "run", "--config", str(config)],
                                        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True)

    def expect(self, message: str, timeout: float) -> float:
        """Seconds since start when `message` arrived on the notify socket (others are skipped)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.notify.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                if self.notify.recv(4096).decode().split("\n")[0] == message:
                    return time.monotonic() - self.started
            except TimeoutError:
                break
        raise AssertionError(f"no {message} within {timeout} s; stderr: {self.finish(signal.SIGKILL)[1][-2000:]}")

    def finish(self, signum: int | None, timeout: float = 30) -> tuple[int, str]:
        """Exit status and stderr, after sending `signum` (None: wait for the child to end by itself)."""
        if signum is not None and self.process.poll() is None:
            self.process.send_signal(signum)
        _, err = self.process.communicate(timeout=timeout)
        self.notify.close()
        return self.process.returncode, err


@pytest.fixture
def board(tmp_path: Path) -> Iterator[VirtualPegBoard]:
    with VirtualPegBoard({"tracks": 2, "holes": 121}, link_path=tmp_path / "pegboard") as virtual:
        yield virtual


def test_ready_watchdog_and_a_clean_sigterm(tmp_path: Path, board: VirtualPegBoard) -> None:
    child = Child(tmp_path, write_config(tmp_path, board))
    child.expect("READY=1", START_TIMEOUT)
    child.expect("WATCHDOG=1", 5)  # from the loop, every WATCHDOG_USEC / 2
    start = BoardState((Track((255, 40, 0), 0, 0), Track((0, 90, 255), 0, 0)), 121)
    assert board.wait_for_leds(board.render(start), 10)
    code, err = child.finish(signal.SIGTERM)
    assert code == 0, err
    assert "cardtable service stopped" in err
    told = pegproto.decode_state(start.with_mode(Mode.IDLE).encode())
    assert board.app.link.state == told  # the board was told the table stopped (its idle animation)
    state = tmp_path / "state"
    assert not (state / (JOURNAL_NAME + "-wal")).exists()  # the journal was closed
    with Journal.open(state / JOURNAL_NAME, readonly=True) as journal:
        assert len(journal.games()) == 1


def test_sigkill_then_the_journal_takes_the_hand_up_again(tmp_path: Path) -> None:
    config = write_config(tmp_path, None)
    child = Child(tmp_path, config)
    child.expect("READY=1", START_TIMEOUT)
    journal_path = tmp_path / "state" / JOURNAL_NAME

    def inputs() -> int:
        with Journal.open(journal_path, readonly=True) as journal:
            return len(journal.inputs(1))

    deadline = time.monotonic() + 120
    while inputs() < 3 and time.monotonic() < deadline:  # the scripted hand: cards laid, seen, journaled
        time.sleep(0.2)
    child.finish(signal.SIGKILL)
    assert child.process.returncode == -signal.SIGKILL
    before = inputs()
    assert before >= 3
    again = Child(tmp_path, config)  # what systemd's Restart=on-failure does
    again.expect("READY=1", START_TIMEOUT)
    code, err = again.finish(signal.SIGTERM)
    assert code == 0 and f"took up game 1 again after {before} inputs" in err
    with Journal.open(journal_path, readonly=True) as journal:
        assert [game.id for game in journal.games()] == [1] and len(journal.inputs(1)) >= before


def test_a_corrupt_config_is_refused_naming_the_key_before_anything_starts(tmp_path: Path) -> None:
    config = write_config(tmp_path, None, "[hardware]\nbuzzer = \"loud\"\n")
    child = Child(tmp_path, config)
    code, err = child.finish(None)
    assert code == 2 and "hardware.buzzer: expected a whole number, got 'loud'" in err
    assert not (tmp_path / "state").exists()  # no lock, no journal, no pin touched


def test_a_calibration_that_does_not_load_is_refused_naming_its_key(tmp_path: Path) -> None:
    (tmp_path / "cal.json").write_text("{not json")
    child = Child(tmp_path, write_config(tmp_path, None, camera='calibration = "cal.json"\n'))
    code, err = child.finish(None)
    assert code == 2 and "camera.calibration:" in err and "Traceback" not in err


def test_a_second_service_is_refused_and_never_touches_gpio(tmp_path: Path) -> None:
    config = write_config(tmp_path, None)
    first = Child(tmp_path, config)
    first.expect("READY=1", START_TIMEOUT)
    second = Child(tmp_path, config)
    code, err = second.finish(None)
    assert code == 1 and f"another cardtable service (pid {first.process.pid})" in err
    assert "ready" not in err  # refused before the journal, the camera or a single pin
    assert first.process.poll() is None  # the first plays on
    assert first.finish(signal.SIGTERM)[0] == 0
    assert (tmp_path / "state" / LOCK_NAME).exists()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_the_service_serves_the_panel_and_a_sigterm_ends_its_streams(tmp_path: Path) -> None:
    port = free_port()
    child = Child(tmp_path, write_config(tmp_path, None, port=port))
    child.expect("READY=1", START_TIMEOUT)
    base = f"http://127.0.0.1:{port}"
    with urllib.request.urlopen(f"{base}/api/state", timeout=10) as reply:
        state = json.load(reply)
    assert (state["table"]["game"], state["table"]["players"], state["status"]["pegboard"]) == (
        "cribbage", ["Ann", "Bo"], "disabled")
    with urllib.request.urlopen(f"{base}/api/history", timeout=10) as reply:
        assert [game["id"] for game in json.load(reply)["games"]] == [1]  # the journal, read beside the loop
    with urllib.request.urlopen(f"{base}/", timeout=10) as reply:
        assert b"/static/spectator.js" in reply.read()
    stream = urllib.request.urlopen(f"{base}/api/events", timeout=30)
    assert stream.readline().startswith(b"retry:")
    code, err = child.finish(signal.SIGTERM)
    assert code == 0 and "cardtable service stopped" in err, err
    stream.read()  # the stream ended with the service (an open one would time out here)
    stream.close()
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(f"{base}/api/state", timeout=5)


def test_a_panel_port_in_use_is_refused_naming_the_key(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        child = Child(tmp_path, write_config(tmp_path, None, port=taken.getsockname()[1]))
        code, err = child.finish(None)
    assert code == 2 and "panel.port: cannot serve the panel on 127.0.0.1:" in err and "in use" in err, err
