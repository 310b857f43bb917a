"""What the recognizer needs of a corner-index classifier (rank head, suit head, each with a 'junk' class),
the class labels and the confidence scale's fixed points. Loading a model file: vision/model_files.py.
"""
from __future__ import annotations

from typing import Protocol

import numpy as np

from vision.glyphs import IndexCandidate

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
JUNK_RANK = len(RANKS)
JUNK_SUIT = len(SUITS)
# Readings at least this confident skip the recognizer's jittered re-check, and enrolment never vetoes
# them (speed; picked on 'val', where it added no wrong card and read more, since the re-check also
# rejects some good readings).
NO_RECHECK = 0.99


class IndexModel(Protocol):
    """What the recognizer needs of a classifier: its threshold and per-candidate probabilities."""

    threshold: float

    def score(self, frame: np.ndarray, cands: list[IndexCandidate], floor: float | None = None
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Rank (N, 14) and suit (N, 5) probabilities and ink redness (N, 2: least, most; ink.ink_colour).
        `floor` is the least confidence the caller will name (default: `threshold`): below it the model
        may save work, so a caller with a lower threshold passes it."""
        ...

