"""Training samples for the index classifier, cut with the same proposer the recognizer uses at run time.

Labelled boxes around corner indices (ammememe_roboflow `boxes.csv`) name the positive candidate; its
reversed twin (suit read as rank) and every candidate far from any box become 'junk' samples.
"""
from __future__ import annotations

import csv
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.blobs import Blob
from vision.glyphs import IndexCandidate, propose_index_sets
from vision.ink import ink_image, ink_mask
from vision.model import JUNK_RANK, JUNK_SUIT, RANKS, SUITS
from vision.synthetic import FACE_H, FACE_W, PlacedCard, SceneStyle, random_layout, render

ALONG = 0.9  # |cos| between a rendered index's up and its labelled pair's
READ = 0.5  # a card_score this sure of the labelled card picks the index's pair

# Candidates of one frame -> one classifier input row each (e.g. CNN patches).
Encoder = Callable[[np.ndarray, list[IndexCandidate]], np.ndarray]
# Encoded rows -> how junk-like each one is (low = hard negative).
JunkScore = Callable[[np.ndarray], np.ndarray]
# Encoded rows, rank, suit -> how surely each row reads as that card.
CardScore = Callable[[np.ndarray, int, int], np.ndarray]


def load_frame(path: Path) -> np.ndarray:
    """Read an image; Roboflow's 640x640 webcam frames are restored to 16:9 (see SOURCE.md)."""
    img = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if img is None:
        raise ValueError(f"cannot read image {path}")
    if path.name.startswith("WIN_") and img.shape[:2] == (640, 640):
        img = cv2.resize(img, (1138, 640), interpolation=cv2.INTER_LINEAR)
    return img


@dataclass
class SampleSet:
    x: list[np.ndarray] = field(default_factory=list)
    rank: list[int] = field(default_factory=list)
    suit: list[int] = field(default_factory=list)

    def add(self, feats: np.ndarray, rank: int, suit: int) -> None:
        self.x.append(feats)
        self.rank.append(rank)
        self.suit.append(suit)

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return (np.array(self.x, np.float32), np.array(self.rank, np.int64), np.array(self.suit, np.int64))


def _fill(blob: Blob, mask: np.ndarray) -> float:
    """Ink area over convex-hull area: suit glyphs are solid (~0.9), rank glyphs are strokes."""
    sub = mask[blob.y:blob.y + blob.h, blob.x:blob.x + blob.w]
    pts = cv2.findNonZero(sub)
    if pts is None:
        return 0.0
    hull = cv2.contourArea(cv2.convexHull(pts)) or 1.0
    return float(np.count_nonzero(sub)) / hull


def jitter(c: IndexCandidate, rng: np.random.Generator, amount: float, turn_deg: float = 0.0,
            scale: float = 0.0) -> IndexCandidate:
    """Glyph centres moved by N(0, amount L) each; with turn/scale, the pair is also rotated by up to
    +-turn_deg and scaled by up to +-scale about its centre (the patch rotates and zooms with it)."""
    a = np.radians(rng.uniform(-turn_deg, turn_deg))
    k = 1 + rng.uniform(-scale, scale)
    cos, sin = k * np.cos(a), k * np.sin(a)
    cx, cy = c.centre

    def move(b: Blob) -> Blob:
        dx, dy = rng.normal(0, amount * c.length, 2)
        x, y = b.cx - cx, b.cy - cy
        return Blob(cx + cos * x - sin * y + dx, cy + sin * x + cos * y + dy, b.x, b.y, b.w, b.h, b.area)
    return IndexCandidate(move(c.rank), move(c.suit))


def label_candidates(img: np.ndarray, boxes: list[tuple[str, str, float, float, float, float]],
                     out: SampleSet, rng: np.random.Generator, *, encode: Encoder, jitters: int = 4,
                     neg_per_image: int = 60, junk_score: JunkScore | None = None,
                     turn_deg: float = 0.0, scale: float = 0.0, ups: list[np.ndarray] | None = None,
                     card_score: CardScore | None = None) -> int:
    """Add positives (one per box, plus `jitters` jittered copies) and junk samples for one frame;
    returns the number of boxes read.

    An index box is axis-aligned, so a turned index's box also holds the pip or court art beside it, and
    the pair with the most ink may be the rank with that pip, across the index. `ups` (rendered scenes:
    each index's known up direction) keeps only pairs along it; `card_score` (a trained net) takes the
    pair it reads best as the labelled card, when it reads one at all. Otherwise: the most ink, its solid
    glyph as the suit.

    With `junk_score`, half the junk samples are the candidates it finds most card-like (hard negatives)."""
    # the local max's cuts only: the shipped networks learnt from them (trained on the closing's cuts too,
    # they read no more, see vision/README.md)
    cands = propose_index_sets(img)[0]
    if not cands:
        return 0
    mask = _mask_for(img)
    rxy = np.array([c.rank_xy for c in cands])
    sxy = np.array([c.suit_xy for c in cands])
    near_box = np.zeros(len(cands), bool)
    found = 0
    for k, (rank, suit, x0, y0, x1, y1) in enumerate(boxes):
        w, h = x1 - x0, y1 - y0
        pad = 0.1
        inside = ((rxy[:, 0] > x0 - pad * w) & (rxy[:, 0] < x1 + pad * w) & (rxy[:, 1] > y0 - pad * h)
                  & (rxy[:, 1] < y1 + pad * h) & (sxy[:, 0] > x0 - pad * w) & (sxy[:, 0] < x1 + pad * w)
                  & (sxy[:, 1] > y0 - pad * h) & (sxy[:, 1] < y1 + pad * h))
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        big = 0.6 * max(w, h)
        near_box |= (np.hypot(rxy[:, 0] - cx, rxy[:, 1] - cy) < big) | (np.hypot(sxy[:, 0] - cx, sxy[:, 1] - cy) < big)
        in_box = [cands[i] for i in np.flatnonzero(inside) if cands[i].length > 0.25 * max(w, h)]
        r, s = RANKS.index(rank), SUITS.index(suit)
        c = _index_pair(img, in_box, mask, ups[k] if ups is not None else None,
                        (lambda rows: card_score(rows, r, s)) if card_score is not None else None, encode)
        if c is None:
            continue
        pos = [c] + [jitter(c, rng, 0.06, turn_deg, scale) for _ in range(jitters)]
        flipped = [IndexCandidate(c.suit, c.rank)]
        f = encode(img, pos + flipped)
        for row in f[:-1]:
            out.add(row, r, s)
        out.add(f[-1], JUNK_RANK, JUNK_SUIT)
        found += 1
    add_junk(img, [cands[i] for i in np.flatnonzero(~near_box)], out, rng, encode=encode,
             neg_per_image=neg_per_image, junk_score=junk_score)
    return found


def add_junk(img: np.ndarray, far: list[IndexCandidate], out: SampleSet, rng: np.random.Generator, *,
             encode: Encoder, neg_per_image: int, junk_score: JunkScore | None) -> None:
    """Up to `neg_per_image` of `far` (candidates away from every card index) as junk; with `junk_score`,
    half of them the most card-like (hard negatives)."""
    pick = np.arange(len(far))
    if junk_score is not None and len(far):
        hard = pick[np.argsort(junk_score(encode(img, far)))[:neg_per_image // 2]]
        pick = np.concatenate([hard, rng.permutation(np.setdiff1d(pick, hard))[:neg_per_image // 2]])
    pick = rng.permutation(pick)[:neg_per_image]
    for row in (encode(img, [far[i] for i in pick]) if len(pick) else []):
        out.add(row, JUNK_RANK, JUNK_SUIT)


def _index_pair(img: np.ndarray, in_box: list[IndexCandidate], mask: np.ndarray, up: np.ndarray | None,
                reads_as_label: Callable[[np.ndarray], np.ndarray] | None, encode: Encoder
                ) -> IndexCandidate | None:
    """Which pair in a labelled index box is the index (see label_candidates), the rank glyph on top."""
    if up is not None:  # a pair with the pip beside a turned index has more ink, but lies across it
        in_box = [c for c in in_box if abs(np.dot(c.up, up)) > ALONG * np.linalg.norm(up)]
    if not in_box:
        return None
    if up is None and reads_as_label is not None:
        sure = reads_as_label(encode(img, in_box))
        if sure.max() >= READ:  # the net read it the right way up, or it would not name the card
            return in_box[int(sure.argmax())]
    inked = max(in_box, key=lambda c: c.rank.area + c.suit.area)
    return _upright(inked, mask) if up is None else _along(inked, up)


def _upright(c: IndexCandidate, mask: np.ndarray) -> IndexCandidate:
    """The candidate with its solid glyph as the suit (flipped if need be)."""
    return IndexCandidate(c.suit, c.rank) if _fill(c.rank, mask) > _fill(c.suit, mask) else c


def _along(c: IndexCandidate, up: np.ndarray) -> IndexCandidate:
    """The candidate with its rank glyph towards `up` (flipped if need be)."""
    return IndexCandidate(c.suit, c.rank) if np.dot(c.up, up) < 0 else c


def _mask_for(img: np.ndarray) -> np.ndarray:
    ink = ink_image(img)
    return ink_mask(ink, int(max(ink.shape[:2]) / 10 * 0.8))


def read_roboflow_boxes(root: Path) -> dict[str, list[tuple[str, str, float, float, float, float]]]:
    """boxes.csv (normalised YOLO boxes on the stretched 640x640 image) -> pixel boxes per image path."""
    per_image: dict[str, list[tuple[str, str, float, float, float, float]]] = defaultdict(list)
    with open(root / "boxes.csv", newline="") as fh:
        for row in csv.DictReader(fh):
            if row["rank"] not in RANKS or row["suit"] not in SUITS:
                continue
            per_image[row["path"]].append((row["rank"], row["suit"], float(row["cx"]), float(row["cy"]),
                                           float(row["w"]), float(row["h"])))
    return per_image


def to_pixels(box: tuple[str, str, float, float, float, float], shape: tuple[int, ...]
              ) -> tuple[str, str, float, float, float, float]:
    rank, suit, cx, cy, w, h = box
    H, W = shape[:2]
    return rank, suit, (cx - w / 2) * W, (cy - h / 2) * H, (cx + w / 2) * W, (cy + h / 2) * H


# Corner-index boxes of the shipped rendered faces (face pixels, 256x384): top-left and bottom-right.
_FACE_INDEX_BOXES = (((4, 16), (38, 102)), ((218, 282), (252, 368)))


def synthetic_scenes(count: int, out: SampleSet, encode: Encoder, seed: int = 0,
                     jitters: int = 4, turn_deg: float = 0.0, scale: float = 0.0) -> int:
    """Rendered table scenes with random table colour, scale, light and blur; exact index boxes."""
    rng = np.random.default_rng(seed)
    found = 0
    for k in range(count):
        style = SceneStyle(card_width=float(rng.uniform(95, 190)),
                           table_bgr=tuple(int(v) for v in rng.integers(20, 200, 3)),  # type: ignore[arg-type]
                           tilt=float(rng.uniform(0, 0.08)), light=float(rng.uniform(0, 0.5)),
                           blur=float(rng.uniform(0.3, 1.4)), noise=float(rng.uniform(1, 7)))
        n = int(rng.integers(3, 9))
        layout = random_layout(n, style, seed=seed * 1000 + k, face_down=int(rng.integers(0, 2)))
        img, quads = render(layout, style, seed=k)
        boxes, ups = scene_indices(layout, quads)
        found += label_candidates(img, boxes, out, rng, jitters=jitters, neg_per_image=30,
                                  encode=encode, turn_deg=turn_deg, scale=scale, ups=ups)
    return found


def scene_indices(layout: list[PlacedCard], quads: list[np.ndarray]
                  ) -> tuple[list[tuple[str, str, float, float, float, float]], list[np.ndarray]]:
    """The labelled index boxes (rank, suit, x0, y0, x1, y1 in pixels) of a rendered scene's face-up cards,
    and each index's up direction (the bottom corner's index is printed upside down)."""
    src = np.array([[0, 0], [FACE_W, 0], [FACE_W, FACE_H], [0, FACE_H]], np.float32)
    boxes, ups = [], []
    for card, quad in zip(layout, quads):
        if not card.face_up:
            continue
        M = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
        for ((x0, y0), (x1, y1)), sign in zip(_FACE_INDEX_BOXES, (1, -1)):
            pts = cv2.perspectiveTransform(np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]], np.float32), M)[0]
            boxes.append((card.card[:-1], card.card[-1], *pts.min(0), *pts.max(0)))
            ups.append(sign * ((pts[0] + pts[1]) - (pts[2] + pts[3])) / 2)
    return boxes, ups
