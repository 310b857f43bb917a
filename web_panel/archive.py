"""The journal as the panel reads it: a read-only connection per request, since a Journal belongs to
the thread that opened it and the panel answers on many (SQLite's WAL lets readers run beside the writer)."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from controller.journal import GameRecord, Journal


class JournalArchive:
    def __init__(self, path: Path) -> None:
        self.path = path

    def games(self) -> list[GameRecord]:
        if not self.path.exists():
            return []  # nothing journaled yet
        with Journal.open(self.path, readonly=True) as journal:
            return journal.games()

    def history_lines(self, game_id: int) -> Iterator[str]:
        with Journal.open(self.path, readonly=True) as journal:
            yield from list(journal.history_lines(game_id))
