"""Femkort, the Swedish five-card last-trick pot game: options, pure trick rules and the engine."""
from .game import FemkortGame, new_game
from .options import FemkortOptions

__all__ = ["FemkortGame", "FemkortOptions", "new_game"]
