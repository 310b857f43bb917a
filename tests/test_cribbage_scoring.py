"""Show scoring (CR-11/CR-12): classic hands, the edge cases scorers get wrong, and breakdown properties."""
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.cards import Card, full_deck, parse_cards
from controller.cribbage.scoring import count_value, score_show


def show(hand: str, starter: str, crib: bool = False):
    return score_show(parse_cards(hand.split()), Card.parse(starter), crib)


@pytest.mark.parametrize("hand,starter,total", [
    ("5H 5S 5C JD", "5D", 29),          # the highest hand
    ("5H 5S 5C 5D", "JD", 28),          # a jack starter gives no nobs
    ("3H 4H 4S 5H", "6C", 14),          # double run of 4 (10) + 2 fifteens
    ("3H 3S 4H 5H", "5C", 20),          # double-double run of 3 (16) + two 3-3-4-5 fifteens
    ("3H 3S 3C 4H", "5C", 21),          # triple run (15 with the pair royal) + three 3-3-4-5 fifteens
    ("AH 2H 3H 4H", "9S", 12),          # run 4, flush 4, fifteens A23+9, 2+4+9
    ("AH 2H 3H 4H", "9H", 13),          # five-card flush
    ("2C 4D 6S 8H", "KC", 0),           # even cards and a ten never make 15
    ("JH 2S 3C 9D", "7H", 3),           # nobs + 2+3+J
    ("10S JS QS KS", "9H", 4 + 5),      # flush 4 + run of 5
    ("AS 3D 7C 9H", "KS", 0),           # nineteen hand
])
def test_known_hand_totals(hand: str, starter: str, total: int) -> None:
    assert show(hand, starter).total == total


def test_triple_run_breakdown() -> None:
    score = show("3H 3S 3C 4H", "5C")
    assert score.points_for("run") == 9 and score.points_for("pair") == 6
    assert score.points_for("fifteen") == 6  # 3+3+4+5, once for each two of the three threes


def test_crib_flush_needs_the_starter() -> None:
    assert show("AH 3H 7H 9H", "KS").points_for("flush") == 4
    assert show("AH 3H 7H 9H", "KS", crib=True).points_for("flush") == 0
    assert show("AH 3H 7H 9H", "KH", crib=True).points_for("flush") == 5


def test_starter_never_completes_a_hand_flush() -> None:
    assert show("AH 3H 7H 9S", "KH").points_for("flush") == 0


def test_three_card_hand_of_five_card_cribbage() -> None:
    assert show("AH 3H 7H", "KS").points_for("flush") == 3
    assert show("AH 3H 7H", "KH").points_for("flush") == 4


def test_nobs_names_the_jack() -> None:
    part, = [p for p in show("JD 2S 4C 9H", "8D").parts if p.reason == "nobs"]
    assert [str(c) for c in part.cards] == ["JD"] and part.points == 1


def test_pairs_are_same_rank_not_same_value() -> None:
    assert show("JH QH 2S 4C", "8D").points_for("pair") == 0


def test_fifteens_list_their_cards() -> None:
    fifteens = [sorted(str(c) for c in p.cards) for p in show("5H 10S 2C 3D", "KD").parts if p.reason == "fifteen"]
    assert sorted(fifteens) == sorted([["10S", "5H"], ["5H", "KD"], ["10S", "2C", "3D"], ["2C", "3D", "KD"]])


def test_duplicate_card_is_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        show("5H 5H 2C 3D", "KD")


def brute_force_total(hand: list[Card], starter: Card, crib: bool) -> int:
    """An independent, deliberately naive scorer (rank counting) to check the breakdown scorer."""
    cards = hand + [starter]
    total = sum(2 for n in range(2, 6) for c in combinations(cards, n) if sum(count_value(x) for x in c) == 15)
    total += sum(2 for a, b in combinations(cards, 2) if a.rank == b.rank)
    counts = [sum(1 for c in cards if c.rank == r) for r in range(1, 15)]
    best = 0
    for start in range(1, 12):
        length = 0
        while start + length <= 13 and counts[start - 1 + length]:
            length += 1
        if length >= 3 and length > best:
            product = 1
            for r in range(start, start + length):
                product *= counts[r - 1]
            best, total_run = length, length * product
    total += total_run if best else 0
    if len({c.suit for c in hand}) == 1:
        if starter.suit == hand[0].suit:
            total += len(hand) + 1
        elif not crib:
            total += len(hand)
    total += sum(1 for c in hand if c.rank == 11 and c.suit == starter.suit)
    return total


@settings(max_examples=400, deadline=None)
@given(st.permutations(full_deck()), st.booleans())
def test_breakdown_sums_to_total_and_matches_a_naive_scorer(deck: list[Card], crib: bool) -> None:
    hand, starter = deck[:4], deck[4]
    score = score_show(hand, starter, crib)
    assert sum(p.points for p in score.parts) == score.total
    assert score.total == brute_force_total(hand, starter, crib)
    assert score.total not in (19, 25, 26, 27) and 0 <= score.total <= 29
