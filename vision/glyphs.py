"""Corner-index candidates: glyph blobs paired into (rank above suit), with the geometry to cut them out
as upright patches (vision/cnn.py does the cutting).

A card's corner index is a rank glyph above a suit glyph. We find dark-or-red blobs on a bright
background, pair blobs of compatible size and spacing, and for every pair (in both orientations) give
the affine map of an upright patch whose top half holds the rank and bottom half the suit. The
classifier decides which pairs are real indices; this module only proposes, cheaply and
rotation-invariantly.

The blobs come from vision/blobs.py, the ink masks they are found in from vision/ink.py.
"""
from __future__ import annotations

import numpy as np

from vision.blobs import Blob, find_glyphs, shifted
from vision.ink import ink_image, ink_masks, paper_integral, paper_level, paper_regions


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
                           x0, y0, x1 - x0, y1 - y0, area, ((b.cx - a.cx) / gap, (b.cy - a.cy) / gap),
                           ((a.cx, a.cy), (b.cx, b.cy)), a.edge or b.edge))
    return merged


def propose(blobs: list[Blob], max_candidates: int = 4000, upright_cos: float | None = None) -> list[IndexCandidate]:
    """Every ordered pair (rank, suit) whose sizes and spacing could be one corner index; with
    `upright_cos`, only pairs whose rank sits above its suit (in image coordinates) within the angle of
    that cosine (windows already turned upright: the others would only be thrown away)."""
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
    if upright_cos is not None:
        ok &= sxy[None, :, 1] - rxy[:, None, 1] >= upright_cos * d
    out = [IndexCandidate(ranks[i], blobs[j]) for i, j in zip(*np.nonzero(ok))]
    return out[:max_candidates]


def placed_index(rank_xy: tuple[float, float], suit_xy: tuple[float, float]) -> IndexCandidate:
    """An index candidate laid by geometry rather than found in ink: its glyphs are points at these centres."""
    (rx, ry), (sx, sy) = rank_xy, suit_xy
    return IndexCandidate(Blob(rx, ry, int(rx), int(ry), 1, 1, 1), Blob(sx, sy, int(sx), int(sy), 1, 1, 1))


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


def propose_indices(bgr: np.ndarray, glyph_px: tuple[float, float] | None = None, ink: np.ndarray | None = None
                    ) -> list[IndexCandidate]:
    """All index candidates in a frame: `propose_index_sets`, one after the other."""
    return [c for cands in propose_index_sets(bgr, glyph_px, ink) for c in cands]


def propose_index_sets(bgr: np.ndarray, glyph_px: tuple[float, float] | None = None, ink: np.ndarray | None = None
                       ) -> tuple[list[IndexCandidate], list[IndexCandidate]]:
    """The index candidates of the two ink masks of `ink_masks`: every pair `propose` makes of a mask's glyph
    blobs and halves (`find_glyphs`), plus both orientations of every blob cut in two at its waist.

    The closing's candidates are only those with a glyph the local max's mask did not find (one that ran
    into a shadow's edge there, `_NEW_GLYPH`). The others cut the same glyphs again, which reads nothing
    new and can pair them wrong: on the 'train' photos such a re-cut read a 2H's '2' with a heart as 4H.

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
    h, w = ink.shape[:2]
    boxes, level = ([(0, 0, w, h)], None) if regions is None else (regions, paper_level(ink, window))
    per_mask: list[tuple[list[Blob], list[tuple[Blob, Blob]]]] = [([], []), ([], [])]
    for x0, y0, x1, y1 in boxes:
        crop = ink[y0:y1, x0:x1]
        for (blobs, halves), (mask, local) in zip(per_mask, ink_masks(crop, window, level)):
            b, hv = find_glyphs(mask, lo * 0.4, hi * 1.3, paper[y0:y1 + 1, x0:x1 + 1], ink=crop, local_paper=local)
            blobs += [shifted(v, x0, y0) for v in b]
            halves += [(shifted(u, x0, y0), shifted(v, x0, y0)) for u, v in hv]
    (blobs, halves), (closing_blobs, closing_halves) = per_mask
    found = np.array([(b.cx, b.cy) for b in blobs + [b for pair in halves for b in pair]], np.float64).reshape(-1, 2)
    return _candidates(blobs, halves), _with_new_glyph(_candidates(closing_blobs, closing_halves), found)


# A glyph is new to a mask when no glyph that mask found lies within this x L of its centre.
_NEW_GLYPH = 0.1


def _candidates(blobs: list[Blob], halves: list[tuple[Blob, Blob]]) -> list[IndexCandidate]:
    """`propose` over the blobs and the halves (a half may be a glyph run into its neighbour: a suit into a
    pip beside it, whose rank is another blob), and each cut blob's two halves as an index both ways (which
    `propose`'s size and spacing tests may refuse: a rank run into its suit is cut unevenly)."""
    cut = [(r, s) for u, v in halves for r, s in ((u, v), (v, u))]
    own = {(id(r), id(s)) for r, s in cut}
    pool = blobs + [b for pair in halves for b in pair]
    return [c for c in propose(pool) if (id(c.rank), id(c.suit)) not in own] + [IndexCandidate(r, s) for r, s in cut]


def _with_new_glyph(cands: list[IndexCandidate], found: np.ndarray) -> list[IndexCandidate]:
    """The candidates whose rank or suit glyph lies farther than _NEW_GLYPH x L from every glyph centre
    in `found` (one array operation for all of them: this runs on every frame)."""
    if not cands or not len(found):
        return cands
    xy = np.array([[c.rank_xy, c.suit_xy] for c in cands], np.float64)  # (n, 2 glyphs, 2)
    near = np.hypot(xy[:, :, 0, None] - found[:, 0], xy[:, :, 1, None] - found[:, 1]).min(axis=2)  # (n, 2)
    length = np.array([c.length for c in cands])
    return [c for c, new in zip(cands, (near >= _NEW_GLYPH * length[:, None]).any(axis=1)) if new]


