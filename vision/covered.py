"""Face-up cards covered by later ones. A card read by name and then hidden under the next cards played
onto it (a pegging pile, a trick) is no longer read, but it has not left: only bare table where it lay
says it was taken away. Needs the calibrated table (`Detection.covered`); without it a card no longer
read is taken for removed.
"""
from __future__ import annotations

from collections import Counter

import cv2
import numpy as np

from vision.readings import UNKNOWN, CardReading

# A card no longer read still lies where it was read while at least this share of its quad is covered
# by cards: taken away, it leaves its place bare but where its neighbours overlapped it.
STILL_COVERED = 0.9


def covered_share(covered: np.ndarray, quad: np.ndarray) -> float:
    """The share of `quad`'s pixels that `covered` (255: not bare table) marks."""
    inside = np.zeros(covered.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, np.rint(quad).astype(np.int32), 255)
    area = cv2.countNonZero(inside)
    return cv2.countNonZero(cv2.bitwise_and(inside, covered)) / area if area else 0.0


class CoveredCards:
    """Where each card read by name lay when it was last read, and which of them are hidden now."""

    def __init__(self) -> None:
        self.places: dict[tuple[str, str], np.ndarray] = {}  # (zone, card) -> its quad when last read

    def keep(self, old: dict[str, Counter[str]], voted: dict[str, Counter[str]], covered: np.ndarray | None,
             placed: list[tuple[str, CardReading]]) -> dict[str, Counter[str]]:
        """The settled scene's `voted` zone state, with the cards of the `old` state that it no longer reads
        by name (anywhere) but that lie `covered` where they were last read, as the zone's once more; an
        unreadable card showing there is that card, not one more. `placed`: the scene's last read, its
        cards with their zones (whose places are remembered for the next scene)."""
        out = {zone: Counter(counts) for zone, counts in voted.items()}
        if covered is not None:
            read = {name for counts in voted.values() for name in counts if not name.startswith("#")}
            unread = [(zone, tuple(map(float, np.mean(card.quad, axis=0)))) for zone, card in placed
                      if card.card == UNKNOWN]
            for zone, counts in old.items():
                for name, count in counts.items():
                    quad = self.places.get((zone, name))
                    if name.startswith("#") or name in read or quad is None:
                        continue
                    if covered_share(covered, quad) < STILL_COVERED:
                        continue
                    here = out.setdefault(zone, Counter())
                    here[name] += count
                    shown = [i for i, (z, centre) in enumerate(unread)
                             if z == zone and cv2.pointPolygonTest(quad, centre, False) >= 0]
                    if shown and here["#unknown"] > 0:
                        del unread[shown[0]]
                        here["#unknown"] -= 1
        out = {zone: kept for zone, counts in out.items() if (kept := +counts)}
        self.places = {key: quad for key, quad in self.places.items() if out.get(key[0], Counter())[key[1]]}
        for zone, card in placed:
            if card.card != UNKNOWN:
                self.places[(zone, card.card)] = np.array(card.quad, np.float32)
        return out
