"""The hall's store on a full disk, on a real Mosquitto: SQLite's page limit (`PRAGMA max_page_count`)
makes its writes fail with SQLITE_FULL, "database or disk is full", a full disk's own error, portable
where no small disk can be mounted. A finished game that cannot be kept is not acknowledged (the broker's
log shows no PUBACK for it), the board says why and stays live, and once there is room the game is kept
and acknowledged, without the table sending it again."""
from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from club_broker import Broker, wait_until
from club_tables import CLUB, ClubTable, game_log, named
from hall_support import RunningHall
from table_logs import Line
from web_panel.hall import HallStore

HALL_CLIENT = f"cardtable-hall-{CLUB}"


def fill(store: HallStore) -> None:
    """The store's file may grow no further, and its free room is taken by a ballast table."""
    with store._lock:
        store._db.execute("CREATE TABLE ballast (b BLOB)")
        (pages,) = store._db.execute("PRAGMA page_count").fetchone()
        store._db.execute(f"PRAGMA max_page_count = {pages}")
        try:
            while True:
                store._db.execute("INSERT INTO ballast VALUES (zeroblob(64))")
        except sqlite3.OperationalError as error:
            assert "full" in str(error)


def make_room(store: HallStore) -> None:
    with store._lock:
        store._db.execute("PRAGMA max_page_count = 1073741823")


def play_into_the_full_store(hall: RunningHall, table: ClubTable, lines: list[Line]) -> None:
    """The table plays `lines` to a hall whose store has no room left, until the board says so."""
    fill(hall.store)
    table.publisher.start()
    table.play(lines)
    wait_until(lambda: hall.board_document()["fault"] is not None, what="the board saying the store is full")


def delivered_mid(broker: Broker, topic: str) -> int:
    """The message id under which the broker sent `topic` to the hall (the last time)."""
    sent = re.findall(rf"Sending PUBLISH to {HALL_CLIENT} \(d\d, q1, r\d, m(\d+), '{re.escape(topic)}'", broker.log())
    assert sent, f"the broker never sent {topic} to the hall"
    return int(sent[-1])


def acknowledged(broker: Broker, mid: int) -> bool:
    return re.search(rf"Received PUBACK from {HALL_CLIENT} \(Mid: {mid}\b", broker.log()) is not None


def test_a_game_the_full_store_cannot_keep_waits_unacknowledged_and_is_kept_once_there_is_room(
        tmp_path: Path) -> None:
    broker = Broker(tmp_path / "broker", ["t-a"], log_all=True)
    broker.start()
    hall = RunningHall(tmp_path / "hall", broker, CLUB)
    lines = named(game_log(0), ["Ann", "Bo", "Cy"])  # a cribbage game: its history spans pages
    table = ClubTable(tmp_path / "t-a", "t-a", lines[0], broker)
    try:
        play_into_the_full_store(hall, table, lines[1:])
        assert len("".join(table.finished()[0]["history"])) > 4096  # more than the room left in any page
        fault = hall.board_document()["fault"]
        assert "disk full: could not keep game 1 of table 't-a'" in fault and "nothing is lost" in fault
        assert hall.store.games() == []
        mid = delivered_mid(broker, f"cardtable/{CLUB}/t-a/games/1")
        wait_until(lambda: acknowledged(broker, mid - 1) or mid == 1, what="the messages before it acknowledged")
        assert not acknowledged(broker, mid), "a game not kept was acknowledged"

        table.feed({"t": 9999.0, "type": "button", "action": "next", "seat": None})  # the board stays live
        version = table.hub.snapshot().version
        wait_until(lambda: any(t["version"] == version for t in hall.board_document()["tables"]),
                   what="the table's newest state on the board")
        assert not acknowledged(broker, mid)

        make_room(hall.store)  # room again: kept from the hall's hold, the table sends nothing again
        wait_until(lambda: hall.board_document()["fault"] is None, what="the fault cleared")
        assert [(g["table"], g["game"]) for g in hall.store.games()] == [("t-a", 1)]
        assert hall.store.history("t-a", 1) == "".join(f"{line}\n" for line in table.finished()[0]["history"])
        wait_until(lambda: acknowledged(broker, mid), what="the game acknowledged once kept")
        assert delivered_mid(broker, f"cardtable/{CLUB}/t-a/games/1") == mid
    finally:
        table.publisher.stop()
        table.close()
        hall.close()
        broker.stop()


def test_a_hall_stopped_while_full_finds_the_game_on_the_broker_at_its_next_start(tmp_path: Path) -> None:
    broker = Broker(tmp_path / "broker", ["t-a"])
    broker.start()
    hall = RunningHall(tmp_path / "hall", broker, CLUB)
    lines = named(game_log(0), ["Ann", "Bo", "Cy"])  # a cribbage game: its history spans pages
    table = ClubTable(tmp_path / "t-a", "t-a", lines[0], broker)
    try:
        play_into_the_full_store(hall, table, lines[1:])
        table.publisher.stop()  # the table is gone too: only the broker has the game
        hall.close()
        hall = RunningHall(tmp_path / "hall", broker, CLUB)
        wait_until(lambda: len(hall.store.games()) == 1, what="the game kept at the hall's next start")
        assert hall.board_document()["fault"] is None
    finally:
        table.close()
        hall.close()
        broker.stop()
