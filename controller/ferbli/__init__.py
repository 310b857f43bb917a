"""Färbeln (Ferbli): the hand evaluator, the betting rules and the deal's state machine (RULES.md)."""
from .game import FerbliGame, new_game
from .hands import Category, HandError, HandValue, evaluate
from .options import FerbliOptions

__all__ = ["Category", "FerbliGame", "FerbliOptions", "HandError", "HandValue", "evaluate", "new_game"]
