"""The hall's evenings: a database of the hall before evenings is migrated keeping every game; on a real
Mosquitto, `cardtable hall new-evening` (run while the hall serves) closes tonight's evening, the board
begins the next one empty, the closed one stays readable (its standings, games and hand histories), games
arriving afterwards go to the new evening, and a retained game of last week delivered again stays in
last week's."""
from __future__ import annotations

import json
import sqlite3
import threading
import urllib.error
from collections.abc import Iterator
from pathlib import Path

import pytest

from club_broker import HALL_PASSWORD, Broker, wait_until
from club_tables import CLUB, ClubTable, game_log, named
from controller.cli import main
from hall_support import RunningHall
from web_panel.hall.store import HallStore, StoreError

# The hall's schema before evenings, as an older hall wrote it.
OLD_SCHEMA = """
CREATE TABLE games (table_name TEXT NOT NULL, game INTEGER NOT NULL, started TEXT NOT NULL, kind TEXT NOT NULL,
    players TEXT NOT NULL, ended TEXT NOT NULL, summary TEXT NOT NULL, history TEXT NOT NULL,
    received TEXT NOT NULL, PRIMARY KEY (table_name, game, started));
"""
OLD_ROWS = [("t1", 1, "2026-11-25T19:00:00Z", "ferbli", '["Ann", "Bo", "Cy"]', "2026-11-25T19:40:00Z",
             '{"winner": 1}', '{"format":"cardtable-history/1"}\n', "2026-11-25T19:40:02Z"),
            ("t2", 4, "2026-11-25T19:05:00Z", "cribbage", '["Di", "Bo"]', "2026-11-25T20:10:00Z",
             '{"winner": 1, "match_points": 2}', '{"format":"cardtable-history/1"}\n{"type":"deal"}\n',
             "2026-11-25T20:10:01Z")]


def old_database(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.executescript(OLD_SCHEMA)
        db.executemany("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", OLD_ROWS)
    db.close()


def test_a_database_from_before_evenings_becomes_evening_one_with_every_game(tmp_path: Path) -> None:
    path = tmp_path / "hall.sqlite3"
    old_database(path)
    for _ in range(2):  # opening again changes nothing
        store = HallStore(path)
        (evening,) = store.evenings()
        assert (evening.id, evening.started, evening.closed, evening.games) == (1, "2026-11-25T19:40:02Z", None, 2)
        assert [(g["table"], g["game"], g["evening"]) for g in store.games()] == [("t1", 1, 1), ("t2", 4, 1)]
        assert store.history("t2", 4) == OLD_ROWS[1][7]
        store.close()
    with sqlite3.connect(path) as db:
        kept = db.execute("SELECT table_name, game, started, kind, players, ended, summary, history, received "
                          "FROM games ORDER BY table_name").fetchall()
        assert kept == OLD_ROWS and db.execute("PRAGMA user_version").fetchone() == (1,)
    db.close()


def test_a_database_of_a_newer_hall_is_refused_untouched(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hall.sqlite3"
    HallStore(path).close()
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version = 7")
    db.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="written by a newer hall \\(schema 7"):
        HallStore(path)
    (tmp_path / "hall.toml").write_text('club = "riverside"\n[broker]\npassword = "x"\n')
    assert main(["hall", "--config", str(tmp_path / "hall.toml")]) == 1  # the hall does not start on it
    assert f"cardtable hall: refused: {path}: written by a newer hall" in capsys.readouterr().err
    assert path.read_bytes() == before


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    broker = Broker(tmp_path / "broker", ["t-a", "t-b"])
    broker.start()
    yield broker
    broker.stop()


def hall_config(tmp_path: Path, broker: Broker) -> Path:
    """The hall.toml of the RunningHall in tmp_path/hall (its database), for the organiser's commands."""
    (tmp_path / "hall" / "secret").write_text(HALL_PASSWORD + "\n")
    path = tmp_path / "hall" / "hall.toml"
    path.write_text(f'club = "{CLUB}"\ndatabase = "hall.sqlite3"\n[broker]\nhost = "127.0.0.1"\n'
                    f'port = {broker.port}\npassword_file = "secret"\n')
    return path


def keep_busy(hall: RunningHall, stop: threading.Event) -> None:
    """What the subscriber does with each state message a busy table sends."""
    version = 0
    while not stop.wait(0.02):
        version += 1
        hall.board.set_state("t-busy", {"version": version, "table": {"game": "femkort"}, "status": {}})


def test_a_new_evening_closes_tonights_and_the_next_games_are_the_new_evenings(
        tmp_path: Path, broker: Broker, capsys: pytest.CaptureFixture[str]) -> None:
    hall = RunningHall(tmp_path / "hall", broker, CLUB)
    config = hall_config(tmp_path, broker)
    first = ClubTable(tmp_path / "t-a", "t-a", named(game_log(2), ["Ann", "Bo", "Cy"])[0], broker)
    lines = named(game_log(2), ["Ann", "Bo", "Cy"])
    try:
        assert main(["hall", "new-evening", "--config", str(config)]) == 2  # nothing played yet: nothing to close
        refused = capsys.readouterr().err
        assert "evening 1 (started" in refused and "has no finished game yet" in refused
        first.publisher.start()
        first.play(lines[1:])
        wait_until(lambda: len(hall.board_document()["games"]) == 1, what="tonight's game on the board")
        tonight = hall.board_document()
        assert tonight["evening"]["id"] == 1 and tonight["standings"]

        busy = threading.Event()  # a busy evening: the board takes a table's state every 20 ms meanwhile
        feeder = threading.Thread(target=keep_busy, args=(hall, busy))
        feeder.start()
        try:
            assert main(["hall", "--config", str(config), "new-evening"]) == 0  # while the hall serves
            said = capsys.readouterr().out
            assert "closed evening 1" in said and "1 game;" in said and "evening 2 begins" in said
            wait_until(lambda: hall.board_document()["evening"]["id"] == 2, what="the board on evening 2")
        finally:
            busy.set()
            feeder.join()
        board = hall.board_document()
        assert board["games"] == [] and board["standings"] == [] and board["evening"]["closed"] is None

        evenings = json.loads(hall.get("/api/evenings"))
        assert [(e["id"], e["games"], e["closed"] is None) for e in evenings] == [(1, 1, False), (2, 0, True)]
        past = json.loads(hall.get("/api/evenings/1"))
        assert past["standings"] == tonight["standings"]
        assert [(g["table"], g["game"]) for g in past["games"]] == [("t-a", 1)]
        assert hall.get(past["games"][0]["download"]).decode().splitlines() == first.finished()[0]["history"]

        second = ClubTable(tmp_path / "t-b", "t-b", named(game_log(5), ["Di", "Eve", "Fay"])[0], broker)
        second.publisher.start()
        second.play(named(game_log(5), ["Di", "Eve", "Fay"])[1:])
        wait_until(lambda: len(hall.board_document()["games"]) == 1, what="the new evening's game")
        assert [g["table"] for g in hall.board_document()["games"]] == ["t-b"]
        assert {row["player"] for row in hall.board_document()["standings"]} == {"Di", "Eve", "Fay"}
        second.publisher.stop()
        second.close()
    finally:
        first.publisher.stop()
        first.close()
        hall.close()

    again = RunningHall(tmp_path / "hall", broker, CLUB)  # t-a's retained game of evening 1 comes again
    try:
        wait_until(lambda: again.subscriber.subscribed, what="the hall subscribed again")
        wait_until(lambda: any(t["table"] == "t-a" for t in again.board_document()["tables"]),
                   what="t-a's retained messages")
        assert [g["table"] for g in again.board_document()["games"]] == ["t-b"]
        assert [e.games for e in again.store.evenings()] == [1, 1]
        with pytest.raises(urllib.error.HTTPError) as unknown:
            again.get("/api/evenings/9")
        assert unknown.value.code == 404 and "no evening 9" in unknown.value.read().decode()
        with pytest.raises(urllib.error.HTTPError) as bad:
            again.get("/api/games/t-a/1?evening=last")
        assert bad.value.code == 400 and "'evening' must be an evening's number, not 'last'" in bad.value.read().decode()
        with pytest.raises(urllib.error.HTTPError) as elsewhere:
            again.get("/api/games/t-a/1?evening=2")  # t-a's game is evening 1's
        assert elsewhere.value.code == 404 and "of evening 2" in elsewhere.value.read().decode()
    finally:
        again.close()


def test_the_organisers_commands_refuse_a_hall_that_has_no_database(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "hall.toml").write_text('club = "riverside"\n[broker]\npassword = "x"\n')
    assert main(["hall", "new-evening", "--config", str(tmp_path / "hall.toml")]) == 2
    assert f"no hall database at {tmp_path / 'hall.sqlite3'}" in capsys.readouterr().err
    assert not (tmp_path / "hall.sqlite3").exists()
