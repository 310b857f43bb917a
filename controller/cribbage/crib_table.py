"""Expected crib score for each 2-card discard, precomputed and shipped as `crib_table.json`.

Assumption (also stated in `cardtable advise --help`): the other two crib cards are a uniformly random
2-card discard from the 50 cards unseen besides the discard itself, and the starter is uniform among
the 48 left. The table conditions on the two discarded cards only — not on the four kept cards, nor on
how a real opponent chooses — which is the standard discard-table approach; it makes the value depend
only on the two ranks and whether they share a suit (13 pairs + 78 suited + 78 offsuit = 169 entries).

Each entry is exact: the summed crib score over all C(50,2) x 48 = 58,800 (opponent discard, starter)
outcomes, as an integer, so the expected value is points / 58,800.

Regenerate with `python -m controller.cribbage.crib_table` (about five seconds).
"""
from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np

from ..cards import RANK_NAMES
from .fast_score import show_totals

TABLE_FILE = "crib_table.json"
UNSEEN = 50
OUTCOMES = UNSEEN * (UNSEEN - 1) // 2 * (UNSEEN - 2)  # 58,800
ASSUMPTION = ("the opponent's two crib cards are a uniformly random discard from the unseen cards and "
              "the starter is uniform among the rest; the table conditions on your two discards only")


def discard_key(rank_a: int, rank_b: int, suited: bool) -> str:
    """'A-2o', '5-Ks', '5-5o': ranks low to high, then s(uited) / o(ffsuit)."""
    low, high = sorted((rank_a, rank_b))
    if low == high and suited:
        raise ValueError("two cards of one rank cannot share a suit")
    return f"{RANK_NAMES[low - 1]}-{RANK_NAMES[high - 1]}{'s' if suited else 'o'}"


def all_discards() -> list[tuple[int, int, bool]]:
    return [(low, high, suited) for low in range(1, 14) for high in range(low, 14)
            for suited in ((False,) if low == high else (False, True))]


@cache
def _outcome_rows() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(first, second, starter) positions into the 50 unseen cards for every outcome."""
    first, second = np.triu_indices(UNSEEN, k=1)
    starter = np.broadcast_to(np.arange(UNSEEN), (len(first), UNSEEN))
    keep = (starter != first[:, None]) & (starter != second[:, None])
    repeat = keep.sum(axis=1)
    return np.repeat(first, repeat), np.repeat(second, repeat), starter[keep]


def crib_points(rank_a: int, rank_b: int, suited: bool) -> int:
    """Exact total crib score over all 58,800 outcomes for this discard (enumerated, vectorised)."""
    # Suits are coded 0..3; the discard takes suit 0 (and 0 or 1 for the second card).
    discard = [(rank_a, 0), (rank_b, 0 if suited else 1)]
    if discard[0] == discard[1]:
        raise ValueError("the discard holds the same card twice")
    unseen = np.array([(rank, suit) for suit in range(4) for rank in range(1, 14)
                       if (rank, suit) not in discard], dtype=np.int64)
    first, second, starter = _outcome_rows()
    cards = np.stack([np.broadcast_to(np.array(discard[0]), (len(first), 2)),
                      np.broadcast_to(np.array(discard[1]), (len(first), 2)),
                      unseen[first], unseen[second], unseen[starter]], axis=1)  # (n, 5, [rank, suit])
    return int(show_totals(cards[:, :, 0], cards[:, :, 1], crib=True).sum())


def build_table() -> dict[str, int]:
    return {discard_key(*d): crib_points(*d) for d in all_discards()}


@cache
def load_table() -> dict[str, int]:
    text = resources.files(__package__).joinpath(TABLE_FILE).read_text(encoding="utf-8")
    return json.loads(text)["points"]


def expected_crib(rank_a: int, rank_b: int, suited: bool) -> float:
    """Expected crib score (from the shipped table) when these two cards go to the crib."""
    return load_table()[discard_key(rank_a, rank_b, suited)] / OUTCOMES


def write_table(path: Path) -> None:
    document = {
        "description": "Cribbage: expected crib score per 2-card discard (nobs in, his heels out, "
                       "crib flush only with all 5 cards)",
        "assumption": ASSUMPTION,
        "outcomes_per_discard": OUTCOMES,
        "expected_value": "points / outcomes_per_discard",
        "generator": "python -m controller.cribbage.crib_table",
        "points": build_table(),
    }
    path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    target = Path(__file__).with_name(TABLE_FILE)
    write_table(target)
    print(f"wrote {target}")
