"""Cost of the engine contract's queries per event, against apply() itself measured in the same run.

    python bench/engine_queries.py [--events 5000] [--runs 5] [--seed 1]

A mixed evening (controller.simulation.evening) is replayed once per query: at every accepted event the
engine answers `to_act()`, `legal_actions()`, `public_view()` or `dealer_view()` (as a table session asks
after each event). Printed per game: microseconds per event for apply alone (the peer) and for each
query, and the query's cost as a ratio of apply's.
"""
from __future__ import annotations

import argparse
import time
from collections import defaultdict
from typing import Callable

from controller.engine import Engine, IllegalEvent
from controller.games import new_game
from controller.simulation.evening import Journal, evening_journal

Query = Callable[[Engine], object]
QUERIES: dict[str, Query] = {
    "apply only": lambda engine: None,
    "to_act": lambda engine: engine.to_act(),
    "legal_actions": lambda engine: engine.legal_actions(),
    "public_view": lambda engine: engine.public_view(),
    "dealer_view": lambda engine: engine.dealer_view(),
}


def run(journals: list[Journal], query: Query) -> dict[str, tuple[float, int]]:
    """Seconds and accepted events per game."""
    spent: dict[str, float] = defaultdict(float)
    counted: dict[str, int] = defaultdict(int)
    for journal in journals:
        engine = new_game(journal.header)
        start = time.perf_counter()
        for event in journal.events:
            try:
                engine.apply(event)
            except IllegalEvent:
                continue
            query(engine)
            counted[journal.header.game] += 1
        spent[journal.header.game] += time.perf_counter() - start
    return {game: (spent[game], counted[game]) for game in spent}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    journals = evening_journal(args.events, args.seed)
    best: dict[str, dict[str, float]] = {}
    for name, query in QUERIES.items():
        timings = [run(journals, query) for _ in range(args.runs)]
        best[name] = {game: min(t[game][0] / t[game][1] for t in timings) * 1e6 for game in timings[0]}
    games = sorted(best["apply only"])
    print(f"{'us per event':>22} " + " ".join(f"{game:>10}" for game in games))
    for name in QUERIES:
        print(f"{name:>22} " + " ".join(f"{best[name][game]:10.1f}" for game in games))
    for name in list(QUERIES)[1:]:
        ratios = " ".join(f"{(best[name][g] - best['apply only'][g]) / best['apply only'][g]:10.2f}" for g in games)
        print(f"{name + ' / apply':>22} {ratios}   (the query's own cost, in applies)")


if __name__ == "__main__":
    main()
