"""Show scoring speed per hand: ours vs the PyPI package cribbage-scorer, on the same random hands.

    python bench/cribbage_scoring.py [--hands N]

Times `scoring.score_show` (total + CR-12 breakdown), `fast_score.score_show_total` (total only) and
`cribbage_scorer.show_calc_score` (total + message), and checks that the three totals agree.
"""
from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence

from cribbage_scorer.cribbage_scorer import show_calc_score

from controller.cards import Card, full_deck
from controller.cribbage.fast_score import score_show_total
from controller.cribbage.rank_table import points_by_key
from controller.cribbage.scoring import score_show

Deal = tuple[list[Card], Card, bool]


def random_deals(count: int, seed: int = 2024) -> list[Deal]:
    rng, deck = random.Random(seed), full_deck()
    deals = []
    for _ in range(count):
        cards = rng.sample(deck, 5)
        deals.append((cards[:4], cards[4], rng.random() < 0.5))
    return deals


def as_peer(card: Card) -> tuple[int, str]:
    return card.rank, card.suit.value


def time_per_call(score: Callable[..., int], deals: Sequence, repeats: int = 3) -> tuple[float, list[int]]:
    """Best-of-`repeats` microseconds per hand, with the totals of the last run."""
    best = float("inf")
    totals: list[int] = []
    for _ in range(repeats):
        start = time.perf_counter()
        totals = [score(hand, starter, crib) for hand, starter, crib in deals]
        best = min(best, time.perf_counter() - start)
    return best / len(deals) * 1e6, totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    args = parser.parse_args()

    deals = random_deals(args.hands)
    peer_deals = [([as_peer(c) for c in hand], as_peer(starter), crib) for hand, starter, crib in deals]
    points_by_key()  # build the rank table outside the timed loop (about 0.1 s, once per process)

    peer_us, peer_totals = time_per_call(lambda h, s, c: show_calc_score(s, h, c)[0], peer_deals)
    full_us, full_totals = time_per_call(lambda h, s, c: score_show(h, s, c).total, deals)
    fast_us, fast_totals = time_per_call(score_show_total, deals)

    agree_full = sum(a == b for a, b in zip(full_totals, peer_totals))
    agree_fast = sum(a == b for a, b in zip(fast_totals, full_totals))
    print(f"{args.hands:,} random hands + starters (half scored as cribs)")
    print(f"  cribbage-scorer show_calc_score : {peer_us:8.2f} us/hand")
    print(f"  score_show (with breakdown)     : {full_us:8.2f} us/hand   speed vs peer {peer_us / full_us:6.2f}x")
    print(f"  score_show_total (total only)   : {fast_us:8.2f} us/hand   speed vs peer {peer_us / fast_us:6.2f}x")
    print(f"  totals agree: score_show vs cribbage-scorer {agree_full:,}/{len(deals):,}, "
          f"score_show_total vs score_show {agree_fast:,}/{len(deals):,}")


if __name__ == "__main__":
    main()
