"""The games the table knows, and how to start one from a history header."""
from __future__ import annotations

import importlib

from .engine import Engine
from .history import Header

# Each module defines `new_game(header: Header) -> Engine` (raising SetupError for a bad header).
ENGINE_MODULES = {
    "cribbage": "controller.cribbage.game",
    "femkort": "controller.femkort.game",
    "ferbli": "controller.ferbli.game",
}


def new_game(header: Header) -> Engine:
    return importlib.import_module(ENGINE_MODULES[header.game]).new_game(header)
