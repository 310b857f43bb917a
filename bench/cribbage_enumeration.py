"""Full show-score enumeration and discard advice: time against naive peers measured in this run.

    python bench/cribbage_enumeration.py [--sample N] [--deals N]

* enumeration: `show_histograms()` from a cold start (rank tables rebuilt), both hand and crib over all
  12,994,800 combinations; peer: a naive loop of `score_show_total` over random combinations,
  extrapolated to 2 x 12,994,800 (hand and crib).
* advise: `advise()` per 6-card deal; peer: the same 15 x 46 hand averages with `score_show`.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time
from itertools import combinations

from controller.cards import full_deck
from controller.cribbage import rank_table
from controller.cribbage.advice import advise
from controller.cribbage.crib_table import load_table
from controller.cribbage.fast_score import score_show_total
from controller.cribbage.scoring import score_show
from controller.cribbage.statistics import show_histograms

COMBINATIONS = 12_994_800


def cold_enumeration_seconds(repeats: int = 5) -> float:
    best = float("inf")
    for _ in range(repeats):
        rank_table.rank_table.cache_clear()
        rank_table.points_by_key.cache_clear()
        start = time.perf_counter()
        show_histograms()
        best = min(best, time.perf_counter() - start)
    return best


def naive_enumeration_seconds(sample: int, rng: random.Random) -> float:
    deck = full_deck()
    hands = [rng.sample(deck, 5) for _ in range(sample)]
    start = time.perf_counter()
    for cards in hands:
        score_show_total(cards[:4], cards[4])
        score_show_total(cards[:4], cards[4], crib=True)
    return (time.perf_counter() - start) / sample * COMBINATIONS


def advise_ms(deals: list, dealer: bool) -> list[float]:
    times = []
    for six in deals:
        start = time.perf_counter()
        advise(six, dealer)
        times.append((time.perf_counter() - start) * 1e3)
    return times


def naive_hand_averages_ms(deals: list) -> float:
    deck = full_deck()
    start = time.perf_counter()
    for six in deals:
        starters = [c for c in deck if c not in six]
        for keep in combinations(six, 4):
            sum(score_show(keep, s).total for s in starters)
    return (time.perf_counter() - start) * 1e3 / len(deals)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=50_000, help="combinations timed for the naive peer")
    parser.add_argument("--deals", type=int, default=300, help="random 6-card deals for advise")
    args = parser.parse_args()
    rng = random.Random(7)

    ours = cold_enumeration_seconds()
    naive = naive_enumeration_seconds(args.sample, rng)
    print("Full enumeration, hand + crib histograms over 12,994,800 combinations each")
    print(f"  show_histograms (cold, best of 5)      : {ours:8.3f} s   (target <= 1 s)")
    print(f"  naive score_show_total loop (projected): {naive:8.1f} s   ratio {naive / ours:,.0f}x")

    load_table()
    deck = full_deck()
    deals = [rng.sample(deck, 6) for _ in range(args.deals)]
    advise(deals[0], True)  # warm the rank and crib tables
    times = advise_ms(deals, True) + advise_ms(deals, False)
    naive_ms = naive_hand_averages_ms(deals[:20])
    print(f"advise per 6-card deal ({len(times)} runs, dealer and pone)")
    print(f"  advise: mean {statistics.fmean(times):.2f} ms, median {statistics.median(times):.2f} ms, "
          f"max {max(times):.2f} ms   (target <= 20 ms)")
    print(f"  naive hand averages with score_show, no crib: {naive_ms:.1f} ms per deal   "
          f"ratio {naive_ms / statistics.fmean(times):.0f}x")


if __name__ == "__main__":
    main()
