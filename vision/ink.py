"""Ink and paper: what is dark or red on bright card paper, at the resolution of the frame. The darkest
channel (black and red ink are both dark there), ink masks against the local paper level, box sums over a
paper integral image, the regions of a frame that hold card paper, and the colour of a glyph's ink.
"""
from __future__ import annotations

import cv2
import numpy as np

# Card paper is looked for at this fraction of the frame's resolution (speed: the ink mask and the
# connected components, the costly steps, then run only around the cards).
_REGION_SCALE = 4
# Above this share of the frame, regions save nothing: process the whole frame.
_REGION_MAX_SHARE = 0.6
# Paper, for regions: brighter than this x the small copy's Otsu split (card paper in shade, darker than
# the split when the table is bright, must not be left out: the relaxed paper test finds glyphs there).
_REGION_PAPER = 0.85
# A frame with paper in it splits (Otsu) into classes this many grey levels apart or more: the real photos
# under the dimmest cast we measure stand 20 or more apart, a bare felt table's noise 3-10. Below it the
# frame holds no paper, and searching its noise for glyphs cost seconds a frame (an empty table).
_REGION_MIN_CONTRAST = 12.0


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


def ink_colour(bgr: np.ndarray, inked: np.ndarray) -> np.ndarray:
    """(N, P, 3) patch pixels and (N, P) ink mask -> (N, 2) how red the ink is, by what it absorbs of the
    patch's paper (its pixels that are not ink), under the two ways a light changes colour, least then most.

    Red ink absorbs green and blue and hardly any red; black ink absorbs all three alike. Measured on the
    absorbed light (paper minus ink, per channel), an added tint (stray coloured light, a camera's
    processing) cancels, and measured relative to the paper (the absorbed share per channel) a lamp's
    colour, which multiplies, cancels; each is fooled by the other. Ink is red only if red both ways.
    Before, one white-balanced redness (relative only): under a pink light black ink measured 0.28-0.34
    and passed as red, and a spade was named a diamond. On real photos under warm, pink, blue and dim
    casts (vision/training/casts.py) black ink's most is at most 0.24 and red ink's least at least 0.09
    (0.20 on edje's deck), most at least 0.44, dim photos aside."""
    w = inked.astype(np.float32)
    paper, ink = (_mean_colour(bgr, m) for m in (1.0 - w, w))
    absorbed = paper - ink
    relative = absorbed / np.maximum(paper, 1.0)
    out = np.stack([_redness(absorbed, 1.0), _redness(relative, 1e-3)], axis=1)
    return np.sort(out, axis=1).astype(np.float32)


def _mean_colour(bgr: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """(N, 3) mean BGR of the pixels under `weight` (N, P)."""
    return (bgr * weight[..., None]).sum(1) / np.maximum(weight.sum(1), 1)[:, None]


def _redness(absorbed: np.ndarray, floor: float) -> np.ndarray:
    """(N, 3) light absorbed per channel (B, G, R) -> (N,) how much more of green and blue than of red,
    as a share of the most absorbed: ~1 for red ink, ~0 for black, below 0 for blue or green."""
    return (np.minimum(absorbed[:, 0], absorbed[:, 1]) - absorbed[:, 2]) / np.maximum(absorbed.max(1), floor)


def paper_regions(ink: np.ndarray, margin: int) -> list[tuple[int, int, int, int]] | None:
    """Disjoint boxes (x0, y0, x1, y1) around the bright paper blobs of the frame, padded by `margin`
    px, found on a 1/4-size copy; None when they would cover most of the frame anyway; none at all when
    nothing in the frame stands out brighter than the rest (a bare table: no paper to find glyphs on)."""
    h, w = ink.shape
    s = _REGION_SCALE
    if h < 8 * s or w < 8 * s:
        return None
    small = cv2.resize(ink, (w // s, h // s), interpolation=cv2.INTER_AREA)
    level, _ = cv2.threshold(small, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    above = small > level
    if above.all() or not above.any() or small[above].mean() - small[~above].mean() < _REGION_MIN_CONTRAST:
        return []
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


def paper_level(ink: np.ndarray, window: int) -> float:
    """The whole frame's Otsu split of the local-max ink image (as ink_mask computes it), estimated on
    a 1/4-size copy."""
    s = _REGION_SCALE
    small = cv2.resize(ink, (ink.shape[1] // s, ink.shape[0] // s), interpolation=cv2.INTER_AREA)
    k = max(3, (window // s) | 1)
    level, _ = cv2.threshold(cv2.dilate(small, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))), 0, 255,
                             cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    return float(level)

