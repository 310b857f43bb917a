"""Discard advice: published hand averages, ranking, the crib's sign by role, the crib table, bad input."""
import json
from itertools import combinations

import pytest

from controller.cards import Card, full_deck, parse_cards
from controller.cli import main
from controller.cribbage import crib_table
from controller.cribbage.advice import AdviceError, advise, parse_deal
from controller.cribbage.fast_score import score_show_total
from controller.cribbage.scoring import score_show

DECK = full_deck()


def cards(text: str) -> list[Card]:
    return parse_cards(text.split())


def by_keep(advice) -> dict[frozenset, object]:
    return {frozenset(a.keep): a for a in advice}


# Published worked averages (hand over the 46 starters). Suits are the rainbow case: no flush, and the
# jack shares its suit with one other card of the six (11 unseen of its suit: nobs worth 11/46).
@pytest.mark.parametrize("six,keep,average", [
    ("AS 2H 7D 9C JD QS", "AS 2H JD QS", 2.85),
    ("AS 2H 7D 9C JD QS", "AS 2H 7D 9C", 2.39),
    ("AS 2H 3D 4C 5S 6H", "2H 3D 4C 5S", 8.57),
    ("AS 2H 3D 4C 5S 6H", "3D 4C 5S 6H", 9.85),
])
def test_published_hand_averages(six: str, keep: str, average: float) -> None:
    for dealer in (True, False):
        advice = by_keep(advise(cards(six), dealer))[frozenset(cards(keep))]
        assert round(advice.hand_ev, 2) == average


@pytest.mark.parametrize("six", ["5H 5S JD QC 4H 6D", "AS 2H 7D 9C JD QS", "3C 4C 6C 8C 10H KC"])
def test_hand_ev_is_the_exact_average_of_score_show(six: str) -> None:
    deal = cards(six)
    starters = [c for c in DECK if c not in deal]
    for advice in advise(deal, dealer=True):
        expected = sum(score_show(advice.keep, s).total for s in starters) / len(starters)
        assert advice.hand_ev == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("dealer", [True, False])
def test_all_fifteen_keeps_ranked_best_first(dealer: bool) -> None:
    deal = cards("5H 5S JD QC 4H 6D")
    advice = advise(deal, dealer)
    assert {frozenset(a.keep) for a in advice} == {frozenset(k) for k in combinations(deal, 4)}
    assert all(set(a.keep) | set(a.discard) == set(deal) for a in advice)
    nets = [a.net for a in advice]
    assert nets == sorted(nets, reverse=True)
    assert set(advice[0].keep) == set(cards("5H 5S 4H 6D"))  # 4-5-5-6: 16 in hand before the cut


def test_role_changes_the_sign_of_the_crib() -> None:
    deal = cards("5H 5S JD QC 4H 6D")
    as_dealer, as_pone = by_keep(advise(deal, True)), by_keep(advise(deal, False))
    for keep, dealt in as_dealer.items():
        poned = as_pone[keep]
        assert (dealt.hand_ev, dealt.crib_ev) == (poned.hand_ev, poned.crib_ev)
        assert dealt.crib_ev > 0
        assert dealt.net == pytest.approx(dealt.hand_ev + dealt.crib_ev)
        assert poned.net == pytest.approx(poned.hand_ev - poned.crib_ev)
    # Throwing 5-J (worth ~7.3 in a crib) is among the best as dealer and among the worst as pone.
    throw_five_jack = frozenset(cards("5H QC 4H 6D"))
    dealer_order = [frozenset(a.keep) for a in advise(deal, True)]
    pone_order = [frozenset(a.keep) for a in advise(deal, False)]
    assert dealer_order.index(throw_five_jack) < 4 < 7 < pone_order.index(throw_five_jack)


def test_crib_value_uses_discard_ranks_and_suitedness() -> None:
    advice = by_keep(advise(cards("5H 5S JD QC 4H 6D"), dealer=True))
    keep = advice[frozenset(cards("5H QC 4H 6D"))]
    assert keep.crib_ev == crib_table.expected_crib(5, 11, suited=False)
    assert crib_table.expected_crib(5, 11, True) != crib_table.expected_crib(5, 11, False)


@pytest.mark.parametrize("discard", [(5, 5, False), (1, 2, False), (5, 11, True), (11, 13, False)])
def test_shipped_crib_table_regenerates(discard: tuple[int, int, bool]) -> None:
    assert crib_table.crib_points(*discard) == crib_table.load_table()[crib_table.discard_key(*discard)]


def test_crib_table_entry_by_brute_force() -> None:
    """Independent of the vectorised generator: loop over every opponent discard and starter."""
    discard = [Card.parse("5H"), Card.parse("JH")]
    unseen = [c for c in DECK if c not in discard]
    total = 0
    for first, second in combinations(unseen, 2):
        crib = [*discard, first, second]
        total += sum(score_show_total(crib, s, crib=True) for s in unseen if s is not first and s is not second)
    assert total == crib_table.load_table()["5-Js"]


def test_crib_table_averages_to_the_published_crib_mean() -> None:
    """Weighting each entry by how many card pairs it stands for gives every crib once, six times over."""
    table = crib_table.load_table()
    assert len(table) == 169
    weights = {False: 12, True: 4}  # offsuit / suited card pairs of two ranks; a rank pair has 6
    total = sum(points * (6 if low == high else weights[suited])
                for (low, high, suited), points in
                ((d, table[crib_table.discard_key(*d)]) for d in crib_table.all_discards()))
    assert total == 6 * 61_528_020  # crib_hist.json total points over 12,994,800 cribs


@pytest.mark.parametrize("texts,message", [
    (["5H", "5S", "JD", "QC", "4H"], "need exactly 6 cards, got 5"),
    (["5H", "5S", "JD", "QC", "4H", "6D", "7D"], "need exactly 6 cards, got 7"),
    (["5H", "5S", "JD", "QC", "4H", "5H"], "card 5H appears twice"),
    (["5H", "5S", "JD", "QC", "4H", "1X"], "unknown suit 'X'"),
    (["5H", "5S", "JD", "QC", "4H", "ZH"], "unknown rank 'Z'"),
])
def test_bad_deal_is_rejected(texts: list[str], message: str) -> None:
    with pytest.raises(AdviceError, match=message):
        parse_deal(texts)


def test_advise_function_rejects_bad_deals() -> None:
    with pytest.raises(AdviceError, match="got 5"):
        advise(cards("5H 5S JD QC 4H"), dealer=True)
    with pytest.raises(AdviceError, match="5H appears twice"):
        advise(cards("5H 5S JD QC 4H 5H"), dealer=True)


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    """`cardtable advise ARGS` in-process: (exit code, stdout, stderr); argparse errors exit too."""
    try:
        code = main(["advise", *args])
    except SystemExit as exit_:
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("args,message", [
    (("5H", "5S", "JD", "QC", "4H", "--dealer"), "need exactly 6 cards"),
    (("5H", "5S", "JD", "QC", "4H", "5H", "--pone"), "card 5H appears twice"),
    (("5H", "5S", "JD", "QC", "4H", "XX", "--pone"), "not a card: 'XX'"),
    (("5H", "5S", "JD", "QC", "4H", "6D"), "one of the arguments --dealer --pone is required"),
])
def test_cli_bad_input_exits_2(capsys, args: tuple[str, ...], message: str) -> None:
    code, out, err = run_cli(capsys, *args)
    assert code == 2
    assert message in err and out == ""


def test_cli_json_and_table(capsys) -> None:
    code, out, _ = run_cli(capsys, "5H", "5S", "JD", "QC", "4H", "6D", "--pone", "--json")
    assert code == 0
    document = json.loads(out)
    assert document["role"] == "pone" and len(document["keeps"]) == 15
    best = document["keeps"][0]
    assert sorted(best["keep"]) == ["4H", "5H", "5S", "6D"]
    assert best["net"] == pytest.approx(best["hand_ev"] - best["crib_ev"])

    code, out, _ = run_cli(capsys, "5H", "5S", "JD", "QC", "4H", "6D", "--dealer")
    assert code == 0
    first_row = out.splitlines()[2].split()
    assert first_row[:7] == ["1", "5H", "5S", "4H", "6D", "JD", "QC"]
    assert first_row[7:] == [f"{best['hand_ev']:.2f}", f"+{best['crib_ev']:.2f}",
                             f"{best['hand_ev'] + best['crib_ev']:.2f}"]


def test_help_states_the_crib_assumption(capsys) -> None:
    code, out, _ = run_cli(capsys, "--help")
    assert code == 0 and "uniformly random" in " ".join(out.split())
