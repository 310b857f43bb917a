"""Shared by the journal tests: table-log headers, a simulated cribbage game journaled event by event."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from controller.cribbage.game import new_game
from controller.history import Header
from controller.journal import Journal
from controller.table.log import FORMAT as TABLE_LOG_FORMAT
from controller.simulation.cribbage import Driver, header


def table_log_header(head: Header, deal: str = "closed") -> dict[str, Any]:
    return {**head.to_json(), "format": TABLE_LOG_FORMAT, "deal": deal}


def cribbage_driver(seed: int, players: int = 2) -> tuple[Header, Driver]:
    head = header(players, seed % players)
    return head, Driver(new_game(head), random.Random(seed), unread=0.2)


def console_line(t: float, event: dict[str, Any]) -> dict[str, Any]:
    """The table-log line of an event entered at the dealer console."""
    return {"t": t, "type": "console", "event": event}


def journal_game(journal: Journal, seed: int, limit: int = 10_000, end: bool = False
                 ) -> tuple[int, list[dict[str, Any]]]:
    """Plays a cribbage game (at most `limit` events), journaling each input and accepted event, and with
    `end` its summary."""
    head, driver = cribbage_driver(seed)
    game_id = journal.start_game(table_log_header(head))
    accepted = []
    for number, (event, _) in enumerate(driver.events(limit)):
        journal.append_event(game_id, event, journal.append_input(game_id, console_line(number * 0.5, event)))
        accepted.append(event)
    if end:
        journal.end_game(game_id, driver.game.summary())
    return game_id, accepted


def written(folder: Path) -> list[Path]:
    """The files in `folder`, less the WAL index and log a SQLite reader may leave beside a journal."""
    return sorted(p for p in folder.rglob("*") if not p.name.endswith(("-wal", "-shm")))
