"""The journaled table: inputs and accepted events journaled first; a journal reopened after a crash
(SIGKILL anywhere) replays to exactly where the table stood, holds included, and plays on to the same end."""
from __future__ import annotations

import json
import os
import random
import signal
import time

import pytest

from controller.journal import Journal, JournalError
from controller.simulation import cribbage as cribbage_sim
from controller.table.journaled import JournaledTable
from controller.table.log import LineError, TableLogHeader, parse_table_log
from controller.table.session import TableSession

from table_logs import cribbage_log, play_log, with_incidents


@pytest.fixture(scope="module")
def game() -> tuple[TableLogHeader, list[dict]]:
    lines, _ = cribbage_log(cribbage_sim.header(2), "closed", 21)
    lines = with_incidents(lines, random.Random(21), 20)
    return TableLogHeader.from_json(lines[0]), lines[1:]


def fed(header: TableLogHeader, lines: list[dict]) -> TableSession:
    """A session (no journal) fed the same lines."""
    return play_log([header.to_json(), *lines])[0]


def test_every_input_and_accepted_event_is_journaled_and_undo_too(game, tmp_path):
    header, lines = game
    with Journal.open(tmp_path / "j.sqlite3", synchronous="NORMAL") as journal:
        table = JournaledTable.start(journal, header)
        for line in lines:
            table.feed(line)
        assert journal.inputs(table.game_id) == lines
        assert journal.events(table.game_id) == table.session.history == fed(header, lines).history
        undos = sum(1 for line in lines if line.get("action") == "undo")
        assert len(journal.events(table.game_id, include_undone=True)) == len(table.session.history) + undos


def test_a_malformed_line_is_refused_before_anything_is_journaled(game, tmp_path):
    header, _ = game
    with Journal.open(tmp_path / "j.sqlite3", synchronous="NORMAL") as journal:
        table = JournaledTable.start(journal, header)
        with pytest.raises(LineError, match="unknown zone"):
            table.feed({"t": 1, "type": "placed", "card": "QS", "zone": "seat-2-play"})
        assert journal.inputs(table.game_id) == []


def held_at(header: TableLogHeader, lines: list[dict], reason: str) -> int:
    """The number of lines after which the table first holds for `reason`."""
    session = TableSession(header.header, header.deal)
    _, parsed = parse_table_log(json.dumps(line) for line in [header.to_json(), *lines])
    for count, line in enumerate(parsed, start=1):
        hold = session.feed(line.input).hold
        if hold is not None and hold.reason == reason:
            return count
    raise AssertionError(f"no {reason} hold in the game")


@pytest.mark.parametrize("where", ["unknown", "refused", "camera", 150])
def test_a_reopened_journal_stands_where_the_table_was_holds_included(game, tmp_path, where):
    header, lines = game
    stop = where if isinstance(where, int) else held_at(header, lines, where)
    path = tmp_path / "j.sqlite3"
    with Journal.open(path, synchronous="NORMAL") as journal:
        table = JournaledTable.start(journal, header)
        for line in lines[:stop]:
            table.feed(line)
    with Journal.open(path) as journal:
        resumed = JournaledTable.resume(journal)
        assert resumed is not None and resumed.game_id == table.game_id
        assert resumed.session.hold == table.session.hold and (resumed.session.hold is not None) == (where != 150)
        assert resumed.session.history == table.session.history
        assert resumed.session.table == table.session.table
        for line in lines[stop:]:
            resumed.feed(line)
        assert resumed.session.engine.summary() == fed(header, lines).engine.summary()


def test_events_a_crash_left_out_are_journaled_on_reopening(game, tmp_path):
    header, lines = game
    path = tmp_path / "j.sqlite3"
    with Journal.open(path, synchronous="NORMAL") as journal:
        table = JournaledTable.start(journal, header)
        for line in lines[:30]:
            table.feed(line)
        journal.append_input(table.game_id, lines[30])  # killed before its events were appended
    with Journal.open(path) as journal:
        resumed = JournaledTable.resume(journal)
        assert resumed is not None
        assert journal.events(resumed.game_id) == fed(header, lines[:31]).history


def test_a_journal_its_inputs_do_not_explain_is_refused(game, tmp_path):
    header, lines = game
    path = tmp_path / "j.sqlite3"
    with Journal.open(path, synchronous="NORMAL") as journal:
        table = JournaledTable.start(journal, header)
        for line in lines[:10]:
            table.feed(line)
        journal.append_event(table.game_id, {"type": "go", "seat": 1}, None)
    with Journal.open(path) as journal, pytest.raises(JournalError, match="which its inputs do not make"):
        JournaledTable.resume(journal)


def _play(path: str, header: TableLogHeader, lines: list[dict]) -> None:
    """A table process: take up the journal's game (or start it) and feed the lines not yet journaled."""
    with Journal.open(path, synchronous="NORMAL") as journal:
        table = JournaledTable.resume(journal) or JournaledTable.start(journal, header)
        for line in lines[len(journal.inputs(table.game_id)):]:
            table.feed(line)


def test_killed_at_random_points_the_table_loses_nothing_and_ends_the_same(game, tmp_path):
    header, lines = game
    path = str(tmp_path / "j.sqlite3")
    rng = random.Random(5)
    interrupted = 0
    for _ in range(200):  # until 8 kills landed mid-game (a kill may come before the game starts)
        if interrupted == 8:
            break
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child is killed
            try:
                _play(path, header, lines)
            finally:
                os._exit(0)
        time.sleep(rng.uniform(0.002, 0.03))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        with Journal.open(path) as journal:
            table = JournaledTable.resume(journal)  # what the next table process does first
            if table is None:  # killed before the game was started
                continue
            kept = len(journal.inputs(table.game_id))
            # no accepted event lost: the journal holds exactly what its inputs make
            assert journal.events(table.game_id) == table.session.history == fed(header, lines[:kept]).history
        if kept == len(lines):
            break
        interrupted += 1
    assert interrupted == 8
    _play(path, header, lines)
    with Journal.open(path) as journal:
        table = JournaledTable.resume(journal)
        assert table is not None
        uninterrupted = fed(header, lines)
        assert journal.events(table.game_id) == uninterrupted.history
        assert table.session.engine.summary() == uninterrupted.engine.summary()
