"""The games the table knows, and how to start one from a game setup (a history header is one)."""
from __future__ import annotations

import importlib

from .engine import Engine, GameSetup, SetupError

# Each module defines `new_game(setup: GameSetup) -> Engine` (raising SetupError for a bad setup).
ENGINE_MODULES = {
    "cribbage": "controller.cribbage.game",
    "femkort": "controller.femkort.game",
    "ferbli": "controller.ferbli.game",
}


def new_game(setup: GameSetup) -> Engine:
    module = ENGINE_MODULES.get(setup.game)
    if module is None:
        raise SetupError(f"unknown game {setup.game!r} (the table knows {', '.join(ENGINE_MODULES)})")
    return importlib.import_module(module).new_game(setup)
