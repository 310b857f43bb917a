"""The hall's side of the messages: each topic of the club's tree to the board and the store, malformed
ones refused (counted, nothing kept), repeats of a finished game kept once, gaps in a table's events
counted, and the record kept across a restart of the hall."""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest

from controller.club.connection import BrokerSettings
from web_panel.hall import HallBoard, HallStore, HallSubscriber
from web_panel.hall.subscriber import MessageError
from web_panel.hall.store import GameError

GAME = {"game": 3, "header": {"game": "ferbli", "players": ["Ann", "Bo", "Cy"]}, "started": "2026-12-02T19:00:00Z",
        "ended": "2026-12-02T19:40:00Z", "summary": {"winner": 1, "scores": None}, "events": 2,
        "history": ['{"format":"cardtable-history/1","game":"ferbli"}', '{"type":"deal"}']}


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[HallSubscriber]:
    store = HallStore(tmp_path / "hall.sqlite3")
    board = HallBoard("riverside", store, coalesce=0.0)
    yield HallSubscriber(BrokerSettings("127.0.0.1"), "riverside", board, store)
    board.close()
    store.close()


def send(hall: HallSubscriber, leaf: str, payload: Any, table: str = "t1") -> None:
    body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    hall.take(f"cardtable/riverside/{table}/{leaf}", body)


def board(hall: HallSubscriber) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(hall.board._make(0).public_json)
    return document


def test_each_topic_reaches_the_board(hall: HallSubscriber) -> None:
    send(hall, "status", b"online")
    send(hall, "state", {"version": 7, "at": 1.5, "table": {"game": "femkort", "players": ["Ann", "Bo", "Cy"],
                                                             "chips": [5, 6, 7], "pot": 3, "winner": None},
                         "status": {"hold": {"reason": "unknown card"}, "camera": "online"}})
    for seq in (1, 2, 5):
        send(hall, "events", {"seq": seq, "game": 1, "n": seq, "type": "play", "seat": 0})
    (table,) = board(hall)["tables"]
    assert table["online"] is True and (table["game"], table["chips"], table["pot"]) == ("femkort", [5, 6, 7], 3)
    assert table["hold"] == {"reason": "unknown card"} and table["version"] == 7
    assert table["last_event"] == {"seq": 5, "type": "play", "seat": 0} and table["missing_events"] == 2


def test_a_finished_game_is_kept_once_and_survives_a_restart(hall: HallSubscriber, tmp_path: Path) -> None:
    send(hall, "games/3", GAME)
    send(hall, "games/3", GAME)  # the retained copy, again at the next subscription
    assert [g["game"] for g in board(hall)["games"]] == [3]
    assert board(hall)["standings"][0] == {"player": "Bo", "points": 1, "won": 1, "played": 1}
    hall.store.close()
    reopened = HallStore(tmp_path / "hall.sqlite3")
    assert reopened.history("t1", 3) == "".join(f"{line}\n" for line in GAME["history"])
    assert HallBoard("riverside", reopened).snapshot().public_json.count('"table":"t1"') == 1
    reopened.close()
    hall.store = HallStore(tmp_path / "hall.sqlite3")  # for the fixture's close


@pytest.mark.parametrize("topic, payload, words", [
    ("state", b"{not json", "not JSON"),
    ("state", b"[1, 2]", "not a JSON object"),
    ("status", b"maybe", "online or offline"),
    ("events", {"game": 1, "type": "play"}, "'seq'"),
    ("events", {"seq": True}, "'seq'"),
    ("games/3", {**GAME, "history": []}, "'history'"),
    ("games/3", {**GAME, "header": {"game": "ferbli"}}, "'header'"),
    ("games/4", GAME, "the topic says game 4"),
    ("games/3", {**GAME, "summary": "won"}, "'summary'"),
    ("scores", {"x": 1}, "not a topic of the club's tree"),
])
def test_a_malformed_message_is_refused_and_nothing_is_kept(hall: HallSubscriber, topic: str, payload: Any,
                                                            words: str) -> None:
    with pytest.raises((MessageError, GameError)) as refused:
        send(hall, topic, payload)
    assert words in str(refused.value)
    assert board(hall)["games"] == [] and hall.store.games() == []


def test_a_refused_message_is_counted_on_the_board(hall: HallSubscriber) -> None:
    message = mqtt.MQTTMessage(topic=b"cardtable/riverside/t1/state")
    message.payload = b"\xff"
    hall._on_message(hall._client, None, message)
    hall._on_message(hall._client, None, message)
    assert board(hall)["refused"] == 2


def test_another_clubs_messages_are_not_the_halls(hall: HallSubscriber) -> None:
    with pytest.raises(MessageError):
        hall.take("cardtable/elsewhere/t1/status", b"online")
