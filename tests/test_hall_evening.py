"""A club evening on a real Mosquitto: 20 simulated tables playing at once (cribbage, Femkort, Färbeln;
open deals, so the deal reader names cards that stay hidden), each publishing from its own hub and
journal; the broker restarts mid-evening and one table goes offline mid-game and comes back. The hall
(served by waitress) must then hold every table's finished game exactly as the table's journal does, its
standings from those results; and no message on the broker ever named a card hidden when it was sent.

Hidden is judged as tests/test_panel_leaks.py judges it (a card read in the deal reader's slot stays
hidden until it lies face up); each message is checked against the cards hidden at its moment: a state
at the version it carries, an event at the input that made it. A finished game's record is sent only
once that game has ended, when its hand history is public (the panel's download rule), so it is checked
to come after the game's last event instead.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest

from club_broker import Broker, Spy, wait_until
from club_tables import CLUB, ClubTable, game_log, named
from controller.cards import Card
from controller.club.topics import parse_topic
from controller.table.inputs import READER
from hall_support import RunningHall
from table_logs import Line
from test_panel_leaks import HiddenCards, cards_named
from web_panel.hall.standings import FinishedGame, standings

TABLES = 20
PLAYERS = ["Ann", "Bo", "Cy", "Di", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo"]
OFFLINE_TABLE = "table-07"
T = TypeVar("T")


class WatchedTable(ClubTable):
    """A club table that also keeps, per hub version and per journal event, the cards hidden then."""

    def __init__(self, folder: Path, name: str, lines: list[Line], broker: Broker) -> None:
        super().__init__(folder, name, lines[0], broker)
        self.lines, self.truth = lines[1:], HiddenCards()
        self.hidden_at_version = {self.hub.snapshot().version: frozenset[Card]()}
        self.hidden_at_event: dict[int, frozenset[Card]] = {}
        self._last_seq = 0

    def play_lines(self, start: int, end: int) -> None:
        for number in range(start, end):
            self.truth.see(self.lines[number])
            for following in self.lines[number + 1:]:  # cards being laid down at this moment count as laid
                if following.get("type") not in ("placed", "face_down") or following.get("zone") == READER:
                    break
                self.truth.see(following)
            self.feed(self.lines[number])

    def feed(self, line: Line) -> None:
        super().feed(line)
        hidden = frozenset(self.truth.hidden)
        self.hidden_at_version[self.hub.snapshot().version] = hidden
        for seq, *_ in self.journal.events_after(self._last_seq):
            self.hidden_at_event[seq] = hidden
            self._last_seq = seq


class Tables:
    """The evening's tables, each on a thread of its own, as each is its own Pi (a journal belongs to the
    thread that opened it): `all(action)` runs `action(table)` on every table's thread at once."""

    def __init__(self, folder: Path, broker: Broker) -> None:
        names = [f"table-{i:02d}" for i in range(1, TABLES + 1)]
        self.threads = {name: ThreadPoolExecutor(1, thread_name_prefix=name) for name in names}
        self.tables = self.all_of(lambda name, seed: WatchedTable(
            folder / name, name, named(game_log(seed, "open"), PLAYERS[seed % 5:]), broker), names)

    def all_of(self, make: Callable[[str, int], T], names: list[str]) -> list[T]:
        futures = [self.threads[name].submit(make, name, seed) for seed, name in enumerate(names)]
        return [future.result() for future in futures]

    def all(self, action: Callable[[WatchedTable], T]) -> list[T]:
        futures = [self.threads[table.name].submit(action, table) for table in self.tables]
        return [future.result() for future in futures]

    def close(self) -> None:
        self.all(lambda table: (table.publisher.stop(), table.close()))
        for thread in self.threads.values():
            thread.shutdown()


@pytest.fixture
def evening(tmp_path: Path) -> Iterator[tuple[Broker, Spy, RunningHall, Tables]]:
    broker = Broker(tmp_path / "broker", [f"table-{i:02d}" for i in range(1, TABLES + 1)])
    broker.start()
    spy = Spy(broker)
    hall = RunningHall(tmp_path / "hall", broker, CLUB)
    tables = Tables(tmp_path, broker)
    yield broker, spy, hall, tables
    tables.close()
    hall.close()
    spy.close()
    broker.stop()


def test_the_hall_holds_every_game_as_the_journals_do_through_a_broker_restart(
        evening: tuple[Broker, Spy, RunningHall, Tables]) -> None:
    broker, spy, hall, evening_tables = evening
    tables = evening_tables.tables
    for table in tables:
        table.publisher.start()
    wait_until(lambda: all(t.publisher.connected for t in tables), what="every table online")
    wait_until(lambda: hall.subscriber.subscribed, what="the hall subscribed")
    offline = next(t for t in tables if t.name == OFFLINE_TABLE)

    evening_tables.all(lambda t: t.play_lines(0, len(t.lines) // 2))
    offline.publisher.stop()  # the table's network goes: it plays on into its outbox
    broker.stop()  # and the broker restarts mid-evening
    broker.start()
    evening_tables.all(lambda t: (t.play_lines(len(t.lines) // 2, len(t.lines)), t.next()))  # NEXT: games end
    wait_until(lambda: any(t["table"] == OFFLINE_TABLE and t["online"] is False
                           for t in hall.board_document()["tables"]), what="the hall shows the table offline")
    offline.publisher = offline.new_publisher()  # it comes back
    offline.publisher.start()
    wait_until(lambda: len(hall.board_document()["games"]) == TABLES, timeout=30,
               what=lambda: f"every finished game on the board ({len(hall.board_document()['games'])} of {TABLES})")

    document = hall.board_document()
    journals = evening_tables.all(lambda t: t.finished())
    for table, (expected,) in zip(tables, journals):
        history = hall.get(f"/api/games/{table.name}/{expected['game']}").decode().splitlines()
        assert history == expected["history"], f"{table.name}'s hand history as its journal holds it"
        (kept,) = [g for g in document["games"] if g["table"] == table.name]
        assert kept["summary"] == expected["summary"], f"{table.name}'s result as its journal holds it"
    assert document["standings"] == standings(
        FinishedGame(t.name, t.header["game"], t.header["players"], finished[0]["summary"])
        for t, finished in zip(tables, journals))
    wait_until(lambda: all(t["online"] for t in hall.board_document()["tables"]), what="every table online again")
    assert_nothing_hidden_was_sent(spy, tables)


def assert_nothing_hidden_was_sent(spy: Spy, tables: list[WatchedTable]) -> None:
    by_name = {t.name: t for t in tables}
    last_event_seen: dict[str, int] = {}
    checked = hidden_moments = 0
    for message in list(spy.messages):
        topic = parse_topic(message.topic)
        assert topic is not None and topic.club == CLUB, f"a message outside the club's tree: {message.topic}"
        table = by_name[topic.table]
        if topic.leaf == "status":
            assert message.payload in (b"online", b"offline")
            continue
        document: dict[str, Any] = json.loads(message.payload)
        if topic.leaf == "games":
            last = max(table.hidden_at_event)
            assert last_event_seen.get(table.name) == last, "a game's record comes after its last event"
            continue
        if topic.leaf == "state":
            hidden = table.hidden_at_version[document["version"]]
        else:
            hidden = table.hidden_at_event[document["seq"]]
            last_event_seen[table.name] = max(last_event_seen.get(table.name, 0), document["seq"])
        leaked = cards_named(message.payload.decode()) & hidden
        assert not leaked, f"{message.topic} named hidden {sorted(map(str, leaked))}: {document}"
        checked += 1
        hidden_moments += bool(hidden)
    assert checked > 1000 and hidden_moments > 100, "the scan saw the evening, hidden cards in play"
