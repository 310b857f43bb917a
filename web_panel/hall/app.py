"""The hall's WSGI app: the board page, its JSON, its live stream, the finished games' downloads and the
past evenings (a page and their JSON: each evening's standings and games, as they were when it closed)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, Response, abort, current_app, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from web_panel import stream
from web_panel.app import json_error
from web_panel.settings import PanelSettings

from .board import HallBoard, download
from .standings import standings
from .store import Evening, HallStore

PANEL = Path(__file__).resolve().parent.parent

hall = Blueprint("hall", __name__, template_folder="templates", static_folder="static",
                 static_url_path="/hall-static")


def create_hall_app(board: HallBoard, store: HallStore, settings: PanelSettings | None = None) -> Flask:
    # the panel's look, its render.js's esc() and the page frame the hall's pages extend
    app = Flask(__name__, static_folder=str(PANEL / "static"), template_folder=str(PANEL / "templates"))
    app.extensions.update({"cardtable.board": board, "cardtable.store": store,
                           "cardtable.settings": settings or PanelSettings()})
    app.register_blueprint(hall)
    app.register_error_handler(HTTPException, json_error)
    return app


def _board() -> HallBoard:
    board: HallBoard = current_app.extensions["cardtable.board"]
    return board


@hall.get("/")
def page() -> str:
    return render_template("hall.html")


@hall.get("/api/board")
def board() -> Response:
    return stream.latest_response(_board())


@hall.get("/api/events")
def events() -> Response:
    settings: PanelSettings = current_app.extensions["cardtable.settings"]
    return stream.stream_response(_board(), settings.keepalive)


def _store() -> HallStore:
    store: HallStore = current_app.extensions["cardtable.store"]
    return store


@hall.get("/api/games/<table>/<int:game>")
def history(table: str, game: int) -> Response:
    evening = request.args.get("evening")
    if evening is not None and not evening.isdigit():
        abort(400, f"'evening' must be an evening's number, not {evening[:40]!r}")
    body = _store().history(table, game, None if evening is None else int(evening))
    if body is None:
        abort(404, f"no finished game {game} of table {table!r} in the hall's record"
                   + ("" if evening is None else f" of evening {evening}"))
    return Response(body, mimetype="application/x-ndjson",
                    headers={"Content-Disposition": f'attachment; filename="{table}-game-{game}.jsonl"'})


def _evening_document(evening: Evening) -> dict[str, Any]:
    """An evening with its standings and its games (the list, in place of their count)."""
    games = _store().games(evening.id)
    return {**evening.to_json(), "standings": standings(_store().finished(evening.id)),
            "games": [{**game, "download": download(game)} for game in games]}


@hall.get("/api/evenings")
def evenings() -> Response:
    return jsonify([evening.to_json() for evening in _store().evenings()])


@hall.get("/api/evenings/<int:number>")
def evening(number: int) -> Response:
    found = _store().evening(number)
    if found is None:
        abort(404, f"no evening {number} in the hall's record")
    return jsonify(_evening_document(found))


@hall.get("/evenings")
def evenings_page() -> str:
    """The closed evenings, the latest first: they no longer change, so the page is drawn once."""
    past = [_evening_document(e) for e in reversed(_store().evenings()) if e.closed is not None]
    return render_template("evenings.html", club=_board().club, evenings=past)
