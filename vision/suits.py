"""A second look at a named card's suit: the suit glyph alone, at a finer scale.

The index CNN sees the whole index at ~10 px per L (the rank-to-suit distance), where a club and a spade
differ by a few pixels; on a deck whose club it has never seen it can name a spade with full confidence,
on both corners (and colour cannot tell the two apart). This network sees only the square of 1 L around
the suit glyph's centre, at 24 px: a club's three lobes against a spade's point. It never names a card
alone: where it names another suit, the reading and its card are unknown; and with the rank verifier
(ranks.py) it confirms a reading the index CNN declined (see recognize.py).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.cnn import glyph_patches, one_thread_session, softmax
from vision.glyphs import IndexCandidate, placed_index
from vision.model import JUNK_SUIT, SUITS
from vision.shipped import shipped_file

DEFAULT_SUIT_NET = shipped_file("vision.models", "suit.onnx")
SUIT_PATCH = 24
# The patch: 1 L square, centred on the suit's centroid (0.5 L below the index centre), in units of L
# around the index centre (x card-right, y card-down). Scaled by the glyph's own ink area instead, the
# patch followed blobs merged with a neighbour or cut short, and doubted 13 more right cards on the
# 'train' and 'val' photos.
_EXTENT = (-0.5, 0.5, 0.0, 1.0)
# A reading's suit is doubted when the verifier finds another suit at least this likely (and likelier
# than the named one). Not when it finds the glyph junk: on the held-out photos that was a blurred or
# clipped suit it could not judge (6 right cards lost), not another suit.
DOUBT_OTHER = 0.5
# ... or when it gives the named suit less than this: whatever else wins, junk included, the name needs
# some support of its own (an unseen deck's spade named club, the verifier at 0.003 for club). On the 32
# designs (5 frames each, separated and fanned) it takes out 1 of 4 wrong cards (jolly-royal's 9S, its
# spade at 0.0015) and 17 of 2,365 right ones; edje 1 of 637; at 0.02, 29 right ones for the same.
NAMED_SUPPORT = 0.005


def cut_suit_patches(bgr: np.ndarray, cands: list[IndexCandidate]) -> np.ndarray:
    """(N, 3, SUIT_PATCH, SUIT_PATCH) network input: each candidate's suit glyph, upright in the index's
    frame."""
    return glyph_patches(bgr, cands, (SUIT_PATCH, SUIT_PATCH), _EXTENT)


class SuitNetwork:
    """A network of suit patches (input "x", output "suit": logits of S, H, D, C and junk), on one thread."""

    def __init__(self, path: Path) -> None:
        self.net = one_thread_session(Path(path))

    def probabilities(self, frame: np.ndarray, cands: list[IndexCandidate]) -> np.ndarray:
        """(N, 5) suit probabilities of each candidate's suit glyph."""
        if not cands:
            return np.zeros((0, 5))
        (logits,) = self.net.run(["suit"], {"x": cut_suit_patches(frame, cands)})
        return softmax(logits)


class SuitVerifier(SuitNetwork):
    """The second look at a named reading's suit glyph (see the module's doc)."""

    def __init__(self, path: Path = DEFAULT_SUIT_NET) -> None:
        super().__init__(path)

    def judge(self, frame: np.ndarray, cands: list[IndexCandidate], cards: list[str]
              ) -> tuple[np.ndarray, np.ndarray]:
        """Which of the candidates, named these cards, the verifier doubts, and the suit it sees (its most
        likely suit, an index into SUITS) in each. Doubted: it names another suit for the suit glyph, or
        gives the named one hardly any chance, or, for a '10' read from a rank merged of two blobs, finds a
        suit in either part (a '5' and the small heart beside it, taken for the two digits of a '10' with a
        big pip as its suit: 5 of the 11 wrong cards on the 32 deck designs; the parts of right '10's on the
        photos score at most 0.37). Other ranks are not checked so: a merged blob there is the rank and a
        stray beside it, and doubting those lost a right card on 'val'."""
        n = len(cands)
        if not n:
            return np.zeros(0, bool), np.zeros(0, int)
        parts = [(i, _as_suit(c, xy)) for i, (c, card) in enumerate(zip(cands, cards)) if card[:-1] == "10"
                 for xy in c.rank.parts]
        p = self.probabilities(frame, list(cands) + [part for _, part in parts])[:, :JUNK_SUIT]
        named = np.array([SUITS.index(card[-1]) for card in cards])
        mine = p[np.arange(n), named]
        seen = p[:n].argmax(axis=1)
        others = p[:n].copy()
        others[np.arange(n), named] = 0.0
        other = others.max(axis=1)
        doubted = ((other >= DOUBT_OTHER) & (other > mine)) | (mine < NAMED_SUPPORT)
        for (i, _), part in zip(parts, p[n:]):
            doubted[i] |= bool(part.max() >= DOUBT_OTHER)
        return doubted, seen


def _as_suit(c: IndexCandidate, xy: tuple[float, float]) -> IndexCandidate:
    """An index of `c`'s size and orientation whose suit glyph is centred at `xy` (so that the verifier
    cuts the glyph there as it cuts a suit)."""
    ux, uy = c.up
    x, y = xy
    rank_x, rank_y = x + ux * c.length, y + uy * c.length
    return placed_index((rank_x, rank_y), (x, y))
