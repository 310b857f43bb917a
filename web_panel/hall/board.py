"""The hall board: every table of the club as the broker last told it, the finished games and the
standings, as versioned snapshots the page's stream follows (the same reader interface as the table's
StateHub, so web_panel.stream serves both).

The subscriber (paho's thread) writes; a version is made at most every `coalesce` seconds, so fifty
tables each changing twice a second make ten small documents a second, not a hundred. Each table's
entry is a few fields of its public document (game, players, dealer, who acts, scores or chips and pot,
winner, hold, camera, fault), whether it is online, its last event, and how many of its events never
arrived (gaps in the journal's sequence numbers).
"""
from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .standings import standings
from .store import HallStore

COALESCE = 0.1  # seconds between versions at most
EVENING_POLL = 1.0  # seconds between looks for a new evening started by `cardtable hall new-evening`


@dataclass(frozen=True)
class BoardSnapshot:
    version: int
    public_json: str


def table_entry(document: dict[str, Any]) -> dict[str, Any]:
    """What the hall shows of a table's public document."""
    table, status = document.get("table") or {}, document.get("status") or {}
    return {"game": table.get("game"), "players": table.get("players"), "dealer": table.get("dealer"),
            "phase": table.get("phase"), "to_act": table.get("to_act"), "scores": table.get("scores"),
            "chips": table.get("chips"), "pot": table.get("pot"), "winner": table.get("winner"),
            "hold": status.get("hold"), "camera": status.get("camera"), "fault": status.get("fault"),
            "version": document.get("version"), "at": document.get("at"),
            "dropped_events": document.get("dropped_events", 0)}


def download(game: dict[str, Any]) -> str:
    """Where a finished game's hand history is: by its evening too, since a table's ids may begin again."""
    return f"/api/games/{game['table']}/{game['game']}?evening={game['evening']}"


@dataclass
class _Table:
    online: bool | None = None  # None: no status heard yet
    entry: dict[str, Any] | None = None
    last_event: dict[str, Any] | None = None
    last_seq: int = 0
    missing: int = 0

    def to_json(self, name: str) -> dict[str, Any]:
        return {"table": name, "online": self.online, **(self.entry or {}), "last_event": self.last_event,
                "missing_events": self.missing}


class HallBoard:
    def __init__(self, club: str, store: HallStore, *, coalesce: float = COALESCE,
                 clock: Callable[[], float] = time.time) -> None:
        self.club, self.store, self._coalesce, self._clock = club, store, coalesce, clock
        self._tables: dict[str, _Table] = {}
        self._lock = threading.Lock()  # the subscriber writes while the board's thread makes a version
        self._evening = store.current_evening()
        self._games = store.games()
        self._standings = standings(store.finished())
        self.fault: str | None = None  # why finished games cannot be kept now (the store's disk full)
        self.refused = 0  # messages on the club's tree that were malformed (logged by the subscriber)
        self._changed = threading.Condition(threading.Lock())
        self._latest = self._make(1)
        self._dirty = threading.Event()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="hall-board", daemon=True)

    # --- the writer (the subscriber) ----------------------------------------------------------------
    def start(self) -> None:
        self._thread.start()

    def set_status(self, table: str, online: bool) -> None:
        with self._lock:
            self._table(table).online = online
        self._dirty.set()

    def set_state(self, table: str, document: dict[str, Any]) -> None:
        entry = table_entry(document)
        with self._lock:
            self._table(table).entry = entry
        self._dirty.set()

    def add_event(self, table: str, event: dict[str, Any]) -> None:
        """A table's event: a sequence number past the next one means events that never came."""
        seq = event["seq"]
        with self._lock:
            entry = self._table(table)
            if entry.last_seq and seq > entry.last_seq + 1:
                entry.missing += seq - entry.last_seq - 1
            entry.last_seq = max(entry.last_seq, seq)
            entry.last_event = {"seq": seq, "type": event.get("type"), "seat": event.get("seat")}
        self._dirty.set()

    def games_changed(self) -> None:
        """A finished game was kept, or a new evening began: the current evening's games and standings."""
        evening, games, ranked = self.store.current_evening(), self.store.games(), standings(self.store.finished())
        with self._lock:
            self._evening, self._games, self._standings = evening, games, ranked
        self._dirty.set()

    def set_fault(self, fault: str | None) -> None:
        with self._lock:
            self.fault = fault
        self._dirty.set()

    def add_refusal(self) -> None:
        with self._lock:
            self.refused += 1
        self._dirty.set()

    def close(self) -> None:
        with self._changed:
            self._closed = True
            self._changed.notify_all()
        self._dirty.set()
        if self._thread.is_alive():
            self._thread.join()

    def _table(self, name: str) -> _Table:
        return self._tables.setdefault(name, _Table())

    def _run(self) -> None:
        next_look = time.monotonic() + EVENING_POLL
        while True:
            self._dirty.wait(EVENING_POLL)
            if time.monotonic() >= next_look:  # busy or quiet, once a second
                next_look = time.monotonic() + EVENING_POLL
                if self.store.current_evening().id != self._evening.id:
                    self.games_changed()  # another process (the organiser's command) began the next evening
            if self._closed:
                return
            if not self._dirty.is_set():
                continue
            self._dirty.clear()
            snapshot = self._make(self._latest.version + 1)
            with self._changed:
                self._latest = snapshot
                self._changed.notify_all()
            time.sleep(self._coalesce)

    def _make(self, version: int) -> BoardSnapshot:
        with self._lock:
            tables = [self._tables[name].to_json(name) for name in sorted(self._tables)]
            games = [{**game, "download": download(game)} for game in self._games]
            document = {"version": version, "at": self._clock(), "club": self.club, "tables": tables,
                        "evening": self._evening.to_json(), "standings": self._standings, "games": games,
                        "refused": self.refused, "fault": self.fault}
        return BoardSnapshot(version, json.dumps(document, separators=(",", ":")))

    # --- readers (the page's streams), as StateHub's ------------------------------------------------
    @property
    def closed(self) -> bool:
        return self._closed

    def snapshot(self) -> BoardSnapshot:
        return self._latest

    def wait_for(self, version_after: int, timeout: float) -> BoardSnapshot | None:
        with self._changed:
            self._changed.wait_for(lambda: self._latest.version > version_after or self._closed, timeout)
            latest = self._latest
        return latest if latest.version > version_after else None

    def changes_since(self, event_id: int) -> list[BoardSnapshot] | None:
        """Nothing to resend when the client has the latest, else None: every version is the whole board."""
        return [] if event_id == self._latest.version else None
