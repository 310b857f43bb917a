"""The spectator page: one HTML page that draws the public document and follows the stream."""
from __future__ import annotations

from flask import Blueprint, render_template

spectator = Blueprint("spectator", __name__)


@spectator.get("/")
def page() -> str:
    return render_template("spectator.html")
