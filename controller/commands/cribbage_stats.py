"""`cardtable stats cribbage` (show-score histograms) and `cardtable advise` (discard advice)."""
from __future__ import annotations

import argparse
import json

from ..cribbage.advice import KeepAdvice, advise, parse_deal
from ..cribbage.crib_table import ASSUMPTION
from ..cribbage.statistics import ShowHistogram, show_histograms


def register(subparsers: argparse._SubParsersAction) -> None:
    stats = subparsers.add_parser(
        "stats", help="exact show-score statistics",
        description="Histogram of show scores 0..29 over all C(52,4) x 48 = 12,994,800 hand + starter "
                    "combinations, for a hand (4-card flush counts) and a crib (only a 5-card flush); "
                    "nobs included, his heels excluded.")
    stats.add_argument("game", choices=["cribbage"])
    stats.add_argument("--json", action="store_true", help="print JSON instead of a table")
    stats.set_defaults(func=run_stats)

    advice = subparsers.add_parser(
        "advise", help="cribbage: which 4 of 6 cards to keep",
        description="Rank the 15 keeps of a 6-card cribbage deal by expected points: the exact hand "
                    "average over the 46 possible starters, plus the expected crib of the two discards "
                    "when you deal (your crib) or minus it when you are pone (the opponent's crib). "
                    f"Crib assumption: {ASSUMPTION}.")
    advice.add_argument("cards", nargs="+", metavar="CARD", help="six cards, e.g. 5H 5S JD QC 4H 6D")
    role = advice.add_mutually_exclusive_group(required=True)
    role.add_argument("--dealer", dest="dealer", action="store_true", help="you deal: the crib is yours")
    role.add_argument("--pone", dest="dealer", action="store_false", help="you are pone: the crib is theirs")
    advice.add_argument("--json", action="store_true", help="print JSON instead of a table")
    advice.set_defaults(func=run_advise)


def run_stats(args: argparse.Namespace) -> int:
    hand, crib = show_histograms()
    if args.json:
        print(json.dumps({"hand": _histogram_json(hand), "crib": _histogram_json(crib)}))
        return 0
    print(f"Cribbage show scores over all {hand.combinations:,} hand + starter combinations")
    print(f"{'score':>5} {'hand':>10} {'crib':>10}")
    for score, (in_hand, in_crib) in enumerate(zip(hand.counts, crib.counts)):
        print(f"{score:>5} {in_hand:>10,} {in_crib:>10,}")
    print(f"{'mean':>5} {hand.mean:>10.5f} {crib.mean:>10.5f}")
    return 0


def _histogram_json(histogram: ShowHistogram) -> dict[str, object]:
    return {"combinations": histogram.combinations, "histogram": list(histogram.counts),
            "mean": histogram.mean, "component_total_points": histogram.component_points}


def run_advise(args: argparse.Namespace) -> int:
    six = parse_deal(args.cards)  # an AdviceError is bad input: the CLI's boundary reports it
    ranked = advise(six, args.dealer)
    role = "dealer" if args.dealer else "pone"
    if args.json:
        print(json.dumps({"cards": [str(c) for c in six], "role": role, "crib_assumption": ASSUMPTION,
                          "keeps": [a.to_json() for a in ranked]}))
        return 0
    crib_owner = "your crib: added" if args.dealer else "opponent's crib: subtracted"
    print(f"Keeps for {' '.join(str(c) for c in six)} as {role} ({crib_owner})")
    print(f"{'#':>2}  {'keep':<15} {'discard':<8} {'hand EV':>7} {'crib EV':>7} {'net':>6}")
    for place, keep in enumerate(ranked, 1):
        print(_advice_row(place, keep, args.dealer))
    return 0


def _advice_row(place: int, keep: KeepAdvice, dealer: bool) -> str:
    signed_crib = keep.crib_ev if dealer else -keep.crib_ev
    return (f"{place:>2}  {' '.join(str(c) for c in keep.keep):<15} "
            f"{' '.join(str(c) for c in keep.discard):<8} {keep.hand_ev:>7.2f} {signed_crib:>+7.2f} "
            f"{keep.net:>6.2f}")
