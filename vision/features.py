"""Classifier input from cut patches: gradient histograms of the index, its pixels, the coarse corner
context and the ink colour. Vectorised over all candidates of a frame."""
from __future__ import annotations

import cv2
import numpy as np

from vision.glyphs import PATCH_H, PATCH_W

_CELL = 4
_BINS = 8


def gradient_histograms(patches: np.ndarray) -> np.ndarray:
    """HOG-like: per 4x4 cell, gradient magnitude binned by signed direction (8 bins), L2-normalised
    per patch. (OpenCV 5 dropped HOGDescriptor from the main package, and this is 15 lines.)"""
    n, h, w = patches.shape
    if n == 0:
        return np.zeros((0, (h // _CELL) * (w // _CELL) * _BINS), np.float32)
    gy, gx = np.gradient(patches.astype(np.float32), axis=(1, 2))
    mag, ang = cv2.cartToPolar(gx.reshape(-1, w), gy.reshape(-1, w))
    mag = mag.reshape(n, h, w)
    pos = ang.reshape(n, h, w) / (2 * np.pi) * _BINS
    lo = np.floor(pos)
    frac = (pos - lo).astype(np.float32)
    lo = lo.astype(np.int64) % _BINS
    cells_y, cells_x = h // _CELL, w // _CELL
    cell = ((np.arange(h) // _CELL)[:, None] * cells_x + (np.arange(w) // _CELL)[None, :])
    idx = (np.arange(n)[:, None, None] * cells_y * cells_x + cell[None]) * _BINS
    size = n * cells_y * cells_x * _BINS
    out = (np.bincount((idx + lo).ravel(), (mag * (1 - frac)).ravel(), size)
           + np.bincount((idx + (lo + 1) % _BINS).ravel(), (mag * frac).ravel(), size)).reshape(n, -1)
    return out / (np.linalg.norm(out, axis=1, keepdims=True) + 1e-3)


def features(patches: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """(N, index pixels + context) patches and (N, 2) colour -> (N, F) classifier input."""
    index = patches[:, :PATCH_H * PATCH_W].reshape(-1, PATCH_H, PATCH_W)
    return np.hstack([gradient_histograms(index), patches, colour]).astype(np.float32)
