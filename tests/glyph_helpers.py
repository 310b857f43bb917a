"""Helpers for the glyph verifier tests: a drawn corner index, and a rank verifier that judges nothing."""
from __future__ import annotations

import cv2
import numpy as np

from vision.blobs import Blob
from vision.glyphs import IndexCandidate
from vision.model import JUNK_RANK
from vision.ranks import RankVerifier


def disc_index(scale: float) -> tuple[np.ndarray, IndexCandidate]:
    """A white frame with a black 'rank' bar above a black disc 'suit', `scale` times a 10 px L."""
    img = np.full((int(200 * scale), int(200 * scale), 3), 240, np.uint8)
    rank_y, suit_y, x = 80 * scale, 90 * scale, 100 * scale
    cv2.rectangle(img, (int(x - 2 * scale), int(rank_y - 4 * scale)), (int(x + 2 * scale), int(rank_y + 4 * scale)),
                  (20, 20, 20), -1)
    radius = 3 * scale
    cv2.circle(img, (int(x), int(suit_y)), int(radius), (20, 20, 20), -1, cv2.LINE_AA)
    area = int(np.pi * radius ** 2)
    rank = Blob(x, rank_y, int(x - 2 * scale), int(rank_y - 4 * scale), int(4 * scale), int(8 * scale), 32)
    suit = Blob(x, suit_y, int(x - radius), int(suit_y - radius), int(2 * radius), int(2 * radius), area)
    return img, IndexCandidate(rank, suit)


class RanksUnjudged(RankVerifier):
    """Finds every rank glyph likelier junk than any rank, each rank keeping a little support (a blurred or
    clipped glyph it cannot judge): it doubts no reading and confirms no declined one (recognize.RESCUE_LOW)."""

    def probabilities(self, frame: np.ndarray, cands: list[IndexCandidate]) -> np.ndarray:
        p = np.full((len(cands), JUNK_RANK + 1), 0.05)
        p[:, JUNK_RANK] = 1.0 - 0.05 * JUNK_RANK
        return p
