"""Review scenarios for the Färbeln engine, written from controller/ferbli/RULES.md, aimed at what the first
test pass covers thinly: the evaluator against an independent model of FB-R8..R10, the mus, efterhand,
buying, the talon reshuffle, the last joiner, ties across the dealer, the carry, table stakes, and every
illegal event class at every step of a full deal.

Every accepted event goes through `play` (chips conserved after each); every rejection through `rejected`
(the reason names the fault, and the engine equals a deep copy taken before the event).
"""
from __future__ import annotations

import copy
import itertools
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from controller.cards import Card, parse_cards, piquet_deck
from controller.cli import main
from controller.engine import Event, IllegalEvent
from controller.ferbli.game import FerbliGame
from controller.ferbli.hands import evaluate
from ferbli_support import act, buy, card, chips_of, deal, fold, join, play, rejected, table


def show(seat: int) -> Event:
    return act("show", seat)


def showdown(effects: list[dict[str, Any]]) -> dict[int, str]:
    return {entry["seat"]: entry["hand"] for e in effects if "showdown" in e for entry in e["showdown"]}


# ---- FB-R7..R10: the evaluator against an independent model of the rules -------------------------------

def spec_value(hand: tuple[Card, ...]) -> tuple[int, int]:
    """FB-R8 category (6 = four of a rank .. 1 = two of a suit, 0 = worthless) and the FB-R9 number, using
    FB-R10: only the highest combination counts."""
    pip = {1: 11, 13: 10, 12: 10, 11: 10, 10: 10, 9: 9, 8: 8, 7: 7}
    strength = {1: 14, 13: 13, 12: 12, 11: 11, 10: 10, 9: 9, 8: 8, 7: 7}
    ranks = Counter(c.rank for c in hand)
    suits: dict[Any, list[int]] = {}
    for c in hand:
        suits.setdefault(c.suit, []).append(pip[c.rank])
    rank, count = max(ranks.items(), key=lambda item: (item[1], strength[item[0]]))
    if count == 4:
        return 6, strength[rank]
    if max(len(v) for v in suits.values()) == 4:
        return 5, sum(pip[c.rank] for c in hand)
    if count == 3:
        return 4, strength[rank]
    if max(len(v) for v in suits.values()) == 3:
        return 3, max(sum(v) for v in suits.values() if len(v) == 3)
    if ranks[1] == 2:
        return 2, 14
    pairs = [sum(v) for v in suits.values() if len(v) == 2]
    return (1, max(pairs)) if pairs else (0, 0)


def test_fb_r8_r9_r10_every_hand_ranks_exactly_as_the_rules_say() -> None:
    """Over all 35,960 hands: equal by the rules <=> equal for the engine, and the orders agree."""
    by_rule: dict[tuple[int, int], set] = {}
    for hand in itertools.combinations(piquet_deck(), 4):
        by_rule.setdefault(spec_value(hand), set()).add(evaluate(hand))
    assert all(len(values) == 1 for values in by_rule.values())  # no kickers (GAP-FB-3), nothing lost
    engine_order = [next(iter(by_rule[key])) for key in sorted(by_rule)]
    assert all(low < high for low, high in zip(engine_order, engine_order[1:]))


@pytest.mark.parametrize("better,worse", [
    ("AS KS QS AH", "AD AC KH QD"),  # FB-R10: three-flush 31 (not A-A) beats a pair of aces
    ("7S 8S 9S KH", "AS AH KD QC"),  # the lowest three-flush (24) beats A-A
    ("AS AH 7C 8D", "AC KC QD JH"),  # A-A beats the best two-flush (21)
    ("KS QS KH 7H", "KD 9D QC 8H"),  # two pair is no combination: its better two-flush 20 beats 19
    ("AS KS 7H 8H", "KS QS KH QH"),  # a 2-2 hand counts its better two-flush: 21 beats 20
    ("7S 7H 7D 8C", "AS KS QS 7H"),  # three of a rank beats any three-flush
    ("7H 8H 9H 10H", "AS AH AD KC"),  # the lowest four-flush beats three aces
    ("7S 7H 7D 7C", "AS KS QS JS"),  # four of a rank beats the best four-flush
])
def test_fb_r8_r10_examples(better: str, worse: str) -> None:
    assert evaluate(parse_cards(better.split())) > evaluate(parse_cards(worse.split()))


@pytest.mark.parametrize("text,worthless", [
    ("KS KH QD QC", True),  # two pair, four suits: worthless (FB-R8)
    ("KS KH QS QH", False),  # two pair that are also two two-flushes
    ("KS KH 9D 7C", True),  # a pair other than A-A counts nothing
    ("AS KH QD JC", True),  # one ace, four suits
])
def test_fb_r8_pairs_count_only_as_aces(text: str, worthless: bool) -> None:
    assert evaluate(parse_cards(text.split())).worthless is worthless


# ---- FB-R11, R13 the mus -----------------------------------------------------------------------------

def test_fb_r11_only_forehand_before_any_card_and_not_bounded_by_max() -> None:
    game = table(4, min=2, max=5)  # dealer 0: forehand 1, order 1, 2, 3, 0
    for seat in (0, 2, 3):
        rejected(game, act("mus", seat, 7), f"not seat {seat}")
    assert chips_of(play(game, act("mus", 1, 7 * 5))) == {(1, "mus"): -35}  # far above max
    rejected(game, act("mus", 1, 3), "no mus now")
    game = table(4)
    play(game, card(1, "AS"))  # the first card is dealt: too late
    rejected(game, act("mus", 1, 3), "no mus now")


def test_fb_r13_nobody_joins_the_mus_forehand_takes_it_back_and_the_deal_passes() -> None:
    game = table(4, chips=[40, 40, 40, 40])
    play(game, act("mus", 1, 25), deal(["7C", "8C"], ["AS", "KS"], ["AH", "9D"], ["7D", "8D"]))
    rejected(game, act("stake", 1, 5), "no stake now")  # the answers come first (F+1 .. D)
    rejected(game, fold(0), "not your turn: the next to answer (seat 2)")
    play(game, fold(2), fold(3))
    effects = play(game, fold(0))
    assert chips_of(effects) == {(1, "mus_return"): 25}
    assert game.chips.balances == [40, 40, 40, 40] and game.chips.pot == 0
    assert game.summary()["hand_over"] is True and game.summary()["hand_winner"] is None
    rejected(game, {"type": "new_hand", "dealer": 0}, "seat 1 deals")
    play(game, {"type": "new_hand", "dealer": 1})


def test_fb_r13_a_mus_joiner_pays_the_mus_then_the_stake() -> None:
    game = table()
    play(game, act("mus", 1, 12), deal(["7C", "8C"], ["AS", "KS"], ["AH", "9D"]))
    assert chips_of(play(game, join(2))) == {(2, "mus"): -12}
    play(game, join(0), act("stake", 1, 4), deal(["9C", "10C"], ["QS", "7H"], ["AD", "8H"]))
    assert chips_of(play(game, join(2))) == {(2, "stake"): -4}
    assert chips_of(play(game, join(0))) == {(0, "stake"): -4}
    assert game.chips.pot == 48 and game.chips.balances == [84, 84, 84]  # FB-R31


# ---- FB-R14, R17 the opening stake --------------------------------------------------------------------

@pytest.mark.parametrize("amount,ok", [(2, False), (3, True), (8, True), (9, False), (0, False), (-3, False)])
def test_fb_r14_the_opening_stake_is_within_min_and_max(amount: int, ok: bool) -> None:
    game = table(min=3, max=8)
    play(game, deal(["7C", "8C"], ["AS", "KS"], ["AH", "9D"]))
    if ok:
        assert chips_of(play(game, act("stake", 1, amount))) == {(1, "stake"): -amount}
    else:
        rejected(game, act("stake", 1, amount), f"amount {amount} is outside [3, 8]")


def test_fb_r14_forehand_cannot_pass() -> None:
    game = table()
    play(game, deal(["7C", "8C"], ["AS", "KS"], ["AH", "9D"]))
    rejected(game, fold(1), "no fold now")
    rejected(game, show(1), "no show now")
    rejected(game, act("stake", 1, "5"), "'amount' must be an integer")
    rejected(game, deal(["9C", "10C"], ["QS", "7H"], ["AD", "8H"]), "no deal now")


def test_fb_r17_nobody_joins_forehand_wins_with_a_worthless_hand_and_takes_the_carry() -> None:
    game = table(4)
    # deal 1: all worthless at the showdown, the pot of 8 carries (FB-R37)
    play(game, deal(["7S", "8H"], ["9S", "10H"], ["JS", "QH"], ["KS", "7H"]), act("stake", 1, 2),
         deal(["9D", "10C"], ["JD", "QC"], ["KD", "AC"], ["8D", "9C"]), join(2), join(3), join(0))
    effects = play(game, show(0))
    assert {"carry": 8, "reason": "all_worthless"} in effects and game.summary()["hand_winner"] is None
    # deal 2 (dealer 1): forehand 2 holds a worthless hand and nobody joins
    play(game, {"type": "new_hand", "dealer": 1}, deal(["7S", "8H"], ["9S", "10H"], ["JS", "QH"], ["KS", "7H"]),
         act("stake", 2, 6), deal(["9D", "10C"], ["JD", "QC"], ["KD", "AC"], ["8D", "9C"]), fold(3), fold(0))
    effects = play(game, fold(1))
    assert chips_of(effects) == {(2, "pot"): 6, (2, "carry"): 8}
    assert game.summary()["hand_winner"] == 2 and game.chips.carry == 0


# ---- FB-R18, R19 efterhand --------------------------------------------------------------------------

def five_player_first_decision() -> FerbliGame:
    """Five players, dealer 0 (order 1, 2, 3, 4, 0): seats 2 and 3 join, 4 and the dealer fold."""
    game = table(5)
    play(game, deal(["7C", "8C"], ["AS", "KS"], ["AH", "9D"], ["7D", "8D"], ["KH", "QH"]), act("stake", 1, 4),
         deal(["9C", "10C"], ["QS", "7H"], ["AD", "8H"], ["9H", "10D"], ["JC", "JD"]),
         join(2), join(3), fold(4), fold(0))
    return game


def test_fb_r18_efterhand_is_the_last_joiner_not_the_last_seat() -> None:
    game = five_player_first_decision()
    for seat in (1, 2):
        rejected(game, act("raise", seat, 2), "efterhand (seat 3)")
        rejected(game, show(seat), "efterhand (seat 3)")
    rejected(game, show(4), "seat 4 has folded")
    rejected(game, act("expose_demand", 0), "seat 0 has folded")
    assert chips_of(play(game, act("raise", 3, 2))) == {(3, "raise"): -2}


def test_fb_r18_a_seat_all_in_since_the_mus_is_not_efterhand() -> None:
    game = table(chips=[5, 100, 100])  # dealer 0: order 1, 2, 0; the dealer has 5 chips
    play(game, act("mus", 1, 10), deal(["7C", "8C"], ["AS", "KS"], ["AH", "9D"]), join(2))
    assert chips_of(play(game, join(0))) == {(0, "mus"): -5}  # all-in (FB-R39 default)
    play(game, act("stake", 1, 5), deal(["9C", "10C"], ["QS", "7H"], ["AD", "8H"]))
    play(game, join(2))  # the only player who joined in the FB-R16 round: seat 2 is efterhand
    assert chips_of(play(game, act("raise", 2, 3))) == {(2, "raise"): -3}


def test_fb_r19_the_expose_demand_only_by_efterhand_and_only_at_his_first_decision() -> None:
    game = five_player_first_decision()
    rejected(game, act("expose_demand", 2), "only efterhand (seat 3)")
    rejected(game, act("expose_demand", 1), "only efterhand (seat 3)")
    play(game, act("expose_demand", 3))
    rejected(game, act("expose", 3, cards=["AH", "9D"]), "forehand (seat 1)")
    rejected(game, act("expose", 1, cards=["AS", "KS", "QS"]), "exactly two cards")
    play(game, act("expose", 1, cards=["QS", "7H"]))
    play(game, act("raise", 3, 2))
    rejected(game, act("expose_demand", 3), "no expose_demand now")  # during the answers
    play(game, join(1), join(2))
    rejected(game, act("expose_demand", 3), "no expose_demand now")  # during buying
    play(game, buy(1, "stand"), buy(2, "stand"), buy(3, "stand"))
    rejected(game, act("expose_demand", 3), "no expose_demand now")  # at the decider's decision
    play(game, act("bet", 1, 2), join(2), join(3))
    rejected(game, act("expose_demand", 3), "no expose_demand now")  # the last joiner's decision
    play(game, show(3))


# ---- FB-R21, R27 responders may not raise ------------------------------------------------------------

def test_fb_r21_r27_responders_may_only_join_or_fold() -> None:
    game = five_player_first_decision()
    play(game, act("raise", 3, 2))
    for kind in ("raise", "bet", "stake"):
        rejected(game, act(kind, 1, 5), f"no {kind} now")
    play(game, join(1), join(2))
    rejected(game, act("raise", 2, 5), "no raise now")  # FB-R21: nobody re-raises before buying
    play(game, buy(1, "stand"), buy(2, "stand"), buy(3, "stand"), act("bet", 1, 3))
    for kind in ("raise", "bet"):
        rejected(game, act(kind, 2, 5), f"no {kind} now")
    assert chips_of(play(game, join(2))) == {(2, "bet"): -3}


# ---- FB-R22..R24 buying -------------------------------------------------------------------------------

def buying_with_forehand_out() -> FerbliGame:
    """Four players, dealer 2 (order 3, 0, 1, 2): all join, E = 2 raises, forehand 3 folds to it."""
    game = table(4, dealer=2)
    play(game, deal(["7C", "8C"], ["AS", "KS"], ["AH", "9D"], ["7D", "8D"]), act("stake", 3, 3),
         deal(["9C", "10C"], ["QS", "7H"], ["AD", "8H"], ["9H", "10D"]), join(0), join(1), join(2),
         act("raise", 2, 4), fold(3), join(0), join(1))
    return game


def test_fb_r23_buying_starts_left_of_the_dealer_with_the_first_player_still_in() -> None:
    game = buying_with_forehand_out()  # seat 3 (forehand) folded: seat 0 buys first, then 1, then 2
    rejected(game, buy(3, "stand"), "seat 3 has folded")
    rejected(game, buy(1, "stand"), "the next buyer (seat 0)")
    rejected(game, buy(2, "stand"), "the next buyer (seat 0)")
    play(game, buy(0, "stand"))
    rejected(game, buy(0, "stand"), "the next buyer (seat 1)")  # each buyer acts once
    play(game, buy(1, "replace", "QS"), card(1, "JS"), buy(2, "stand"))
    rejected(game, buy(0, "stand"), "no buy now")
    rejected(game, act("bet", 1, 3), "the decider (seat 0)")  # FB-R26: L = first still in from the dealer's left
    assert chips_of(play(game, act("bet", 0, 3))) == {(0, "bet"): -3}


@pytest.mark.parametrize("option,count", [(o, n) for o in ("upcard", "replace", "all", "stand") for n in range(5)])
def test_fb_r24_each_option_takes_exactly_its_discard_count(option: str, count: int) -> None:
    allowed = {"upcard": {1}, "replace": {1, 2, 3}, "all": {4}, "stand": {0}}[option]
    game = buying_with_forehand_out()
    held = ["9C", "10C", "7C", "8C"][:count]  # seat 0 holds 7C 8C 9C 10C
    event = buy(0, option, *held)
    if count in allowed:
        play(game, event)
        due = {"upcard": 1, "replace": count, "all": 4, "stand": 0}[option]
        assert len(game.to_deal) == due
    else:
        rejected(game, event, f"option {option} discards")


def test_fb_r24_discards_leave_the_deal_and_the_upcard_stays_in_the_known_hand() -> None:
    game = table()  # unread deal, dealer 0: order 1, 2, 0
    play(game, deal([None, None], [None, None], [None, None]), act("stake", 1, 2),
         deal([None, None], [None, None], [None, None]), join(2), join(0), act("raise", 0, 2), join(1), join(2))
    play(game, buy(1, "upcard", "7H"), card(1, "AS", up=True))  # the upcard is face up: public
    play(game, buy(2, "replace", None))
    rejected(game, card(2, "7H"), "7H is already in the discards")
    rejected(game, card(2, "AS"), "AS is already in seat 1's hand")
    play(game, card(2, None), buy(0, "stand"), show(1))
    rejected(game, act("reveal", 1, cards=["KS", "QS", "JS", "10S"]), "leaves out AS")
    rejected(game, act("reveal", 1, cards=["AS", "KS", "QS", "7H"]), "7H")  # discarded, not held
    play(game, act("reveal", 1, cards=["AS", "KS", "QS", "JS"]))


@pytest.mark.parametrize("option,discard,face_down", [
    ("upcard", ["7C"], []),
    ("all", ["7C", "8C", "9C", "10C"], ["JS", "10S", "9S"]),
])
def test_fb_r24_the_upcard_must_arrive_face_up(option: str, discard: list[str], face_down: list[str]) -> None:
    game = buying_with_forehand_out()
    play(game, buy(0, option, *discard), *[card(0, c) for c in face_down])
    rejected(game, card(0, "AC"), "face up")  # no "up": true where the rules turn the card face up


# ---- FB-R25 the talon reshuffle (GAP-FB-9) ----------------------------------------------------------------

def test_fb_r25_reshuffle_uses_earlier_buyers_discards_never_folded_hands_or_the_buyers_own() -> None:
    game = table(7)  # dealer 0: order 1..6, 0; 28 cards dealt, the four aces stay in the talon
    cards = [str(c) for c in piquet_deck() if c.rank != 1]
    hands = [cards[4 * seat:4 * seat + 4] for seat in range(7)]
    play(game, deal(*[h[:2] for h in hands]), act("stake", 1, 1), deal(*[h[2:] for h in hands]),
         *[join(seat) for seat in (2, 3, 4, 5, 6, 0)], act("raise", 0, 1),
         *[join(seat) for seat in (1, 2, 3, 4, 5)], fold(6))

    def talon_and_pile() -> int:
        return game.book.talon + len(game.book.pile)

    assert talon_and_pile() == 4
    play(game, buy(1, "replace", *hands[1][:3]), card(1, "AS"), card(1, "AH"), card(1, "AD"))
    assert talon_and_pile() == 4  # FB-R25: talon + earlier buyers' discards = the first talon
    play(game, buy(2, "replace", *hands[2][:2]), card(2, "AC"))  # the talon is now empty
    rejected(game, card(2, hands[6][0]), f"{hands[6][0]} is already in seat 6's hand")  # folded hand stays out
    rejected(game, card(2, hands[2][0]), "already in the discards")  # his own discards stay out
    effects = play(game, card(2, hands[1][0]))
    assert effects == [{"talon": "reshuffled", "cards": 3}]
    assert talon_and_pile() == 4
    # a second reshuffle: seat 3 takes the last two reshuffled cards, then seat 2's discards come back
    play(game, buy(3, "replace", *hands[3][:3]), card(3, hands[1][1]), card(3, hands[1][2]))
    rejected(game, card(3, hands[3][1]), "already in the discards")
    effects = play(game, card(3, hands[2][1]))
    assert effects == [{"talon": "reshuffled", "cards": 2}]
    play(game, buy(4, "stand"), buy(5, "stand"), buy(0, "stand"))
    assert talon_and_pile() == 4


# ---- FB-R26..R29 betting after buying --------------------------------------------------------------------

def after_buying(chips: int | list[int] = 100) -> FerbliGame:
    """Three players, dealer 0 (order 1, 2, 0), all in, everybody stands pat: the decider is seat 1.
    seat 1: AS KS QS 7H (three-flush 31); seat 2: 7S 8H 9D 10C (worthless); seat 0: 7C 8C 9C JD (24)."""
    game = table(chips=chips)
    play(game, deal(["7C", "8C"], ["AS", "KS"], ["7S", "8H"]), act("stake", 1, 2),
         deal(["9C", "JD"], ["QS", "7H"], ["9D", "10C"]), join(2), join(0), act("raise", 0, 2), join(1), join(2),
         buy(1, "stand"), buy(2, "stand"), buy(0, "stand"))
    return game


@pytest.mark.parametrize("amount,ok", [(0, False), (1, True), (10, True), (11, False)])
def test_fb_r26_the_deciders_bet_is_within_min_and_max(amount: int, ok: bool) -> None:
    game = after_buying()
    if ok:
        assert chips_of(play(game, act("bet", 1, amount))) == {(1, "bet"): -amount}
    else:
        rejected(game, act("bet", 1, amount), f"amount {amount} is outside [1, 10]")


def test_fb_r26_no_check_and_only_the_decider() -> None:
    game = after_buying()
    rejected(game, {"type": "check", "seat": 1}, "unknown event type 'check'")
    rejected(game, fold(1), "no fold now")
    rejected(game, act("bet", 2, 3), "the decider (seat 1)")
    rejected(game, act("raise", 1, 3), "no raise now")


def test_fb_r29_the_last_joiner_shows_or_raises_and_the_bettor_pays_the_raise_only() -> None:
    game = after_buying()  # 12 in the pot, each paid 4
    play(game, act("bet", 1, 5), join(2), join(0))
    rejected(game, act("raise", 2, 3), "the last joiner (seat 0)")
    rejected(game, act("raise", 0, 11), "outside [1, 10]")
    play(game, act("raise", 0, 7))
    rejected(game, join(2), "the next to answer (seat 1)")  # clockwise after the raiser
    assert chips_of(play(game, join(1))) == {(1, "raise"): -7}  # the new amount only (FB-R27)
    assert chips_of(play(game, join(2))) == {(2, "raise"): -7}
    rejected(game, show(1), "the last joiner (seat 2)")
    effects = play(game, show(2))
    assert chips_of(effects) == {(1, "pot"): 3 * 16}
    assert game.chips.balances == [84, 132, 84]


def test_fb_r28_r36_an_uncalled_raise_by_the_last_joiner_wins_with_a_worthless_hand() -> None:
    game = after_buying()
    play(game, act("bet", 1, 5), join(2), fold(0))  # seat 2 (worthless) is the last joiner
    play(game, act("raise", 2, 6))
    effects = play(game, fold(1))
    assert chips_of(effects) == {(2, "pot"): 12 + 5 + 5 + 6}
    assert game.summary()["hand_winner"] == 2 and not showdown(effects)


def test_fb_r36_an_uncalled_bet_by_the_decider_wins_and_takes_the_carry() -> None:
    game = table()
    play(game, deal(["7S", "8H"], ["9S", "10H"], ["JS", "QH"]), act("stake", 1, 2),
         deal(["9D", "10C"], ["JD", "QC"], ["KD", "AC"]), join(2), join(0), show(0))  # all worthless: 6 carry
    play(game, {"type": "new_hand"})  # dealer 1: order 2, 0, 1
    play(game, deal(["7S", "8H"], ["9S", "10H"], ["JS", "QH"]), act("stake", 2, 2),
         deal(["9D", "10C"], ["JD", "QC"], ["KD", "AC"]), join(0), join(1), act("raise", 1, 1), join(2), join(0),
         buy(2, "stand"), buy(0, "stand"), buy(1, "stand"), act("bet", 2, 4), fold(0))
    effects = play(game, fold(1))  # seat 2 holds JS QH KD AC: worthless
    assert chips_of(effects) == {(2, "pot"): 9 + 4, (2, "carry"): 6}


# ---- FB-R33..R35 showdown ----------------------------------------------------------------------------

def test_fb_r35_a_tie_goes_to_the_seat_nearest_the_dealers_left_across_seat_zero() -> None:
    # Four players, dealer 2: the deal order is 3, 0, 1, 2. Seats 3, 0 and the dealer hold a two-flush 21.
    game = table(4, dealer=2)
    play(game, deal(["AS", "KS"], ["7C", "8D"], ["AH", "KH"], ["AD", "KD"]), act("stake", 3, 2),
         deal(["7H", "8C"], ["9S", "10H"], ["7S", "9C"], ["10C", "8H"]), join(0), join(1), join(2))
    effects = play(game, show(2))
    assert showdown(effects) == {3: "two-flush 21 in diamonds", 0: "two-flush 21 in spades",
                                 1: "worthless", 2: "two-flush 21 in hearts"}
    assert chips_of(effects) == {(3, "pot"): 8}  # seat 3 received cards first; the dealer loses ties


def test_fb_r33_r34_the_whole_pot_to_the_best_hand_a_worthless_hand_loses_to_any() -> None:
    game = table(4)  # order 1, 2, 3, 0
    play(game, deal(["7S", "8H"], ["9S", "10H"], ["JS", "QH"], ["7C", "8C"]), act("stake", 1, 3),
         deal(["9D", "10C"], ["JD", "QC"], ["KD", "AC"], ["9H", "10D"]), join(2), join(3), join(0))
    effects = play(game, show(0))
    assert showdown(effects) == {1: "worthless", 2: "worthless", 3: "two-flush 15 in clubs", 0: "worthless"}
    assert chips_of(effects) == {(3, "pot"): 12}


# ---- FB-R39 table stakes ----------------------------------------------------------------------------

def test_fb_r39_all_in_two_short_stacks_make_two_side_pots() -> None:
    game = table(4, chips=[100, 100, 6, 12])  # dealer 0: order 1, 2, 3, 0
    play(game, deal(["7C", "8C"], ["AS", "KS"], ["AH", "AD"], ["KH", "QH"]), act("stake", 1, 5),
         deal(["9C", "10C"], ["QS", "7H"], ["7D", "8S"], ["JH", "10H"]), join(2), join(3), join(0),
         act("raise", 0, 10), join(1))
    assert chips_of(play(game, join(2))) == {(2, "raise"): -1}  # all-in for his last chip
    assert chips_of(play(game, join(3))) == {(3, "raise"): -7}
    play(game, buy(1, "stand"), buy(2, "stand"), buy(3, "stand"), buy(0, "stand"), act("bet", 1, 10), join(0))
    effects = play(game, show(0))
    # main pot 4 x 6 = 24 and the first side pot 3 x 6 = 18 go to seat 3 (four-flush 40); the last side
    # pot 2 x 13 = 26 is between seats 1 and 0 only: seat 0's four-flush 34 beats seat 1's three-flush 31
    assert chips_of(effects) == {(3, "pot"): 24, (3, "side_pot"): 18, (0, "side_pot"): 26}
    assert game.chips.balances == [101, 75, 0, 42] and game.chips.pot == 0


def test_fb_r39_must_fold_a_player_who_cannot_pay_the_raise_folds() -> None:
    game = table(chips=[100, 100, 5], table_stakes="must_fold")  # dealer 0: order 1, 2, 0
    play(game, deal(["7C", "8D"], ["9S", "10H"], ["AS", "KS"]), act("stake", 1, 5),
         deal(["9H", "JD"], ["QC", "7D"], ["QS", "JS"]), join(2), join(0))  # seat 2 pays his last 5
    play(game, act("raise", 0, 3), join(1))
    rejected(game, join(2), "must fold")  # he cannot pay 3
    play(game, fold(2))
    play(game, buy(1, "stand"), buy(0, "stand"))
    effects = play(game, show(1))
    assert 2 not in showdown(effects)  # the four-flush 41 folded: it wins nothing
    assert chips_of(effects) == {(0, "pot"): 21}


def test_fb_r39_must_fold_a_mus_joiner_without_chips_must_fold_to_the_stake() -> None:
    game = table(chips=[5, 100, 100], table_stakes="must_fold")  # dealer 0: order 1, 2, 0
    play(game, act("mus", 1, 5), deal(["7C", "8C"], ["AS", "KS"], ["AH", "9D"]), join(2), join(0))
    play(game, act("stake", 1, 3), deal(["9C", "10C"], ["QS", "7H"], ["AD", "8H"]), join(2))
    rejected(game, join(0), "must fold")  # FB-R16: the dealer answers the stake too, and cannot pay it
    play(game, fold(0))
    assert chips_of(play(game, act("raise", 2, 2))) == {(2, "raise"): -2}  # seat 2 is efterhand (FB-R18)


def test_fb_r39_must_fold_a_join_that_cannot_be_covered_is_illegal() -> None:
    game = table(chips=[100, 100, 7], table_stakes="must_fold")
    play(game, deal(["7C", "8D"], ["9S", "10H"], ["AS", "KS"]), act("stake", 1, 5),
         deal(["9H", "JD"], ["QC", "7D"], ["QS", "JS"]), join(2), join(0), act("raise", 0, 3), join(1))
    rejected(game, join(2), "seat 2 holds 2 chips, cannot pay 3: it must fold")
    play(game, fold(2))
    assert game.buyers == [1, 0]


# ---- FB-R32 every illegal event at every step of a full deal ------------------------------------------

# Four players, dealer 0 (order 1, 2, 3, 0), min 1, max 10. Each step: the (type, seat) pairs the rules allow
# next (FB-R32 and the phase rules), then the event played.
F, SEATS = 1, (0, 1, 2, 3)
SCRIPT: list[tuple[set[tuple[str, int | None]], Event]] = [
    ({("mus", F), ("deal", 1)}, act("mus", 1, 12)),
    *[({("deal", s)}, card(s, c)) for s, c in zip((1, 2, 3, 0, 1, 2, 3, 0),
                                                    ("AS", "AH", "7D", "7C", "KS", "9D", "8D", "8C"))],
    ({("join", 2), ("fold", 2)}, join(2)),
    ({("join", 3), ("fold", 3)}, join(3)),
    ({("join", 0), ("fold", 0)}, fold(0)),
    ({("stake", F)}, act("stake", 1, 5)),
    *[({("deal", s)}, card(s, c)) for s, c in zip((1, 2, 3, 1, 2, 3), ("QS", "AD", "9H", "7H", "8H", "10D"))],
    ({("join", 2), ("fold", 2)}, join(2)),
    ({("join", 3), ("fold", 3)}, join(3)),
    ({("expose_demand", 3), ("show", 3), ("raise", 3)}, act("expose_demand", 3)),
    ({("expose", F)}, act("expose", 1, cards=["AS", "7H"])),
    ({("show", 3), ("raise", 3)}, act("raise", 3, 4)),
    ({("join", 1), ("fold", 1)}, join(1)),
    ({("join", 2), ("fold", 2)}, join(2)),
    ({("buy", 1)}, buy(1, "upcard", "7H")),
    ({("deal", 1)}, card(1, "JS", up=True)),
    ({("buy", 2)}, buy(2, "replace", "9D", "8H")),
    ({("deal", 2)}, card(2, "KD")),
    ({("deal", 2)}, card(2, "QD")),
    ({("buy", 3)}, buy(3, "all", "7D", "8D", "9H", "10D")),
    *[({("deal", 3)}, card(3, c, up=up)) for c, up in (("AC", False), ("KC", False), ("QC", False), ("JC", True))],
    ({("show", 1), ("bet", 1)}, act("bet", 1, 6)),
    ({("join", 2), ("fold", 2)}, join(2)),
    ({("join", 3), ("fold", 3)}, join(3)),
    ({("show", 3), ("raise", 3)}, act("raise", 3, 2)),
    ({("join", 1), ("fold", 1)}, join(1)),
    ({("join", 2), ("fold", 2)}, fold(2)),
    ({("show", 1), ("raise", 1)}, show(1)),
]
FRESH = ["10S", "9S", "8S", "7S", "10H", "10C", "9C", "JH", "JD"]  # never dealt in the script


def probes(game: FerbliGame) -> list[tuple[str, int | None, Event]]:
    """One well-formed event of every type for every seat (cards and amounts that could be legal)."""
    fresh = next(c for c in FRESH if Card.parse(c) not in game.book.seen)
    found: list[tuple[str, int | None, Event]] = [("new_hand", None, {"type": "new_hand"})]
    for seat in SEATS:
        held = [str(c) for c in game.book.hands[seat] if c is not None]
        found += [
            ("mus", seat, act("mus", seat, 5)), ("stake", seat, act("stake", seat, 5)),
            ("join", seat, join(seat)), ("fold", seat, fold(seat)), ("show", seat, show(seat)),
            ("raise", seat, act("raise", seat, 3)), ("bet", seat, act("bet", seat, 3)),
            ("expose_demand", seat, act("expose_demand", seat)),
            ("buy", seat, buy(seat, "stand")), ("deal", seat, card(seat, fresh, up=False)),
        ]
        if len(held) >= 2:
            found.append(("expose", seat, act("expose", seat, cards=held[:2])))
        if len(held) == 4:
            found.append(("reveal", seat, act("reveal", seat, cards=held)))
    return found


def test_fb_r32_every_event_the_rules_do_not_allow_is_rejected_and_changes_nothing() -> None:
    game = table(4)
    total = game.chips.total
    checked = 0
    for step, (allowed, event) in enumerate(SCRIPT):
        for kind, seat, probe in probes(game):
            if (kind, seat) in allowed:
                continue
            if kind == "deal" and any(k == "deal" for k, _ in allowed):
                continue  # a deal to the wrong seat: checked below with a specific reason
            before = copy.deepcopy(game)
            with pytest.raises(IllegalEvent) as info:
                game.apply(probe)
            assert game == before, f"step {step}: {probe} changed the state"
            reason = str(info.value)
            assert seat is None or str(seat) in reason or f"no {kind} now" in reason, (step, probe, reason)
            checked += 1
        due = next((s for k, s in allowed if k == "deal"), None)
        if due is not None:
            for seat in SEATS:
                if seat != due:
                    rejected(game, card(seat, FRESH[-1]), f"the next card goes to seat {due}, not seat {seat}")
        play(game, event)
        assert game.chips.total == total
        if game.round is None and game.phase.name not in ("DEAL_1", "DEAL_2", "MUS_DECISION", "HAND_OVER"):
            paid = {game.committed[s] for s in game.live}
            assert len(paid) == 1, (step, game.committed)  # FB-R31 after each completed round
    assert game.summary()["hand_over"] and checked > 1000
    # seats 1 (AS KS QS JS) and 3 (AC KC QC JC) tie on a four-flush 41: seat 1 is nearer the dealer's left
    assert game.summary()["hand_winner"] == 1


# ---- cardtable replay --------------------------------------------------------------------------------

def test_replay_settles_on_the_show_line_and_the_summary_adds_up(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    header = {"format": "cardtable-history/1", "game": "ferbli", "players": ["A", "B", "C"], "dealer": 2,
              "options": {"min": 1, "max": 5}, "chips": [20, 20, 20]}
    events = [
        {"type": "mus", "seat": 0, "amount": 8},  # forehand is seat 0; the mus may exceed max
        {"type": "deal", "hands": [["AS", "KS"], ["AH", "9D"], ["7C", "8C"]]},
        {"type": "join", "seat": 1},
        {"type": "join", "seat": 2},
        {"type": "stake", "seat": 0, "amount": 6},  # refused: above max
        {"type": "stake", "seat": 0, "amount": 2},
        {"type": "deal", "hands": [["QS", "7H"], ["AD", "8H"], ["9C", "10C"]]},
        {"type": "join", "seat": 1},
        {"type": "fold", "seat": 2},
        {"type": "show", "seat": 1},
    ]
    path = tmp_path / "ferbli.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in [header, *events]) + "\n", encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    *results, summary = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["n"] for r in results] == list(range(2, 2 + len(events)))
    assert results[0] == {"n": 2, "ok": True, "effects": [{"seat": 0, "chips": -8, "reason": "mus"}]}
    assert results[4]["ok"] is False and "amount 6 is outside [1, 5]" in results[4]["error"]
    settle = results[-1]["effects"]
    assert showdown(settle) == {0: "three-flush 31 in spades", 1: "pair of aces"}
    assert [e for e in settle if "chips" in e] == [{"seat": 0, "chips": 8 * 3 + 2 * 2, "reason": "pot"}]
    assert settle[-1] == {"deal_over": "showdown", "hand_winner": 0}
    assert summary == {"type": "summary", "game": "ferbli", "scores": None, "chips": [38, 10, 12], "pot": 0,
                       "carry": 0, "hand_over": True, "hand_winner": 0, "winner": None, "violations": []}
