"""Patches cut at a fraction of the frame's scale average what they cover (cv2.warpAffine alone
point-samples: a fine pattern aliases into a coarse one)."""
from __future__ import annotations

import cv2
import numpy as np

from vision.resample import Pyramid


def _stripes(size: int = 512) -> np.ndarray:
    """Columns alternating black and white, 1 px each: 127.5 on average over any 2 px or more."""
    row = np.where(np.arange(size) % 2 == 0, 0, 255).astype(np.uint8)
    return np.repeat(np.tile(row, (size, 1))[:, :, None], 3, axis=2)


def _shrinking(times: float, at: float = 100.0) -> np.ndarray:
    """Patch -> image pixels: `times` image pixels per patch pixel, from (at, at), whole pixel steps."""
    return np.array([[times, 0.0, at], [0.0, times, at]], np.float32)


def test_a_cut_four_times_smaller_averages_the_stripes() -> None:
    frame = _stripes()
    patch = np.empty((24, 24, 3), np.uint8)
    Pyramid(frame).warp(_shrinking(4.0), (24, 24), patch)
    assert abs(float(patch.mean()) - 127.5) < 8 and float(patch.std()) < 10
    sampled = cv2.warpAffine(frame, _shrinking(4.0), (24, 24), flags=cv2.WARP_INVERSE_MAP | cv2.INTER_AREA)
    assert float(sampled.std()) < 1 and float(sampled.mean()) in (0.0, 255.0)  # what it did before: all one stripe


def test_a_cut_at_the_frames_scale_or_larger_is_warpaffines_own() -> None:
    """Under 3x shrinking nothing changes: table-camera frames read exactly as before."""
    rng = np.random.default_rng(0)
    frame = rng.integers(0, 256, (200, 300, 3), np.uint8)
    for times in (0.4, 1.0, 1.9, 2.9):
        m = np.array([[times * 0.8, -times * 0.6, 50.5], [times * 0.6, times * 0.8, 40.25]], np.float32)
        patch = np.empty((20, 32, 3), np.uint8)
        Pyramid(frame).warp(m, (32, 20), patch)
        own = cv2.warpAffine(frame, m, (32, 20), flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR,
                             borderMode=cv2.BORDER_REPLICATE)
        assert np.array_equal(patch, own)


def test_a_halving_lands_where_the_frame_does() -> None:
    """A bright square cut from the frame and from its halvings lands on the same patch pixels."""
    frame = np.zeros((640, 640, 3), np.uint8)
    frame[320:400, 320:400] = 255
    patch = np.empty((40, 40, 3), np.uint8)
    Pyramid(frame).warp(_shrinking(8.0, at=160.0), (40, 40), patch)  # patch (20..30) is the square
    bright = np.argwhere(patch[:, :, 0] > 127)
    assert bright.min(axis=0).tolist() == [20, 20] and bright.max(axis=0).tolist() == [29, 29]


def test_cuts_read_the_halvings_of_the_whole_frame_though_only_their_blocks_are_made() -> None:
    """Halvings are made block by block where cuts need them: every cut, near the frame's edges, beyond
    them, after others, reads exactly what it reads from cv2.pyrDown of the whole frame (odd sizes too)."""
    rng = np.random.default_rng(1)
    for shape in ((721, 1283, 3), (97, 131, 3), (50, 77)):
        frame = rng.integers(0, 256, shape, np.uint8)
        halvings = [frame]
        while min(halvings[-1].shape[:2]) >= 16:
            halvings.append(cv2.pyrDown(halvings[-1]))
        pyramid = Pyramid(frame)
        for _ in range(150):
            times, turn = float(rng.uniform(3, 12)), float(rng.uniform(0, 2 * np.pi))
            at = rng.uniform(-100, np.array(shape[1::-1]) + 100)
            m = np.array([[times * np.cos(turn), -times * np.sin(turn), at[0]],
                          [times * np.sin(turn), times * np.cos(turn), at[1]]], np.float32)
            patch = np.empty((32, 20) + shape[2:], np.uint8)
            pyramid.warp(m, (20, 32), patch)
            n = min(int(np.log2(times)), len(halvings) - 1)
            whole = cv2.warpAffine(halvings[n], m / np.float32(2 ** n), (20, 32),
                                   flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
            assert np.array_equal(patch, whole), (shape, times, at)
