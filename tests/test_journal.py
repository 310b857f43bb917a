"""The journal: what is appended is there on reopening, in order; undone events leave the export; a file
that is not a journal, a corrupt one, a read-only or full disk give a JournalError and change nothing."""
from __future__ import annotations

import hashlib
import json
import sqlite3
import subprocess
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from controller.history import parse_history
from controller.journal import APPLICATION_ID, Journal, JournalError
from controller.replay import replay
from disks import fill, remount, small_tmpfs
from journal_support import console_line, cribbage_driver, journal_game, table_log_header, written

HEADER = table_log_header(cribbage_driver(0)[0])


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def snapshot(journal: Journal) -> list[Any]:
    """Every row of every table, through a second connection: what another reader would see."""
    connection = sqlite3.connect(journal.path)
    try:
        return [connection.execute(f"SELECT * FROM {table}").fetchall()
                for table in ("games", "inputs", "events", "undos")]
    finally:
        connection.close()


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    with Journal.open(tmp_path / "journal.sqlite3") as opened:
        yield opened


def test_a_game_reads_back_as_appended_and_exports_a_history_that_replays_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path, synchronous="NORMAL") as journal:
        game_id, accepted = journal_game(journal, seed=3)
    with Journal.open(path, readonly=True) as journal:
        assert journal.events(game_id) == accepted
        assert journal.inputs(game_id) == [console_line(n * 0.5, e) for n, e in enumerate(accepted)]
        lines = list(journal.history_lines(game_id))
    header, history = parse_history(lines)
    assert json.loads(lines[0]) == {**{k: v for k, v in HEADER.items() if k != "deal"},
                                    "format": "cardtable-history/1", "dealer": header.dealer}
    results = list(replay(header, history))
    assert all(r["ok"] for r in results[:-1]) and len(results) == len(accepted) + 1
    assert results[-1]["winner"] is not None  # the whole game, to its end


def test_undone_events_leave_the_history_but_stay_in_the_journal(journal: Journal) -> None:
    head, driver = cribbage_driver(1)
    game_id = journal.start_game(table_log_header(head))
    first, _ = driver.step()
    journal.append_event(game_id, first, None)
    mistaken = journal.append_event(game_id, {"type": "go", "seat": 1}, None)
    journal.append_undo(game_id, mistaken)
    second, _ = driver.step()
    journal.append_event(game_id, second, None)
    assert journal.events(game_id) == [first, second]
    assert journal.events(game_id, include_undone=True) == [first, {"type": "go", "seat": 1}, second]
    assert [json.loads(line) for line in journal.history_lines(game_id)][1:] == [first, second]
    assert journal.game(game_id).events == 2


def test_games_and_the_current_game(journal: Journal) -> None:
    assert journal.games() == [] and journal.current_game() is None
    first = journal.start_game(HEADER)
    second = journal.start_game({**HEADER, "deal": "open"})
    journal.end_game(second, {"winner": 0})
    assert journal.current_game().id == first  # type: ignore[union-attr]
    records = journal.games()
    assert [(r.id, r.game, r.players, r.ended is None, r.summary) for r in records] == [
        (first, "cribbage", ["P0", "P1"], True, None), (second, "cribbage", ["P0", "P1"], False, {"winner": 0})]
    assert records[1].header["deal"] == "open" and records[0].started <= records[1].started
    journal.end_game(first, {"winner": 1})
    assert journal.current_game() is None


def test_each_append_is_committed_before_it_returns(journal: Journal) -> None:
    game_id = journal.start_game(HEADER)
    with Journal.open(journal.path, readonly=True) as reader:
        for number in range(5):
            seq = journal.append_input(game_id, {"t": number, "type": "button", "action": "go", "seat": 0})
            assert len(reader.inputs(game_id)) == number + 1
            journal.append_event(game_id, {"type": "go", "seat": 0}, seq)
            assert len(reader.events(game_id)) == number + 1


def test_sequences_number_each_game_from_one(journal: Journal) -> None:
    games = [journal.start_game(HEADER) for _ in range(2)]
    for game_id in games * 2:
        journal.append_event(game_id, {"type": "new_hand"}, None)
    rows = sqlite3.connect(journal.path).execute("SELECT seq, game, n FROM events ORDER BY seq").fetchall()
    assert rows == [(1, games[0], 1), (2, games[1], 1), (3, games[0], 2), (4, games[1], 2)]


def test_synchronous_mode_is_set_as_asked(tmp_path: Path) -> None:
    for mode, level in (("FULL", 2), ("NORMAL", 1)):
        with Journal.open(tmp_path / "j.sqlite3", synchronous=mode) as journal:
            assert journal._connection.execute("PRAGMA synchronous").fetchone() == (level,)
            assert journal._connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    with pytest.raises(JournalError, match="synchronous must be one of FULL, NORMAL, got 'OFF'"):
        Journal.open(tmp_path / "j.sqlite3", synchronous="OFF")


def test_the_tables_refuse_deletes_and_updates(journal: Journal) -> None:
    game_id = journal.start_game(HEADER)
    journal.append_event(game_id, {"type": "new_hand"}, journal.append_input(game_id, {"t": 0, "type": "x"}))
    journal.end_game(game_id, {"winner": 0})
    connection = sqlite3.connect(journal.path)
    for statement in ("DELETE FROM events", "DELETE FROM games", "UPDATE inputs SET line = '{}'",
                      "UPDATE games SET summary = '{}'", "UPDATE games SET ended = NULL"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            connection.execute(statement)


@pytest.mark.parametrize("append,message", [
    (lambda j, g: j.start_game({**HEADER, "format": "cardtable-history/1"}), 'bad header: the first object must have "format": "cardtable-table-log/1"'),
    (lambda j, g: j.start_game({**HEADER, "deal": "peek"}), "bad header: deal must be \"closed\" or \"open\", got 'peek'"),
    (lambda j, g: j.start_game({**HEADER, "dealer": 5}), "bad header: dealer must be a seat 0..1, got 5"),
    (lambda j, g: j.start_game({**HEADER, "options": {"tagret": 61}}), "bad header: unknown option"),
    (lambda j, g: j.start_game({**HEADER, "players": ["Ann"]}), "bad header: cribbage is for 2, 3 or 4 players, got 1"),
    (lambda j, g: j.append_input(g, {"type": "placed"}), 'table-log line: "t" must be a number of seconds, got None'),
    (lambda j, g: j.append_input(g, {"t": 1, "type": 3}), 'table-log line: "type" must be a string, got 3'),
    (lambda j, g: j.append_input(g + 1, {"t": 1, "type": "x"}), "no game 2 in the journal"),
    (lambda j, g: j.append_event(g, ["play"], None), "an event must be an object, got list"),
    (lambda j, g: j.append_event(g, {"type": "play", "card": {1, 2}}, None), "the event is not JSON: Object of type set"),
    (lambda j, g: j.append_event(g, {"type": "go", "seat": 0}, 99), "input seq 99 is not an input of game 1"),
    (lambda j, g: j.append_undo(g, 99), "event seq 99 is not an event of game 1"),
    (lambda j, g: j.append_undo(g, 1), "event seq 1 of game 1 is already undone"),
    (lambda j, g: j.end_game(g, [1]), "a summary must be an object, got list"),
    (lambda j, g: j.end_game(g + 1, {}), "no game 2 in the journal"),
])
def test_a_refused_append_names_the_bad_part_and_changes_nothing(
        journal: Journal, append: Callable[[Journal, int], object], message: str) -> None:
    game_id = journal.start_game(HEADER)
    journal.append_undo(game_id, journal.append_event(game_id, {"type": "go", "seat": 0}, None))
    before = snapshot(journal)
    with pytest.raises(JournalError) as refused:
        append(journal, game_id)
    assert message in str(refused.value)
    assert snapshot(journal) == before


def test_nothing_is_appended_to_an_ended_game(journal: Journal) -> None:
    game_id = journal.start_game(HEADER)
    journal.end_game(game_id, {"winner": 1})
    with pytest.raises(JournalError, match="game 1 has ended: nothing more can be appended"):
        journal.append_event(game_id, {"type": "new_hand"}, None)


def test_a_read_only_journal_refuses_appends(journal: Journal) -> None:
    journal.start_game(HEADER)
    with Journal.open(journal.path, readonly=True) as reader:
        with pytest.raises(JournalError, match="opened read-only: cannot start a game"):
            reader.start_game(HEADER)


def test_reading_an_unknown_game_names_it(journal: Journal) -> None:
    with pytest.raises(JournalError, match="no game 7 in the journal"):
        list(journal.history_lines(7))


# ----- files that are not our journal: refused, never written ------------------------------------


def foreign_database(path: Path) -> None:
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
    connection.execute("INSERT INTO photos (name) VALUES ('cat.jpg')")
    connection.commit()
    connection.close()


def marked_database(application_id: int, version: int) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        connection = sqlite3.connect(path)
        connection.execute("CREATE TABLE games (id INTEGER PRIMARY KEY)")
        connection.execute(f"PRAGMA application_id = {application_id}")
        connection.execute(f"PRAGMA user_version = {version}")
        connection.commit()
        connection.close()
    return make


def closed_journal(path: Path) -> None:
    with Journal.open(path, synchronous="NORMAL") as journal:
        journal_game(journal, seed=5, limit=150)  # a few pages: enough to cut or spoil in the middle


def truncated_journal(path: Path) -> None:
    closed_journal(path)
    with open(path, "r+b") as stream:
        stream.truncate(path.stat().st_size // 2)


def spoiled_journal(path: Path) -> None:
    closed_journal(path)
    page = 4096
    with open(path, "r+b") as stream:
        stream.seek(page)  # the first page after the header page: a table's b-tree
        stream.write(b"\xa5" * page)


@pytest.mark.parametrize("make,message", [
    (lambda p: p.write_text("Ann 121, Bo 98\n"), "not a cardtable journal (not a SQLite file)"),
    (lambda p: p.write_bytes(b"SQLite format 3\x00\x10\x00"), "truncated SQLite file (18 bytes)"),
    (foreign_database, "not a cardtable journal (a SQLite database of another program: application_id 0x0, tables: photos)"),
    (marked_database(0x4D504442, 1), "application_id 0x4d504442, tables: games"),
    (marked_database(APPLICATION_ID, 4), "journal of a newer cardtable (schema 4; this one reads up to 3)"),
    (marked_database(APPLICATION_ID, 0), "journal with an unknown schema version 0"),
    (truncated_journal, "corrupt"),
    (spoiled_journal, "corrupt"),
])
@pytest.mark.parametrize("readonly", [False, True])
def test_a_file_that_is_not_a_sound_journal_is_refused_and_left_untouched(
        tmp_path: Path, make: Callable[[Path], None], message: str, readonly: bool) -> None:
    path = tmp_path / "journal.sqlite3"
    make(path)
    before, files = digest(path), sorted(tmp_path.iterdir())
    with pytest.raises(JournalError) as refused:
        Journal.open(path, readonly=readonly)
    assert str(refused.value).startswith(f"{path}: ") and message in str(refused.value)
    assert "left untouched" in str(refused.value)
    assert digest(path) == before and sorted(tmp_path.iterdir()) == files


def test_a_directory_or_a_missing_journal_is_named(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match="is a directory, not a journal"):
        Journal.open(tmp_path)
    with pytest.raises(JournalError, match="no journal there"):
        Journal.open(tmp_path / "none.sqlite3", readonly=True)
    with pytest.raises(JournalError, match="the folder .*missing does not exist"):
        Journal.open(tmp_path / "missing" / "journal.sqlite3")


@pytest.mark.parametrize("make", [lambda p: p.write_bytes(b""), lambda p: sqlite3.connect(p).execute(
    "PRAGMA journal_mode = WAL").fetchall()])
def test_an_empty_file_or_database_left_by_a_crash_while_creating_becomes_a_journal(
        tmp_path: Path, make: Callable[[Path], object]) -> None:
    path = tmp_path / "journal.sqlite3"
    make(path)
    with Journal.open(path) as journal:
        game_id = journal.start_game(HEADER)
    with Journal.open(path, readonly=True) as journal:
        assert [g.id for g in journal.games()] == [game_id]


# ----- read-only and full disks, for real: a small tmpfs mounted for the test ----------------------


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A 160 KiB tmpfs (mounting needs root; elsewhere these tests cannot run)."""
    with small_tmpfs(tmp_path, "160k") as mount:
        yield mount


def test_a_full_disk_refuses_the_append_leaves_the_journal_as_it_was_and_recovers(tiny_disk: Path) -> None:
    journal = Journal.open(tiny_disk / "journal.sqlite3")
    game_id = journal.start_game(HEADER)
    journal.append_event(game_id, {"type": "new_hand"}, None)
    before = snapshot(journal)
    ballast = fill(tiny_disk)
    big = {"type": "console", "t": 1.0, "note": "x" * 20_000}  # more than the WAL's free pages
    with pytest.raises(JournalError, match=f"{tiny_disk}/journal.sqlite3: disk full: could not append an input"):
        for _ in range(20):
            journal.append_input(game_id, big)
    assert snapshot(journal) == before
    ballast.unlink()
    journal.append_input(game_id, big)
    assert journal.inputs(game_id) == [big]
    journal.close()


def test_a_read_only_disk_is_refused_when_opening_for_writing_but_can_be_read(tiny_disk: Path) -> None:
    path = tiny_disk / "journal.sqlite3"
    with Journal.open(path) as journal:
        journal.start_game(HEADER)
    remount(tiny_disk, "ro")
    try:
        with pytest.raises(JournalError, match=f"{path}: read-only: cannot write"):
            Journal.open(path)
        with Journal.open(path, readonly=True) as journal:
            assert [g.game for g in journal.games()] == ["cribbage"]
    finally:
        remount(tiny_disk, "rw")


def test_the_page_limit_of_the_database_refuses_the_append_and_leaves_the_journal_as_it_was(
        journal: Journal) -> None:
    """The same refusal where no small disk can be mounted: SQLite's own size limit (max_page_count)."""
    game_id = journal.start_game(HEADER)
    pages, = journal._connection.execute("PRAGMA page_count").fetchone()
    journal._connection.execute(f"PRAGMA max_page_count = {pages}")
    before = snapshot(journal)
    with pytest.raises(JournalError, match="disk full: could not append an event"):
        journal.append_event(game_id, {"type": "new_hand", "note": "x" * 20_000}, None)
    assert snapshot(journal) == before
    journal.append_event(game_id, {"type": "new_hand"}, None)  # what fits still goes in
    assert journal.events(game_id) == [{"type": "new_hand"}]


@pytest.fixture(params=["file", "folder"])
def immutable(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Path]:
    """A closed journal, it or its folder with the immutable attribute, which even root cannot write."""
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as journal:
        journal.start_game(HEADER)
    target = path if request.param == "file" else tmp_path
    if subprocess.run(["chattr", "+i", str(target)], capture_output=True).returncode != 0:
        pytest.skip("cannot set the immutable attribute here (chattr)")
    try:
        yield path
    finally:
        subprocess.run(["chattr", "-i", str(target)], check=True)


def test_an_immutable_journal_is_refused_for_writing_but_can_be_read(immutable: Path) -> None:
    before, files = digest(immutable), written(immutable.parent)
    with pytest.raises(JournalError, match=f"{immutable}: read-only: cannot write {immutable.parent}"):
        Journal.open(immutable)
    with Journal.open(immutable, readonly=True) as journal:
        assert len(journal.games()) == 1
    assert digest(immutable) == before and written(immutable.parent) == files


def older_journal(path: Path, version: int) -> None:
    """A journal as schema `version` left it: without the tables added since (deck checks in 2, enrolments
    in 3)."""
    with Journal.open(path) as journal:
        journal_game(journal, seed=2, limit=20)
    connection = sqlite3.connect(path)
    for table in ("deck_checks", "enrolments")[version - 1:]:
        for name in (f"{table}_no_delete", f"{table}_no_update"):
            connection.execute(f"DROP TRIGGER {name}")
        connection.execute(f"DROP TABLE {table}")
    connection.execute(f"PRAGMA user_version = {version}")
    connection.commit()
    connection.close()


@pytest.mark.parametrize("kind", ["deck_check", "enrolment"])
def test_verdicts_are_kept_in_order_and_append_only(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal.open(path) as journal:
        append, last = getattr(journal, f"append_{kind}"), getattr(journal, f"last_{kind}")
        assert last() is None
        append({"deck": "52", "missing": ["QS"]})
        append({"deck": "32", "missing": []})
    with Journal.open(path, readonly=True) as journal:
        at, result = getattr(journal, f"last_{kind}")() or ("", {})
        assert result == {"deck": "32", "missing": []} and at.endswith("Z")
    connection = sqlite3.connect(path)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        connection.execute(f"DELETE FROM {kind}s")
    connection.close()


@pytest.mark.parametrize("version", [1, 2])
def test_an_older_journal_is_read_as_it_is_and_upgraded_when_opened_for_writing(tmp_path: Path, version: int) -> None:
    path = tmp_path / "j.sqlite3"
    older_journal(path, version)
    with Journal.open(path, readonly=True) as journal:
        games = journal.games()
        assert journal.last_deck_check() is None and journal.last_enrolment() is None
    with Journal.open(path) as journal:
        assert journal.games() == games  # nothing of the games touched
        journal.append_deck_check({"passed": True, "deck": "52"})
        journal.append_enrolment({"deck": "52", "cards": ["QS"]})
        assert journal.last_deck_check() is not None and journal.last_enrolment() is not None
    connection = sqlite3.connect(path)
    assert connection.execute("PRAGMA user_version").fetchone() == (3,)
    connection.close()
