"""Affine cuts of a frame that average what they shrink. cv2.warpAffine has no INTER_AREA (asked for it, it
samples linearly: the same pixels), so a patch cut from a big frame at a fraction of its scale
point-samples the glyphs and aliases them. A cut that shrinks by SHRINK_AVERAGED or more samples a halving
of the frame (cv2.pyrDown, a Gaussian average) where it shrinks by less than 2, so each patch pixel stands
for the image pixels it covers.

Not from 2x: a table camera's cards (110-150 px wide) have their index patches cut at ~1.7-2.3x, and the
networks were trained on linearly sampled patches; averaged from 2x, the shipped faces' fanned KC on a
test frame was no longer read. From 3x (cards over ~190 px wide: close-ups, phone photos) the sampling
skips two pixels in three and averaging is what the glyph needs.

A halving is made only where a cut needs it, in blocks of _BLOCK px: on a table camera's frame one long
candidate in a frame's few dozen shrinks by 3x, and halving the whole 1280x720 frame for it cost ~3.8 ms
(a fifth of the frame). Each block is cut from the level above with the 2 px the 5-tap kernel reaches
beyond it, so its pixels are exactly those of the whole frame's pyrDown (the frame's own edges are
reflected as pyrDown reflects them).
"""
from __future__ import annotations

import math

import cv2
import numpy as np

SHRINK_AVERAGED = 3.0
# Side of the blocks (px of the halving) a halving is made in.
_BLOCK = 32
# Pixels a linear sample reads beyond its point (its neighbour, and a fixed-point rounding's reach).
_SAMPLE_REACH = 2


class Pyramid:
    """A frame and its halvings, each block of a halving made the first time a cut needs it."""

    def __init__(self, frame: np.ndarray) -> None:
        self.levels = [frame]
        self._made: list[set[tuple[int, int]]] = [set()]  # per level, the blocks made (level 0 is whole)

    def warp(self, to_image: np.ndarray, size: tuple[int, int], dst: np.ndarray) -> None:
        """Cut into `dst` the patch of `size` (w, h) whose pixels `to_image` (2x3, patch -> frame pixels)
        maps into the frame."""
        (a, b, e), (c, d, f) = to_image.tolist()  # plain floats: this runs for every patch of a frame
        shrink = math.sqrt(abs(a * d - b * c))
        m = to_image
        image = self.levels[0]
        if shrink >= SHRINK_AVERAGED:
            n = self._depth(math.floor(math.log2(shrink)))
            m = to_image / np.float32(2 ** n)  # pyrDown's pixel i lies at its source's 2 i
            w, h = size
            xs = [(a * x + b * y + e) / 2 ** n for x, y in ((0, 0), (w, 0), (0, h), (w, h))]
            ys = [(c * x + d * y + f) / 2 ** n for x, y in ((0, 0), (w, 0), (0, h), (w, h))]
            image = self._region(n, math.floor(min(xs)) - _SAMPLE_REACH, math.floor(min(ys)) - _SAMPLE_REACH,
                                 math.ceil(max(xs)) + _SAMPLE_REACH + 1, math.ceil(max(ys)) + _SAMPLE_REACH + 1)
        cv2.warpAffine(image, m, size, dst=dst, flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_REPLICATE)

    def _depth(self, n: int) -> int:
        """Halving n, or the smallest there is (a frame is not halved below 8 px a side); its level is
        allocated, its blocks made on demand."""
        while len(self.levels) <= n and min(self.levels[-1].shape[:2]) >= 16:
            above = self.levels[-1]
            h, w = above.shape[:2]
            self.levels.append(np.zeros(((h + 1) // 2, (w + 1) // 2) + above.shape[2:], above.dtype))
            self._made.append(set())
        return min(n, len(self.levels) - 1)

    def _region(self, n: int, x0: int, y0: int, x1: int, y1: int) -> np.ndarray:
        """Level n with at least its pixels [x0, x1) x [y0, y1) made, clipped to it: a rectangle beyond
        the level's edge needs the edge's pixels (the cut replicates them)."""
        if n == 0:
            return self.levels[0]
        level, made = self.levels[n], self._made[n]
        h, w = level.shape[:2]
        bx = range(min(max(x0, 0), w - 1) // _BLOCK, (min(max(x1, 1), w) - 1) // _BLOCK + 1)
        by = range(min(max(y0, 0), h - 1) // _BLOCK, (min(max(y1, 1), h) - 1) // _BLOCK + 1)
        todo = [(i, j) for j in by for i in bx if (i, j) not in made]
        if todo:  # one cut over the blocks still to make (remaking a made block gives the same pixels)
            x0, x1 = min(i for i, _ in todo) * _BLOCK, min(w, (max(i for i, _ in todo) + 1) * _BLOCK)
            y0, y1 = min(j for _, j in todo) * _BLOCK, min(h, (max(j for _, j in todo) + 1) * _BLOCK)
            self._halve(n, x0, y0, x1, y1)
            made.update(todo)
        return level

    def _halve(self, n: int, x0: int, y0: int, x1: int, y1: int) -> None:
        """Make level n's pixels [x0, x1) x [y0, y1) from level n - 1: pixel i of a halving is the 5-tap
        average of its source's pixels 2 i - 2 .. 2 i + 2."""
        above = self._region(n - 1, 2 * x0 - 2, 2 * y0 - 2, 2 * x1 + 1, 2 * y1 + 1)
        h, w = above.shape[:2]
        sx0, sy0 = max(2 * x0 - 2, 0), max(2 * y0 - 2, 0)  # even: the cut's pixel j is the level's sx0 / 2 + j
        half = cv2.pyrDown(above[sy0:min(2 * y1 + 1, h), sx0:min(2 * x1 + 1, w)])
        ox, oy = x0 - sx0 // 2, y0 - sy0 // 2
        self.levels[n][y0:y1, x0:x1] = half[oy:oy + y1 - y0, ox:ox + x1 - x0]
