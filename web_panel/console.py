"""The dealer console, behind the PIN: the dealer document, and every entry the table's cameras cannot
make (start or end a game, amounts and answers, a hold's card, undo).

Signing in sets a session cookie (HttpOnly, SameSite=Strict, signed). Every POST, the sign-in too,
carries the session's CSRF token in the `X-CSRF-Token` header. A refused entry changes nothing: it never
reaches the console port.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, render_template, request, session

from controller.jsonlines import JsonLineError, parse_json_line
from controller.service.hub import StateHub
from controller.service.pin import PinError, check_pin, verify_pin

from . import entries
from .gate import AttemptLimiter, csrf_token, csrf_valid
from .ports import ConsoleAnswer, ConsolePort
from .settings import PanelSettings

console = Blueprint("console", __name__, url_prefix="/console")
SIGNED_IN = "dealer"


def _port() -> ConsolePort:
    port: ConsolePort = current_app.extensions["cardtable.console"]
    return port


def _client() -> str:
    return request.remote_addr or "unknown"


@console.before_request
def _guard() -> None:
    if request.method == "POST" and not csrf_valid(session, request.headers.get("X-CSRF-Token")):
        abort(403, "missing or wrong CSRF token: reload the console")
    if request.endpoint not in ("console.page", "console.sign_in") and not session.get(SIGNED_IN):
        abort(401, "sign in with the dealer's PIN first")


def _body() -> dict[str, Any]:
    """The entry as a JSON object within the journal's limits on a line: NaN, an integer past 2^53 or
    arrays nested without end would reach the journal (which refuses them) or fail the parser."""
    if not request.is_json:
        abort(400, "the request body must be a JSON object (Content-Type: application/json)")
    try:
        body = parse_json_line(request.get_data(as_text=True), 1)
    except JsonLineError as error:
        abort(400, f"the request body must be a JSON object: {error.reason}")
    if not isinstance(body, dict):
        abort(400, "the request body must be a JSON object")
    return body


@console.get("")
def page() -> str:
    return render_template("console.html", csrf=csrf_token(session), signed_in=bool(session.get(SIGNED_IN)))


@console.post("/sign-in")
def sign_in() -> Response | tuple[Response, int]:
    settings: PanelSettings = current_app.extensions["cardtable.settings"]
    limiter: AttemptLimiter = current_app.extensions["cardtable.limiter"]
    if not settings.pin_hash:
        abort(403, "the console is locked: no PIN is set (cardtable console-pin)")
    wait = limiter.wait(_client())
    if wait > 0:
        reply = jsonify({"error": f"too many wrong PINs from this device: try again in {wait:.0f} s"})
        reply.headers["Retry-After"] = str(int(wait) + 1)
        return reply, 429
    pin = _body().get("pin")
    if not isinstance(pin, str):
        abort(400, f"pin: the PIN's digits as text, not {pin!r}")
    try:
        check_pin(pin)
    except PinError as error:
        abort(400, f"pin: {error}")
    if not verify_pin(pin, settings.pin_hash):
        limiter.failed(_client())
        abort(403, "wrong PIN")
    limiter.succeeded(_client())
    session.clear()
    session[SIGNED_IN] = True
    return jsonify({"ok": True, "message": "signed in", "csrf": csrf_token(session)})  # a fresh token for the signed-in session


@console.post("/sign-out")
def sign_out() -> Response:
    session.clear()
    return jsonify({"ok": True, "csrf": csrf_token(session)})


@console.get("/api/state")
def state() -> Response:
    hub: StateHub = current_app.extensions["cardtable.hub"]
    return jsonify(hub.snapshot().dealer_document())


@console.get("/api/hold/crop")
def hold_crop() -> Response:
    crop = _port().hold_crop()
    if crop is None:
        abort(404, "no crop: nothing is held, or the camera has none for it")
    return Response(crop, mimetype="image/png", headers={"Cache-Control": "no-store"})


def _answer(send: Callable[[], ConsoleAnswer]) -> tuple[Response, int]:
    answer = send()
    return (jsonify(answer.to_json()), 200) if answer.ok else (jsonify({"error": answer.message}), 422)


def _checked(check: Callable[[dict[str, Any]], Any]) -> Any:
    try:
        return check(_body())
    except entries.EntryError as error:
        abort(400, str(error))


@console.post("/api/start")
def start() -> tuple[Response, int]:
    game = _checked(entries.game_start)
    hub: StateHub = current_app.extensions["cardtable.hub"]
    table = hub.snapshot().public
    if table.get("game") and not table.get("game_over"):
        _checked(lambda b: entries.confirmed(b, "starting a new game ends the one being played"))
    return _answer(lambda: _port().start_game(game))


@console.post("/api/event")
def event() -> tuple[Response, int]:
    entry = _checked(entries.table_event)
    return _answer(lambda: _port().console_event(entry))


@console.post("/api/resolve")
def resolve() -> tuple[Response, int]:
    card = _checked(entries.card)
    return _answer(lambda: _port().resolve_hold(card))


@console.post("/api/relay")
def relay() -> tuple[Response, int]:
    return _answer(_port().relay)


@console.post("/api/undo")
def undo() -> tuple[Response, int]:
    _checked(lambda b: entries.confirmed(b, "undo takes back the last accepted event"))
    return _answer(_port().undo)


@console.post("/api/end")
def end() -> tuple[Response, int]:
    _checked(lambda b: entries.confirmed(b, "ending the game"))
    return _answer(_port().end_game)


@console.post("/api/deck-check")
def deck_check() -> tuple[Response, int]:
    step, deck = _checked(entries.deck_check)
    return _answer(lambda: _port().deck_check(step, deck))


@console.post("/api/enrolment")
def enrolment() -> tuple[Response, int]:
    step, answer = _checked(entries.enrolment)
    return _answer(lambda: _port().enrolment(step, answer))
