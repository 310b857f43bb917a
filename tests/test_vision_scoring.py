"""Scoring a frame's readings against its labels: a wrong card whose name the frame reads twice is told
apart from one read once (the table holds a duplicate card, so only the latter would be played)."""
from __future__ import annotations

from vision.evaluate import score_image, summarise
from vision.readings import UNKNOWN, CardReading

QUAD = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.4], [0.0, 1.4]]


def _read(*names: str) -> list[CardReading]:
    return [CardReading(name, 1.0, QUAD, []) for name in names]


def test_a_club_read_as_the_spade_beside_it_is_wrong_and_read_twice() -> None:
    score = score_image("frame", ["5S", "5C", "9D"], _read("5S", "5S", "9D", UNKNOWN), 0.0)
    assert (score.correct, score.wrong, score.wrong_twice) == (2, ["5S"], 1)


def test_a_wrong_card_read_once_would_be_played() -> None:
    score = score_image("frame", ["5C", "9D"], _read("5S", "9S"), 0.0)
    assert (score.correct, score.wrong, score.wrong_twice) == (0, ["5S", "9S"], 0)


def test_the_summary_counts_the_wrong_cards_read_twice() -> None:
    scores = [score_image("a", ["5S", "5C"], _read("5S", "5S"), 0.0), score_image("b", ["5C"], _read("5S"), 0.0)]
    report = summarise(scores)
    assert (report["confidently_wrong"], report["wrong_read_twice"]) == (2, 1)
