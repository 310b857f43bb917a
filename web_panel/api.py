"""The JSON API: the public state, the games so far, a finished game's hand history, the live stream.

Everything here is public, so it is built from the hub's public document only. A game still being
played has no download: its history names cards that are hidden now.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify

from controller.service.hub import StateHub

from . import stream
from .ports import Archive, GameRecord
from .settings import PanelSettings

api = Blueprint("api", __name__, url_prefix="/api")


def _hub() -> StateHub:
    hub: StateHub = current_app.extensions["cardtable.hub"]
    return hub


def _archive() -> Archive | None:
    archive: Archive | None = current_app.extensions["cardtable.archive"]
    return archive


def game_listing(record: GameRecord) -> dict[str, Any]:
    header = record.header
    return {"id": record.id, "game": header.get("game"), "players": header.get("players"),
            "started": record.started, "ended": record.ended, "events": record.events,
            "result": record.summary if record.ended else None,
            "download": f"/api/history/{record.id}" if record.ended else None}


@api.get("/state")
def state() -> Response:
    return stream.latest_response(_hub())


@api.get("/history")
def history() -> Response:
    archive = _archive()
    games = [] if archive is None else [game_listing(record) for record in archive.games()]
    return jsonify({"games": games})


@api.get("/history/<int:game_id>")
def history_file(game_id: int) -> Response:
    archive = _archive()
    record = None if archive is None else next((r for r in archive.games() if r.id == game_id), None)
    if archive is None or record is None:
        abort(404, f"no game {game_id} in the journal")
    if record.ended is None:
        abort(409, f"game {game_id} is still being played: its history is downloadable once it ends")
    lines: Iterator[str] = iter(archive.history_lines(game_id))
    body = "".join(f"{line}\n" for line in lines)
    return Response(body, mimetype="application/x-ndjson", headers={
        "Content-Disposition": f'attachment; filename="game-{game_id}.jsonl"'})


@api.get("/events")
def events() -> Response:
    settings: PanelSettings = current_app.extensions["cardtable.settings"]
    return stream.stream_response(_hub(), settings.keepalive)
