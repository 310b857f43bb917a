"""The application factory: the spectator page, the dealer console and the JSON API over one state hub."""
from __future__ import annotations

import os

from flask import Flask, Response, jsonify
from werkzeug.exceptions import HTTPException

from controller.jsonlines import MAX_LINE_BYTES
from controller.service.config import ServiceConfig
from controller.service.hub import StateHub

from .api import api
from .console import console as console_pages
from .gate import AttemptLimiter
from .ports import Archive, ConsolePort
from .settings import PanelSettings
from .spectator import spectator


def create_app(hub: StateHub, console: ConsolePort, config: ServiceConfig | None = None, *,
               archive: Archive | None = None, settings: PanelSettings | None = None) -> Flask:
    """The panel's WSGI app. `config` gives the console's PIN hash (unless `settings` carry one);
    `archive` (the journal) the games so far."""
    if settings is None:
        settings = PanelSettings(pin_hash=config.console.pin_hash if config else "")
    app = Flask(__name__)
    app.config.update(SECRET_KEY=settings.secret_key or os.urandom(32), SESSION_COOKIE_HTTPONLY=True,
                      SESSION_COOKIE_SAMESITE="Strict", SESSION_COOKIE_NAME="cardtable_console",
                      MAX_CONTENT_LENGTH=MAX_LINE_BYTES)  # an entry is one journal line: 413 beyond
    limiter = AttemptLimiter(settings.max_failures, settings.lockout, settings.max_lockout)
    app.extensions.update({"cardtable.hub": hub, "cardtable.console": console, "cardtable.archive": archive,
                           "cardtable.settings": settings, "cardtable.limiter": limiter})
    app.json.sort_keys = False  # type: ignore[attr-defined]  # documents keep the engines' order
    app.register_blueprint(api)
    app.register_blueprint(spectator)
    app.register_blueprint(console_pages)
    app.register_error_handler(HTTPException, json_error)
    return app


def json_error(error: HTTPException) -> tuple[Response, int]:
    """Every refusal as JSON naming what is wrong (the page and the console show `error`)."""
    return jsonify({"error": error.description}), error.code or 500
