"""Corner-index candidates: glyph blobs paired into (rank above suit) and cut out as upright patches.

A card's corner index is a rank glyph above a suit glyph. We find dark-or-red blobs on a bright
background, pair blobs of compatible size and spacing, and for every pair (in both orientations) warp
an upright patch whose top half holds the rank and bottom half the suit. The classifier decides which
pairs are real indices; this module only proposes, cheaply and rotation-invariantly.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

PATCH_W = 16
PATCH_H = 32
# Patch extent in units of the rank-to-suit centroid distance L (measured on several decks: the
# index is ~2.2 L tall and ~1.1 L wide).
_PATCH_LEN = 2.3
_PATCH_WID = 1.25


@dataclass(frozen=True)
class Blob:
    cx: float
    cy: float
    x: int
    y: int
    w: int
    h: int
    area: int

    @property
    def size(self) -> float:
        return float(max(self.w, self.h))


@dataclass(frozen=True)
class IndexCandidate:
    """A proposed corner index: the rank blob above the suit blob (image pixels)."""

    rank: Blob
    suit: Blob

    @property
    def rank_xy(self) -> tuple[float, float]:
        return (self.rank.cx, self.rank.cy)

    @property
    def suit_xy(self) -> tuple[float, float]:
        return (self.suit.cx, self.suit.cy)

    @property
    def length(self) -> float:
        return float(np.hypot(self.rank_xy[0] - self.suit_xy[0], self.rank_xy[1] - self.suit_xy[1]))

    @property
    def up(self) -> tuple[float, float]:
        """Unit vector from suit to rank: the card's 'up' at this corner."""
        n = self.length or 1.0
        return ((self.rank_xy[0] - self.suit_xy[0]) / n, (self.rank_xy[1] - self.suit_xy[1]) / n)

    @property
    def centre(self) -> tuple[float, float]:
        return ((self.rank_xy[0] + self.suit_xy[0]) / 2, (self.rank_xy[1] + self.suit_xy[1]) / 2)


def ink_image(bgr: np.ndarray) -> np.ndarray:
    """Per-pixel darkest channel: black and red ink are both dark here, white card is bright."""
    if bgr.ndim == 2:
        return bgr
    return np.min(bgr, axis=2)


def ink_mask(ink: np.ndarray, block: int) -> np.ndarray:
    block = max(3, block | 1)
    return cv2.adaptiveThreshold(ink, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block, 18)


def find_blobs(mask: np.ndarray, min_size: float, max_size: float) -> list[Blob]:
    n, _, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    blobs: list[Blob] = []
    for i in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[i])
        size = max(w, h)
        if size < min_size or size > max_size or area < 0.12 * w * h:
            continue
        blobs.append(Blob(float(cents[i][0]), float(cents[i][1]), x, y, w, h, area))
    return blobs


def _merge_pairs(blobs: list[Blob]) -> list[Blob]:
    """Add unions of two adjacent blobs of similar height: the two digits of a '10'."""
    merged: list[Blob] = []
    for i, a in enumerate(blobs):
        for b in blobs[i + 1:]:
            gap = np.hypot(a.cx - b.cx, a.cy - b.cy)
            if gap > 1.1 * max(a.size, b.size) or not 0.7 < a.size / b.size < 1.4:
                continue
            x0, y0 = min(a.x, b.x), min(a.y, b.y)
            x1, y1 = max(a.x + a.w, b.x + b.w), max(a.y + a.h, b.y + b.h)
            area = a.area + b.area
            merged.append(Blob((a.cx * a.area + b.cx * b.area) / area, (a.cy * a.area + b.cy * b.area) / area,
                               x0, y0, x1 - x0, y1 - y0, area))
    return merged


def propose(blobs: list[Blob], max_candidates: int = 4000) -> list[IndexCandidate]:
    """Every ordered pair (rank, suit) whose sizes and spacing could be one corner index."""
    ranks = blobs + _merge_pairs(blobs)
    out: list[IndexCandidate] = []
    if not blobs:
        return out
    pts = np.array([[b.cx, b.cy] for b in blobs])
    for r in ranks:
        d = np.hypot(pts[:, 0] - r.cx, pts[:, 1] - r.cy)
        for j in np.flatnonzero((d > 0.45 * r.size) & (d < 1.9 * r.size)):
            s = blobs[j]
            if not 0.35 < s.size / r.size < 1.8 or (s.x >= r.x and s.x + s.w <= r.x + r.w
                                                    and s.y >= r.y and s.y + s.h <= r.y + r.h):
                continue
            out.append(IndexCandidate(r, s))
            if len(out) >= max_candidates:
                return out
    return out


def _affine(c: IndexCandidate) -> np.ndarray:
    """Matrix mapping patch pixel coordinates to image coordinates (rank at top)."""
    ux, uy = c.up
    length = c.length
    sx = _PATCH_WID * length / PATCH_W  # image pixels per patch pixel across
    sy = _PATCH_LEN * length / PATCH_H  # and along the index
    cx, cy = c.centre
    # patch x axis = card right = (-uy, ux) rotated so that up=(ux,uy) maps to patch -y
    rx, ry = -uy, ux
    return np.array([[rx * sx, -ux * sy, cx - rx * sx * PATCH_W / 2 + ux * sy * PATCH_H / 2],
                     [ry * sx, -uy * sy, cy - ry * sx * PATCH_W / 2 + uy * sy * PATCH_H / 2]], np.float32)


def cut_patches(bgr: np.ndarray, ink: np.ndarray, cands: list[IndexCandidate]) -> tuple[np.ndarray, np.ndarray]:
    """Upright ink patches (N, PATCH_H*PATCH_W) normalised to 0..1, and redness features (N, 2)."""
    n = len(cands)
    patches = np.zeros((n, PATCH_H, PATCH_W), np.float32)
    colour = np.zeros((n, 2), np.float32)
    colour_img = bgr if bgr.ndim == 3 else None
    for i, c in enumerate(cands):
        m = _affine(c)
        p = cv2.warpAffine(ink, m, (PATCH_W, PATCH_H), flags=cv2.WARP_INVERSE_MAP | cv2.INTER_AREA,
                           borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
        lo, hi = np.percentile(p, 5), np.percentile(p, 95)
        patches[i] = np.clip((hi - p) / max(hi - lo, 12.0), 0, 1)  # ink = 1, paper = 0
        if colour_img is not None:
            q = cv2.warpAffine(colour_img, m, (PATCH_W, PATCH_H), flags=cv2.WARP_INVERSE_MAP | cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
            inked = patches[i] > 0.5
            if inked.any():
                b, g, r = q[inked, 0], q[inked, 1], q[inked, 2]
                colour[i, 0] = float(np.mean(r - np.maximum(g, b))) / 64.0
                colour[i, 1] = float(np.mean(np.abs(r - g) + np.abs(g - b))) / 64.0  # 0 on grey images
    return patches.reshape(n, -1), colour


def index_candidates(bgr: np.ndarray, glyph_px: tuple[float, float] | None = None
                     ) -> tuple[list[IndexCandidate], np.ndarray, np.ndarray]:
    """All index candidates in a frame with their patches and colour features.

    `glyph_px` is the expected rank-glyph size range in pixels (from calibration); without it we
    accept anything from 7 px to a tenth of the frame.
    """
    if bgr is None or bgr.size == 0:
        raise ValueError("empty frame")
    ink = ink_image(bgr)
    lo, hi = glyph_px or (7.0, max(ink.shape[:2]) / 10)
    mask = ink_mask(ink, int(hi * 1.6))
    cands = propose(find_blobs(mask, lo * 0.4, hi * 1.3))
    patches, colour = cut_patches(bgr, ink, cands)
    return cands, patches, colour
