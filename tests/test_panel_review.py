"""After the hand: discards ranked against the best keep, and points missed under muggins."""
from __future__ import annotations

from web_panel.review import hand_review

DEAL = {"type": "deal", "hands": [["5H", "5S", "5C", "JD", "2C", "9S"], ["AH", "2H", "3D", "KC", "QC", "8D"]]}
STARTER = {"type": "starter", "card": "4H"}


def _discard(seat: int, *cards: str) -> dict[str, object]:
    return {"type": "discard", "seat": seat, "cards": list(cards)}


def test_the_best_keep_costs_nothing_and_a_bad_one_is_ranked_below_it() -> None:
    review = hand_review([DEAL, _discard(0, "2C", "9S"), _discard(1, "KC", "QC"), STARTER], 2, dealer=1, muggins=False)
    pone, dealer = review["discards"]
    assert pone["reviewed"] and pone["rank"] == 1 and pone["cost"] == 0
    assert sorted(pone["kept"]) == ["5C", "5H", "5S", "JD"] and pone["best"]["discard"] == ["2C", "9S"]
    bad = hand_review([DEAL, _discard(0, "5H", "5S"), _discard(1, "KC", "QC"), STARTER], 2, 1, False)["discards"][0]
    assert bad["rank"] > 1 and bad["cost"] > 0 and bad["net"] < pone["net"]
    assert sorted(bad["kept"]) == ["2C", "5C", "9S", "JD"] and bad["best"]["net"] == pone["net"]
    assert dealer["reviewed"] and 1 <= dealer["rank"] <= 15 and review["missed"] == []


def test_a_short_muggins_claim_is_named_with_what_it_missed() -> None:
    events = [DEAL, _discard(0, "2C", "9S"), _discard(1, "KC", "QC"), STARTER,
              {"type": "claim", "seat": 0, "points": 6},  # 5H 5S 5C JD with 4H make 14
              {"type": "claim", "seat": 1, "points": 5}, {"type": "claim", "seat": 1, "crib": True, "points": 0}]
    missed = hand_review(events, 2, dealer=1, muggins=True)["missed"]
    assert missed[0] == {"seat": 0, "crib": False, "claimed": 6, "total": 14, "missed": 8}
    assert missed[1:] == [{"seat": 1, "crib": False, "claimed": 5, "total": 8, "missed": 3},
                          {"seat": 1, "crib": True, "claimed": 0, "total": 2, "missed": 2}]
    assert hand_review(events, 2, dealer=1, muggins=False)["missed"] == []


def test_an_unread_card_or_three_players_is_not_reviewed() -> None:
    unread = {"type": "deal", "hands": [["5H", None, "5C", "JD", "2C", "9S"], DEAL["hands"][1]]}
    review = hand_review([unread, _discard(0, "2C", "9S"), _discard(1, "KC", "QC"), STARTER], 2, 1, False)
    assert review["discards"][0] == {"seat": 0, "reviewed": False, "why": "not every card of this deal was read"}
    assert review["discards"][1]["reviewed"]
    three = hand_review([], 3, 0, False)["discards"]
    assert [d["reviewed"] for d in three] == [False] * 3 and "two players" in three[0]["why"]
