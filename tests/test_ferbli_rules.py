"""One scenario per numbered rule of controller/ferbli/RULES.md (FB-R1..FB-R40), written from it.

The standard table: three players, dealer seat 0, so forehand is seat 1 and the deal order is 1, 2, 0.
FIRST and SECOND deal the hands  seat 0: 7C 8C 9C 10C (four-flush 34)  seat 1: AS KS QS 7H (three-flush
31)  seat 2: AH 9D AD 8H (pair of aces); the talon then holds the 20 cards of TALON.
"""
from __future__ import annotations

import pytest

from controller.cards import parse_cards, piquet_deck
from controller.engine import SetupError
from controller.ferbli.draw import DrawError, dealer_by_draw
from controller.ferbli.game import FerbliGame
from controller.ferbli.phases import Phase
from ferbli_support import act, buy, card, chips_of, deal, fold, join, play, rejected, table

FIRST = deal(["7C", "8C"], ["AS", "KS"], ["AH", "9D"])
SECOND = deal(["9C", "10C"], ["QS", "7H"], ["AD", "8H"])
TALON = "JS 10S 9S 8S 7S KH QH JH 10H 9H KD QD JD 10D 8D 7D AC KC QC JC".split()
SHOW = {"type": "show"}


def first_decision(game: FerbliGame | None = None) -> FerbliGame:
    """Forehand stakes 5, both others join: efterhand is the dealer, seat 0; the pot holds 15."""
    game = game or table()
    play(game, FIRST, act("stake", 1, 5), SECOND, join(2), join(0))
    return game


def buying(game: FerbliGame | None = None) -> FerbliGame:
    """Efterhand raises 4 and both join: the pot holds 27 and everybody buys, seat 1 first."""
    game = first_decision(game)
    play(game, act("raise", 0, 4), join(1), join(2))
    return game


def deciding(game: FerbliGame | None = None) -> FerbliGame:
    """Everybody stands pat: seat 1 is the decider."""
    game = buying(game)
    play(game, buy(1, "stand"), buy(2, "stand"), buy(0, "stand"))
    return game


def forehand_wins_uncalled(game: FerbliGame) -> None:
    """A short deal for any dealer: forehand stakes 1 and everybody folds."""
    play(game, FIRST, act("stake", game.forehand, 1), SECOND, *[fold(seat) for seat in game.order[1:]])


def worthless_showdown(game: FerbliGame) -> None:
    """Every hand worthless: forehand stakes 2, both join, efterhand shows (pot 6 carries)."""
    play(game, deal(["7S", "8H"], ["9S", "10H"], ["JS", "QH"]), act("stake", game.forehand, 2),
         deal(["9D", "10C"], ["JD", "QC"], ["KD", "AC"]), join(game.order[1]), join(game.order[2]),
         act("show", game.order[2]))


# ------------------------------------------------------------------------------- A. table, deck, dealer

@pytest.mark.parametrize("players", [2, 8])
def test_fb_r1_other_player_counts_are_rejected(players: int) -> None:
    with pytest.raises(SetupError, match="3 to 7 players"):
        table(players)


@pytest.mark.parametrize("players", [3, 7])
def test_fb_r1_three_to_seven_players_play(players: int) -> None:
    game = table(players)
    assert game.order == tuple([*range(1, players), 0])


def test_fb_r2_thirty_two_cards() -> None:
    assert len(piquet_deck()) == 32
    game = table()
    rejected(game, card(1, "6S"), "6S is not in the 32-card Färbeln deck")
    play(game, card(1, "AS"))
    rejected(game, card(2, "AS"), "card AS is already in seat 1's hand")


def test_fb_r3_stakes_within_min_and_max() -> None:
    game = table(min=2, max=6)
    play(game, FIRST)
    rejected(game, act("stake", 1, 1), "amount 1 is outside [2, 6]")
    rejected(game, act("stake", 1, 7), "amount 7 is outside [2, 6]")
    play(game, act("stake", 1, 6))
    assert game.chips.pot == 6


def test_fb_r3_the_mus_is_not_bounded_by_max() -> None:
    game = table(min=2, max=6)
    assert chips_of(play(game, act("mus", 1, 40))) == {(1, "mus"): -40}


@pytest.mark.parametrize("options,fragment", [
    ({"min": 0, "max": 5}, "1 <= min <= max"),
    ({"min": 6, "max": 5}, "1 <= min <= max"),
    ({"max": "ten"}, "option max must be an integer"),
    ({"limit": 3}, "unknown option(s) limit"),
    ({"table_stakes": "rebuy"}, "table_stakes must be one of"),
])
def test_fb_r3_bad_bounds_are_setup_errors(options: dict, fragment: str) -> None:
    with pytest.raises(SetupError) as info:
        table(**options)
    assert fragment in str(info.value)


def test_fb_r3_min_and_max_are_required() -> None:
    from controller.ferbli.options import parse_ferbli_options
    with pytest.raises(SetupError, match="needs the option\\(s\\) max"):
        parse_ferbli_options({"min": 1})


def test_fb_r4_highest_rank_draws_the_deal() -> None:
    cards = [parse_cards(["KS", "7H", "AS"])]
    assert dealer_by_draw(cards, [0, 1, 2]) == 2
    assert dealer_by_draw([parse_cards(["10S", "JH", "9S"])], [0, 1, 2]) == 1  # J > 10 > 9


def test_fb_r4_gap_fb_1_tied_players_draw_again() -> None:
    first = parse_cards(["AS", "9H", "AD"])
    again = [parse_cards(["7C"])[0], None, parse_cards(["8C"])[0]]
    assert dealer_by_draw([first, again], [0, 1, 2]) == 2
    with pytest.raises(DrawError, match="tied between seats 0, 2: they must draw again"):
        dealer_by_draw([first], [0, 1, 2])
    with pytest.raises(DrawError, match="seats 0, 2 must draw, got cards from seats 0, 1, 2"):
        dealer_by_draw([first, parse_cards(["7C", "8H", "9C"])], [0, 1, 2])


def test_fb_r5_the_deal_passes_clockwise() -> None:
    game = table()
    forehand_wins_uncalled(game)
    rejected(game, {"type": "new_hand", "dealer": 2}, "seat 1 deals: the deal passes clockwise")
    play(game, {"type": "new_hand", "dealer": 1})
    assert (game.dealer, game.order) == (1, (2, 0, 1))


def test_fb_r5_gap_fb_2_a_draw_for_the_deal_by_all_players() -> None:
    game = table()
    forehand_wins_uncalled(game)
    rejected(game, {"type": "new_hand", "draw": [["AS", "KS", None]]}, "seats 0, 1, 2 must draw")
    rejected(game, {"type": "new_hand", "draw": [["AS", "KS", "AH"]]}, "they must draw again")
    play(game, {"type": "new_hand", "draw": [["AS", "KS", "AH"], ["7C", None, "8C"]], "dealer": 2})
    assert (game.dealer, game.forehand) == (2, 0)


def test_fb_r6_no_ante() -> None:
    game = table()
    assert play(game, card(1, "AS")) == [] and game.chips.pot == 0
    game = table()
    worthless_showdown(game)
    effects = play(game, {"type": "new_hand"})
    assert effects == [] and (game.chips.pot, game.chips.carry) == (0, 6)


# ------------------------------------------------------------------------------- B. hand values at the table

def test_fb_r7_r8_r9_showdown_compares_categories_and_pip_sums() -> None:
    game = first_decision()
    effects = play(game, act("show", 0))
    shown = {entry["seat"]: entry["hand"] for entry in effects[0]["showdown"]}
    assert shown == {1: "three-flush 31 in spades", 2: "pair of aces", 0: "four-flush 34 in clubs"}
    assert chips_of(effects) == {(0, "pot"): 15}


def test_fb_r10_only_the_best_combination_and_no_kickers() -> None:
    game = table()
    # seat 1: AS KS QS AH is a three-flush 31, not the pair of aces; seat 2 has a three-flush 31 too.
    play(game, deal(["7C", "8D"], ["AS", "KS"], ["AD", "KD"]), act("stake", 1, 3),
         deal(["9H", "10S"], ["QS", "AH"], ["JD", "7H"]), join(2), join(0))
    effects = play(game, act("show", 0))
    assert chips_of(effects) == {(1, "pot"): 9}  # equal 31s: seat 1 is nearer the dealer's left


# ------------------------------------------------------------------------------- C. deal flow

def test_fb_r11_only_forehand_declares_a_mus_before_the_deal() -> None:
    game = table()
    rejected(game, act("mus", 2, 5), "not your turn: only forehand (seat 1) is to act, not seat 2")
    rejected(game, act("mus", 1, 0), "a mus must be at least 1")
    rejected(game, act("mus", 1, 100), "would not leave 1 for the opening stake (at most 99)")
    play(game, card(1, "AS"))
    rejected(game, act("mus", 1, 5), "no mus now")


def test_fb_r11_gap_fb_4_mus_lower_bound_option() -> None:
    game = table(mus_min=15)
    rejected(game, act("mus", 1, 14), "a mus must be at least 15")
    play(game, act("mus", 1, 15))
    rejected(game, act("mus", 1, 15), "no mus now")


def test_fb_r12_two_cards_each_one_at_a_time_forehand_first_dealer_last() -> None:
    game = table()
    rejected(game, card(0, "7C"), "the next card goes to seat 1, not seat 0")
    play(game, card(1, "AS"), card(2, "AH"))
    rejected(game, card(1, "KS"), "the next card goes to seat 0, not seat 1")
    play(game, card(0, "7C"), card(1, "KS"), card(2, "9D"), card(0, "8C"))
    assert game.book.hands == [parse_cards(["7C", "8C"]), parse_cards(["AS", "KS"]), parse_cards(["AH", "9D"])]
    assert game.phase is Phase.OPENING_STAKE


def test_fb_r12_the_hands_shorthand_must_cover_the_cards_due() -> None:
    game = table()
    rejected(game, deal(["7C"], ["AS", "KS"], ["AH", "9D"]), "'hands' must hold exactly the cards due now")
    play(game, card(1, "AS"))
    rejected(game, FIRST, "'hands' must hold exactly the cards due now (seat 2: 2, seat 0: 2, seat 1: 1)")


def test_fb_r13_mus_answers_in_order_join_pays_the_mus_fold_is_out() -> None:
    game = table()
    play(game, act("mus", 1, 20), FIRST)
    rejected(game, join(0), "not your turn: the next to answer (seat 2)")
    assert chips_of(play(game, join(2))) == {(2, "mus"): -20}
    play(game, fold(0), act("stake", 1, 5))
    rejected(game, deal(["9C", "10C"], ["QS", "7H"], ["AD", "8H"]), "'hands' must hold exactly")
    play(game, deal([], ["QS", "7H"], ["AD", "8H"]))
    rejected(game, act("join", 0), "seat 0 has folded and can take no further action")
    assert game.chips.pot == 45


def test_fb_r13_gap_fb_5_nobody_joins_the_mus_it_goes_back_and_the_carry_stays() -> None:
    game = table()
    worthless_showdown(game)
    play(game, {"type": "new_hand"})  # dealer 1, forehand 2
    play(game, act("mus", 2, 30), deal(["7C", "8C"], ["AS", "KS"], ["AH", "9D"]), fold(0))
    effects = play(game, fold(1))
    assert chips_of(effects) == {(2, "mus_return"): 30}
    assert effects[-1] == {"deal_over": "void_mus", "hand_winner": None}
    assert (game.chips.carry, game.hand_winner, game.phase) == (6, None, Phase.HAND_OVER)
    play(game, {"type": "new_hand", "dealer": 2})


def test_fb_r14_forehand_must_stake_in_mus_deals_too() -> None:
    game = table()
    play(game, act("mus", 1, 20), FIRST, join(2), join(0))
    rejected(game, fold(1), "no fold now: waiting for forehand (seat 1) to stake")
    rejected(game, SECOND, "no deal now: waiting for forehand (seat 1) to stake")
    rejected(game, act("stake", 2, 5), "not your turn: only forehand (seat 1)")
    assert chips_of(play(game, act("stake", 1, 5))) == {(1, "stake"): -5}


def test_fb_r15_second_deal_to_those_still_in_and_the_folded_dealer_still_deals() -> None:
    game = table()
    play(game, act("mus", 1, 20), FIRST, join(2), fold(0), act("stake", 1, 5))
    rejected(game, card(0, "9C"), "the next card goes to seat 1, not seat 0")
    play(game, card(1, "QS"), card(2, "AD"), card(1, "7H"))
    rejected(game, card(0, "9C"), "the next card goes to seat 2, not seat 0")
    play(game, card(2, "8H"))
    assert game.phase is Phase.OPENING_RESPONSE and [len(h) for h in game.book.hands] == [2, 4, 4]


def test_fb_r16_answers_to_the_stake_in_order_after_forehand() -> None:
    game = table()
    play(game, FIRST, act("stake", 1, 5), SECOND)
    rejected(game, join(0), "not your turn: the next to answer (seat 2)")
    rejected(game, join(1), "not your turn")
    assert chips_of(play(game, join(2))) == {(2, "stake"): -5}
    assert chips_of(play(game, fold(0))) == {}
    assert game.live == [1, 2]


def test_fb_r17_nobody_joins_forehand_takes_stake_mus_money_and_carry() -> None:
    game = table()
    worthless_showdown(game)  # carry 6; each paid 2
    play(game, {"type": "new_hand"})  # dealer 1: forehand 2, order 2, 0, 1
    play(game, act("mus", 2, 20), FIRST, join(0), fold(1), act("stake", 2, 5), deal(["9C", "10C"], [], ["AD", "8H"]))
    effects = play(game, fold(0))
    assert chips_of(effects) == {(2, "pot"): 45, (2, "carry"): 6}
    assert game.chips.balances == [98 - 20, 98, 98 - 25 + 51] and game.hand_winner == 2


def test_fb_r18_efterhand_is_the_last_joiner() -> None:
    game = table(4)  # dealer 0: order 1, 2, 3, 0
    play(game, deal(["7C", "8C"], ["AS", "KS"], ["AH", "9D"], ["7D", "8D"]), act("stake", 1, 5),
         deal(["9C", "10C"], ["QS", "7H"], ["AD", "8H"], ["9H", "10D"]), join(2), join(3), fold(0))
    assert game.efterhand == 3 and game.phase is Phase.FIRST_DECISION
    rejected(game, act("expose_demand", 2), "only efterhand (seat 3)")
    rejected(game, act("raise", 2, 3), "not your turn: efterhand (seat 3) is to act, not seat 2")


def test_fb_r19_efterhand_may_demand_two_cards_face_up_then_shows_or_raises() -> None:
    game = first_decision()
    rejected(game, act("expose_demand", 2), "not your turn: only efterhand (seat 0)")
    play(game, act("expose_demand", 0))
    rejected(game, act("raise", 0, 3), "no raise now: waiting for forehand (seat 1) to lay two cards face up")
    rejected(game, act("expose", 2, cards=["AH", "9D"]), "not your turn: forehand (seat 1)")
    rejected(game, act("expose", 1, cards=["AS"]), "exactly two cards face up")
    rejected(game, act("expose", 1, cards=["AS", "9C"]), "card 9C is not in seat 1's hand")
    play(game, act("expose", 1, cards=["AS", "7H"]))  # GAP-FB-6: forehand chooses the two
    assert game.exposed == parse_cards(["AS", "7H"]) and game.phase is Phase.FIRST_DECISION
    rejected(game, act("expose_demand", 0), "has already demanded an exposure")
    play(game, act("raise", 0, 3))
    assert game.exposed == []  # forehand takes them back
    rejected(game, act("expose_demand", 0), "no expose_demand now")


def test_fb_r20_show_goes_straight_to_the_showdown_without_buying() -> None:
    game = first_decision()
    play(game, act("show", 0))
    assert game.phase is Phase.HAND_OVER
    rejected(game, buy(1, "stand"), "no buy now: waiting for the next deal")


def test_fb_r21_raise_answered_clockwise_after_efterhand_responders_may_not_raise() -> None:
    game = first_decision()
    rejected(game, act("raise", 0, 11), "amount 11 is outside [1, 10]")
    assert chips_of(play(game, act("raise", 0, 4))) == {(0, "raise"): -4}
    rejected(game, join(2), "not your turn: the next to answer (seat 1)")
    rejected(game, act("raise", 1, 4), "no raise now: waiting for seat 1 to join or fold")
    assert chips_of(play(game, join(1))) == {(1, "raise"): -4}
    play(game, fold(2))
    assert game.phase is Phase.BUYING
    rejected(game, act("raise", 1, 2), "no raise now")  # not even the last joiner re-raises


def test_fb_r21_nobody_joins_the_raise_efterhand_wins() -> None:
    game = first_decision()
    play(game, act("raise", 0, 4), fold(1))
    effects = play(game, fold(2))
    assert chips_of(effects) == {(0, "pot"): 19} and game.hand_winner == 0


# ------------------------------------------------------------------------------- D. buying

def test_fb_r22_everyone_still_in_buys_efterhand_too() -> None:
    game = buying()
    assert game.buyers == [1, 2, 0]


def test_fb_r22_gap_fb_7_option_efterhand_does_not_buy() -> None:
    game = buying(table(efterhand_buys=False))
    assert game.buyers == [1, 2]
    play(game, buy(1, "stand"), buy(2, "stand"))
    assert game.phase is Phase.DECISION
    rejected(game, buy(0, "stand"), "no buy now")


def test_fb_r23_buying_order_from_the_dealers_left_once_each() -> None:
    game = first_decision()
    play(game, act("raise", 0, 4), fold(1), join(2))
    assert game.buyers == [2, 0]
    rejected(game, buy(0, "stand"), "not your turn: the next buyer (seat 2)")
    rejected(game, buy(1, "stand"), "seat 1 has folded")
    play(game, buy(2, "stand"))
    rejected(game, buy(2, "stand"), "not your turn: the next buyer (seat 0)")


def test_fb_r24_the_four_options() -> None:
    game = buying()
    rejected(game, buy(1, "upcard", "7H", "QS"), "option upcard discards 1 card(s) (FB-R24), got 2")
    rejected(game, buy(1, "swap", "7H"), "'option' must be one of upcard, replace, all, stand")
    rejected(game, buy(1, "upcard", "9C"), "card 9C is not in seat 1's hand")
    play(game, buy(1, "upcard", "7H"))
    rejected(game, buy(2, "stand"), "no buy now: waiting for the next card, to seat 1")  # GAP-FB-8
    rejected(game, card(1, None, up=True), "dealt face up (FB-R24) and always seen: name it")
    rejected(game, {"type": "deal", "hands": [[], [None], []]}, "the card to seat 1 is dealt face up")
    play(game, card(1, "JS", up=True))
    rejected(game, buy(2, "replace"), "option replace discards 1 or 2 or 3 card(s) (FB-R24), got 0")
    rejected(game, buy(2, "replace", "AH", "9D", "AD", "8H"), "got 4")
    play(game, buy(2, "replace", "9D", "8H"))
    rejected(game, card(2, "KD", up=True), "dealt face up where a face-down card is due")
    play(game, card(2, "KD"), card(2, "QD"))
    rejected(game, buy(0, "all", "7C", "8C", "9C"), "option all discards 4 card(s)")
    play(game, buy(0, "all", "7C", "8C", "9C", "10C"), card(0, "AC"), card(0, "KC"), card(0, "QC"))
    rejected(game, card(0, "9C", up=True), "already in the discards")
    play(game, card(0, "JC", up=True))
    assert game.phase is Phase.DECISION and game.actor == 1
    assert game.book.hands[1] == parse_cards(["AS", "KS", "QS", "JS"])
    effects = play(game, act("show", 1))
    # seat 1 and seat 0 both hold a four-flush 41: the tie goes to seat 1, nearest the dealer's left
    assert chips_of(effects) == {(1, "pot"): 27}


def test_fb_r24_standing_pat_deals_nothing() -> None:
    game = deciding()
    assert game.book.hands[2] == parse_cards(["AH", "9D", "AD", "8H"]) and game.book.talon == 20


def test_fb_r25_gap_fb_9_the_talon_reshuffles_the_other_buyers_discards() -> None:
    game = table(7)  # dealer 0, order 1..6, 0: 28 cards dealt, the four aces left in the talon
    cards = [c for c in piquet_deck() if c.rank != 1]
    hands = [[str(c) for c in cards[4 * seat:4 * seat + 4]] for seat in range(7)]
    play(game, deal(*[h[:2] for h in hands]), act("stake", 1, 1), deal(*[h[2:] for h in hands]),
         *[join(seat) for seat in (2, 3, 4, 5, 6, 0)], act("raise", 0, 1), *[join(seat) for seat in range(1, 7)])
    assert game.book.talon == 4
    play(game, buy(1, "replace", *hands[1][:3]), card(1, "AS"), card(1, "AH"), card(1, "AD"))
    play(game, buy(2, "replace", *hands[2][:3]), card(2, "AC"))
    assert game.book.talon == 0
    rejected(game, card(2, hands[2][0]), f"card {hands[2][0]} is already in the discards")  # his own
    effects = play(game, card(2, hands[1][0]))
    assert effects == [{"talon": "reshuffled", "cards": 3}]
    play(game, card(2, hands[1][1]))
    assert game.book.talon == 1


# ------------------------------------------------------------------------------- E. betting after buying

def test_fb_r26_the_decider_shows_or_bets_without_check() -> None:
    game = first_decision()
    play(game, act("raise", 0, 4), fold(1), join(2), buy(2, "stand"), buy(0, "stand"))
    assert game.actor == 2  # forehand folded: the first still in from the dealer's left decides
    rejected(game, act("bet", 0, 5), "not your turn: the decider (seat 2)")
    rejected(game, act("raise", 2, 5), "no raise now: waiting for seat 2 to show or bet")
    rejected(game, fold(2), "no fold now")
    rejected(game, {"type": "check", "seat": 2}, "unknown event type 'check'")
    rejected(game, act("bet", 2, 0), "amount 0 is outside [1, 10]")
    assert chips_of(play(game, act("bet", 2, 7))) == {(2, "bet"): -7}


def test_fb_r27_answers_pay_the_new_amount_only_and_may_not_raise() -> None:
    game = deciding()
    play(game, act("bet", 1, 6))
    rejected(game, act("raise", 2, 8), "no raise now: waiting for seat 2 to join or fold")
    assert chips_of(play(game, join(2))) == {(2, "bet"): -6}
    assert chips_of(play(game, join(0))) == {(0, "bet"): -6}


def test_fb_r28_nobody_joins_the_bettor_wins() -> None:
    game = deciding()
    play(game, act("bet", 1, 6), fold(2))
    effects = play(game, fold(0))
    assert chips_of(effects) == {(1, "pot"): 33} and game.hand_winner == 1


def test_fb_r29_the_last_joiner_shows_or_raises_and_answers_repeat() -> None:
    game = deciding()
    play(game, act("bet", 1, 6), join(2), join(0))
    rejected(game, act("raise", 2, 3), "not your turn: the last joiner (seat 0)")
    rejected(game, act("bet", 0, 3), "no bet now: waiting for the last joiner (seat 0) to show or raise")
    play(game, act("raise", 0, 3))
    rejected(game, join(2), "not your turn: the next to answer (seat 1)")
    play(game, join(1), fold(2))
    assert game.actor == 1 and game.phase is Phase.LAST_JOINER
    effects = play(game, act("show", 1))
    assert chips_of(effects) == {(0, "pot"): 27 + 18 + 6}


def test_fb_r30_r31_raises_are_unlimited_and_every_round_levels_the_payments() -> None:
    game = deciding(table(chips=1000))
    play(game, act("bet", 1, 10), fold(2), join(0))
    raiser, other = 0, 1
    for _ in range(40):
        play(game, act("raise", raiser, 10), join(other))
        assert game.committed[0] == game.committed[1] == game.level
        raiser, other = other, raiser
    assert game.level == 9 + 10 + 400
    assert chips_of(play(game, act("show", raiser))) == {(0, "pot"): 2 * 419 + 9}


def test_fb_r32_only_the_player_to_act_may_act() -> None:
    game = table()
    play(game, act("mus", 1, 20), FIRST, join(2), fold(0), act("stake", 1, 5), deal([], ["QS", "7H"], ["AD", "8H"]))
    rejected(game, act("stake", 1, 5), "no stake now: waiting for seat 2 to join or fold")
    rejected(game, fold(0), "seat 0 has folded and can take no further action")
    rejected(game, fold(1), "not your turn: the next to answer (seat 2)")
    rejected(game, act("show", 2), "no show now")
    rejected(game, act("bet", 2, 3), "no bet now")
    rejected(game, act("join", 9), "no seat 9 at this table")
    rejected(game, {"type": "join"}, "'seat' must be an integer")
    rejected(game, act("play", 2, card="AS"), "unknown event type 'play' for Färbeln")


# ------------------------------------------------------------------------------- F. showdown and pot

def test_fb_r33_the_best_hand_takes_the_whole_pot() -> None:
    game = deciding()
    effects = play(game, act("show", 1))
    assert chips_of(effects) == {(0, "pot"): 27} and game.chips.balances == [100 - 9 + 27, 91, 91]


def test_fb_r34_a_worthless_hand_loses_to_any_valid_hand() -> None:
    game = table()
    play(game, deal(["7S", "8H"], ["9S", "10H"], ["AC", "7C"]), act("stake", 1, 2),
         deal(["9D", "10C"], ["JD", "QC"], ["8D", "9H"]), join(2), join(0))
    effects = play(game, act("show", 0))
    assert [e["hand"] for e in effects[0]["showdown"]] == ["worthless", "two-flush 18 in clubs", "worthless"]
    assert chips_of(effects) == {(2, "pot"): 6}


def test_fb_r35_ties_go_to_the_seat_nearest_the_dealers_left() -> None:
    game = table()
    play(game, deal(["7S", "8H"], ["AS", "AH"], ["AD", "AC"]), act("stake", 1, 2),
         deal(["9D", "10C"], ["7C", "8D"], ["KS", "QH"]), join(2), join(0))
    assert chips_of(play(game, act("show", 0))) == {(1, "pot"): 6}  # A-A against A-A


def test_fb_r35_the_dealer_loses_every_tie() -> None:
    game = table()
    play(game, deal(["AH", "KH"], ["7S", "8H"], ["AS", "KS"]), act("stake", 1, 2),
         deal(["7C", "8D"], ["9D", "10C"], ["7H", "8C"]), join(2), join(0))
    assert chips_of(play(game, act("show", 0))) == {(2, "pot"): 6}  # both two-flush 21


def test_fb_r36_a_worthless_hand_wins_when_everybody_folds() -> None:
    game = table()
    play(game, deal(["AS", "KS"], ["7S", "8H"], ["AD", "AC"]), act("stake", 1, 10),
         deal(["QS", "JS"], ["9D", "10C"], ["AH", "8D"]), fold(2))
    effects = play(game, fold(0))
    assert chips_of(effects) == {(1, "pot"): 10} and game.hand_winner == 1


def test_fb_r37_gap_fb_10_all_worthless_the_pot_carries_to_the_next_winner() -> None:
    game = table()
    worthless_showdown(game)
    assert (game.chips.pot, game.chips.carry, game.hand_winner) == (0, 6, None)
    play(game, {"type": "new_hand"})  # dealer 1, order 2, 0, 1
    worthless_showdown(game)
    assert game.chips.carry == 12
    play(game, {"type": "new_hand"})  # dealer 2, order 0, 1, 2
    play(game, deal(["AS", "AH"], ["7S", "8H"], ["9D", "10C"]), act("stake", 0, 3),
         deal(["7C", "8D"], ["JS", "QH"], ["KD", "AC"]), join(1), join(2))
    effects = play(game, act("show", 2))
    assert chips_of(effects) == {(0, "pot"): 9, (0, "carry"): 12} and game.chips.carry == 0


def test_fb_r38_the_deal_passes_after_showdown_uncalled_win_and_void_mus() -> None:
    game = first_decision()
    play(game, act("show", 0), {"type": "new_hand"})
    assert game.dealer == 1
    forehand_wins_uncalled(game)
    play(game, {"type": "new_hand"})
    assert game.dealer == 2
    play(game, act("mus", 0, 5), deal(["7C", "8C"], ["AS", "KS"], ["AH", "9D"]), fold(1), fold(2))
    play(game, {"type": "new_hand", "dealer": 0})


# ------------------------------------------------------------------------------- G. money and procedure

def test_fb_r39_all_in_with_side_pots() -> None:
    game = table(chips=[100, 100, 8])
    play(game, FIRST, act("stake", 1, 5), SECOND, join(2), join(0), act("raise", 0, 10), join(1))
    assert chips_of(play(game, join(2))) == {(2, "raise"): -3}  # all-in for his last 3
    play(game, buy(1, "stand"), buy(2, "stand"), buy(0, "stand"), act("bet", 1, 10))
    assert game.round is not None and game.round.queue == [0]  # the all-in seat 2 is not asked
    play(game, join(0))
    rejected(game, act("raise", 0, 99), "outside [1, 10]")
    effects = play(game, act("show", 0))
    # main pot 3 x 8 = 24 (seat 2's pair of aces is not eligible beyond it); side pot 2 x 17 = 34
    assert chips_of(effects) == {(0, "pot"): 24, (0, "side_pot"): 34}
    assert game.chips.balances == [100 - 25 + 58, 75, 0]


def test_fb_r39_the_all_in_player_wins_the_main_pot_and_a_worthless_side_pot_carries() -> None:
    game = table(chips=[100, 100, 8])
    play(game, deal(["7C", "8D"], ["9S", "10H"], ["AH", "AD"]), act("stake", 1, 5),
         deal(["9H", "10S"], ["JD", "QC"], ["KS", "QD"]), join(2), join(0), act("raise", 0, 10), join(1), join(2),
         buy(1, "stand"), buy(2, "stand"), buy(0, "stand"), act("bet", 1, 10), join(0))
    effects = play(game, act("show", 0))
    assert chips_of(effects) == {(2, "pot"): 24}
    assert {"carry": 34, "reason": "all_worthless"} in effects  # seats 0 and 1 both worthless
    assert (game.hand_winner, game.chips.carry, game.chips.balances[2]) == (2, 34, 24)


def test_fb_r39_all_in_forehand_stakes_short_and_the_answers_match_it() -> None:
    game = table(chips=[100, 100, 100], min=5)
    play(game, act("mus", 1, 97), FIRST, join(2), join(0))
    rejected(game, act("stake", 1, 5), "amount 5 is outside [3, 3] (seat 1 holds 3 chips)")
    play(game, act("stake", 1, 3), SECOND)
    assert chips_of(play(game, join(2))) == {(2, "stake"): -3}


def test_fb_r39_must_fold_table_stakes() -> None:
    game = table(chips=[100, 100, 8], table_stakes="must_fold")
    play(game, FIRST, act("stake", 1, 5), SECOND, join(2), join(0), act("raise", 0, 10), join(1))
    rejected(game, join(2), "seat 2 holds 3 chips, cannot pay 10: it must fold")
    play(game, fold(2))
    assert game.phase is Phase.BUYING
    rejected(table(table_stakes="must_fold", min=5), act("mus", 1, 96), "would not leave 5 for the opening stake")


def test_fb_r39_gap_fb_11_no_chips_mid_deal_broke_seats_sit_out_and_the_match_ends() -> None:
    game = table(4, chips=[10, 10, 0, 10])  # seat 2 cannot play: the deal order is 1, 3, 0
    assert game.order == (1, 3, 0)
    play(game, deal(["7C", "8C"], ["AS", "KS"], [], ["7D", "8D"]))
    rejected(game, act("join", 2), "no join now")
    play(game, act("stake", 1, 10), deal(["9C", "JD"], ["QS", "7H"], [], ["9H", "10S"]), join(3), join(0))
    rejected(game, act("raise", 0, 1), "seat 0 holds 0 chips, less than a stake can cost: it can only show")
    effects = play(game, act("show", 0))
    assert effects[-1] == {"match_over": True, "winner": 1}
    assert game.summary()["winner"] == 1 and game.chips.balances == [0, 30, 0, 0]
    rejected(game, {"type": "new_hand"}, "the match is over (seat 1 won)")


def test_fb_r1_a_match_ends_when_only_two_can_play() -> None:
    game = table(chips=[10, 10, 1])
    play(game, deal(["7C", "8C"], ["AS", "KS"], ["7D", "8D"]), act("stake", 1, 1),
         deal(["9C", "JD"], ["QS", "7H"], ["9H", "10S"]), join(2), join(0))
    effects = play(game, act("show", 0))  # seat 2 loses its last chip; seats 1 and 0 are left
    assert effects[-1] == {"match_over": True, "winner": 1, "players_left": [1, 0]}
    rejected(game, {"type": "new_hand"}, "only seats 1 and 0 can still play, Färbeln needs three")
    with pytest.raises(SetupError, match="fewer than 3 seats hold the 1 chip"):
        table(chips=[10, 10, 0])


def test_fb_r40_gap_fb_12_misdeal_same_dealer_redeals_and_paid_money_stays() -> None:
    game = table()
    play(game, act("mus", 1, 20), card(1, "AS"))
    rejected(game, card(2, "QS", up=True), "declare a misdeal (FB-R40)")
    effects = play(game, {"type": "misdeal"})
    assert effects == [{"misdeal": True}, {"carry": 20, "reason": "misdeal"}]
    assert (game.dealer, game.phase, game.chips.pot, game.chips.carry) == (0, Phase.MUS_DECISION, 0, 20)
    first_decision(game)
    assert chips_of(play(game, act("show", 0))) == {(0, "pot"): 15, (0, "carry"): 20}
    rejected(game, {"type": "misdeal"}, "no misdeal now: the deal is over")


# ------------------------------------------------------------------------------- unread deals

def test_unread_deal_settles_on_the_last_reveal() -> None:
    game = table()
    play(game, deal([None, None], [None, None], [None, None]), act("stake", 1, 5),
         deal([None, None], [None, None], [None, None]), join(2), join(0), act("expose_demand", 0),
         act("expose", 1, cards=["AS", "KS"]))
    assert play(game, act("show", 0)) == [] and game.phase is Phase.SHOWDOWN
    rejected(game, act("reveal", 1, cards=["AH", "QS", "7H", "JS"]), "seat 1's reveal leaves out AS, KS")
    rejected(game, act("reveal", 1, cards=["AS", "KS", "QS"]), "a reveal shows all 4 of seat 1's cards, got 3")
    assert play(game, act("reveal", 1, cards=["AS", "KS", "QS", "7H"])) == []
    rejected(game, act("reveal", 2, cards=["AS", "9D", "AD", "8H"]), "card AS is not in seat 2's hand")
    assert play(game, act("reveal", 2, cards=["AH", "9D", "AD", "8H"])) == []
    effects = play(game, act("reveal", 0, cards=["7C", "8C", "9C", "10C"]))
    assert chips_of(effects) == {(0, "pot"): 15} and game.phase is Phase.HAND_OVER
    play(game, act("reveal", 1, cards=["AS", "KS", "QS", "7H"]))  # a late reveal that matches: no effect
    rejected(game, act("reveal", 1, cards=["AS", "KS", "QS", "8H"]), "leaves out 7H")


def test_unread_buying_discards_may_be_named_or_unread() -> None:
    game = first_decision(table())
    play(game, act("raise", 0, 4), join(1), join(2))
    play(game, buy(1, "replace", "7H"), card(1, None))
    assert game.book.hands[1] == [*parse_cards(["AS", "KS", "QS"]), None]
    play(game, buy(2, "stand"), buy(0, "stand"))
    play(game, act("show", 1))
    rejected(game, act("reveal", 1, cards=["AS", "KS", "QS", "7H"]),
             "card 7H is not in seat 1's hand (card 7H is already in the discards)")
    effects = play(game, act("reveal", 1, cards=["AS", "KS", "QS", "JS"]))
    assert chips_of(effects) == {(1, "pot"): 27}


# ------------------------------------------------------------------------------- unnamed discards from read hands

def test_an_unnamed_discard_from_a_read_hand_keeps_the_rest_among_its_cards() -> None:
    """Open deal: the camera counts two cards going face down, not which; the hand keeps two unread slots
    among AS KS QS 7H, and what it shows later must come from them."""
    game, twin = buying(), buying()
    play(game, buy(1, "replace", None, None), card(1, "JS"), card(1, "10S"))
    play(twin, buy(1, "replace", "QS", "7H"), card(1, "JS"), card(1, "10S"))
    assert game.book.hands[1] == [None, None, *parse_cards(["JS", "10S"])]
    assert game.dealer_view()["among"] == [[], ["7H", "AS", "KS", "QS"], []]
    for each in (game, twin):
        play(each, buy(2, "replace", "9D"))
    rejected(game, card(2, "KS"), "card KS is already in seat 1's hand or its unnamed discards")
    for each in (game, twin):
        play(each, card(2, "KH"))
    assert game.public_view() == twin.public_view()  # spectators learn nothing the named discard hid
    play(game, buy(0, "stand"), act("show", 1))
    assert game.phase is Phase.SHOWDOWN and game.to_act() == 1  # only the pooled hand must be laid down
    rejected(game, act("reveal", 1, cards=["AS", "JH", "JS", "10S"]),
             "card JH is not in seat 1's hand: its 2 unread card(s) are among AS KS QS 7H")
    rejected(game, act("reveal", 1, cards=["AS", "KS", "QS", "7H"]), "leaves out JS, 10S")
    effects = play(game, act("reveal", 1, cards=["AS", "KS", "JS", "10S"]))
    assert chips_of(effects) == {(1, "pot"): 27}  # four-flush 41 beats seat 0's four-flush 34
    # the hand shown, the pool's other two are the discards
    assert game.dealer_view()["discard_pile"] [:2] == [{"seat": 1, "card": "QS"}, {"seat": 1, "card": "7H"}]
    assert game.dealer_view()["among"] == [[], [], []]


def test_discarding_the_whole_read_hand_unnamed_names_the_discards() -> None:
    game = buying()
    play(game, buy(1, "all", None, None, None, None))
    assert [entry["card"] for entry in game.dealer_view()["discard_pile"]] == ["AS", "KS", "QS", "7H"]
    assert game.book.hands[1] == [] and game.dealer_view()["among"][1] == []


def test_unnamed_discards_need_a_read_hand_or_enough_unread_cards() -> None:
    game = table()
    play(game, deal([None, None], [None, None], [None, None]), act("stake", 1, 5),
         deal([None, None], [None, None], [None, None]), join(2), join(0), act("expose_demand", 0),
         act("expose", 1, cards=["AS", "KS"]), act("raise", 0, 4), join(1), join(2))
    rejected(game, buy(1, "replace", None, None, None), "seat 1 has no unread card left for a null: name the cards")
    play(game, buy(1, "replace", "AS", None, None))
    assert game.book.hands[1] == [parse_cards(["KS"])[0]] and game.dealer_view()["among"][1] == []


def seven_buy_unnamed() -> tuple[FerbliGame, list[list[str]]]:
    """Seven players (the four aces left in the talon): seat 1 buys three unnamed, seat 2 three named.
    Seat 6's last card was not read."""
    game = table(7)
    cards = [c for c in piquet_deck() if c.rank != 1]
    hands = [[str(c) for c in cards[4 * seat:4 * seat + 4]] for seat in range(7)]
    dealt: list[list[str | None]] = [list(hand) for hand in hands]
    dealt[6][3] = None
    play(game, deal(*[h[:2] for h in dealt]), act("stake", 1, 1), deal(*[h[2:] for h in dealt]),
         *[join(seat) for seat in (2, 3, 4, 5, 6, 0)], act("raise", 0, 1), *[join(seat) for seat in range(1, 7)])
    play(game, buy(1, "replace", None, None, None), card(1, "AS"), card(1, "AH"), card(1, "AD"))
    play(game, buy(2, "replace", *hands[2][:3]), card(2, "AC"))
    return game, hands


def test_gap_fb_9_unnamed_discards_reshuffled_are_dealt_from_the_pool() -> None:
    game, hands = seven_buy_unnamed()
    pool = sorted(hands[1])
    assert game.book.talon == 0
    assert sorted(a["card"] for a in game.legal_actions() if a["type"] == "deal" and a["card"]) == pool
    rejected(game, card(2, hands[3][0]), f"card {hands[3][0]} is already in seat 3's hand")
    rejected(game, card(2, hands[2][0]), f"card {hands[2][0]} is already in the discards")  # his own
    rejected(game, card(2, hands[6][3]), f"card {hands[6][3]} cannot come from the talon: it holds only "
             f"unnamed discards, among {' '.join(hands[1])}")
    assert play(game, card(2, hands[1][0])) == [{"talon": "reshuffled", "cards": 3}]
    play(game, card(2, hands[1][1]))
    assert game.dealer_view()["among"][1] == sorted(hands[1][2:])
    play(game, buy(3, "replace", hands[3][0]))
    assert sorted(a["card"] for a in game.legal_actions() if a["type"] == "deal" and a["card"]) == sorted(hands[1][2:])
    play(game, card(3, hands[1][2]))  # the talon's last card: seat 1's unread slot is the pool's other
    assert game.book.hands[1] == parse_cards([hands[1][3], "AS", "AH", "AD"])
    assert game.dealer_view()["among"][1] == []


def test_an_unread_card_from_a_talon_of_pooled_discards_forgets_the_pool() -> None:
    game, hands = seven_buy_unnamed()
    play(game, card(2, None))  # it may be any of seat 1's discards: seat 1's slot is just unread now
    assert game.dealer_view()["among"][1] == [] and game.book.hands[1] == [None, *parse_cards(["AS", "AH", "AD"])]
    play(game, card(2, hands[1][3]))  # any unseen card, seat 1's pool no longer counts as seen
