"""Affine cuts of a frame that average what they shrink. cv2.warpAffine has no INTER_AREA (asked for it, it
samples linearly: the same pixels), so a patch cut from a big frame at a fraction of its scale
point-samples the glyphs and aliases them. A cut that shrinks by SHRINK_AVERAGED or more samples a halving
of the frame (cv2.pyrDown, a Gaussian average) where it shrinks by less than 2, so each patch pixel stands
for the image pixels it covers.

Not from 2x: a table camera's cards (110-150 px wide) have their index patches cut at ~1.7-2.3x, and the
networks were trained on linearly sampled patches; averaged from 2x, the shipped faces' fanned KC on a
test frame was no longer read. From 3x (cards over ~190 px wide: close-ups, phone photos) the sampling
skips two pixels in three and averaging is what the glyph needs.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

SHRINK_AVERAGED = 3.0


class Pyramid:
    """A frame and its halvings, each made the first time a cut needs it."""

    def __init__(self, frame: np.ndarray) -> None:
        self.levels = [frame]

    def warp(self, to_image: np.ndarray, size: tuple[int, int], dst: np.ndarray) -> None:
        """Cut into `dst` the patch of `size` (w, h) whose pixels `to_image` (2x3, patch -> frame pixels)
        maps into the frame."""
        (a, b, _), (c, d, _) = to_image.tolist()  # plain floats: this runs for every patch of a frame
        shrink = math.sqrt(abs(a * d - b * c))
        m = to_image
        image = self.levels[0]
        if shrink >= SHRINK_AVERAGED:
            n, image = self._level(math.floor(math.log2(shrink)))
            m = to_image / np.float32(2 ** n)  # pyrDown's pixel i lies at its source's 2 i
        cv2.warpAffine(image, m, size, dst=dst, flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_REPLICATE)

    def _level(self, n: int) -> tuple[int, np.ndarray]:
        """Halving n, or the smallest there is (a frame is not halved below 8 px a side)."""
        while len(self.levels) <= n and min(self.levels[-1].shape[:2]) >= 16:
            self.levels.append(cv2.pyrDown(self.levels[-1]))
        n = min(n, len(self.levels) - 1)
        return n, self.levels[n]
