"""One table service per state directory: a second process would fight the first for the GPIO pins, the
camera and the serial port, so it is refused before it touches any of them."""
from __future__ import annotations

import fcntl
import os
from pathlib import Path

LOCK_NAME = "cardtable.lock"


class ServiceLockError(RuntimeError):
    """The service cannot take its lock: the state directory is not writable, or another one runs."""


class AlreadyRunning(ServiceLockError):
    pass


class ServiceLock:
    """An exclusive flock on STATE_DIRECTORY/cardtable.lock, held while the service runs (the kernel
    drops it when the process dies, however it dies)."""

    def __init__(self, state_directory: Path) -> None:
        self.path = state_directory / LOCK_NAME
        self._fd: int | None = None

    def acquire(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)  # systemd makes it; a shell run may not have
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except OSError as exc:
            raise ServiceLockError(f"cannot write the state directory {self.path.parent}: "
                                   f"{exc.strerror or exc}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode(errors="replace").strip() or "?"
            os.close(fd)
            raise AlreadyRunning(f"another cardtable service (pid {holder}) holds {self.path}: one process "
                                 "owns the GPIO pins, the camera and the peg board") from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> ServiceLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
