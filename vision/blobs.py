"""Glyph blobs: connected ink on card paper, of a glyph's size. Glyphs are not always clean blobs on paper
above the frame's paper level: card paper in shade or in a grey photo under glare is darker than that (a
relaxed paper test keeps glyphs on a clean, much brighter surround); a glyph near a card's edge runs into
the table, the edge's shadow or a court card's frame (blobs too big for a glyph are looked at again at a
stricter ink level); and a rank glyph may touch its suit (an elongated blob with a waist is also cut in
two, as a pair).
"""
from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np

from vision.ink import box_sums

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


def _find(mask: np.ndarray, min_size: float, max_size: float, paper: np.ndarray | None, ink: np.ndarray | None,
          local_paper: np.ndarray | None, split: bool) -> tuple[list[Blob], list[tuple[Blob, Blob]]]:
    """find_blobs (split=False) and find_glyphs (split=True)."""
    n, labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8, ltype=_label_type(mask))
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
    glyphs = idx[glyph[idx]]
    # plain numbers, converted at once (a frame has hundreds of blobs)
    blobs = ([Blob(cx, cy, x, y, w, h, area, edge=e) for (cx, cy), (x, y, w, h, area), e
              in zip(cents[glyphs + 1].tolist(), st[glyphs].tolist(), edge[glyphs].tolist())]
             + [_blob(c, p, e) for p, c, e in zip(pst, pc, part_edge)])
    wholes = idx[whole[idx]]
    sizes = size[glyphs]
    sizes = sizes[sizes >= min_size * _CLEAN_MIN_SIZE]
    if len(wholes) and len(sizes) >= 4:
        wholes = wholes[size[wholes] >= _SPLIT_SCALE * np.median(sizes)]
    halves = [h for i in wholes for h in [_split_index(labels, st[i], i + 1, min_size * _CLEAN_MIN_SIZE, edge[i])]
              if h is not None]
    return blobs, halves


def _label_type(mask: np.ndarray) -> int:
    """16-bit component labels where they cannot run out (half the time of 32-bit): an image of h x w px
    holds at most ceil(h/2) x ceil(w/2) components of 8-connected pixels."""
    h, w = mask.shape[:2]
    return cv2.CV_16U if (h + 1) // 2 * ((w + 1) // 2) <= 65535 else cv2.CV_32S


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


def shifted(b: Blob, dx: int, dy: int) -> Blob:
    return b._replace(cx=b.cx + dx, cy=b.cy + dy, x=b.x + dx, y=b.y + dy)

