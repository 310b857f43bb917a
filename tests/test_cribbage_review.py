"""Review scenarios for the cribbage engine, written from controller/cribbage/RULES.md and controller/HISTORY.md.

Each scenario is a hand worked out by hand from the rules (the arithmetic is in the comments), driven
through `controller.games.new_game` like the replay does, or through `cardtable replay` where the output
format is the point. Rule ids (CR-n, a variant's V- name, HH = controller/HISTORY.md) are cited next to
each assertion.
"""
from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.cards import Card, full_deck
from controller.cribbage.scoring import score_show
from controller.engine import IllegalEvent
from cribbage_table import make, play, rejected, run, show_totals

HISTORIES = Path(__file__).parent / "data" / "histories" / "cribbage"
SCORE_REASONS = {"fifteen", "pair", "run", "go", "last_card", "thirty_one", "heels", "nobs", "flush",
                 "muggins", "claim", "three_for_last"}


def go(seat: int) -> dict[str, Any]:
    return {"type": "go", "seat": seat}


def discard(seat: int, *cards: str | None) -> dict[str, Any]:
    return {"type": "discard", "seat": seat, "cards": list(cards)}


def starter(card: str) -> dict[str, Any]:
    return {"type": "starter", "card": card}


def deal(*hands: list[str | None]) -> dict[str, Any]:
    return {"type": "deal", "hands": [list(h) for h in hands]}


def pegged(effects: list[dict[str, Any]]) -> list[tuple[int, str, int]]:
    """(seat, reason, points) of the play's score effects (show effects left out)."""
    return [(e["seat"], e["reason"], e["points"]) for e in effects if "points" in e and "show" not in e]


def scored(effects: list[dict[str, Any]]) -> list[tuple[int, str, int]]:
    """(seat, reason, points) of every score effect, play and show alike."""
    return [(e["seat"], e["reason"], e["points"]) for e in effects if "points" in e]


def set_scores(game: Any, scores: list[int]) -> None:
    """Start a scenario late in a game (front and back pegs together)."""
    game.state.scores[:] = scores
    game.state.backs[:] = scores


def cli_replay(path: Path) -> tuple[int, list[dict[str, Any]], str]:
    done = subprocess.run([sys.executable, "-m", "controller.cli", "replay", str(path)],
                          capture_output=True, text=True, timeout=60)
    return done.returncode, [json.loads(line) for line in done.stdout.splitlines()], done.stderr


# ----- two players: the go, a hand run empty, pairs broken (CR-6..CR-9) --------------------------------

# Dealer 0 keeps KC KD KH KS (lays away 3D 4D); pone 1 keeps AH AS 2H 2S (lays away 9C 8C). Starter 7D.
TWO_EMPTY = [deal(["KC", "KD", "KH", "KS", "3D", "4D"], ["AH", "AS", "2H", "2S", "9C", "8C"]),
             discard(1, "9C", "8C"), discard(0, "3D", "4D"), starter("7D")]


def test_two_players_go_then_a_hand_run_empty_is_skipped():
    game = make()
    run(game, *TWO_EMPTY)
    assert game.to_act() == 1  # CR-6: pone leads
    assert run(game, play(1, "AH"), play(0, "KC")) == []
    # CR-8: AH .. KC .. AS: the pair is broken by the king between them.
    assert pegged(run(game, play(1, "AS"))) == []
    assert pegged(run(game, play(0, "KD"), play(1, "2H"))) == []  # count 24
    rejected(game, play(0, "KH"), r"KH would take the count past 31 \(count is 24\)")  # CR-6
    run(game, go(0))
    # CR-7: after the dealer's go pone keeps laying; 2H 2S is a pair (CR-8). Pone's hand is now empty and
    # the dealer is out on his go: nobody can lay, pone laid the last card: 1 for the go on the same line.
    assert pegged(run(game, play(1, "2S"))) == [(1, "pair", 2), (1, "go", 1)]
    # CR-7: the player after the last card's player (the dealer) leads; pone, with no cards, is skipped,
    # so the dealer lays twice in a row.
    assert game.state.hand.count == 0 and game.to_act() == 0
    assert run(game, play(0, "KH")) == []
    assert game.to_act() == 0
    rejected(game, go(1), "not your turn: seat 0 is to play")
    last = run(game, play(0, "KS"))
    # KH KS: a pair; the play is over (CR-9), 20 is not 31: 1 for the last card (CR-8).
    assert pegged(last) == [(0, "pair", 2), (0, "last_card", 1)]
    # CR-10 counting order pone, dealer, crib; CR-11 with the 7D starter:
    #   pone AH AS 2H 2S 7D: pairs AA 22 = 4 (no fifteen: the five cards sum to 13).
    #   dealer KC KD KH KS 7D: six pairs = 12.
    #   crib 9C 8C 3D 4D 7D: 8+7, 8+4+3 = 4; run 7-8-9 = 3: 7.
    assert show_totals(last) == [(1, "hand", 4), (0, "hand", 12), (0, "crib", 7)]
    assert game.summary()["scores"] == [2 + 1 + 12 + 7, 2 + 1 + 4]


# Dealer 0 keeps 7S 7D 6S 7H (lays away 4S 9D); pone 1 keeps 10H 7C KC 8H (lays away AH 2H). Starter QD.
def test_thirty_one_with_a_pair_royal_and_with_a_run_scores_both_and_never_a_go():
    game = make()
    run(game, deal(["7S", "7D", "6S", "7H", "4S", "9D"], ["10H", "7C", "KC", "8H", "AH", "2H"]),
        discard(1, "AH", "2H"), discard(0, "4S", "9D"), starter("QD"))
    assert run(game, play(1, "10H"), play(0, "7S")) == []
    assert pegged(run(game, play(1, "7C"))) == [(1, "pair", 2)]  # 24
    # CR-8: 10 7 7 7 = 31 (2) and a pair royal (6), both; CR-7: no go point after 31.
    assert sorted(pegged(run(game, play(0, "7D")))) == [(0, "pair", 6), (0, "thirty_one", 2)]
    # CR-7: count resets, the player after the one who laid the 31 (pone) leads.
    assert game.state.hand.count == 0 and game.to_act() == 1
    run(game, play(1, "KC"), play(0, "6S"), play(1, "8H"))  # 24
    last = run(game, play(0, "7H"))
    # CR-8: K 6 8 7 = 31 (2) with the run 6-8-7 (3); the last card of the play at 31 adds nothing (CR-7).
    assert sorted(pegged(last)) == [(0, "run", 3), (0, "thirty_one", 2)]
    # Show (QD): pone 10H 7C KC 8H: 7+8 = 2; dealer 7S 7D 6S 7H: pair royal 6;
    # crib AH 2H 4S 9D: 9+4+2, Q+4+A = 4.
    assert show_totals(last) == [(1, "hand", 2), (0, "hand", 6), (0, "crib", 4)]
    assert game.summary()["scores"] == [8 + 5 + 6 + 4, 2 + 2]


# Dealer 0 keeps AS 5C 7D 3S (lays away KD QD); pone 1 keeps 3H 2C 4D 6H (lays away KC QC). Starter 9C.
def test_runs_up_to_seven_out_of_order_in_the_play():
    game = make()
    run(game, deal(["AS", "5C", "7D", "3S", "KD", "QD"], ["3H", "2C", "4D", "6H", "KC", "QC"]),
        discard(1, "KC", "QC"), discard(0, "KD", "QD"), starter("9C"))
    assert run(game, play(1, "3H"), play(0, "AS")) == []
    assert pegged(run(game, play(1, "2C"))) == [(1, "run", 3)]  # 3 A 2
    assert pegged(run(game, play(0, "5C"))) == []  # 3 A 2 5: no run
    # 3 A 2 5 4 = 15: fifteen and a run of 5 (CR-8: any order).
    assert sorted(pegged(run(game, play(1, "4D")))) == [(1, "fifteen", 2), (1, "run", 5)]
    assert pegged(run(game, play(0, "7D"))) == []  # 22: no k in 3..6 makes a run
    assert pegged(run(game, play(1, "6H"))) == [(1, "run", 7)]  # 28: 3 A 2 5 4 7 6
    # 31 with the last seven cards A 2 5 4 7 6 3 again a run of 7 (the 8 cards hold the 3 twice);
    # the play ends on 31: no last-card point.
    last = run(game, play(0, "3S"))
    assert sorted(pegged(last)) == [(0, "run", 7), (0, "thirty_one", 2)]
    # Show (9C): pone 3H 2C 4D 6H: 6+9, 2+4+9, 3+2+4+6 = 6 + run 2-3-4 = 3: 9;
    # dealer AS 5C 7D 3S: 5+7+3, A+5+9 = 4; crib KC QC KD QD: two pairs = 4.
    assert show_totals(last) == [(1, "hand", 9), (0, "hand", 4), (0, "crib", 4)]
    assert game.summary()["scores"] == [9 + 4 + 4, 3 + 7 + 7 + 9]


# ----- three players: V-three rotation after a go --------------------------------------------------------

# Dealer 0; the crib card 7C; seat 1 keeps 10H 9S 4C 5C (lays away KD), seat 2 QH 2D 3S 8H (JC),
# seat 0 8D 7S 6D 9H (QC). Starter 9D.
THREE = [{"type": "deal", "to": "crib", "card": "7C"},
         deal(["8D", "7S", "6D", "9H", "QC"], ["10H", "9S", "4C", "5C", "KD"], ["QH", "2D", "3S", "8H", "JC"]),
         discard(0, "QC"), discard(1, "KD"), discard(2, "JC"), starter("9D")]
THREE_PLAY = [play(1, "10H"), play(2, "QH"), play(0, "8D"), go(1), play(2, "2D"), go(0), go(2),
              play(0, "7S"), play(1, "5C"), play(2, "3S"), play(0, "6D"), play(1, "4C"), go(2), go(0), go(1),
              play(2, "8H"), play(0, "9H"), play(1, "9S")]


def test_three_players_after_a_go_the_others_go_on_in_rotation():
    game = make(3, dealer=0)
    run(game, *THREE)
    assert game.to_act() == 1  # V-three: the player left of the dealer leads
    run(game, play(1, "10H"), play(2, "QH"), play(0, "8D"))  # 28
    run(game, go(1))  # 9S 4C 5C: nothing fits
    assert game.to_act() == 2
    rejected(game, go(2), r"illegal go: seat 2 can lay (2D|3S) \(count is 28\)")  # CR-6
    rejected(game, play(1, "4C"), "not your turn: seat 2 is to play")  # out on his go
    run(game, play(2, "2D"))  # 30
    assert game.to_act() == 0  # V-three: the rotation goes on to seat 0 ...
    run(game, go(0))
    assert game.to_act() == 2  # ... and past seat 1, who said go, back to seat 2
    # Nobody can lay: seat 2 laid the last card and pegs the go (V-three, CR-7).
    assert pegged(run(game, go(2))) == [(2, "go", 1)]
    assert game.state.hand.count == 0 and game.to_act() == 0  # CR-7: the player after seat 2 leads

    run(game, play(0, "7S"), play(1, "5C"))
    assert pegged(run(game, play(2, "3S"))) == [(2, "fifteen", 2)]  # 7 5 3 = 15, no run
    assert pegged(run(game, play(0, "6D"))) == []  # 7 5 3 6: no run
    assert pegged(run(game, play(1, "4C"))) == [(1, "run", 5)]  # 7 5 3 6 4: run of 5 (25)
    run(game, go(2), go(0))
    assert pegged(run(game, go(1))) == [(1, "go", 1)]
    assert game.to_act() == 2

    run(game, play(2, "8H"), play(0, "9H"))
    last = run(game, play(1, "9S"))  # 26, a pair, the last card of the play
    assert pegged(last) == [(1, "pair", 2), (1, "last_card", 1)]
    # V-three / CR-10: the show goes clockwise from the dealer's left: seat 1, seat 2, seat 0, the crib.
    #   seat 1 10H 9S 4C 5C 9D: 10+5 = 2, 9-9 = 2: 4.   seat 2 QH 2D 3S 8H 9D: Q+3+2 = 2.
    #   seat 0 8D 7S 6D 9H 9D: 8+7, 6+9, 6+9 = 6, double run 6-7-8-9 = 8, 9-9 = 2: 16.
    #   crib 7C KD JC QC 9D: run J-Q-K = 3 (JC is no nobs with a diamond starter).
    assert show_totals(last) == [(1, "hand", 4), (2, "hand", 2), (0, "hand", 16), (0, "crib", 3)]
    assert game.summary()["scores"] == [16 + 3, 5 + 1 + 2 + 1 + 4, 1 + 2 + 2]


def test_three_players_win_in_the_show_stops_the_later_counts():
    # CR-10/CR-13: seat 2 starts at 116, pegs 3 (119) and counts 2 (121) second: seat 0's 16 and the crib
    # are never counted.
    game = make(3, dealer=0)
    set_scores(game, [0, 0, 116])
    effects = run(game, *THREE, *THREE_PLAY)
    assert show_totals(effects) == [(1, "hand", 4), (2, "hand", 2)]
    summary = game.summary()
    assert summary["winner"] == 2 and summary["scores"] == [0, 13, 121] and summary["hand_over"] is True
    rejected(game, {"type": "reveal", "seat": 0, "cards": ["8D", "7S", "6D", "9H"]}, "the game is over")


def test_three_players_his_heels_wins_at_once():
    game = make(3, dealer=0)
    set_scores(game, [119, 50, 50])
    effects = run(game, *THREE[:-1], starter("JS"))
    assert pegged(effects) == [(0, "heels", 2)]  # CR-5
    assert game.summary()["winner"] == 0 and game.summary()["skunk"] == "double"  # CR-13, CR-14
    rejected(game, play(1, "10H"), "the game is over")


def test_three_players_muggins_claims():
    game = make(3, dealer=0, muggins=True)
    run(game, *THREE, *THREE_PLAY)
    # V-muggins: a claim above the count is refused, the state unchanged.
    rejected(game, {"type": "claim", "seat": 1, "points": 5}, "claim of 5 refused: seat 1's hand is worth 4")
    rejected(game, {"type": "claim", "seat": 2, "points": 2}, "seat 1's hand counts now")  # V-three order
    assert scored(run(game, {"type": "claim", "seat": 1, "points": 4})) == [(1, "fifteen", 2), (1, "pair", 2)]
    # An under-claim: the opponent who calls muggins pegs the rest.
    effects = run(game, {"type": "claim", "seat": 2, "points": 1, "by": 1})
    assert scored(effects) == [(2, "claim", 1), (1, "muggins", 1)]
    assert scored(run(game, {"type": "claim", "seat": 0, "points": 16}))[0][1] == "fifteen"
    assert scored(run(game, {"type": "claim", "seat": 0, "crib": True, "points": 0, "by": 2})) == [(2, "muggins", 3)]
    assert game.summary()["scores"] == [16, 9 + 4 + 1, 3 + 1 + 3]


def test_three_players_unread_crib_card_waits_for_its_reveal():
    # HH: the crib card dealt unread; the hands are known from the play and count in order; the crib
    # (seat 0's, the dealer's) is counted on its reveal, which must name the four cards.
    game = make(3, dealer=0)
    effects = run(game, {"type": "deal", "to": "crib", "card": None}, *THREE[1:], *THREE_PLAY)
    assert show_totals(effects) == [(1, "hand", 4), (2, "hand", 2), (0, "hand", 16)]
    rejected(game, {"type": "reveal", "seat": 0, "crib": True, "cards": ["KD", "JC", "QC"]}, "4 cards")
    rejected(game, {"type": "reveal", "seat": 0, "crib": True, "cards": ["9H", "KD", "JC", "QC"]}, "9H")
    effects = run(game, {"type": "reveal", "seat": 0, "crib": True, "cards": ["7C", "KD", "JC", "QC"]})
    assert show_totals(effects) == [(0, "crib", 3)] and game.summary()["hand_over"] is True


def test_three_players_single_card_deal_order_and_the_crib_card():
    # CR-4 / V-three: one at a time from the dealer's left (dealer 2: seats 0, 1, 2, ...), the crib card
    # straight to the crib; the deal is complete with 3 x 5 + 1 cards.
    game = make(3, dealer=2)
    cards = iter(["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "AS", "2S"])
    for round_ in range(5):
        for seat in (0, 1, 2):
            if (round_, seat) == (2, 1):
                rejected(game, {"type": "deal", "seat": 2, "card": "3S"}, "seat 1 is due the next card")
                run(game, {"type": "deal", "to": "crib", "card": "3S"})
            run(game, {"type": "deal", "seat": seat, "card": next(cards)})
    assert game.phase.value == "discard"
    rejected(game, {"type": "deal", "to": "crib", "card": "4S"}, "no deal now")


def test_muggins_the_dealers_claim_after_the_crib_is_revealed_is_the_cribs():
    game = make(muggins=True)
    run(game, deal(["KC", "10C", "JD", "8H", None, None], ["10H", "10S", "JC", "7D", None, None]),
        discard(1, None, None), discard(0, None, None), starter("4S"),
        play(1, "10H"), play(0, "KC"), play(1, "10S"), go(0), go(1), play(0, "10C"), play(1, "JC"), play(0, "JD"),
        go(1), go(0), play(1, "7D"), play(0, "8H"),
        {"type": "claim", "seat": 1, "points": 2}, {"type": "claim", "seat": 0, "points": 0},
        {"type": "reveal", "seat": 0, "crib": True, "cards": ["2H", "3H", "AC", "9D"]})
    rejected(game, {"type": "claim", "seat": 0, "crib": False, "points": 8}, "seat 0's crib counts now")
    effects = run(game, {"type": "claim", "seat": 0, "points": 8})  # no "crib": the crib is what counts now
    assert show_totals(effects) == [(0, "crib", 8)] and game.summary()["hand_over"] is True


def test_muggins_points_that_reach_the_target_win_at_once():
    # V-muggins + CR-13: seat 2 (at 120 after the play) pegs seat 1's missed point and wins; seat 2's
    # own count and the rest are never made.
    game = make(3, dealer=0, muggins=True)
    set_scores(game, [0, 0, 117])
    run(game, *THREE, *THREE_PLAY)
    assert game.summary()["scores"] == [0, 9, 120]
    assert scored(run(game, {"type": "claim", "seat": 1, "points": 3, "by": 2})) == [(1, "claim", 3), (2, "muggins", 1)]
    assert game.summary()["winner"] == 2 and game.summary()["scores"] == [0, 12, 121]
    rejected(game, {"type": "claim", "seat": 2, "points": 2}, "the game is over")


# ----- four players: partnerships, rotation, skipping the empty hands (V-four) ----------------------------

# Dealer 3; seat 0 keeps 10S 10H AC 2C, seat 1 KS KH 3C 4D, seat 2 QS QH 5C 6D, seat 3 JS JD 7C 8D;
# each lays a nine away, the crib is the four nines. Starter AS.
FOUR = [deal(["10S", "10H", "AC", "2C", "9C"], ["KS", "KH", "3C", "4D", "9D"], ["QS", "QH", "5C", "6D", "9S"],
             ["JS", "JD", "7C", "8D", "9H"]),
        discard(0, "9C"), discard(1, "9D"), discard(2, "9S"), discard(3, "9H"), starter("AS")]


def test_four_players_rotation_partnerships_and_the_show_order():
    game = make(4, dealer=3)
    run(game, *FOUR)
    assert game.to_act() == 0  # V-four: the dealer's left leads
    assert run(game, play(0, "10S"), play(1, "KS"), play(2, "QS")) == []  # 10 K Q: no run (J missing)
    run(game, go(3))
    rejected(game, go(0), r"illegal go: seat 0 can lay AC \(count is 30\)")
    assert pegged(run(game, play(0, "AC"))) == [(0, "thirty_one", 2)]
    assert game.to_act() == 1  # CR-7: after the 31 the next seat leads
    run(game, play(1, "KH"))
    assert pegged(run(game, play(2, "5C"))) == [(2, "fifteen", 2)]
    run(game, play(3, "JS"), play(0, "2C"), play(1, "3C"))  # 30
    run(game, go(2), go(3), go(0))
    assert game.to_act() == 1  # 4D would make 34: seat 1 too must say go
    assert pegged(run(game, go(1))) == [(1, "go", 1)]
    assert game.to_act() == 2
    run(game, play(2, "6D"), play(3, "8D"), play(0, "10H"), play(1, "4D"))  # 28; seats 0 and 1 now empty
    assert game.to_act() == 2
    run(game, go(2))
    assert game.to_act() == 3
    assert pegged(run(game, go(3))) == [(1, "go", 1)]  # the empty seats 0 and 1 are skipped
    assert game.to_act() == 2  # seat 1 laid the last card; seat 2 is the next seat holding cards
    assert pegged(run(game, play(2, "QH"))) == []
    assert pegged(run(game, play(3, "JD"))) == []  # Q then J: the same value is no pair (CR-8)
    assert game.to_act() == 3  # seats 0, 1, 2 are empty: seat 3 lays again
    last = run(game, play(3, "7C"))
    assert pegged(last) == [(3, "last_card", 1)]
    # V-four: the show clockwise from the dealer's left, the dealer, then his crib (starter AS):
    #   seat 0 10S 10H AC 2C: two pairs = 4.   seat 1 KS KH 3C 4D: K+4+A twice = 4, K-K = 2: 6.
    #   seat 2 QS QH 5C 6D: Q+5 twice = 4, Q-Q = 2: 6.   seat 3 JS JD 7C 8D: 7+8 = 2, J-J = 2, nobs JS: 5.
    #   crib four nines: 12.
    assert show_totals(last) == [(0, "hand", 4), (1, "hand", 6), (2, "hand", 6), (3, "hand", 5), (3, "crib", 12)]
    assert game.summary()["scores"] == [2 + 2 + 4 + 6, 1 + 1 + 1 + 6 + 5 + 12]  # pooled per side
    run(game, {"type": "new_hand", "dealer": 0})  # CR-3: the deal passes to the left
    rejected(game, {"type": "deal", "seat": 0, "card": "5H"}, "seat 1 is due the next card")


def test_four_players_win_in_the_play_by_a_partner_ends_the_game_at_once():
    game = make(4, dealer=3)
    set_scores(game, [117, 0])
    run(game, *FOUR, play(0, "10S"), play(1, "KS"), play(2, "QS"), go(3), play(0, "AC"), play(1, "KH"))
    assert game.summary()["scores"] == [119, 0]
    assert pegged(run(game, play(2, "5C"))) == [(2, "fifteen", 2)]  # side 0 reaches 121 (CR-13)
    summary = game.summary()
    assert summary["winner"] == 0 and summary["scores"] == [121, 0] and summary["skunk"] == "double"
    rejected(game, play(3, "JS"), "the game is over")


def test_four_players_muggins_is_called_by_an_opponent_not_a_partner():
    game = make(4, dealer=3, muggins=True)
    run(game, *FOUR, play(0, "10S"), play(1, "KS"), play(2, "QS"), go(3), play(0, "AC"), play(1, "KH"),
        play(2, "5C"), play(3, "JS"), play(0, "2C"), play(1, "3C"), go(2), go(3), go(0), go(1),
        play(2, "6D"), play(3, "8D"), play(0, "10H"), play(1, "4D"), go(2), go(3), play(2, "QH"),
        play(3, "JD"), play(3, "7C"))
    rejected(game, {"type": "claim", "seat": 0, "points": 2, "by": 2}, "called by an opponent")
    assert scored(run(game, {"type": "claim", "seat": 0, "points": 2, "by": 3})) == [(0, "claim", 2), (3, "muggins", 2)]


# ----- winning, skunks (CR-13, CR-14) ----------------------------------------------------------------------

def test_pone_goes_out_in_the_show_before_the_dealer_counts():
    # CR-10: pone counts first; reaching 121 ends the game, the dealer's 12 + 7 are never counted.
    game = make()
    set_scores(game, [100, 114])
    effects = run(game, *TWO_EMPTY, play(1, "AH"), play(0, "KC"), play(1, "AS"), play(0, "KD"),
                  play(1, "2H"), go(0), play(1, "2S"), play(0, "KH"), play(0, "KS"))
    assert show_totals(effects) == [(1, "hand", 4)]
    assert game.summary()["scores"] == [103, 121] and game.summary()["winner"] == 1
    assert game.summary()["skunk"] == "none"


def test_the_go_point_on_the_opponents_go_line_can_win_the_game():
    # CR-7 + CR-13: pone (118) pairs 2H 2S (120); the dealer is out on his go and pone has no cards left:
    # pone's go point on the same line takes him to 121.
    game = make()
    set_scores(game, [0, 118])
    run(game, *TWO_EMPTY, play(1, "AH"), play(0, "KC"), play(1, "AS"), play(0, "KD"), play(1, "2H"), go(0))
    assert pegged(run(game, play(1, "2S"))) == [(1, "pair", 2), (1, "go", 1)]
    assert game.summary()["winner"] == 1 and game.summary()["scores"] == [0, 121]
    rejected(game, play(0, "KH"), "the game is over")


@pytest.mark.parametrize("players, options, loser, skunk", [
    (2, {}, 91, "none"), (2, {}, 90, "skunk"), (2, {}, 61, "skunk"), (2, {}, 60, "double"),
    (2, {"target": 61}, 31, "none"), (2, {"target": 61}, 30, "skunk"), (2, {"target": 61}, 0, "skunk"),
    (2, {"five_card": True}, 31, "none"), (2, {"five_card": True}, 30, "skunk"),
    (4, {}, 91, "none"), (4, {}, 90, "skunk"), (4, {}, 60, "double"),
])
def test_skunk_lines(players, options, loser, skunk):
    # CR-14: 121 game: 90 or fewer is a skunk, 60 or fewer a double; 61 game: the line at 31.
    game = make(players, dealer=0, **options)
    target = 61 if options else 121
    set_scores(game, [target - 2, loser])
    hand_size = 5 if players == 4 or options.get("five_card") else 6
    names = ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "QH", "2S", "3S", "4S", "5S", "6S", "7S",
             "8S", "9S", "10S", "QS", "KS", "KH"]
    hands = [names[i * hand_size:(i + 1) * hand_size] for i in range(players)]
    lay = 1 if players == 4 else 2
    run(game, deal(*hands), *[discard(s, *h[:lay]) for s, h in enumerate(hands)])
    assert pegged(run(game, starter("JC"))) == [(0, "heels", 2)]
    summary = game.summary()
    assert summary["winner"] == 0 and summary["skunk"] == skunk


# ----- five-card (V-five-card) ----------------------------------------------------------------------------

def test_five_card_last_card_fifteen_is_three_and_three_for_last():
    game = make(five_card=True)
    effects = run(game, deal(["AD", "2D", "5C", "KH", "QH"], ["AH", "2H", "4C", "KS", "QS"]))
    assert pegged(effects) == [(1, "three_for_last", 3)]  # pone, at the start of the game
    run(game, discard(1, "KS", "QS"), discard(0, "KH", "QH"), starter("9S"), play(1, "AH"))
    assert pegged(run(game, play(0, "AD"))) == [(0, "pair", 2)]
    assert pegged(run(game, play(1, "2H"))) == []
    assert pegged(run(game, play(0, "2D"))) == [(0, "pair", 2)]
    run(game, play(1, "4C"))
    last = run(game, play(0, "5C"))
    # CR-8: the last card makes 15: 2 + 1 = 3.
    assert pegged(last) == [(0, "fifteen", 2), (0, "last_card", 1)]
    # Show (9S): pone AH 2H 4C: 2+4+9 = 2; dealer AD 2D 5C: A+5+9 = 2; crib KS QS KH QH: 4 (no flush).
    assert show_totals(last) == [(1, "hand", 2), (0, "hand", 2), (0, "crib", 4)]
    assert game.summary()["scores"] == [2 + 2 + 3 + 2 + 4, 3 + 2]


@pytest.mark.parametrize("cut, flushes, scores", [
    # Pone's three hearts with a heart starter: 4; the crib's four clubs with a heart starter: none.
    ("AH", [(1, "hand", 4)], [4, 3 + 1 + 4]),
    # A club starter: pone's three hearts alone: 3; the crib's four clubs + the starter: 5.
    ("AC", [(1, "hand", 3), (0, "crib", 5)], [9, 3 + 1 + 3]),
])
def test_five_card_single_series_and_three_card_flush(cut, flushes, scores):
    game = make(five_card=True)
    run(game, deal(["QS", "7D", "9S", "4C", "KC"], ["10H", "6H", "2H", "3C", "8C"]),
        discard(1, "3C", "8C"), discard(0, "4C", "KC"), starter(cut),
        play(1, "10H"), play(0, "QS"), play(1, "6H"), go(0))
    effects = run(game, play(1, "2H"))  # 28; pone is empty, the dealer out on his go
    # V-five-card: one series only; it ends here and so does the play, 7D 9S unplayed: last card.
    assert pegged(effects) == [(1, "last_card", 1)]
    rejected(game, play(0, "7D"), "no play now")
    assert [(e["seat"], e["show"], e["points"]) for e in effects if e.get("reason") == "flush"] == flushes
    # Crib 3C 8C 4C KC: 3+8+4, K+4+A = 4 either way.
    assert game.summary()["scores"] == scores


def test_five_card_unread_go_proven_false_at_the_show():
    game = make(five_card=True)
    run(game, deal([None] * 5, [None] * 5), discard(1, None, None), discard(0, None, None), starter("7S"),
        play(1, "10H"), play(0, "KC"), play(1, "5H"))  # 25
    run(game, go(0))  # the dealer's cards are unread: the go is accepted
    effects = run(game, play(1, "4D"))  # 29: pone is empty, the single series and the play end
    assert pegged(effects) == [(1, "last_card", 1)]
    # Pone's hand is known from the play: 10H 5H 4D 7S: 10+5 = 2. The dealer's waits for his reveal.
    assert show_totals(effects) == [(1, "hand", 2)]
    # The dealer held 6C at count 25: it fitted (31), so the go was false (HH: a violation found later).
    effects = run(game, {"type": "reveal", "seat": 0, "cards": ["KC", "6C", "9D"]})
    assert {"violation": "false_go", "seat": 0, "card": "6C", "count": 25} in effects
    assert show_totals(effects) == [(0, "hand", 2)]  # 6+9 = 15
    assert game.summary()["violations"] == [{"violation": "false_go", "seat": 0, "card": "6C", "count": 25}]


def test_unread_go_that_was_true_is_no_violation_and_a_go_at_21_is_refused():
    game = make(five_card=True)
    run(game, deal([None] * 5, [None] * 5), discard(1, None, None), discard(0, None, None), starter("7S"),
        play(1, "10H"), play(0, "AC"), play(1, "JH"))  # 21
    rejected(game, go(0), "every card fits at count 21")  # HH: no card is worth more than 10
    run(game, play(0, "AD"))  # 22
    run(game, play(1, "2H"))  # 24: pone's third and last card
    # The dealer's go (room 7) ends the single series: pone laid the last card (V-five-card, CR-8).
    assert pegged(run(game, go(0))) == [(1, "last_card", 1)]
    effects = run(game, {"type": "reveal", "seat": 0, "cards": ["AC", "AD", "8C"]})  # 8 > 7: a true go
    assert not [e for e in effects if "violation" in e] and game.summary()["violations"] == []


def test_two_player_unread_false_go_found_in_the_next_series():
    game = make()
    run(game, deal([None] * 6, [None] * 6), discard(1, None, None), discard(0, None, None), starter("4S"),
        play(1, "10H"), play(0, "KC"), play(1, "9S"))  # 29
    run(game, go(0), go(1))  # seat 1 laid the last card: 1 for the go, the dealer leads
    assert game.to_act() == 0
    effects = run(game, play(0, "2C"))  # the 2 fitted at 29 (31): the dealer's go was false
    assert {"violation": "false_go", "seat": 0, "card": "2C", "count": 29} in effects
    effects = run(game, play(1, "3C"))  # pone's go at 29: a 3 would not have fitted: no violation
    assert not [e for e in effects if "violation" in e]


# ----- illegal events: refused, state unchanged, a specific reason --------------------------------------

def test_every_illegal_event_class_is_refused_without_change():
    game = make(3, dealer=0)
    rejected(game, {"type": "deal", "seat": 0, "card": "5H"}, "seat 1 is due the next card")  # CR-4
    rejected(game, {"type": "deal", "seat": 3, "card": "5H"}, "no seat 3")
    for text in ["0H", "11S", "1C", "JX", "joker"]:  # CR-1: 52 cards, no jokers
        rejected(game, {"type": "deal", "seat": 1, "card": text}, "not a card")
    run(game, {"type": "deal", "seat": 1, "card": "QH"})
    rejected(game, {"type": "deal", "seat": 2, "card": "QH"}, "QH")  # a duplicate card
    rejected(game, {"type": "deal", "to": "crib", "card": "QH"}, "QH")
    game = make(3, dealer=0)
    run(game, *THREE[:2])
    rejected(game, starter("AS"), "no starter now")  # starter before the discards
    rejected(game, play(1, "10H"), "no play now")
    rejected(game, discard(1, "10H", "9S"), "exactly 1 card")  # V-three: one card each
    rejected(game, discard(1), "exactly 1 card")
    rejected(game, discard(1, "QH"), "QH is not in seat 1's hand")
    rejected(game, discard(1, "AS"), "AS is not in seat 1's hand")
    run(game, *THREE[2:5])
    rejected(game, starter("7C"), "7C is already in the crib")  # a duplicate card
    rejected(game, starter("XX"), "not a card")
    run(game, THREE[5])
    rejected(game, play(2, "QH"), "not your turn: seat 1 is to play")  # the wrong seat
    rejected(game, play(1, "QH"), "QH is not in seat 1's hand")  # card not in hand
    rejected(game, play(1, "9D"), "9D is not in seat 1's hand")  # the starter
    rejected(game, go(1), "every card fits at count 0")
    run(game, play(1, "10H"), play(2, "QH"), play(0, "8D"))
    rejected(game, play(1, "9S"), r"past 31 \(count is 28\)")  # passing 31
    run(game, go(1))
    rejected(game, go(2), r"seat 2 can lay (2D|3S)")  # a go while holding a playable card
    rejected(game, {"type": "new_hand"}, "not over")
    rejected(game, {"type": "reveal", "seat": 1, "cards": ["10H", "9S", "4C", "5C"]}, "no reveal now")
    rejected(game, {"type": "shuffle"}, "unknown event type")
    set_scores(game, [120, 0, 0])
    run(game, *THREE_PLAY[4:])  # seat 0 pegs nothing, then goes out on his count (16), third in order
    assert game.summary()["winner"] == 0
    rejected(game, play(1, "5C"), "the game is over")  # play after game over
    rejected(game, {"type": "new_hand"}, "the game is over")


@pytest.mark.parametrize("event", [{"type": "deal", "seat": 1}, {"type": "deal", "to": "crib"}])
def test_a_deal_without_a_card_field_is_malformed(event):
    # HH: a dealt card is `"card": "QS"`, or `"card": null` when unread; a missing field is neither.
    game = make(3, dealer=0)
    rejected(game, event, "card")


def test_one_card_pegs_its_points_and_its_go_in_one_move():
    # CR-15: the gap between the pegs shows the last score. Pone's 2S scores the pair and, as nobody can
    # lay after it, the go: "two for the pair and one for the go" is one score of 3 for that card
    # (CR-8: "15 on the last card of the play is 2 + 1 = 3").
    game = make()
    run(game, *TWO_EMPTY, play(1, "AH"), play(0, "KC"), play(1, "AS"), play(0, "KD"), play(1, "2H"), go(0))
    run(game, play(1, "2S"))
    assert game.summary()["pegs"][1] == {"back": 0, "front": 3}


# ----- `cardtable replay`: the output contract -------------------------------------------------------------

def test_replay_short_game_to_61_with_a_skunk():
    path = HISTORIES / "review_short_game_skunk.jsonl"
    code, results, stderr = cli_replay(path)
    assert code == 0, stderr
    *lines, summary = results
    # HH: `n` is the 1-based line number counting every line (header, comments, blank lines).
    text = path.read_text(encoding="utf-8").splitlines()
    expected_n = [i for i, t in enumerate(text, 1) if t.strip() and not t.lstrip().startswith("#")][1:]
    assert [r["n"] for r in lines] == expected_n
    by_line = {r["n"]: r for r in lines}
    for r in lines:  # HH: every score change is an effect with seat, points and a reason word
        assert set(r) == ({"n", "ok", "effects"} if r["ok"] else {"n", "ok", "error"})
        for e in r.get("effects", []):
            assert isinstance(e["seat"], int) and isinstance(e["points"], int) and e["reason"] in SCORE_REASONS

    def line_of(marker: str) -> int:
        return next(i for i, t in enumerate(text, 1) if marker in t) + 1  # the event after the comment

    def scored(marker: str) -> list[tuple[int, str, int]]:
        return [(e["seat"], e["reason"], e["points"]) for e in by_line[line_of(marker)]["effects"]]

    assert scored("hand 1 run") == [(1, "run", 3)]
    assert scored("hand 1 go") == [(0, "go", 1)]
    assert scored("hand 1 last")[0] == (0, "last_card", 1)
    assert show_totals(by_line[line_of("hand 1 last")]["effects"]) == [(1, "hand", 24), (0, "hand", 29), (0, "crib", 12)]
    assert scored("hand 2 fifteen") == [(1, "fifteen", 2)]
    assert scored("hand 2 go") == [(0, "go", 1)]
    winning = by_line[line_of("hand 2 last")]["effects"]
    # Seat 0, pone, reaches 61 on his count: the dealer's hand (10) and crib (12) are not counted.
    assert pegged(winning) == [(1, "last_card", 1)]
    assert show_totals(winning) == [(0, "hand", 24)]
    after = by_line[line_of("after the game")]
    assert after == {"n": after["n"], "ok": False, "error": "the game is over: side 0 won (68-30)"}
    # HH summary fields; CR-14: the 61 game's skunk line is 31, the loser has 30.
    assert summary["type"] == "summary" and summary["game"] == "cribbage"
    assert {"scores", "chips", "pot", "carry", "hand_over", "hand_winner", "winner", "violations",
            "skunk"} <= set(summary)
    assert summary["scores"] == [68, 30] and summary["winner"] == 0 and summary["skunk"] == "skunk"
    assert summary["hand_over"] is True and summary["hand_winner"] is None and summary["chips"] is None
    assert summary["violations"] == [] and summary["match_points"] == 2


def test_replay_reports_violations_and_rejections_per_line(tmp_path):
    header = {"format": "cardtable-history/1", "game": "cribbage", "players": ["A", "B"], "dealer": 0,
              "options": {}, "chips": None}
    events = [deal([None] * 6, [None] * 6), discard(1, None, None), discard(0, None, None), starter("4S"),
              play(1, "10H"), play(0, "KC"), play(1, "9S"), go(0), go(1), play(0, "2C"), play(0, "3C")]
    path = tmp_path / "false_go.jsonl"
    path.write_text("\n".join([json.dumps(header), "", "# unread deal", *map(json.dumps, events)]) + "\n")
    code, results, _ = cli_replay(path)
    assert code == 0
    *lines, summary = results
    assert [r["n"] for r in lines] == list(range(4, 15))
    assert pegged(lines[8]["effects"]) == [(1, "go", 1)]  # CR-7: pone laid the last card
    assert {"violation": "false_go", "seat": 0, "card": "2C", "count": 29} in lines[9]["effects"]
    assert lines[10] == {"n": 14, "ok": False, "error": "not your turn: seat 1 is to play"}
    assert summary["violations"] == [{"violation": "false_go", "seat": 0, "card": "2C", "count": 29}]
    assert summary["winner"] is None and summary["hand_over"] is False


# ----- the play against an independent reference written from CR-6..CR-9, V-three, V-four, V-five-card ----

def _reference_points(series: list[Card]) -> list[tuple[str, int]]:
    """CR-8, literally: 15 / 31, the unbroken row of one rank at the end, the longest run ending the series."""
    points = []
    total = sum(min(c.rank, 10) for c in series)
    if total in (15, 31):
        points.append(("fifteen" if total == 15 else "thirty_one", 2))
    same = 1
    while same < len(series) and series[-1 - same].rank == series[-1].rank:
        same += 1
    if same >= 2:
        points.append(("pair", {2: 2, 3: 6, 4: 12}[same]))
    longest = 0
    for k in range(3, len(series) + 1):
        ranks = sorted(c.rank for c in series[-k:])
        if all(b - a == 1 for a, b in zip(ranks, ranks[1:])):
            longest = k
    if longest:
        points.append(("run", longest))
    return points


class _ReferencePlay:
    """Who is to act and what each action pegs, from the rules' own words."""

    def __init__(self, players: int, dealer: int, hands: list[list[Card]], single_series: bool) -> None:
        self.players, self.hands, self.single = players, [list(h) for h in hands], single_series
        self.count, self.series, self.out, self.last = 0, [], set(), None
        self.to_play: int | None = (dealer + 1) % players  # CR-6, V-three, V-four: the dealer's left leads

    def _next(self, after: int) -> int | None:
        # "the remaining players go on in rotation"; "a player with no cards left is skipped"
        for step in range(1, self.players + 1):
            seat = (after + step) % self.players
            if self.hands[seat] and seat not in self.out:
                return seat
        return None

    def _end_series(self) -> list[tuple[int, str, int]]:
        pegs = []
        over = self.single or not any(self.hands)
        if self.count != 31:  # CR-7: 1 for the go, never on top of 31
            pegs.append((self.last, "last_card" if over else "go", 1))
        self.count, self.series, self.out = 0, [], set()
        self.to_play = None if over else self._next(self.last)  # the player after the last card's player
        return pegs

    def play(self, seat: int, card: Card) -> list[tuple[int, str, int]]:
        self.hands[seat].remove(card)
        self.series.append(card)
        self.count += min(card.rank, 10)
        self.last = seat
        pegs = [(seat, reason, points) for reason, points in _reference_points(self.series)]
        following = None if self.count == 31 else self._next(seat)
        if following is None:
            return pegs + self._end_series()
        self.to_play = following
        return pegs

    def go(self, seat: int) -> list[tuple[int, str, int]]:
        self.out.add(seat)
        following = self._next(seat)
        if following is None:
            return self._end_series()
        self.to_play = following
        return []


@pytest.mark.parametrize("players, options", [(2, {}), (3, {}), (4, {}), (2, {"five_card": True})])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_play_and_show_match_the_reference(players, options, seed):
    rng = random.Random(seed)
    dealer = rng.randrange(players)
    game = make(players, dealer=dealer, **options)
    deck = full_deck()
    rng.shuffle(deck)
    layout = game.layout
    dealt = [[deck.pop() for _ in range(layout.dealt)] for _ in range(players)]
    crib = [deck.pop() for _ in range(layout.to_crib)]
    events: list[dict[str, Any]] = [{"type": "deal", "to": "crib", "card": str(c)} for c in crib]
    events.append(deal(*[[str(c) for c in h] for h in dealt]))
    kept = []
    for seat, cards in enumerate(dealt):
        laid = rng.sample(cards, layout.discard)
        crib += laid
        kept.append([c for c in cards if c not in laid])
        events.append(discard(seat, *map(str, laid)))
    cut = deck.pop()
    expected = [0] * layout.sides
    if options.get("five_card"):
        expected[layout.side((dealer + 1) % players)] += 3  # V-five-card: three for last to pone
    if cut.rank == 11:
        expected[layout.side(dealer)] += 2  # CR-5
    effects = run(game, *events, starter(str(cut)))
    reference = _ReferencePlay(players, dealer, kept, layout.single_series)
    while reference.to_play is not None:
        seat = reference.to_play
        assert game.to_act() == seat
        fitting = [c for c in reference.hands[seat] if reference.count + min(c.rank, 10) <= 31]
        if fitting:
            rng.shuffle(fitting)
            with pytest.raises(IllegalEvent, match=f"seat {seat} can lay|every card fits"):
                game.apply(go(seat))  # CR-6: a card that fits must be laid
            want = reference.play(seat, fitting[0])
            got = run(game, play(seat, str(fitting[0])))
        else:
            want = reference.go(seat)
            got = run(game, go(seat))
        assert sorted(pegged(got)) == sorted(want)
        effects += got
        for s, _, points in want:
            expected[layout.side(s)] += points
    # CR-10, V-three, V-four: counting order from the dealer's left round to the dealer, then the crib.
    order = [((dealer + i) % players, False) for i in range(1, players + 1)] + [(dealer, True)]
    want_counts = []
    for seat, is_crib in order:
        cards = crib if is_crib else kept[seat]
        total = score_show(cards, cut, crib=is_crib).total
        expected[layout.side(seat)] += total
        if total:
            want_counts.append((seat, "crib" if is_crib else "hand", total))
    assert show_totals(effects) == want_counts
    assert game.summary()["scores"] == expected


def test_open_deal_discard_face_down_keeps_what_the_reader_saw():
    # The reader read every card; the camera sees only two face-down cards go to the crib from pone.
    game = make()
    run(game, deal(["KC", "KD", "KH", "KS", "QC", "QD"], ["AS", "AH", "AD", "AC", "2S", "2H"]),
        discard(1, None, None), discard(0, "QC", "QD"), starter("5C"))
    assert game.dealer_view()["hands"][1] == {"known": [], "unread": 4,
                                              "among": ["AS", "AH", "AD", "AC", "2S", "2H"]}
    run(game, play(1, "AS"), play(0, "KC"))
    rejected(game, play(1, "3S"), "3S is not in seat 1's hand: its 3 unseen card\\(s\\) are among AH AD AC 2S 2H")
    run(game, play(1, "AH"), play(0, "KD"), play(1, "AD"), go(0))
    # Two of AC 2S 2H went to the crib, so pone still holds one, and each fits at 23.
    rejected(game, go(1), "illegal go: seat 1 holds one of AC 2S 2H, which fit")
    run(game, play(1, "AC"))  # pone's last card: the other two are the crib's
    assert sorted(game.dealer_view()["crib"]["known"]) == ["2H", "2S", "QC", "QD"]
    assert {"type": "discard", "seat": 1, "cards": [None, None]} not in game.legal_actions()
