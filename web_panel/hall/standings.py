"""The evening's standings: match points per player across every table's finished games. Pure.

A finished game's winner (its summary's `winner`, a seat, or a side in partnership cribbage) scores:

* cribbage: the game's match points as its options count them (`match_points`: 1 for a game, 2 for a
  skunk, 3 for a double skunk by default; `summary.match_points`), else 1;
* Femkort and Färbeln: 1 for winning the match.

A game ended without a winner (stopped at the console) counts as played, with no points. Players are
told apart by name, so the same name at two tables is the same player. Ranked by points, then games
won, then fewer games played, then name.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class FinishedGame:
    table: str
    game: str  # cribbage, femkort, ferbli
    players: list[str]
    summary: dict[str, Any]


def winners(finished: FinishedGame) -> list[str]:
    """The winning seat's player, or the winning side's players (seats alternate sides)."""
    winner = finished.summary.get("winner")
    if not isinstance(winner, int) or isinstance(winner, bool):
        return []
    scores = finished.summary.get("scores")
    sides = len(scores) if isinstance(scores, list) and scores else len(finished.players)
    return [name for seat, name in enumerate(finished.players) if seat % sides == winner]


def match_points(finished: FinishedGame) -> int:
    points = finished.summary.get("match_points")
    if finished.game == "cribbage" and isinstance(points, int) and not isinstance(points, bool) and points > 0:
        return points
    return 1


def standings(games: Iterable[FinishedGame]) -> list[dict[str, Any]]:
    rows: dict[str, dict[str, Any]] = {}
    for finished in games:
        for name in finished.players:
            rows.setdefault(name, {"player": name, "points": 0, "won": 0, "played": 0})["played"] += 1
        for name in winners(finished):
            rows[name]["points"] += match_points(finished)
            rows[name]["won"] += 1
    return sorted(rows.values(), key=lambda r: (-r["points"], -r["won"], r["played"], r["player"]))
