"""The journal: an append-only SQLite file holding every game the table judged, durable line by line.

What the table sensed (table-log lines) and what it accepted (hand-history events) are written here
*before* anything is shown: each append commits, and with `synchronous="FULL"` (the default) SQLite
fsyncs the write-ahead log before the commit returns, so a power cut loses no appended line.
`synchronous="NORMAL"` syncs only at checkpoints: several times faster, but the last lines before a
power cut may be lost (never torn: the database stays consistent). A killed process loses nothing in
either mode. The file is opened in WAL mode, so `cardtable history` can read it while the table writes.

Schema (version 3; `PRAGMA application_id` marks the file as a cardtable journal, `user_version` is the
schema version). Every table is append-only — triggers refuse deletes and updates — except that a game's
`ended` and `summary` are written once, when it ends:

    games   (id, header JSON: the table-log header incl. "deal", started, ended, summary JSON)
    inputs  (seq, game, n, line JSON: one table-log line as sensed)
    events  (seq, game, n, input: the inputs.seq it came from or NULL, event JSON: an accepted event)
    undos   (seq, game, event: the events.seq that was undone)
    deck_checks (seq, at, result JSON: a deck check's verdict, vision.deck_check's to_json), since version 2
    enrolments (seq, at, result JSON: a deck enrolled at the console, its test deal), since version 3

An older journal opened for writing is brought to version 3 (the tables it lacks added, in one transaction,
nothing else touched); read-only it is read as it is, with no deck checks or enrolments before their version.

`seq` is one sequence per table across games; `n` counts 1, 2, 3, ... within a game, so a reader can tell
that nothing is missing. Times are UTC, ISO 8601, to the second.

A file that is not ours is refused with `JournalError` and never written to: a non-SQLite file, another
program's database, a truncated or corrupt file, a journal of a newer schema. An empty file or an empty
SQLite database (what a crash while creating the journal leaves) is taken as a new journal.
"""
from __future__ import annotations

import json
import os
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator

from .engine import SetupError
from .games import new_game
from .history import FORMAT as HISTORY_FORMAT
from .table.log import TableLogError, TableLogHeader

APPLICATION_ID = 0x43415244  # "CARD"
SCHEMA_VERSION = 3
SYNCHRONOUS = ("FULL", "NORMAL")
SQLITE_MAGIC = b"SQLite format 3\x00"
STATE_DIRECTORY = Path("/var/lib/cardtable")  # the service's systemd StateDirectory=
JOURNAL_NAME = "journal.sqlite3"



def _verdicts(table: str) -> list[str]:
    """An append-only table of the table's verdicts between games: when, and the verdict as JSON."""
    return [f"""CREATE TABLE {table} (
        seq INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        result TEXT NOT NULL)""",
            *(f"""CREATE TRIGGER {table}_no_{verb} BEFORE {verb.upper()} ON {table}
          BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END""" for verb in ("delete", "update"))]


_SINCE = {"deck_checks": 2, "enrolments": 3}  # the verdicts' tables, and the schema version that added each
_SCHEMA = [
    """CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        header TEXT NOT NULL,
        started TEXT NOT NULL,
        ended TEXT,
        summary TEXT)""",
    """CREATE TABLE inputs (
        seq INTEGER PRIMARY KEY,
        game INTEGER NOT NULL REFERENCES games(id),
        n INTEGER NOT NULL,
        line TEXT NOT NULL,
        UNIQUE (game, n))""",
    """CREATE TABLE events (
        seq INTEGER PRIMARY KEY,
        game INTEGER NOT NULL REFERENCES games(id),
        n INTEGER NOT NULL,
        input INTEGER REFERENCES inputs(seq),
        event TEXT NOT NULL,
        UNIQUE (game, n))""",
    """CREATE TABLE undos (
        seq INTEGER PRIMARY KEY,
        game INTEGER NOT NULL REFERENCES games(id),
        event INTEGER NOT NULL UNIQUE REFERENCES events(seq))""",
    *(f"""CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table}
          BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END"""
      for table in ("games", "inputs", "events", "undos")),
    *(f"""CREATE TRIGGER {table}_no_update BEFORE UPDATE ON {table}
          BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END"""
      for table in ("inputs", "events", "undos")),
    *(statement for table in _SINCE for statement in _verdicts(table)),
    # A game is written twice: when it starts, and once when it ends.
    """CREATE TRIGGER games_end_once BEFORE UPDATE ON games
       WHEN OLD.ended IS NOT NULL OR NEW.id IS NOT OLD.id OR NEW.header IS NOT OLD.header
            OR NEW.started IS NOT OLD.started
       BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END""",
    f"PRAGMA application_id = {APPLICATION_ID}",
    f"PRAGMA user_version = {SCHEMA_VERSION}",
]


class JournalError(Exception):
    """The journal cannot be opened or written, or an append was refused; the message says why.

    A refused or failed append leaves the journal exactly as it was."""


@dataclass(frozen=True)
class GameRecord:
    """One game of the journal: its table-log header, when it started and ended, its final summary."""

    id: int
    header: dict[str, Any]
    started: str
    ended: str | None
    summary: dict[str, Any] | None
    events: int  # accepted events, less those undone

    @property
    def game(self) -> str:
        return str(self.header["game"])

    @property
    def players(self) -> list[str]:
        return list(self.header["players"])


def default_journal_path() -> Path:
    """`$CARDTABLE_STATE_DIR/journal.sqlite3`, else the service's state folder's journal."""
    return Path(os.environ.get("CARDTABLE_STATE_DIR") or STATE_DIRECTORY) / JOURNAL_NAME


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


def _to_json(what: str, value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as error:
        raise JournalError(f"{what} is not JSON: {error}") from None


def _check_header(header: Any) -> None:
    try:
        new_game(TableLogHeader.from_json(header).header)  # what no engine can start, no export replays
    except TableLogError as error:
        raise JournalError(str(error).removeprefix("line 1: ")) from None
    except SetupError as error:
        raise JournalError(f"bad header: {error}") from None


def history_header(header: dict[str, Any]) -> dict[str, Any]:
    """The cardtable-history/1 header of a game: its table-log header less the deal mode."""
    return {"format": HISTORY_FORMAT, **{k: v for k, v in header.items() if k not in ("format", "deal")}}


def _check_line(line: Any) -> None:
    if not isinstance(line, dict):
        raise JournalError(f"a table-log line must be an object, got {type(line).__name__}")
    t = line.get("t")
    if not isinstance(t, (int, float)) or isinstance(t, bool):
        raise JournalError(f'table-log line: "t" must be a number of seconds, got {t!r}')
    if not isinstance(line.get("type"), str):
        raise JournalError(f'table-log line: "type" must be a string, got {line.get("type")!r}')


def _check_event(event: Any) -> None:
    if not isinstance(event, dict):
        raise JournalError(f"an event must be an object, got {type(event).__name__}")
    if not isinstance(event.get("type"), str):
        raise JournalError(f'event: "type" must be a string, got {event.get("type")!r}')


def _inspect(path: Path) -> bool:
    """Check, without writing, that `path` is a cardtable journal; False when it is a new one to create."""
    try:
        with open(path, "rb") as stream:
            start = stream.read(100)
    except IsADirectoryError:
        raise JournalError(f"{path}: is a directory, not a journal") from None
    except FileNotFoundError:
        return False
    except OSError as error:
        raise JournalError(f"{path}: cannot read: {error.strerror}") from None
    if not start:
        return False  # an empty file: nothing in it to keep
    if not start.startswith(SQLITE_MAGIC):
        raise JournalError(f"{path}: not a cardtable journal (not a SQLite file); left untouched")
    if len(start) < 100:
        raise JournalError(f"{path}: truncated SQLite file ({len(start)} bytes); left untouched")
    try:
        connection = _reader(path, brief=True)
        try:
            application_id, = connection.execute("PRAGMA application_id").fetchone()
            version, = connection.execute("PRAGMA user_version").fetchone()
            tables = [name for name, in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")]
            problems = [text for text, in connection.execute("PRAGMA quick_check")]
        finally:
            connection.close()
    except sqlite3.OperationalError as error:
        raise JournalError(f"{path}: cannot read: {error}") from None
    except sqlite3.DatabaseError as error:
        raise JournalError(f"{path}: corrupt or truncated SQLite file ({error}); left untouched") from None
    if problems != ["ok"]:
        raise JournalError(f"{path}: corrupt SQLite file ({problems[0]}); left untouched")
    if application_id == 0 and not tables:
        return False  # an empty database: a journal whose creation did not finish
    if application_id != APPLICATION_ID:
        listed = ", ".join(tables) or "none"
        raise JournalError(f"{path}: not a cardtable journal (a SQLite database of another program: "
                           f"application_id {application_id:#x}, tables: {listed}); left untouched")
    if version > SCHEMA_VERSION:
        raise JournalError(f"{path}: journal of a newer cardtable (schema {version}; this one reads up to "
                           f"{SCHEMA_VERSION}); left untouched")
    if not 1 <= version <= SCHEMA_VERSION:
        raise JournalError(f"{path}: journal with an unknown schema version {version}; left untouched")
    return True


def _check_writable(path: Path, exists: bool) -> None:
    # The WAL and its index live beside the file: the folder must take new files too.
    folder = path.parent
    if not folder.is_dir():
        raise JournalError(f"{path}: the folder {folder} does not exist")
    for target in ([path] if exists else []) + [folder]:
        if not os.access(target, os.W_OK):
            raise JournalError(f"{path}: read-only: cannot write {target}")


class Journal:
    """An open journal. `Journal.open(path)` creates or opens one; use it as a context manager or `close()`.

    Not for sharing between threads: open one per thread (readers with `readonly=True`)."""

    def __init__(self, path: Path, connection: sqlite3.Connection, readonly: bool) -> None:
        self.path, self._connection, self.readonly = path, connection, readonly

    @classmethod
    def open(cls, path: str | Path, *, synchronous: str = "FULL", readonly: bool = False) -> Journal:
        """Open the journal at `path`, creating it unless `readonly`. Raises JournalError, writing nothing,
        when the file is not a cardtable journal, is corrupt, or cannot be written."""
        path = Path(path)
        if synchronous not in SYNCHRONOUS:
            raise JournalError(f"synchronous must be one of {', '.join(SYNCHRONOUS)}, got {synchronous!r}")
        exists = _inspect(path)
        if readonly:
            if not exists:
                raise JournalError(f"{path}: no journal there")
            try:
                return cls(path, _reader(path, brief=False), readonly=True)
            except sqlite3.Error as error:
                raise JournalError(f"{path}: cannot read: {error}") from None
        _check_writable(path, path.exists())
        try:
            connection = sqlite3.connect(path, isolation_level=None)
            connection.execute("PRAGMA journal_mode = WAL")
            connection.execute(f"PRAGMA synchronous = {synchronous}")
            connection.execute("PRAGMA foreign_keys = ON")
        except sqlite3.Error as error:
            raise JournalError(f"{path}: cannot open: {error}") from None
        journal = cls(path, connection, readonly=False)
        if not exists:
            journal._create()
        else:
            journal._upgrade()
        return journal

    def _create(self) -> None:
        with self._write("create the journal") as connection:
            if connection.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0:
                for statement in _SCHEMA:
                    connection.execute(statement)

    def _upgrade(self) -> None:
        """An older journal gets the tables of the versions since (in one transaction: all of it or nothing)."""
        version = self._version()
        if version == SCHEMA_VERSION:
            return
        with self._write(f"upgrade the journal to schema {SCHEMA_VERSION}") as connection:
            for table, since in _SINCE.items():
                for statement in _verdicts(table) if since > version else []:
                    connection.execute(statement)
            connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def _version(self) -> int:
        return int(self._connection.execute("PRAGMA user_version").fetchone()[0])

    def close(self) -> None:
        self._connection.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ----- appends: each one commits before it returns, or changes nothing ----------------------

    def start_game(self, header: dict[str, Any]) -> int:
        """A new game with its table-log header (`format`, `game`, `players`, `dealer`, `options`, `chips`,
        `deal`); returns its id."""
        _check_header(header)
        text = _to_json("the header", header)
        with self._write("start a game") as connection:
            cursor = connection.execute("INSERT INTO games (header, started) VALUES (?, ?)", (text, _now()))
            return int(cursor.lastrowid or 0)

    def append_input(self, game_id: int, line: dict[str, Any]) -> int:
        """One table-log line as sensed; returns its seq."""
        _check_line(line)
        text = _to_json("the table-log line", line)
        with self._write("append an input") as connection:
            self._check_playing(game_id)
            return self._insert(connection, "inputs", game_id, ("line",), (text,))

    def append_event(self, game_id: int, event: dict[str, Any], input_seq: int | None) -> int:
        """An event the engine accepted, and the input it came from (None: not from a table-log line)."""
        _check_event(event)
        text = _to_json("the event", event)
        with self._write("append an event") as connection:
            self._check_playing(game_id)
            if input_seq is not None:
                row = connection.execute("SELECT game FROM inputs WHERE seq = ?", (input_seq,)).fetchone()
                if row is None or row[0] != game_id:
                    raise JournalError(f"input seq {input_seq} is not an input of game {game_id}")
            return self._insert(connection, "events", game_id, ("input", "event"), (input_seq, text))

    def append_undo(self, game_id: int, event_seq: int) -> int:
        """The accepted event `event_seq` was undone; returns the undo's seq."""
        with self._write("append an undo") as connection:
            self._check_playing(game_id)
            row = connection.execute("SELECT game FROM events WHERE seq = ?", (event_seq,)).fetchone()
            if row is None or row[0] != game_id:
                raise JournalError(f"event seq {event_seq} is not an event of game {game_id}")
            if connection.execute("SELECT 1 FROM undos WHERE event = ?", (event_seq,)).fetchone():
                raise JournalError(f"event seq {event_seq} of game {game_id} is already undone")
            cursor = connection.execute("INSERT INTO undos (game, event) VALUES (?, ?)", (game_id, event_seq))
            return int(cursor.lastrowid or 0)

    def end_game(self, game_id: int, summary: dict[str, Any]) -> None:
        """The game is over: its final summary (the engine's `summary()`, as `cardtable replay` ends with)."""
        if not isinstance(summary, dict):
            raise JournalError(f"a summary must be an object, got {type(summary).__name__}")
        text = _to_json("the summary", summary)
        with self._write("end a game") as connection:
            self._check_playing(game_id)
            connection.execute("UPDATE games SET ended = ?, summary = ? WHERE id = ?", (_now(), text, game_id))

    def append_deck_check(self, result: dict[str, Any]) -> int:
        """A deck check's verdict (`DeckCheck.to_json()`); returns its seq."""
        return self._append_verdict("deck_checks", "the deck check", result)

    def append_enrolment(self, result: dict[str, Any]) -> int:
        """A deck enrolled at the console: its cards and test deal; returns its seq."""
        return self._append_verdict("enrolments", "the enrolment", result)

    def _append_verdict(self, table: str, what: str, result: dict[str, Any]) -> int:
        text = _to_json(what, result)
        with self._write(f"record {what}") as connection:
            cursor = connection.execute(f"INSERT INTO {table} (at, result) VALUES (?, ?)", (_now(), text))
            return int(cursor.lastrowid or 0)

    # ----- reading ------------------------------------------------------------------------------

    def last_deck_check(self) -> tuple[str, dict[str, Any]] | None:
        """The latest deck check: (when, its verdict); None when none was run (or a version 1 journal)."""
        return self._last_verdict("deck_checks")

    def last_enrolment(self) -> tuple[str, dict[str, Any]] | None:
        """The latest enrolment at the console: (when, its verdict); None when none (or a journal before 3)."""
        return self._last_verdict("enrolments")

    def _last_verdict(self, table: str) -> tuple[str, dict[str, Any]] | None:
        if self._version() < _SINCE[table]:
            return None
        rows = self._read(f"SELECT at, result FROM {table} ORDER BY seq DESC LIMIT 1")
        return (rows[0][0], json.loads(rows[0][1])) if rows else None

    def games(self) -> list[GameRecord]:
        return [self._record(row) for row in self._read(f"{_GAME_QUERY} ORDER BY g.id")]

    def game(self, game_id: int) -> GameRecord:
        rows = self._read(f"{_GAME_QUERY} WHERE g.id = ?", (game_id,))
        if not rows:
            raise JournalError(f"{self.path}: no game {game_id} in the journal")
        return self._record(rows[0])

    def current_game(self) -> GameRecord | None:
        """The last game that has not ended, if any: the one a restarted table takes up again."""
        rows = self._read(f"{_GAME_QUERY} WHERE g.ended IS NULL ORDER BY g.id DESC LIMIT 1")
        return self._record(rows[0]) if rows else None

    def inputs(self, game_id: int) -> list[dict[str, Any]]:
        self.game(game_id)
        return [json.loads(text) for text, in self._read("SELECT line FROM inputs WHERE game = ? ORDER BY n",
                                                         (game_id,))]

    def events(self, game_id: int, include_undone: bool = False) -> list[dict[str, Any]]:
        """The game's accepted events in order, less those undone unless `include_undone`."""
        return [event for event, _ in self.event_rows(game_id, include_undone)]

    def event_rows(self, game_id: int, include_undone: bool = False) -> list[tuple[dict[str, Any], int]]:
        """The game's accepted events with their seq (what `append_undo` takes), in order."""
        self.game(game_id)
        undone = "" if include_undone else "AND seq NOT IN (SELECT event FROM undos)"
        rows = self._read(f"SELECT event, seq FROM events WHERE game = ? {undone} ORDER BY n", (game_id,))
        return [(json.loads(text), seq) for text, seq in rows]

    def events_after(self, seq: int) -> list[tuple[int, int, int, dict[str, Any]]]:
        """Every accepted event after `seq` across games, undone ones too, oldest first: (seq, game, n, event)
        (the club publisher's feed)."""
        rows = self._read("SELECT seq, game, n, event FROM events WHERE seq > ? ORDER BY seq", (seq,))
        return [(s, game, n, json.loads(text)) for s, game, n, text in rows]

    def history_lines(self, game_id: int) -> Iterator[str]:
        """The game as a cardtable-history/1 file, line by line (no newlines): header, then the accepted
        events less those undone."""
        header = history_header(self.game(game_id).header)
        yield json.dumps(header, ensure_ascii=False)
        for event in self.events(game_id):
            yield json.dumps(event, ensure_ascii=False)

    # ----- plumbing -----------------------------------------------------------------------------

    def _record(self, row: tuple[Any, ...]) -> GameRecord:
        game_id, header, started, ended, summary, events = row
        return GameRecord(game_id, json.loads(header), started, ended,
                          None if summary is None else json.loads(summary), events)

    def _read(self, query: str, parameters: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        try:
            return self._connection.execute(query, parameters).fetchall()
        except sqlite3.Error as error:
            raise JournalError(f"{self.path}: cannot read: {error}") from None

    def _check_playing(self, game_id: int) -> None:
        row = self._connection.execute("SELECT ended FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"no game {game_id} in the journal")
        if row[0] is not None:
            raise JournalError(f"game {game_id} has ended: nothing more can be appended to it")

    def _insert(self, connection: sqlite3.Connection, table: str, game_id: int,
                columns: tuple[str, ...], values: tuple[Any, ...]) -> int:
        names = ", ".join(columns)
        marks = ", ".join("?" for _ in columns)
        cursor = connection.execute(
            f"INSERT INTO {table} (game, n, {names}) "
            f"SELECT ?, coalesce(max(n), 0) + 1, {marks} FROM {table} WHERE game = ?",
            (game_id, *values, game_id))
        return int(cursor.lastrowid or 0)

    @contextmanager
    def _write(self, what: str) -> Iterator[sqlite3.Connection]:
        """One append: BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any error (an SQLite one becomes a
        JournalError saying what could not be done)."""
        if self.readonly:
            raise JournalError(f"{self.path}: opened read-only: cannot {what}")
        connection = self._connection
        try:
            connection.execute("BEGIN IMMEDIATE")
            yield connection
            connection.execute("COMMIT")
        except BaseException as error:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            if isinstance(error, sqlite3.Error):
                raise self._error(error, what) from None
            raise

    def _error(self, error: sqlite3.Error, what: str) -> JournalError:
        message = str(error)
        if "full" in message:
            return JournalError(f"{self.path}: disk full: could not {what} (nothing was written)")
        if "readonly" in message or "read-only" in message:
            return JournalError(f"{self.path}: read-only: could not {what} (nothing was written)")
        return JournalError(f"{self.path}: could not {what}: {message} (nothing was written)")


# A game row with the count of its accepted events less those undone.
_GAME_QUERY = """SELECT g.id, g.header, g.started, g.ended, g.summary,
    (SELECT count(*) FROM events e WHERE e.game = g.id AND e.seq NOT IN (SELECT event FROM undos))
    FROM games g"""


def _reader(path: Path, *, brief: bool) -> sqlite3.Connection:
    """A connection that cannot write the file. Without a WAL beside it the file holds everything: a brief
    look (checking a file before opening it), or any read where SQLite could not create its WAL index
    (read-only media, another user's folder), reads it as immutable, creating nothing beside it."""
    uri = path.resolve().as_uri()
    immutable = not Path(f"{path}-wal").exists() and (brief or not os.access(path.parent, os.W_OK))
    return sqlite3.connect(f"{uri}?{'immutable=1' if immutable else 'mode=ro'}", uri=True)
