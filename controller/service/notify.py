"""systemd's notify protocol (sd_notify), in the standard library: READY=1, WATCHDOG=1, STOPPING=1, STATUS=.

systemd passes a datagram socket in `$NOTIFY_SOCKET` (a path, or `@name` for the abstract namespace) and,
with `WatchdogSec=`, the watchdog period in `$WATCHDOG_USEC` (for the process `$WATCHDOG_PID`, when set).
Outside systemd there is no socket and every call does nothing, so `cardtable run` works from a shell.
A notification that cannot be sent is logged, never raised: the table plays on.
"""
from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping

log = logging.getLogger(__name__)


class Notifier:
    def __init__(self, socket_path: str | None, watchdog_usec: int | None = None) -> None:
        self.socket_path = socket_path
        self.watchdog_usec = watchdog_usec

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] = os.environ) -> Notifier:
        usec = environ.get("WATCHDOG_USEC", "")
        pid = environ.get("WATCHDOG_PID", "")
        ours = not pid or (pid.isdigit() and int(pid) == os.getpid())  # a child of the service is not watched
        return cls(environ.get("NOTIFY_SOCKET") or None, int(usec) if usec.isdigit() and ours else None)

    @property
    def watchdog_interval(self) -> float | None:
        """How often to send WATCHDOG=1: half the period systemd waits, as sd_watchdog_enabled advises."""
        return None if not self.watchdog_usec else self.watchdog_usec / 2e6

    def ready(self, status: str = "") -> None:
        self.send("READY=1" + (f"\nSTATUS={status}" if status else ""))

    def watchdog(self) -> None:
        self.send("WATCHDOG=1")

    def stopping(self) -> None:
        self.send("STOPPING=1")

    def status(self, text: str) -> None:
        self.send(f"STATUS={text}")

    def send(self, message: str) -> bool:
        """Send one notification; False when there is no socket or it failed (logged)."""
        if not self.socket_path:
            return False
        address = "\0" + self.socket_path[1:] if self.socket_path.startswith("@") else self.socket_path
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.sendto(message.encode(), address)
        except OSError as exc:
            log.warning("systemd notification %r not sent to %s: %s", message.split("\n")[0], self.socket_path, exc)
            return False
        return True
