"""`cardtable demo`: a whole game at a simulated table, on the real pipeline.

Simulated players (controller.simulation) make their moves with cards on a physical table
(controller.simulation.scene): every card move is rendered into camera frames and read by the real
vision; what it reports, the buttons pressed and the console's entries go as table-log lines to the
table session, which journals them, has the engine judge the events they make, and answers with sound,
light and pegs: the real peg-board firmware behind a pty, gpiozero's buzzer and status light on mock
pins. Now and then a player tries something illegal (a card out of turn, a false go) and takes the
card back when the table refuses it, and now and then a card lies unreadable and the dealer names it
at the console, so the table holds. The simulated table's own engine, told every true card, is the
truth the session's result is checked against.
"""
from __future__ import annotations

import io
import random
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from gpiozero.pins.mock import MockFactory, MockPWMPin

from .engine import Event
from .games import new_game
from .hardware.buzzer import TableBuzzer
from .hardware.config import HardwareConfig
from .hardware.status_light import StatusLight
from .history import Header, write_history
from .journal import Journal
from .narration import describe_effect, describe_event
from .output_files import write_text_atomically
from .pegboard.link import LinkConfig, PegBoardLink
from .pegboard.virtual import VirtualPegBoard
from .simulation.scene.actions import Action, Console, Lay, Take
from .simulation.scene.players import Players, seat_table
from .simulation.scene.stage import Stage, table_stage
from .table.journaled import JournaledTable
from .table.log import TableLogHeader
from .table.outputs import Outputs
from .table.session import Step

PLAYER_NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")
MISTAKES = 0.05  # how often a simulated player gets something wrong before a move
UNREADABLE = 0.04  # how often a card lands where the camera cannot read it


@dataclass
class SimulatedHardware:
    """The table's outputs on simulated parts: the firmware behind a pty, gpiozero on mock pins."""

    board: VirtualPegBoard | None
    link: PegBoardLink | None
    buzzer: TableBuzzer
    light: StatusLight

    @classmethod
    def start(cls, tracks: int | None, target: int) -> SimulatedHardware:
        """`tracks` None: no peg board (the games played for chips)."""
        board = link = None
        if tracks:
            board = VirtualPegBoard({"tracks": tracks, "holes": target})
            board.start()
            link = PegBoardLink(LinkConfig(port=board.port_path))
            link.start()
        pins = MockFactory(pin_class=MockPWMPin)  # the tonal buzzer needs PWM
        config = HardwareConfig()
        return cls(board, link, TableBuzzer(config, pins, tempo=4.0), StatusLight(config, pins))

    def show(self, outputs: Outputs) -> None:
        for sound in outputs.sounds:
            self.buzzer.play(sound)
        self.light.show(outputs.light)
        if self.link and outputs.board:
            self.link.set_state(outputs.board)

    def close(self) -> None:
        self.buzzer.close()
        self.light.close()
        if self.link and self.board:
            self.link.stop()
            self.board.stop()


class TableDemo:
    """One game: the simulated players' moves made at the physical table, sensed, journaled and judged."""

    def __init__(self, players: Players, stage: Stage, table: JournaledTable, hardware: SimulatedHardware,
                 out: Callable[[str], None], rng: random.Random, delay: float = 0.0, mistakes: float = MISTAKES,
                 unreadable: float = UNREADABLE) -> None:
        self.players, self.stage, self.table, self.hardware = players, stage, table, hardware
        self.out, self.rng, self.delay = out, rng, delay
        self.mistakes, self.unreadable = mistakes, unreadable
        self._named: list[tuple[str, str]] = []  # (zone, card): the unreadable cards the dealer has named
        self.names = table.session.setup.players
        # the session's steps carry effects as JSON: the narrator's own copy of the game, fed the accepted
        # events, says them in words from the typed effects
        self.narrator = new_game(table.session.setup)
        self.refused = self.held = self.lines = 0

    def run(self) -> dict[str, Any]:
        """Play until the simulated table's game is over; the session's summary."""
        sim = self.players.sim
        while (move := sim.choose()) is not None:
            if self.rng.random() < self.mistakes:
                for attempt in self.players.mistake(move, self.rng):
                    self._perform(attempt)
            for action in self.players.actions(move):
                self._perform(self._maybe_unreadable(action))
            sim.game.apply(move.event)
            move.commit()
            time.sleep(self.delay)
        for action in self.players.finish():
            self._perform(action)
        return self.table.session.engine.summary()

    def _maybe_unreadable(self, action: Action) -> Action:
        if isinstance(action, Lay) and action.face_up and self.rng.random() < self.unreadable:
            return Lay(action.zone, action.card, readable=False)
        return action

    def _perform(self, action: Action) -> None:
        for line in self.stage.perform(action).lines:
            self._feed(line)
        self._resolve()

    def _resolve(self) -> None:
        """What the players and the dealer do about a hold: a refused card is taken back; a card under
        glare is named at the console (the dealer sees it: the last such card in that zone he has not named
        yet); any other unreadable card (a misread, or one named already) is to be laid again."""
        hold = self.table.session.hold
        if hold is None:
            return
        self.held += 1
        if hold.reason in ("refused", "misplaced") and hold.zone and hold.card:
            self.out(f"    the player takes {hold.card} back")
            self._perform(Take(hold.zone, hold.card))
        elif hold.reason == "unknown" and hold.zone:
            glared = [(hold.zone, card) for card in self.stage.table.glared_in(hold.zone)]
            unnamed = [place for place in glared if place not in self._named]
            if unnamed:
                self._named.append(unnamed[-1])
                self.out(f"    the dealer names the card at the console: {unnamed[-1][1]}")
                self._perform(Console({"action": "resolve", "card": unnamed[-1][1]}))
            else:
                self.out("    the dealer has the card laid again")
                self._perform(Console({"action": "relay"}))
        else:
            raise RuntimeError(f"the demo table cannot resolve this hold: {hold.describe()}")

    def _feed(self, line: dict[str, Any]) -> None:
        step = self.table.feed(line)
        self.lines += 1
        self.out(f"  [{line['t']:7.2f}] {seen(line)}")
        self._narrate(step)
        self.hardware.show(step.outputs)

    def _narrate(self, step: Step) -> None:
        for judged in step.events:
            text = describe_event(judged["event"], self.names)
            if not judged["ok"]:
                self.refused += 1
                self.out(f"      {text}: REFUSED: {judged['error']}")
                continue
            self.out(f"      {text}")
            for effect in self.narrator.apply(judged["event"]):
                self.out(f"          {describe_effect(effect, self.names)}")
        if step.hold is not None:
            self.out(f"      HOLD: {step.hold.describe()}")
        elif step.outputs.notice and not step.events:
            self.out(f"      {step.outputs.notice}")


def seen(line: dict[str, Any]) -> str:
    """A table-log line in words: what the camera saw, which button, what the console entered."""
    if "text" in line:
        return f"camera: {line['text']}"
    if line["type"] == "button":
        who = "" if line["seat"] is None else f" (seat {line['seat'] + 1})"
        return f"button {line['action'].upper()}{who}"
    entry = line.get("event") or {k: v for k, v in line.items() if k not in ("t", "type")}
    return f"console: {entry}"


@dataclass(frozen=True)
class DemoRun:
    """A demo game played: the session's summary, the simulated table's own (the truth), and the game's
    accepted events (less those undone), as the journal holds them."""

    summary: dict[str, Any]
    truth: dict[str, Any]
    header: Header
    history: list[Event]

    @property
    def same_result(self) -> bool:
        return all(self.summary.get(key) == self.truth.get(key) for key in ("scores", "chips", "winner"))


def play_demo(out: Callable[[str], None], game: str = "cribbage", players: int = 2, deal: str = "closed",
              seed: int = 0, journal_path: str | None = None, options: dict[str, Any] | None = None,
              reads: int = 3, delay: float = 0.0, mistakes: float = MISTAKES, unreadable: float = UNREADABLE
              ) -> DemoRun:
    """Play one game at the simulated table, narrating to `out`. The journal is a temporary one unless
    `journal_path` is given."""
    rng = random.Random(seed)
    at_table = seat_table(Header(game, PLAYER_NAMES[:players], 0, dict(options or {}), None), rng)
    out(f"cardtable demo: {players}-player {game}, {deal} deal, on the real pipeline (seed {seed})")
    with ExitStack() as stack:
        if journal_path is None:
            journal_path = str(Path(stack.enter_context(tempfile.TemporaryDirectory())) / "demo.journal")
        journal = Journal.open(journal_path)
        stack.callback(journal.close)
        table = JournaledTable.start(journal, TableLogHeader(at_table.header, deal))
        hardware = SimulatedHardware.start(at_table.tracks, at_table.target)
        stack.callback(hardware.close)
        stage = table_stage(players, deal == "open", seed, reads)
        demo = TableDemo(at_table.players(stage.table, deal == "open"), stage, table, hardware, out, rng, delay,
                         mistakes, unreadable)
        run = DemoRun(demo.run(), at_table.sim.game.summary(), at_table.header, list(table.session.history))
        _report(out, demo, run, hardware)
        out(f"journal: {journal_path}")
    return run


def run_demo(out: Callable[[str], None], game: str = "cribbage", players: int = 2, deal: str = "closed",
             seed: int | None = None, options: dict[str, Any] | None = None, reads: int = 3, delay: float = 0.0,
             journal_path: str | None = None, history_path: str | None = None) -> int:
    """`cardtable demo`: 0 when the table's result is the simulated table's, else 1."""
    seed = random.randrange(10**6) if seed is None else seed
    run = play_demo(out, game, players, deal, seed, journal_path, options, reads, delay)
    if history_path:  # written whole or not at all: an interrupted write leaves the old file
        text = io.StringIO()
        write_history(text, run.header, run.history)
        write_text_atomically(Path(history_path), text.getvalue())
        out(f"hand history written to {history_path} (check it: cardtable replay {history_path})")
    return 0 if run.same_result else 1


def _report(out: Callable[[str], None], demo: TableDemo, run: DemoRun, hardware: SimulatedHardware) -> None:
    out("")
    summary = run.summary
    names = run.header.players
    if summary.get("winner") is not None:
        out(f"game over: {names[summary['winner']]} wins")
    for key in ("scores", "chips"):
        if summary.get(key) is not None:
            out(f"  {key}: " + ", ".join(f"{name} {value}" for name, value in zip(names, summary[key])))
    out(f"the simulated table's own result: {'the same' if run.same_result else run.truth}")
    out(f"table-log lines: {demo.lines}; events accepted: {len(run.history)}; refused: {demo.refused}; "
        f"holds: {demo.held}; camera frames: {demo.stage.frames}")
    if hardware.link and hardware.board:
        stats = hardware.link.stats
        out(f"peg board link: {hardware.link.status.value}, frames {stats.frames_sent}, "
            f"retransmits {stats.retransmits}, resyncs {stats.resyncs}")
