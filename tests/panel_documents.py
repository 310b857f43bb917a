"""Public documents of the three games as the table shows them (the engines' public_view() shape plus
the players' names), for tests of the page alone."""
from __future__ import annotations

from typing import Any

SHARED = {"phase": "play", "dealer": 0, "to_act": 1, "hand_over": False, "game_over": False}

CRIBBAGE: dict[str, Any] = {
    **SHARED, "game": "cribbage", "players": ["Ann", "Bo"], "scores": [33, 41],
    "pegs": [{"back": 29, "front": 33}, {"back": 35, "front": 41}], "target": 121,
    "skunk_lines": {"skunk": 91, "double": 61}, "winner": None, "count": 15, "series": ["5H", "KD"],
    "played": [["5H"], ["KD"]], "held": [3, 3], "crib_size": 4, "starter": "4C",
    "shows": [{"seat": 1, "crib": False, "cards": ["5S", "5C", "JH", "4D"], "total": 8,
               "breakdown": [{"reason": "fifteen", "points": 2, "cards": ["5S", "JH"]},
                             {"reason": "fifteen", "points": 2, "cards": ["5C", "JH"]},
                             {"reason": "pair", "points": 2, "cards": ["5S", "5C"]},
                             {"reason": "nobs", "points": 1, "cards": ["JH"]}]}],
}

FEMKORT: dict[str, Any] = {
    **SHARED, "game": "femkort", "players": ["Ann", "Bo", "Cy"], "hand": 3, "seats": [0, 1, 2], "leader": 2,
    "trick_number": 2, "trick": [{"seat": 2, "card": "9S"}, {"seat": 0, "card": "QS"}],
    "tricks_won": [1, 0, 0], "held": [3, 4, 4], "trump": None, "chips": [18, 20, 22], "pot": 6, "carry": 0,
    "stake": 2, "pots_won": [1, 0, 1], "pots_to_win": 3, "hand_winner": None, "winner": None, "decider": None,
    "time_up": False, "redeal": None,
}

FERBLI: dict[str, Any] = {
    **SHARED, "game": "ferbli", "phase": "hand_over", "players": ["Ann", "Bo", "Cy"], "seats": [0, 1, 2],
    "live": [0, 2], "folded": [1], "chips": [30, 25, 41], "pot": 0, "carry": 4, "committed": [6, 2, 6],
    "level": 2, "mus": False, "round": None, "efterhand": None, "buyers": [], "held": [4, 4, 4], "talon": 20,
    "discards": 0, "upcards": [["10H"], [], ["AS"]], "exposed": [],
    "showdown": [{"seat": 0, "cards": ["10H", "9H", "AH", "KH"], "hand": "four-flush 41 in hearts"},
                 {"seat": 2, "cards": ["AS", "7S", "8S", "KD"], "hand": "three-flush 26 in spades"}],
    "hand_winner": 0, "winner": None,
}
