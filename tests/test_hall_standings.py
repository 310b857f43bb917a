"""The evening's standings, from finished games alone (pure)."""
from __future__ import annotations

from web_panel.hall.standings import FinishedGame, match_points, standings, winners


def test_partnership_cribbage_scores_both_partners_and_counts_the_skunk() -> None:
    game = FinishedGame("t1", "cribbage", ["Ann", "Bo", "Cy", "Di"], {"winner": 1, "scores": [80, 121],
                                                                       "match_points": 2})
    assert winners(game) == ["Bo", "Di"] and match_points(game) == 2


def test_femkort_and_ferbli_match_winners_score_one_whatever_the_summary_says() -> None:
    femkort = FinishedGame("t2", "femkort", ["Ann", "Eve", "Fay"], {"winner": 2, "scores": None, "match_points": 5})
    assert winners(femkort) == ["Fay"] and match_points(femkort) == 1


def test_standings_add_up_across_tables_and_rank_by_points_then_wins_then_fewer_games() -> None:
    games = [
        FinishedGame("t1", "cribbage", ["Ann", "Bo"], {"winner": 0, "scores": [121, 70], "match_points": 2}),
        FinishedGame("t2", "ferbli", ["Bo", "Cy", "Di"], {"winner": 0, "scores": None}),
        FinishedGame("t3", "femkort", ["Cy", "Ann", "Di"], {"winner": 0, "scores": None}),
        FinishedGame("t1", "cribbage", ["Ann", "Bo"], {"winner": None, "scores": [40, 30]}),  # stopped early
        FinishedGame("t4", "cribbage", ["Eve", "Fay"], {"winner": 1, "scores": [90, 121], "match_points": 1}),
    ]
    assert standings(games) == [
        {"player": "Ann", "points": 2, "won": 1, "played": 3},
        {"player": "Fay", "points": 1, "won": 1, "played": 1},
        {"player": "Cy", "points": 1, "won": 1, "played": 2},
        {"player": "Bo", "points": 1, "won": 1, "played": 3},
        {"player": "Eve", "points": 0, "won": 0, "played": 1},
        {"player": "Di", "points": 0, "won": 0, "played": 2},
    ]
