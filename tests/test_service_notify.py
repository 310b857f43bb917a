"""sd_notify over a real datagram socket, and the one-service-per-state-directory lock."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from controller.service.lock import AlreadyRunning, ServiceLock, ServiceLockError
from controller.service.notify import Notifier


def receiver(path: Path) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(2)
    return sock


def test_notifications_reach_the_socket_systemd_names(tmp_path: Path) -> None:
    with receiver(tmp_path / "notify") as sock:
        notifier = Notifier.from_environment({"NOTIFY_SOCKET": str(tmp_path / "notify"), "WATCHDOG_USEC": "10000000",
                                              "WATCHDOG_PID": str(os.getpid())})
        assert notifier.watchdog_interval == 5.0
        notifier.ready("playing cribbage")
        notifier.watchdog()
        notifier.stopping()
        assert [sock.recv(256).decode() for _ in range(3)] == ["READY=1\nSTATUS=playing cribbage", "WATCHDOG=1",
                                                               "STOPPING=1"]


def test_an_abstract_socket_name_starts_with_at() -> None:
    name = f"cardtable-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(2)
        assert Notifier(f"@{name}").send("READY=1")
        assert sock.recv(64) == b"READY=1"


def test_outside_systemd_nothing_is_sent_and_nothing_fails(tmp_path: Path) -> None:
    quiet = Notifier.from_environment({})
    assert quiet.socket_path is None and quiet.watchdog_interval is None and not quiet.send("READY=1")
    assert not Notifier(str(tmp_path / "gone")).send("READY=1")  # logged, not raised
    other = Notifier.from_environment({"NOTIFY_SOCKET": "x", "WATCHDOG_USEC": "1000", "WATCHDOG_PID": "1"})
    assert other.watchdog_interval is None  # the watchdog is another process's


def test_a_second_service_on_the_same_state_directory_is_refused(tmp_path: Path) -> None:
    holder = subprocess.Popen([sys.executable, "-c", "import sys, time; from pathlib import Path; "
                               "from controller.service.lock import ServiceLock; "
                               f"ServiceLock(Path({str(tmp_path)!r})).acquire(); print('held', flush=True); "
                               "time.sleep(30)"], stdout=subprocess.PIPE, text=True,
                              cwd=Path(__file__).parents[1])
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(AlreadyRunning, match=f"pid {holder.pid}"):
            ServiceLock(tmp_path).acquire()
    finally:
        holder.kill()
        holder.wait()
    with ServiceLock(tmp_path):  # the kernel dropped the dead process's lock
        pass
    (tmp_path / "a-file").write_text("")
    with pytest.raises(ServiceLockError, match="cannot write the state directory"):
        ServiceLock(tmp_path / "a-file" / "state").acquire()
