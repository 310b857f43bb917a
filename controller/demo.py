"""`cardtable demo`: a whole cribbage game at a simulated table, end to end on the real code.

A random legal table (controller.simulation) deals and plays; every event goes through the cribbage
engine; scores drive the real peg-board firmware running behind a pty (through the real serial link);
illegal plays are rejected and beep on a gpiozero buzzer and status light built on gpiozero's mock pins.
"""
from __future__ import annotations

import io
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, TextIO

from gpiozero.pins.mock import MockFactory, MockPWMPin

from .cribbage.game import CribbageGame, Phase
from .engine import Event, IllegalEvent, Points
from .games import new_game
from .hardware.buzzer import Sound, TableBuzzer
from .hardware.config import HardwareConfig
from .hardware.status_light import LightStatus, StatusLight
from .history import Header, write_history
from .narration import describe_effect, describe_event
from .output_files import write_text_atomically
from .pegboard.link import LinkConfig, PegBoardLink
from .pegboard.state import Mode
from .pegboard.virtual import VirtualPegBoard
from .simulation.cribbage import Driver
from .table.outputs import board_state

PLAYER_NAMES = ("Ann", "Bo", "Cy", "Di")
ILLEGAL_EVERY = 25  # roughly how often the simulated players try something illegal


@dataclass
class SimulatedHardware:
    """The table's outputs on simulated parts: the firmware behind a pty, gpiozero on mock pins."""

    board: VirtualPegBoard
    link: PegBoardLink
    buzzer: TableBuzzer
    light: StatusLight

    @classmethod
    def start(cls, tracks: int, target: int) -> SimulatedHardware:
        board = VirtualPegBoard({"tracks": tracks, "holes": target})
        board.start()
        link = PegBoardLink(LinkConfig(port=board.port_path))
        link.start()
        pins = MockFactory(pin_class=MockPWMPin)  # the tonal buzzer needs PWM
        config = HardwareConfig()
        return cls(board, link, TableBuzzer(config, pins, tempo=4.0), StatusLight(config, pins))

    def close(self) -> None:
        self.buzzer.close()
        self.light.close()
        self.link.stop()
        self.board.stop()


def illegal_attempt(game: CribbageGame, rng: random.Random, driver: Driver) -> Event | None:
    """Something a real player gets wrong: playing out of turn, or saying go while holding a card that fits."""
    seat = game.to_act()
    if game.phase is not Phase.PLAY or seat is None:
        return None
    others = [s for s in range(game.players) if s != seat and driver.truth.holding[s]]
    if others and rng.random() < 0.5:
        other = rng.choice(others)
        return {"type": "play", "seat": other, "card": str(driver.truth.holding[other][0])}
    if game.playable(seat):
        return {"type": "go", "seat": seat}
    return None


class Demo:
    def __init__(self, hardware: SimulatedHardware, out: Callable[[str], None], players: int, seed: int,
                 delay: float) -> None:
        self.header = Header("cribbage", PLAYER_NAMES[:players], 0, {}, None)
        self.game: CribbageGame = new_game(self.header)  # type: ignore[assignment]
        self.rng = random.Random(seed)
        self.driver = Driver(self.game, self.rng)
        self.hardware, self.out, self.delay = hardware, out, delay
        self.target = self.game.target
        self.history: list[Event] = []
        self.rejected = 0

    def run(self) -> dict[str, Any]:
        self.hardware.light.show(LightStatus.READY)
        self.hardware.link.set_state(board_state(self.game))
        while (move := self.driver.choose()) is not None:
            now_and_then = self.rng.randrange(ILLEGAL_EVERY) == 0
            if now_and_then and (attempt := illegal_attempt(self.game, self.rng, self.driver)):
                self._try_illegal(attempt)
            self._accept(move.event)
            move.commit()
            time.sleep(self.delay)
        return self.game.summary()

    def _try_illegal(self, event: Event) -> None:
        self.out(f"  {describe_event(event, self.header.players)}")
        try:
            self.game.apply(event)
        except IllegalEvent as error:
            self.rejected += 1
            self.out(f"    REJECTED: {error}")
            self.hardware.buzzer.play(Sound.ILLEGAL)
            self.hardware.light.show(LightStatus.ILLEGAL)
            self.hardware.link.set_state(board_state(self.game).with_mode(Mode.ILLEGAL))
        else:
            raise AssertionError(f"the engine accepted an illegal event: {event}")

    def _accept(self, event: Event) -> None:
        effects = self.game.apply(event)
        self.history.append(event)
        self.out(f"  {describe_event(event, self.header.players)}")
        for effect in effects:
            self.out(f"      {describe_effect(effect, self.header.players)}")
        if any(isinstance(e, Points) and e.points == 29 for e in effects):
            self.hardware.buzzer.play(Sound.TWENTY_NINE)
        if self.game.phase is Phase.GAME_OVER:
            self.hardware.buzzer.play(Sound.WIN)
        self.hardware.light.show(LightStatus.READY)
        self.hardware.link.set_state(board_state(self.game))


def run_demo(out: TextIO, players: int = 2, seed: int | None = None, delay: float = 0.02,
             history_path: str | None = None) -> int:
    seed = random.randrange(10**6) if seed is None else seed
    print_line: Callable[[str], None] = lambda text: print(text, file=out, flush=True)
    sides = 2 if players == 4 else players
    print_line(f"cardtable demo: {players}-player cribbage on simulated hardware (seed {seed})")
    hardware = SimulatedHardware.start(sides, 121)  # the demo plays the default 121-point game
    try:
        demo = Demo(hardware, print_line, players, seed, delay)
        summary = demo.run()
        final = board_state(demo.game)
        confirmed = hardware.link.wait_confirmed(final, timeout=3.0)
        hardware.buzzer.wait_idle(timeout=5.0)
        _report(print_line, demo, summary, hardware, confirmed)
        if history_path:  # checked before the game (commands/demo.py); written whole or not at all
            text = io.StringIO()
            write_history(text, demo.header, demo.history)
            write_text_atomically(Path(history_path), text.getvalue())
            print_line(f"hand history written to {history_path} (check it: cardtable replay {history_path})")
    finally:
        hardware.close()
    return 0


def _report(print_line: Callable[[str], None], demo: Demo, summary: dict[str, Any], hardware: SimulatedHardware,
            confirmed: bool) -> None:
    names = demo.header.players
    sides = [" & ".join(names[s::len(summary["scores"])]) for s in range(len(summary["scores"]))]
    print_line("")
    winner = sides[summary["winner"]]
    print_line(f"game over: {winner} {'win' if ' & ' in winner else 'wins'}, skunk: {summary['skunk']}")
    for label, score, peg in zip(sides, summary["scores"], summary["pegs"]):
        print_line(f"  {label:<10} {score:>3} points   pegs: front {peg['front']}, back {peg['back']}")
    print_line(f"illegal attempts rejected: {demo.rejected}; events accepted: {len(demo.history)}")
    stats = hardware.link.stats
    print_line(f"peg board link: {hardware.link.status.value}, the board acknowledged the final pegs: {confirmed}, "
               f"frames {stats.frames_sent}, retransmits {stats.retransmits}, resyncs {stats.resyncs}")
