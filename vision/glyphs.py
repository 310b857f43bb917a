"""Corner-index candidates: glyph blobs paired into (rank above suit), with the geometry to cut them out
as upright patches (vision/cnn.py does the cutting).

A card's corner index is a rank glyph above a suit glyph. We find dark-or-red blobs on a bright
background, pair blobs of compatible size and spacing, and for every pair (in both orientations) give
the affine map of an upright patch whose top half holds the rank and bottom half the suit. The
classifier decides which pairs are real indices; this module only proposes, cheaply and
rotation-invariantly.

Glyphs are not always clean blobs on paper above the frame's paper level: card paper in shade or in a
grey photo under glare is darker than that (a relaxed paper test keeps glyphs on a clean, much brighter
surround); a glyph near a card's edge runs into the table, the edge's shadow or a court card's frame (blobs
too big for a glyph are looked at again at a stricter ink level); and a rank glyph may touch its suit
(an elongated blob with a waist is also proposed cut in two, as a pair).
"""
from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np

class Blob(NamedTuple):
    """One glyph-sized ink blob: centroid, box, ink area. A named tuple, not a dataclass: a frame makes
    hundreds, and a frozen dataclass costs ~4x the time to build. Blobs are told apart by identity
    (id()), never by value."""
    cx: float
    cy: float
    x: int
    y: int
    w: int
    h: int
    area: int
    axis: tuple[float, float] = (0.0, 0.0)  # unit vector between the two parts of a merged '10'
    parts: tuple[tuple[float, float], ...] = ()  # a merged '10': its two parts' centres
    edge: bool = False  # on paper by the relaxed ring test only (_EDGE_RING): close to the paper's edge

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


def as_bgr(frame: np.ndarray) -> np.ndarray:
    """A grey (2-D) frame as BGR, a BGR frame as it is: what is resampled into colour patches or mosaics
    must have three channels (OpenCV silently reallocates a 3-channel `dst` for a 1-channel source), and
    what is painted on must not be the caller's frame (a 2-D frame is its own ink image)."""
    return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR) if frame.ndim == 2 else frame


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
    k = _kernel(window)
    return _mask_against(ink, cv2.dilate(ink, k), paper_level, _mean_mask(ink, k))


def ink_masks(ink: np.ndarray, window: int, paper_level: float | None = None
              ) -> list[tuple[np.ndarray, np.ndarray]]:
    """`ink_mask` against two estimates of the brightest paper nearby, each mask with its estimate:

    - the local max (`ink_mask`): keeps faint glyphs close to a card's edge;
    - its morphological closing (the local max shrunk back by the same window): the local max spills lit
      paper's brightness into the shade beside it, so a shadow's edge reads as ink and swallows a glyph it
      touches; against the closing the shade is paper and the glyph is cut on its own (on 'val' single
      photos, indices with no candidate at all: 12 -> 5 of 193).
    """
    k = _kernel(window)
    local_max = cv2.dilate(ink, k)
    closing = cv2.erode(local_max, k)
    mean = _mean_mask(ink, k)
    return [(_mask_against(ink, paper, paper_level, mean), paper) for paper in (local_max, closing)]


def _kernel(window: int) -> np.ndarray:
    k = max(3, window | 1)
    return cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))


def _mean_mask(ink: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """Darker than the local mean (over twice the window) by a margin."""
    return cv2.adaptiveThreshold(ink, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV,
                                 2 * kernel.shape[0] + 1, 18)


def _mask_against(ink: np.ndarray, paper: np.ndarray, paper_level: float | None, mean: np.ndarray) -> np.ndarray:
    """Ink darker than 0.72 x `paper` where `paper` is bright (its Otsu split, or `paper_level`), or in `mean`."""
    if paper_level is None:
        _, bright = cv2.threshold(paper, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    else:
        _, bright = cv2.threshold(paper, paper_level, 255, cv2.THRESH_BINARY)
    dark = cv2.compare(ink.astype(np.uint16) * 25, paper.astype(np.uint16) * 18, cv2.CMP_LT)  # ink < 0.72 paper
    return cv2.bitwise_or(cv2.bitwise_and(dark, bright), mean)


def paper_integral(ink: np.ndarray) -> np.ndarray:
    """Integral image of 'paper' pixels: brighter than the frame's Otsu split of the ink image."""
    _, paper = cv2.threshold(ink, 0, 1, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    return cv2.integral(paper)


def box_sums(ii: np.ndarray, x0: np.ndarray, y0: np.ndarray, x1: np.ndarray, y1: np.ndarray) -> np.ndarray:
    """Sums over the boxes [x0, x1) x [y0, y1) from an integral image."""
    return ii[y1, x1] - ii[y0, x1] - ii[y1, x0] + ii[y0, x0]


def find_blobs(mask: np.ndarray, min_size: float, max_size: float, paper: np.ndarray | None = None, *,
               ink: np.ndarray | None = None) -> list[Blob]:
    """Glyph-sized ink blobs; with a paper integral image, only blobs printed on a bright card.

    With `ink` (the ink image `mask` was made from), a blob at least `_clean_size` px that fails the paper
    test is still kept if it sits on a clean, much brighter surround (`_clean_surround`): card paper in
    shade, or in a grey photo under glare, is darker than the frame's paper split.
    """
    return _find(mask, min_size, max_size, paper, ink, None, split=False)[0]


def find_glyphs(mask: np.ndarray, min_size: float, max_size: float, paper: np.ndarray | None = None, *,
                ink: np.ndarray | None = None, local_paper: np.ndarray | None = None
                ) -> tuple[list[Blob], list[tuple[Blob, Blob]]]:
    """`find_blobs`, plus glyphs that merged with something else:

    - with `ink` and `local_paper` (the brightest paper nearby, as `ink_mask` computed it): a blob too big
      for a glyph (a glyph run into the table along a card's edge, into the edge's shadow or into a court
      card's frame) is looked at again at the stricter ink level _STRICT; its glyph-sized parts that touch
      the rest of it on one side only become blobs too (`_strict_parts`);
    - a blob that may be a whole corner index (rank and suit touching: blur, low resolution, a rank's tail
      on its suit) is cut across its long axis at its waist (`_split_index`). The halves come back as
      pairs, to be proposed with each other (in both orientations) and, like any glyph, with other blobs
      (a suit run into a pip beside it is cut off it, and its rank is another blob).
    """
    return _find(mask, min_size, max_size, paper, ink, local_paper, split=True)


# Paper test (see _on_paper): at least _PAPER_RING of the ring around a blob is brighter than the frame's
# paper split; a blob close to the paper's edge (an index near a turned card's corner, in a fan: its ring
# reaches over the edge onto the table or the card below) has only _EDGE_RING or more, and is kept marked
# `edge` (its readings are always re-checked, recognize.py). At 0.6 alone such indices gave no candidate:
# on the 32 deck designs +53 cards separated, +149 in fans; of 7 more wrong cards in fans, the re-check
# removes all.
_PAPER_RING = 0.6
_EDGE_RING = 0.45
# Relaxed paper test (see _on_paper): a blob at least _CLEAN_MIN_SIZE x the least glyph size and
# _CLEAN_MIN_SHARE x the greatest (small blobs on not-quite-paper are mostly table texture) with at most
# _CLEAN_RING_INK of ink in the ring around it and a ring _CLEAN_CONTRAST x brighter than its ink.
# Picked on the 'train' photos (glyph blobs on card paper vs all other blobs).
_CLEAN_MIN_SIZE = 3.75
_CLEAN_MIN_SHARE = 0.2
_CLEAN_RING_INK = 0.2
_CLEAN_CONTRAST = 1.5
# Parts of too-big blobs (_strict_parts): darker than _STRICT x the brightest paper nearby (rounded),
# at least _CLEAN_MIN_SIZE x the least glyph size, filling _STRICT_FILL of their box, box sides within
# _STRICT_ASPECT of each other, at most _STRICT_RING_INK of (normal-level) ink in the ring around them
# (a glyph touches the rest of its blob on one side only; art and texture surround their parts), the ring
# inside the frame; blobs more than _STRICT_MAX_DARK that dark are skipped. Picked on the 'train' photos
# (proposal recall against candidates per image).
_STRICT = 0.4
_STRICT_FILL = 0.2
_STRICT_ASPECT = 3.0
_STRICT_RING_INK = 0.6
_STRICT_MAX_DARK = 0.9
_STRICT_LUT = np.round(np.arange(256) * _STRICT).astype(np.uint8)
# Whole-index blobs (_split_index): size _SPLIT_SIZE x (least, greatest glyph size), and at least
# _SPLIT_SCALE x the median size of the frame's other glyph blobs (of at least _CLEAN_MIN_SIZE x the
# least glyph size, when there are 4 or more: an index is two glyphs long); spread along their principal
# axis _SPLIT_MOMENTS x across it (square root of the second moments' ratio, a cheap first test), then
# _SPLIT_ELONGATION x (end-to-end extents); cut where the ink per unit length is least within
# _SPLIT_RANGE of the length, at most _SPLIT_WAIST x the smaller peak on either side; each half at least
# _CLEAN_MIN_SIZE x the least glyph size. Picked on the 'train' photos.
_SPLIT_SIZE = (4.5, 2.0)
_SPLIT_SCALE = 1.3
_SPLIT_MOMENTS = (1.4, 4.5)
_SPLIT_ELONGATION = (1.5, 3.0)
_SPLIT_RANGE = (0.3, 0.7)
_SPLIT_WAIST = 0.6


def _find(mask: np.ndarray, min_size: float, max_size: float, paper: np.ndarray | None, ink: np.ndarray | None,
          local_paper: np.ndarray | None, split: bool) -> tuple[list[Blob], list[tuple[Blob, Blob]]]:
    """find_blobs (split=False) and find_glyphs (split=True)."""
    n, labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n <= 1:
        return [], []
    st = stats[1:]
    size = np.maximum(st[:, 2], st[:, 3])
    solid = st[:, 4] >= 0.12 * st[:, 2] * st[:, 3]
    glyph = (size >= min_size) & (size <= max_size)
    whole = split & (size >= _SPLIT_SIZE[0] * min_size) & (size <= _SPLIT_SIZE[1] * max_size)
    idx = np.flatnonzero(solid & (glyph | whole))
    clean_size = _clean_size(min_size, max_size)
    pst, pc = np.zeros((0, 5), np.int64), np.zeros((0, 2))
    if split and ink is not None and local_paper is not None:
        big = np.flatnonzero(size > max_size)
        if len(big):
            pst, pc = _strict_parts(mask, labels, st, big, ink, local_paper, min_size * _CLEAN_MIN_SIZE, max_size)
    edge = np.zeros(len(st), bool)
    part_edge = np.zeros(len(pst), bool)
    if paper is not None:
        keep, edge_only = _on_paper(mask, st[idx], paper, ink, clean_size)
        edge[idx[edge_only]] = True
        idx = idx[keep]
        keep, part_edge = _on_paper(mask, pst, paper, ink, clean_size)
        pst, pc, part_edge = pst[keep], pc[keep], part_edge[keep]
    blobs = ([_blob(cents[i + 1], st[i], edge[i]) for i in idx if glyph[i]]
             + [_blob(c, p, e) for p, c, e in zip(pst, pc, part_edge)])
    wholes = idx[whole[idx]]
    sizes = size[idx[glyph[idx]]]
    sizes = sizes[sizes >= min_size * _CLEAN_MIN_SIZE]
    if len(wholes) and len(sizes) >= 4:
        wholes = wholes[size[wholes] >= _SPLIT_SCALE * np.median(sizes)]
    halves = [h for i in wholes for h in [_split_index(labels, st[i], i + 1, min_size * _CLEAN_MIN_SIZE, edge[i])]
              if h is not None]
    return blobs, halves


def _blob(centre: np.ndarray, stat: np.ndarray, edge: bool = False) -> Blob:
    x, y, w, h, area = (int(v) for v in stat[:5])
    return Blob(float(centre[0]), float(centre[1]), x, y, w, h, area, edge=bool(edge))


def _clean_size(min_size: float, max_size: float) -> float:
    return max(min_size * _CLEAN_MIN_SIZE, max_size * _CLEAN_MIN_SHARE)


def _ring_boxes(st: np.ndarray, shape: tuple[int, ...]) -> tuple[np.ndarray, ...]:
    """Each box (rows x, y, w, h) grown by half its size each way, clipped to the image."""
    H, W = shape[:2]
    x, y, w, h = st[:, 0], st[:, 1], st[:, 2], st[:, 3]
    return (np.clip(x - w // 2, 0, W), np.clip(y - h // 2, 0, H), np.clip(x + w + w // 2, 0, W),
            np.clip(y + h + h // 2, 0, H))


def _on_paper(mask: np.ndarray, st: np.ndarray, paper: np.ndarray, ink: np.ndarray | None,
              clean_size: float) -> tuple[np.ndarray, np.ndarray]:
    """Per blob (rows x, y, w, h, area): is it printed on card paper, and is it so only by the edge test?
    At least _PAPER_RING of the ring around it (`_ring_boxes`) is brighter than the frame's paper split
    (`paper` is its integral image); or, with `ink`, it is at least `clean_size` px and `_clean_surround`
    holds; or (the edge test) at least _EDGE_RING of its ring is that bright."""
    if not len(st):
        return np.zeros(0, bool), np.zeros(0, bool)
    x0, y0, x1, y1 = _ring_boxes(st, mask.shape)
    bright = box_sums(paper, x0, y0, x1, y1)
    ring = np.maximum((x1 - x0) * (y1 - y0) - st[:, 4], 1)
    ok = bright >= _PAPER_RING * ring
    if ink is not None:
        test = np.flatnonzero(~ok & (np.maximum(st[:, 2], st[:, 3]) >= clean_size))
        ok[test] = [_clean_surround(mask, ink, st[i], (x0[i], y0[i], x1[i], y1[i])) for i in test]
    edge = ~ok & (bright >= _EDGE_RING * ring)
    return ok | edge, edge


def _clean_surround(mask: np.ndarray, ink: np.ndarray, stat: np.ndarray, ring: tuple[int, ...]) -> bool:
    """Little ink in the ring between a blob's box and `ring`, and the ring's mean ink level at least
    _CLEAN_CONTRAST x that of the ink pixels in the blob's box: table texture fails the first, faint
    stains the second."""
    x, y, w, h = (int(v) for v in stat[:4])
    x0, y0, x1, y1 = (int(v) for v in ring)
    outer = max((x1 - x0) * (y1 - y0) - w * h, 1)
    if _ring_ink(mask, stat, ring) >= _CLEAN_RING_INK:
        return False
    inked = cv2.countNonZero(mask[y:y + h, x:x + w])
    ring_level = (cv2.sumElems(ink[y0:y1, x0:x1])[0] - cv2.sumElems(ink[y:y + h, x:x + w])[0]) / outer
    blob_level = cv2.mean(ink[y:y + h, x:x + w], mask[y:y + h, x:x + w])[0] if inked else 255.0
    return ring_level >= _CLEAN_CONTRAST * max(blob_level, 1.0)


def _ring_ink(mask: np.ndarray, stat: np.ndarray, ring: np.ndarray | tuple[int, ...]) -> float:
    """Share of inked pixels in the ring between a blob's box (x, y, w, h) and the larger box `ring`."""
    x, y, w, h = (int(v) for v in stat[:4])
    x0, y0, x1, y1 = (int(v) for v in ring)
    inked = cv2.countNonZero(mask[y0:y1, x0:x1]) - cv2.countNonZero(mask[y:y + h, x:x + w])
    return inked / max((x1 - x0) * (y1 - y0) - w * h, 1)


def _strict_parts(mask: np.ndarray, labels: np.ndarray, st: np.ndarray, big: np.ndarray, ink: np.ndarray,
                  local_paper: np.ndarray, min_size: float, max_size: float) -> tuple[np.ndarray, np.ndarray]:
    """Glyph-sized parts of the blobs `big` (indices into st) at the stricter ink level _STRICT (see
    find_glyphs): their stats (x, y, w, h, area) and centroids. A blob mostly that dark (a glyph run into a
    dark table) is skipped: nothing lighter joins its parts."""
    H, W = mask.shape
    rows, cents = [], []
    for i in big:
        x, y, w, h = (int(v) for v in st[i, :4])
        dark = cv2.compare(ink[y:y + h, x:x + w], cv2.LUT(local_paper[y:y + h, x:x + w], _STRICT_LUT), cv2.CMP_LT)
        part = cv2.bitwise_and(dark, (labels[y:y + h, x:x + w] == i + 1).view(np.uint8))
        count = cv2.countNonZero(part)
        if count == 0 or count > _STRICT_MAX_DARK * st[i, 4]:
            continue
        # labelling costs per pixel of its input, ink or not: label the parts' box only
        bx, by, bw, bh = cv2.boundingRect(part)
        n, _, pst, pc = cv2.connectedComponentsWithStats(part[by:by + bh, bx:bx + bw], connectivity=8)
        if n > 1:
            rows.append(pst[1:] + (x + bx, y + by, 0, 0, 0))
            cents.append(pc[1:] + (x + bx, y + by))
    if not rows:
        return np.zeros((0, 5), np.int64), np.zeros((0, 2))
    pst, pc = np.concatenate(rows).astype(np.int64), np.concatenate(cents)
    xs, ys, ws, hs = pst[:, 0], pst[:, 1], pst[:, 2], pst[:, 3]
    size = np.maximum(ws, hs)
    ok = ((size >= min_size) & (size <= max_size) & (pst[:, 4] >= _STRICT_FILL * ws * hs)
          & (size <= _STRICT_ASPECT * np.minimum(ws, hs))
          & (xs - ws // 2 >= 0) & (ys - hs // 2 >= 0) & (xs + ws + ws // 2 <= W) & (ys + hs + hs // 2 <= H))
    rings = np.stack(_ring_boxes(pst, mask.shape), 1)  # inside the frame (tested above): unclipped
    keep = [j for j in np.flatnonzero(ok) if _ring_ink(mask, pst[j], rings[j]) < _STRICT_RING_INK]
    return pst[keep], pc[keep]


def _split_index(labels: np.ndarray, stat: np.ndarray, label: int, min_size: float, edge: bool = False
                 ) -> tuple[Blob, Blob] | None:
    """The two halves of one elongated blob, cut across its principal axis where it is thinnest (least ink
    per unit length, within _SPLIT_RANGE of its length); None if it is not elongated or has no waist. The
    halves are `edge` blobs if the whole one is."""
    x, y, w, h = (int(v) for v in stat[:4])
    ys, xs = np.nonzero(labels[y:y + h, x:x + w] == label)
    n = len(xs)
    if n < 8:
        return None
    cx, cy = xs.sum() / n, ys.sum() / n
    dx, dy = xs - cx, ys - cy
    a, b, c = float(dx @ dx), float(dx @ dy), float(dy @ dy)
    r = float(np.hypot((a - c) / 2, b))
    major, minor = (a + c) / 2 + r, (a + c) / 2 - r
    lo, hi = _SPLIT_MOMENTS
    if not lo * lo * minor <= major <= hi * hi * minor:
        return None
    angle = 0.5 * np.arctan2(2 * b, a - c)
    ux, uy = np.cos(angle), np.sin(angle)
    t = dx * ux + dy * uy  # along the long axis
    u = dy * ux - dx * uy
    t0 = t.min()
    length, width = t.max() - t0 + 1, u.max() - u.min() + 1
    if not _SPLIT_ELONGATION[0] * width <= length <= _SPLIT_ELONGATION[1] * width:
        return None
    pos = (t - t0).astype(np.int64)
    profile = np.convolve(np.bincount(pos), np.ones(3) / 3, mode="same")
    i0, i1 = int(_SPLIT_RANGE[0] * length), int(np.ceil(_SPLIT_RANGE[1] * length))
    if i1 <= i0:
        return None
    cut = i0 + int(np.argmin(profile[i0:i1]))
    if profile[cut] > _SPLIT_WAIST * min(profile[:cut].max(initial=0), profile[cut + 1:].max(initial=0)):
        return None
    first = pos < cut
    halves = []
    for part in (first, ~first):
        px, py = xs[part], ys[part]
        if len(px) < 2:
            return None
        bx, by, bw, bh = int(px.min()), int(py.min()), int(px.max()) + 1, int(py.max()) + 1
        if max(bw - bx, bh - by) < min_size:
            return None
        halves.append(Blob(float(px.mean()) + x, float(py.mean()) + y, bx + x, by + y, bw - bx, bh - by, len(px),
                           edge=bool(edge)))
    return halves[0], halves[1]


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


def ink_colour(bgr: np.ndarray, inked: np.ndarray) -> np.ndarray:
    """(N, P, 3) patch pixels and (N, P) ink mask -> (N,) mean redness of the ink, white-balanced by the
    patch's paper (its pixels that are not ink): the
    card is white, whatever the light and the camera make of it. Under a colour cast (warm lamps, a
    webcam's tint) a red suit's ink came out brown and was vetoed as not red: 7 right readings on the
    'train' and 'val' photos, against 2 wrong ones, of which the balanced colour still vetoes one."""
    w = inked.astype(np.float32)
    paper = 1.0 - w
    paper_bgr = (bgr * paper[..., None]).sum(1) / np.maximum(paper.sum(1), 1)[:, None]
    bgr = bgr * (paper_bgr.mean(1, keepdims=True) / np.maximum(paper_bgr, 1.0))[:, None, :]
    cnt = np.maximum(w.sum(1), 1)
    b, g, r = bgr[..., 0], bgr[..., 1], bgr[..., 2]
    red = ((r - np.maximum(g, b)) * w).sum(1) / cnt / 64.0
    return red.astype(np.float32)


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
    boxes, level = ([(0, 0, w, h)], None) if regions is None else (regions, _paper_level(ink, window))
    per_mask: list[tuple[list[Blob], list[tuple[Blob, Blob]]]] = [([], []), ([], [])]
    for x0, y0, x1, y1 in boxes:
        crop = ink[y0:y1, x0:x1]
        for (blobs, halves), (mask, local) in zip(per_mask, ink_masks(crop, window, level)):
            b, hv = find_glyphs(mask, lo * 0.4, hi * 1.3, paper[y0:y1 + 1, x0:x1 + 1], ink=crop, local_paper=local)
            blobs += [_shifted(v, x0, y0) for v in b]
            halves += [(_shifted(u, x0, y0), _shifted(v, x0, y0)) for u, v in hv]
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


# Card paper is looked for at this fraction of the frame's resolution (speed: the ink mask and the
# connected components, the costly steps, then run only around the cards).
_REGION_SCALE = 4
# Above this share of the frame, regions save nothing: process the whole frame.
_REGION_MAX_SHARE = 0.6
# Paper, for regions: brighter than this x the small copy's Otsu split (card paper in shade, darker than
# the split when the table is bright, must not be left out: the relaxed paper test finds glyphs there).
_REGION_PAPER = 0.85


def paper_regions(ink: np.ndarray, margin: int) -> list[tuple[int, int, int, int]] | None:
    """Disjoint boxes (x0, y0, x1, y1) around the bright paper blobs of the frame, padded by `margin`
    px, found on a 1/4-size copy; None when they would cover most of the frame anyway."""
    h, w = ink.shape
    s = _REGION_SCALE
    if h < 8 * s or w < 8 * s:
        return None
    small = cv2.resize(ink, (w // s, h // s), interpolation=cv2.INTER_AREA)
    level, _ = cv2.threshold(small, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    _, paper = cv2.threshold(small, _REGION_PAPER * level, 255, cv2.THRESH_BINARY)
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
    return b._replace(cx=b.cx + dx, cy=b.cy + dy, x=b.x + dx, y=b.y + dy)
