"""A second look at a card's rank: the rank glyph alone, at a finer scale.

The index CNN sees the whole index at ~10 px per L (the rank-to-suit distance), where an unseen deck's
'Q' and '9' or a thin outlined '10' blur together. This network sees only the rank glyph, 1.3 L wide and
1.15 L high around its centroid (0.5 L above the index centre), at ~24 px per L, the suit verifier's scale
(suits.py). It never names a card alone: it doubts a named reading whose rank it sees as another, and with
the suit verifier it confirms a reading the index CNN declined (recognize.py).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.cnn import glyph_patches, one_thread_session, softmax
from vision.glyphs import IndexCandidate
from vision.model import JUNK_RANK, RANKS
from vision.shipped import shipped_file

DEFAULT_RANK_NET = shipped_file("vision.models", "rank.onnx")
RANK_PATCH = (32, 28)  # (w, h)
# In units of L around the index centre (x card-right, y card-down): the rank's centroid lies 0.5 L up;
# a '10' is about a whole L wide.
_EXTENT = (-0.65, 0.65, -1.075, 0.075)
# A reading's rank is doubted when the verifier finds another rank at least this likely (and likelier than
# the named one). At 0.5 a right 5D on a 'val' photo was doubted too, and two right grey cards more on the
# deck designs, for no wrong card fewer than at 0.7.
DOUBT_OTHER = 0.7
# ... or when it gives the named rank less than this, whatever else wins (an unseen queen named 8, the
# verifier at 0.001 for 8: it read junk, and junk alone doubted nothing). No right card of the 32 designs'
# 2,365 or edje's 637 has its rank below it.
NAMED_SUPPORT = 0.005


def cut_rank_patches(bgr: np.ndarray, cands: list[IndexCandidate]) -> np.ndarray:
    """(N, 3, h, w) network input: each candidate's rank glyph, upright in the index's frame."""
    return glyph_patches(bgr, cands, RANK_PATCH, _EXTENT)


class RankVerifier:
    """A network of rank patches (input "x", output "rank": logits of RANKS and junk), on one thread."""

    def __init__(self, path: Path = DEFAULT_RANK_NET) -> None:
        self.net = one_thread_session(Path(path))

    def probabilities(self, frame: np.ndarray, cands: list[IndexCandidate]) -> np.ndarray:
        """(N, 14) rank probabilities of each candidate's rank glyph."""
        if not cands:
            return np.zeros((0, JUNK_RANK + 1))
        (logits,) = self.net.run(["rank"], {"x": cut_rank_patches(frame, cands)})
        return softmax(logits)

    def doubts(self, frame: np.ndarray, cands: list[IndexCandidate], cards: list[str]) -> np.ndarray:
        """Which of the candidates, named these cards, have a rank glyph the verifier reads as another rank,
        or gives the named rank hardly any chance (junk alone, a blurred or clipped glyph it cannot judge,
        doubts nothing while the named rank keeps some support)."""
        p = self.probabilities(frame, cands)[:, :JUNK_RANK]
        rows = np.arange(len(cands))
        named = np.array([RANKS.index(card[:-1]) for card in cards], int)
        mine = p[rows, named]
        p[rows, named] = 0.0
        other = p.max(axis=1) if len(cands) else np.zeros(0)
        return ((other >= DOUBT_OTHER) & (other > mine)) | (mine < NAMED_SUPPORT)
