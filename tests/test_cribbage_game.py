"""Scenario tests for the cribbage engine, one or more per rule (CR-1..CR-15) and per variant.

Expected points are worked out by hand from controller/cribbage/RULES.md in the comments next to each hand.
"""
from __future__ import annotations

from typing import Any

import pytest

from controller.engine import SetupError
from controller.cribbage.game import CribbageGame, Phase
from cribbage_table import make, play, rejected, run, show_totals




def go(seat: int) -> dict[str, Any]:
    return {"type": "go", "seat": seat}


def by_reason(effects: list[dict[str, Any]]) -> list[tuple[int, str, int]]:
    return [(e["seat"], e["reason"], e["points"]) for e in effects]


# Dealer 0, pone 1. After the discards pone holds 10H 10S JC 7D, the dealer KC 10C JD 8H;
# the crib is 2H 3H (pone) + AC 9D (dealer).
DEAL = {"type": "deal", "hands": [["KC", "10C", "JD", "8H", "AC", "9D"], ["10H", "10S", "JC", "7D", "2H", "3H"]]}
DISCARDS = [{"type": "discard", "seat": 1, "cards": ["2H", "3H"]},
            {"type": "discard", "seat": 0, "cards": ["AC", "9D"]}]
STARTER = {"type": "starter", "card": "4S"}
# The play: 10H KC 10S (30) go go | 10C JC JD (30) go go | 7D 8H (15, last card).
PLAY = [play(1, "10H"), play(0, "KC"), play(1, "10S"), go(0), go(1),
        play(0, "10C"), play(1, "JC"), play(0, "JD"), go(1), go(0),
        play(1, "7D"), play(0, "8H")]


def ready(**options: Any) -> CribbageGame:
    game = make(**options)
    run(game, DEAL, *DISCARDS, STARTER)
    return game


# ----- CR-1, options ---------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [1, 5])
def test_player_count_outside_2_to_4_is_a_setup_error(players):
    with pytest.raises(SetupError, match="2, 3 or 4 players"):
        make(players)


@pytest.mark.parametrize("options, message", [
    ({"target": 100}, "target"), ({"colour": True}, "unknown option"), ({"muggins": 1}, "muggins"),
    ({"skunk_line": 130}, "skunk lines"), ({"match_win": 3, "match_skunk": 2}, "match values"),
])
def test_bad_options_are_setup_errors(options, message):
    with pytest.raises(SetupError, match=message):
        make(**options)


def test_chips_and_five_card_with_three_players_are_setup_errors():
    with pytest.raises(SetupError, match="chips"):
        make(chips=[10, 10])
    with pytest.raises(SetupError, match="two-player"):
        make(3, five_card=True)


def test_targets():
    assert make().target == 121
    assert make(target=61).target == 61
    assert make(five_card=True).target == 61
    assert make(five_card=True, target=121).target == 121


# ----- CR-3, CR-4: the deal and the discard ----------------------------------------------------------

def test_single_card_deal_goes_one_at_a_time_from_the_dealers_left():
    game = make(dealer=0)
    rejected(game, {"type": "deal", "seat": 0, "card": "5H"}, "seat 1 is due the next card")
    run(game, {"type": "deal", "seat": 1, "card": "5H"})
    rejected(game, {"type": "deal", "seat": 1, "card": "6H"}, "seat 0 is due the next card")
    run(game, {"type": "deal", "seat": 0, "card": None})
    rejected(game, {"type": "deal", "seat": 1, "card": "5H"}, "5H is already in seat 1's hand")
    rejected(game, {"type": "deal", "seat": 1, "card": "1Z"}, "malformed")
    rejected(game, {"type": "deal", "to": "crib", "card": "2C"}, "2 players")
    rejected(game, {"type": "deal", "hands": [["2C"] * 6, ["3C"] * 6]}, "whole deal")
    rejected(game, {"type": "deal", "seat": 2, "card": "2C"}, "no seat 2")


def test_hands_shorthand_checks_sizes_and_duplicates():
    game = make()
    rejected(game, {"type": "deal", "hands": [["2C", "3C"], ["4C", "5C"]]}, "must be dealt 6 cards")
    rejected(game, {"type": "deal", "hands": [["2C", "3C", "4C", "5C", "6C", "7C"],
                                              ["2C", "3D", "4D", "5D", "6D", "7D"]]}, "2C is dealt twice")
    run(game, DEAL)
    assert game.phase is Phase.DISCARD


def test_discard_rules():
    game = make()
    rejected(game, DISCARDS[0], "no discard now")
    run(game, DEAL)
    rejected(game, {"type": "discard", "seat": 1, "cards": ["2H"]}, "exactly 2 card")
    rejected(game, {"type": "discard", "seat": 1, "cards": ["2H", "KC"]}, "KC is not in seat 1's hand")
    rejected(game, {"type": "discard", "seat": 1, "cards": ["2H", "2S"]}, "2S is not in seat 1's hand")
    rejected(game, {"type": "discard", "seat": 1, "cards": ["2H", "2H"]}, "listed twice")
    rejected(game, {"type": "starter", "card": "4S"}, "no starter now")
    run(game, DISCARDS[0])
    rejected(game, DISCARDS[0], "already discarded")
    run(game, DISCARDS[1])
    assert game.phase is Phase.STARTER
    assert sorted(map(str, game.state.hand.crib.known)) == ["2H", "3H", "9D", "AC"]


# ----- CR-5: the starter and his heels ---------------------------------------------------------------

def test_jack_starter_is_his_heels_for_the_dealer_and_gives_no_nobs():
    game = make()
    run(game, DEAL, *DISCARDS)
    rejected(game, {"type": "starter", "card": "JC"}, "JC is already in seat 1's hand")
    effects = run(game, {"type": "starter", "card": "JH"})
    assert by_reason(effects) == [(0, "heels", 2)]
    show = run(game, *PLAY)
    # The dealer's JD is not the starter's suit; the starter jack itself never counts as nobs.
    assert not [e for e in show if e["reason"] == "nobs"]


def test_a_win_on_his_heels_ends_the_game():
    game = make()
    game.state.scores[0] = 119
    run(game, DEAL, *DISCARDS)
    assert by_reason(run(game, {"type": "starter", "card": "JH"})) == [(0, "heels", 2)]
    assert game.phase is Phase.GAME_OVER
    summary = game.summary()
    assert summary["winner"] == 0 and summary["scores"] == [121, 0] and summary["skunk"] == "double"
    assert summary["hand_over"] is True
    rejected(game, play(1, "10H"), "the game is over")


# ----- CR-6..CR-8: the play --------------------------------------------------------------------------

def test_pone_leads_and_turns_alternate():
    game = ready()
    rejected(game, play(0, "KC"), "not your turn: seat 1 is to play")
    run(game, play(1, "10H"))
    rejected(game, play(1, "10S"), "not your turn: seat 0 is to play")


def test_card_must_be_in_hand_and_count_never_passes_31():
    game = ready()
    rejected(game, play(1, "KC"), "KC is not in seat 1's hand")
    rejected(game, play(1, "4S"), "the starter")
    rejected(game, play(1, "2H"), "in the crib")
    run(game, play(1, "10H"), play(0, "KC"), play(1, "10S"))
    rejected(game, play(0, "10C"), "past 31 \\(count is 30\\)")


def test_go_is_illegal_while_a_card_fits():
    game = ready()
    rejected(game, go(1), "every card fits at count 0")
    run(game, play(1, "10H"))
    rejected(game, go(0), "every card fits at count 10")


def test_a_full_hand_of_play_and_show():
    game = ready()
    effects = [run(game, event) for event in PLAY]
    # Series 1: 10H KC 10S = 30; both say go; pone laid the last card: 1 for the go.
    assert by_reason(effects[4]) == [(1, "go", 1)]
    # The player after the last card's player leads: the dealer, and his 10 makes no pair across the reset.
    assert effects[5] == []
    # Series 2: 10C JC JD: a pair (JC JD) for the dealer, then go, go: the dealer pegs the go.
    assert by_reason(effects[7]) == [(0, "pair", 2)]
    assert by_reason(effects[9]) == [(0, "go", 1)]
    # Series 3: pone leads 7D; the dealer's 8H makes 15 on the last card: 2 + 1 = 3, on one line.
    last = effects[11]
    assert by_reason(last[:2]) == [(0, "fifteen", 2), (0, "last_card", 1)]
    # Show, scored as the play ends, in order pone -> dealer -> crib (starter 4S):
    #   pone 10H 10S JC 7D 4S: one pair = 2.   dealer KC 10C JD 8H 4S: nothing = 0.
    #   crib 2H 3H AC 9D 4S: 9+2+3+1 and 9+4+2 = two fifteens (4) + run A-2-3-4 (4) = 8.
    assert show_totals(last) == [(1, "hand", 2), (0, "crib", 8)]
    assert game.summary()["scores"] == [2 + 1 + 3 + 8, 1 + 2]
    assert game.phase is Phase.HAND_OVER


def test_thirty_one_scores_two_never_three_and_the_next_seat_leads():
    # Dealer 0 holds 5H 6H 8C 9C; pone 1 holds KS QS 10D 2D.
    game = make()
    run(game, {"type": "deal", "hands": [["5H", "6H", "8C", "9C", "AS", "AD"], ["KS", "QS", "10D", "2D", "3S", "3D"]]},
        {"type": "discard", "seat": 0, "cards": ["AS", "AD"]}, {"type": "discard", "seat": 1, "cards": ["3S", "3D"]},
        {"type": "starter", "card": "7C"})
    run(game, play(1, "KS"), play(0, "5H"))  # 15: 2 for the dealer
    run(game, play(1, "QS"))  # 25
    rejected(game, go(0), "illegal go: seat 0 can lay 6H \\(count is 25\\)")
    effects = run(game, play(0, "6H"))  # 31
    assert by_reason(effects) == [(0, "thirty_one", 2)]
    assert game.state.hand.count == 0 and game.to_act() == 1  # after the dealer's 31, pone leads


def test_go_rotation_with_three_players_and_31_after_two_goes():
    # Dealer 0; deal order 1, 2, 0; one card straight to the crib; each discards one.
    game = make(3, dealer=0)
    hands = [["KD", "5D", "AD", "4D", "2S"], ["10H", "9H", "2C", "3C", "4S"], ["KS", "QS", "JS", "10S", "5S"]]
    run(game, {"type": "deal", "to": "crib", "card": "6C"})
    rejected(game, {"type": "deal", "to": "crib", "card": "7C"}, "already been dealt")
    run(game, {"type": "deal", "hands": hands})
    assert game.phase is Phase.DISCARD
    rejected(game, {"type": "discard", "seat": 0, "cards": ["2S", "KD"]}, "exactly 1 card")
    run(game, *[{"type": "discard", "seat": s, "cards": [h[-1]]} for s, h in enumerate(hands)],
        {"type": "starter", "card": "7H"})
    assert game.to_act() == 1  # the player left of the dealer leads
    effects = run(game, play(1, "10H"), play(2, "KS"), play(0, "KD"))
    assert by_reason(effects) == [(0, "pair", 2)]  # KS KD
    # Count 30: seats 1 and 2 say go in rotation; seat 0 lays the ace: 31.
    assert by_reason(run(game, go(1), go(2), play(0, "AD"))) == [(0, "thirty_one", 2)]
    assert game.to_act() == 1
    run(game, play(1, "9H"), play(2, "QS"), play(0, "5D"), play(1, "3C"), go(2))
    # 9 Q 5 3 4: 31 and the last three (5 3 4) are a run.
    assert by_reason(run(game, play(0, "4D"))) == [(0, "thirty_one", 2), (0, "run", 3)]
    # Seats without cards are skipped: seat 2 lays twice in a row, then pegs the last card.
    run(game, play(1, "2C"), play(2, "JS"))
    assert game.to_act() == 2
    effects = run(game, play(2, "10S"))
    assert by_reason(effects)[0] == (2, "last_card", 1)
    order = [(seat, where) for seat, where, _ in show_totals(effects)]
    counted = [(1, "hand"), (2, "hand"), (0, "hand"), (0, "crib")]
    assert order == [c for c in counted if c in order]
    assert len(game.state.hand.crib.known) == 4
    assert len(game.summary()["scores"]) == 3


def test_four_players_pool_points_by_partnership():
    game = make(4, dealer=3)
    hands = [["5H", "2H", "3H", "4H", "KC"], ["5S", "2S", "3S", "4S", "KD"],
             ["5C", "2C", "3C", "4C", "KH"], ["5D", "2D", "3D", "4D", "KS"]]
    run(game, {"type": "deal", "hands": hands},
        *[{"type": "discard", "seat": s, "cards": [h[-1]]} for s, h in enumerate(hands)],
        {"type": "starter", "card": "9H"})
    assert game.to_act() == 0
    effects = run(game, play(0, "5H"), play(1, "5S"), play(2, "5C"), play(3, "5D"))
    # A pair (2), 15 with a pair royal (2 + 6), a double pair royal (12); seat 3 is side 1 with seat 1.
    assert by_reason(effects) == [(1, "pair", 2), (2, "fifteen", 2), (2, "pair", 6), (3, "pair", 12)]
    assert game.summary()["scores"] == [8, 14]


# ----- CR-10..CR-13: the show and winning ------------------------------------------------------------

def test_game_ends_during_the_show_before_later_counts():
    game = make()
    game.state.scores[1] = 118
    run(game, DEAL, *DISCARDS, STARTER)
    effects = run(game, *PLAY)
    # Pone: 118 + 1 (go) + 2 (show) = 121: the dealer's crib (8) is never counted.
    assert game.summary()["winner"] == 1 and game.summary()["scores"] == [6, 121]
    assert not [e for e in effects if e.get("show") == "crib"]
    assert game.summary()["skunk"] == "double" and game.summary()["match_points"] == 3


def test_a_win_in_the_play_ends_the_game_at_once():
    game = ready()
    game.state.scores[0] = 119
    run(game, *PLAY[:7])
    assert by_reason(run(game, PLAY[7])) == [(0, "pair", 2)]
    assert game.phase is Phase.GAME_OVER
    rejected(game, PLAY[8], "the game is over")


@pytest.mark.parametrize("starter, flushes", [
    # The crib 10D QD AD 3D is four diamonds; with the KD starter all five match: 5.
    ("KD", [(0, "hand", 4), (0, "crib", 5)]),
    # KC: pone's three clubs + a club starter are no flush, nor is a four-card crib flush.
    ("KC", [(0, "hand", 4)]),
])
def test_flush_in_hand_and_crib(starter, flushes):
    # Dealer 0 keeps 2H 4H 6H 8H: a four-card hand flush (4). Pone 1 keeps 3H 5C 7C 9C.
    game = make()
    run(game, {"type": "deal", "hands": [["2H", "4H", "6H", "8H", "10D", "QD"], ["3H", "5C", "7C", "9C", "AD", "3D"]]},
        {"type": "discard", "seat": 0, "cards": ["10D", "QD"]}, {"type": "discard", "seat": 1, "cards": ["AD", "3D"]},
        {"type": "starter", "card": starter})
    effects = run(game, play(1, "9C"), play(0, "8H"), play(1, "7C"), play(0, "6H"), go(1), go(0),
                  play(1, "3H"), play(0, "2H"), play(1, "5C"), play(0, "4H"))
    assert [(e["seat"], e["show"], e["points"]) for e in effects if e["reason"] == "flush"] == flushes


# ----- CR-14, CR-15 ----------------------------------------------------------------------------------

@pytest.mark.parametrize("target, loser, skunk", [
    (121, 91, "none"), (121, 90, "skunk"), (121, 61, "skunk"), (121, 60, "double"),
    (61, 31, "none"), (61, 30, "skunk"), (61, 0, "skunk"),
])
def test_skunk_lines(target, loser, skunk):
    game = make(target=target)
    game.state.scores[:] = [target - 2, loser]
    run(game, DEAL, *DISCARDS, {"type": "starter", "card": "JH"})
    assert game.summary()["skunk"] == skunk
    assert game.summary()["match_points"] == {"none": 1, "skunk": 2, "double": 3}[skunk]


def test_custom_skunk_line_and_match_values():
    game = make(skunk_line=100, double_skunk_line=0, match_win=2, match_skunk=4, match_double=4)
    game.state.scores[:] = [119, 95]
    run(game, DEAL, *DISCARDS, {"type": "starter", "card": "JH"})
    assert game.summary()["skunk"] == "skunk" and game.summary()["match_points"] == 4


def test_pegs_front_and_back_move_per_announcement():
    game = ready()
    run(game, *PLAY[:8])  # the dealer's pair
    assert game.pegs()[0] == {"back": 0, "front": 2}
    run(game, *PLAY[8:10])  # the dealer's go
    assert game.pegs()[0] == {"back": 2, "front": 3}
    run(game, *PLAY[10:])  # 15 + last card, then the crib's 8: two announcements
    assert game.pegs()[0] == {"back": 6, "front": 14}
    assert game.summary()["pegs"][1] == {"back": 1, "front": 3}


# ----- hand over, new hand, reveals ------------------------------------------------------------------

def test_new_hand_passes_the_deal_and_checks_the_assertion():
    game = ready()
    rejected(game, {"type": "new_hand"}, "not over")
    run(game, *PLAY)
    rejected(game, DEAL, "send new_hand")
    rejected(game, {"type": "new_hand", "dealer": 0}, "passes to seat 1, not seat 0")
    run(game, {"type": "new_hand", "dealer": 1})
    assert game.phase is Phase.DEAL and game.state.hand.dealer == 1
    rejected(game, {"type": "deal", "seat": 1, "card": "5H"}, "seat 0 is due")


def test_late_reveals_must_match_and_have_no_effects():
    game = ready()
    run(game, *PLAY)
    before = game.summary()["scores"]
    assert run(game, {"type": "reveal", "seat": 1, "cards": ["7D", "10H", "10S", "JC"]}) == []
    assert run(game, {"type": "reveal", "seat": 0, "crib": True, "cards": ["2H", "3H", "AC", "9D"]}) == []
    rejected(game, {"type": "reveal", "seat": 1, "cards": ["7D", "10H", "10S", "QC"]}, "does not match")
    rejected(game, {"type": "reveal", "seat": 1, "crib": True, "cards": ["2H", "3H", "AC", "9D"]}, "belongs to the dealer")
    assert game.summary()["scores"] == before


def test_unread_hands_play_and_the_crib_is_scored_on_its_reveal():
    game = make()
    run(game, {"type": "deal", "hands": [[None] * 6, [None] * 6]},
        {"type": "discard", "seat": 1, "cards": [None, None]}, {"type": "discard", "seat": 0, "cards": [None, "9D"]},
        STARTER)
    rejected(game, play(1, "9D"), "9D is not in seat 1's hand \\(it is in the crib\\)")
    rejected(game, play(1, "4S"), "the starter")
    run(game, *PLAY)
    # Both hands became known card by card; the crib is still face down: the show waits for it.
    assert game.phase is Phase.SHOW and game.next_count() == (0, True)
    assert game.summary()["scores"] == [6, 3]
    rejected(game, {"type": "reveal", "seat": 0, "crib": True, "cards": ["2H", "3H", "AC"]}, "has 4 cards")
    rejected(game, {"type": "reveal", "seat": 0, "crib": True, "cards": ["2H", "3H", "AC", "8D"]}, "leaves out 9D")
    rejected(game, {"type": "reveal", "seat": 0, "crib": True, "cards": ["2H", "3H", "KC", "9D"]}, "played by seat 0")
    effects = run(game, {"type": "reveal", "seat": 0, "crib": True, "cards": ["2H", "3H", "AC", "9D"]})
    assert show_totals(effects) == [(0, "crib", 8)]
    assert game.phase is Phase.HAND_OVER


def test_a_false_go_is_reported_when_the_card_turns_up():
    game = make()
    run(game, {"type": "deal", "hands": [[None] * 6, [None] * 6]},
        {"type": "discard", "seat": 1, "cards": [None, None]}, {"type": "discard", "seat": 0, "cards": [None, None]},
        STARTER, play(1, "10H"), play(0, "KC"), play(1, "10S"))
    run(game, go(0))  # accepted: seat 0's cards are unread
    run(game, go(1))
    effects = run(game, play(0, "AC"))  # an ace fitted under 31 at count 30: the go was false
    assert {"violation": "false_go", "seat": 0, "card": "AC", "count": 30} in effects
    assert game.summary()["violations"] == [{"violation": "false_go", "seat": 0, "card": "AC", "count": 30}]


def test_reveal_out_of_order_is_refused():
    game = make(five_card=True)
    run(game, {"type": "deal", "hands": [[None] * 5, [None] * 5]},
        {"type": "discard", "seat": 1, "cards": [None, None]}, {"type": "discard", "seat": 0, "cards": [None, None]},
        {"type": "starter", "card": "7S"}, play(1, "10H"), play(0, "KC"), play(1, "9H"), play(0, "2D"))
    assert game.phase is Phase.SHOW
    rejected(game, {"type": "reveal", "seat": 0, "cards": ["KC", "2D", "QC"]}, "seat 1's hand counts first")
    rejected(game, {"type": "reveal", "seat": 1, "cards": ["10H", "9H", "2D"]}, "played by seat 0")


# ----- variants --------------------------------------------------------------------------------------

def test_five_card_three_for_last_single_series_and_three_card_flush():
    game = make(five_card=True)
    # "Three for last" goes to pone on the first accepted event line, even after a rejected one.
    rejected(game, {"type": "discard", "seat": 1, "cards": ["AS", "4D"]}, "no discard now")
    assert game.summary()["scores"] == [0, 3]
    effects = run(game, {"type": "deal", "hands": [["KC", "QC", "2D", "6C", "3S"], ["10H", "9H", "8H", "AS", "4D"]]})
    assert by_reason(effects) == [(1, "three_for_last", 3)]
    rejected(game, {"type": "discard", "seat": 1, "cards": ["AS"]}, "exactly 2")
    run(game, {"type": "discard", "seat": 1, "cards": ["AS", "4D"]}, {"type": "discard", "seat": 0, "cards": ["6C", "3S"]},
        {"type": "starter", "card": "7S"}, play(1, "10H"), play(0, "KC"), play(1, "9H"))
    effects = run(game, play(0, "2D"))
    # 31 ends the only series, and so the play, with 8H and QC still in hand.
    assert by_reason(effects)[0] == (0, "thirty_one", 2)
    # Pone 10H 9H 8H + 7S: 8+7 (2) + run of 4 (4) + three-card flush (3) = 9.
    # Dealer KC QC 2D + 7S: 0.   Crib AS 4D 6C 3S + 7S: 7+4+3+1 (2) = 2.
    assert show_totals(effects) == [(1, "hand", 9), (0, "crib", 2)]
    assert game.summary()["scores"] == [2 + 2, 3 + 9]


def test_five_card_play_ends_at_the_first_go_series():
    game = make(five_card=True)
    run(game, {"type": "deal", "hands": [["KC", "QC", "JD", "6C", "3S"], ["10H", "9H", "8H", "AS", "4D"]]},
        {"type": "discard", "seat": 1, "cards": ["AS", "4D"]}, {"type": "discard", "seat": 0, "cards": ["6C", "3S"]},
        {"type": "starter", "card": "7S"}, play(1, "10H"), play(0, "KC"), play(1, "9H"), go(0))
    # 29: the dealer says go, pone cannot lay 8H either: 1 for the go ends the play (last card).
    effects = run(game, go(1))
    assert by_reason(effects)[0] == (1, "last_card", 1)
    assert game.phase is Phase.HAND_OVER


def test_muggins_claims():
    game = ready(muggins=True)
    effects = run(game, *PLAY)
    assert not [e for e in effects if "show" in e] and game.phase is Phase.SHOW
    rejected(game, {"type": "claim", "seat": 0, "points": 0}, "seat 1's hand counts now")
    rejected(game, {"type": "claim", "seat": 1, "points": 3}, "claim of 3 refused: seat 1's hand is worth 2")
    rejected(game, {"type": "claim", "seat": 1, "points": -1}, "negative")
    assert by_reason(run(game, {"type": "claim", "seat": 1, "points": 2})) == [(1, "pair", 2)]
    assert run(game, {"type": "claim", "seat": 0, "points": 0}) == []
    rejected(game, {"type": "claim", "seat": 0, "crib": False, "points": 8}, "seat 0's crib counts now")
    rejected(game, {"type": "claim", "seat": 0, "crib": True, "points": 5, "by": 0}, "called by an opponent")
    effects = run(game, {"type": "claim", "seat": 0, "crib": True, "points": 5})
    assert by_reason(effects) == [(0, "claim", 5), (1, "muggins", 3)]
    assert sum(p["points"] for p in effects[1]["breakdown"]) == 8
    assert game.phase is Phase.HAND_OVER


def test_claims_need_the_muggins_option():
    game = ready()
    run(game, *PLAY)
    rejected(game, {"type": "claim", "seat": 1, "points": 2}, "muggins option")


def test_unknown_event_type_and_malformed_fields():
    game = ready()
    rejected(game, {"type": "shuffle"}, "unknown event type")
    rejected(game, {"seat": 1}, "missing 'type'")
    rejected(game, {"type": "play", "seat": "1", "card": "10H"}, "must be an integer")
    rejected(game, {"type": "play", "seat": 1, "card": None}, "malformed")
