"""Whole games through rendered frames: the simulated players' moves made at the physical table
(controller.simulation.scene), read by the real vision, every table-log line fed to a TableSession.
The simulated table's engine was told every true card: its result is the truth the session must reach."""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from controller.history import Header
from controller.simulation.scene.actions import Action, Console
from controller.simulation.scene.players import seat_table
from controller.simulation.scene.stage import Stage, table_stage
from controller.table.log import input_from_json
from controller.table.session import Step, TableSession

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")


@dataclass
class FramesGame:
    """A game played through frames: the session, its steps, the simulated table's summary (the truth)."""

    session: TableSession
    stage: Stage
    truth: dict[str, Any]
    steps: list[Step] = field(default_factory=list)
    relayed: int = 0  # unreadable cards the dealer had laid again (a passing misread)


class FramesTable:
    def __init__(self, game: str, players: int, deal: str, seed: int, options: dict[str, Any]) -> None:
        rng = random.Random(seed)
        self.seated = seat_table(Header(game, NAMES[:players], seed % players, options, None), rng)
        self.stage = table_stage(players, deal == "open", seed, reads=1)
        self.players = self.seated.players(self.stage.table, deal == "open")
        self.session = TableSession(self.seated.header, deal)
        self.steps: list[Step] = []
        self.relayed = 0

    def play(self) -> FramesGame:
        sim = self.seated.sim
        while (move := sim.choose()) is not None:
            for action in self.players.actions(move):
                self.perform(action)
            sim.game.apply(move.event)
            move.commit()
        for action in self.players.finish():
            self.perform(action)
        return FramesGame(self.session, self.stage, sim.game.summary(), self.steps, self.relayed)

    def perform(self, action: Action) -> None:
        for line in self.stage.perform(action).lines:
            step = self.session.feed(input_from_json(line, len(self.seated.header.players))[1])
            self.steps.append(step)
            hold = step.hold
            if hold is None:
                continue
            # no player errs and no card lies under glare: only a passing misread may hold the table
            assert hold.reason == "unknown", (line, hold, step.events)
            self.relayed += 1
            self.perform(Console({"action": "relay"}))


def play_through_frames(game: str, players: int, deal: str, seed: int, **options: Any) -> FramesGame:
    return FramesTable(game, players, deal, seed, options).play()
