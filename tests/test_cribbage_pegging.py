"""Points in the play (CR-8) as pure functions of the series: the cases software commonly gets wrong."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.cards import Card, full_deck, parse_cards
from controller.cribbage.pegging import fits, pair_length, play_points, run_length, series_count


def points(series: str) -> dict[str, int]:
    """reason -> points for laying the last card of a series written like '5H 10S'."""
    return {p.reason: p.points for p in play_points(parse_cards(series.split()))}


def test_fifteen_and_thirty_one_score_two():
    assert points("5H 10S") == {"fifteen": 2}
    assert points("KH QS AC") == {}
    assert points("10H 10S 5C 6D") == {"thirty_one": 2}


def test_thirty_one_with_a_pair_scores_both():
    # 10 + 10 + 5 + 3 + 3 = 31 with a pair of threes on the last card.
    assert points("10H KS 5C 3D 3H") == {"thirty_one": 2, "pair": 2}


def test_thirty_one_with_a_run_scores_both():
    # 10 + 6 + 7 + 8 = 31, and 6-7-8 is a run of 3.
    assert points("10H 6S 7C 8D") == {"thirty_one": 2, "run": 3}


def test_pairs_royal_and_double_royal():
    assert points("7H 7S") == {"pair": 2}
    assert points("7H 7S 7C") == {"pair": 6}
    assert points("3H 3S 3C 3D") == {"pair": 12}


def test_pairs_only_between_consecutive_cards():
    assert points("7H 8S 7C") == {}
    assert pair_length(parse_cards("7H 7S 8C 7D".split())) == 1


def test_same_value_is_no_pair():
    assert points("JH QS") == {}
    assert points("10H KS") == {}


def test_run_in_any_order_and_longest_counts():
    assert points("4H 2S 5C 3D") == {"run": 4}
    assert points("3H 4S 4C 5D") == {}
    assert points("3H 5S 4C") == {"run": 3}
    assert points("AH 2S 3C 4D 5H") == {"fifteen": 2, "run": 5}


def test_a_run_of_seven():
    series = parse_cards("AH 2S 3C 4D 5H 6S 7C".split())
    assert run_length(series) == 7
    assert series_count(series) == 28


def test_run_broken_by_a_duplicate_then_resumed():
    # 5 6 5 7: the last three (6 5 7) are a run of 3 even though the series has a duplicate.
    assert points("5H 6S 5C 7D") == {"run": 3}
    # 2 3 2: no run (duplicate inside the last three).
    assert points("2H 3S 2C") == {}


def test_no_wrap_around_and_ace_low():
    assert points("QH KS AC") == {}
    assert points("KH AS 2C") == {}


def test_fits():
    assert fits(Card.parse("6H"), 25)
    assert not fits(Card.parse("7H"), 25)
    assert fits(Card.parse("KH"), 21)


def test_parts_name_their_cards():
    (pair,) = play_points(parse_cards("9H 9S".split()))
    assert [str(c) for c in pair.cards] == ["9H", "9S"]


def _reference_run(series: list[Card]) -> int:
    """Brute force: the longest k >= 3 whose last k cards sorted are consecutive and distinct."""
    best = 0
    for k in range(3, len(series) + 1):
        ranks = sorted(c.rank for c in series[-k:])
        if all(b - a == 1 for a, b in zip(ranks, ranks[1:])):
            best = k
    return best


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(full_deck()), min_size=1, max_size=8, unique=True))
def test_run_length_matches_brute_force(series):
    assert run_length(series) == _reference_run(series)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(full_deck()), min_size=1, max_size=8, unique=True))
def test_pair_and_run_never_together(series):
    reasons = {p.reason for p in play_points(series)}
    assert not {"pair", "run"} <= reasons


@pytest.mark.parametrize("text", ["5H", "KH KS", "AH AS AC"])
def test_single_and_pair_counts(text):
    series = parse_cards(text.split())
    assert series_count(series) == sum(min(c.rank, 10) for c in series)
