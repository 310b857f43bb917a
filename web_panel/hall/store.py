"""The hall's record of the club's evenings: every finished game of every table, with its hand history, in
SQLite on the hall machine (`database` in hall.toml), written as each arrives, before the broker is told
it was taken (the subscriber acknowledges a QoS 1 message only once `record` returned), so a hall that
stops, a broker that restarts or a disk that fills loses none.

A table sends a finished game as a retained message too, so the same game may arrive again (each time
the hall subscribes): a game is one row per (table, game id, start time), and a repeat is ignored, even
one evenings later (it stays in the evening it first came in).

Games belong to evenings: the last evening is the current one, the one arriving games go to;
`new_evening` closes it (its games and standings stay, readable by `games(evening)`) and opens the next.

    evenings (id, started, closed)    closed NULL: the current evening, always exactly one
    games (table_name, game, started, kind, players JSON, ended, summary JSON, history TEXT, received,
           evening)

A database of the hall before evenings (user_version 0) is migrated in place on opening, in one
transaction: its games become evening 1, started when its first game came in.
"""
from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .standings import FinishedGame

SCHEMA_VERSION = 1

_GAMES = """
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

# From the hall before evenings (a games table alone) to evenings: one path for old and new files alike.
_TO_EVENINGS = """
CREATE TABLE evenings (id INTEGER PRIMARY KEY, started TEXT NOT NULL, closed TEXT);
INSERT INTO evenings (id, started) VALUES (1, coalesce((SELECT min(received) FROM games), :now));
ALTER TABLE games ADD COLUMN evening INTEGER NOT NULL DEFAULT 1 REFERENCES evenings (id);
CREATE INDEX games_evening ON games (evening, ended);
"""


class GameError(ValueError):
    """A finished-game message the hall cannot take; the message says which part is wrong."""


class StoreError(Exception):
    """The hall's database cannot be written now (disk full, read-only): nothing was written."""


@dataclass(frozen=True)
class Evening:
    id: int
    started: str
    closed: str | None  # None: the current evening
    games: int

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "started": self.started, "closed": self.closed, "games": self.games}


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


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
        self._migrate()

    def _migrate(self) -> None:
        with self._writing("migrate the database to evenings"):
            self._db.executescript(_GAMES)
            self._db.execute("BEGIN IMMEDIATE")  # a second process opening it meanwhile waits, then sees it done
            (version,) = self._db.execute("PRAGMA user_version").fetchone()
            if version > SCHEMA_VERSION:
                raise StoreError(f"{self.path}: written by a newer hall (schema {version}, this one knows "
                                 f"{SCHEMA_VERSION}): not touched")
            if version < SCHEMA_VERSION:
                for statement in _TO_EVENINGS.strip().split(";\n"):
                    self._db.execute(statement, {"now": _now()} if ":now" in statement else {})
                self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            self._db.execute("COMMIT")

    @contextmanager
    def _writing(self, what: str) -> Iterator[None]:
        """A write: an SQLite error (a full disk, a read-only file) rolls back what was begun and becomes
        a StoreError saying what could not be done."""
        try:
            yield
        except BaseException as error:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            if not isinstance(error, sqlite3.Error):
                raise
            message = str(error)
            why = "disk full" if "full" in message else "read-only" if "readonly" in message else message
            raise StoreError(f"{self.path}: {why}: could not {what} (nothing was written)") from None

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def record(self, table: str, payload: dict[str, Any]) -> bool:
        """Keep a finished game in the current evening (GameError when it is malformed, StoreError when it
        cannot be written); False when it was kept already."""
        game, started, kind, players, ended, summary, history = _checked(payload)
        with self._lock, self._writing(f"keep game {game} of table {table!r}"):
            cursor = self._db.execute(
                "INSERT OR IGNORE INTO games (table_name, game, started, kind, players, ended, summary, history, "
                "received, evening) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT max(id) FROM evenings))",
                (table, game, started, kind, json.dumps(players), ended, json.dumps(summary),
                 "".join(f"{line}\n" for line in history), _now()))
        return cursor.rowcount == 1

    def new_evening(self) -> tuple[Evening, Evening]:
        """Close the current evening and open the next: (the one closed, the new one). A ValueError when
        the current evening has no game yet (closing it would only make an empty evening)."""
        with self._lock, self._writing("start a new evening"):
            self._db.execute("BEGIN IMMEDIATE")  # no game comes in between the count and the close
            current = self._current()
            if current.games == 0:
                raise ValueError(f"evening {current.id} (started {current.started}) has no finished game yet: "
                                 "it stays the current evening")
            now = _now()
            self._db.execute("UPDATE evenings SET closed = ? WHERE id = ?", (now, current.id))
            self._db.execute("INSERT INTO evenings (id, started) VALUES (?, ?)", (current.id + 1, now))
            self._db.execute("COMMIT")
            return Evening(current.id, current.started, now, current.games), Evening(current.id + 1, now, None, 0)

    def _current(self) -> Evening:
        (evening,) = self._evenings("WHERE e.id = (SELECT max(id) FROM evenings)")
        return evening

    def _evenings(self, where: str = "", arguments: tuple[Any, ...] = ()) -> list[Evening]:
        rows = self._db.execute(
            "SELECT e.id, e.started, e.closed, (SELECT count(*) FROM games g WHERE g.evening = e.id) "
            f"FROM evenings e {where} ORDER BY e.id", arguments).fetchall()
        return [Evening(*row) for row in rows]

    def current_evening(self) -> Evening:
        with self._lock:
            return self._current()

    def evenings(self) -> list[Evening]:
        """Every evening, the first first; the last is the current one."""
        with self._lock:
            return self._evenings()

    def evening(self, evening_id: int) -> Evening | None:
        with self._lock:
            found = self._evenings("WHERE e.id = ?", (evening_id,))
        return found[0] if found else None

    def games(self, evening: int | None = None) -> list[dict[str, Any]]:
        """The finished games of an evening (default: the current one), in the order they ended: table,
        game id, kind, players, times, summary."""
        with self._lock:
            rows = self._db.execute(
                "SELECT table_name, game, started, kind, players, ended, summary, evening FROM games "
                "WHERE evening = coalesce(?, (SELECT max(id) FROM evenings)) ORDER BY ended, table_name, game",
                (evening,)).fetchall()
        return [{"table": table, "game": game, "started": started, "kind": kind, "players": json.loads(players),
                 "ended": ended, "summary": json.loads(summary), "evening": evening_id}
                for table, game, started, kind, players, ended, summary, evening_id in rows]

    def finished(self, evening: int | None = None) -> list[FinishedGame]:
        return [FinishedGame(g["table"], g["kind"], g["players"], g["summary"]) for g in self.games(evening)]

    def history(self, table: str, game: int, evening: int | None = None) -> str | None:
        """The game's hand history (cardtable-history lines), the latest one of that id (in `evening`, when
        given: a table's journal may begin again and reuse its ids); None if unknown."""
        with self._lock:
            row = self._db.execute("SELECT history FROM games WHERE table_name = ? AND game = ? "
                                   "AND evening = coalesce(?, evening) ORDER BY started DESC LIMIT 1",
                                   (table, game, evening)).fetchone()
        return None if row is None else str(row[0])

