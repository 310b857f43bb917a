"""The service loop (`cardtable run`): one owner thread for the table session, fed by one queue.

Feeders, each on its own thread, only put items on the queue: the camera watcher (observations and
camera status), the buttons (gpiozero callbacks), the peg board link (its status) and the dealer console
(`submit`). The owner thread takes them in order and is the session's single writer:

1. the input is journaled (the table log line, as sensed) before the session sees it;
2. the session judges it; the accepted events (and undos, games ended and started) are journaled;
3. only then the outputs: the peg board (always the whole state), buzzer, status light and the hub.

A journal that cannot be written (read-only, disk full) stops play: the table refuses to go on, says so
on the light, the buzzer, the hub and the log, keeps every input in memory in order, and retries each
tick; once the journal takes writes again it catches up and the table plays on, nothing lost. At start
the journal's unfinished game is taken up again by replaying its inputs through a fresh session.
The loop sends WATCHDOG=1 itself, so systemd restarts a loop that hangs, not only one that dies.
"""
from __future__ import annotations

import logging
import queue
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from gpiozero.pins import Factory

from controller.hardware.buttons import ButtonEvent
from controller.hardware.buzzer import Sound
from controller.hardware.status_light import LightStatus
from controller.history import Header
from controller.journal import JOURNAL_NAME, Journal, JournalError
from controller.pegboard.link import LinkStatus
from controller.pegboard.state import BoardState
from controller.table.inputs import Button, TableInput
from controller.table.journaled import JournaledTable
from controller.table.log import TableLogHeader, input_to_json
from controller.table.session import Step, TableSession
from vision.sources import FrameSource
from vision.observations import CameraStatus

from .camera import CameraFeed, build_watcher
from .config import ServiceConfig
from .devices import TableDevices
from .hub import StateHub, TableStatus
from .lock import ServiceLock
from .notify import Notifier
from .views import dealer_view, public_view

log = logging.getLogger(__name__)

IDLE_TICK = 1.0  # seconds between the loop's own steps when nothing arrives (watchdog, journal retry)
INBOX_SIZE = 4096  # inputs waiting for the owner thread; a full inbox drops button presses, never frames
DEAL_REFUSED = "a dealt card was refused (the dealer console says why)"  # its card is hidden


@dataclass(frozen=True)
class Sensed:
    t: float  # seconds since the epoch, when the table sensed it
    item: TableInput


@dataclass(frozen=True)
class LinkChange:
    status: LinkStatus
    detail: str


class Stop:
    """Ends the loop (put by `stop`, e.g. from the SIGTERM handler)."""


Inbox = Sensed | LinkChange | Stop


class TableService:
    def __init__(self, config: ServiceConfig, *, notifier: Notifier | None = None, hub: StateHub | None = None,
                 source: FrameSource | None = None, pin_factory: Factory | None = None,
                 buzzer_tempo: float = 1.0, clock: Callable[[], float] = time.time) -> None:
        self.config = config
        self.hub = hub or StateHub()
        self.notifier = notifier or Notifier.from_environment()
        self.inbox: queue.Queue[Inbox] = queue.Queue(INBOX_SIZE)
        self._source = source
        self._pin_factory = pin_factory
        self._buzzer_tempo = buzzer_tempo
        self._clock = clock
        self._last_t = 0.0
        self._status = TableStatus(pegboard="down" if config.pegboard.enabled else "disabled")
        self._waiting: deque[Sensed] = deque()  # inputs not yet journaled (all of them while faulted)
        self._resync = False  # a write failed after its input was journaled: rebuild the table first
        self._next_beat = 0.0
        self._stop_requested = False
        self._session_light = LightStatus.READY  # the latest step's light, before the table's own faults
        self._board: BoardState | None = None  # the latest step's peg board picture
        self.journal: Journal
        self.table: JournaledTable  # the session, journaled before anything shows
        self.devices: TableDevices | None = None
        self.camera: CameraFeed | None = None

    # --- other threads ------------------------------------------------------------------------------
    def submit(self, item: TableInput) -> None:
        """A dealer console entry (thread-safe; judged in order with everything else)."""
        self.inbox.put(Sensed(self._clock(), item))

    def stop(self) -> None:
        """End the loop cleanly (thread-safe and safe in a signal handler)."""
        try:
            self.inbox.put_nowait(Stop())
        except queue.Full:
            self._stop_requested = True

    # --- the owner thread ---------------------------------------------------------------------------
    def run(self) -> None:
        """Start up, say READY, play until `stop()`, then shut down (journal closed, board told, light off)."""
        with ServiceLock(self.config.state_directory):
            self.journal = Journal.open(self.config.state_directory / JOURNAL_NAME)
            try:
                self._start()
                self._serve()
            finally:
                self._shut_down()

    def _start(self) -> None:
        self.table = self._open_table()
        watcher = build_watcher(self.config.camera, self._source)  # the ONNX models load here, once
        self.devices = TableDevices.open(self.config, self._on_press, self._on_link, self._pin_factory,
                                         self._buzzer_tempo)
        self.camera = CameraFeed(watcher, self._on_camera)
        self.camera.start()
        self._board = self.session.mapper.board()
        self._show_state()
        self.notifier.ready(f"playing {self.session.setup.game}, game {self.table.game_id}")
        log.info("cardtable service ready: %s, journal game %d", self.session.setup.game, self.table.game_id)

    def _serve(self) -> None:
        tick = min(IDLE_TICK, self.notifier.watchdog_interval or IDLE_TICK)
        while not self._stop_requested:
            self._beat()
            try:
                item = self.inbox.get(timeout=tick)
            except queue.Empty:
                self._catch_up()  # a faulted journal is retried every tick
                continue
            try:
                if isinstance(item, Stop):
                    return
                self._take(item)
            finally:
                self.inbox.task_done()  # inbox.join() returns once everything put is judged (tests, tools)

    def _take(self, item: Sensed | LinkChange) -> None:
        if isinstance(item, LinkChange):
            self._set_status(pegboard=item.status.value)
            return
        if isinstance(item.item, CameraStatus):
            self._status = replace(self._status, camera=item.item.status)
        self._waiting.append(item)
        self._catch_up()

    def _beat(self) -> None:
        now = time.monotonic()
        interval = self.notifier.watchdog_interval
        if interval is not None and now >= self._next_beat:
            self.notifier.watchdog()
            self._next_beat = now + interval

    def _shut_down(self) -> None:
        self.notifier.stopping()
        if self._waiting:
            log.error("stopping with %d inputs the journal never took: they are lost", len(self._waiting))
        if self.camera is not None:
            self.camera.stop()
        if self.devices is not None:
            self.devices.close()
        self.journal.close()
        self.hub.close()
        log.info("cardtable service stopped")

    # --- the feeders' callbacks (their threads) -------------------------------------------------------
    def _on_camera(self, t: float, event: Any) -> None:
        self.inbox.put(Sensed(t, event))  # blocks the camera thread when the loop lags: frames wait, none lost

    def _on_press(self, event: ButtonEvent) -> None:
        try:
            self.inbox.put_nowait(Sensed(self._clock(), Button(event.action.value, event.seat)))
        except queue.Full:
            log.warning("the service's inbox is full: dropped %s", event)

    def _on_link(self, status: LinkStatus, detail: str) -> None:
        self.inbox.put(LinkChange(status, detail))

    # --- the game and its journal ---------------------------------------------------------------------
    def _open_table(self) -> JournaledTable:
        """The journal's unfinished game, standing where it was; else the configured game, new."""
        table = JournaledTable.resume(self.journal)
        if table is not None:
            log.info("took up game %d again after %d inputs", table.game_id, len(self.journal.inputs(table.game_id)))
            return table
        game = self.config.game
        setup = Header(game.name, game.players, game.dealer, dict(game.options), None)
        return JournaledTable.start(self.journal, TableLogHeader(setup, game.deal))

    @property
    def session(self) -> TableSession:
        return self.table.session

    def _catch_up(self) -> None:
        """Journal and judge what waits, in order, until the journal refuses a write (a fault) or nothing
        is left. After a write failed halfway through a step, the table is first rebuilt from the journal
        (which appends what the step's input made), so the journal and the table agree again."""
        try:
            if self._resync:
                self.table = self._open_table()
                self._resync = False
            while self._waiting:
                sensed = self._waiting[0]
                t = max(sensed.t, self._last_t)  # a table log's t never goes back
                line = input_to_json(t, sensed.item)
                try:
                    step = self.table.feed(line)
                except JournalError:
                    if self._journaled_last(line):  # the input is in, what it made is not: resync first
                        self._waiting.popleft()
                        self._resync = True
                    raise
                self._waiting.popleft()
                self._last_t = t
                self._take_outputs(step)
        except JournalError as error:
            self._fault(str(error))
            return
        if self._status.fault is not None:
            log.warning("the journal takes writes again: the table plays on")
            self._status = replace(self._status, fault=None)
        self._show_state()

    def _journaled_last(self, line: dict[str, Any]) -> bool:
        inputs = self.journal.inputs(self.table.game_id)
        return bool(inputs) and inputs[-1] == line

    def _fault(self, why: str) -> None:
        if self._status.fault is None:
            log.error("the journal cannot be written (%s): the table refuses to play on", why)
            if self.devices is not None:
                self.devices.buzzer.play(Sound.ILLEGAL)
        self._set_status(fault=f"the journal cannot be written ({why}): play stops until it can; "
                               "nothing sensed is lost")

    # --- outputs --------------------------------------------------------------------------------------
    def _take_outputs(self, step: Step) -> None:
        outputs = step.outputs
        if self.devices is not None:
            for sound in outputs.sounds:
                self.devices.buzzer.play(sound)
        self._session_light, self._board = outputs.light, outputs.board
        changes: dict[str, Any] = {"hold": self.session.dealer_hold(), "notice": outputs.notice}
        refused = [entry for entry in step.events if not entry["ok"]]
        if refused:
            changes["last_refusal"] = public_refusal(refused[-1])
        self._status = replace(self._status, **changes)

    def _set_status(self, **changes: Any) -> None:
        self._status = replace(self._status, **changes)
        self._show_state()

    def _show_state(self) -> None:
        """The board, the light and the hub, from the session as it stands (journaled)."""
        if self.devices is not None:
            if self._board is not None:
                self.devices.show_board(self._board)
            self.devices.light.show(self._light())
        self.hub.publish(public_view(self.session), dealer_view(self.session), self._status)

    def _light(self) -> LightStatus:
        status = self._status
        if status.fault is not None:
            return LightStatus.ILLEGAL
        if status.camera == "offline" or (self.config.pegboard.enabled and status.pegboard != "up"):
            return LightStatus.OFFLINE
        return self._session_light


def public_refusal(entry: dict[str, Any]) -> dict[str, Any]:
    """A refused event as spectators may see it: a refused dealt card stays hidden."""
    event = entry["event"]
    if event.get("type") == "deal":
        return {"type": "deal", "error": DEAL_REFUSED}
    return {"type": event.get("type"), "seat": event.get("seat"), "error": entry["error"]}
