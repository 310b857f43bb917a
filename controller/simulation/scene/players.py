"""The simulated players of each game, seated at the physical table: a random legal table of the game
(controller.simulation, whose engine is told every true card: the truth) and the players who make its
moves with cards, buttons and the console."""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Protocol

from controller.cribbage.game import new_game as new_cribbage
from controller.history import Header
from controller.femkort.game import new_game as new_femkort
from controller.ferbli.game import new_game as new_ferbli
from controller.simulation.cribbage import Driver
from controller.simulation.femkort import FemkortTable
from controller.simulation.ferbli import FerbliTable
from controller.simulation.scene.femkort import FemkortPlayers
from controller.simulation.scene.ferbli import FerbliPlayers
from controller.simulation.scene.actions import Action
from controller.simulation.scene.cribbage import CribbagePlayers
from controller.simulation.scene.table import PhysicalTable
from controller.simulation.table import Move, SimulatedTable


FERBLI_STACK = 8  # chips each Färbeln player brings to the demo


class Players(Protocol):
    @property
    def sim(self) -> SimulatedTable:
        """The simulated table whose moves these players make."""
        ...

    def actions(self, move: Move) -> list[Action]:
        """What the players do to make `move`."""
        ...

    def mistake(self, move: Move, rng: random.Random) -> list[Action]:
        """Something illegal a player might try before `move` (the table refuses it), or nothing."""
        ...

    def finish(self) -> list[Action]:
        """What the players still do once the game is over."""
        ...


@dataclass
class SeatedGame:
    """A game ready to play at the table: its header (options and chips as the demo plays them), the
    simulated table, what the peg board shows, and the players to seat at a physical table."""

    header: Header
    sim: SimulatedTable
    tracks: int | None  # peg-board tracks; None: no board (the games played for chips)
    target: int  # the board's holes
    seat: Callable[[PhysicalTable, bool], Players]  # (the table, an open deal) -> the players

    def players(self, table: PhysicalTable, open_deal: bool) -> Players:
        return self.seat(table, open_deal)


def _cribbage(header: Header, rng: random.Random) -> SeatedGame:
    game = new_cribbage(header)
    driver = Driver(game, rng, shorthand=0.0)
    sides = 2 if len(header.players) == 4 else len(header.players)  # four play as two partnerships
    return SeatedGame(header, driver, sides, game.target,
                      lambda table, open_deal: CribbagePlayers(driver, table, open_deal))


def _femkort(header: Header, rng: random.Random) -> SeatedGame:
    sim = FemkortTable(new_femkort(header), rng, unread=0.0, shorthand=0.0, misdeal=0.0, redeal=0.0, time_up=0.0,
                       new_hand=1.0)
    return SeatedGame(header, sim, None, 0, lambda table, open_deal: FemkortPlayers(sim, table, open_deal))


def _ferbli(header: Header, rng: random.Random) -> SeatedGame:
    """Small stacks and stakes, so that a match ends after a few deals."""
    header = Header(header.game, header.players, header.dealer, {"min": 1, "max": 3, **header.options},
                    header.chips or (FERBLI_STACK,) * len(header.players))
    sim = FerbliTable(new_ferbli(header), rng, unread=0.0, shorthand=0.0, misdeal=0.0)
    return SeatedGame(header, sim, None, 0, lambda table, open_deal: FerbliPlayers(sim, table, open_deal, rng))


GAMES: dict[str, Callable[[Header, random.Random], SeatedGame]] = {
    "cribbage": _cribbage, "femkort": _femkort, "ferbli": _ferbli}


def seat_table(header: Header, rng: random.Random) -> SeatedGame:
    make = GAMES.get(header.game)
    if make is None:
        raise ValueError(f"the demo plays {', '.join(GAMES)}, not {header.game!r}")
    return make(header, rng)
