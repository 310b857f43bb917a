"""Simulated club tables, headless but real: each is a journal (SQLite, in the test's folder), the journaled
table session fed a simulated game's table log line by line, and a StateHub published after every input
as the service loop does; its ClubPublisher reads that hub and journal as it would in `cardtable run`."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from controller.club.publisher import ClubPublisher
from controller.journal import JOURNAL_NAME, Journal
from controller.service.config import ClubConfig
from controller.service.hub import StateHub, TableStatus
from controller.service.views import views
from controller.simulation import cribbage as cribbage_sim, femkort as femkort_sim, ferbli as ferbli_sim
from controller.table.journaled import JournaledTable
from controller.table.log import TableLogHeader
from club_broker import Broker
from table_logs import Line, cribbage_log, femkort_log, ferbli_log

CLUB = "riverside"


def game_log(seed: int, deal: str = "closed") -> list[Line]:
    """A whole simulated game of the kind `seed` picks (cribbage, Femkort or Färbeln), as table-log lines."""
    rng = random.Random(seed)
    kind = seed % 3
    if kind == 0:
        players = rng.choice([2, 3])
        return cribbage_log(cribbage_sim.header(players, rng.randrange(players), target=61), deal, seed)[0]
    if kind == 1:
        players = rng.choice([3, 4])
        return femkort_log(femkort_sim.header(players, rng.randrange(players), [6] * players), deal, seed)[0]
    return ferbli_log(ferbli_sim.header(3, rng.randrange(3), [12, 12, 12]), deal, seed)[0]


def named(lines: list[Line], names: list[str]) -> list[Line]:
    """The log with the simulator's players (P0, P1, ...) called by `names`, so players meet across tables."""
    return [{**lines[0], "players": names[:len(lines[0]["players"])]}, *lines[1:]]


class ClubTable:
    def __init__(self, folder: Path, name: str, header: Line, broker: Broker | None, club: str = CLUB,
                 outbox_limit: int = 10_000, user: str | None = None, port: int | None = None) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.folder, self.name, self.header = folder, name, header
        self.journal = Journal.open(folder / JOURNAL_NAME, synchronous="NORMAL")
        self.table = JournaledTable.start(self.journal, TableLogHeader.from_json(header))
        self.hub = StateHub()
        self._t = 0.0
        self._show()
        user = user or name
        settings = broker.settings(user) if broker is not None else None
        self.config = ClubConfig(host="127.0.0.1", port=port or (settings.port if settings else 1),
                                 username=user, password=settings.password if settings else "x",
                                 club=club, table=name, outbox_limit=outbox_limit)
        self.publisher = self.new_publisher()

    def new_publisher(self) -> ClubPublisher:
        """The table's publisher (again, after `publisher.stop()`: the table came back); not started."""
        return ClubPublisher(self.config, self.hub, self.folder)

    def feed(self, line: Line) -> None:
        self._t = max(self._t, float(line["t"]))
        self.table.feed(line)
        self._show()

    def play(self, lines: list[Line]) -> None:
        """Every line of a game's log, then NEXT: the game ends in the journal."""
        for line in lines:
            self.feed(line)
        self.next()

    def next(self) -> None:
        self.feed({"t": round(self._t + 0.1, 1), "type": "button", "action": "next", "seat": None})

    def _show(self) -> None:
        session = self.table.session
        self.hub.publish(*views(session), TableStatus(camera="online"))

    def finished(self) -> list[dict[str, Any]]:
        """The journal's finished games as the hall should hold them."""
        return [{"game": r.id, "summary": r.summary, "history": list(self.journal.history_lines(r.id))}
                for r in self.journal.games() if r.ended]

    def close(self) -> None:
        self.hub.close()
        self.journal.close()
