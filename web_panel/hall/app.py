"""The hall's WSGI app: the board page, its JSON, its live stream and the finished games' downloads."""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Flask, Response, abort, current_app, render_template, request
from werkzeug.exceptions import HTTPException

from web_panel import stream
from web_panel.app import json_error
from web_panel.settings import PanelSettings

from .board import HallBoard
from .store import HallStore

PANEL_STATIC = Path(__file__).resolve().parent.parent / "static"

hall = Blueprint("hall", __name__, template_folder="templates", static_folder="static",
                 static_url_path="/hall-static")


def create_hall_app(board: HallBoard, store: HallStore, settings: PanelSettings | None = None) -> Flask:
    app = Flask(__name__, static_folder=str(PANEL_STATIC))  # the panel's look and its render.js's esc()
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
    return Response(_board().snapshot().public_json, mimetype="application/json",
                    headers={"Cache-Control": "no-store"})


@hall.get("/api/events")
def events() -> Response:
    settings: PanelSettings = current_app.extensions["cardtable.settings"]
    last_seen = stream.parse_last_event_id(request.headers.get("Last-Event-ID"))
    return Response(stream.events(_board(), last_seen, settings.keepalive), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


@hall.get("/api/games/<table>/<int:game>")
def history(table: str, game: int) -> Response:
    store: HallStore = current_app.extensions["cardtable.store"]
    body = store.history(table, game)
    if body is None:
        abort(404, f"no finished game {game} of table {table!r} in the hall's record")
    return Response(body, mimetype="application/x-ndjson",
                    headers={"Content-Disposition": f'attachment; filename="{table}-game-{game}.jsonl"'})
