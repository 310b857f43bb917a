"""A scenario per Femkort rule (FK-R1..FK-R19), variant (V1..V5) and gap default, from controller/femkort/RULES.md.

Every event goes through `Table`, which asserts chip conservation after it and, for a rejection, that the
state did not change. Three players, dealer 0 unless said: forehand is seat 1, tricks go 1, 2, 0.
"""
from __future__ import annotations

import pytest

from controller.cards import Card
from controller.engine import SetupError
from controller.femkort.cut import cut_for_deal
from controller.femkort.state import Phase
from femkort_table import Table, chip_moves, deal_won_by, notes

FOLLOW = ("9H KH 2C 3C 4C", "10H 5S 6S 7S 8S", "JH 2D 3D 4D 5D")  # seat 0, 1, 2


# ---- A. table, deck, dealer ------------------------------------------------------------------------

@pytest.mark.parametrize("players", [3, 5, 8])
def test_r1_three_to_eight_players(players: int) -> None:
    table = Table(players)
    assert len(table.chips) == players


@pytest.mark.parametrize("players,options", [(2, {}), (9, {}), (1, {"allow_two_players": True}),
                                             (9, {"allow_two_players": True})])
def test_r1_other_counts_are_refused(players: int, options: dict) -> None:
    with pytest.raises(SetupError, match="players"):
        Table(players, **options)


def test_r1_two_players_only_on_request() -> None:
    table = Table(2, allow_two_players=True)
    table.deal(*deal_won_by(1, [0, 1], 2))
    assert notes(table.play_out(), "hand_won") == [{"note": "hand_won", "hand": 1, "winner": 1}]


def test_r2_ace_high_and_suits_equal_without_trump() -> None:
    table = Table()
    table.deal("AH 2C 3C 4C 5C", "KH 6S 7S 8S 9S", "AS 2D 3D 4D 5D")
    effects = table.run("KH AS AH")  # the off-suit ace never wins; the heart ace beats the king
    assert notes(effects, "trick") == [{"note": "trick", "trick": 1, "winner": 0, "cards": ["KH", "AS", "AH"]}]


def test_r3_defaults_stake_one_and_three_pots() -> None:
    options = Table().game.state.options
    assert (options.stake, options.pots_to_win) == (1, 3)


def test_r3_agreed_stake_and_match_length() -> None:
    table = Table(chips=[20, 20, 20], stake=5, pots_to_win=1)
    assert chip_moves(table.deal(*deal_won_by(2, [0, 1, 2], 3))) == [(1, -5, "stake"), (2, -5, "stake"),
                                                                    (0, -5, "stake")]
    table.play_out()
    assert table.game.state.winner == 2 and table.chips == [15, 15, 30]


def test_r4_cut_highest_card_deals_ace_high_ties_cut_again() -> None:
    assert cut_for_deal({0: Card.parse("KS"), 1: Card.parse("AD"), 2: Card.parse("QH")}) == 1
    assert cut_for_deal({0: Card.parse("9S"), 1: Card.parse("2D"), 2: Card.parse("9H")}) == (0, 2)


def test_r4_header_dealer_deals_first_and_forehand_leads() -> None:
    table = Table(dealer=2)
    table.bad({"type": "new_hand", "dealer": 0}, "seat 2 deals hand 1")
    table.ok({"type": "new_hand", "dealer": 2})
    table.deal(*FOLLOW)
    assert table.game.to_act() == 0


def test_r5_deal_rotates_clockwise() -> None:
    table = Table()
    table.deal(*deal_won_by(1, [0, 1, 2], 3))
    table.play_out()
    table.bad({"type": "new_hand", "dealer": 0}, "seat 1 deals hand 2, not seat 0")
    table.ok({"type": "new_hand", "dealer": 1})
    table.deal(*FOLLOW)
    assert table.game.to_act() == 2  # left of dealer 1


# ---- B. a hand ---------------------------------------------------------------------------------------

def test_r6_everyone_stakes_on_the_first_line_of_the_hand() -> None:
    table = Table(chips=[10, 10, 10])
    assert chip_moves(table.ok({"type": "new_hand"})) == [(1, -1, "stake"), (2, -1, "stake"), (0, -1, "stake")]
    assert table.game.state.chips.pot == 3
    assert chip_moves(table.deal(*FOLLOW)) == []


def test_r7_five_cards_each_one_at_a_time_equals_the_shorthand() -> None:
    single, shorthand = Table(), Table()
    shorthand.deal(*FOLLOW)
    hands = [h.split() for h in FOLLOW]
    for position in range(5):
        for seat in (1, 2, 0):  # forehand first, dealer last
            single.ok({"type": "deal", "seat": seat, "card": hands[seat][position]})
    assert single.game.state == shorthand.game.state


def test_r7_a_card_cannot_be_dealt_twice() -> None:
    table = Table()
    table.ok({"type": "deal", "seat": 1, "card": "QS"})
    table.bad({"type": "deal", "seat": 2, "card": "qs"}, "card QS was already dealt")
    table.bad({"type": "deal", "hands": [["2C"], ["3C"], ["4C"]]}, "whole deal, but 1 cards")
    table.bad({"type": "deal", "to": "crib", "seat": 1, "card": "2C"}, "only to seats")


def test_r8_the_rest_of_the_pack_is_not_used() -> None:
    table = Table()
    table.deal(*FOLLOW)
    table.bad({"type": "play", "seat": 1, "card": "AS"}, "card AS is not in seat 1's hand")


def test_r9_forehand_leads_one_card_each_clockwise() -> None:
    table = Table()
    table.deal(*FOLLOW)
    table.bad({"type": "play", "seat": 0, "card": "9H"}, "not your turn: seat 1 is to play")
    table.play(1, "10H")
    table.bad({"type": "play", "seat": 0, "card": "KH"}, "not your turn: seat 2 is to play")
    table.play(2, "JH")
    effects = table.play(0, "KH")
    assert notes(effects, "trick")[0]["winner"] == 0 and table.game.to_act() == 0


def test_r10_follow_suit() -> None:
    table = Table()
    table.deal(*FOLLOW)
    table.play(1, "10H")
    table.bad({"type": "play", "seat": 2, "card": "2D"}, r"illegal: seat 2 must follow hearts \(holds JH\)")


def test_r11_head_the_trick_when_possible() -> None:
    table = Table()
    table.deal(*FOLLOW)
    table.run("10H JH")
    table.bad({"type": "play", "seat": 0, "card": "9H"},
              r"illegal: seat 0 must head the trick with a hearts card above JH \(holds KH\)")
    table.bad({"type": "play", "seat": 0, "card": "2C"}, r"must follow hearts \(holds KH, 9H\)")
    table.play(0, "KH")


@pytest.mark.parametrize("card", ["KH", "AH"])
def test_r11_any_heading_card_will_do(card: str) -> None:
    table = Table()
    table.deal("KH AH 2C 3C 4C", *FOLLOW[1:])
    table.run("10H JH")
    assert sorted(map(str, table.game.legal_plays(0))) == ["AH", "KH"]
    table.play(0, card)


def test_r11_without_a_heading_card_any_led_suit_card() -> None:
    table = Table()
    table.deal("2H 3H 2C 3C 4C", *FOLLOW[1:])
    table.run("10H JH")
    assert sorted(map(str, table.game.legal_plays(0))) == ["2H", "3H"]
    table.bad({"type": "play", "seat": 0, "card": "2C"}, "must follow hearts")
    table.play(0, "2H")


HEAD_I1 = ("9H AH 2C 3C 4C", "5H 5S 6S 7S 8S", "KS 2D 3D 4D 5D")


def test_i1_default_ignores_off_suit_cards_when_heading() -> None:
    table = Table()
    table.deal(*HEAD_I1)
    table.run("5H KS")
    assert sorted(map(str, table.game.legal_plays(0))) == ["9H", "AH"]
    table.play(0, "9H")


def test_i1_literal_reading_counts_off_suit_cards() -> None:
    table = Table(head_semantics="beat_all_cards")
    table.deal(*HEAD_I1)
    table.run("5H KS")
    table.bad({"type": "play", "seat": 0, "card": "9H"}, r"with a hearts card above KS \(holds AH\)")
    table.play(0, "AH")


def test_r12_a_void_player_may_play_any_card() -> None:
    table = Table()
    table.deal(*HEAD_I1)
    table.play(1, "5H")
    table.play(2, "4D")


def test_r13_highest_led_card_wins_and_leads_next() -> None:
    table = Table()
    table.deal(*HEAD_I1)
    effects = table.run("5H KS 9H")
    assert notes(effects, "trick")[0]["winner"] == 0
    table.bad({"type": "play", "seat": 1, "card": "5S"}, "not your turn: seat 0 is to play")
    assert table.game.state.hand.order == (0, 1, 2)


def test_r14_only_trick_five_pays_the_whole_pot_at_once() -> None:
    table = Table(chips=[10, 10, 10])
    table.deal(*deal_won_by(2, [0, 1, 2], 3))
    for trick in range(1, 5):
        effects = table.play_trick()
        assert chip_moves(effects) == [] and notes(effects, "trick")[0]["trick"] == trick
    effects = table.play_trick()
    assert chip_moves(effects) == [(2, 3, "pot")]
    assert notes(effects, "hand_won") == [{"note": "hand_won", "hand": 1, "winner": 2}]
    summary = table.game.summary()
    assert (summary["chips"], summary["pot"], summary["hand_over"], summary["hand_winner"]) == ([9, 9, 12], 0, True, 2)


CONTEND = ("AH 2C 3C 4C 5C", "AS KS QS JS 2H", "2D 3D 4D 5D 6D")
FOUR_TRICKS = "AS 2D 2C KS 3D 3C QS 4D 4C 2H 5D AH"  # seat 1 wins 1-3, seat 0 wins 4


def test_r15_reading_a_everybody_plays_trick_five() -> None:
    table = Table()
    table.deal(*CONTEND)
    table.run(FOUR_TRICKS)
    assert table.game.state.hand.order == (0, 1, 2)
    assert notes(table.run("5C JS 6D"), "hand_won")[0]["winner"] == 0


def test_r15_reading_b_only_trick_winners_contend() -> None:
    table = Table(contender_rule="won_a_trick")
    table.deal(*CONTEND)
    assert notes(table.run(FOUR_TRICKS), "contenders") == [{"note": "contenders", "seats": [0, 1]}]
    table.play(0, "5C")
    table.bad({"type": "play", "seat": 2, "card": "6D"}, "seat 2 is not a contender in trick 5")
    effects = table.play(1, "JS")
    assert chip_moves(effects) == [(0, 3, "pot")]


def test_r15_reading_b_a_lone_contender_takes_the_pot_without_playing() -> None:
    table = Table(contender_rule="won_a_trick")
    table.deal("2C 3C 4C 5C 6C", "AS KS QS JS 10S", "2D 3D 4D 5D 6D")
    effects = table.run("AS 2D 2C KS 3D 3C QS 4D 4C JS 5D 5C")
    assert chip_moves(effects) == [(1, 3, "pot")] and table.game.hand_over


# ---- C. hands without a winner ------------------------------------------------------------------------

def test_r16_misdeal_carries_the_pot_same_dealer_restakes() -> None:
    table = Table(chips=[10, 10, 10])
    effects = table.deal("2C 3C 4C 5C 6C", "AS KS QS JS 10S", "2D 3D 4D 5D")
    assert notes(effects, "no_winner") == [{"note": "no_winner", "hand": 1, "cause": "hand_sizes",
                                            "sizes": [5, 5, 4]}]
    summary = table.game.summary()
    assert (summary["pot"], summary["carry"], summary["hand_winner"], summary["hand_over"]) == (0, 3, None, True)
    table.bad({"type": "new_hand", "dealer": 1}, "seat 0 deals hand 2")
    assert chip_moves(table.ok({"type": "new_hand", "dealer": 0})) == [(1, -1, "restake"), (2, -1, "restake"),
                                                                       (0, -1, "restake")]
    assert (table.game.state.chips.pot, table.game.state.chips.carry) == (6, 0)


def test_gap3_a_short_hand_is_found_when_play_starts() -> None:
    table = Table()
    for seat, card in [(1, "2S"), (2, "2D"), (0, "2C")]:
        table.ok({"type": "deal", "seat": seat, "card": card})
    effects = table.play(1, "2S")
    assert notes(effects, "no_winner")[0]["sizes"] == [1, 1, 1]
    assert table.game.phase is Phase.BETWEEN_HANDS and table.game.state.chips.carry == 3


def test_gap3_a_sixth_card_is_a_misdeal_at_once() -> None:
    table = Table()
    table.deal(*FOLLOW)
    table.bad({"type": "deal", "seat": 2, "card": "9D"}, "deal out of order: seat 1 is due")
    effects = table.ok({"type": "deal", "seat": 1, "card": "9D"})  # the deal order goes round again
    assert notes(effects, "no_winner")[0]["sizes"] == [5, 6, 5]


def test_r7_single_cards_are_dealt_in_deal_order() -> None:
    table = Table(dealer=1)  # forehand is seat 2, the dealer gets the last card of each round
    table.bad({"type": "deal", "seat": 0, "card": "2C"}, "deal out of order: seat 2 is due the next card")
    for seat in (2, 0, 1):
        table.ok({"type": "deal", "seat": seat, "card": None})
    table.bad({"type": "deal", "seat": 0, "card": None}, "deal out of order: seat 2 is due")


# ---- D. match ---------------------------------------------------------------------------------------

def test_r17_first_to_n_pots_wins_the_match() -> None:
    table = Table(pots_to_win=2)
    for hand, dealer in ((1, 0), (2, 1)):
        table.ok({"type": "new_hand", "dealer": dealer})
        table.deal(*deal_won_by(0, [0, 1, 2], 3))
        effects = table.play_out()
    assert notes(effects, "match_won") == [{"note": "match_won", "winner": 0, "cause": "pots"}]
    assert table.game.summary()["winner"] == 0 and table.game.summary()["pots_won"] == [2, 0, 0]
    table.bad({"type": "new_hand"}, "the match is over: seat 0 won it")


def test_r17_time_up_highest_balance_wins_and_takes_the_carry() -> None:
    table = Table(chips=[10, 12, 10])
    table.deal("2C 3C 4C 5C 6C", "AS KS QS JS 10S", "2D 3D 4D")  # no winner: 3 chips carried
    effects = table.ok({"type": "time_up"})
    assert chip_moves(effects) == [(1, 3, "carry")]
    assert notes(effects, "match_won") == [{"note": "match_won", "winner": 1, "cause": "time_up"}]
    assert table.chips == [9, 14, 9]


def test_r17_time_up_waits_for_the_hand_to_finish() -> None:
    table = Table()
    table.deal(*FOLLOW)
    table.bad({"type": "time_up"}, "time_up: hand 1 has started")
    table.play(1, "10H")
    table.bad({"type": "time_up"}, r"time_up: hand 1 is being played \(trick 1\)")


def test_r18_a_tie_plays_a_decider_between_the_tied_players_only() -> None:
    table = Table(chips=[10, 8, 10])
    effects = table.ok({"type": "time_up"})
    assert notes(effects, "decider") == [{"note": "decider", "seats": [0, 2], "cause": "time_up"}]
    table.bad({"type": "time_up"}, "time is already up")
    table.bad({"type": "deal", "seat": 1, "card": "2C"}, "seat 1 does not play this hand")
    effects = table.deal(*deal_won_by(2, [0, 2], 3))
    assert chip_moves(effects) == [(2, -1, "stake"), (0, -1, "stake")]  # dealer 0, forehand 2
    effects = table.play_out()
    assert chip_moves(effects) == [(2, 2, "pot")]
    assert notes(effects, "match_won") == [{"note": "match_won", "winner": 2, "cause": "decider"}]
    assert table.chips == [9, 8, 11]


def test_short_stack_ends_the_match_by_the_time_out_rule() -> None:
    table = Table(chips=[1, 1, 5])
    table.deal(*deal_won_by(2, [0, 1, 2], 3))
    effects = table.play_out()
    assert notes(effects, "match_won") == [{"note": "match_won", "winner": 2, "cause": "short_stack"}]
    assert table.chips == [0, 0, 7]


def test_a_decider_stake_is_capped_by_the_poorest_tied_player() -> None:
    table = Table(chips=[1, 1, 1])
    table.deal("2C 3C 4C 5C 6C", "AS KS QS JS 10S", "2D 3D 4D")  # misdeal: everyone broke, 3 carried
    summary = table.game.summary()
    assert summary["chips"] == [0, 0, 0] and summary["winner"] is None
    effects = table.deal(*deal_won_by(1, [0, 1, 2], 3))  # the decider (all tied) for the carry alone
    assert chip_moves(effects) == []
    assert chip_moves(table.play_out()) == [(1, 3, "pot")] and table.game.summary()["winner"] == 1


# ---- F. procedure ------------------------------------------------------------------------------------

def test_r19_every_illegal_event_is_refused_with_its_reason() -> None:
    table = Table()
    table.bad({"type": "play", "seat": 1, "card": "10H"}, "hand 1 has not started: deal the cards first")
    table.ok({"type": "new_hand"})
    table.bad({"type": "play", "seat": 1, "card": "10H"}, "hand 1 has started but no card has been dealt yet")
    table.deal(*FOLLOW)
    table.bad({"type": "play", "seat": 2, "card": "JH"}, "not your turn: seat 1 is to play")
    table.bad({"type": "play", "seat": 1, "card": "9H"}, "card 9H is not in seat 1's hand")
    table.bad({"type": "play", "seat": 1, "card": None}, "malformed play event 'card'")
    table.bad({"type": "play", "seat": 7, "card": "10H"}, "no seat 7")
    table.bad({"type": "new_hand"}, "new_hand: hand 1 has started")
    table.bad({"type": "reveal", "seat": 1, "cards": []}, "unknown event type 'reveal' for Femkort")
    table.bad({"type": "redeal_request", "seat": 1}, "not played at this table")
    table.play(1, "10H")
    table.bad({"type": "play", "seat": 1, "card": "5S"}, "seat 1 has already played to trick 1")
    table.bad({"type": "deal", "seat": 1, "card": "2H"}, r"deal: hand 1 is being played \(trick 1\)")
    table.bad({"type": "play", "seat": 2, "card": "3D"}, "must follow hearts")
    table.play(2, "JH")
    table.play(0, "KH")
    table.bad({"type": "play", "seat": 0, "card": "KH"}, r"card KH was already played this hand \(trick 1\)")


def test_gap13_no_penalty_for_a_refused_card() -> None:
    table = Table(chips=[5, 5, 5])
    table.deal(*FOLLOW)
    table.play(1, "10H")
    table.bad({"type": "play", "seat": 2, "card": "2D"}, "must follow")
    assert table.chips == [4, 4, 4]


# ---- E. variants ----------------------------------------------------------------------------------

def test_v1_unanimous_redeal_same_dealer_same_pot() -> None:
    table = Table(redeal_on_request=True)
    table.deal(*FOLLOW)
    assert table.ok({"type": "redeal_request", "seat": 2}) == [{"note": "redeal_requested", "by": 2}]
    table.bad({"type": "play", "seat": 1, "card": "10H"}, r"seat 2's redeal request is waiting for seats \[0, 1\]")
    table.bad({"type": "redeal_answer", "seat": 2, "agree": True}, "already answered")
    table.bad({"type": "redeal_answer", "seat": 1, "agree": "yes"}, "'agree' must be true or false")
    assert table.ok({"type": "redeal_answer", "seat": 1, "agree": True}) == []
    assert table.ok({"type": "redeal_answer", "seat": 0, "agree": True}) == [{"note": "redeal", "dealer": 0}]
    assert chip_moves(table.deal(*CONTEND)) == [] and table.game.state.chips.pot == 3
    assert table.game.to_act() == 1


def test_v1_one_refusal_plays_on_and_the_request_may_be_repeated() -> None:
    table = Table(redeal_on_request=True)
    table.deal(*FOLLOW)
    table.ok({"type": "redeal_request", "seat": 0})
    assert table.ok({"type": "redeal_answer", "seat": 1, "agree": False}) == [{"note": "redeal_declined", "by": 1}]
    table.bad({"type": "redeal_answer", "seat": 2, "agree": True}, "no redeal request is waiting")
    table.ok({"type": "redeal_request", "seat": 0})  # GAP-FK-8
    table.ok({"type": "redeal_answer", "seat": 2, "agree": False})
    table.play(1, "10H")
    table.bad({"type": "redeal_request", "seat": 2}, "being played")


def test_v1_no_request_before_the_deal_is_complete() -> None:
    table = Table(redeal_on_request=True)
    table.ok({"type": "deal", "seat": 1, "card": "2C"})
    table.bad({"type": "redeal_request", "seat": 1}, "the deal is not finished")


def test_v2_best_of_three_the_kitty_goes_to_the_match_winner() -> None:
    table = Table(chips=[10, 10, 10], best_of_three=True, pots_to_win=2)
    table.deal(*deal_won_by(1, [0, 1, 2], 3))
    assert chip_moves(table.play_out()) == []
    assert (table.game.state.chips.pot, table.game.state.chips.carry, table.chips) == (0, 3, [9, 9, 9])
    table.deal(*deal_won_by(1, [0, 1, 2], 3))
    effects = table.play_out()
    assert chip_moves(effects) == [(1, 6, "kitty")] and table.chips == [8, 14, 8]
    assert table.game.summary()["winner"] == 1


def test_v2_time_up_most_pots_wins_the_kitty() -> None:
    table = Table(chips=[10, 10, 10], best_of_three=True)
    table.deal(*deal_won_by(0, [0, 1, 2], 3))
    table.play_out()
    effects = table.ok({"type": "time_up"})
    assert chip_moves(effects) == [(0, 3, "kitty")] and table.game.summary()["winner"] == 0


def test_v3_no_head_obligation_but_still_follow_suit() -> None:
    table = Table(no_head_obligation=True)
    table.deal(*FOLLOW)
    table.run("10H JH")
    table.bad({"type": "play", "seat": 0, "card": "2C"}, "must follow hearts")
    table.play(0, "9H")


def test_v4_escalated_restake_for_one_hand_only() -> None:
    table = Table(chips=[20, 20, 20], stake_escalation=True)
    short = ("2C 3C 4C 5C 6C", "AS KS QS JS 10S", "2D 3D 4D")
    table.deal(*short)
    assert chip_moves(table.deal(*short)) == [(1, -2, "restake"), (2, -2, "restake"), (0, -2, "restake")]
    assert chip_moves(table.deal(*deal_won_by(1, [0, 1, 2], 3)))[0] == (1, -2, "restake")  # not cumulative
    assert table.game.state.chips.pot == 3 + 6 + 6
    table.play_out()
    assert chip_moves(table.ok({"type": "new_hand"})) == [(2, -1, "stake"), (0, -1, "stake"), (1, -1, "stake")]


TRUMP = ("9H AH 4S 3C 2S", "5H 6H 7C 8C 9C", "3S KS 2D 3D 4D")  # dealer 0's fifth card 2S: spades trump


def test_v5_the_dealers_last_card_shows_trump_and_the_highest_trump_wins() -> None:
    table = Table(trump=True)
    assert notes(table.deal(*TRUMP), "trump") == [{"note": "trump", "card": "2S", "suit": "spades"}]
    table.run("5H 3S")  # seat 2 is void in hearts and trumps
    assert sorted(map(str, table.game.legal_plays(0))) == ["9H", "AH"]  # I-2: nothing heads a trump
    table.bad({"type": "play", "seat": 0, "card": "2S"}, "must follow hearts")
    assert notes(table.play(0, "9H"), "trick")[0]["winner"] == 2


def test_v5_trumping_is_allowed_never_compulsory() -> None:
    table = Table(trump=True)
    table.deal(*TRUMP)
    effects = table.run("5H 2D AH")
    assert notes(effects, "trick")[0]["winner"] == 0


def test_v5_on_a_trump_lead_a_higher_trump_is_compulsory() -> None:
    table = Table(trump=True)
    table.deal(*TRUMP)
    table.run("5H KS 9H")  # seat 2 trumps, wins and leads
    table.play(2, "3S")
    table.bad({"type": "play", "seat": 0, "card": "2S"}, r"with a spades card above 3S \(holds 4S\)")
    table.play(0, "4S")
    assert notes(table.play(1, "7C"), "trick")[0]["winner"] == 0


def test_v5_the_trump_card_must_be_read_and_stays_with_the_dealer() -> None:
    table = Table(trump=True)
    unread = [[None] * 5, [None] * 5, [None] * 5]
    table.bad({"type": "deal", "hands": unread}, "dealer's fifth card is turned face up")
    table.bad({"type": "deal", "hands": [[None] * 5 + ["3S"], *unread[1:]]}, "dealer's fifth card")
    table.bad({"type": "deal", "hands": [["2S", "3S", "4S", "5S", "2S"], *unread[1:]]}, "card 2S is dealt twice")
    table.deal([None] * 4 + ["2S"], [None] * 5, [None] * 5)
    table.bad({"type": "play", "seat": 1, "card": "2S"}, "card 2S is not in seat 1's hand")


def test_v5_needs_the_current_winner_head_semantics() -> None:
    with pytest.raises(SetupError, match="cannot be combined"):
        Table(trump=True, head_semantics="beat_all_cards")


# ---- unread deals: revokes proven later ----------------------------------------------------------

UNREAD = ([None] * 5, [None] * 5, [None] * 5)


def test_unread_revoke_is_reported_when_proven() -> None:
    table = Table()
    table.deal(*UNREAD)
    assert table.run("5H 2D 9H 3C 4C") and table.game.summary()["violations"] == []
    effects = table.play(2, "7H")
    violation = {"violation": "revoke", "seat": 2, "trick": 1, "hand": 1, "card": "7H", "rule": "FK-R10"}
    assert [e for e in effects if "violation" in e] == [violation]
    assert table.game.summary()["violations"] == [violation]


def test_unread_failure_to_head_is_reported_when_proven() -> None:
    table = Table()
    table.deal(*UNREAD)
    table.run("10H 3H 2H 4C 5C 6C 7C 8C 10C")  # trick 1: seat 2 did not head 10H
    assert not any("violation" in e for e in table.run("9H 3S 4H"))  # 9H could not have headed it
    effects = table.play(2, "QH")  # ... but QH would have
    violation = {"violation": "failure_to_head", "seat": 2, "trick": 1, "hand": 1, "card": "QH", "rule": "FK-R11"}
    assert [e for e in effects if "violation" in e] == [violation]


def test_partly_read_hand_is_judged_on_what_is_known() -> None:
    table = Table()
    table.deal([None] * 5, [None] * 5, ["JH", None, None, None, None])
    table.bad({"type": "play", "seat": 1, "card": "JH"}, "card JH is not in seat 1's hand")
    table.play(1, "10H")
    table.bad({"type": "play", "seat": 2, "card": "2D"}, r"must follow hearts \(holds JH\)")
    table.play(2, "JH")


# ---- options and setup ---------------------------------------------------------------------------

@pytest.mark.parametrize("options,chips,fragment", [
    ({"stake": 0}, None, "stake must be at least 1"),
    ({"trumps": True}, None, "unknown option"),
    ({"contender_rule": "most_tricks"}, None, "contender_rule must be one of"),
    ({"starting_stack": 5}, [5, 5, 5], "either in 'chips' or as 'starting_stack'"),
    ({"stake": 3}, [5, 2, 5], "seat 1 starts with 2 chips, less than the stake 3"),
])
def test_bad_setup_is_named(options: dict, chips: list[int] | None, fragment: str) -> None:
    with pytest.raises(SetupError, match=fragment):
        Table(chips=chips, **options)


def test_null_chips_start_from_the_documented_stack() -> None:
    assert Table().chips == [100, 100, 100]
    assert Table(starting_stack=7).chips == [7, 7, 7]
