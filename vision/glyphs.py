"""Corner-index candidates: glyph blobs paired into (rank above suit), with the geometry to cut them out
as upright patches (vision/cnn.py does the cutting).

A card's corner index is a rank glyph above a suit glyph. We find dark-or-red blobs on a bright
background, pair blobs of compatible size and spacing, and for every pair (in both orientations) give
the affine map of an upright patch whose top half holds the rank and bottom half the suit. The
classifier decides which pairs are real indices; this module only proposes, cheaply and
rotation-invariantly.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

@dataclass(frozen=True)
class Blob:
    cx: float
    cy: float
    x: int
    y: int
    w: int
    h: int
    area: int
    axis: tuple[float, float] = (0.0, 0.0)  # unit vector between the two parts of a merged '10'

    @property
    def size(self) -> float:
        return float(max(self.w, self.h))


class IndexCandidate:
    """A proposed corner index: the rank blob above the suit blob (image pixels). Geometry is computed
    once: frames hold hundreds of candidates and the classifier, NMS and grouping all read it."""

    __slots__ = ("rank", "suit", "length", "up", "centre")

    def __init__(self, rank: Blob, suit: Blob) -> None:
        self.rank = rank
        self.suit = suit
        dx, dy = rank.cx - suit.cx, rank.cy - suit.cy
        self.length = float(np.hypot(dx, dy))
        n = self.length or 1.0
        self.up = (dx / n, dy / n)  # unit vector from suit to rank: the card's 'up' at this corner
        self.centre = ((rank.cx + suit.cx) / 2, (rank.cy + suit.cy) / 2)

    @property
    def rank_xy(self) -> tuple[float, float]:
        return (self.rank.cx, self.rank.cy)

    @property
    def suit_xy(self) -> tuple[float, float]:
        return (self.suit.cx, self.suit.cy)


def ink_image(bgr: np.ndarray) -> np.ndarray:
    """Per-pixel darkest channel: black and red ink are both dark here, white card is bright."""
    if bgr.ndim == 2:
        return bgr
    b, g, r = cv2.split(bgr)
    return cv2.min(cv2.min(b, g), r)


def ink_mask(ink: np.ndarray, window: int, paper_level: float | None = None) -> np.ndarray:
    """Ink = darker than 0.72 x the brightest paper nearby (local max over `window` px), or darker than
    the local mean by a margin.

    The paper-relative test keeps faint red glyphs near a card edge, where a dark table drags the
    local mean down; the mean test keeps glyphs under glare and in grey photos. 'Paper nearby' is an
    Otsu split of the local max, or `paper_level` (the whole frame's split, when `ink` is a crop of it).
    """
    k = max(3, window | 1)
    paper = cv2.dilate(ink, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    if paper_level is None:
        _, bright = cv2.threshold(paper, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    else:
        _, bright = cv2.threshold(paper, paper_level, 255, cv2.THRESH_BINARY)
    dark = cv2.compare(ink.astype(np.uint16) * 25, paper.astype(np.uint16) * 18, cv2.CMP_LT)  # ink < 0.72 paper
    mean = cv2.adaptiveThreshold(ink, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, 2 * k + 1, 18)
    return cv2.bitwise_or(cv2.bitwise_and(dark, bright), mean)


def paper_integral(ink: np.ndarray) -> np.ndarray:
    """Integral image of 'paper' pixels: brighter than the frame's Otsu split of the ink image."""
    _, paper = cv2.threshold(ink, 0, 1, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    return cv2.integral(paper)


def find_blobs(mask: np.ndarray, min_size: float, max_size: float, paper: np.ndarray | None = None) -> list[Blob]:
    """Glyph-sized ink blobs; with a paper integral image, only blobs printed on a bright card."""
    n, _, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n <= 1:
        return []
    st = stats[1:]
    size = np.maximum(st[:, 2], st[:, 3])
    keep = (size >= min_size) & (size <= max_size) & (st[:, 4] >= 0.12 * st[:, 2] * st[:, 3])
    idx = np.flatnonzero(keep)
    if paper is not None and len(idx):
        H, W = mask.shape
        x, y, w, h = st[idx, 0], st[idx, 1], st[idx, 2], st[idx, 3]
        x0, y0 = np.clip(x - w // 2, 0, W), np.clip(y - h // 2, 0, H)
        x1, y1 = np.clip(x + w + w // 2, 0, W), np.clip(y + h + h // 2, 0, H)
        bright = paper[y1, x1] - paper[y0, x1] - paper[y1, x0] + paper[y0, x0]
        ring = (x1 - x0) * (y1 - y0) - st[idx, 4]
        idx = idx[bright >= 0.6 * np.maximum(ring, 1)]
    return [Blob(float(cents[i + 1][0]), float(cents[i + 1][1]), *(int(v) for v in st[i])) for i in idx]


def _merge_pairs(blobs: list[Blob]) -> list[Blob]:
    """Add unions of two adjacent blobs of similar size: the two digits of a '10'."""
    if len(blobs) < 2:
        return []
    xy = np.array([[b.cx, b.cy] for b in blobs])
    size = np.array([b.size for b in blobs])
    d = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1])
    ratio = size[:, None] / size[None, :]
    ok = (d <= 1.1 * np.maximum(size[:, None], size[None, :])) & (ratio > 0.7) & (ratio < 1.4)
    merged: list[Blob] = []
    for i, j in zip(*np.nonzero(np.triu(ok, 1))):
        a, b = blobs[i], blobs[j]
        x0, y0 = min(a.x, b.x), min(a.y, b.y)
        x1, y1 = max(a.x + a.w, b.x + b.w), max(a.y + a.h, b.y + b.h)
        area = a.area + b.area
        gap = float(np.hypot(b.cx - a.cx, b.cy - a.cy)) or 1.0
        merged.append(Blob((a.cx * a.area + b.cx * b.area) / area, (a.cy * a.area + b.cy * b.area) / area,
                           x0, y0, x1 - x0, y1 - y0, area, ((b.cx - a.cx) / gap, (b.cy - a.cy) / gap)))
    return merged


def propose(blobs: list[Blob], max_candidates: int = 4000) -> list[IndexCandidate]:
    """Every ordered pair (rank, suit) whose sizes and spacing could be one corner index."""
    if not blobs:
        return []
    ranks = blobs + _merge_pairs(blobs)
    rxy = np.array([[b.cx, b.cy] for b in ranks])
    rsize = np.array([b.size for b in ranks])
    sxy = rxy[:len(blobs)]
    ssize = rsize[:len(blobs)]
    d = np.hypot(rxy[:, None, 0] - sxy[None, :, 0], rxy[:, None, 1] - sxy[None, :, 1])
    ratio = ssize[None, :] / rsize[:, None]
    rarea = np.array([b.area for b in ranks], np.float64)
    # a rank glyph is strokes, never several times the ink of its suit glyph (that is a pip above it)
    ok = ((d > 0.45 * rsize[:, None]) & (d < 1.9 * rsize[:, None]) & (ratio > 0.35) & (ratio < 1.8)
          & (rarea[:, None] <= 2.5 * rarea[None, :len(blobs)]))
    # the two digits of a '10' sit side by side: across the index, never along it
    axis = np.array([b.axis for b in ranks])
    along = np.abs(axis[:, None, 0] * (rxy[:, None, 0] - sxy[None, :, 0])
                   + axis[:, None, 1] * (rxy[:, None, 1] - sxy[None, :, 1]))
    ok &= along < 0.5 * np.maximum(d, 1e-6)
    out = [IndexCandidate(ranks[i], blobs[j]) for i, j in zip(*np.nonzero(ok))]
    return out[:max_candidates]


def affine_to_image(c: IndexCandidate, size: tuple[int, int], extent: tuple[float, float, float, float]) -> np.ndarray:
    """Matrix mapping patch pixels to image pixels for the index frame region
    x0..x1 (card-right) by y0..y1 (card-down), in units of L around the index centre."""
    ux, uy = c.up
    rx, ry = -uy, ux  # card right; card down is -up
    length = c.length
    x0, x1, y0, y1 = extent
    sx = (x1 - x0) * length / size[0]
    sy = (y1 - y0) * length / size[1]
    cx, cy = c.centre
    ox = cx + x0 * length * rx - y0 * length * ux
    oy = cy + x0 * length * ry - y0 * length * uy
    return np.array([[rx * sx, -ux * sy, ox], [ry * sx, -uy * sy, oy]], np.float32)


def ink_colour(bgr: np.ndarray, inked: np.ndarray) -> np.ndarray:
    """(N, P, 3) patch pixels and (N, P) ink mask -> (N, 2): mean redness and chroma of the ink
    (chroma ~0 on grey images)."""
    w = inked.astype(np.float32)
    cnt = np.maximum(w.sum(1), 1)
    b, g, r = bgr[..., 0], bgr[..., 1], bgr[..., 2]
    red = ((r - np.maximum(g, b)) * w).sum(1) / cnt / 64.0
    chroma = ((np.abs(r - g) + np.abs(g - b)) * w).sum(1) / cnt / 64.0
    return np.stack([red, chroma], axis=1).astype(np.float32)


def propose_indices(bgr: np.ndarray, glyph_px: tuple[float, float] | None = None, ink: np.ndarray | None = None
                    ) -> list[IndexCandidate]:
    """All index candidates in a frame.

    `glyph_px` is the expected rank-glyph size range in pixels (from calibration); without it we
    accept anything from 7 px to a tenth of the frame. `ink` may pass a precomputed ink_image(bgr).
    """
    if bgr is None or bgr.size == 0:
        raise ValueError("empty frame")
    ink = ink_image(bgr) if ink is None else ink
    lo, hi = glyph_px or (7.0, max(ink.shape[:2]) / 10)
    window = int(hi * 0.8)
    paper = paper_integral(ink)
    regions = paper_regions(ink, margin=int(hi))
    if regions is None:
        return propose(find_blobs(ink_mask(ink, window), lo * 0.4, hi * 1.3, paper))
    level = _paper_level(ink, window)
    blobs: list[Blob] = []
    for x0, y0, x1, y1 in regions:
        mask = ink_mask(ink[y0:y1, x0:x1], window, level)
        blobs += [_shifted(b, x0, y0) for b in find_blobs(mask, lo * 0.4, hi * 1.3, paper[y0:y1 + 1, x0:x1 + 1])]
    return propose(blobs)


# Card paper is looked for at this fraction of the frame's resolution (speed: the ink mask and the
# connected components, the costly steps, then run only around the cards).
_REGION_SCALE = 4
# Above this share of the frame, regions save nothing: process the whole frame.
_REGION_MAX_SHARE = 0.6


def paper_regions(ink: np.ndarray, margin: int) -> list[tuple[int, int, int, int]] | None:
    """Disjoint boxes (x0, y0, x1, y1) around the bright paper blobs of the frame, padded by `margin`
    px, found on a 1/4-size copy; None when they would cover most of the frame anyway."""
    h, w = ink.shape
    s = _REGION_SCALE
    if h < 8 * s or w < 8 * s:
        return None
    small = cv2.resize(ink, (w // s, h // s), interpolation=cv2.INTER_AREA)
    _, paper = cv2.threshold(small, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    _, _, stats, _ = cv2.connectedComponentsWithStats(paper, connectivity=8)
    pad = margin / s
    boxes = [[max(0, int((x - pad) * s)), max(0, int((y - pad) * s)), min(w, int((x + bw + pad + 1) * s)),
              min(h, int((y + bh + pad + 1) * s))] for x, y, bw, bh, area in stats[1:] if area >= 4]
    merged = _merge_boxes(boxes)
    if sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in merged) > _REGION_MAX_SHARE * h * w:
        return None
    return [tuple(b) for b in merged]  # type: ignore[misc]


def _merge_boxes(boxes: list[list[int]]) -> list[list[int]]:
    """Union overlapping boxes until none overlap (a blob is then found in exactly one box)."""
    boxes = [b[:] for b in boxes]
    changed = True
    while changed:
        changed = False
        out: list[list[int]] = []
        for b in boxes:
            for o in out:
                if b[0] < o[2] and o[0] < b[2] and b[1] < o[3] and o[1] < b[3]:
                    o[:] = [min(o[0], b[0]), min(o[1], b[1]), max(o[2], b[2]), max(o[3], b[3])]
                    changed = True
                    break
            else:
                out.append(b)
        boxes = out
    return boxes


def _paper_level(ink: np.ndarray, window: int) -> float:
    """The whole frame's Otsu split of the local-max ink image (as ink_mask computes it), estimated on
    a 1/4-size copy."""
    s = _REGION_SCALE
    small = cv2.resize(ink, (ink.shape[1] // s, ink.shape[0] // s), interpolation=cv2.INTER_AREA)
    k = max(3, (window // s) | 1)
    level, _ = cv2.threshold(cv2.dilate(small, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))), 0, 255,
                             cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    return float(level)


def _shifted(b: Blob, dx: int, dy: int) -> Blob:
    return Blob(b.cx + dx, b.cy + dy, b.x + dx, b.y + dy, b.w, b.h, b.area, b.axis)
