"""The service loop (`cardtable run`): one owner thread for the table session, fed by one queue.

Feeders, each on its own thread, only put items on the queue: the camera watcher (observations and
camera status), the buttons (gpiozero callbacks), the peg board link (its status) and the dealer console
(the `ConsolePort` calls the web panel makes). The owner thread takes them in order and is the
session's single writer:

1. the input is journaled (the table log line, as sensed) before the session sees it;
2. the session judges it; the accepted events (and undos, games ended and started) are journaled;
3. only then the outputs: the peg board (always the whole state), buzzer, status light and the hub.

A journal that cannot be written (read-only, disk full) stops play: the table refuses to go on, says so
on the light, the buzzer, the hub and the log, keeps every input in memory in order, and retries each
tick; once the journal takes writes again it catches up and the table plays on, nothing lost. At start
the journal's unfinished game is taken up again by replaying its inputs through a fresh session.
The loop sends WATCHDOG=1 itself, so systemd restarts a loop that hangs, not only one that dies.

The dealer console's entries are table-log lines like any other (journaled, judged in order); the
console's thread waits for the owner thread's answer (controller.service.answers), at most
`answer_timeout` seconds. Starting a game ends the current one in the journal and starts the new one
there; ending a game starts the same table's next one (the deal passes on).

Between games the console may run a deck check or a live enrolment (controller.service.between_games
coordinates them): while one runs, and until its cards are gathered off the table, the table camera's
card observations go to it, never to the session (nor its journal); a check's verdict is journaled, shown
on the console and, as passed or failed only, to spectators. With `[console] deck_check = "required"` the
console starts a game only on a deck whose latest check (kept across restarts) passed.
"""
from __future__ import annotations

import logging
import queue
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from typing import Any

from gpiozero.pins import Factory

from controller.hardware.buttons import ButtonEvent
from controller.hardware.buzzer import Sound
from controller.hardware.status_light import LightStatus
from controller.cards import Card
from controller.games import new_game
from controller.history import Header
from controller.journal import JOURNAL_NAME, Journal, JournalError
from controller.pegboard.link import LinkStatus
from controller.pegboard.state import BoardState
from controller.table.inputs import Button, ConsoleEvent, ConsoleUndo, Relay, Resolve, TableInput
from controller.table.journaled import JournaledTable
from controller.table.log import TableLogHeader, input_to_json
from controller.table.session import Step, TableSession, game_summary
from web_panel.ports import ConsoleAnswer, GameStart
from vision.model import IndexModel
from vision.sources import FrameSource
from vision.observations import CameraStatus

from .answers import Before, answer
from .camera import CameraFeed, CameraStatuses, build_reader_watcher, build_watcher, read_with
from .between_games import BetweenGames
from .deck_check import game_deck
from .config import ServiceConfig
from .devices import TableDevices
from .hub import StateHub, TableStatus
from .lock import ServiceLock
from .notify import Notifier
from .views import public_refusal, public_view, views

log = logging.getLogger(__name__)

IDLE_TICK = 1.0  # seconds between the loop's own steps when nothing arrives (watchdog, journal retry)
INBOX_SIZE = 4096  # inputs waiting for the owner thread; a full inbox drops button presses, never frames
ANSWER_TIMEOUT = 10.0  # seconds a console entry waits for the owner thread's answer
Reply = Future[ConsoleAnswer]


@dataclass(frozen=True)
class Sensed:
    t: float  # seconds since the epoch, when the table sensed it
    item: TableInput
    reply: Reply | None = field(default=None, compare=False)  # a console entry's caller waits on it


@dataclass(frozen=True)
class Command:
    """The console starts a game (`start`), or ends the one being played (`start` None)."""

    start: GameStart | None
    reply: Reply


@dataclass(frozen=True)
class CheckCommand:
    """A deck check's step at the console: `start` (of `deck`, or the current game's), `next` spread, `finish`."""

    step: str
    deck: str | None
    reply: Reply


@dataclass(frozen=True)
class EnrolCommand:
    """The console starts a live enrolment (judged by the owner thread: only between games)."""

    reply: Reply


@dataclass(frozen=True)
class EnrolmentChange:
    """The enrolment's state changed (its thread, or the console's): for the hub."""

    state: dict[str, Any] | None


@dataclass(frozen=True)
class EnrolmentVerdict:
    """A deck enrolled at the console: its verdict, for the journal (which only the owner thread writes)."""

    verdict: dict[str, Any]
    reply: Reply


@dataclass(frozen=True)
class LinkChange:
    status: LinkStatus
    detail: str


@dataclass(frozen=True)
class ClubChange:
    """The club publisher's word: why its outbox cannot be written, or None once it can."""

    fault: str | None


@dataclass(frozen=True)
class Mark:
    """Set once the owner thread reaches it: everything put before it is judged (`settled`)."""

    reached: threading.Event


class Stop:
    """Ends the loop (put by `stop`, e.g. from the SIGTERM handler)."""


Inbox = (Sensed | LinkChange | ClubChange | Command | CheckCommand | EnrolCommand | EnrolmentChange | EnrolmentVerdict
         | Mark | Stop)
StepWatcher = Callable[[dict[str, Any], Step], None]  # (the journaled table-log line, what it did)


class TableService:
    def __init__(self, config: ServiceConfig, *, notifier: Notifier | None = None, hub: StateHub | None = None,
                 source: FrameSource | None = None, reader_source: FrameSource | None = None,
                 pin_factory: Factory | None = None,
                 buzzer_tempo: float = 1.0, clock: Callable[[], float] = time.time,
                 answer_timeout: float = ANSWER_TIMEOUT, on_step: StepWatcher | None = None) -> None:
        """`on_step` hears every input judged, on the owner thread (the demo narrates from it)."""
        self.config = config
        self._on_step = on_step
        self.answer_timeout = answer_timeout
        self.hub = hub or StateHub()
        self.notifier = notifier or Notifier.from_environment()
        self.inbox: queue.Queue[Inbox] = queue.Queue(INBOX_SIZE)
        self._source = source
        self._reader_source = reader_source  # watched only when the config names a deal reader
        self._pin_factory = pin_factory
        self._buzzer_tempo = buzzer_tempo
        self._clock = clock
        self._last_t = 0.0
        self._status = TableStatus(pegboard="down" if config.pegboard.enabled else "disabled",
                                   deck_check_mode=config.console.deck_check)
        self._waiting: deque[Sensed] = deque()  # inputs not yet journaled (all of them while faulted)
        self._resync = False  # a write failed after its input was journaled: rebuild the table first
        self._next_beat = 0.0
        self._stop_requested = False
        self._stopped = False  # the owner thread is gone: console calls are answered at once
        self._session_light = LightStatus.READY  # the latest step's light, before the table's own faults
        self._begun = False  # the current game took an input (other than a camera status): it is being played
        self._board: BoardState | None = None  # the latest step's peg board picture
        self.journal: Journal
        self.table: JournaledTable  # the session, journaled before anything shows
        self.devices: TableDevices | None = None
        self.camera: CameraFeed | None = None
        self.reader: CameraFeed | None = None  # the deal reader's, when one is configured
        self.desk = BetweenGames(config, lambda state: self.inbox.put(EnrolmentChange(state)), self._read_with,
                                 lambda verdict: self._ask(lambda reply: EnrolmentVerdict(verdict, reply)))

    # --- other threads ------------------------------------------------------------------------------
    def submit(self, item: TableInput) -> None:
        """An input from a feeder with no answer to wait for (thread-safe; judged in order with everything else)."""
        self.inbox.put(Sensed(self._clock(), item))

    # --- the dealer console (web_panel.ports.ConsolePort; the panel's threads) --------------------------
    def start_game(self, start: GameStart) -> ConsoleAnswer:
        return self._ask(lambda reply: Command(start, reply))

    def end_game(self) -> ConsoleAnswer:
        return self._ask(lambda reply: Command(None, reply))

    def console_event(self, event: dict[str, Any]) -> ConsoleAnswer:
        return self._enter(ConsoleEvent(dict(event)))

    def resolve_hold(self, card: str) -> ConsoleAnswer:
        return self._enter(Resolve(Card.parse(card)))

    def relay(self) -> ConsoleAnswer:
        return self._enter(Relay())

    def undo(self) -> ConsoleAnswer:
        return self._enter(ConsoleUndo())

    def deck_check(self, step: str, deck: str | None = None) -> ConsoleAnswer:
        """A deck check's step (CHECK_STEPS); `deck` ("52" or "32") only with start, else the game's."""
        return self._ask(lambda reply: CheckCommand(step, deck, reply))

    def enrolment(self, step: str, answer: str | None = None) -> ConsoleAnswer:
        """Live enrolment at the console (ENROLMENT_STEPS): `start` between games, the `answer` to the
        question shown, `finish` (enrol, read back, save, read with it; on the console's thread: it takes
        seconds, and no game is being played)."""
        if step == "start":
            return self._ask(EnrolCommand)
        return self.desk.enrolment_step(step, answer)

    def _read_with(self, model: IndexModel) -> None:
        """The table's cameras read with a deck enrolled at the console from their next frame on."""
        for feed in (self.camera, self.reader):
            if feed is not None:
                read_with(feed.watcher, model)

    def hold_crop(self) -> bytes | None:
        """The held zone as the camera sees it now (the held card still lies there)."""
        hold, camera = self._status.hold, self.camera
        zone = None if hold is None else hold.get("zone")
        return None if camera is None or not isinstance(zone, str) else camera.crop(zone)

    def _enter(self, item: TableInput) -> ConsoleAnswer:
        return self._ask(lambda reply: Sensed(self._clock(), item, reply))

    def _ask(self, make: Callable[[Reply], Inbox]) -> ConsoleAnswer:
        """Put the entry in the inbox and wait for the owner thread to judge it."""
        if self._stopped:
            return ConsoleAnswer(False, "the table service is stopping: nothing was entered")
        reply: Reply = Future()
        try:
            self.inbox.put(make(reply), timeout=self.answer_timeout)
            return reply.result(timeout=self.answer_timeout)
        except (queue.Full, TimeoutError):
            return ConsoleAnswer(False, f"the table did not answer within {self.answer_timeout:g} s: look at the "
                                        "table's state before entering it again")

    def settled(self, timeout: float) -> bool:
        """Wait until everything put in the inbox so far is judged; False on timeout."""
        mark = Mark(threading.Event())
        try:
            self.inbox.put(mark, timeout=timeout)
        except queue.Full:
            return False
        return mark.reached.wait(timeout)

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
        self.desk.open(self.journal)
        self._status = replace(self._status, deck_check=self.desk.check_status(),
                               enrolment=self.desk.enrolment_status())
        # the ONNX models load here, once
        watcher = build_watcher(self.config.camera, self._source, self.desk.enrolled())
        reading = self.config.reader.source is not None
        reader = build_reader_watcher(self.config.camera, self.config.reader, self._reader_source) if reading else None
        self.devices = TableDevices.open(self.config, self._on_press, self._on_link, self._pin_factory,
                                         self._buzzer_tempo)
        statuses = CameraStatuses(self._on_camera, ("camera", "deal reader") if reading else ("camera",))
        self.camera = CameraFeed(watcher, statuses.poster("camera"))
        self.reader = None if reader is None else CameraFeed(reader, statuses.poster("deal reader"), "deal reader")
        for feed in (self.camera, self.reader):
            if feed is not None:
                feed.start()
        self._board = self.session.mapper.board()
        self._begun = any(line["type"] != "camera" for line in self.journal.inputs(self.table.game_id))
        self._gate()
        self._show_state()
        waits = f" ({self._status.waiting})" if self._status.waiting else ""
        self.notifier.ready(f"playing {self.session.setup.game}, game {self.table.game_id}{waits}")
        log.info("cardtable service ready: %s, journal game %d%s", self.session.setup.game, self.table.game_id, waits)

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

    def _take(self, item: Sensed | LinkChange | ClubChange | Command | CheckCommand | EnrolCommand | EnrolmentChange
              | EnrolmentVerdict | Mark) -> None:
        if isinstance(item, LinkChange):
            self._set_status(pegboard=item.status.value)
            return
        if isinstance(item, ClubChange):
            self._set_status(club=item.fault)
            return
        if isinstance(item, Command):
            item.reply.set_result(self._command(item.start))
            return
        if isinstance(item, CheckCommand):
            item.reply.set_result(self._check_step(item.step, item.deck))
            return
        if isinstance(item, EnrolCommand):
            item.reply.set_result(self._start_enrolment())
            return
        if isinstance(item, EnrolmentChange):
            self._set_status(enrolment=item.state)
            return
        if isinstance(item, EnrolmentVerdict):
            item.reply.set_result(self._journal_enrolment(item.verdict))
            return
        if isinstance(item, Mark):
            item.reached.set()
            return
        if isinstance(item.item, CameraStatus):
            self._status = replace(self._status, camera=item.item.status)
        elif self.desk.takes(item.item):
            if self.desk.see(item.item):
                self._show_check()
            return
        elif self._status.waiting is not None:
            self._refuse_waiting(item)
            return
        else:
            self._begun = True
        self._waiting.append(item)
        self._catch_up()

    def _refuse_waiting(self, sensed: Sensed) -> None:
        """An input while the game waits for its deck's check: not the game's (not journaled); a console
        entry hears why, a button press buzzes, the camera's cards are the dealer's own business."""
        waiting = self._status.waiting
        if sensed.reply is not None:
            _reply(sensed.reply, ConsoleAnswer(False, f"refused: {waiting}: check the deck first (Check deck)"))
        elif isinstance(sensed.item, Button) and self.devices is not None:
            self.devices.buzzer.play(Sound.ILLEGAL)
        log.debug("not the game's (%s): %s", waiting, sensed.item)

    def _gate(self) -> None:
        """A game that took no input yet waits, with required deck checks, until its deck's latest check
        passed; it starts as soon as one does (also one journaled before a restart)."""
        game = self.session.setup.game
        waited = self._status.waiting
        refused = not self._begun and self.desk.game_refusal(game) is not None
        waiting = (f"waiting for a deck check: {game} starts once the {game_deck(game).name}-card deck passes its "
                   "check") if refused else None
        if waited is not None and waiting is None:
            log.info("the deck passed its check: game %d (%s) starts", self.table.game_id, game)
        self._status = replace(self._status, waiting=waiting)

    def _beat(self) -> None:
        now = time.monotonic()
        interval = self.notifier.watchdog_interval
        if interval is not None and now >= self._next_beat:
            self.notifier.watchdog()
            self._next_beat = now + interval

    def _shut_down(self) -> None:
        self._stopped = True
        self.notifier.stopping()
        self._refuse_unjudged()
        if self._waiting:
            log.error("stopping with %d inputs the journal never took: they are lost", len(self._waiting))
        self.desk.close()
        for feed in (self.camera, self.reader):
            if feed is not None:
                feed.stop()
        if self.devices is not None:
            self.devices.close()
        self.journal.close()
        self.hub.close()
        log.info("cardtable service stopped")

    # --- the feeders' callbacks (their threads) -------------------------------------------------------
    def _refuse_unjudged(self) -> None:
        """Console callers still waiting hear that the table stopped first."""
        stopping = ConsoleAnswer(False, "the table service stopped before judging it: nothing was entered")
        for sensed in self._waiting:
            _reply(sensed.reply, stopping)
        while True:
            try:
                item = self.inbox.get_nowait()
            except queue.Empty:
                return
            if isinstance(item, (Sensed, Command, CheckCommand, EnrolCommand, EnrolmentVerdict)):
                _reply(item.reply, stopping)
            self.inbox.task_done()

    def _on_camera(self, t: float, event: Any) -> None:
        self.inbox.put(Sensed(t, event))  # blocks the camera thread when the loop lags: frames wait, none lost

    def _on_press(self, event: ButtonEvent) -> None:
        try:
            self.inbox.put_nowait(Sensed(self._clock(), Button(event.action.value, event.seat)))
        except queue.Full:
            log.warning("the service's inbox is full: dropped %s", event)

    def _on_link(self, status: LinkStatus, detail: str) -> None:
        self.inbox.put(LinkChange(status, detail))

    def club_fault(self, fault: str | None) -> None:
        """The club publisher's thread: its outbox cannot be written (or can again); shown on the status."""
        self.inbox.put(ClubChange(fault))

    # --- the game and its journal ---------------------------------------------------------------------
    def _open_table(self) -> JournaledTable:
        """The journal's unfinished game, standing where it was; else the configured game, new."""
        table = JournaledTable.resume(self.journal)
        if table is not None:
            log.info("took up game %d again after %d inputs", table.game_id, len(self.journal.inputs(table.game_id)))
            return table
        game = self.config.game
        setup = Header(game.name, game.players, game.dealer, dict(game.options), game.chips)
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
                before = Before(self.session.hold, len(self.session.history))
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
                if self._on_step is not None:
                    self._hear(line, step)
                _reply(sensed.reply, answer(sensed.item, before, step, len(self.session.history)))
        except JournalError as error:
            self._fault(str(error))
            kept = ConsoleAnswer(False, f"{self._status.fault}: the entry is kept and judged then")
            for sensed in self._waiting:
                _reply(sensed.reply, kept)
            return
        if self._status.fault is not None:
            log.warning("the journal takes writes again: the table plays on")
            self._status = replace(self._status, fault=None)
        self._show_state()

    def _command(self, start: GameStart | None) -> ConsoleAnswer:
        """Start the console's game, or (None) end the current one and start the table's next one."""
        self._catch_up()  # what was sensed before the command is judged before it
        if self._status.fault is not None:
            return ConsoleAnswer(False, self._status.fault)
        played = self.session.games[-1]
        if start is not None:
            refusal = self.desk.deck_refusal(start.game)
            if refusal is not None:
                return ConsoleAnswer(False, f"refused: {refusal}")
        if start is None:
            setup = replace(played.setup, dealer=(played.setup.dealer + 1) % len(played.setup.players))
            deal = self.table.deal
        else:
            setup = Header(start.game, start.players, start.dealer, dict(start.options), start.chips)
            deal = start.deal
            if deal == "open" and self.config.reader.source is None:
                return ConsoleAnswer(False, "refused: an open deal needs the deal reader (reader.source in the "
                                            "config); this table deals closed")
        try:
            new_game(setup)  # bad options are refused before the current game ends
        except ValueError as error:
            return ConsoleAnswer(False, f"refused: {error}")
        ended = self.table.game_id
        try:
            self.journal.end_game(ended, game_summary(played))
            self.table = JournaledTable.start(self.journal, TableLogHeader(setup, deal))
        except JournalError as error:
            self._resync = True  # the table follows the journal again once it takes writes
            self._fault(str(error))
            return ConsoleAnswer(False, f"refused: {self._status.fault}")
        self._board = self.session.mapper.board()
        self._status = replace(self._status, hold=None, notice=None, last_refusal=None)
        self._begun = False
        self._gate()
        self._show_state()
        verb = "started" if start is not None else "is ready"
        log.info("game %d ended at the console; game %d (%s) %s", ended, self.table.game_id, setup.game, verb)
        return ConsoleAnswer(True, f"game {ended} ended; game {self.table.game_id}: {setup.game} for "
                                   f"{', '.join(setup.players)} {verb}")

    # --- between games: the deck check and the enrolment (controller.service.between_games) ----------------
    def _check_step(self, step: str, deck: str | None) -> ConsoleAnswer:
        self._catch_up()  # what the camera saw before the step belongs to the game
        if self._status.fault is not None:
            return ConsoleAnswer(False, self._status.fault)
        try:
            said = self.desk.check_step(step, deck, self.session)
        except JournalError as error:
            self._fault(str(error))
            return ConsoleAnswer(False, f"the deck check is not recorded: {self._status.fault}")
        if said.ok:
            self._gate()
            self._show_check()
        return said

    def _start_enrolment(self) -> ConsoleAnswer:
        self._catch_up()
        said = self.desk.start_enrolment(self.session, self.camera)
        if said.ok:
            assert self.desk.enrolment is not None
            self._set_status(enrolment=self.desk.enrolment.state())
        return said

    def _journal_enrolment(self, verdict: dict[str, Any]) -> ConsoleAnswer:
        try:
            self.desk.record_enrolment(verdict)
        except JournalError as error:
            self._fault(str(error))
            return ConsoleAnswer(False, self._status.fault or str(error))
        self._set_status(enrolment=self.desk.enrolment_status())
        return ConsoleAnswer(True)

    def _show_check(self) -> None:
        self._set_status(deck_check=self.desk.check_status())

    def _hear(self, line: dict[str, Any], step: Step) -> None:
        """Tell the step watcher; its failure is logged and must not stop the table."""
        assert self._on_step is not None
        try:
            self._on_step(line, step)
        except Exception:
            log.exception("the step watcher failed on %s", line)

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
            changes["last_refusal"] = public_refusal(refused[-1], public_view(self.session))
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
        self.hub.publish(*views(self.session), self._status)

    def _light(self) -> LightStatus:
        status = self._status
        if status.fault is not None:
            return LightStatus.ILLEGAL
        if status.camera == "offline" or (self.config.pegboard.enabled and status.pegboard != "up"):
            return LightStatus.OFFLINE
        return self._session_light


def _reply(reply: Reply | None, said: ConsoleAnswer) -> None:
    if reply is not None and not reply.done():
        reply.set_result(said)
