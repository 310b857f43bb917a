"""Score the recognizer against a path,rank,suit manifest: precision, recall, confidently-wrong, speed."""
from __future__ import annotations

import hashlib
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.manifest import manifest_rows
from vision.readings import UNKNOWN, CardReading

RANK_ALIASES = {"1": "A", "T": "10"}
SPLITS = ("train", "val", "test")


def split_of(path: str) -> str:
    """Deterministic split by file-name hash: 'test' (held out, ~20 %), 'val' (~20 %, tuning) or 'train'."""
    h = int(hashlib.md5(Path(path).name.encode()).hexdigest(), 16) % 5
    return {0: "test", 1: "val"}.get(h, "train")


@dataclass(frozen=True)
class ImageScore:
    path: str
    labelled: int
    correct: int
    wrong: list[str]
    ms: float
    named: tuple[str, ...]  # every name read, right and wrong (unknown excluded)

    @property
    def reported(self) -> int:
        return len(self.named)

    @property
    def wrong_twice(self) -> int:
        """Wrong cards whose name the frame reads more than once: the tracker reports those as a duplicate
        card and the table session holds the game on them (one deck holds each card once), so they are never
        played; the other wrong cards would be."""
        return sum(1 for name in self.wrong if self.named.count(name) > 1)

    def to_json(self) -> dict[str, object]:
        return {"path": self.path, "labelled": self.labelled, "reported": self.reported, "correct": self.correct,
                "wrong": self.wrong, "wrong_read_twice": self.wrong_twice,
                "precision": _ratio(self.correct, self.reported), "recall": _ratio(self.correct, self.labelled),
                "ms": round(self.ms, 2)}


def _ratio(a: int, b: int) -> float | None:
    return round(a / b, 4) if b else None


def parse_size(text: str, option: str = "--resize") -> tuple[int, int]:
    """'1138x640' -> (1138, 640); a ValueError naming `option` otherwise."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise ValueError(f"{option} wants WIDTHxHEIGHT, got {text!r}") from None
    return w, h


def resized(img: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """`img` at `size` (w, h): averaged when shrunk; when stretched back (640x640 -> 1138x640) linear, as
    INTER_AREA blocks the glyphs' edges (on the held-out overhead photos 4 cards fewer and one more wrong)."""
    shrink = size[0] * size[1] < img.shape[0] * img.shape[1]
    return cv2.resize(img, size, interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR)


def read_manifest(path: Path, only_suited: bool = True) -> dict[str, list[str]]:
    """path -> list of card names ("QS"); rows without a suit are skipped (rank-only manifests)."""
    rows: dict[str, list[str]] = defaultdict(list)
    for row in manifest_rows(path):
        rank = RANK_ALIASES.get(row.rank.upper(), row.rank.upper())
        suit = row.suit.upper()
        if only_suited and not suit:
            continue
        rows[row.path].append(rank + suit)
    return dict(rows)


def score_image(path: str, truth: list[str], cards: list[CardReading], ms: float) -> ImageScore:
    named = [c.card for c in cards if c.card != UNKNOWN]
    left = Counter(truth)
    correct, wrong = 0, []
    for name in named:
        if left[name] > 0:
            left[name] -= 1
            correct += 1
        else:
            wrong.append(name)
    return ImageScore(path, len(truth), correct, wrong, ms, tuple(named))


def evaluate(items: Iterable[tuple[str, list[str]]], load: Callable[[str], np.ndarray],
             read: Callable[[np.ndarray], list[CardReading]]) -> dict[str, object]:
    scores: list[ImageScore] = []
    for path, truth in items:
        frame = load(path)
        t0 = time.perf_counter()
        cards = read(frame)
        scores.append(score_image(path, truth, cards, (time.perf_counter() - t0) * 1000))
    return summarise(scores)


def summarise(scores: list[ImageScore]) -> dict[str, object]:
    lab = sum(s.labelled for s in scores)
    rep = sum(s.reported for s in scores)
    cor = sum(s.correct for s in scores)
    return {"images": len(scores), "labelled": lab, "reported": rep, "correct": cor,
            "confidently_wrong": rep - cor, "wrong_read_twice": sum(s.wrong_twice for s in scores),
            "precision": _ratio(cor, rep), "recall": _ratio(cor, lab),
            "mean_ms": round(float(np.mean([s.ms for s in scores])), 2) if scores else None,
            "per_image": [s.to_json() for s in scores]}
