"""What the recognizer needs of a corner-index classifier (rank head, suit head, each with a 'junk' class),
the class labels, and the loader for the shipped CNN (vision/cnn.py) or an enrolled deck (vision/enroll.py).
"""
from __future__ import annotations

from pathlib import Path
from typing import Protocol

import numpy as np

from vision.glyphs import IndexCandidate

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
JUNK_RANK = len(RANKS)
JUNK_SUIT = len(SUITS)
DEFAULT_MODEL = Path(__file__).with_name("models") / "generic.json"  # the CNN ensemble (vision/cnn.py)


class IndexModel(Protocol):
    """What the recognizer needs of a classifier: its threshold and per-candidate probabilities."""

    threshold: float

    def score(self, frame: np.ndarray, cands: list[IndexCandidate], floor: float | None = None
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Rank (N, 14) and suit (N, 5) probabilities and ink redness (N,) (see glyphs.ink_colour).
        `floor` is the least confidence the caller will name (default: `threshold`): below it the model
        may save work, so a caller with a lower threshold passes it."""
        ...


def load_model(path: Path = DEFAULT_MODEL) -> IndexModel:
    """A shipped or enrolled model: CNN ensemble manifest .json (the default) or one .onnx, or an enrolled
    deck .npz (`cardtable vision enroll`)."""
    if Path(path).suffix in (".json", ".onnx"):
        from vision.cnn import CnnModel
        return CnnModel(Path(path))
    from vision.enroll import EnrolledModel
    return EnrolledModel.load(Path(path))
