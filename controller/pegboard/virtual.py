"""A virtual peg board: the real firmware, run under CPython on one end of a pty pair.

The demo and the tests point a PegBoardLink at `port_path` and read what the LEDs show with `leds()`.
`stop()`/`start()` unplug and replug it (the pty vanishes and a new one appears at the same link path),
`reset()` restarts the firmware on the same pty, as the reset button would.
"""
from __future__ import annotations

import os
import random
import select
import sys
import threading
import time
import tty
from pathlib import Path
from types import ModuleType
from typing import Any

from controller.pegboard import pegproto
from controller.pegboard.firmware_source import firmware_folder
from controller.pegboard.state import BoardState

# Firmware modules the loop needs, in import order (they import each other by top-level name, as on
# the board, so they are registered under those names; pegproto is this package's own copy).
_FIRMWARE_MODULES = ("board", "animations", "scene", "boardlink", "app")

RGB = tuple[int, int, int]


def load_firmware() -> dict[str, ModuleType]:
    """Import the firmware modules from the installed `firmware` package (once) and return them by name."""
    sys.modules.setdefault("pegproto", pegproto)
    if sys.modules["pegproto"] is not pegproto:
        raise ImportError("another module named 'pegproto' is loaded: the firmware needs the link codec")
    modules = {}
    for name in _FIRMWARE_MODULES:
        source = firmware_folder().joinpath(f"{name}.py")
        loaded = sys.modules.get(name)
        if loaded is not None:
            if getattr(loaded, "__file__", None) != str(source):
                raise ImportError(f"a module named {name!r} from {loaded.__file__} hides the firmware's {name}.py")
        else:
            if not source.is_file():
                raise ImportError(f"firmware module {source} is missing: reinstall cardtable")
            # run from its text, not its path: a resource need not be a file of its own
            loaded = ModuleType(name)
            loaded.__file__ = str(source)
            sys.modules[name] = loaded
            exec(compile(source.read_text(encoding="utf-8"), str(source), "exec"), loaded.__dict__)
        modules[name] = loaded
    return modules


class ListStrip:
    """A NeoPixel stand-in: `shown` is what the LEDs display after the last write()."""

    def __init__(self, count: int) -> None:
        self._pixels: list[RGB] = [(0, 0, 0)] * count
        self.shown: list[RGB] = list(self._pixels)
        self.writes = 0

    def __setitem__(self, index: int, colour: RGB) -> None:
        self._pixels[index] = colour

    def write(self) -> None:
        self.shown = list(self._pixels)  # one rebinding: readers on other threads see whole frames
        self.writes += 1


class PtyPort:
    """The firmware's byte port on the master end of a pty (non-blocking, like USB CDC)."""

    def __init__(self, fd: int) -> None:
        self._fd = fd

    def wait(self, ms: int) -> bool:
        return bool(select.select([self._fd], [], [], ms / 1000)[0])

    def read(self) -> bytes:
        try:
            return os.read(self._fd, 256)
        except (BlockingIOError, InterruptedError):
            return b""

    def write(self, data: bytes) -> None:
        try:
            os.write(self._fd, data)
        except BlockingIOError:
            pass  # nobody reads the other end: the bytes are lost, as on a USB port with no host


class LinkPathError(ValueError):
    """A link path the virtual board will not take: it would replace something that is not its link."""


def check_link_path(path: Path) -> None:
    """Refuse a link path whose folder is missing, or that holds anything but a stale link to a terminal
    (a file, a folder, a link elsewhere): the board replaces the link and removes it when it stops."""
    if not path.parent.is_dir():
        raise LinkPathError(f"--link {path}: folder {path.parent} does not exist")
    if path.is_symlink():
        target = _link_target(path) or ""
        if not target.startswith(_TERMINALS):
            raise LinkPathError(f"--link {path}: is a link to {target}, not to a terminal; choose another path")
    elif path.is_dir():
        raise LinkPathError(f"--link {path}: is a folder; name the link to create, e.g. {path}/pegboard")
    elif path.exists():
        raise LinkPathError(f"--link {path}: a file is there; choose another path (it would be replaced)")


_TERMINALS = ("/dev/pts/", "/dev/tty")


def _link_target(path: Path) -> str | None:
    try:
        return os.readlink(path)
    except OSError:  # gone, or not a link
        return None


def _point_link(path: Path, target: str) -> None:
    """Make `path` a symlink to `target` in one step (a new link under a free name, renamed over it)."""
    check_link_path(path)
    while True:
        temporary = path.with_name(f".{path.name}.{os.getpid()}.{random.getrandbits(32):08x}")
        try:
            os.symlink(target, temporary)
            break
        except FileExistsError:  # that name is taken: never remove what is there, try another
            continue
    os.replace(temporary, path)


class VirtualPegBoard:
    def __init__(self, geometry: dict[str, Any] | None = None, link_path: str | Path | None = None) -> None:
        self._firmware = load_firmware()
        self.geometry = self._firmware["board"].Geometry(**(geometry or {}))
        self._link_path = Path(link_path) if link_path is not None else None
        self._fds: tuple[int, int] | None = None
        self._slave_name = ""
        self._thread: threading.Thread | None = None
        self._running = threading.Event()
        self.strip = ListStrip(self.geometry.led_count)
        self.app: Any = None
        self.boots = 0

    @property
    def port_path(self) -> str:
        """Where the host opens the board: the stable link path if given, else the pty's slave."""
        return str(self._link_path) if self._link_path is not None else self._slave_name

    @property
    def running(self) -> bool:
        """True while the firmware loop runs (it must survive anything that arrives on the line)."""
        return self._thread is not None and self._thread.is_alive()

    def leds(self) -> list[RGB]:
        return self.strip.shown

    def render(self, state: BoardState | None, t_ms: int = 0, link_lost: bool = False) -> list[RGB]:
        """The frame the firmware draws for `state` (the expected LED buffer)."""
        decoded = None if state is None else pegproto.decode_state(state.encode())
        return self._firmware["scene"].render(self.geometry, decoded, link_lost, t_ms)

    def wait_for_leds(self, expected: list[RGB], timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.leds() == expected:
                return True
            time.sleep(0.002)
        return self.leds() == expected

    def start(self) -> None:
        """Plug in and power on: a fresh pty and freshly booted firmware."""
        if self._fds is not None:
            raise RuntimeError("virtual board already running")
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo or line editing before the host opens (and sets raw) the port
        os.set_blocking(master, False)
        self._fds = (master, slave)  # the slave stays open here so the master never reads EIO
        self._slave_name = os.ttyname(slave)
        if self._link_path is not None:
            try:
                _point_link(self._link_path, self._slave_name)
            except BaseException:
                self._close_pty()
                raise
        self._boot(master)

    def reset(self) -> None:
        """Restart the firmware on the same pty (state lost, new boot id), as the reset button does."""
        if self._fds is None:
            raise RuntimeError("virtual board not running")
        self._halt()
        self._boot(self._fds[0])

    def stop(self) -> None:
        """Unplug: the firmware stops and the pty vanishes (the host sees EIO, then no port)."""
        if self._fds is None:
            return
        self._halt()
        if self._link_path is not None and _link_target(self._link_path) == self._slave_name:
            self._link_path.unlink()  # only our own link: another board may have taken the path since
        self._close_pty()

    def _close_pty(self) -> None:
        if self._fds is not None:
            for fd in self._fds:
                os.close(fd)
            self._fds = None

    def __enter__(self) -> VirtualPegBoard:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _boot(self, master: int) -> None:
        self.strip = ListStrip(self.geometry.led_count)
        self.app = self._firmware["app"].App(self.geometry, self.strip, PtyPort(master),
                                             random.getrandbits(16))
        self.boots += 1
        self._running.set()
        self._thread = threading.Thread(target=self.app.run, args=(self._running.is_set,),
                                        name="virtual-pegboard", daemon=True)
        self._thread.start()

    def _halt(self) -> None:
        self._running.clear()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
