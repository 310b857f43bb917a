"""The Färbeln hand evaluator (FB-R7..FB-R10) and `cardtable ferbli rank`."""
from __future__ import annotations

import itertools
import json
import subprocess
import sys
from collections import Counter

import pytest

from controller.cards import Card, parse_cards, piquet_deck
from controller.cli import main
from controller.ferbli.hands import Category, HandError, evaluate, pips


def value(text: str):
    return evaluate(parse_cards(text.split()))


def test_fb_r7_pip_values() -> None:
    assert [pips(Card.parse(c)) for c in "AS KS QS JS 10S 9S 8S 7S".split()] == [11, 10, 10, 10, 10, 9, 8, 7]
    assert value("AS KS QS JS").key == (Category.FOUR_FLUSH, 41)
    assert value("7H 8H 9H 10H").key == (Category.FOUR_FLUSH, 34)
    assert value("AD KD QD 7C").key == (Category.THREE_FLUSH, 31)
    assert value("AC 10C 7D 8H").key == (Category.TWO_FLUSH, 21)
    assert value("7C 8C 9D 10H").key == (Category.TWO_FLUSH, 15)


# FB-R8: one example per category, listed from low to high.
LADDER = [
    ("7S 8H 9D 10C", Category.WORTHLESS, "worthless"),
    ("AC KC 9D 8H", Category.TWO_FLUSH, "two-flush 21 in clubs"),
    ("AS AH 7C 8D", Category.PAIR_OF_ACES, "pair of aces"),
    ("AS KS QS AH", Category.THREE_FLUSH, "three-flush 31 in spades"),
    ("7S 7H 7D 8C", Category.THREE_OF_A_RANK, "three sevens"),
    ("7H 8H 9H 10H", Category.FOUR_FLUSH, "four-flush 34 in hearts"),
    ("KS KH KD KC", Category.FOUR_OF_A_RANK, "four kings"),
]


@pytest.mark.parametrize("text,category,name", LADDER)
def test_fb_r8_categories_and_names(text: str, category: Category, name: str) -> None:
    hand = value(text)
    assert (hand.category, hand.name) == (category, name)


def test_fb_r8_category_order_beats_any_number_within() -> None:
    values = [value(text) for text, _, _ in LADDER]
    assert values == sorted(values) and len(set(values)) == len(values)
    # the lowest hand of each category beats the highest of the category below
    assert value("7C 8C 9D 10H") > value("7S 8H 9D 10C")
    assert value("AS AH 7C 8D") > value("AC KC QD JH")
    assert value("7S 8S 9S KH") > value("AS AH KD QC")
    assert value("7S 7H 7D 8C") > value("AS KS QS 7H")
    assert value("7H 8H 9H 10H") > value("AS AH AD KC")
    assert value("7S 7H 7D 7C") > value("AS KS QS JS")


def test_fb_r8_only_aces_pair_and_no_two_pairs() -> None:
    assert value("KS KH 9D 7C").category is Category.WORTHLESS
    assert value("KS KH QD QC").category is Category.WORTHLESS
    assert value("KS KH AD AC").category is Category.PAIR_OF_ACES


ALL_HANDS = [(hand, evaluate(hand)) for hand in itertools.combinations(piquet_deck(), 4)]


def test_fb_r8_worthless_exactly_when_four_suits_few_aces_no_trips() -> None:
    """The derived rule, over every one of the C(32, 4) = 35,960 hands."""
    assert len(ALL_HANDS) == 35960
    for hand, hand_value in ALL_HANDS:
        four_suits = len({c.suit for c in hand}) == 4
        aces = sum(c.rank == 1 for c in hand)
        trips = max(Counter(c.rank for c in hand).values()) >= 3
        assert hand_value.worthless == (four_suits and aces < 2 and not trips), hand


def test_fb_r8_category_counts_match_combinatorics() -> None:
    """Counts derived by hand: 4-rank 8 ranks; 4-flush 4*C(8,4); 3-rank 8*4*28; 3-flush 4*C(8,3)*24;
    A-A 6*C(28,2) minus the 6*2*C(7,2) that are three-flushes; worthless 8^4 - 323 (two+ aces)
    - 196 (other trips) - 7 (other quads); two-flush takes the rest of the 35,960."""
    counts = Counter(hand_value.category for _, hand_value in ALL_HANDS)
    expected = {Category.FOUR_OF_A_RANK: 8, Category.FOUR_FLUSH: 280, Category.THREE_OF_A_RANK: 896,
                Category.THREE_FLUSH: 5376, Category.PAIR_OF_ACES: 2016, Category.WORTHLESS: 3570}
    expected[Category.TWO_FLUSH] = 35960 - sum(expected.values())
    assert counts == expected


def test_fb_r9_same_category_compares_pip_sum_or_rank() -> None:
    assert value("AS KS 10S 7H") > value("AH KH 9H 7S")  # 31 > 30
    assert value("AS KS QS 7H") == value("AH KH JH 7S")  # Q and J both count 10
    assert value("AS KS 9S 7H") == value("KH QH JH 7S")  # 11+10+9 = 10+10+10
    assert value("8S 9S 10S JS") > value("7H 8H 9H 10H")
    assert value("KC QC 8D 9H") > value("AC 7C 8D 9H")  # two-flush K+Q = 20 beats A+7 = 18
    assert value("AS AH AD 7C") > value("KS KH KD 7C") > value("7S 7H 7D 8C")
    assert value("8S 8H 8D 8C") > value("7S 7H 7D 7C")


def test_fb_r10_only_the_best_combination_counts() -> None:
    assert value("AS KS QS AH").name == "three-flush 31 in spades"
    assert value("KS QS KH 7H").name == "two-flush 20 in spades"  # a 2-2 hand counts its better two-flush
    assert value("AS 7S KH 8H").key == (Category.TWO_FLUSH, 18)


def test_fb_r10_no_kickers_gap_fb_3() -> None:
    assert value("AS AH 7C 8D") == value("AD AC KS QH")  # A-A against A-A ties whatever else is held
    assert value("AS KS 7H 8D") == value("AC KC 7D 8H")
    assert value("KS QS 7H 8D") == value("KC JC AD 7H")


@pytest.mark.parametrize("cards,fragment", [
    ("AS KS QS", "4 cards, got 3"),
    ("AS KS QS JS 10S", "4 cards, got 5"),
    ("AS KS QS AS", "AS is listed twice"),
    ("AS KS QS 2H", "2H is not in the 32-card"),
])
def test_bad_hands_are_named(cards: str, fragment: str) -> None:
    with pytest.raises(HandError, match=fragment):
        value(cards)


def test_cli_rank_prints_name_and_key(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ferbli", "rank", "AS", "KS", "QS", "AH"]) == 0
    assert capsys.readouterr().out == "three-flush 31 in spades  (key 3 31)\n"
    assert main(["ferbli", "rank", "--json", "as", "ah", "7c", "8♦"]) == 0
    assert json.loads(capsys.readouterr().out) == {"cards": ["AS", "AH", "7C", "8D"], "name": "pair of aces",
                                                   "category": "pair_of_aces", "key": [2, 14]}


@pytest.mark.parametrize("cards,fragment", [
    (["AS", "KS", "ZZ", "7H"], "not a card: 'ZZ'"),
    (["AS", "KS", "2H", "7H"], "2H is not in the 32-card"),
    (["AS", "KS"], "4 cards, got 2"),
])
def test_cli_rank_bad_cards_exit_2(cards: list[str], fragment: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ferbli", "rank", *cards]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and fragment in captured.err


def test_installed_command_runs() -> None:
    done = subprocess.run([sys.executable, "-m", "controller.cli", "ferbli", "rank", "7S", "7H", "7D", "7C"],
                          capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout) == (0, "four sevens  (key 6 7)\n")
