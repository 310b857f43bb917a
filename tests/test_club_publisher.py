"""The table's club publisher against a real Mosquitto: what goes out (retained state, events with the
journal's sequence numbers, the finished game, online/offline), the outbox while the broker is away
(the table plays on; everything goes out in order once it is back; the bound drops the oldest events,
counted), and the broker's ACL refusing a table that writes under another table's name."""
from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import replace
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.club.outbox import OUTBOX_NAME, Outbox
from controller.club.publisher import ClubPublisher
from controller.journal import JOURNAL_NAME, Journal
from controller.service.config import ClubConfig
from controller.table.log import read_table_log
from disks import fill, small_tmpfs
from test_service_loop import LOGS, feed, running, wait_until as service_wait
from controller.club.topics import table_topic
from club_broker import Broker, Spy, make_certificates, password, wait_until
from club_tables import CLUB, ClubTable, game_log


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    broker = Broker(tmp_path / "broker", ["t1", "t2"])
    broker.start()
    yield broker
    broker.stop()


@pytest.fixture
def spy(broker: Broker) -> Iterator[Spy]:
    spy = Spy(broker)
    yield spy
    spy.close()


def topic(table: str, leaf: str) -> str:
    return table_topic(CLUB, table, leaf)


def status(spy: Spy, table: str) -> list[bytes]:
    return [m.payload for m in list(spy.messages) if m.topic == topic(table, "status")]


def journal_events(table: ClubTable) -> list[dict[str, object]]:
    return [{"seq": seq, "game": game, "n": n, "type": event["type"]}
            for seq, game, n, event in table.journal.events_after(0)]


def test_a_game_goes_out_whole_state_events_result_and_status(tmp_path: Path, broker: Broker, spy: Spy) -> None:
    lines = game_log(1)
    table = ClubTable(tmp_path / "t1", "t1", lines[0], broker)
    table.publisher.start()
    wait_until(lambda: status(spy, "t1") == [b"online"], what="online")
    table.play(lines[1:])
    wait_until(lambda: spy.on(topic("t1", "games/1")), what="the finished game")
    wait_until(lambda: table.publisher.waiting == 0, what="the outbox drained")
    events = [{k: e[k] for k in ("seq", "game", "n", "type")} for e in spy.on(topic("t1", "events"))]
    assert events == journal_events(table), "every accepted event, in order, numbered as in the journal"
    (finished,) = spy.on(topic("t1", "games/1"))
    (expected,) = table.finished()
    assert finished["summary"] == expected["summary"] and finished["history"] == expected["history"]
    latest = spy.on(topic("t1", "state"))[-1]
    assert latest["version"] == table.hub.snapshot().version and latest["dropped_events"] == 0
    assert latest["table"] == json.loads(table.hub.snapshot().public_json)["table"]
    table.publisher.stop()
    wait_until(lambda: status(spy, "t1") == [b"online", b"offline"], what="offline at a clean stop")
    table.close()


CHILD = """
import sys, time
from pathlib import Path
from controller.club.publisher import ClubPublisher
from controller.journal import JOURNAL_NAME, Journal
from controller.service.config import ClubConfig
from controller.service.hub import StateHub
config = ClubConfig(host="127.0.0.1", port=int(sys.argv[1]), username="t1", password=sys.argv[2], club=sys.argv[3],
                    table="t1")
publisher = ClubPublisher(config, StateHub(), Path(sys.argv[4]))
publisher.start()
while not publisher.connected:
    time.sleep(0.02)
print("connected", flush=True)
time.sleep(60)
"""


def test_last_will_says_offline_when_the_table_dies(tmp_path: Path, broker: Broker, spy: Spy) -> None:
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(broker.port), password("t1"), CLUB, str(tmp_path)],
                             stdout=subprocess.PIPE)
    try:
        assert child.stdout is not None and child.stdout.readline() == b"connected\n"
        wait_until(lambda: status(spy, "t1") == [b"online"], what="online")
        child.kill()  # no DISCONNECT: the broker notices the dropped connection and sends the will
        wait_until(lambda: status(spy, "t1") == [b"online", b"offline"], what="the last will")
    finally:
        child.kill()
        child.wait()


def test_broker_away_the_table_plays_on_and_catches_up_in_order(tmp_path: Path, broker: Broker, spy: Spy) -> None:
    broker.stop()
    lines = game_log(0)
    table = ClubTable(tmp_path / "t1", "t1", lines[0], broker)
    table.publisher.start()
    table.play(lines[1:])  # every input judged and journaled with no broker at all
    assert table.table.session.games[0].events, "the game was played"
    wait_until(lambda: table.publisher.waiting > 0, what="the outbox holds the evening")
    broker.start()  # the spy's session, kept over the restart, hears what the table sends now
    wait_until(lambda: table.publisher.waiting == 0, timeout=20, what="the outbox drained")
    wait_until(lambda: spy.on(topic("t1", "games/1")), what="the finished game")
    events = [{k: e[k] for k in ("seq", "game", "n", "type")} for e in spy.on(topic("t1", "events"))]
    assert events == journal_events(table), "in order, none lost"
    assert spy.on(topic("t1", "games/1"))[0]["history"] == table.finished()[0]["history"]
    table.publisher.stop()
    table.close()


def put_up_to(folder: Path) -> int:
    outbox = Outbox(folder / OUTBOX_NAME, 1)
    try:
        return outbox.mark("event_seq")
    finally:
        outbox.close()


def test_the_outbox_bound_drops_the_oldest_events_and_says_how_many(tmp_path: Path, broker: Broker, spy: Spy) -> None:
    broker.stop()
    lines = game_log(1)
    table = ClubTable(tmp_path / "t1", "t1", lines[0], broker, outbox_limit=20)
    table.publisher.start()
    table.play(lines[1:])
    total = len(table.journal.events_after(0))
    wait_until(lambda: put_up_to(tmp_path / "t1") == total, what="every event put")
    broker.start()  # the spy's session, kept over the restart, hears what the table sends now
    wait_until(lambda: spy.on(topic("t1", "games/1")) and table.publisher.waiting == 0, timeout=20,
               what=lambda: f"drained: {table.publisher.waiting} waiting, {[m.topic for m in spy.messages]}, "
                            f"{broker.log()[-1500:]}")
    seqs = [e["seq"] for e in spy.on(topic("t1", "events"))]
    assert seqs == list(range(total - 19, total + 1)), "the newest 20 events, in order; the older ones dropped"
    assert spy.on(topic("t1", "state"))[-1]["dropped_events"] == total - 20
    assert spy.on(topic("t1", "games/1")), "a finished game is never dropped"
    table.publisher.stop()
    table.close()


def test_the_acl_refuses_a_table_writing_under_another_tables_name(tmp_path: Path, broker: Broker, spy: Spy) -> None:
    lines = game_log(2)
    impostor = ClubTable(tmp_path / "t1", "t2", lines[0], broker, user="t1")  # user t1 claims table t2
    impostor.publisher.start()
    impostor.play(lines[1:])
    wait_until(lambda: impostor.publisher.refused > 0 and impostor.publisher.waiting == 0, what="refusals")
    assert not [m for m in spy.messages if m.topic.startswith(topic("t2", ""))], "nothing reached t2's topics"
    impostor.publisher.stop()
    impostor.close()


def test_over_tls_a_table_trusts_the_clubs_ca_and_nothing_else(tmp_path: Path) -> None:
    broker = Broker(tmp_path / "broker", ["t1"], tls=True)
    broker.start()
    try:
        lines = game_log(2)
        table = ClubTable(tmp_path / "t1", "t1", lines[0], broker, port=broker.tls_port)
        table.config = replace(table.config, tls_ca=broker.ca)
        table.publisher = table.new_publisher()
        table.publisher.start()
        spy = Spy(broker)
        table.play(lines[1:])
        wait_until(lambda: spy.on(topic("t1", "games/1")), what="the finished game, over TLS")
        table.publisher.stop()
        table.close()
        spy.close()
        (tmp_path / "other").mkdir()
        make_certificates(tmp_path / "other")  # a CA that did not sign the broker's certificate
        stranger = ClubTable(tmp_path / "t2", "t1", lines[0], broker, port=broker.tls_port)
        stranger.config = replace(stranger.config, tls_ca=tmp_path / "other" / "ca.crt")
        stranger.publisher = stranger.new_publisher()
        stranger.publisher.start()
        stranger.play(lines[1:])
        time.sleep(1.5)
        assert not stranger.publisher.connected and stranger.publisher.waiting > 0, "it never trusts that broker"
        stranger.publisher.stop()
        stranger.close()
    finally:
        broker.stop()


def fill_outbox(outbox: Outbox) -> None:
    """The outbox's file may grow no further (SQLite's page limit: SQLITE_FULL, a full disk's own error,
    where no small disk can be mounted), and a ballast table takes the room left in it."""
    outbox._db.execute("CREATE TABLE ballast (b BLOB)")
    (pages,) = outbox._db.execute("PRAGMA page_count").fetchone()
    outbox._db.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(sqlite3.OperationalError, match="full"):
        while True:
            outbox._db.execute("INSERT INTO ballast VALUES (zeroblob(64))")


def test_a_put_the_full_disk_refuses_leaves_the_outbox_and_its_marks_as_they_were(tmp_path: Path) -> None:
    outbox = Outbox(tmp_path / OUTBOX_NAME, 100)
    outbox.put([("t/events", b"1", False), ("t/state", b"s1", True)], {"event_seq": 1})
    before = (outbox.waiting(), outbox.mark("event_seq"))
    fill_outbox(outbox)
    with pytest.raises(sqlite3.OperationalError, match="database or disk is full"):  # not a failed ROLLBACK's
        outbox.put([("t/events", b"2" * 9000, False), ("t/state", b"s2" * 5000, True)], {"event_seq": 2})
    assert (outbox.waiting(), outbox.mark("event_seq")) == before, "nothing half put, no mark moved"
    outbox._db.execute("PRAGMA max_page_count = 1073741823")  # room again: the same put goes in whole
    outbox.put([("t/events", b"2" * 9000, False), ("t/state", b"s2" * 5000, True)], {"event_seq": 2})
    assert [(m.topic, len(m.payload)) for m in outbox.waiting()] == [("t/events", 1), ("t/events", 9000),
                                                                     ("t/state", 10000)]
    assert outbox.mark("event_seq") == 2
    outbox.close()


def test_a_full_state_disk_shows_on_the_tables_status_loses_nothing_and_the_hall_catches_up(
        tmp_path: Path, broker: Broker, spy: Spy) -> None:
    """The table service and its publisher on a small real disk (a tmpfs: needs root) that fills up: the
    status says the journal and the club's outbox cannot be written, and once there is room every event
    goes out, in order, none missing."""
    with small_tmpfs(tmp_path, "16m") as disk, running(tmp_path, state=disk / "state") as service:
        _, lines = read_table_log(LOGS / "cribbage-closed.jsonl")
        config = ClubConfig(host="127.0.0.1", port=broker.port, username="t1", password=password("t1"), club=CLUB,
                            table="t1")
        publisher = ClubPublisher(config, service.hub, disk / "state", on_fault=service.club_fault)
        publisher.start()
        try:
            feed(service, lines[:40])
            ballast = fill(disk)
            feed(service, lines[40:60])
            assert service_wait(lambda: service.hub.snapshot().status.club is not None), "the club fault shown"
            club = service.hub.snapshot().status.club
            assert club is not None and "the club's outbox cannot be written" in club and "full" in club
            assert service.hub.snapshot().public_document()["status"]["club"] == club
            ballast.unlink()
            assert service_wait(lambda: service.hub.snapshot().status.club is None), "the club fault cleared"
            feed(service, lines[60:])
            with Journal.open(disk / "state" / JOURNAL_NAME, readonly=True) as journal:
                journaled = [seq for seq, *_ in journal.events_after(0)]
            sent = lambda: [e["seq"] for e in spy.on(topic("t1", "events"))]  # noqa: E731
            wait_until(lambda: sent()[-1:] == journaled[-1:], timeout=20, what="every event sent")
            assert sent() == journaled, "in order, none lost"
        finally:
            publisher.stop()
