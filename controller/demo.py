"""`cardtable demo`: the table service (`cardtable run`'s own loop) at a simulated table, with the panel.

Simulated players (controller.simulation) make their moves with cards on a physical table
(controller.simulation.scene): each settled scene is rendered into the frames a camera takes and handed
to the service as its camera (scene/feed.py), read there by the real vision; the players press the
buttons on gpiozero's mock pins; the simulated dealer makes the console's entries (naming a card nobody
could read, Färbeln's amounts and answers, the next game) through the service's console port, as the
panel's console does. In an open deal (`--deal open`) each card dealt passes over the deal reader, whose
frames are the service's second camera. The service journals, judges and answers with sound, light, pegs (the real
firmware behind a pty) and the hub, which the panel serves. Now and then a player tries something
illegal and takes the card back when the table refuses it; now and then a card lies under glare and the
dealer names it. Game after game until stopped; each game's result in the journal is checked against
the simulated table's own engine, told every true card.
"""
from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPWMPin

from .hardware.config import HardwareConfig, SeatPins
from .history import Header
from .journal import JOURNAL_NAME, Journal
from .narration import describe_judged
from .output_files import write_text_atomically
from .pegboard.virtual import VirtualPegBoard
from .service.config import (CameraConfig, ConsoleConfig, GameConfig, PanelConfig, PegBoardConfig, ReaderConfig,
                             ServiceConfig)
from .service.deck_check import game_deck
from .service.loop import TableService
from .service.notify import Notifier
from .service.panel import PanelServer
from .service.pin import hash_pin
from .simulation.scene.actions import Action, Clear, Console, Lay, Press, Read, Take
from .simulation.scene.camera import TableCamera
from .simulation.scene.feed import SceneFeed, ServiceCamera
from .simulation.scene.players import Players, SeatedGame, seat_table
from .simulation.scene.spreads import spreads
from .simulation.scene.stage import READER_STYLE, DealReader, Stage, table_style
from .simulation.scene.table import PhysicalTable
from .table.inputs import READER
from .table.log import TableLogHeader
from .table.session import Step
from vision.live_enroll import deck_order
from web_panel.ports import ConsoleAnswer, GameStart

PLAYER_NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")
# seats 5-8 on mock pins the default four seats, the dealer's buttons, buzzer and light leave free
EXTRA_SEATS = (SeatPins(4, 25), SeatPins(12, 7), SeatPins(8, 9), SeatPins(10, 11))
MISTAKES = 0.05  # how often a simulated player gets something wrong before a move
UNREADABLE = 0.04  # how often a card lands where the camera cannot read it
FPS = 15.0  # the camera's frame rate at --speed 1
UNPACED_FPS = 10_000.0  # --speed 0: frames as fast as the vision reads them
MOVE_PAUSE = 1.0  # seconds between moves at --speed 1: long enough to follow on a phone
TIMEOUT = 120.0  # seconds the service may take to judge one scene (a loaded CI machine)
MAX_TRIES = 10  # what the players and the dealer do about one hold before the demo gives up


def demo_hardware(players: int) -> HardwareConfig:
    """The service's default pins, with a go/confirm pair more for each seat past its four."""
    default = HardwareConfig()
    return replace(default, seats=(default.seats + EXTRA_SEATS)[:max(players, len(default.seats))])


@dataclass(frozen=True)
class DemoSettings:
    game: str = "cribbage"
    players: int = 2
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    games: int | None = None  # None: game after game until stopped
    speed: float = 1.0  # 0: as fast as possible
    reads: int = 5  # frames the service's vision recognises per settled scene (a card counts in most of them)
    host: str = "127.0.0.1"
    port: int | None = 8000  # the panel's; None: no panel
    pin: str = "2468"  # the dealer console's
    state: Path | None = None  # the state directory (the journal); None: a temporary one
    history: Path | None = None  # the latest finished game's hand history goes there
    mistakes: float = MISTAKES
    unreadable: float = UNREADABLE
    deal: str = "closed"  # "open": every card dealt is read by the deal reader
    deck_check: bool = True  # the dealer checks the deck at the console before the first game


@dataclass(frozen=True)
class GameResult:
    """One demo game: the table's result (as the journal ended it) and the simulated table's own (the truth)."""

    game_id: int
    summary: dict[str, Any]
    truth: dict[str, Any]

    @property
    def same_result(self) -> bool:
        return all(self.summary.get(key) == self.truth.get(key) for key in ("scores", "chips", "winner"))


class DemoTable:
    """The service on simulated hardware, and the simulated players and dealer at its table."""

    def __init__(self, settings: DemoSettings, state: Path, out: Callable[[str], None]) -> None:
        self.settings, self.state, self.out = settings, state, out
        self.rng = random.Random(settings.seed)
        self.names = PLAYER_NAMES[:settings.players]
        self.style = table_style(settings.players)  # a wider frame for seven or eight
        self.physical = PhysicalTable.laid_out(self.style, settings.players, settings.seed)
        self.pins = MockFactory(pin_class=MockPWMPin)  # the tonal buzzer needs PWM
        self.feed = SceneFeed()
        self.reader_feed = SceneFeed()  # the deal reader's frames (an open deal)
        self.stopping = threading.Event()
        self.results: list[GameResult] = []
        self.refused = self.held = 0
        self._named: list[tuple[str, str]] = []  # (zone, card): the unreadable cards the dealer has named
        self._dealt: str | None = None  # the card last dealt over the deal reader
        self._started = time.time()
        self.hardware = demo_hardware(settings.players)  # the service's pins, which the players press
        self._camera: ServiceCamera | None = None
        self._reader_camera: ServiceCamera | None = None
        self.panel_url: str | None = None  # once the panel serves

    def _seated(self, dealer: int) -> SeatedGame:
        header = Header(self.settings.game, self.names, dealer, dict(self.settings.options), None)
        return seat_table(header, self.rng)

    def config(self, board: VirtualPegBoard | None, seated: SeatedGame) -> ServiceConfig:
        self.state.mkdir(parents=True, exist_ok=True)
        calibration = self.state / "calibration.json"
        self.physical.calibration().save(calibration)
        speed = self.settings.speed
        header = seated.header
        reader = ReaderConfig()
        if self.open_deal:
            reader = ReaderConfig("the simulated deal reader", calibration=self.state / "reader-calibration.json")
            assert reader.calibration is not None
            DealReader(1, 1, self.settings.seed).slot.calibration().save(reader.calibration)
        return ServiceConfig(
            state_directory=self.state,
            camera=CameraConfig(source="the simulated table", size=None, calibration=calibration,
                                fps=FPS * speed if speed else UNPACED_FPS, reads=self.settings.reads,
                                votes=self.settings.reads // 2 + 1),
            pegboard=PegBoardConfig(enabled=board is not None, port=board.port_path if board else ""),
            panel=PanelConfig(self.settings.host, self.settings.port or 0),
            reader=reader,
            console=ConsoleConfig(pin_hash=hash_pin(self.settings.pin)),
            hardware=self.hardware,
            game=GameConfig(header.game, header.players, header.dealer, self.settings.deal, dict(header.options),
                            header.chips))

    @property
    def open_deal(self) -> bool:
        return self.settings.deal == "open"

    # --- the whole demo -----------------------------------------------------------------------------
    def run(self) -> list[GameResult]:
        """Play until `settings.games` are played or `stopping` is set; the games' results."""
        seated = self._seated(0)
        with ExitStack() as stack:
            board = None
            if seated.tracks:
                board = stack.enter_context(VirtualPegBoard({"tracks": seated.tracks, "holes": seated.target}))
            service = TableService(self.config(board, seated), notifier=Notifier(None), source=self.feed,
                                   reader_source=self.reader_feed, pin_factory=self.pins, buzzer_tempo=4.0,
                                   on_step=self._heard)
            panel = PanelServer.for_service(service) if self.settings.port is not None else None
            stack.enter_context(_running(service, panel, (self.feed, self.reader_feed)))
            if panel is not None:
                self.panel_url = panel.url()
                self.out(f"spectators: {panel.url()}   dealer console: {panel.url('/console')} "
                         f"(PIN {self.settings.pin})   state: {panel.url('/api/state')}")
            tracker = service.camera.watcher.tracker if service.camera else None
            assert tracker is not None, "the service started without its camera"
            renderer = TableCamera(self.physical.calibration(), self.style, tracker.voter.n, tracker.voter.k,
                                   self.settings.seed, tracker.settle_frames)
            self._camera = ServiceCamera(renderer, self.feed, service.settled, TIMEOUT)
            stage = Stage(self.physical, self._camera, self._reader(service) if self.open_deal else None)
            if self._taken_up(service.table.game_id, seated):  # a kept --state held a game the demo does not know
                self._perform(service, Console({"start": self._game_start(seated)}))
            if self.settings.deck_check:
                self._check_deck(service)
            game_id = service.table.game_id
            while not self.stopping.is_set():
                self._play(service, stage, seated)
                if self.stopping.is_set():
                    break
                dealer = (seated.header.dealer + 1) % len(self.names)
                truth, seated = seated.sim.game.summary(), self._seated(dealer)
                game_id = self._next_game(service, seated, game_id, truth)
                if self.settings.games is not None and len(self.results) >= self.settings.games:
                    break
        return self.results

    def _check_deck(self, service: TableService) -> None:
        """The dealer checks the game's deck at the console (the console port, as the panel's page does):
        spread after spread face up on the table, read by the service's camera; then gathers it."""
        camera = self._camera
        assert camera is not None
        said = service.deck_check("start")
        self.out(f"  the dealer checks the deck at the console: {said.message}")
        if not said.ok:
            return
        cards = deck_order(game_deck(self.settings.game))
        shuffled = random.Random(self.settings.seed).sample(cards, len(cards))  # the games' draws stay as they were
        for number, spread in enumerate(spreads(shuffled, self.style)):
            if self.stopping.is_set():
                return
            if number:
                service.deck_check("next")
            camera.show(spread)
            check = service.hub.snapshot().status.deck_check or {}
            self.out(f"    spread {number + 1}: {len(spread)} cards laid, {check.get('read')} of {len(cards)} read")
        said = service.deck_check("finish")
        self.out(f"    {said.message}")
        camera.show(self.physical.scene())  # the deck gathered away: the table as the game starts
        if self.settings.speed:
            self.stopping.wait(MOVE_PAUSE / self.settings.speed)

    def _reader(self, service: TableService) -> DealReader:
        """The scene's deal reader, its frames read by the service's reader watcher (voting as it does)."""
        assert service.reader is not None, "an open deal without the service's deal reader"
        tracker = service.reader.watcher.tracker
        reader = DealReader(tracker.voter.n, tracker.voter.k, self.settings.seed)
        renderer = TableCamera(reader.slot.calibration(), READER_STYLE, tracker.voter.n, tracker.voter.k,
                               self.settings.seed, tracker.settle_frames)
        reader.camera = self._reader_camera = ServiceCamera(renderer, self.reader_feed, service.settled, TIMEOUT)
        return reader

    def _taken_up(self, game_id: int, seated: SeatedGame) -> bool:
        """Whether the service took up a game a kept state directory held (not the demo's new one)."""
        wanted = TableLogHeader(seated.header, self.settings.deal).to_json()
        with Journal.open(self.state / JOURNAL_NAME, readonly=True) as journal:
            return journal.game(game_id).header != wanted or bool(journal.inputs(game_id))

    def _game_start(self, seated: SeatedGame) -> GameStart:
        header = seated.header
        return GameStart(header.game, header.players, header.dealer, self.settings.deal, dict(header.options),
                         header.chips)

    def _next_game(self, service: TableService, seated: SeatedGame, game_id: int, truth: dict[str, Any]) -> int:
        """The dealer starts the next game at the console: the journal ends this one with its result."""
        self._perform(service, Console({"start": self._game_start(seated)}))
        with Journal.open(self.state / JOURNAL_NAME, readonly=True) as journal:
            summary = journal.game(game_id).summary or {}
        result = GameResult(game_id, summary, truth)
        self.results.append(result)
        self._report(result)
        if self.settings.history is not None:  # written whole or not at all: an interrupted write leaves the old
            with Journal.open(self.state / JOURNAL_NAME, readonly=True) as journal:
                text = "".join(f"{line}\n" for line in journal.history_lines(game_id))
            write_text_atomically(self.settings.history, text)
            self.out(f"game {game_id}'s hand history written to {self.settings.history}")
        return service.table.game_id

    def _play(self, service: TableService, stage: Stage, seated: SeatedGame) -> None:
        players = seated.players(self.physical, self.open_deal)
        sim = players.sim
        self.out(f"--- {seated.header.game} for {', '.join(self.names)}, {self.names[seated.header.dealer]} deals")
        while not self.stopping.is_set() and (move := sim.choose()) is not None:
            if self.rng.random() < self.settings.mistakes:
                for attempt in players.mistake(move, self.rng):
                    self._act(service, stage, attempt)
            for action in players.actions(move):
                self._act(service, stage, self._maybe_unreadable(action))
            sim.game.apply(move.event)
            move.commit()
            if self.settings.speed:
                self.stopping.wait(MOVE_PAUSE / self.settings.speed)
        if self.stopping.is_set():
            return
        for action in players.finish():
            self._act(service, stage, action)
        stage.perform(Clear())  # the cards go back in the deck

    # --- one action at the table ----------------------------------------------------------------------
    def _maybe_unreadable(self, action: Action) -> Action:
        if isinstance(action, Lay) and action.face_up and self.rng.random() < self.settings.unreadable:
            return Lay(action.zone, action.card, readable=False)
        return action

    def _act(self, service: TableService, stage: Stage, action: Action) -> None:
        if isinstance(action, Read):
            self._dealt = action.card
        self._perform(service, action, stage)
        self._resolve(service, stage)

    def _perform(self, service: TableService, action: Action, stage: Stage | None = None) -> None:
        if isinstance(action, Press):
            self._press(action)
            if not service.settled(TIMEOUT):
                raise TimeoutError(f"the table service did not take a button press within {TIMEOUT:g} s")
        elif isinstance(action, Console):
            said = self._console(service, action.entry)
            if not said.ok:
                self.out(f"      the console answers: {said.message}")
        else:
            assert stage is not None
            stage.perform(action)  # rendered, read by the service's camera, judged

    def _press(self, press: Press) -> None:
        """A finger on the button: its mock pin pulled low, then let go (gpiozero tells the service)."""
        if press.action in ("next", "undo"):
            number = self.hardware.dealer_next if press.action == "next" else self.hardware.dealer_undo
        else:
            seat = self.hardware.seats[press.seat or 0]
            number = seat.go if press.action == "go" else seat.confirm
        pin = self.pins.pin(number)
        pin.drive_low()
        pin.drive_high()

    def _console(self, service: TableService, entry: dict[str, Any]) -> ConsoleAnswer:
        if "start" in entry:
            return service.start_game(entry["start"])
        if "event" in entry:
            return service.console_event(entry["event"])
        if entry.get("action") == "resolve":
            return service.resolve_hold(entry["card"])
        return service.relay()

    def _resolve(self, service: TableService, stage: Stage) -> None:
        """What the players and the dealer do about a hold: a refused card is taken back; a card under
        glare is named at the console (the dealer sees it: the last such card in that zone he has not named
        yet); a card dealt over the reader unread is named too (he dealt it: the deal waits for its name);
        any other unreadable card (a misread) is to be laid again."""
        for _ in range(MAX_TRIES):
            hold = service.hub.snapshot().status.hold
            if hold is None or self.stopping.is_set():
                return
            self.held += 1
            zone, card = hold.get("zone"), hold.get("card")
            if hold["reason"] in ("refused", "misplaced") and zone and card:
                self.out(f"    the player takes {card} back")
                self._perform(service, Take(zone, card), stage)
            elif hold["reason"] == "unknown" and zone == READER and self._dealt is not None:
                self.out(f"    the dealer names the card he dealt over the reader: {self._dealt}")
                self._perform(service, Console({"action": "resolve", "card": self._dealt}))
            elif hold["reason"] == "unknown" and zone:
                unnamed = [(zone, c) for c in self.physical.glared_in(zone) if (zone, c) not in self._named]
                if unnamed:
                    self._named.append(unnamed[-1])
                    self.out(f"    the dealer names the card at the console: {unnamed[-1][1]}")
                    self._perform(service, Console({"action": "resolve", "card": unnamed[-1][1]}))
                else:
                    self.out("    the dealer has the card laid again")
                    self._perform(service, Console({"action": "relay"}))
            else:
                raise RuntimeError(f"the demo table cannot resolve this hold: {hold}")
        raise RuntimeError(f"the demo table could not resolve a hold in {MAX_TRIES} tries")

    # --- what the table says ----------------------------------------------------------------------------
    def _heard(self, line: dict[str, Any], step: Step) -> None:
        """The service's `on_step` (its owner thread): the input in words, then what the table made of it."""
        for camera in (self._camera, self._reader_camera):
            if camera is not None:
                camera.heard(line, step)
        self.out(f"  [{line['t'] - self._started:7.2f}] {seen(line)}")
        for judged in step.judged:
            text, effects = describe_judged(judged, self.names)
            self.refused += not judged.ok
            self.out(f"      {text}")
            for effect in effects:
                self.out(f"          {effect}")
        if step.hold is not None:
            self.out(f"      HOLD: {step.hold.describe()}")
        elif step.outputs.notice and not step.events:
            self.out(f"      {step.outputs.notice}")

    def _report(self, result: GameResult) -> None:
        summary = result.summary
        if summary.get("winner") is not None:
            self.out(f"game over: {self.names[summary['winner']]} wins")
        for key in ("scores", "chips"):
            if summary.get(key) is not None:
                self.out(f"  {key}: " + ", ".join(f"{name} {value}" for name, value in zip(self.names, summary[key])))
        self.out(f"the simulated table's own result: {'the same' if result.same_result else result.truth}")
        self.out(f"refused so far: {self.refused}; holds: {self.held}; camera frames: {self.feed_frames}")

    @property
    def feed_frames(self) -> int:
        return sum(camera.frames for camera in (self._camera, self._reader_camera) if camera is not None)


@contextmanager
def _running(service: TableService, panel: PanelServer | None, feeds: tuple[SceneFeed, ...]) -> Iterator[None]:
    """The service's loop on its own thread (and the panel), stopped cleanly however the block ends:
    the cameras first (their feeds end), then the loop (journal closed, hub closed), then the panel."""
    thread = threading.Thread(target=service.run, name="service")
    if panel is not None:
        panel.start()
    thread.start()
    try:
        if service.hub.wait_for(0, TIMEOUT) is None:
            raise RuntimeError("the table service did not start")
        yield
    finally:
        for feed in feeds:
            feed.close()
        service.stop()
        thread.join(TIMEOUT)
        if panel is not None:
            panel.stop()


def seen(line: dict[str, Any]) -> str:
    """A table-log line in words: what the camera saw, which button, what the console entered."""
    if "text" in line:
        return f"camera: {line['text']}"
    if line["type"] == "button":
        who = "" if line["seat"] is None else f" (seat {line['seat'] + 1})"
        return f"button {line['action'].upper()}{who}"
    entry = line.get("event") or {k: v for k, v in line.items() if k not in ("t", "type")}
    return f"console: {entry}"
