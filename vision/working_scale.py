"""The scale the general proposer works at: the one that brings the expected index to WORKING_L px from rank
to suit. Big frames (phone photos, a close camera) show indices far larger than the blob search and the
pairing need, and at full resolution they cost most of a frame's time (a 1600-px photo's big blobs are
each cut at their waist, glyphs.py). The candidates found on the smaller frame are mapped back to full
size; their patches are then cut from the full frame (resample.Pyramid averages what it shrinks), so the
classifier sees what it saw before.

The expected index length L comes from the calibrated glyph range, or without a calibration from the
isolated cards found (card width / 6.4); with neither, the frame is searched at full size.
"""
from __future__ import annotations

import statistics

import cv2
import numpy as np

from vision.blobs import Blob
from vision.calibration import GLYPH_RANGE_L
from vision.glyphs import IndexCandidate
from vision.index_pairs import CARD_W_L
from vision.outline import CardOutline

# Rank-to-suit distance the general proposer works at (px): a table camera's 110-150 px wide cards show
# 17-23 px, the size its thresholds were picked at.
WORKING_L = 24.0
# No resampling for less of a gain than this (a frame shrunk by 0.9 costs a resize for 20 % fewer pixels).
_LEAST_SHRINK = 0.8


def expected_length(glyph_px: tuple[float, float] | None, outlines: list[CardOutline]) -> float | None:
    """The index length L (px) the frame's cards should show: the calibration's, else the isolated cards'
    median width over 6.4; None when neither tells."""
    if glyph_px is not None:
        return glyph_px[1] / GLYPH_RANGE_L[1]
    if outlines:
        return statistics.median(o.width for o in outlines) / CARD_W_L
    return None


def working_scale(length: float | None) -> float:
    """The factor (<= 1) the frame is resized by for the general proposer."""
    if length is None:
        return 1.0
    scale = WORKING_L / length
    return scale if scale <= _LEAST_SHRINK else 1.0


def resized(image: np.ndarray, scale: float) -> np.ndarray:
    """`image` at `scale` (<= 1), each pixel the average of those it covers."""
    h, w = image.shape[:2]
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA)


def at_full_size(cands: list[IndexCandidate], scale: float) -> list[IndexCandidate]:
    """Candidates found on a frame resized by `scale`, in the full frame's pixels (a resized pixel i covers
    full pixels (i + 0.5) / scale - 0.5 around its centre). A blob shared by several candidates stays one
    blob: the recognizer tells blobs apart by identity."""
    back: dict[int, Blob] = {}

    def point(x: float, y: float) -> tuple[float, float]:
        return (x + 0.5) / scale - 0.5, (y + 0.5) / scale - 0.5

    def blob(b: Blob) -> Blob:
        if id(b) not in back:
            cx, cy = point(b.cx, b.cy)
            back[id(b)] = b._replace(cx=cx, cy=cy, x=int(b.x / scale), y=int(b.y / scale),
                                     w=max(1, round(b.w / scale)), h=max(1, round(b.h / scale)),
                                     area=max(1, round(b.area / scale ** 2)),
                                     parts=tuple(point(x, y) for x, y in b.parts))
        return back[id(b)]

    return [IndexCandidate(blob(c.rank), blob(c.suit)) for c in cands]
