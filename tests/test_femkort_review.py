"""Review scenarios for the Femkort engine, written from controller/femkort/RULES.md (and the German
source it was written from where a rule reads two ways), aimed at what the first test pass covers thinly:
heading under both readings of FK-R11, voids, who leads next, the pot, no-winner hands, the variants, the
match end, the decider, unread deals and 8-player tables.

Every event goes through `Table` (tests/femkort_table.py): chips are conserved after each accepted event,
and a rejected event must leave the whole state equal to a deep copy taken before it.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from controller.cli import main
from femkort_table import Table, chip_moves, deal_won_by, notes

SHORT = ("2C 3C 4C 5C 6C", "AS KS QS JS 10S", "2D 3D 4D")  # three players, seat 2 one card short: no winner


def legal(table: Table, seat: int) -> list[str]:
    return sorted(str(card) for card in table.game.legal_plays(seat))


def violations(effects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in effects if "violation" in e]


# ---- FK-R11 heading, I-1 both readings ------------------------------------------------------------------

# Four players, dealer 3: forehand seat 0 leads 5H, seat 1 (void in hearts) discards KS.
HEAD = ("5H 2C 3C 4C 5C", "KS 6C 7C 8C 9C", "2H 9H AH 2D 3D", "3H 10C JC 4D 5D")


@pytest.mark.parametrize("semantics,headers", [
    ("beat_current_winner", ["9H", "AH"]),  # FK-R11 / I-1 default: the off-suit KS never counts
    ("beat_all_cards", ["AH"]),  # I-1, the source read to the letter: above every card in the trick, KS included
])
def test_fk_r11_heading_under_both_semantics(semantics: str, headers: list[str]) -> None:
    table = Table(4, dealer=3, head_semantics=semantics)
    table.deal(*HEAD)
    table.run("5H KS")
    assert legal(table, 2) == headers
    table.bad({"type": "play", "seat": 2, "card": "2H"}, "must head the trick")
    if semantics == "beat_all_cards":
        table.bad({"type": "play", "seat": 2, "card": "9H"}, r"above KS \(holds AH\)")
    table.bad({"type": "play", "seat": 2, "card": "2D"}, "must follow hearts")
    table.play(2, headers[0])


def test_fk_r11_beat_all_cards_when_an_off_suit_card_outranks_every_heart() -> None:
    # I-1 literal: an off-suit ace can be beaten by no heart, so any heart is allowed (FK-R11 last sentence)
    table = Table(4, dealer=3, head_semantics="beat_all_cards")
    table.deal("5H 2C 3C 4C 5C", "AS 6C 7C 8C 9C", "2H 9H KH 2D 3D", "3H 10C JC 4D 5D")
    table.run("5H AS")
    assert legal(table, 2) == ["2H", "9H", "KH"]
    table.play(2, "2H")


def test_fk_r11_the_bar_is_the_card_currently_winning_not_the_last_card() -> None:
    # seat 0 leads 5H, seat 1 heads with QH, seat 2 cannot beat QH (any heart), seat 3 must beat QH.
    table = Table(4, dealer=3)
    table.deal("5H 2C 3C 4C 5C", "QH 6C 7C 8C 9C", "2H 9H 2S 2D 3D", "3H KH JC 4D 5D")
    table.run("5H QH")
    assert legal(table, 2) == ["2H", "9H"]
    table.play(2, "2H")
    assert legal(table, 3) == ["KH"]
    table.bad({"type": "play", "seat": 3, "card": "3H"}, r"above QH \(holds KH\)")
    effects = table.play(3, "KH")
    assert notes(effects, "trick")[0]["winner"] == 3  # FK-R13


def test_v3_no_head_obligation_any_led_card() -> None:
    table = Table(4, dealer=3, no_head_obligation=True)
    table.deal(*HEAD)
    table.run("5H KS")
    assert legal(table, 2) == ["2H", "9H", "AH"]  # V3: FK-R11 off, FK-R10 still on
    table.bad({"type": "play", "seat": 2, "card": "2D"}, "must follow hearts")
    table.play(2, "2H")


# ---- FK-R10/R12/R13 follow suit, voids, the winner leads ---------------------------------------------------

def test_fk_r12_a_void_player_may_play_any_card_even_a_high_one_that_cannot_win() -> None:
    table = Table(4, dealer=3)
    table.deal(*HEAD)
    table.play(0, "5H")
    assert legal(table, 1) == ["6C", "7C", "8C", "9C", "KS"]
    effects = table.run("6C AH 3H")
    assert notes(effects, "trick")[0] == {"note": "trick", "trick": 1, "winner": 2,
                                          "cards": ["5H", "6C", "AH", "3H"]}


def test_fk_r13_the_winner_leads_next_and_play_goes_clockwise_from_him() -> None:
    # Five players, dealer 1: forehand 2; seat 0 wins trick 1, so trick 2 goes 0, 1, 2, 3, 4.
    table = Table(5, dealer=1)
    table.deal("AD 2C 3C 4C 5C", "2D 6C 7C 8C 9C", "3D 2H 3H 4H 5H", "4D 6H 7H 8H 9H", "5D 2S 3S 4S 5S")
    effects = table.run("3D 4D 5D AD 2D")
    assert notes(effects, "trick")[0]["winner"] == 0
    assert table.game.to_act() == 0
    table.bad({"type": "play", "seat": 2, "card": "2H"}, "not your turn: seat 0 is to play")
    table.play(0, "2C")
    table.bad({"type": "play", "seat": 2, "card": "2H"}, "not your turn: seat 1 is to play")
    effects = table.run("6C 2H 6H 2S")
    assert notes(effects, "trick")[0] == {"note": "trick", "trick": 2, "winner": 1,
                                          "cards": ["2C", "6C", "2H", "6H", "2S"]}
    assert table.game.to_act() == 1


# ---- FK-R14 the pot -----------------------------------------------------------------------------------

def test_fk_r14_only_the_trick_five_winner_is_paid_even_after_losing_tricks_one_to_four() -> None:
    # Dealer 0: seat 1 wins tricks 1-4 with spades, seat 0 keeps AH and wins trick 5 on seat 1's heart lead.
    table = Table(chips=[10, 10, 10])
    table.deal("AH 2C 3C 4C 5C", "AS KS QS JS 2H", "2D 3D 4D 5D 6D")
    effects = table.run("AS 2D 2C KS 3D 3C QS 4D 4C JS 5D 5C")
    assert chip_moves(effects) == [] and table.game.state.chips.pot == 3
    effects = table.run("2H 6D")
    assert chip_moves(effects) == []  # the trick is not complete yet
    effects = table.play(0, "AH")
    assert chip_moves(effects) == [(0, 3, "pot")]
    assert table.chips == [12, 9, 9] and table.game.summary()["hand_winner"] == 0


# ---- FK-R16 no winner, V4 --------------------------------------------------------------------------

def test_fk_r16_no_winner_keeps_the_pot_same_dealer_everyone_restakes_once() -> None:
    table = Table(chips=[10, 10, 10])
    table.deal(*SHORT)
    assert table.game.summary()["pot"] + table.game.summary()["carry"] == 3
    effects = table.deal(*deal_won_by(2, [0, 1, 2], 3))  # GAP-FK-4: dealer 0 again, forehand 1
    assert chip_moves(effects) == [(1, -1, "restake"), (2, -1, "restake"), (0, -1, "restake")]
    assert table.game.to_act() == 1
    assert chip_moves(table.play_out()) == [(2, 6, "pot")]
    assert table.chips == [8, 8, 14]
    # the next hand is an ordinary one: base stake, dealer passes to seat 1
    assert chip_moves(table.ok({"type": "new_hand", "dealer": 1})) == [(2, -1, "stake"), (0, -1, "stake"),
                                                                       (1, -1, "stake")]


def test_v4_doubles_the_restake_once_and_returns_to_base() -> None:
    table = Table(chips=[30, 30, 30], stake=2, stake_escalation=True)
    table.deal(*SHORT)  # pot 6 carried
    effects = table.deal(*SHORT)  # GAP-FK-10: 2 x 2 per player; a second no-winner hand
    assert chip_moves(effects) == [(1, -4, "restake"), (2, -4, "restake"), (0, -4, "restake")]
    effects = table.deal(*deal_won_by(1, [0, 1, 2], 3))
    assert chip_moves(effects) == [(1, -4, "restake"), (2, -4, "restake"), (0, -4, "restake")]  # not 8
    assert chip_moves(table.play_out()) == [(1, 30, "pot")]
    effects = table.deal(*deal_won_by(1, [0, 1, 2], 3))
    assert chip_moves(effects) == [(2, -2, "stake"), (0, -2, "stake"), (1, -2, "stake")]  # base again


def test_fk_r16_without_v4_the_restake_is_the_base_stake() -> None:
    table = Table(chips=[30, 30, 30], stake=2)
    table.deal(*SHORT)
    assert chip_moves(table.ok({"type": "new_hand"})) == [(1, -2, "restake"), (2, -2, "restake"),
                                                          (0, -2, "restake")]


# ---- V5 trump ---------------------------------------------------------------------------------------

# Four players, dealer 3 (his fifth card 2S shows spades trump); forehand seat 0.
TRUMPS = ("5H 9H 2C 3C 4C", "7S 3S 6C 7C 8C", "9S 4S 5C 9C 10C", "KH 2H AS JC 2S")


def test_v5_the_dealers_last_card_is_turned_face_up_when_dealt_one_at_a_time() -> None:
    table = Table(4, dealer=3, trump=True)
    hands = [h.split() for h in TRUMPS]
    for position in range(5):
        for seat in (0, 1, 2, 3):
            effects = table.ok({"type": "deal", "seat": seat, "card": hands[seat][position]})
            expected = [{"note": "trump", "card": "2S", "suit": "spades"}] if (seat, position) == (3, 4) else []
            assert notes(effects, "trump") == expected


def test_v5_a_trump_beats_a_higher_led_card_and_void_players_need_not_over_trump() -> None:
    table = Table(4, dealer=3, trump=True)
    table.deal(*TRUMPS)
    table.run("5H 3S")  # seat 1, void in hearts, trumps low
    # GAP-FK-12: seat 2 is void in hearts too; it may under-trump, over-trump or discard
    assert legal(table, 2) == ["10C", "4S", "5C", "9C", "9S"]
    table.play(2, "4S")  # over-trumps by choice (4S beats 3S)
    # I-2: seat 3 holds hearts; none can head a trumped trick, so any heart is legal, even the king
    assert legal(table, 3) == ["2H", "KH"]
    table.bad({"type": "play", "seat": 3, "card": "AS"}, "must follow hearts")
    effects = table.play(3, "2H")
    assert notes(effects, "trick")[0]["winner"] == 2  # the highest trump, not the higher heart


def test_v5_under_trumping_is_allowed_and_the_highest_trump_wins() -> None:
    table = Table(4, dealer=3, trump=True)
    table.deal(*TRUMPS)
    effects = table.run("5H 7S 4S KH")  # seat 2 under-trumps 7S with 4S (GAP-FK-12)
    assert notes(effects, "trick")[0]["winner"] == 1


def test_v5_before_a_trump_the_led_suit_must_still_be_headed() -> None:
    table = Table(4, dealer=3, trump=True)
    table.deal("5H 9H 2C 3C 4C", "6H 3S 6C 7C 8C", "9S 4S 5C 9C 10C", "KH 2H AS JC 2S")
    table.run("5H")
    table.bad({"type": "play", "seat": 1, "card": "3S"}, "must follow hearts")  # not void: no trumping
    table.run("6H 4S")  # seat 1 heads; seat 2 (void) trumps
    assert legal(table, 3) == ["2H", "KH"]  # I-2 after the trump


def test_v5_on_a_trump_lead_a_higher_trump_is_compulsory_void_players_are_free() -> None:
    table = Table(4, dealer=3, trump=True)
    table.deal("3S 9H 2C 3C 4C", "7S 5S 6C 7C 8C", "8H 4H 5C 9C 10C", "KH 2H AS JC 2S")
    table.play(0, "3S")
    assert legal(table, 1) == ["5S", "7S"]  # both beat 3S: either will do
    table.bad({"type": "play", "seat": 1, "card": "6C"}, "must follow spades")
    table.play(1, "5S")
    assert legal(table, 2) == ["10C", "4H", "5C", "8H", "9C"]  # void in trumps: anything
    table.play(2, "4H")
    assert legal(table, 3) == ["AS"]  # 2S does not beat 5S: the ace must be played
    table.bad({"type": "play", "seat": 3, "card": "2S"}, r"must head the trick with a spades card above 5S")
    assert notes(table.play(3, "AS"), "trick")[0]["winner"] == 3


# ---- V1 redeal on request -----------------------------------------------------------------------------

def test_v1_redeal_before_the_first_card_only_with_the_same_dealer_pot_and_a_new_trump() -> None:
    table = Table(4, dealer=3, chips=[10, 10, 10, 10], redeal_on_request=True, trump=True)
    table.deal(*TRUMPS)
    table.ok({"type": "redeal_request", "seat": 1})
    for seat in (0, 2):
        assert table.ok({"type": "redeal_answer", "seat": seat, "agree": True}) == []
    assert table.ok({"type": "redeal_answer", "seat": 3, "agree": True}) == [{"note": "redeal", "dealer": 3}]
    assert table.game.state.chips.pot == 4 and table.chips == [9, 9, 9, 9]  # GAP-FK-7: no extra stake
    effects = table.deal("5H 9H 2C 3C 4C", "7S 3S 6C 7C 8C", "9S 4S 5C 9C 10C", "KH 2H AS JC 3H")
    assert chip_moves(effects) == [] and notes(effects, "trump") == [{"note": "trump", "card": "3H",
                                                                        "suit": "hearts"}]
    assert table.game.to_act() == 0  # same dealer: forehand 0 leads
    table.play(0, "5H")
    for seat in range(4):  # after the first card every request is illegal
        table.bad({"type": "redeal_request", "seat": seat}, "being played")


def test_v1_a_redeal_request_after_the_first_card_even_at_a_later_trick_is_illegal() -> None:
    table = Table(redeal_on_request=True)
    table.deal(*deal_won_by(0, [0, 1, 2], 3))
    table.play_trick()
    table.bad({"type": "redeal_request", "seat": 1}, r"being played \(trick 2\)")
    table.bad({"type": "redeal_answer", "seat": 1, "agree": True}, "no redeal request is waiting")


# ---- V2 the session kitty ---------------------------------------------------------------------------

def test_v2_pots_are_not_paid_out_and_the_match_winner_takes_everything_staked() -> None:
    table = Table(chips=[10, 10, 10], best_of_three=True)  # the match ends at 3 pots
    winners = [1, 2, 1, 1]
    for number, winner in enumerate(winners, start=1):
        table.deal(*deal_won_by(winner, [0, 1, 2], 3))
        effects = table.play_out()
        if number < len(winners):
            assert chip_moves(effects) == []
    assert chip_moves(effects) == [(1, 12, "kitty")]
    summary = table.game.summary()
    assert summary["chips"] == [6, 18, 6] and summary["winner"] == 1 and summary["pots_won"] == [0, 3, 1]
    assert (summary["pot"], summary["carry"]) == (0, 0)


def test_v2_a_time_out_tie_in_pots_plays_a_decider_for_the_whole_kitty() -> None:
    table = Table(chips=[10, 10, 10], best_of_three=True)
    for winner in (0, 1):
        table.deal(*deal_won_by(winner, [0, 1, 2], 3))
        table.play_out()
    assert notes(table.ok({"type": "time_up"}), "decider") == [{"note": "decider", "seats": [0, 1],
                                                                  "cause": "time_up"}]
    table.deal(*deal_won_by(1, [0, 1], 3))
    effects = table.play_out()
    assert chip_moves(effects) == [(1, 8, "kitty")]  # 6 from the two hands + 2 staked in the decider
    assert table.game.summary()["winner"] == 1 and table.chips == [7, 15, 8]


# ---- FK-R15 reading B --------------------------------------------------------------------------------

def test_fk_r15_reading_b_with_four_players_two_contenders() -> None:
    # Dealer 3, forehand 0. Seat 1 wins tricks 1-3 with AD KD QD, seat 2 wins trick 4 with KH; seats 0, 3 none.
    table = Table(4, dealer=3, chips=[10, 10, 10, 10], contender_rule="won_a_trick")
    table.deal("2D 2C 2S 3S 4S", "AD KD QD 3C 9H", "3D 4D AC KH 5S", "5D 6D 7D 8D 10H")
    table.run("2D AD 3D 5D KD 4D 6D 2C QD AC 7D 2S")
    effects = table.run("9H KH 10H 3S")
    assert [n["winner"] for n in notes(effects, "trick")] == [2]
    assert notes(effects, "contenders") == [{"note": "contenders", "seats": [1, 2]}]
    assert table.game.to_act() == 2  # the trick-4 winner leads trick 5
    table.bad({"type": "play", "seat": 0, "card": "4S"}, "not a contender")
    table.bad({"type": "play", "seat": 3, "card": "8D"}, "not a contender")
    table.play(2, "5S")
    table.bad({"type": "play", "seat": 3, "card": "8D"}, "not a contender")
    effects = table.play(1, "3C")
    assert chip_moves(effects) == [(2, 4, "pot")]
    assert table.chips == [9, 9, 13, 9]


# ---- FK-R17 match end, FK-R18 decider --------------------------------------------------------------------

def test_fk_r17_the_match_ends_at_n_pots_even_after_a_no_winner_hand() -> None:
    table = Table(chips=[10, 10, 10], pots_to_win=2)
    table.deal(*deal_won_by(2, [0, 1, 2], 3))
    table.play_out()
    table.deal(*SHORT)  # hand 2 void: dealer 1 deals again
    table.bad({"type": "new_hand", "dealer": 2}, "seat 1 deals hand 3")
    table.deal(*deal_won_by(2, [0, 1, 2], 3))
    effects = table.play_out()
    assert notes(effects, "match_won") == [{"note": "match_won", "winner": 2, "cause": "pots"}]
    assert chip_moves(effects) == [(2, 6, "pot")]
    assert table.game.summary()["winner"] == 2
    for event in ({"type": "new_hand"}, {"type": "time_up"}, {"type": "deal", "seat": 0, "card": "2C"}):
        table.bad(event, "the match is over: seat 2 won it")


def test_fk_r17_time_up_the_highest_balance_wins_not_the_most_pots() -> None:
    table = Table(chips=[10, 10, 30], pots_to_win=5)
    table.deal(*deal_won_by(0, [0, 1, 2], 3))
    table.play_out()  # seat 0: 1 pot, 12 chips; seat 2 still the richest with 29
    effects = table.ok({"type": "time_up"})
    assert notes(effects, "match_won") == [{"note": "match_won", "winner": 2, "cause": "time_up"}]


def test_fk_r18_the_decider_is_played_by_the_tied_players_only_and_its_winner_wins() -> None:
    # five players; seats 1 and 3 tie for the highest balance at the time-out
    table = Table(5, dealer=0, chips=[10, 20, 5, 20, 15])
    effects = table.ok({"type": "time_up"})
    assert notes(effects, "decider") == [{"note": "decider", "seats": [1, 3], "cause": "time_up"}]
    for seat in (0, 2, 4):
        table.bad({"type": "deal", "seat": seat, "card": "2C"}, f"seat {seat} does not play this hand")
    hands = deal_won_by(3, [1, 3], 5)
    effects = table.deal(*hands)
    assert sorted(chip_moves(effects)) == [(1, -1, "stake"), (3, -1, "stake")]  # GAP-FK-6: tied players only
    table.bad({"type": "play", "seat": 0, "card": "2C"}, "seat 0 does not play this hand")
    effects = table.play_out()
    assert chip_moves(effects) == [(3, 2, "pot")]
    assert notes(effects, "match_won") == [{"note": "match_won", "winner": 3, "cause": "decider"}]
    assert table.chips == [10, 19, 5, 21, 15]


def test_fk_r18_a_three_way_tie_plays_a_three_player_decider() -> None:
    table = Table(4, dealer=1, chips=[7, 9, 9, 9])
    assert notes(table.ok({"type": "time_up"}), "decider")[0]["seats"] == [1, 2, 3]
    table.deal(*deal_won_by(1, [1, 2, 3], 4))
    assert table.game.state.chips.pot == 3
    assert notes(table.play_out(), "match_won")[0]["winner"] == 1


# ---- unread deals: violations exactly when proven ----------------------------------------------------------

def test_unread_each_violation_is_reported_once_on_the_line_that_proves_it_with_its_trick() -> None:
    table = Table()  # dealer 0: order 1, 2, 0
    table.deal([None] * 5, [None] * 5, [None] * 5)
    # trick 1: seat 2 plays 3H under 10H (claims no heart above 10); seat 0 discards (claims no heart)
    assert violations(table.run("10H 3H 4C")) == []
    # trick 2: seat 1 leads 5D; seat 2 discards 2H (claims no diamond; 2H does not beat 10H: no proof);
    # seat 0 plays 6D and wins
    assert violations(table.run("5D 2H 6D")) == []
    # trick 3: seat 0 leads 7H: proves seat 0's revoke in trick 1
    effects = table.play(0, "7H")
    assert violations(effects) == [{"violation": "revoke", "seat": 0, "trick": 1, "hand": 1, "card": "7H",
                                    "rule": "FK-R10"}]
    assert violations(table.play(1, "8H")) == []  # seat 1 never claimed anything
    # seat 2's 9H heads 8H; 9H is not above 10H: still no proof
    assert violations(table.play(2, "9H")) == []
    # trick 4: seat 2 leads; QH proves the failure to head in trick 1 only
    effects = table.play(2, "QH")
    assert violations(effects) == [{"violation": "failure_to_head", "seat": 2, "trick": 1, "hand": 1,
                                    "card": "QH", "rule": "FK-R11"}]
    table.run("JC KC")
    # trick 5: seat 2 leads 9D, proving its revoke in trick 2
    effects = table.play(2, "9D")
    assert violations(effects) == [{"violation": "revoke", "seat": 2, "trick": 2, "hand": 1, "card": "9D",
                                    "rule": "FK-R10"}]
    assert len(table.game.summary()["violations"]) == 3


def test_unread_one_card_can_prove_two_violations_of_different_tricks() -> None:
    table = Table()  # dealer 0: order 1, 2, 0
    table.deal([None] * 5, [None] * 5, [None] * 5)
    table.run("10H 3H JH")  # trick 1: seat 2 claims no heart above 10H; seat 0 wins
    table.run("2H 5H 5C")  # trick 2, led by seat 0: seat 2 claims no heart at all; seat 1 wins
    table.play(1, "6H")
    effects = table.play(2, "KH")  # KH was in seat 2's hand in tricks 1 and 2 (FK-R11 and FK-R10)
    assert sorted((v["violation"], v["trick"], v["rule"]) for v in violations(effects)) == [
        ("failure_to_head", 1, "FK-R11"), ("revoke", 2, "FK-R10")]
    assert violations(table.play(0, "4H")) == []


def test_unread_no_violation_where_the_rules_did_not_demand_the_card() -> None:
    # V3: playing under the winner is legal, so a later high card proves nothing
    table = Table(no_head_obligation=True)
    table.deal([None] * 5, [None] * 5, [None] * 5)
    table.run("10H 3H 4H")  # seat 2 plays under 10H: legal under V3, so no claim
    assert violations(table.run("2C QH")) == []  # seat 1 leads again (10H won)
    # V5, I-2: once a non-trump lead is trumped, a low led card claims nothing
    table = Table(4, dealer=3, trump=True)
    table.deal([None] * 5, [None] * 5, [None] * 5, [None] * 4 + ["2S"])
    table.run("5H 3S 4H 6H")  # seat 1 trumps; seat 2 plays 4H; seat 3 6H
    assert table.game.to_act() == 1
    table.play(1, "2D")
    assert violations(table.play(2, "KH")) == []  # no heart could head the trumped trick 1
    assert table.game.summary()["violations"] == []


def test_unread_literal_heading_counts_off_suit_cards_in_the_proof() -> None:
    # I-1 beat_all_cards: after 5H and a discarded KS, only AH could head; a later QH proves nothing.
    table = Table(4, dealer=3, head_semantics="beat_all_cards")
    table.deal([None] * 5, [None] * 5, [None] * 5, [None] * 5)
    assert notes(table.run("5H KS 9H 2H"), "trick")[0]["winner"] == 2
    table.play(2, "2D")
    assert violations(table.play(3, "QH")) == []  # QH is not above KS
    table.play(0, "3D")
    table.play(1, "4D")  # seat 1 claimed no heart, not no diamond: nothing to prove
    assert table.game.to_act() == 1
    table.play(1, "5D")
    assert violations(table.play(2, "AH")) == [{"violation": "failure_to_head", "seat": 2, "trick": 1, "hand": 1,
                                                "card": "AH", "rule": "FK-R11"}]


def test_read_deal_refuses_the_revoke_instead_of_reporting_it() -> None:
    table = Table()
    table.deal(*("9H KH 2C 3C 4C", "10H 5S 6S 7S 8S", "JH 2D 3D 4D 5D"))
    table.play(1, "10H")
    table.bad({"type": "play", "seat": 2, "card": "2D"}, r"seat 2 must follow hearts \(holds JH\)")
    assert table.game.summary()["violations"] == []


# ---- 3 and 8 players -----------------------------------------------------------------------------------

def test_eight_players_a_whole_hand_and_the_deal_passes() -> None:
    table = Table(8, dealer=7, chips=[5] * 8)
    hands = deal_won_by(4, list(range(8)), 8)
    effects = table.deal(*hands)
    assert [seat for seat, _, _ in chip_moves(effects)] == [0, 1, 2, 3, 4, 5, 6, 7]  # from forehand 0
    assert table.game.to_act() == 0
    effects = table.play_out()
    assert chip_moves(effects) == [(4, 8, "pot")]
    assert [n["winner"] for n in notes(effects, "trick")] == [4] * 5
    assert table.chips == [4, 4, 4, 4, 12, 4, 4, 4]
    table.bad({"type": "new_hand", "dealer": 7}, "seat 0 deals hand 2")
    table.ok({"type": "new_hand", "dealer": 0})
    table.deal(*deal_won_by(4, list(range(8)), 8))
    assert table.game.to_act() == 1


def test_three_players_a_card_from_the_unused_pack_is_refused() -> None:
    table = Table(3, dealer=2)
    table.deal("9H KH 2C 3C 4C", "10H 5S 6S 7S 8S", "JH 2D 3D 4D 5D")
    assert table.game.to_act() == 0  # forehand is left of dealer 2
    table.bad({"type": "play", "seat": 0, "card": "AH"}, "card AH is not in seat 0's hand")
    table.bad({"type": "play", "seat": 0, "card": "10H"}, "card 10H is not in seat 0's hand")


# ---- cardtable replay -----------------------------------------------------------------------------------

def test_replay_reports_stakes_on_the_first_line_violations_on_the_proving_line_and_the_summary(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    header = {"format": "cardtable-history/1", "game": "femkort", "players": ["A", "B", "C"], "dealer": 0,
              "options": {"pots_to_win": 1}, "chips": [4, 4, 4]}
    events = [
        {"type": "deal", "hands": [[None] * 5] * 3},
        {"type": "play", "seat": 1, "card": "10H"},
        {"type": "play", "seat": 2, "card": "2C"},  # claims: no heart
        {"type": "play", "seat": 0, "card": "JH"},
        {"type": "play", "seat": 0, "card": "5S"},
        {"type": "play", "seat": 1, "card": "6S"},
        {"type": "play", "seat": 2, "card": "3H"},  # proves the revoke of trick 1 (line 9)
        {"type": "play", "seat": 1, "card": "10H"},  # refused: already played in trick 1
    ]
    path = tmp_path / "femkort.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in [header, *events]) + "\n", encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    *results, summary = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["n"] for r in results] == list(range(2, 2 + len(events)))
    assert [e for e in results[0]["effects"] if "chips" in e] == [
        {"seat": 1, "chips": -1, "reason": "stake"}, {"seat": 2, "chips": -1, "reason": "stake"},
        {"seat": 0, "chips": -1, "reason": "stake"}]
    assert violations(results[6]["effects"]) == [{"violation": "revoke", "seat": 2, "trick": 1, "hand": 1,
                                                   "card": "3H", "rule": "FK-R10"}]
    assert all(not violations(r.get("effects", [])) for i, r in enumerate(results) if i != 6)
    assert results[7]["ok"] is False and "already played" in results[7]["error"]
    assert summary["type"] == "summary" and summary["game"] == "femkort"
    assert (summary["chips"], summary["pot"], summary["carry"], summary["hand_over"]) == ([3, 3, 3], 3, 0, False)
    assert summary["violations"] == [{"violation": "revoke", "seat": 2, "trick": 1, "hand": 1, "card": "3H",
                                      "rule": "FK-R10"}]
    assert summary["winner"] is None and summary["scores"] is None
