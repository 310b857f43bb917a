"""The dealer console through Flask's test client: the PIN, the lockout, CSRF, every entry and its
refusals (a clear 4xx, and the console port never called)."""
from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from controller.service.hub import StateHub, TableStatus
from controller.service.pin import hash_pin
from panel_documents import CRIBBAGE
from panel_support import RecordingConsole
from web_panel import ConsoleAnswer, GameStart, create_app
from web_panel.gate import AttemptLimiter
from web_panel.settings import PanelSettings

PIN = "2468"
PIN_HASH = hash_pin(PIN)
DEALER = {**CRIBBAGE, "hands": [{"known": ["KS", "QS", "2H"], "unknown": 0}], "crib": {"known": ["AD"]}}
HOLD = {"reason": "unread card", "seat": 1, "zone": "seat-2", "possible": ["7D", "8D"]}


class Desk:
    """A console app over a hub holding a cribbage game, and one browser's client of it."""

    def __init__(self, pin_hash: str = PIN_HASH, max_failures: int = 3) -> None:
        self.hub = StateHub()
        self.hub.publish(CRIBBAGE, DEALER, TableStatus(hold=HOLD))
        self.port = RecordingConsole()
        self.app = create_app(self.hub, self.port, settings=PanelSettings(pin_hash=pin_hash, max_failures=max_failures))
        self.client = self.browser()

    def browser(self, address: str = "10.0.0.5") -> FlaskClient:
        client = self.app.test_client()
        client.environ_base["REMOTE_ADDR"] = address
        return client

    @staticmethod
    def token(client: FlaskClient) -> str:
        page = client.get("/console").get_data(as_text=True)
        return page.split('name="csrf-token" content="')[1].split('"')[0]

    def sign_in(self, client: FlaskClient, pin: str = PIN) -> Any:
        return client.post("/console/sign-in", json={"pin": pin}, headers={"X-CSRF-Token": self.token(client)})

    def signed_in(self) -> tuple[FlaskClient, str]:
        reply = self.sign_in(self.client)
        assert reply.status_code == 200, reply.get_json()
        return self.client, reply.get_json()["csrf"]


@pytest.fixture
def desk() -> Desk:
    return Desk()


def test_sign_in_sets_a_strict_http_only_cookie_and_rotates_the_token(desk: Desk) -> None:
    before = desk.token(desk.client)
    reply = desk.sign_in(desk.client)
    assert reply.status_code == 200
    cookie = reply.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    token = reply.get_json()["csrf"]
    assert token != before
    stale = desk.client.post("/console/api/relay", json={}, headers={"X-CSRF-Token": before})
    assert stale.status_code == 403 and desk.port.calls == []
    assert desk.client.post("/console/api/relay", json={}, headers={"X-CSRF-Token": token}).status_code == 200


def test_dealer_document_needs_the_pin(desk: Desk) -> None:
    refused = desk.client.get("/console/api/state")
    assert refused.status_code == 401 and "PIN" in refused.get_json()["error"]
    client, _ = desk.signed_in()
    document = client.get("/console/api/state").get_json()
    assert document["table"]["hands"][0]["known"] == ["KS", "QS", "2H"]
    assert document["status"]["hold"]["possible"] == ["7D", "8D"]


def test_a_locked_console_refuses_every_pin() -> None:
    desk = Desk(pin_hash="")
    reply = desk.sign_in(desk.client)
    assert reply.status_code == 403 and "no PIN is set" in reply.get_json()["error"]


@pytest.mark.parametrize("pin, status, why", [("12ab", 400, "digits only"), ("12", 400, "4 to 12 digits"),
                                              ("1357", 403, "wrong PIN")])
def test_a_bad_or_wrong_pin_is_refused(desk: Desk, pin: str, status: int, why: str) -> None:
    reply = desk.sign_in(desk.client, pin)
    assert reply.status_code == status and why in reply.get_json()["error"]
    assert desk.client.get("/console/api/state").status_code == 401


def test_wrong_pins_lock_out_that_device_only(desk: Desk) -> None:
    for _ in range(3):
        assert desk.sign_in(desk.client, "0000").status_code == 403
    locked = desk.sign_in(desk.client)  # even the right PIN waits now
    assert locked.status_code == 429 and int(locked.headers["Retry-After"]) >= 30
    assert "try again in" in locked.get_json()["error"]
    dealer = desk.browser("10.0.0.9")  # the dealer's own phone still signs in
    assert desk.sign_in(dealer).status_code == 200


def test_lockout_doubles_and_a_right_pin_clears_it() -> None:
    now = [0.0]
    limiter = AttemptLimiter(max_failures=2, lockout=10, max_lockout=25, clock=lambda: now[0])
    limiter.failed("a")
    assert limiter.wait("a") == 0
    limiter.failed("a")
    assert limiter.wait("a") == 10 and limiter.wait("b") == 0
    limiter.failed("a")
    assert limiter.wait("a") == 20
    limiter.failed("a")
    assert limiter.wait("a") == 25  # never longer than max_lockout
    now[0] = 30
    assert limiter.wait("a") == 0
    limiter.succeeded("a")
    limiter.failed("a")
    assert limiter.wait("a") == 0  # counted from zero again


def test_every_post_needs_the_csrf_token(desk: Desk) -> None:
    client, _ = desk.signed_in()
    for path in ("/console/api/relay", "/console/api/undo", "/console/api/end", "/console/sign-out"):
        for headers in ({}, {"X-CSRF-Token": "forged"}):
            reply = client.post(path, json={"confirm": True}, headers=headers)
            assert reply.status_code == 403 and "CSRF" in reply.get_json()["error"]
    assert client.post("/console/sign-in", json={"pin": PIN}).status_code == 403
    assert desk.port.calls == []


def _post(desk: Desk, path: str, body: Any) -> Any:
    client, token = desk.signed_in()
    if isinstance(body, str):
        return client.post(path, data=body, content_type="application/json", headers={"X-CSRF-Token": token})
    return client.post(path, json=body, headers={"X-CSRF-Token": token})


@pytest.mark.parametrize("path, body, why", [
    ("/console/api/start", "{not json", "JSON object"),
    ("/console/api/start", [1, 2], "JSON object"),
    # what the journal cannot keep is refused here: a NaN reaching the service stopped play for good
    ("/console/api/event", '{"event": {"type": "bet", "seat": 0, "amount": NaN}}', "NaN is not a JSON number"),
    ("/console/api/event", '{"event": {"type": "bet", "seat": 0, "amount": 1e999}}', "too large for a double"),
    ("/console/api/event", '{"event": {"type": "bet", "seat": 0, "amount": 10000000000000000000}}', "is too large"),
    ("/console/api/event", "[" * 100_000 + "]" * 100_000, "nested more than 16 deep"),  # was a 500
    ("/console/api/start", {"game": "poker", "players": ["A", "B"]}, "game: must be one of"),
    ("/console/api/start", {"game": "femkort", "players": []}, "players: a list of 1 to 8"),
    ("/console/api/start", {"game": "femkort", "players": ["A", " "]}, "every name must be non-empty"),
    ("/console/api/start", {"game": "femkort", "players": ["A", "B"], "dealer": 2}, "dealer: a seat 0..1"),
    ("/console/api/start", {"game": "femkort", "players": ["A", "B"], "deal": "half"}, "deal: must be"),
    ("/console/api/start", {"game": "femkort", "players": ["A", "B"], "options": [1]}, "options: must be"),
    ("/console/api/start", {"game": "ferbli", "players": ["A", "B"], "chips": [5]}, "chips: one whole number"),
    ("/console/api/start", {"game": "ferbli", "players": ["A", "B"], "chips": [5, True]}, "chips: one whole number"),
    ("/console/api/start", {"game": "femkort", "players": ["A", "B"]}, "confirm: starting a new game"),
    ("/console/api/event", {"event": {"seat": 1}}, "event: a hand-history event"),
    ("/console/api/event", {}, "event: a hand-history event"),
    ("/console/api/resolve", {"card": "ZZ"}, "card: not a card: 'ZZ'"),
    ("/console/api/resolve", {"card": 7}, "card: the held card"),
    ("/console/api/undo", {}, "confirm: undo"),
    ("/console/api/end", {"confirm": "yes"}, "confirm: ending the game"),
    ("/console/api/deck-check", {}, "step: one of start, next, finish, gathered, not None"),
    ("/console/api/deck-check", {"step": "shuffle"}, "step: one of start, next, finish, gathered, not 'shuffle'"),
    ("/console/api/deck-check", {"step": "start", "deck": 52}, "deck: 52 or 32 with the step start"),
    ("/console/api/deck-check", {"step": "next", "deck": "32"}, "not '32' with next"),
    ("/console/api/enrolment", {"step": "begin"}, "step: one of start, answer, finish, retake, keep, not 'begin'"),
    ("/console/api/enrolment", {"step": "answer"}, "answer: the dealer's answer as text"),
    ("/console/api/enrolment", {"step": "finish", "answer": "QS"}, "not 'QS' with finish"),
])
def test_bad_entries_are_refused_naming_the_part(desk: Desk, path: str, body: Any, why: str) -> None:
    reply = _post(desk, path, body)
    assert reply.status_code == 400 and why in reply.get_json()["error"], reply.get_json()
    assert desk.port.calls == []


def test_an_oversized_or_form_entry_is_refused(desk: Desk) -> None:
    client, token = desk.signed_in()
    big = client.post("/console/api/event", data='{"event": {"type": "fold", "seat": 0, "x": "' + "y" * (1 << 20) + '"}}',
                      content_type="application/json", headers={"X-CSRF-Token": token})
    assert big.status_code == 413 and "error" in big.get_json()
    form = client.post("/console/api/event", data={"event": "fold"}, headers={"X-CSRF-Token": token})
    assert form.status_code == 400 and "Content-Type: application/json" in form.get_json()["error"]
    assert desk.port.calls == []


def test_good_entries_reach_the_port(desk: Desk) -> None:
    client, token = desk.signed_in()
    sent = [("/console/api/start", {"game": "ferbli", "players": ["Ann", "Bo", "Cy"], "dealer": 2, "deal": "open",
                                    "options": {"pots_to_win": 2}, "chips": [9, 9, 9], "confirm": True}),
            ("/console/api/event", {"event": {"type": "raise", "seat": 1, "amount": 4}}),
            ("/console/api/resolve", {"card": "10h"}), ("/console/api/relay", {}),
            ("/console/api/undo", {"confirm": True}), ("/console/api/end", {"confirm": True}),
            ("/console/api/deck-check", {"step": "start", "deck": "32"}), ("/console/api/deck-check", {"step": "next"}),
            ("/console/api/deck-check", {"step": "finish"}), ("/console/api/enrolment", {"step": "start"}),
            ("/console/api/enrolment", {"step": "answer", "answer": ""}), ("/console/api/enrolment", {"step": "finish"})]
    for path, body in sent:
        reply = client.post(path, json=body, headers={"X-CSRF-Token": token})
        assert reply.status_code == 200 and reply.get_json() == {"ok": True, "message": "accepted"}
    assert desk.port.calls == [
        ("start_game", GameStart("ferbli", ("Ann", "Bo", "Cy"), 2, "open", {"pots_to_win": 2}, (9, 9, 9))),
        ("console_event", {"type": "raise", "seat": 1, "amount": 4}), ("resolve_hold", "10H"),
        ("relay", None), ("undo", None), ("end_game", None),
        ("deck_check", ("start", "32")), ("deck_check", ("next", None)), ("deck_check", ("finish", None)),
        ("enrolment", ("start", None)), ("enrolment", ("answer", "")), ("enrolment", ("finish", None))]


def test_a_new_game_after_the_last_one_ended_needs_no_confirmation(desk: Desk) -> None:
    desk.hub.publish({**CRIBBAGE, "game_over": True}, DEALER, TableStatus())
    reply = _post(desk, "/console/api/start", {"game": "cribbage", "players": ["Ann", "Bo"]})
    assert reply.status_code == 200 and desk.port.calls[0][0] == "start_game"


def test_the_sessions_refusal_is_passed_on(desk: Desk) -> None:
    desk.port.answer = ConsoleAnswer(False, "Bo may not raise now: Ann must answer first")
    reply = _post(desk, "/console/api/event", {"event": {"type": "raise", "seat": 1, "amount": 4}})
    assert reply.status_code == 422 and reply.get_json() == {"error": "Bo may not raise now: Ann must answer first"}


def test_hold_crop(desk: Desk) -> None:
    client, _ = desk.signed_in()
    assert client.get("/console/api/hold/crop").status_code == 404
    desk.port.crop = b"\x89PNG\r\n\x1a\n..."
    reply = client.get("/console/api/hold/crop")
    assert reply.status_code == 200 and reply.mimetype == "image/png" and reply.data == desk.port.crop


def test_sign_out_ends_the_dealer_session(desk: Desk) -> None:
    client, token = desk.signed_in()
    assert client.post("/console/sign-out", headers={"X-CSRF-Token": token}).status_code == 200
    assert client.get("/console/api/state").status_code == 401
