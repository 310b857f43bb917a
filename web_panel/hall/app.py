"""The hall's WSGI app: the board page, its JSON, its live stream and the finished games' downloads."""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Flask, Response, abort, current_app, render_template
from werkzeug.exceptions import HTTPException

from web_panel import stream
from web_panel.app import json_error
from web_panel.settings import PanelSettings

from .board import HallBoard
from .store import HallStore

PANEL = Path(__file__).resolve().parent.parent

hall = Blueprint("hall", __name__, template_folder="templates", static_folder="static",
                 static_url_path="/hall-static")


def create_hall_app(board: HallBoard, store: HallStore, settings: PanelSettings | None = None) -> Flask:
    # the panel's look, its render.js's esc() and the page frame hall.html extends
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


@hall.get("/api/games/<table>/<int:game>")
def history(table: str, game: int) -> Response:
    store: HallStore = current_app.extensions["cardtable.store"]
    body = store.history(table, game)
    if body is None:
        abort(404, f"no finished game {game} of table {table!r} in the hall's record")
    return Response(body, mimetype="application/x-ndjson",
                    headers={"Content-Disposition": f'attachment; filename="{table}-game-{game}.jsonl"'})
