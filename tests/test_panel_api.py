"""The JSON API and the stream through Flask's test client, over a real hub and a real journal file."""
from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from controller.journal import Journal
from controller.service.hub import StateHub, TableStatus
from journal_support import journal_game
from panel_support import RecordingConsole, sse_messages
from web_panel import create_app
from web_panel.archive import JournalArchive
from web_panel.settings import PanelSettings

PUBLIC = {"game": "cribbage", "players": ["Ann", "Bo"], "scores": [5, 9], "series": ["5H"]}
DEALER = {**PUBLIC, "hands": [["KS", "QS"], ["2C", "3C"]], "crib": ["AD"]}
HOLD = {"reason": "unread card", "seat": 1, "zone": "seat-2", "possible": ["7D", "8D"]}


@pytest.fixture
def hub() -> StateHub:
    return StateHub(history=4)


@pytest.fixture
def journal_path(tmp_path: Path) -> Path:
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as journal:
        journal_game(journal, seed=1, end=True)
        journal_game(journal, seed=2, limit=30)  # still being played
    return path


def client_for(hub: StateHub, journal_path: Path | None = None, keepalive: float = 15.0):  # type: ignore[no-untyped-def]
    archive = None if journal_path is None else JournalArchive(journal_path)
    app = create_app(hub, RecordingConsole(), archive=archive, settings=PanelSettings(keepalive=keepalive))
    return app.test_client()


def test_state_is_the_public_document_only(hub: StateHub) -> None:
    hub.publish(PUBLIC, DEALER, TableStatus(camera="online", hold=HOLD, notice="7D read at seat 2"))
    reply = client_for(hub).get("/api/state")
    assert reply.status_code == 200 and reply.headers["Cache-Control"] == "no-store"
    document = reply.get_json()
    assert document["version"] == 1 and document["table"] == PUBLIC
    assert document["status"]["hold"] == {"reason": "unread card", "seat": 1, "zone": "seat-2"}
    for hidden in ("KS", "2C", "AD", "7D", "8D", "notice", "possible"):
        assert hidden not in reply.get_data(as_text=True)


def test_history_lists_games_and_downloads_only_finished_ones(hub: StateHub, journal_path: Path) -> None:
    client = client_for(hub, journal_path)
    games = client.get("/api/history").get_json()["games"]
    assert [(g["id"], g["game"], g["download"]) for g in games] == [(1, "cribbage", "/api/history/1"),
                                                                    (2, "cribbage", None)]
    assert games[0]["result"]["scores"] and games[1]["result"] is None
    reply = client.get("/api/history/1")
    assert reply.status_code == 200 and reply.mimetype == "application/x-ndjson"
    assert 'filename="game-1.jsonl"' in reply.headers["Content-Disposition"]
    with Journal.open(journal_path, readonly=True) as journal:
        assert reply.get_data(as_text=True).splitlines() == list(journal.history_lines(1))
    playing = client.get("/api/history/2")
    assert playing.status_code == 409 and "still being played" in playing.get_json()["error"]
    missing = client.get("/api/history/9")
    assert missing.status_code == 404 and missing.get_json() == {"error": "no game 9 in the journal"}
    assert client.get("/api/history/abc").status_code == 404


def test_history_without_a_journal_yet(hub: StateHub, tmp_path: Path) -> None:
    client = client_for(hub, tmp_path / "none.sqlite3")
    assert client.get("/api/history").get_json() == {"games": []}
    assert client.get("/api/history/1").status_code == 404


def test_unknown_route_and_wrong_method_are_json_errors(hub: StateHub) -> None:
    client = client_for(hub)
    assert client.get("/api/nothing").status_code == 404
    reply = client.post("/api/state")
    assert reply.status_code == 405 and "error" in reply.get_json()


def _stream(hub: StateHub, headers: dict[str, str] | None = None, keepalive: float = 15.0):  # type: ignore[no-untyped-def]
    reply = client_for(hub, keepalive=keepalive).get("/api/events", headers=headers or {})
    assert reply.status_code == 200 and reply.mimetype == "text/event-stream"
    return reply, sse_messages(iter(reply.response))


def test_stream_sends_the_latest_then_each_publish(hub: StateHub) -> None:
    hub.publish(PUBLIC, DEALER, TableStatus())
    reply, messages = _stream(hub)
    assert next(messages) == {"retry": "2000"}
    first = next(messages)
    assert first["id"] == "1" and json.loads(first["data"])["table"] == PUBLIC
    publisher = threading.Timer(0.05, hub.publish, ({**PUBLIC, "scores": [7, 9]}, DEALER, TableStatus()))
    publisher.start()
    second = next(messages)
    assert second["id"] == "2" and json.loads(second["data"])["table"]["scores"] == [7, 9]
    assert "KS" not in second["data"]
    hub.close()
    assert list(messages) == []  # the stream ends when the service stops
    reply.close()


def test_stream_resumes_from_last_event_id(hub: StateHub) -> None:
    for score in range(3):
        hub.publish({**PUBLIC, "scores": [score, 0]}, DEALER, TableStatus())
    reply, messages = _stream(hub, {"Last-Event-ID": "1"})
    next(messages)
    assert [next(messages)["id"] for _ in range(2)] == ["2", "3"]
    reply.close()


def test_stream_from_a_forgotten_id_sends_the_latest_whole(hub: StateHub) -> None:
    for score in range(8):  # the hub keeps 4
        hub.publish({**PUBLIC, "scores": [score, 0]}, DEALER, TableStatus())
    for stale in ("1", "99", "not-a-number"):
        reply, messages = _stream(hub, {"Last-Event-ID": stale})
        next(messages)
        assert next(messages)["id"] == "8"
        reply.close()


def test_idle_stream_sends_keepalives(hub: StateHub) -> None:
    reply, messages = _stream(hub, keepalive=0.02)
    next(messages), next(messages)
    assert next(messages) == {"comment": "keep-alive"}
    reply.close()


def test_page_and_its_files_are_served(hub: StateHub) -> None:
    client = client_for(hub)
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.content_type
    text = page.get_data(as_text=True)
    for static in ("/static/panel.css", "/static/render.js", "/static/spectator.js"):
        assert static in text and client.get(static).status_code == 200
    assert "http://" not in text and "https://" not in text  # the table has no internet: nothing fetched from outside
