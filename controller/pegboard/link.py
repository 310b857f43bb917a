"""The Pi's end of the peg board link: a thread that keeps the board showing the latest BoardState.

The game hands over states with `set_state` (never blocks: a one-slot mailbox keeps only the latest,
which is all an idempotent full-state protocol needs). The thread opens the port exclusively, says
HELLO, sends the state and waits for its ACK (retransmitting), pings when idle, and resends everything
when the board resets (new boot id) or shows another state. A missing or vanished port is retried with
capped exponential backoff. Status changes (up, down, resyncing) go to the `on_status` callback.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import TypeVar

import serial

from controller.pegboard import pegproto
from controller.pegboard.state import BoardState

T = TypeVar("T")

log = logging.getLogger(__name__)

DEFAULT_PORT = "/dev/cardtable-pegboard"  # udev symlink, systemd/99-cardtable-pegboard.rules


class LinkStatus(str, Enum):
    DOWN = "down"  # no port, or the board does not answer
    RESYNCING = "resyncing"  # port open, bringing the board up to date
    UP = "up"  # the board shows the latest state
    REFUSED = "refused"  # the board answers but refuses the latest state (e.g. more tracks than it has)


@dataclass(frozen=True)
class LinkConfig:
    port: str = DEFAULT_PORT
    baudrate: int = 115200
    ack_timeout: float = 0.05  # a frame + ACK takes ~3 ms on the wire at 115200 baud
    max_attempts: int = 20  # unanswered frames in a row before the board counts as gone
    heartbeat_interval: float = 0.5
    backoff_initial: float = 0.1
    backoff_max: float = 5.0
    write_timeout: float = 0.5
    read_poll: float = 0.005  # serial read timeout: bounds how late the thread notices a stop


@dataclass(frozen=True)
class BoardInfo:
    protocol: int
    firmware: tuple[int, int]
    tracks: int
    holes: int


class BoardSilent(Exception):
    """The board did not answer max_attempts frames in a row."""


class BoardIncompatible(Exception):
    """The board answered HELLO with a protocol version it does not speak."""


class Backoff:
    """Capped exponential delays: initial, 2x, 4x ... up to maximum."""

    def __init__(self, initial: float, maximum: float) -> None:
        self._initial = initial
        self._maximum = maximum
        self._next = initial

    def next(self) -> float:
        delay = self._next
        self._next = min(self._next * 2, self._maximum)
        return delay

    def reset(self) -> None:
        self._next = self._initial


class _Mailbox:
    """Latest-value slot: a bounded queue of one where a new state replaces the unsent one."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._value: BoardState | None = None
        self.changed = threading.Event()

    def put(self, value: BoardState) -> None:
        with self._lock:
            self._value = value
        self.changed.set()

    def peek(self) -> BoardState | None:
        self.changed.clear()
        with self._lock:
            return self._value


@dataclass
class LinkStats:
    frames_sent: int = 0
    retransmits: int = 0
    acks: int = 0
    resyncs: int = 0
    garbage: int = 0


class PegBoardLink:
    def __init__(self, config: LinkConfig | None = None,
                 on_status: Callable[[LinkStatus, str], None] | None = None) -> None:
        self.config = config or LinkConfig()
        self._on_status = on_status
        self._mailbox = _Mailbox()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._confirmed_lock = threading.Condition()
        self._confirmed: BoardState | None = None
        self._seq = 0
        self.status = LinkStatus.DOWN
        self._refused: BoardState | None = None  # the latest state the board refused, until one is accepted
        self.board_info: BoardInfo | None = None
        self.stats = LinkStats()

    # --- the game's side -------------------------------------------------------------------------
    def set_state(self, state: BoardState) -> None:
        """Show this state on the board (returns at once; only the latest state is kept)."""
        self._mailbox.put(state)

    def wait_confirmed(self, state: BoardState, timeout: float) -> bool:
        """Block until the board has acknowledged exactly `state` (for tests, tools and benchmarks)."""
        with self._confirmed_lock:
            return self._confirmed_lock.wait_for(lambda: self._confirmed == state, timeout)

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        if self._thread is not None:
            raise RuntimeError("link already started")
        self._stopping.clear()
        self._thread = threading.Thread(target=self._run, name="pegboard-link", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        self._stopping.set()
        self._mailbox.changed.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def __enter__(self) -> PegBoardLink:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- the thread ------------------------------------------------------------------------------
    def _set_status(self, status: LinkStatus, detail: str = "") -> None:
        if status is self.status:
            return
        self.status = status
        log.info("peg board link %s %s", status.value, detail)
        if self._on_status is not None:
            try:
                self._on_status(status, detail)
            except Exception:  # a listener's bug must not take the link down
                log.exception("peg board status listener failed")

    def _set_confirmed(self, state: BoardState | None) -> None:
        with self._confirmed_lock:
            self._confirmed = state
            self._confirmed_lock.notify_all()

    def _run(self) -> None:
        backoff = Backoff(self.config.backoff_initial, self.config.backoff_max)
        while not self._stopping.is_set():
            try:
                with self._open() as port:
                    self._session(port, backoff)
            except (serial.SerialException, OSError, BoardSilent, BoardIncompatible) as exc:
                self._set_status(LinkStatus.DOWN, str(exc))
            self._set_confirmed(None)
            self._stopping.wait(backoff.next())
        self._set_status(LinkStatus.DOWN, "stopped")

    def _open(self) -> serial.Serial:
        port = serial.Serial(self.config.port, self.config.baudrate, timeout=self.config.read_poll,
                             write_timeout=self.config.write_timeout, exclusive=True)
        port.reset_input_buffer()  # whatever the board said while nobody listened is stale
        return port

    def _session(self, port: serial.Serial, backoff: Backoff) -> None:
        self._set_status(LinkStatus.RESYNCING, "port open")
        reader = pegproto.FrameReader()
        hello = self._exchange(port, reader, pegproto.MSG_HELLO, bytes((pegproto.PROTOCOL_VERSION,)))
        if hello.status != pegproto.STATUS_OK or hello.info is None:
            raise BoardIncompatible(f"board refused protocol {pegproto.PROTOCOL_VERSION} (status "
                                    f"{hello.status}, info {hello.info})")
        protocol, major, minor, tracks, holes = hello.info
        self.board_info = BoardInfo(protocol, (major, minor), tracks, holes)
        backoff.reset()
        boot_id = hello.sync.boot_id
        shown: BoardState | None = None  # what the board confirmed showing on this connection
        next_ping = time.monotonic() + self.config.heartbeat_interval
        while not self._stopping.is_set():
            desired = self._mailbox.peek()
            if desired is not None and desired != shown:
                shown, boot_id = self._send_state(port, reader, desired, boot_id)
                next_ping = time.monotonic() + self.config.heartbeat_interval
                continue
            self._set_status(LinkStatus.REFUSED if self._refused is not None and shown == self._refused
                             else LinkStatus.UP)
            if self._mailbox.changed.wait(max(0.0, min(next_ping - time.monotonic(), 0.05))):
                continue
            sync = self._drain_beats(port, reader)
            if sync is None and time.monotonic() >= next_ping:
                sync = self._exchange(port, reader, pegproto.MSG_PING).sync
                next_ping = time.monotonic() + self.config.heartbeat_interval
            if sync is not None and not self._in_step(sync, boot_id, shown):
                self._set_status(LinkStatus.RESYNCING, "board reset or lost its state")
                self.stats.resyncs += 1
                boot_id, shown = sync.boot_id, None
                self._set_confirmed(None)

    @staticmethod
    def _in_step(sync: pegproto.Sync, boot_id: int, shown: BoardState | None) -> bool:
        if sync.boot_id != boot_id:
            return False
        return sync.shows(shown.encode()) if shown is not None else not sync.has_state

    def _send_state(self, port: serial.Serial, reader: pegproto.FrameReader, state: BoardState,
                    boot_id: int) -> tuple[BoardState | None, int]:
        """Send a STATE until acknowledged: (what the board now shows, its boot id)."""
        body = state.encode()
        ack = self._exchange(port, reader, pegproto.MSG_STATE, body)
        if ack.status != pegproto.STATUS_OK:
            log.error("peg board rejected state %s (status %d); board info %s", state, ack.status,
                      self.board_info)
            self._refused = state
            return state, boot_id  # the same state would be rejected again: wait for the next one
        self._refused = None
        if not ack.sync.shows(body):
            return None, boot_id  # only a misbehaving board gets here: send again
        self._set_confirmed(state)
        return state, ack.sync.boot_id

    def _drain_beats(self, port: serial.Serial, reader: pegproto.FrameReader) -> pegproto.Sync | None:
        """The latest heartbeat the board sent unasked, if any (never blocks)."""
        latest = None
        waiting = port.in_waiting
        if waiting:
            for msg_type, _seq, body in reader.feed(port.read(waiting)):
                if msg_type == pegproto.MSG_BEAT:
                    latest = self._decode(pegproto.decode_beat, body)
        self.stats.garbage = reader.errors
        return latest

    def _decode(self, decoder: Callable[[bytes], T], body: bytes) -> T | None:
        try:
            return decoder(body)
        except pegproto.FrameError:
            self.stats.garbage += 1
            return None

    def _exchange(self, port: serial.Serial, reader: pegproto.FrameReader, msg_type: int,
                  body: bytes = b"") -> pegproto.Ack:
        """Send a frame until its ACK arrives (stop and wait); BoardSilent after max_attempts."""
        for attempt in range(self.config.max_attempts):
            self._seq = (self._seq + 1) & 0xFF
            port.write(pegproto.encode_frame(msg_type, self._seq, body))
            self.stats.frames_sent += 1
            self.stats.retransmits += attempt > 0
            deadline = time.monotonic() + self.config.ack_timeout
            while time.monotonic() < deadline:
                for r_type, r_seq, r_body in reader.feed(port.read(max(1, port.in_waiting))):
                    if r_type == pegproto.MSG_ACK and r_seq == self._seq:
                        ack = self._decode(pegproto.decode_ack, r_body)
                        if ack is not None and ack.acked_type == msg_type:
                            self.stats.acks += 1
                            return ack
            if self._stopping.is_set():
                break
        raise BoardSilent(f"no answer to {self.config.max_attempts} frames on {self.config.port}")


def release_to_repl(port: str, timeout: float = 1.0) -> bool:
    """Ask the firmware to leave its loop for the MicroPython REPL (it ignores Ctrl-C), so mpremote can
    flash it. True when the board acknowledged; False when nothing answered (e.g. already at the REPL)."""
    frame = pegproto.encode_frame(pegproto.MSG_RELEASE, 1, pegproto.RELEASE_MAGIC)
    reader = pegproto.FrameReader()
    with serial.Serial(port, 115200, timeout=0.05, write_timeout=timeout, exclusive=True) as link:
        link.reset_input_buffer()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            link.write(frame)
            end_of_try = min(deadline, time.monotonic() + 0.2)
            while time.monotonic() < end_of_try:
                for msg_type, seq, body in reader.feed(link.read(max(1, link.in_waiting))):
                    if msg_type == pegproto.MSG_ACK and seq == 1:
                        ack = pegproto.decode_ack(body)
                        if ack.acked_type == pegproto.MSG_RELEASE:
                            return ack.status == pegproto.STATUS_OK
    return False
