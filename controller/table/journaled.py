"""A table session whose journal is written before anything shows: each input line is appended before
it is fed, each accepted event (and each undo) before the step is returned.

Opening a journal that holds a game in progress replays its inputs through a fresh session and checks
that they make the journaled events again, so the table stands exactly where it was, holds included.
What a crash left out between an input and its events (or its undo) is appended then. A game of the
match ends in the journal when NEXT starts the next one (until then UNDO may still take back the win).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..engine import Event
from ..journal import Journal, JournalError
from .log import TableLogHeader, input_from_json
from .session import Step, TableSession, game_summary


@dataclass
class _Journaled:
    """A game's journaled events while its inputs are replayed: each regenerated event must be the next."""

    rows: list[tuple[Event, int]]  # (event, seq), undone ones too, in order
    undone: set[int] = field(default_factory=set)


class JournaledTable:
    def __init__(self, journal: Journal, header: TableLogHeader, game_id: int) -> None:
        self.journal, self.deal, self.game_id = journal, header.deal, game_id
        self.session = TableSession(header.header, header.deal)
        self._kept: list[int] = []  # the seqs of the current game's accepted events still standing
        self._games = 1  # the session's games the journal knows

    @classmethod
    def start(cls, journal: Journal, header: TableLogHeader) -> JournaledTable:
        return cls(journal, header, journal.start_game(header.to_json()))

    @classmethod
    def resume(cls, journal: Journal) -> JournaledTable | None:
        """The game in progress, standing where the journal left it; None when every game has ended
        (also when a crash came between one game's end and the next one's start: start it again)."""
        record = journal.current_game()
        if record is None:
            return None
        table = cls(journal, TableLogHeader.from_json(record.header), record.id)
        rows = journal.event_rows(record.id, include_undone=True)
        standing = {seq for _, seq in journal.event_rows(record.id)}
        journaled = _Journaled(rows, {seq for _, seq in rows} - standing)
        players = len(table.session.setup.players)
        for line in journal.inputs(record.id):
            table._journal(table.session.feed(input_from_json(line, players)[1]), None, journaled)
        if journaled.rows:
            raise JournalError(f"game {record.id}: the journal holds {journaled.rows[0][0]}, which its inputs "
                               "do not make")
        return table

    def feed(self, line: dict[str, Any]) -> Step:
        """Journal the line, feed it, journal what it made. A malformed line raises LineError, unjournaled."""
        _, item = input_from_json(line, len(self.session.setup.players))
        input_seq = self.journal.append_input(self.game_id, line)
        return self._journal(self.session.feed(item), input_seq, None)

    def _journal(self, step: Step, input_seq: int | None, journaled: _Journaled | None) -> Step:
        if len(self.session.games) > self._games:
            self._next_game()
            return step
        accepted = step.accepted
        if not accepted and len(self.session.history) < len(self._kept):  # UNDO took one back
            undone = self._kept.pop()
            if journaled is None or undone not in journaled.undone:
                self.journal.append_undo(self.game_id, undone)
        for event in accepted:
            self._kept.append(self._event(event, input_seq, journaled))
        return step

    def _event(self, event: Event, input_seq: int | None, journaled: _Journaled | None) -> int:
        if journaled is None or not journaled.rows:
            return self.journal.append_event(self.game_id, event, input_seq)
        expected, seq = journaled.rows.pop(0)
        if expected != event:
            raise JournalError(f"game {self.game_id}: its inputs make {event} where the journal holds {expected}")
        return seq

    def _next_game(self) -> None:
        """NEXT after the win: the game ends in the journal, the next one starts there (and here, alone)."""
        finished, current = self.session.games[-2:]
        self.journal.end_game(self.game_id, game_summary(finished))
        self.game_id = self.journal.start_game(TableLogHeader(current.setup, self.deal).to_json())
        self._games += 1
        self._kept = []
