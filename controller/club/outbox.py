"""The table's outbox: what waits for the broker, on disk (SQLite in the state directory), in order.

A broker that is down or slow never holds the table up: the publisher puts each message here and sends
from here, deleting a message only once the broker acknowledged it (QoS 1), so a restart of the table or
of the broker loses nothing that was put. Retained messages (the state, a finished game) are kept by
topic: a newer one replaces the one waiting, since the broker would keep only the latest anyway; events
are kept each, up to `limit`. Beyond the limit the *oldest events* go (their count is kept in `dropped`
and published with the state; the hall sees the gap in the sequence numbers). The state and the finished
games are never dropped: there is one state, and a table finishes a few games an evening.

The publisher's marks (the last journal event and game put) are written in the same transaction as the
messages they made, so after a crash nothing is put twice nor skipped, and a put the disk has no room
for (SQLITE_FULL) leaves the outbox and its marks as they were: the publisher puts the same news again
once there is room, from the journal, which keeps everything.
"""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

OUTBOX_NAME = "club-outbox.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    topic TEXT NOT NULL,
    payload BLOB NOT NULL,
    retain INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS messages_topic ON messages (topic);
CREATE TABLE IF NOT EXISTS marks (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
"""


@dataclass(frozen=True)
class Message:
    id: int
    topic: str
    payload: bytes
    retain: bool


class Outbox:
    """A handle on the outbox file, for one thread at a time (the publisher opens it, its thread uses it)."""

    def __init__(self, path: Path, limit: int) -> None:
        if limit < 1:
            raise ValueError(f"an outbox keeps at least 1 event, not {limit}")
        self.path, self.limit = path, limit
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")  # a power cut may lose the last puts, never tear them
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        self._db.close()

    def mark(self, name: str, default: int = 0) -> int:
        row = self._db.execute("SELECT value FROM marks WHERE name = ?", (name,)).fetchone()
        return default if row is None else int(row[0])

    def put(self, messages: list[tuple[str, bytes, bool]], marks: dict[str, int] | None = None) -> int:
        """Put (topic, payload, retain) messages and set `marks`, all at once; the events dropped to stay
        within the limit (0 mostly)."""
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            for topic, payload, retain in messages:
                if retain:
                    db.execute("DELETE FROM messages WHERE topic = ? AND retain = 1", (topic,))
                db.execute("INSERT INTO messages (topic, payload, retain) VALUES (?, ?, ?)",
                           (topic, payload, int(retain)))
            dropped = self._trim()
            marks = dict(marks or {})
            if dropped:
                marks["dropped"] = self.mark("dropped") + dropped
            for name, value in marks.items():
                db.execute("INSERT INTO marks (name, value) VALUES (?, ?) "
                           "ON CONFLICT (name) DO UPDATE SET value = excluded.value", (name, value))
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:  # SQLite may have rolled back already (a full disk), and says so
                db.execute("ROLLBACK")
            raise
        return dropped

    def _trim(self) -> int:
        (events,) = self._db.execute("SELECT count(*) FROM messages WHERE retain = 0").fetchone()
        excess = events - self.limit
        if excess <= 0:
            return 0
        self._db.execute("DELETE FROM messages WHERE id IN "
                         "(SELECT id FROM messages WHERE retain = 0 ORDER BY id LIMIT ?)", (excess,))
        return int(excess)

    def waiting(self, after: int = 0, limit: int = 100) -> list[Message]:
        """The oldest messages after id `after`, in the order they were put."""
        rows = self._db.execute("SELECT id, topic, payload, retain FROM messages WHERE id > ? ORDER BY id LIMIT ?",
                                (after, limit)).fetchall()
        return [Message(row[0], row[1], bytes(row[2]), bool(row[3])) for row in rows]

    def count(self) -> int:
        (count,) = self._db.execute("SELECT count(*) FROM messages").fetchone()
        return int(count)

    def remove(self, ids: list[int]) -> None:
        """Messages the broker acknowledged (or refused for good)."""
        if ids:
            self._db.executemany("DELETE FROM messages WHERE id = ?", [(i,) for i in ids])
