"""The hall's record of the evening: every finished game of every table, with its hand history, in SQLite
on the hall machine (`database` in hall.toml), written as each arrives, before the broker is told it
was taken (paho acknowledges a QoS 1 message once the handler returns), so a hall that stops or a
broker that restarts loses none.

A table sends a finished game as a retained message too, so the same game may arrive again (each time
the hall subscribes): a game is one row per (table, game id, start time), and a repeat is ignored.

    games (table_name, game, started, kind, players JSON, ended, summary JSON, history TEXT, received)
"""
from __future__ import annotations

import json
import sqlite3
import threading
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .standings import FinishedGame

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    table_name TEXT NOT NULL,
    game INTEGER NOT NULL,
    started TEXT NOT NULL,
    kind TEXT NOT NULL,
    players TEXT NOT NULL,
    ended TEXT NOT NULL,
    summary TEXT NOT NULL,
    history TEXT NOT NULL,
    received TEXT NOT NULL,
    PRIMARY KEY (table_name, game, started));
"""


class GameError(ValueError):
    """A finished-game message the hall cannot take; the message says which part is wrong."""


def _checked(payload: dict[str, Any]) -> tuple[int, str, str, list[str], str, dict[str, Any], list[str]]:
    header, history, summary = payload.get("header"), payload.get("history"), payload.get("summary")
    game, started, ended = payload.get("game"), payload.get("started"), payload.get("ended")
    if not isinstance(game, int) or isinstance(game, bool) or game < 1:
        raise GameError(f"'game' must be the journal's game id, got {game!r}")
    if not isinstance(header, dict) or not isinstance(header.get("game"), str) or not isinstance(
            header.get("players"), list) or not all(isinstance(p, str) for p in header["players"]):
        raise GameError("'header' must be the game's setup with 'game' and 'players'")
    if not isinstance(started, str) or not isinstance(ended, str):
        raise GameError("'started' and 'ended' must be the game's times")
    if not isinstance(summary, dict):
        raise GameError("'summary' must be the game's final summary")
    if not isinstance(history, list) or not history or not all(isinstance(line, str) for line in history):
        raise GameError("'history' must be the hand history's lines, the header first")
    return game, started, header["game"], list(header["players"]), ended, summary, history


class HallStore:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()  # one connection, shared by the subscriber and the page's threads
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def record(self, table: str, payload: dict[str, Any]) -> bool:
        """Keep a finished game (GameError when it is malformed); False when it was kept already."""
        game, started, kind, players, ended, summary, history = _checked(payload)
        received = datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")
        with self._lock:
            cursor = self._db.execute(
                "INSERT OR IGNORE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (table, game, started, kind, json.dumps(players), ended, json.dumps(summary),
                 "".join(f"{line}\n" for line in history), received))
        return cursor.rowcount == 1

    def games(self) -> list[dict[str, Any]]:
        """Every finished game, in the order they ended: table, game id, kind, players, times, summary."""
        with self._lock:
            rows = self._db.execute("SELECT table_name, game, started, kind, players, ended, summary FROM games "
                                    "ORDER BY ended, table_name, game").fetchall()
        return [{"table": table, "game": game, "started": started, "kind": kind, "players": json.loads(players),
                 "ended": ended, "summary": json.loads(summary)}
                for table, game, started, kind, players, ended, summary in rows]

    def finished(self) -> list[FinishedGame]:
        return [FinishedGame(g["table"], g["kind"], g["players"], g["summary"]) for g in self.games()]

    def history(self, table: str, game: int) -> str | None:
        """The game's hand history (cardtable-history lines), the latest one of that id; None if unknown."""
        with self._lock:
            row = self._db.execute("SELECT history FROM games WHERE table_name = ? AND game = ? "
                                   "ORDER BY started DESC LIMIT 1", (table, game)).fetchone()
        return None if row is None else str(row[0])
