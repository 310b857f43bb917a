"""Show-score statistics and the fast scorers, checked against published counts and `score_show`.

tests/data/cribbage/*.json are the published histograms (see SOURCE.md there).
"""
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.cards import SUITS, Card, full_deck
from controller.cribbage.fast_score import score_show_total, show_totals
from controller.cribbage.rank_table import rank_table
from controller.cribbage.scoring import score_show
from controller.cribbage.statistics import show_histograms

DATA = Path(__file__).parent / "data" / "cribbage"
DECK = full_deck()


def published(name: str) -> dict:
    return json.loads((DATA / f"{name}_hist.json").read_text())


def published_counts(document: dict) -> tuple[int, ...]:
    return tuple(document["histogram"][str(score)] for score in range(30))


@pytest.fixture(scope="module")
def histograms():
    return show_histograms()


@pytest.mark.parametrize("which,name", [(0, "hand"), (1, "crib")])
def test_histogram_equals_published(histograms, which: int, name: str) -> None:
    ours, document = histograms[which], published(name)
    assert ours.counts == published_counts(document)
    assert ours.combinations == document["combinations"] == 12_994_800
    assert ours.total_points == document["summary"]["total_points"]
    assert ours.mean == pytest.approx(document["summary"]["mean"], abs=1e-12)
    assert ours.component_points == document["component_total_points"]
    assert [s for s, n in enumerate(ours.counts) if n == 0] == [19, 25, 26, 27]


def test_stats_command_json_matches_published() -> None:
    result = subprocess.run([sys.executable, "-m", "controller.cli", "stats", "cribbage", "--json"],
                            capture_output=True, text=True, check=True)
    document = json.loads(result.stdout)
    assert tuple(document["hand"]["histogram"]) == published_counts(published("hand"))
    assert tuple(document["crib"]["histogram"]) == published_counts(published("crib"))


def test_stats_command_table_prints_every_score_and_the_means() -> None:
    result = subprocess.run([sys.executable, "-m", "controller.cli", "stats", "cribbage"],
                            capture_output=True, text=True, check=True)
    lines = result.stdout.splitlines()
    assert lines[2].split() == ["0", "1,009,008", "1,022,208"]
    assert lines[-2].split() == ["29", "4", "4"]
    assert lines[-1].split() == ["mean", "4.76915", "4.73482"]


def concrete(ranks: list[int]) -> list[Card]:
    """Cards for a sorted rank multiset: cycling the suits keeps same-rank cards distinct."""
    return [Card(rank, SUITS[i % 4]) for i, rank in enumerate(ranks)]


@pytest.mark.parametrize("size", [4, 5])
def test_rank_table_agrees_with_score_show_for_every_multiset(size: int) -> None:
    table = rank_table(size)
    for counts, fifteens, pairs, runs in zip(table.counts.tolist(), table.fifteens.tolist(),
                                             table.pairs.tolist(), table.runs.tolist()):
        ranks = [rank for rank, n in enumerate(counts, 1) for _ in range(n)]
        cards = concrete(ranks)
        score = score_show(cards[:-1], cards[-1])  # its fifteens, pairs and runs ignore suits
        assert (fifteens, pairs, runs) == (score.points_for("fifteen"), score.points_for("pair"),
                                          score.points_for("run")), cards


hands = st.integers(3, 4).flatmap(
    lambda n: st.lists(st.sampled_from(DECK), min_size=n + 1, max_size=n + 1, unique=True))


@settings(max_examples=600, deadline=None)
@given(cards=hands, crib=st.booleans())
def test_fast_total_equals_score_show(cards: list[Card], crib: bool) -> None:
    assert score_show_total(cards[:-1], cards[-1], crib) == score_show(cards[:-1], cards[-1], crib).total


@pytest.mark.parametrize("hand,starter,crib,total", [
    ("5H 5S 5C JD", "5D", False, 29),
    ("AH 3H 7H 9H", "KS", True, 0),     # crib: no 4-card flush
    ("AH 3H 7H 9H", "KH", True, 5),
    ("JH 2H 4H 6H", "8H", False, 6),    # 5-card flush 5 + nobs 1, nothing else
    ("AH 3H 7H", "KS", False, 3),       # five-card cribbage: 3-card flush
])
def test_fast_total_known_hands(hand: str, starter: str, crib: bool, total: int) -> None:
    cards = [Card.parse(t) for t in hand.split()]
    assert score_show_total(cards, Card.parse(starter), crib) == total
    assert score_show(cards, Card.parse(starter), crib).total == total


@pytest.mark.parametrize("hand_size", [3, 4])
@pytest.mark.parametrize("crib", [False, True])
def test_vectorised_totals_equal_scalar(hand_size: int, crib: bool) -> None:
    rng = np.random.default_rng(hand_size * 2 + crib)
    rows = [rng.choice(52, hand_size + 1, replace=False) for _ in range(2000)]
    cards = [[Card.from_index(int(i)) for i in row] for row in rows]
    ranks = np.array([[c.rank for c in hand] for hand in cards])
    suits = np.array([[SUITS.index(c.suit) for c in hand] for hand in cards])
    expected = [score_show_total(hand[:-1], hand[-1], crib) for hand in cards]
    assert show_totals(ranks, suits, crib).tolist() == expected
