"""The corner-index classifier: small two-headed MLPs (rank head, suit head, each with a 'junk' class).

Pure numpy so the Pi needs nothing beyond numpy; weights live in a small .npz shipped in the package.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

from vision.features import features
from vision.glyphs import IndexCandidate, cut_patches

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
JUNK_RANK = len(RANKS)
JUNK_SUIT = len(SUITS)
MLP_MODEL = Path(__file__).with_name("models") / "generic.npz"
DEFAULT_MODEL = Path(__file__).with_name("models") / "generic.json"  # the CNN ensemble (vision/cnn.py)


class IndexModel(Protocol):
    """What the recognizer needs of a classifier: its threshold and per-candidate probabilities."""

    threshold: float

    def score(self, frame: np.ndarray, ink: np.ndarray, cands: list[IndexCandidate]
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Rank (N, 14) and suit (N, 5) probabilities and ink colour (N, 2) (see glyphs.ink_colour)."""
        ...


def load_model(path: Path = DEFAULT_MODEL) -> IndexModel:
    """A shipped or enrolled model: CNN ensemble manifest .json (the default) or one .onnx, or a numpy
    MLP .npz (enrolment's base)."""
    if Path(path).suffix in (".json", ".onnx"):
        from vision.cnn import CnnModel
        return CnnModel(Path(path))
    return CardModel.load(Path(path))


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


@dataclass
class IndexClassifier:
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    wr: np.ndarray
    br: np.ndarray
    ws: np.ndarray
    bs: np.ndarray
    mean: np.ndarray
    std: np.ndarray

    @classmethod
    def init(cls, n_in: int, hidden: int = 128, seed: int = 0) -> "IndexClassifier":
        rng = np.random.default_rng(seed)

        def he(a: int, b: int) -> np.ndarray:
            return (rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32)

        h2 = hidden // 2
        return cls(he(n_in, hidden), np.zeros(hidden, np.float32), he(hidden, h2), np.zeros(h2, np.float32),
                   he(h2, JUNK_RANK + 1), np.zeros(JUNK_RANK + 1, np.float32),
                   he(h2, JUNK_SUIT + 1), np.zeros(JUNK_SUIT + 1, np.float32),
                   np.zeros(n_in, np.float32), np.ones(n_in, np.float32))

    def params(self) -> list[np.ndarray]:
        return [self.w1, self.b1, self.w2, self.b2, self.wr, self.br, self.ws, self.bs]

    def hidden(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h1 = np.maximum((x - self.mean) / self.std @ self.w1 + self.b1, 0)
        return h1, np.maximum(h1 @ self.w2 + self.b2, 0)

    def predict(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Rank and suit probabilities, shapes (N, 14) and (N, 5)."""
        if len(x) == 0:
            return np.zeros((0, JUNK_RANK + 1)), np.zeros((0, JUNK_SUIT + 1))
        _, h2 = self.hidden(x.astype(np.float32))
        return _softmax(h2 @ self.wr + self.br), _softmax(h2 @ self.ws + self.bs)


_ARRAYS = ("w1", "b1", "w2", "b2", "wr", "br", "ws", "bs", "mean", "std")


@dataclass
class CardModel:
    """An ensemble of index classifiers (probabilities averaged: members disagree on what they have
    not learnt, which lowers confidence exactly where a single net would guess) and its threshold."""

    members: list[IndexClassifier]
    threshold: float = 0.9

    def predict(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        preds = [m.predict(x) for m in self.members]
        return np.mean([p[0] for p in preds], axis=0), np.mean([p[1] for p in preds], axis=0)

    def score(self, frame: np.ndarray, ink: np.ndarray, cands: list[IndexCandidate]
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        patches, colour = cut_patches(frame, ink, cands)
        pr, ps = self.predict(features(patches, colour))
        return pr, ps, colour

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays = {f"m{i}_{k}": getattr(m, k) for i, m in enumerate(self.members) for k in _ARRAYS}
        np.savez_compressed(path, threshold=np.float32(self.threshold), **arrays)

    @classmethod
    def load(cls, path: Path = MLP_MODEL) -> "CardModel":
        try:
            with np.load(path) as z:
                count = len({k.split("_")[0] for k in z.files if k.startswith("m")})
                members = [IndexClassifier(**{k: z[f"m{i}_{k}"] for k in _ARRAYS}) for i in range(count)]
                threshold = float(z["threshold"])
        except (OSError, KeyError, ValueError, EOFError) as exc:
            raise ValueError(f"cannot load card model {path}: {exc}") from exc
        if not members:
            raise ValueError(f"cannot load card model {path}: no classifier in it")
        return cls(members, threshold)
